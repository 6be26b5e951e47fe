"""The terminal game's words: cards, choices, results and refusals in plain English.

Nothing here names a game: a kind of decision is worded from ``KINDS`` (or the game's own
``Rules.kind_words``), else from its value in the record notation.
"""


from __future__ import annotations

import contextvars
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action, IllegalAction, action_to_json
from engine.cards import (
    RANK_CODES,
    RANK_NAMES,
    SUIT_LETTERS,
    SUIT_NAMES,
    Card,
    CardError,
    card,
    code,
    rank_of,
    suit_of,
)
from engine.rules.base import Rules
from engine.rules.hats import FACES
from engine.trumps import TrumpOrder
from engine.words import KindWords

#: The French pack's names of the suits E G H S and of the ranks O and U (a game played with
#: French cards, ``Rules.faces``, is worded so: its EO is the Queen of clubs).
FRENCH_SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
FRENCH_RANK_NAMES = {"O": "Queen", "U": "Jack"}
#: The faces the cards being worded show (``use_faces``): the game's own.
_faces: contextvars.ContextVar[str] = contextvars.ContextVar("terminal_faces",
                                                            default="german")


def use_faces(faces: str) -> None:
    """Name the cards as ``faces`` (``"german"`` or ``"french"``) show them from now on."""
    _faces.set(faces)


def suit_name(s: int) -> str:
    return (FRENCH_SUIT_NAMES if _faces.get() == "french" else SUIT_NAMES)[s]


def rank_name(r: int) -> str:
    name = RANK_NAMES[r]
    return FRENCH_RANK_NAMES.get(RANK_CODES[r], name) if _faces.get() == "french" else name


def card_codes() -> str:
    """How cards are written, in the words of the faces in force."""
    return (
        "Cards are written as suit letter + rank:\n"
        "  suits: " + ", ".join(f"{letter} {suit_name(i)}"
                                for i, letter in enumerate(SUIT_LETTERS)) + "\n"
        "  ranks: " + ", ".join(f"{c} {rank_name(i)}" for i, c in enumerate(RANK_CODES))
        + f"\n  so EO is the {card_name(card('EO'))} and H10 the Ten of hearts."
    )

HOW_TO_ANSWER = ('Answer with the number of a choice or a card\'s code (e.g. EO); "help" shows '
                 'this again, "quit" leaves.')

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def and_list(words: Sequence[str]) -> str:
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


#: The decisions the games ask for beside playing a card, by action kind; a game's kinds of
#: its own come with its rules (``Rules.kind_words``). A kind not listed anywhere is offered
#: as "kind: value" and told as "Seat 3: kind value".
KINDS: dict[str, KindWords] = {
    "take": KindWords("take the widow", "{who} takes the widow",
                 "Taking the widow: its cards join your hand, you lay as many away face down "
                 "(their points count for you) and play alone against {others}."),
    "pass": KindWords("pass", "{who} passes"),
    "bury": KindWords("bury {value}", "{who} buries {value}",
                 "Bury: the cards you lay away count for you at the end.",
                 hidden="{who} lays {count} cards away face down"),
    "deal": KindWords("{value}", "{who} chooses to {value}"),
    "fris": KindWords("fris with {value}", "{who} makes fris with {value}",
                 "Fris: show an Ober and name trump; that Ober leads the fris trick at once, "
                 "and everybody must put an Unter or a King on it."),
    "deal_on": KindWords("deal on (no more fris)", "{who} deals on: no more fris"),
    "look": KindWords("look at my last two cards (ends fris for everybody)",
                 "{who} looks at the last two cards: no more fris"),
    "bind": KindWords("bind {value}", "{who} binds {value}",
                 "Binding (legare): say how many trumps you hold in a suit and the lowest of "
                 "them; the most trumps names trump (equal: the higher lowest card)."),
    "closed": KindWords("say închis (five trumps)", "{who} says închis (five trumps)"),
    "face_up": KindWords("turn my last two cards face up", "{who} turns the last two cards face up",
                    "With no Unter or King for the fris trick, your last two cards are turned "
                    "face up for everybody, and you play from all five."),
    "first_trick": KindWords("the first trick is with me", "{who} says: the first trick is with me",
                        "\"The first trick is with me\": whoever else takes the first trick "
                        "becomes your partner."),
    "servant": KindWords("Servant: {value}", "{who} makes {value} the Servant",
                    "The Servant deals every hand while your team are masters."),
    "trump": KindWords("trump: {value}", "{who} names {value} trump",
                  "You name the trump suit for this hand."),
    "call": KindWords("call {value}", "{who} calls {value}: its holder is the secret partner",
                 "Calling a card: whoever holds it is your partner, a secret until it is "
                 "played."),
    "solo": KindWords("Lust Solo in {value}", "{who} announces a Lust Solo in {value}",
                 "A Lust Solo: you name the trump suit and play alone against {others}; the "
                 "permanent trumps stay on top."),
    "signal": KindWords("a face asking for {value}", "{who} makes a face asking for {value}",
                   "A face asks your partner for a suit, once a trick, and the whole table "
                   "sees it: " + and_list([f"{face} for {suit_name(SUIT_LETTERS.index(letter))}"
                                       for letter, face in FACES.items()]) + ".",
                   mine="Your face asks your partner for {value}"),
}

