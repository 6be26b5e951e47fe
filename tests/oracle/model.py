"""An independent reference model of the Filicău / Filkó hand rules.

Written from docs (RULINGS.md and the replay contract), not from the engine, so that the
differential test in ``tests/test_replay_oracle.py`` can check ``python -m engine replay``.
Readability over speed.

``replay(record) -> dict`` returns the expected replay output for one game record, or
``{"error": {"action": index|None, "message": ...}}``.

For the other games the model knows less: which statuses a match can reach
(``status_problem``) and who may do what in the 20-card Filcau's fris window
(``fris_window_error``).
"""

from __future__ import annotations

from typing import Any

SUITS = ("E", "G", "H", "S")
RANKS = ("A", "10", "K", "O", "U", "9", "8", "7")
ALL_CARDS = tuple(s + r for s in SUITS for r in RANKS)
OVERS = ("EO", "GO", "HO", "SO")  # high to low
PLAIN_ORDER = ("A", "10", "K", "U", "9", "8", "7")  # high to low, Overs excluded
GAMES = ("filicau", "filko")


def team_of(seat: int) -> int:
    return seat % 2


def suit_of(card: str) -> str:
    return card[0]


def rank_of(card: str) -> str:
    return card[1:]


def is_over(card: str) -> bool:
    return rank_of(card) == "O"


def card_points(card: str) -> int:
    return 1 if rank_of(card) in ("A", "10") else 0


def effective_suit(card: str, trump: str) -> str:
    """The suit a card counts as for following: Overs belong to the trump suit."""
    return trump if is_over(card) else suit_of(card)


def is_trump(card: str, trump: str) -> bool:
    return effective_suit(card, trump) == trump


def strength(card: str, trump: str, led_suit: str) -> int:
    """Bigger is stronger; 0 for a card that can't win the trick."""
    if is_over(card):
        return 200 - OVERS.index(card)
    if suit_of(card) == trump:
        return 100 - PLAIN_ORDER.index(rank_of(card))
    if suit_of(card) == led_suit:
        return 50 - PLAIN_ORDER.index(rank_of(card))
    return 0


def trick_winner(leader: int, cards: list[str], trump: str) -> int:
    led = effective_suit(cards[0], trump)
    best = max(range(len(cards)), key=lambda i: strength(cards[i], trump, led))
    return (leader + best) % 4


def legal_cards(hand: list[str], trick_cards: list[str], trump: str) -> list[str]:
    if not trick_cards:
        return list(hand)
    led = effective_suit(trick_cards[0], trump)
    follow = [c for c in hand if effective_suit(c, trump) == led]
    if follow:
        return follow
    trumps = [c for c in hand if is_trump(c, trump)]
    if trumps:
        return trumps
    return list(hand)


# ---------------------------------------------------------------- deal and trump


def deal(game: str, pack: list[str], dealer: int) -> tuple[list[list[str]], str, list[str]]:
    hands: list[list[str]] = [[] for _ in range(4)]
    if game == "filicau":
        for i, card in enumerate(pack):
            hands[(dealer + 1 + i) % 4].append(card)
        shown = []
        for card in hands[dealer]:  # dealer's cards in the order dealt: indexes 3, 7, 11, ...
            shown.append(card)
            if not is_over(card):
                break
        trump = suit_of(shown[-1])
    else:
        i = 0
        for _round in range(2):
            for k in range(4):
                seat = (dealer + 1 + k) % 4
                hands[seat].extend(pack[i : i + 4])
                i += 4
        shown = []
        for idx in range(31, -1, -1):
            shown.append(pack[idx])
            if not is_over(pack[idx]):
                break
        trump = suit_of(shown[-1])
    return hands, trump, shown


# ---------------------------------------------------------------- status outcomes


def outcome(game: str, status: dict[str, Any], pts: tuple[int, int]) -> tuple[Any, ...]:
    """The status outcome of a hand with final points ``pts``.

    Filicău: ("status", masters). Filkó: ("status", masters, servant) or ("choose", team) when a
    team becomes masters for the first time and must pick a Servant.
    """
    masters = status["masters"]
    if game == "filicau":
        if 8 in pts:
            return ("status", None)
        for t in (0, 1):
            if pts[t] in (6, 7):
                return ("status", t)
        return ("status", masters)
    servant = status["servant"]
    for t in (0, 1):
        if pts[t] >= 6:
            if masters is None:
                return ("choose", t)
            if masters == t:
                return ("status", masters, servant)
            return ("status", t, (servant + 1) % 4)
    return ("status", masters, servant)


