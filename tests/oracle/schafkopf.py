"""An independent reference model of Bavarian Schafkopf (RULINGS.md B1-B12), for
``tests/test_replay_oracle.py``.

Written from RULINGS.md and the replay contract (docs/record-format.md), not from the engine,
in plain strings. It covers the default game and the options ``short_pack``, ``klopfen``,
``all_pass`` (redeal, ramsch, stock), ``stoss_max`` and ``stoss_window``, and claims (B8.3,
B8.4, B8.6); the Hochzeit, Bettel, Geier, Farbwenz and Farbgeier options are left to the
engine's own tests.

``legal_for(seat)`` is what a seat may do in turn (or, in a window, as one asked),
``free_for(seat)`` what it may do out of turn: a doubling before forehand's first card with
``stoss_window = second_card`` (B10.3, B10.5), and a claim (B8.3).

``replay(record) -> dict`` is the expected output of ``python -m engine replay``, or
``{"error": {"action": index|None, "message": ...}}``.
"""

from __future__ import annotations

from typing import Any

SUITS = ("E", "G", "H", "S")
RANKS = ("A", "10", "K", "O", "U", "9", "8", "7")
ALL_CARDS = tuple(s + r for s in SUITS for r in RANKS)
SHORT_CARDS = tuple(c for c in ALL_CARDS if c[1:] not in ("8", "7"))
OBERS = ("EO", "GO", "HO", "SO")
UNTERS = ("EU", "GU", "HU", "SU")
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
CLASSES = ("rufspiel", "wenz", "solo", "wenz_tout", "solo_tout", "sie")
DEFAULTS: dict[str, Any] = {
    "tariff": "10/50", "all_pass": "redeal", "short_pack": False, "bettel": False,
    "geier": False, "farbwenz": False, "farbgeier": False, "hochzeit": False,
    "klopfen": False, "stoss_max": 2, "stoss_window": "first_card", "ramsch_jungfrau": False,
}
RATES = {"10/50": (10, 50, 10, 30, 20, 10), "10/20/50": (20, 50, 10, 30, 20, 20),
         "5/20": (5, 20, 5, 10, 10, 5)}


def points(card: str) -> int:
    return POINTS[card[1:]]


# -- what a game makes trump, and how the cards rank (B2) ---------------------------------------


def trumps(game: str | None, pack: tuple[str, ...]) -> list[str]:
    """The game's trumps, highest first. None (before a game) and a Ramsch: as a Sauspiel."""
    kind = (game or "sauspiel").split("_")[0]
    if kind in ("wenz",):
        return list(UNTERS)
    suit = game.split("_")[-1] if kind == "solo" and game else "H"
    plain = [suit + r for r in ("A", "10", "K", "9", "8", "7")]
    return [c for c in (*OBERS, *UNTERS, *plain) if c in pack]


def suit_as(card: str, game: str | None, pack: tuple[str, ...]) -> str:
    """The suit a card follows: ``T`` for every trump."""
    return "T" if card in trumps(game, pack) else card[0]


def plain_order(game: str | None) -> tuple[str, ...]:
    kind = (game or "sauspiel").split("_")[0]
    return ("A", "10", "K", "O", "9", "8", "7") if kind == "wenz" else ("A", "10", "K", "9", "8",
                                                                     "7")


def winner(leader: int, cards: list[str], game: str | None, pack: tuple[str, ...]) -> int:
    top = trumps(game, pack)
    led = suit_as(cards[0], game, pack)

    def strength(c: str) -> int:
        if c in top:
            return 100 - top.index(c)
        if c[0] == led:
            return 50 - plain_order(game).index(c[1:])
        return 0
    best = max(range(len(cards)), key=lambda i: strength(cards[i]))
    return (leader + best) % 4


# -- the model of one deal ------------------------------------------------------------------------


