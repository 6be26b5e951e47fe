"""Bavarian Schafkopf's games as data: what each is called, how it ranks against the others,
which cards are trumps in it, and its Laufende (RULINGS.md B2, B4.3, B9.4, B12).

A declared game is a ``Contract``: its kind, its suit (the trump suit of a Farbsolo,
Farbwenz or Farbgeier; the called Ace's suit of a Sauspiel) and whether it is played Tout.
In records and on buttons it is one word, ``Contract.name``:

>>> c = Contract.parse("solo_tout_G")
>>> c.kind, c.suit, c.tout, c.game_class
('solo', 1, True, 'solo_tout')
>>> Contract.parse("sauspiel_S").game_class, Contract.parse("sauspiel_S").name
('rufspiel', 'sauspiel_S')
>>> from engine.cards import codes
>>> codes(trumps_of(Contract.parse("wenz"), PACK_32))
['EU', 'GU', 'HU', 'SU']
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import ClassVar

from engine.cards import (
    ACE,
    ALL_CARDS,
    EIGHT,
    HEARTS,
    KING,
    NINE,
    OVER,
    OVERS,
    PACK_32,
    SCHAFKOPF_TRUMPS,
    SEVEN,
    SUIT_LETTERS,
    SUITS,
    TEN,
    TRUMP,
    UNDER,
    UNDERS,
    Card,
    make,
    mask_of,
    rank_of,
    suit_of,
)
from engine.trumps import TrumpOrder, trump_order

# Kinds of game (``Contract.kind``).
SAUSPIEL = "sauspiel"
HOCHZEIT = "hochzeit"
BETTEL = "bettel"
FARBGEIER = "farbgeier"
GEIER = "geier"
FARBWENZ = "farbwenz"
WENZ = "wenz"
SOLO = "solo"
SIE = "sie"
#: Not declared: what all passing becomes under ``all_pass = ramsch`` (B12.7).
RAMSCH = "ramsch"

#: The class of a Sauspiel or a Hochzeit (B4.3: they rank equal).
RUFSPIEL = "rufspiel"

#: Game classes, low to high (B4.3). A class is a kind with or without Tout.
CLASSES = (
    RUFSPIEL, BETTEL, FARBGEIER, GEIER, FARBWENZ, WENZ, SOLO,
    "farbgeier_tout", "geier_tout", "farbwenz_tout", "wenz_tout", "solo_tout", SIE,
)
CLASS_RANK = {c: i for i, c in enumerate(CLASSES)}

#: Kinds that may be played Tout (B2.1: each Solo-type game), and those that name a suit.
TOUT_KINDS = frozenset({FARBGEIER, GEIER, FARBWENZ, WENZ, SOLO})
SUIT_KINDS = frozenset({SAUSPIEL, FARBGEIER, FARBWENZ, SOLO})
#: Kinds where the declarer plays alone against three (B11.5: he pays or gets 3V).
ALONE_KINDS = frozenset({BETTEL, FARBGEIER, GEIER, FARBWENZ, WENZ, SOLO, SIE})
#: The house options (B12) each of these kinds needs.
OPTION_OF = {BETTEL: "bettel", FARBGEIER: "farbgeier", GEIER: "geier", FARBWENZ: "farbwenz",
             HOCHZEIT: "hochzeit"}

#: The suits an Ace may be called in (B6.1: never hearts).
CALLABLE_SUITS = tuple(s for s in SUITS if s != HEARTS)


@dataclass(frozen=True)
class Contract:
    kind: str
    #: The trump suit (Farbsolo, Farbwenz, Farbgeier), the called Ace's suit (Sauspiel), or
    #: None.
    suit: int | None = None
    tout: bool = False

    # The properties below are cached (the instance's dict; a frozen dataclass allows it):
    # the rules and the computers' searches read them for every card of every playout.

    @cached_property
    def name(self) -> str:
        """The game as one word: ``sauspiel_G``, ``wenz_tout``, ``solo_H``."""
        word = self.kind + ("_tout" if self.tout else "")
        return word if self.suit is None else f"{word}_{SUIT_LETTERS[self.suit]}"

    @cached_property
    def game_class(self) -> str:
        if self.kind in (SAUSPIEL, HOCHZEIT):
            return RUFSPIEL
        return self.kind + ("_tout" if self.tout else "")

    @cached_property
    def alone(self) -> bool:
        return self.kind in ALONE_KINDS

    @cached_property
    def called(self) -> Card | None:
        """The called Ace of a Sauspiel."""
        return self.suit * 8 + ACE if self.kind == SAUSPIEL and self.suit is not None else None

    @staticmethod
    def parse(name: str) -> Contract:
        """The contract of a game word; ``ValueError`` for a word that names none."""
        parts = name.split("_")
        kind = parts[0]
        tout = len(parts) > 1 and parts[1] == "tout"
        rest = parts[1 + tout:]
        suit = None
        if rest:
            if len(rest) != 1 or rest[0] not in SUIT_LETTERS:
                raise ValueError(f"{name!r} is no game")
            suit = SUIT_LETTERS.index(rest[0])
        contract = Contract(kind, suit, tout)
        if contract.name != name or name not in GAME_NAMES:
            raise ValueError(f"{name!r} is no game")
        return contract


def _all_contracts() -> tuple[Contract, ...]:
    out = [Contract(SAUSPIEL, s) for s in CALLABLE_SUITS]
    out += [Contract(HOCHZEIT), Contract(BETTEL)]
    for tout in (False, True):
        for kind in (FARBGEIER, GEIER, FARBWENZ, WENZ, SOLO):
            if kind in SUIT_KINDS:
                out += [Contract(kind, s, tout) for s in SUITS]
            else:
                out.append(Contract(kind, None, tout))
    out.append(Contract(SIE))
    return tuple(out)


#: Every game a player may declare, in class order (then suit order): the order of the
#: declaration's choices.
ALL_CONTRACTS = _all_contracts()
GAME_NAMES = frozenset(c.name for c in ALL_CONTRACTS)


class BettelOrder(TrumpOrder):
    """Bettel's ranking (B12.9): no trumps, every suit ``A K O U 10 9 8 7``."""

    STRENGTH: ClassVar[dict[int, int]] = {
        ACE: 8, KING: 7, OVER: 6, UNDER: 5, TEN: 4, NINE: 3, EIGHT: 2, SEVEN: 1}

    def __init__(self) -> None:
        super().__init__((), None)
        powers = tuple(self.STRENGTH[rank_of(c)] for c in ALL_CARDS)
        object.__setattr__(self, "power", powers)
        object.__setattr__(self, "led_rank", tuple(
            tuple(1000 + powers[c] if suit_of(c) == led else 0 for c in ALL_CARDS)
            for led in range(TRUMP + 1)))