def outcome_fixed(game: str, status: dict[str, Any], pts: list[int]) -> bool:
    remaining = 8 - pts[0] - pts[1]
    outs = {
        outcome(game, status, (pts[0] + k, pts[1] + remaining - k)) for k in range(remaining + 1)
    }
    return len(outs) == 1


# ---------------------------------------------------------------- validation


def _is_seat(x: Any) -> bool:
    return type(x) is int and 0 <= x <= 3


def _is_team(x: Any) -> bool:
    return type(x) is int and x in (0, 1)


def validate(record: Any) -> str | None:
    if not isinstance(record, dict):
        return "record is not an object"
    if record.get("game") not in GAMES:
        return "unknown game"
    opts = record.get("options", {})
    if not isinstance(opts, dict):
        return "bad options"
    if "early_end" in opts and type(opts["early_end"]) is not bool:
        return "bad early_end"
    if not _is_seat(record.get("dealer")):
        return "bad dealer"
    pack = record.get("pack")
    if (
        not isinstance(pack, list)
        or len(pack) != 32
        or not all(isinstance(c, str) for c in pack)
        or sorted(pack) != sorted(ALL_CARDS)
    ):
        return "bad pack"
    status = record.get("status")
    if not isinstance(status, dict):
        return "bad status"
    masters, servant = status.get("masters"), status.get("servant")
    if masters is not None and not _is_team(masters):
        return "bad masters"
    if servant is not None and not _is_seat(servant):
        return "bad servant"
    if record["game"] == "filicau":
        if servant is not None:
            return "Filicău has no servant"
        if masters is not None and team_of(record["dealer"]) == masters:
            return "with slaves a slave deals"
    else:
        if (masters is None) != (servant is None):
            return "Filkó masters and servant go together"
        if masters is not None and team_of(servant) == masters:
            return "servant must be an opponent of the masters"
        if servant is not None and record["dealer"] != servant:
            return "the Servant deals while masters stand"
    if not isinstance(record.get("actions", []), list):
        return "bad actions"
    return None


# ---------------------------------------------------------------- the hand