#: What the values of some kinds are when the record notation alone does not tell (a seat
#: is a number there).
SEAT_KINDS = frozenset({"servant"})

#: What each result event says; ``{who}`` is the team or seats it is about.
EVENTS = {
    "masters": "{who} {are} masters now.",
    "stay_masters": "{who} stay masters.",
    "ran_away": "{who} took no point and ran away: everybody is even again.",
    "liberated": "{who} turned the tables: masters now.",
    "swam_away": "The servants took no point and swam away: there are no masters now.",
    "hats_on": "{who} won: the others put on hats.",
    "hats_stay": "{who} won again: the hats stay on.",
    "hats_off": "{who} won: hats off, and onto the others.",
    "draw": "60–60: a draw, nothing changes.",
    "rich_win": "The Rich ({who}) won.",
    "poor_win": "The Poor ({who}) won.",
    "freed": "The dealing team took 6 or more: they are free.",
    "not_freed": "The dealing team deals again.",
    "redeal": "Nobody bound: the same dealer deals again.",
    "declarer_won": "The declarer ({who}) won.",
    "declarer_lost": "The declarer ({who}) lost.",
    "least_won": "Least: the fewest card points won ({who}).",
    "least_all": "Least: one player took all 120 and pays ({who}).",
    "solo_won": "The soloist ({who}) won.",
    "solo_lost": "The soloist ({who}) lost.",
    "most_won": "Everybody played alone: the most card points won ({who}).",
    "all_even": "Everybody played alone: all even.",
    "won": "{who} won.",
    "schneider": "{who} won with schneider.",
    "schwarz": "{who} won schwarz (every trick).",
    "thrown_in": "Everybody passed: the cards are thrown in, and nobody pays.",
    "stock": "Everybody passed: each player pays into the pot (the Stock).",
    "ramsch": "Ramsch: whoever took the most card points pays.",
    "ramsch_even": "Ramsch: all four took 30 card points, and nobody pays.",
    "durchmarsch": "Durchmarsch: one player took every trick.",
}

#: Phases where the table asks several seats at once whether to double (a doubling window),
#: by phase: what is said when one opens (``{offer}``, the doubling asked for in the game's
#: words; ``{asked}``, who is asked) and how a seat's pass reads there (``{who}``).
WINDOWS: dict[str, tuple[str, str]] = {
    phase: ("{offer}? {asked} may double the game's value ({offer}) or say Weiter; play "
            "goes on once each has answered.", "{who} says Weiter: no {offer}")
    for phase in ("kontra", "re")
}

#: The items a result counts (``HandResult.extra["counted"]``) that add up to a game's
#: value, by key: ``{game}`` is the game in words, ``{value}`` what the item adds.
COUNTED_ITEMS = {
    "game": "{game} {value}",
    "laufende": "{count} Laufende {value}",
    "schneider": "Schneider {value}",
    "schwarz": "Schwarz {value}",
}

#: Why a counted game's base and Laufende are multiplied (``times`` of its ``game`` item).
COUNTED_TIMES = {2: "a Tout counts twice", 4: "Sie counts four times"}