class Hand:
    def __init__(self, record: dict[str, Any]) -> None:
        self.options = {**DEFAULTS, **(record.get("options") or {})}
        self.short = self.options["short_pack"]
        self.pack_cards = SHORT_CARDS if self.short else ALL_CARDS
        self.dealer = record["dealer"]
        status = record.get("status") or {}
        self.score = list(status.get("score") or [0, 0, 0, 0])
        self.pot = status.get("pot") or 0
        self.status_in = {"masters": None, "servant": None}
        for key in ("score", "pot"):
            if status.get(key) is not None:
                self.status_in[key] = status[key]
        pack = record["pack"]
        h = 3 if self.short else 4
        self.forehand = (self.dealer + 1) % 4
        self.dealt: list[list[str]] = [[] for _ in range(4)]
        for i, c in enumerate(pack):  # B3.2
            self.dealt[(self.forehand + (i % (4 * h)) // h) % 4].append(c)
        self.hands = [list(d) for d in self.dealt]
        self.phase = "knock" if self.options["klopfen"] else "announce"
        self.turn: int | None = self.forehand
        self.knocks = 0
        self.said: list[int] = []  # seats that said "I dad", in order
        self.count_said = 0
        self.game: str | None = None
        self.declarer: int | None = None
        self.partner: int | None = None
        self.team = [0, 1, 2, 3]
        self.doubles: list[int] = []
        self.decided: set[int] = set()
        self.searched = False  # the called suit has been led (B6.3d)
        self.tricks: list[dict[str, Any]] = []
        self.current: list[str] = []
        self.leader = self.forehand
        self.taken = [0, 0, 0, 0]
        self.result: dict[str, Any] | None = None
        # clarification
        self.queue: list[int] = []
        self.holder: int | None = None
        self.held: str | None = None
        self.challenger: int | None = None
        self.named: str | None = None
        self.limit: str | None = None
        self.resume: int | None = None
        self.failed: set[int] = set()  # seats whose claim failed (B8.4)
        self.claimed: int | None = None

    # -- helpers -------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.result is not None

    def order_from_forehand(self) -> list[int]:
        return [(self.forehand + k) % 4 for k in range(4)]

    def callable_suits(self, seat: int) -> list[str]:
        held = self.hands[seat]
        return [s for s in ("E", "G", "S") if s + "A" not in held
                and any(c[0] == s and c[1:] not in ("O", "U") for c in held)]

    def games(self, seat: int) -> list[str]:
        held = self.hands[seat]
        out = ["sauspiel_" + s for s in self.callable_suits(seat)]
        out += ["wenz", "wenz_tout"] + ["solo_" + s for s in SUITS] + ["solo_tout_" + s
                                                                       for s in SUITS]
        need = (*OBERS, "EU", "GU") if self.short else (*OBERS, *UNTERS)
        if all(c in held for c in need):
            out.append("sie")
        return out

    @staticmethod
    def class_of(game: str) -> str:
        if game.startswith("sauspiel"):
            return "rufspiel"
        if game.startswith("solo_tout"):
            return "solo_tout"
        if game.startswith("solo"):
            return "solo"
        return game

    def classes(self, seat: int) -> list[str]:
        mine = {self.class_of(g) for g in self.games(seat)}
        return [c for c in CLASSES if c in mine]

    def public_team(self, seat: int) -> int | None:
        if self.game is None or self.game == "ramsch":
            return None
        if seat == self.declarer:
            return 0
        if not self.game.startswith("sauspiel"):
            return self.team[seat]
        ace = self.game[-1] + "A"
        known = (ace not in self.hands[self.partner]  # type: ignore[index]
                 or self.partner in self.doubles
                 or len({s for s in self.doubles if s != self.declarer}) >= 2)
        if known:
            return self.team[seat]
        return 1 if seat in self.doubles else None

    def window_actors(self) -> list[int]:
        level = len(self.doubles) + 1
        want = 1 if level % 2 else 0
        return [s for s in self.order_from_forehand()
                if s not in self.decided and self.public_team(s) in (want, None)]

    # -- legal actions ---------------------------------------------------------------------------

    def legal_for(self, seat: int) -> list[dict[str, Any]]:
        if self.finished:
            return []
        if self.phase in ("kontra", "re"):
            if seat not in self.window_actors():
                return []
            level = len(self.doubles) + 1
            side = 1 if level % 2 else 0
            out: list[dict[str, Any]] = [{"stoss": level}] if self.team[seat] == side else []
            return [*out, {"weiter": True}]
        if seat != self.turn:
            return []
        if self.phase == "knock":
            return [{"klopfen": True}, {"weiter": True}]
        if self.phase == "announce":
            return [{"weiter": True}, {"dad": True}]
        if self.phase == "clarify":
            mine = self.classes(seat)
            if seat == self.challenger and self.named is None:
                floor = -1 if self.held is None else CLASSES.index(self.held)
                bids = [c for c in mine if CLASSES.index(c) > floor]
            else:
                bids = [c for c in mine if CLASSES.index(c) >= CLASSES.index(self.named)]  # type: ignore[arg-type]
            return [{"class": c} for c in bids] + [{"weiter": True}]
        if self.phase == "game":
            games = self.games(seat)
            if self.limit is not None:
                games = [g for g in games if self.class_of(g) == self.limit]
            return [{"game": g} for g in games]
        return [{"card": c} for c in self.legal_cards(seat)]

    def legal(self) -> list[dict[str, Any]]:
        return [] if self.turn is None else self.legal_for(self.turn)

    def free_for(self, seat: int) -> list[dict[str, Any]]:
        """Out of turn: B10.3/B10.5, the window is open from the declaration with
        ``second_card``, so before forehand's first card the party whose doubling it is may
        give it; B8.3/B8.6, a claim by the player on lead at a trick's start, once no
        doubling can be given any more."""
        if self.finished:
            return []
        if self.phase == "lead":
            level = len(self.doubles) + 1
            side = 1 if level % 2 else 0
            ok = level <= self.options["stoss_max"] and self.team[seat] == side
            return [{"stoss": level}] if ok else []
        if (self.phase == "play" and not self.current and seat == self.turn
                and self.game != "ramsch" and seat not in self.failed):
            return [{"claim": True}]
        return []

    def may_act(self) -> list[dict[str, Any]]:
        """Every seat that may act now, with all it may do (``replay``'s ``may_act``)."""
        out = []
        for seat in range(4):
            acts = self.legal_for(seat) + self.free_for(seat)
            if acts:
                out.append({"seat": seat, "legal": acts})
        return out

    def claim_holds(self, seat: int) -> bool:
        """B8.3 on the hands as they are: each of his trumps beats every other trump; with a
        plain card, nobody has more trumps and each of his plain cards beats every other
        card of its suit."""
        top = trumps(self.game, self.pack_cards)
        plain = plain_order(self.game)

        def is_trump(c: str) -> bool:
            return c in top

        mine = self.hands[seat]
        others = [c for s in range(4) if s != seat for c in self.hands[s]]
        my_trumps = [top.index(c) for c in mine if is_trump(c)]
        their_trumps = [top.index(c) for c in others if is_trump(c)]
        if my_trumps and their_trumps and max(my_trumps) > min(their_trumps):
            return False
        my_plain = [c for c in mine if not is_trump(c)]
        if not my_plain:
            return True
        if any(sum(1 for c in self.hands[s] if is_trump(c)) > len(my_trumps)
               for s in range(4) if s != seat):
            return False
        for c in my_plain:
            for o in others:
                if not is_trump(o) and o[0] == c[0] and plain.index(o[1:]) < plain.index(c[1:]):
                    return False
        return True

    def legal_cards(self, seat: int) -> list[str]:
        held = self.hands[seat]
        pack = self.pack_cards
        if self.current:
            led = suit_as(self.current[0], self.game, pack)
            cards = [c for c in held if suit_as(c, self.game, pack) == led] or list(held)
        else:
            cards = list(held)
        game = self.game or ""
        if game.startswith("sauspiel") and not self.searched:
            ace = game[-1] + "A"
            if ace in held:
                # B6.3 (a), (b), (c)
                suit = game[-1]
                if self.current:
                    if suit_as(self.current[0], game, pack) == suit:
                        return [ace]
                    if len(held) > 1:
                        return [c for c in cards if c != ace]
                else:
                    mine = [c for c in held if suit_as(c, game, pack) == suit]
                    if len(mine) < (3 if self.short else 4):
                        return [c for c in cards if c == ace
                                or suit_as(c, game, pack) != suit]
        return cards

    # -- actions ---------------------------------------------------------------------------------

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        if action in self.free_for(seat) and action not in self.legal_for(seat):
            if "stoss" in action:
                self.doubles.append(seat)
            elif self.claim_holds(seat):
                # B8.4: the cards still held and the tricks left are his party's.
                self.claimed = seat
                self.taken[seat] += sum(points(c) for h in self.hands for c in h)
                self.turn = None
                self.settle()
            else:
                self.failed.add(seat)
            return None
        if action not in self.legal_for(seat):
            return f"illegal {action} by seat {seat} in {self.phase}"
        kind, value = next(iter(action.items()))
        phase = self.phase
        if phase == "knock":
            self.knocks += kind == "klopfen"
            if seat == self.dealer:
                self.phase, self.turn = "announce", self.forehand
            else:
                self.turn = (seat + 1) % 4
        elif phase == "announce":
            if kind == "dad":
                self.said.append(seat)
            if seat != self.dealer:
                self.turn = (seat + 1) % 4
            elif not self.said:
                self.all_pass()
            elif len(self.said) == 1:
                self.to_game(self.said[0], None)
            else:
                self.phase = "clarify"
                self.queue = self.said[1:]
                self.challenger = self.turn = self.said[0]
        elif phase == "clarify":
            self.clarify(seat, value if kind == "class" else None)
        elif phase == "game":
            self.declare(seat, value)
        elif phase in ("kontra", "re"):
            if kind == "stoss":
                self.doubles.append(seat)
                if value < self.options["stoss_max"]:
                    self.open_window()
                else:
                    self.close_window()
            else:
                self.decided.add(seat)
                actors = self.window_actors()
                if actors:
                    self.turn = actors[0]
                else:
                    self.close_window()
        else:
            self.play(seat, value)
            if phase == "lead":
                self.resume = self.turn
                if len(self.doubles) < self.options["stoss_max"]:
                    self.open_window()
                else:  # every doubling was given before the card
                    self.close_window()
        return None

    def clarify(self, seat: int, named: str | None) -> None:
        """B4.5, step by step."""
        if seat == self.challenger and self.named is None:
            if named is None:
                self.challenger = None
            elif self.holder is None:
                self.holder, self.held, self.challenger = seat, named, None
            else:
                self.named = named
                self.turn = self.holder
                return
        elif named is not None:
            self.held, self.named = named, None
            self.turn = self.challenger
            return
        else:
            self.holder, self.held = self.challenger, self.named
            self.challenger = self.named = None
        if self.queue:
            self.challenger = self.turn = self.queue.pop(0)
            self.named = None
            return
        if self.holder is None:
            self.all_pass()
        else:
            self.to_game(self.holder, self.held)

    def to_game(self, seat: int, limit: str | None) -> None:
        self.phase, self.turn, self.limit, self.declarer = "game", seat, limit, seat

    def declare(self, seat: int, game: str) -> None:
        self.game = game
        side = {seat}
        if game.startswith("sauspiel"):
            ace = game[-1] + "A"
            self.partner = next(s for s in range(4) if ace in self.hands[s])
            side.add(self.partner)
        self.team = [0 if s in side else 1 for s in range(4)]
        self.party = [c for s in side for c in self.hands[s]]
        if game == "sie":
            self.turn = None
            self.settle()
            return
        if not self.options["stoss_max"]:
            self.start_play()
        elif self.options["stoss_window"] == "second_card":
            self.phase, self.turn, self.leader = "lead", self.forehand, self.forehand
        else:
            self.open_window()

    def open_window(self) -> None:
        self.decided = set()
        self.phase = "kontra" if len(self.doubles) % 2 == 0 else "re"
        self.turn = self.window_actors()[0]

    def close_window(self) -> None:
        if self.resume is None:
            self.start_play()
        else:
            self.phase, self.turn = "play", self.resume

    def start_play(self) -> None:
        self.phase = "play"
        self.turn = self.leader = self.forehand

    def all_pass(self) -> None:
        mode = self.options["all_pass"]
        if mode == "ramsch":
            self.game = "ramsch"
            self.start_play()
            return
        self.turn = None
        rate = RATES[self.options["tariff"]][5] if mode == "stock" else 0
        self.finish([-rate] * 4, self.pot + 4 * rate)

    def play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.current.append(card)
        if len(self.current) < 4:
            self.turn = (seat + 1) % 4
            return
        win = winner(self.leader, self.current, self.game, self.pack_cards)
        self.taken[win] += sum(points(c) for c in self.current)
        game = self.game or ""
        if game.startswith("sauspiel") and suit_as(self.current[0], game,
                                                   self.pack_cards) == game[-1]:
            self.searched = True
        self.tricks.append({"leader": self.leader, "cards": self.current, "winner": win})
        self.current = []
        self.leader = self.turn = win
        lost_tout = "tout" in game and self.team[win] != 0
        if lost_tout:
            # B8.1: the cards left go to the winner of this trick.
            self.taken[win] += sum(points(c) for h in self.hands for c in h)
        if lost_tout or not self.hands[win]:
            self.turn = None
            self.settle()

    # -- scoring ---------------------------------------------------------------------------------

    def laufende(self) -> int:
        game = self.game or ""
        top = trumps(game, self.pack_cards)
        first = top[0] in self.party
        run = 0
        for c in top:
            if (c in self.party) != first:
                break
            run += 1
        return run if run >= (2 if game.startswith("wenz") else 3) else 0

    def settle(self) -> None:
        sauspiel, solo, extra, _bettel, ramsch, _stock = RATES[self.options["tariff"]]
        mult = 2 ** (self.knocks + len(self.doubles))
        game = self.game or ""
        if game == "ramsch":
            unit = ramsch * 2 ** self.knocks
            tricks = [sum(1 for t in self.tricks if t["winner"] == s) for s in range(4)]
            scores = [0] * 4
            if max(tricks) == len(self.tricks):
                scores = [3 * unit if tricks[s] == len(self.tricks) else -unit for s in range(4)]
            elif len(set(self.taken)) > 1:
                most = max(self.taken)
                losers = [s for s in range(4) if self.taken[s] == most]
                for s in range(4):
                    if s not in losers:
                        scores[s] = unit * len(losers)
                for s in losers:
                    scores[s] = -unit * (4 - len(losers))
            self.finish(scores, self.pot, points=list(self.taken))
            return
        p0 = sum(self.taken[s] for s in range(4) if self.team[s] == 0)
        tricks0 = sum(1 for t in self.tricks if self.team[t["winner"]] == 0)
        tricks1 = len(self.tricks) - tricks0
        if self.claimed is not None:  # the tricks left count as the claimer's party's
            left = len(self.hands[self.claimed])
            if self.team[self.claimed] == 0:
                tricks0 += left
            else:
                tricks1 += left
        lauf = self.laufende()
        if game == "sie":
            won, value = True, 4 * (solo + extra * (6 if self.short else 8))
        elif "tout" in game:
            won, value = tricks1 == 0, 2 * (solo + extra * lauf)
        else:
            won = p0 >= 61
            schwarz = tricks1 == 0 if won else tricks0 == 0
            schneider = schwarz or (p0 >= 91 if won else p0 <= 30)
            base = sauspiel if game.startswith("sauspiel") else solo
            value = base + extra * (lauf + schneider + schwarz)
        value *= mult
        sign = 1 if won else -1
        if game.startswith("sauspiel"):
            scores = [sign * value * (1 if self.team[s] == 0 else -1) for s in range(4)]
        else:
            scores = [sign * value * (3 if s == self.declarer else -1) for s in range(4)]
        pot = self.pot
        if game.startswith("sauspiel") and pot:
            for s in range(4):
                if self.team[s] == 0:
                    scores[s] += pot // 2 if won else -(pot // 2)
            pot = 0 if won else 2 * pot
        p1 = sum(self.taken) - p0
        self.finish(scores, pot, points=[p0, p1, 0, 0])

    def finish(self, scores: list[int], pot: int, points: list[int] | None = None) -> None:
        balance = [a + b for a, b in zip(self.score, scores, strict=True)]
        status: dict[str, Any] = {"masters": None, "servant": None, "score": balance}
        if self.options["all_pass"] == "stock":
            status["pot"] = pot
        self.result = {"status": status, "points": points or [0, 0, 0, 0]}
        self.turn = None

    # -- the replay output ----------------------------------------------------------------------

    def points_now(self) -> list[int]:
        if self.result is not None:
            return self.result["points"]
        if self.game is None or self.game == "ramsch":
            return list(self.taken)
        p0 = sum(self.taken[s] for s in range(4) if self.team[s] == 0)
        return [p0, sum(self.taken) - p0, 0, 0]

    def output(self) -> dict[str, Any]:
        tricks = [dict(t) for t in self.tricks]
        if self.current:
            tricks.append({"leader": self.leader, "cards": list(self.current), "winner": None})
        trump = None
        if self.game is not None:
            top = trumps(self.game, self.pack_cards)
            trump = next((c[0] for c in top if c[1:] not in ("O", "U")), None)
        return {
            "trump": trump, "shown": [], "hands": [list(d) for d in self.dealt],
            "tricks": tricks, "points": self.points_now(), "finished": self.finished,
            "to_move": self.turn, "legal": self.legal(), "may_act": self.may_act(),
            "status": self.result["status"] if self.result else self.status_in,
            "next_dealer": (self.dealer + 1) % 4 if self.result else None,
        }


def validate(record: dict[str, Any]) -> str | None:
    options = {**DEFAULTS, **(record.get("options") or {})}
    pack = SHORT_CARDS if options["short_pack"] else ALL_CARDS
    if sorted(record.get("pack", [])) != sorted(pack):
        return "the pack must hold the game's cards once each"
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < 4:
        return "bad dealer"
    status = record.get("status") or {}
    score, pot = status.get("score"), status.get("pot")
    if score is not None and len(score) != 4:
        return "bad score"
    if pot is not None and (options["all_pass"] != "stock" or pot < 0 or pot % 2):
        return "bad pot"
    if sum(score or ()) + (pot or 0):
        return "the balances and the pot must add up to zero"
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