class Hand:
    def __init__(self, record: dict[str, Any]):
        self.game: str = record["game"]
        self.early_end: bool = record.get("options", {}).get("early_end", True)
        self.dealer: int = record["dealer"]
        self.status: dict[str, Any] = {
            "masters": record["status"]["masters"],
            "servant": record["status"]["servant"],
        }
        self.dealt, self.trump, self.shown = deal(self.game, list(record["pack"]), self.dealer)
        self.hands = [list(h) for h in self.dealt]
        self.tricks: list[dict[str, Any]] = []  # completed tricks
        self.current: list[str] = []
        self.leader = (self.dealer + 1) % 4
        self.points = [0, 0]
        self.playing = True  # card play still going on
        self.choosing: int | None = None  # team that must choose a Servant
        self.finished = False
        self.final_status: dict[str, Any] | None = None

    # -- queries

    def to_move(self) -> int | None:
        if self.playing:
            return (self.leader + len(self.current)) % 4
        if self.choosing is not None:
            return self.choosing  # lower seat of the team: team 0 -> 0, team 1 -> 1
        return None

    def legal(self) -> list[dict[str, Any]]:
        if self.playing:
            seat = self.to_move()
            assert seat is not None
            return [{"card": c} for c in legal_cards(self.hands[seat], self.current, self.trump)]
        if self.choosing is not None:
            return [{"servant": s} for s in range(4) if team_of(s) != self.choosing]
        return []

    def may_act(self) -> list[dict[str, Any]]:
        """Every seat that may act, with its actions: the seat to play, or both masters
        choosing a Servant (either may)."""
        if self.playing:
            return [{"seat": self.to_move(), "legal": self.legal()}]
        if self.choosing is not None:
            return [{"seat": s, "legal": self.legal()} for s in range(4)
                    if team_of(s) == self.choosing]
        return []

    def next_dealer(self) -> int | None:
        if not self.finished:
            return None
        assert self.final_status is not None
        if self.game == "filicau":
            if self.final_status["masters"] is None:
                return (self.dealer + 1) % 4
            slaves = 1 - self.final_status["masters"]
            for s in (self.dealer, (self.dealer + 1) % 4):
                if team_of(s) == slaves:
                    return s
            raise AssertionError("unreachable")
        if self.final_status["servant"] is not None:
            return self.final_status["servant"]
        return (self.dealer + 1) % 4

    # -- transitions

    def apply(self, action: Any) -> str | None:
        """Apply one action; return an error message if it is illegal."""
        if not isinstance(action, dict) or not _is_seat(action.get("seat")):
            return "bad action"
        keys = set(action) - {"seat"}
        seat = action["seat"]
        if self.finished:
            return "the hand is over"
        if keys == {"card"}:
            if not self.playing:
                return "no card play now"
            if seat != self.to_move():
                return "not your turn"
            card = action["card"]
            if card not in self.hands[seat]:
                return "card not held"
            if card not in legal_cards(self.hands[seat], self.current, self.trump):
                return "illegal card"
            self.hands[seat].remove(card)
            self.current.append(card)
            if len(self.current) == 4:
                self._complete_trick()
            return None
        if keys == {"servant"}:
            if self.choosing is None:
                return "no servant to choose"
            if team_of(seat) != self.choosing:
                return "only a master chooses the servant"
            s = action["servant"]
            if not _is_seat(s) or team_of(s) == self.choosing:
                return "the servant must be an opponent"
            self.final_status = {"masters": self.choosing, "servant": s}
            self.choosing = None
            self.finished = True
            return None
        return "bad action"

    def _complete_trick(self) -> None:
        winner = trick_winner(self.leader, self.current, self.trump)
        self.points[team_of(winner)] += sum(card_points(c) for c in self.current)
        self.tricks.append({"leader": self.leader, "cards": self.current, "winner": winner})
        self.current = []
        self.leader = winner
        done = len(self.tricks) == 8 or (
            self.early_end and outcome_fixed(self.game, self.status, self.points)
        )
        if done:
            self._end_play()

    def _end_play(self) -> None:
        self.playing = False
        # With early end the outcome is the same for every split of the points left, so any one
        # split (here: all of them to team 0) decides it.
        left = 8 - self.points[0] - self.points[1]
        out = outcome(self.game, self.status, (self.points[0] + left, self.points[1]))
        if out[0] == "choose":
            self.choosing = out[1]
            return
        self.finished = True
        if self.game == "filicau":
            self.final_status = {"masters": out[1], "servant": None}
        else:
            self.final_status = {"masters": out[1], "servant": out[2]}

    def output(self) -> dict[str, Any]:
        tricks = [dict(t, cards=list(t["cards"])) for t in self.tricks]
        if self.current:
            tricks.append({"leader": self.leader, "cards": list(self.current), "winner": None})
        return {
            "trump": self.trump,
            "shown": list(self.shown),
            "hands": [list(h) for h in self.dealt],
            "tricks": tricks,
            "points": list(self.points),
            "finished": self.finished,
            "to_move": self.to_move(),
            "legal": self.legal(),
            "may_act": self.may_act(),
            "status": dict(self.final_status if self.finished else self.status),
            "next_dealer": self.next_dealer(),
        }


def replay(record: Any) -> dict[str, Any]:
    problem = validate(record)
    if problem is not None:
        return {"error": {"action": None, "message": problem}}
    hand = Hand(record)
    for i, action in enumerate(record.get("actions", [])):
        problem = hand.apply(action)
        if problem is not None:
            return {"error": {"action": i, "message": problem}}
    return hand.output()


def new_hand(record: dict[str, Any]) -> Hand:
    """A Hand for a valid record with its actions applied (for generators)."""
    hand = Hand(record)
    for action in record.get("actions", []):
        problem = hand.apply(action)
        if problem is not None:
            raise ValueError(problem)
    return hand


# ---------------------------------------------------------------- statuses of the other games

#: Per-seat match games: (players, most one seat's score moves in a deal, whether what one seat
#: wins the others pay, default match length). From RULINGS and the game pages: Officers' scores
#: 1, +1 schneider, +1 schwarz against the other player; Wendish a solo that from each of the
#: three others; Schafkopf for three 2/4/6 to the declarer alone (least 2 or 4, all 120 -4);
#: Dreiwendsch a solo 1-3 from each of the other two, all for themselves 1 from each with fewer.
MATCH_GAMES: dict[str, tuple[int, int, bool, int]] = {
    "officers": (2, 3, True, 0),
    "wendish": (4, 9, True, 0),
    "schafkopf3": (3, 6, False, 9),
    "dreiwendsch": (3, 6, True, 9),
}
#: Game points that win a 20-card Filcau match.
FILCAU_MATCH = 11


def _ints(x: Any) -> bool:
    return isinstance(x, list) and all(type(v) is int for v in x)