def payments(scores: Sequence[int], seats: Callable[[Sequence[int]], str]) -> str:
    """Who pays whom, when each payment is the same amount: ``seats 2, 3 and 4 each pay 50
    to you``, ``you pay 50 to each of seats 2, 3 and 4``, ``seats 3 and 4 pay 100 each; you
    and seat 2 get 100 each``; "" when the amounts are of another shape (or nobody pays).
    ``seats`` names seats (``TerminalGame.seats``).

    >>> payments([150, -50, -50, -50], lambda s: "seats " + "+".join(map(str, s)))
    'seats 1+2+3 each pay 50 to seats 0'
    """
    gain = [s for s, v in enumerate(scores) if v > 0]
    lose = [s for s, v in enumerate(scores) if v < 0]
    if not gain or not lose or sum(scores, 0) != 0:
        return ""
    each_lost = {-scores[s] for s in lose}
    each_got = {scores[s] for s in gain}
    payers = seats(lose)
    verb = "pay" if payers.startswith("you") or len(lose) > 1 else "pays"
    if len(gain) == 1 and len(each_lost) == 1:
        (amount,) = each_lost
        return f"{payers} {'each pay' if len(lose) > 1 else verb} {amount} to {seats(gain)}"
    if len(lose) == 1 and len(each_got) == 1:
        (amount,) = each_got
        return f"{payers} {verb} {amount} to each of {seats(gain)}"
    if len(each_lost) == 1 and each_lost == each_got and len(gain) == len(lose):
        (amount,) = each_got
        return f"{seats(lose)} pay {amount} each; {seats(gain)} get {amount} each"
    return ""


#: Events decided by the points a side took: the outcome says how many ("With 6 of the 8
#: Aces and Tens, ...").
BY_POINTS = frozenset({
    "masters", "stay_masters", "liberated", "hats_on", "hats_stay", "hats_off", "rich_win",
    "poor_win", "declarer_won", "declarer_lost", "solo_won", "solo_lost", "won", "schneider",
    "schwarz",
})

#: Cards a game shows once the hand is over (its public facts), as a sentence each.
REVEALED = {
    "widow": "The widow held {cards}.",
    "buried": "Buried face down: {cards}.",
}


def card_name(c: Card) -> str:
    """``card_name(card("H10")) == "Ten of hearts"``."""
    return f"{rank_name(rank_of(c))} of {suit_name(suit_of(c))}"


def card_from_text(text: Any) -> Card | None:
    if not isinstance(text, str):
        return None
    try:
        return card(text)
    except CardError:
        return None


def _seat_name(seat: int) -> str:
    return f"seat {seat + 1}"


def _value_words(kind: str, value: Any, seat_name: Callable[[int], str] = _seat_name) -> str:
    """A value in the record notation, in words: a suit letter is the suit, a card code the
    card, a list of cards "E10 and S7", an object its fields."""
    if kind in SEAT_KINDS and isinstance(value, int):
        return seat_name(value)
    if isinstance(value, bool):
        return "" if value else "no"
    if isinstance(value, str):
        if value in SUIT_LETTERS:
            return suit_name(SUIT_LETTERS.index(value))
        c = card_from_text(value)
        if c is not None:
            return f"the {card_name(c)} ({code(c)})"
        return value.replace("_", " ")
    if isinstance(value, list):
        return and_list([code(c) if (c := card_from_text(v)) is not None else _value_words(kind, v)
                     for v in value]) if value else "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_value_words(kind, v)}"
                         for k, v in value.items())
    return str(value)


def json_value(action: Action) -> Any:
    try:
        return action_to_json(action)[action.kind]
    except KeyError:  # a kind the record format does not know (none should reach a player)
        return action.value


#: Kinds whose value needs more than the generic words.
def _fris_words(v: Any) -> str:
    if isinstance(v, str):
        return f"{v}, trump {suit_name(suit_of(card(v)))}"
    return f"{v['over']}, trump {_value_words('fris', v['trump'])}"


def _bind_words(v: Any) -> str:
    return (f"{v['count']} trumps in {_value_words('bind', v['trump'])}, the lowest "
            f"{v['lowest']}")


def _deal_words(v: Any) -> str:
    return {"cut": "cut (three cards each, then fris)",
            "knock": "knock (five cards each, then binding)"}.get(v, str(v))


VALUE_WORDS: dict[str, Callable[[Any], str]] = {
    "fris": _fris_words, "bind": _bind_words, "deal": _deal_words,
}


def value_words(action: Action, seat_name: Callable[[int], str] = _seat_name,
                kinds: Mapping[str, KindWords] = KINDS) -> str:
    value = json_value(action)
    kind = kinds.get(action.kind)
    if kind is not None and kind.values:
        try:
            return kind.values[value]
        except (KeyError, TypeError):
            pass  # a value the game does not word: the generic words
    special = VALUE_WORDS.get(action.kind)
    if special is not None:
        try:
            return special(value)
        except (KeyError, TypeError, ValueError, CardError):
            pass  # a value of another shape (another game's): the generic words
    return _value_words(action.kind, value, seat_name)


