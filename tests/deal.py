"""One way for the game tests to set up a deal and script its play.

``deal`` lays out a pack so that each seat is dealt the cards given for it, in the order
dealt (the game's ``Rules.holders`` says which pack index goes to whom; a widow or skat,
seat -1, takes ``widow``'s cards); ``act`` applies a script of actions, each by the seat to
move: card codes, or ``kind`` / ``kind:VALUE`` in the record notation (``pass``, ``take``,
``solo:H``, ``call:GA``, ``trump:H``, ``deal:knock``).

>>> hand = deal("officers", ["EA E10 EK E9 E8 E7 G8 G7 EO GO HO SO EU GU HU SU",
...                          "HA H10 HK H9 H8 H7 G10 G9 SA S10 SK S9 S8 S7 GA GK"], dealer=1)
>>> act(hand, "EO S7")
>>> hand.tricks[0].winner
0

A test of the deal itself passes ``order``, the seat of each pack index written out from
RULINGS.md, so that it checks the engine's dealing rather than the engine checking itself:

>>> five = ["S10 S9 S8 E9 E8 G9", "EO GO HK HU EA GA", "SO H9 H8 E10 EK EU",
...         "HA H10 H7 G10 GK GU", "HO SA SK SU G8 E7"]
>>> thrice = [(1 + (i % 15) // 3) % 5 for i in range(30)]  # 5-player Filkó, dealer 0
>>> pack_for("filko5", five, order=thrice)[:7]
['EO', 'GO', 'HK', 'SO', 'H9', 'H8', 'HA']

A deal may also be given by role (``D`` the dealer, ``L`` the seat after, then ``M``, ``N``),
the same cards for any dealer. ``D``'s first card is the one shown to fix trump: Filicău shows
the dealer's first card, Filkó the bottom card of the pack, so in Filkó ``D`` is dealt in
reverse. A script may run past the end of a hand with ``act_while_open``:

>>> roles = {"L": "EO GO HO SO HA H10 HK HU", "M": "GA G10 GK GU G9 G8 G7 E8",
...          "N": "SA S10 SK SU S9 S8 S7 E7", "D": "H9 H8 H7 EA E10 EK EU E9"}
>>> hand = deal("filko", roles, dealer=2)
>>> held(hand, 3)[:3], hand.trump   # L sits after the dealer; the shown H9 makes hearts trump
(['EO', 'GO', 'H10'], 2)
>>> act_while_open(hand, "EO GA SA H9 | GO G10 S10 H8")
8

Where only some seats' cards matter, the last seat may take the rest of the pack:

>>> rest_of_pack("filcau20", "EO EA E10 EK EU", "GO GA G10 GK GU", "HO HA H10 HK HU")
'S10 SA SK SO SU'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Action, Hand, Status, action_from_json, make_rules
from engine.cards import card, code

#: The pseudo-seat of a widow (skat) in ``Rules.holders``.
WIDOW = -1

#: The games whose cut shows the bottom card of the pack: a deal by role gives them ``D``
#: reversed, so that ``D``'s first card is shown there too.
SHOWN_FROM_BOTTOM = frozenset({"filko", "filko_hats"})

#: Each seat's cards in the order dealt (a string of codes or a list), or a deal by role.
Hands = Sequence[str | Sequence[str]] | Mapping[str, str]


def seat_hands(game: str, hands: Hands, dealer: int) -> list[list[str]]:
    """Each seat's codes in the order dealt; a deal by role is turned round to ``dealer``."""
    if isinstance(hands, Mapping):
        out: list[list[str]] = [[] for _ in hands]
        for k, role in enumerate("DLMN"):
            dealt = hands[role].split()
            if game in SHOWN_FROM_BOTTOM and role == "D":
                dealt.reverse()
            out[(dealer + k) % len(hands)] = dealt
        return out
    return [h.split() if isinstance(h, str) else list(h) for h in hands]


def pack_for(game: str, hands: Hands, dealer: int = 0, widow: str = "",
             order: Sequence[int] | None = None, **options: Any) -> list[str]:
    """The pack (codes, top card first) that deals ``hands[s]`` to seat ``s``, dealing pack
    index ``i`` to seat ``order[i]`` (default: the game's ``Rules.holders``)."""
    seats = seat_hands(game, hands, dealer)
    if order is None:
        order = make_rules(game, options).holders(dealer)
    cards = {s: iter(h) for s, h in enumerate(seats)}
    cards[WIDOW] = iter(widow.split())
    pack = [next(cards[seat]) for seat in order]
    left = [c for rest in cards.values() for c in rest]
    assert not left, f"cards given but not dealt: {left}"
    return pack


def deal(game: str, hands: Hands, dealer: int = 0, status: Status | None = None,
         widow: str = "", order: Sequence[int] | None = None, **options: Any) -> Hand:
    """The hand in which seat ``s`` is dealt ``hands[s]`` (codes, in the order dealt)."""
    pack = [card(c) for c in pack_for(game, hands, dealer, widow, order, **options)]
    return Hand(make_rules(game, options), dealer, pack, status or Status())


def rest_of_pack(game: str, *hands: str) -> str:
    """The codes of ``game``'s pack that none of ``hands`` holds, in alphabetical order: the
    last seat's hand where only the others' cards matter."""
    given = {c for h in hands for c in h.split()}
    return " ".join(sorted(code(c) for c in make_rules(game).pack if code(c) not in given))


def action(token: str) -> Action:
    """A card code, ``kind`` (a flag action) or ``kind:VALUE`` in the record notation."""
    kind, _, value = token.partition(":")
    if not value:
        try:
            return Action("card", card(token))
        except ValueError:
            return action_from_json({kind: True})
    return action_from_json({kind: value})


def act(hand: Hand, *script: str) -> None:
    """Apply each token (``|`` may separate tricks) by the seat to move."""
    for group in script:
        for token in group.replace("|", " ").split():
            seat = hand.to_move
            assert seat is not None, f"nobody is to move for {token}"
            hand.apply(seat, action(token))


def act_while_open(hand: Hand, *script: str) -> int:
    """Like ``act``, but stop quietly once the hand is over (or out of its card play); return
    how many tokens were applied (to check where an early end stopped the hand)."""
    n = 0
    for group in script:
        for token in group.replace("|", " ").split():
            if hand.finished or hand.phase != "play":
                return n
            act(hand, token)
            n += 1
    return n


def held(hand: Hand, seat: int) -> list[str]:
    """The cards ``seat`` holds, as sorted codes."""
    return sorted(code(c) for c in hand.hands[seat])


def legal_cards(hand: Hand, seat: int | None = None) -> list[str]:
    """The cards ``seat`` (default: the seat to move) may play, as sorted codes."""
    return sorted(code(a.value) for a in hand.legal_actions(seat) if a.kind == "card")