def status_problem(game: str, options: dict[str, Any], dealer: int,
                   status: dict[str, Any]) -> str | None:
    """Why no match of ``game`` reaches ``status`` with this dealer (None: one can).

    ``status`` holds the record's fields; the record format writes ``masters`` and
    ``servant`` always and the rest only when set (absent = null)."""
    if any(v is not None and type(v) is not int and not _ints(v) for v in status.values()):
        return "bad value"
    get = status.get
    if game == "filcau20":
        masters, servant, score = get("masters"), get("servant"), get("score")
        if any(get(k) is not None for k in status if k not in ("masters", "servant", "score")):
            return "Filcau keeps masters, servant and score only"
        if masters is not None and masters not in (0, 1):
            return "bad masters"
        if (masters is None) != (servant is None):
            return "a boss team and its servant go together"
        if servant is not None and (not 0 <= servant <= 3 or servant % 2 == masters):
            return "the servant is on the servant team"
        if servant is not None and dealer != servant:
            return "the servants deal"
        if score is not None and (len(score) != 2 or not all(0 <= x < FILCAU_MATCH
                                                            for x in score)):
            return "a score is two numbers below 11"
        if masters is not None and (score is None or score[masters] < 1):
            return "a boss scores a game point at the end of the hand that makes it boss"
        return None
    players, swing, zero_sum, default_length = MATCH_GAMES[game]
    if any(get(k) is not None for k in ("masters", "servant", "teams", "trump", "leader")):
        return "no masters in this game"
    length = options.get("deals", default_length)
    muss_solo = options.get("muss_solo", 0)
    start = options.get("counters", 0)
    score, deals, solos = get("score"), get("deals"), get("solos")
    if solos is not None and not muss_solo:
        return "solos are counted only with muss_solo"
    if score is not None and len(score) != players:
        return "one score per seat"
    if length == 0 and deals is not None:
        return "an open-ended match counts no deals"
    if length and deals is not None and not 0 <= deals < length:
        return "deals out of range"
    if length and (score is None) != (deals is None):
        return "every hand of a match writes its score and the deals"
    if muss_solo and (solos is None) != (deals is None):
        return "every hand of a muss_solo match writes the solos"
    if solos is not None and (len(solos) != players or min(solos) < 0
                              or sum(solos) > deals):
        return "at most one Lust Solo a deal"
    if score is None:
        return None
    if zero_sum and sum(score) != start * players:
        return "what one seat wins the others pay"
    if deals is not None and any(abs(x - start) > swing * deals for x in score):
        return "scores move by a deal's worth at most"
    if start and min(score) <= 0:
        return "a seat without counters has ended the match"
    return None


# ---------------------------------------------------------------- the 20-card Filcau's fris window

FILCAU_PACK = tuple(s + r for s in SUITS for r in ("A", "10", "K", "O", "U"))


def fris_window_error(record: dict[str, Any]) -> int | None:
    """The index of the first action the fris window does not allow, or None.

    For a record that starts even with ``{"deal": "cut"}`` by the seat before the dealer and
    whose later actions fall inside the window (one that closes it, ``fris``, ``look`` or
    ``deal_on``, ends what is judged). RULINGS: three cards each from the seat after the
    dealer; a seat with an Over among its three may make fris (the first one wins); any seat
    but the dealer may look at its last two cards while the window is open, also after
    declining to fris (``pass``); the dealer deals on. A flag is always ``true``."""
    dealer = record["dealer"]
    pack = record["pack"]
    free = record.get("options", {}).get("fris_trump", "free") == "free"
    three = {(dealer + 1 + k) % 4: pack[3 * k : 3 * k + 3] for k in range(4)}
    declined: set[int] = set()
    actions = record["actions"]
    for i, action in enumerate(actions):
        seat = action.get("seat")
        kinds = set(action) - {"seat"}
        if i == 0:
            if action != {"seat": (dealer - 1) % 4, "deal": "cut"}:
                return 0
            continue
        if type(seat) is not int or not 0 <= seat <= 3 or len(kinds) != 1:
            return i
        (kind,) = kinds
        value = action[kind]
        if kind == "fris":
            over, trump = (value, value[0]) if isinstance(value, str) else (
                value.get("over"), value.get("trump"))
            if (seat in declined or over not in three[seat] or over not in OVERS
                    or trump not in SUITS or (not free and trump != over[0])):
                return i
            return None  # the window is closed: what follows is not judged here
        if value is not True:
            return i
        if kind == "pass" and seat != dealer and seat not in declined:
            declined.add(seat)
        elif (kind == "look" and seat != dealer) or (kind == "deal_on" and seat == dealer):
            return None
        else:
            return i
    return None