def describe(action: Action, kinds: Mapping[str, KindWords] = KINDS) -> str:
    """A choice in words: ``H10``, ``trump: hearts``, ``take the widow``, ``Servant: seat 3``;
    ``kinds``: the words of every kind the game knows (``TerminalGame.kinds``).

    >>> describe(Action("trump", 2))
    'trump: hearts'
    """
    if action.kind == "card":
        return code(action.value)
    words = value_words(action, kinds=kinds)
    kind = kinds.get(action.kind)
    if kind is not None:
        return kind.offer.format(value=words).strip()
    name = action.kind.replace("_", " ")
    return f"{name}: {words}" if words else name


def told(action: Action, who: str, seat_name: Callable[[int], str] = _seat_name,
         kinds: Mapping[str, KindWords] = KINDS) -> str:
    """What the table hears of ``who``'s choice: ``Seat 3 names hearts trump``."""
    words = value_words(action, seat_name, kinds)
    kind = kinds.get(action.kind)
    if kind is not None:
        return kind.told.format(who=who, value=words)
    name = action.kind.replace("_", " ")
    return f"{who}: {name} {words}".rstrip()


def told_mine(action: Action, kinds: Mapping[str, KindWords] = KINDS) -> str:
    """The player's own choice out of turn, confirmed: ``Your face asks your partner for
    leaves``."""
    kind = kinds.get(action.kind)
    if kind is not None and kind.mine:
        return kind.mine.format(value=value_words(action, kinds=kinds))
    return f"You: {describe(action, kinds)}"


def card_set_kind(actions: Sequence[Action]) -> bool:
    """Do these actions (of one kind) choose a set of cards (burying two)?"""
    return all(isinstance(v := json_value(a), list) and all(card_from_text(x) is not None
                                                             for x in v) for a in actions)


def why_refused(error: IllegalAction) -> str:
    """The rule that refuses a card, said to the player: ``you must follow hearts``."""
    suit = error.params.get("suit", "suit")
    if suit in SUIT_NAMES:  # the engine names a suit in the German pack's words
        suit = suit_name(SUIT_NAMES.index(suit))
    reasons = {
        "must_follow": f"you must follow {suit}",
        "must_trump": "you cannot follow suit, so you must play a trump",
        "must_beat": "you must beat the trick if you can",
        "not_your_card": "you do not hold it",
        "not_your_turn": "it is not your turn",
    }
    return reasons.get(error.reason, str(error))


def refusal(error: IllegalAction, shown: str) -> str:
    """Why the rules refuse the card the player typed, said to them."""
    return f"{shown} is refused: {why_refused(error)}."


def point_unit(rules: Rules) -> tuple[str, str, str]:
    """What the game's points are called (many, one) and the scale in a sentence, from its
    card points: ``("Aces and Tens", "Ace or Ten", "Each Ace and Ten counts 1 (8 in all); no
    other card counts.")``."""
    values: dict[int, int] = {}
    for c in rules.pack:
        if rules.points[c]:
            values[rank_of(c)] = rules.points[c]
    ranks = sorted(values)
    if set(values.values()) == {1}:
        return (and_list([rank_name(r) + "s" for r in ranks]),
                " or ".join(rank_name(r) for r in ranks),
                f"Each {and_list([rank_name(r) for r in ranks])} counts 1 "
                f"({rules.total_points} in all); no other card counts.")
    scale = ", ".join(f"{rank_name(r)} {values[r]}" for r in ranks)
    return "card points", "card point", f"Card points: {scale} ({rules.total_points} in all)."


def trumps_line(order: TrumpOrder, pack: Sequence[Card]) -> str:
    """``Trumps, high to low: the four Obers (EO GO HO SO), then hearts: HA H10 ...``."""
    parts: list[str] = []
    run: list[Card] = []
    permanent = [c for c in order.permanent if c in pack]
    for i, c in enumerate(permanent):
        run.append(c)
        if i + 1 < len(permanent) and rank_of(permanent[i + 1]) == rank_of(c):
            continue
        whole = [x for x in pack if rank_of(x) == rank_of(c)]
        if len(run) > 1 and set(run) == set(whole):
            parts.append(f"the {NUMBERS[len(run)]} {rank_name(rank_of(c))}s "
                         f"({' '.join(code(x) for x in run)})")
        else:
            parts.append(" ".join(code(x) for x in run))
        run = []
    suit = order.trump_suit
    if suit is not None:
        rest = sorted((c for c in pack if suit_of(c) == suit and c not in order.permanent),
                      key=order.sort_key)
        parts.append(f"then {suit_name(suit)}: {' '.join(code(c) for c in rest)}")
    if not parts:
        return "There are no trumps."
    return "Trumps, high to low: " + ", ".join(parts) + ". Every other card belongs to its suit."


