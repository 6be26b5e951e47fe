"""An independent reference model of Doppelkopf (RULINGS.md D1-D9), for
``tests/test_replay_oracle.py``.

Written from RULINGS.md and the replay contract (docs/record-format.md), not from the engine,
in plain strings: each card a code, a hand a list of codes (a card may be there twice). It
covers the Vorbehalt phase with solos and the Hochzeit (its finding trick and the Karo-Solo
it may become), the stille Hochzeit, every announcement with its deadline, late replies and
the Hochzeit's shift, who wins and every game point and extra, and the options ``nines``,
``dullen``, ``schweinchen``, ``extras``, ``solo_set``, ``hochzeit_finder``, ``lustsolo_lead``
and ``match_deals``; the Armut and Pflichtsolo options are left to the engine's own tests.

``replay(record) -> dict`` is the expected output of ``python -m engine replay``, or
``{"error": {"action": index|None, "message": ...}}``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

SUITS = ("E", "G", "H", "S")
#: The ranks in the engine's card order (a card is ``suit * 8 + rank``: A 10 K O U 9 8 7).
RANKS = ("A", "10", "K", "O", "U", "9")
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0}
CODES = tuple(s + r for s in SUITS for r in RANKS)
SOLOS = ("damen", "buben", "kreuz", "pik", "herz", "karo", "fleischlos")
SOLO_SUIT = {"kreuz": "E", "pik": "G", "herz": "H", "karo": "S"}
DEFAULTS: dict[str, Any] = {
    "nines": True, "dullen": "first", "schweinchen": False, "armut": False,
    "extras": "standard", "solo_set": "all", "hochzeit_finder": "any",
    "lustsolo_lead": "forehand", "pflichtsolo": False, "match_deals": 24, "early_end": True,
}
EXTRA_PRESETS = {
    "standard": ("gegen_kreuz_damen", "doppelkopf", "fuchs", "karlchen"),
    "with_karlchen_gefangen": ("gegen_kreuz_damen", "doppelkopf", "fuchs", "karlchen",
                               "karlchen_gefangen"),
    "without_gegen_kreuz_damen": ("doppelkopf", "fuchs", "karlchen"), "none": ()}
SOLO_PRESETS = {"all": SOLOS, "no_fleischlos": SOLOS[:6], "damen_buben": ("damen", "buben")}
TOP = ("H10", "EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU")
STEPS = ("keine_90", "keine_60", "keine_30", "schwarz")


def order_key(c: str) -> tuple[int, int]:
    return SUITS.index(c[0]), RANKS.index(c[1:])


def points(c: str) -> int:
    return POINTS[c[1:]]


def trumps(game: str, schwein: bool, nines: bool) -> list[str]:
    """The game's trumps, highest first (D2.2, D6.2, D2.9)."""
    if game == "damen":
        out = [s + "O" for s in SUITS]
    elif game == "buben":
        out = [s + "U" for s in SUITS]
    elif game == "fleischlos":
        out = []
    else:
        suit = SOLO_SUIT.get(game, "S")
        out = list(TOP) + [c for c in (suit + "A", suit + "10", suit + "K", suit + "9")
                           if c not in TOP]
        if schwein:
            out = ["SA"] + [c for c in out if c != "SA"]
    return [c for c in out if nines or not c.endswith("9")]


def plain_ranks(game: str) -> tuple[str, ...]:
    if game == "damen":
        return ("A", "10", "K", "U", "9")
    if game == "buben":
        return ("A", "10", "K", "O", "9")
    if game == "fleischlos":
        return ("A", "10", "K", "O", "U", "9")
    return ("A", "10", "K", "9")