BETTEL_ORDER = BettelOrder()


def order_of(contract: Contract | None) -> TrumpOrder:
    """How the cards rank in this game (B2); None (before the declaration) and a Ramsch rank
    as a Sauspiel."""
    if contract is None:
        return trump_order(SCHAFKOPF_TRUMPS, HEARTS)
    kind = contract.kind
    if kind == BETTEL:
        return BETTEL_ORDER
    if kind in (WENZ, FARBWENZ):
        return trump_order(UNDERS, contract.suit)
    if kind in (GEIER, FARBGEIER):
        return trump_order(OVERS, contract.suit)
    if kind == SOLO:
        return trump_order(SCHAFKOPF_TRUMPS, contract.suit)
    return trump_order(SCHAFKOPF_TRUMPS, HEARTS)


@lru_cache(maxsize=128)
def _trumps(contract: Contract | None, pack: tuple[Card, ...]) -> tuple[Card, ...]:
    order = order_of(contract)
    return tuple(sorted((c for c in pack if order.suit[c] == TRUMP),
                        key=lambda c: -order.power[c]))


def trumps_of(contract: Contract | None, pack: Sequence[Card] = PACK_32) -> tuple[Card, ...]:
    """The game's trumps in ``pack``, highest first."""
    return _trumps(contract, tuple(pack))


def laufende_minimum(contract: Contract) -> int | None:
    """From how many running top trumps they count (B9.4); None where they never do."""
    if contract.kind in (WENZ, GEIER):
        return 2
    if contract.kind in (BETTEL, SIE, RAMSCH):
        return None
    return 3


def laufende(contract: Contract, pack: Sequence[Card], party: Collection[Card]) -> int:
    """The Laufende that count (B9.4): the unbroken run of the game's top trumps all dealt to
    one party (``party``: the declaring party's cards as dealt, after a Hochzeit's
    exchange), "mit" or "ohne" alike; 0 when shorter than the game's minimum.

    >>> from engine.cards import cards
    >>> laufende(Contract(WENZ), PACK_32, cards(["EU", "GU", "SA"]))
    2
    >>> laufende(Contract(SAUSPIEL, 0), PACK_32, cards(["GO", "HO", "SO"]))  # ohne 1
    0
    """
    minimum = laufende_minimum(contract)
    if minimum is None:
        return 0
    trumps = trumps_of(contract, pack)
    mine = trumps[0] in party
    run = 0
    for c in trumps:
        if (c in party) != mine:
            break
        run += 1
    return run if run >= minimum else 0


def trump_count(cards: Sequence[Card]) -> int:
    """Trumps among ``cards`` as in a Sauspiel (B12.5's Hochzeit counts these)."""
    suit = order_of(None).suit
    return sum(1 for c in cards if suit[c] == TRUMP)


def callable_aces(cards: Sequence[Card]) -> list[int]:
    """The suits whose Ace a player holding ``cards`` may call (B6.1): not hearts, not an
    Ace he holds, and he holds a card of the suit that is no trump (its 10 K 9 8 7)."""
    # Bit masks: every seat's hand is asked in every deal.
    mask = mask_of(cards)
    return [s for s in CALLABLE_SUITS if not mask >> make(s, ACE) & 1 and mask & _PLAIN[s]]


#: ``_PLAIN[s]``: bit mask of suit ``s``'s cards that are no trump in a Sauspiel (no Ober, no
#: Unter).
_PLAIN = tuple(
    mask_of(c for c in ALL_CARDS if suit_of(c) == s and rank_of(c) not in (OVER, UNDER))
    for s in SUITS)


def holds_sie(cards: Sequence[Card], short: bool) -> bool:
    """Sie (B4.7): all four Obers and all four Unters; short pack: the Obers, EU and GU."""
    need = SCHAFKOPF_TRUMPS[:6] if short else SCHAFKOPF_TRUMPS
    return all(c in cards for c in need)