class Hand:
    def __init__(self, record: dict[str, Any]) -> None:
        self.options = {**DEFAULTS, **(record.get("options") or {})}
        o = self.options
        self.extras = EXTRA_PRESETS[o["extras"]] if isinstance(o["extras"], str) else tuple(
            o["extras"])
        self.solos = SOLO_PRESETS[o["solo_set"]] if isinstance(o["solo_set"], str) else tuple(
            s for s in SOLOS if s in o["solo_set"])
        self.n = 12 if o["nines"] else 10
        self.dealer = record["dealer"]
        self.forehand = (self.dealer + 1) % 4
        pack = list(record["pack"])
        self.dealt: list[list[str]] = [[] for _ in range(4)]
        for i, c in enumerate(pack):
            if self.n == 12 or i < 12:
                seat = (self.forehand + i // 3) % 4
            elif i < 28:
                seat = (self.forehand + (i - 12) // 4) % 4
            else:
                seat = (self.forehand + (i - 28) // 3) % 4
            self.dealt[seat].append(c)
        self.hands = [list(d) for d in self.dealt]
        status = record.get("status") or {}
        self.status_in = {"masters": None, "servant": None}
        if status.get("score") is not None:
            self.status_in["score"] = list(status["score"])
        if status.get("deals") is not None:
            self.status_in["deals"] = status["deals"]
        self.said: list[tuple[int, str | None]] = []
        self.game: str | None = None  # normal, stille, hochzeit, or a solo
        self.declarer: int | None = None
        self.k: int | None = None
        self.alone = False
        self.schwein = False
        self.team = [0 if "EO" in self.hands[s] else 1 for s in range(4)]
        self.levels = [0, 0]
        self.replied = [False, False]
        self.turn: int | None = self.forehand
        self.leader = self.forehand
        self.current: list[str] = []
        self.tricks: list[dict[str, Any]] = []
        self.taken = [0, 0, 0, 0]
        self.result: dict[str, Any] | None = None

    # -- what is legal ------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.result is not None

    def card_legal(self, seat: int) -> list[str]:
        held = self.hands[seat]
        if self.current:
            led = self.suit(self.current[0])
            follow = [c for c in held if self.suit(c) == led]
            if follow:
                held = follow
        return sorted(set(held), key=order_key)

    def suit(self, c: str) -> str:
        game = self.game if self.game in SOLOS else "normal"
        return "T" if c in trumps(game, self.schwein, True) else c[0]

    def shift(self) -> int:
        return self.k - 1 if self.game == "hochzeit" and self.k is not None else 0

    def thr(self, step: int) -> int:
        return self.n - step - self.shift()

    def steps(self, seat: int) -> tuple[list[int], bool]:
        """D7.4-D7.7: the levels ``seat`` may raise its party to, and whether as a reply."""
        if self.game is None or self.finished or (self.game == "hochzeit" and self.k is None):
            return [], False
        party = self.team[seat]
        own, other = self.levels[party], self.levels[1 - party]
        held = len(self.hands[seat])
        if own < 5 and held >= self.thr(own + 1):
            if own and self.replied[party]:
                return [], False
            return list(range(own + 1, 6)), False
        if own == 0 and other and held >= self.thr(other) - 1:
            return [1], True
        return [], False

    def words(self, seat: int) -> list[str]:
        party = self.team[seat]
        return [("re", "kontra")[party] if level == 1 else STEPS[level - 2]
                for level in self.steps(seat)[0]]

    def legal_for(self, seat: int) -> list[dict[str, Any]]:
        if self.finished or seat != self.turn:
            return []
        if self.game is None:
            out: list[dict[str, Any]] = [{"gesund": True}]
            out += [{"vorbehalt": s} for s in self.solos]
            if self.hands[seat].count("EO") == 2:
                out.append({"vorbehalt": "hochzeit"})
            return out
        return [{"card": c} for c in self.card_legal(seat)] + [
            {"ansage": w} for w in self.words(seat)]

    def legal(self) -> list[dict[str, Any]]:
        return [] if self.turn is None else self.legal_for(self.turn)

    def may_act(self) -> list[dict[str, Any]]:
        """Every seat that may act now (``replay``'s ``may_act``): the seat to move with its
        cards and announcements, any other seat with the announcements it may make out of
        turn (D7.1)."""
        out = []
        for seat in range(4):
            acts = self.legal_for(seat) if seat == self.turn else [
                {"ansage": w} for w in self.words(seat)]
            if acts:
                out.append({"seat": seat, "legal": acts})
        return out

    # -- doing it --------------------------------------------------------------------------

    def apply(self, seat: int, move: dict[str, Any]) -> str | None:
        """None if legal (and applied), else why not."""
        if self.finished:
            return "the hand is over"
        if "ansage" in move:
            word = move["ansage"]
            if word not in self.words(seat):
                return "no such announcement now"
            party = self.team[seat]
            level = 1 if word in ("re", "kontra") else STEPS.index(word) + 2
            _, reply = self.steps(seat)
            self.levels[party] = level
            if reply:
                self.replied[party] = True
            return None
        if move not in self.legal_for(seat):
            return "illegal"
        if self.game is None:
            self.said.append((seat, move.get("vorbehalt")))
            if len(self.said) < 4:
                self.turn = (seat + 1) % 4
            else:
                self.settle_game()
            return None
        self.play(seat, move["card"])
        return None

    def settle_game(self) -> None:
        """D4.3: the winning Vorbehalt (a Lustsolo before a Hochzeit, then forehand's)."""
        solos = [(s, k) for s, k in self.said if k in SOLOS]
        weddings = [(s, k) for s, k in self.said if k == "hochzeit"]
        lead = self.forehand
        if solos:
            self.declarer, self.game = solos[0]
            self.alone = True
            if self.options["lustsolo_lead"] == "soloist":
                lead = self.declarer
        elif weddings:
            self.declarer, self.game = weddings[0][0], "hochzeit"
        else:
            both = [s for s in range(4) if self.hands[s].count("EO") == 2]
            if both:
                self.declarer, self.game, self.alone = both[0], "stille", True
            else:
                self.game = "normal"
        if self.declarer is not None:
            self.team = [0 if s == self.declarer else 1 for s in range(4)]
        if self.options["schweinchen"] and self.game not in ("damen", "buben", "fleischlos",
                                                              "kreuz", "pik", "herz"):
            self.schwein = any(h.count("SA") == 2 for h in self.hands)
        self.turn = self.leader = lead

    def play(self, seat: int, c: str) -> None:
        self.hands[seat].remove(c)
        self.current.append(c)
        if len(self.current) < 4:
            self.turn = (seat + 1) % 4
            return
        winner = (self.leader + self.winner_index()) % 4
        self.taken[winner] += sum(map(points, self.current))
        self.tricks.append({"leader": self.leader, "cards": self.current, "winner": winner})
        self.current = []
        self.leader = self.turn = winner
        if self.game == "hochzeit" and self.k is None:
            self.klaerung()
        if not self.hands[winner]:
            self.score()

    def winner_index(self) -> int:
        cards = self.current
        game = self.game if self.game in SOLOS else "normal"
        top = trumps(game, self.schwein, True)
        ranks = plain_ranks(game)

        def strength(c: str) -> tuple[int, int]:
            if c in top:
                return 2, -top.index(c)
            if c[0] == cards[0][0] and cards[0] not in top:
                return 1, -ranks.index(c[1:])
            return 0, 0

        best = 0
        for i in range(1, 4):
            if strength(cards[i]) > strength(cards[best]):
                best = i
        dullen = self.options["dullen"]
        last = not self.hands[0]
        if dullen != "first" and "H10" in top and cards.count("H10") == 2 and \
                cards[best] == "H10" and (dullen == "second" or not last):
            best = max(i for i, c in enumerate(cards) if c == "H10")
        return best

    def klaerung(self) -> None:
        """D5.3, D5.4."""
        trick = self.tricks[-1]
        finder = self.options["hochzeit_finder"]
        trump_led = self.suit(trick["cards"][0]) == "T"
        if trick["winner"] != self.declarer and (
                finder == "any" or (finder == "trump") == trump_led):
            self.k = len(self.tricks)
            self.team[trick["winner"]] = 0
        elif len(self.tricks) == 3:
            self.k, self.alone = 3, True

    # -- the end --------------------------------------------------------------------------

    def augen(self) -> list[int]:
        return [sum(self.taken[s] for s in range(4) if self.team[s] == p) for p in (0, 1)]

    def score(self) -> None:
        """D8, D9."""
        a = self.augen()
        tricks = [sum(1 for t in self.tricks if self.team[t["winner"]] == p) for p in (0, 1)]
        lv = self.levels

        def meets(p: int) -> bool:
            own, other = lv[p], lv[1 - p]
            if own == 5:
                return tricks[1 - p] == 0
            if own >= 2:
                return a[p] >= {2: 151, 3: 181, 4: 211}[own]
            if other == 5:
                return tricks[p] >= 1
            if other >= 2:
                return a[p] >= {2: 90, 3: 60, 4: 30}[other]
            if lv == [0, 1]:
                return a[p] >= (120 if p == 0 else 121)
            return a[p] >= (121 if p == 0 else 120)

        won = [meets(0), meets(1)]
        winner = won.index(True) if any(won) else None
        pts = [0, 0]
        for p in (0, 1):
            o = 1 - p
            if winner in (None, p):
                pts[p] += sum(1 for mark in (90, 60, 30) if a[o] < mark)
            for step, need in zip((2, 3, 4, 5), (120, 90, 60, 30), strict=True):
                if lv[o] >= step and a[p] >= need:
                    pts[p] += 1
        if winner is not None:
            w = winner
            pts[w] += 1 + (tricks[1 - w] == 0)
            pts[w] += 2 * sum(1 for p in (0, 1) if lv[p]) + sum(max(0, x - 1) for x in lv)
        if self.game in ("normal", "hochzeit") and not self.alone:
            if "gegen_kreuz_damen" in self.extras and winner == 1:
                pts[1] += 1
            for i, t in enumerate(self.tricks):
                w = self.team[t["winner"]]
                if "doppelkopf" in self.extras and sum(map(points, t["cards"])) >= 40:
                    pts[w] += 1
                for j, c in enumerate(t["cards"]):
                    holder = self.team[(t["leader"] + j) % 4]
                    if c == "SA" and holder != w and "fuchs" in self.extras:
                        pts[w] += 1
                    if c == "EU" and holder != w and i == len(self.tricks) - 1 and \
                            "karlchen_gefangen" in self.extras:
                        pts[w] += 1
                win_card = t["cards"][(t["winner"] - t["leader"]) % 4]
                if i == len(self.tricks) - 1 and win_card == "EU" and "karlchen" in self.extras:
                    pts[w] += 1
        net = pts[0] - pts[1]
        if self.alone:
            scores = [3 * net if s == self.declarer else -net for s in range(4)]
        else:
            scores = [net if self.team[s] == 0 else -net for s in range(4)]
        before = self.status_in.get("score") or [0, 0, 0, 0]
        total = [x + y for x, y in zip(before, scores, strict=True)]
        deals = (self.status_in.get("deals") or 0) + 1
        status = {"masters": None, "servant": None, "score": total, "deals": deals}
        self.result = {"status": status, "points": a}
        self.turn = None

    # -- the replay output ----------------------------------------------------------------------

    def output(self) -> dict[str, Any]:
        tricks = [dict(t) for t in self.tricks]
        if self.current:
            tricks.append({"leader": self.leader, "cards": list(self.current), "winner": None})
        trump = None
        if self.game is not None:
            trump = {"damen": None, "buben": None, "fleischlos": None}.get(
                self.game, SOLO_SUIT.get(self.game, "S"))
        return {
            "trump": trump, "shown": [], "hands": [list(d) for d in self.dealt],
            "tricks": tricks, "points": self.result["points"] if self.result else self.augen(),
            "finished": self.finished, "to_move": self.turn, "legal": self.legal(),
            "may_act": self.may_act(),
            "status": self.result["status"] if self.result else self.status_in,
            "next_dealer": (self.dealer + 1) % 4 if self.result else None,
        }


def validate(record: dict[str, Any]) -> str | None:
    options = {**DEFAULTS, **(record.get("options") or {})}
    codes = CODES if options["nines"] else tuple(c for c in CODES if not c.endswith("9"))
    if Counter(record.get("pack", [])) != Counter(codes * 2):
        return "the pack must hold the game's cards twice each"
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < 4:
        return "bad dealer"
    return None


def new_hand(record: dict[str, Any]) -> Hand:
    return Hand(record)


def replay(record: dict[str, Any]) -> dict[str, Any]:
    problem = validate(record)
    if problem is not None:
        return {"error": {"action": None, "message": problem}}
    hand = Hand(record)
    for i, action in enumerate(record.get("actions", [])):
        seat = action.get("seat")
        move = {k: v for k, v in action.items() if k != "seat"}
        if not isinstance(seat, int) or isinstance(seat, bool) or len(move) != 1:
            return {"error": {"action": i, "message": "bad action"}}
        problem = hand.apply(seat, move)
        if problem is not None:
            return {"error": {"action": i, "message": problem}}
    return hand.output()
