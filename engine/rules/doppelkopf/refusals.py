"""Why Doppelkopf refuses an action: each refusal names its ruling (RULINGS.md) by a stable
reason key, worded for players by the catalogs' ``illegal.*`` entries.

The rules' ``explain`` hook (``engine.rules.doppelkopf.game``) calls ``explain``; a card
refused in the engine's own ``play`` phase is explained by the hand (``must_follow``), and in
``ansagen`` here, in the same words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, IllegalAction
from engine.cards import SUIT_NAMES, TRUMP, Card, code
from engine.hand import FINISHED, PLAYING
from engine.rules.base import flag_false
from engine.rules.doppelkopf.announce import threshold
from engine.rules.doppelkopf.deck import ALTE, normal_trumps
from engine.rules.doppelkopf.games import HOCHZEIT
from engine.rules.doppelkopf.kinds import (
    ANSAGE,
    ANSAGEN,
    ARMUT,
    ARMUT_KIND,
    GIVE_BACK,
    LAY,
    PARTY_WORDS,
    SOLO_TYPE,
    VORBEHALT,
    VORBEHALT_KIND,
    level_of,
)
from engine.rules.doppelkopf.protocol import DoppelkopfRules

if TYPE_CHECKING:
    from engine.hand import Hand


def explain(rules: DoppelkopfRules, hand: Hand, seat: int, action: Action) -> IllegalAction:
    kind, phase = action.kind, hand.phase
    if not isinstance(seat, int) or not 0 <= seat < 4:
        return IllegalAction("no_such_seat", f"there is no seat {seat}", seat=seat)
    if phase == FINISHED:
        return IllegalAction("hand_over", "the hand is over")
    if action.value is False:
        return flag_false(action)
    if kind == ANSAGE:
        return explain_ansage(rules, hand, seat, action.value)
    if seat != hand.to_move:
        return IllegalAction("not_your_turn", f"seat {seat} may not act now: seat "
                             f"{hand.to_move} is to act", seat=seat, to_move=hand.to_move)
    if phase == VORBEHALT and kind == VORBEHALT_KIND:
        return explain_vorbehalt(rules, hand, seat, action.value)
    if kind == SOLO_TYPE and action.value not in rules.opts.solos():
        return IllegalAction("solo_off", f"this table does not play the {action.value} solo "
                             "(option solo_set, D6.1)", value=action.value)
    if phase == ARMUT and kind == LAY:
        return _cards_held(hand, seat, action.value) or IllegalAction(
            "armut_lay", "lay aside all your trumps, made up to three cards with plain ones "
            "(D5.8)")
    if kind == GIVE_BACK:
        return _cards_held(hand, seat, action.value) or IllegalAction(
            "armut_return", "give back three of your cards (D5.8)")
    if phase == ANSAGEN and kind == "card":
        return explain_card(rules, hand, seat, action.value)
    return IllegalAction("wrong_phase", f"{kind} cannot be done now ({phase})", phase=phase)


def _cards_held(hand: Hand, seat: int, cards: tuple[Card, ...]) -> IllegalAction | None:
    held = list(hand.hands[seat])
    for c in cards:
        if c not in held:
            return IllegalAction("not_your_card", f"seat {seat} does not hold {code(c)}",
                                 seat=seat, card=code(c))
        held.remove(c)
    return None


def explain_card(rules: DoppelkopfRules, hand: Hand, seat: int, c: Card) -> IllegalAction:
    """D2.4 (as the hand words it in its own ``play`` phase)."""
    held = hand.hands[seat]
    if c not in held:
        return IllegalAction("not_your_card", f"seat {seat} does not hold {code(c)}",
                             seat=seat, card=code(c))
    order = hand.order
    assert order is not None
    led = order.suit[hand.trick[0]]
    name = "trumps" if led == TRUMP else SUIT_NAMES[led]
    return IllegalAction("must_follow", f"{code(c)} does not follow suit: seat {seat} must "
                         f"play {name}", card=code(c), suit=name)


def explain_vorbehalt(rules: DoppelkopfRules, hand: Hand, seat: int, kind: str
                      ) -> IllegalAction:
    held = hand.hands[seat]
    if kind == HOCHZEIT:
        return IllegalAction("vorbehalt_hochzeit", "a Hochzeit needs both Kreuz-Damen (EO) "
                             "(D4.2)", count=held.count(ALTE))
    if kind == ARMUT_KIND:
        if not rules.opts.armut:
            return IllegalAction("vorbehalt_off", "this table plays no Armut (option armut)",
                                 value=kind)
        return IllegalAction("vorbehalt_armut", "an Armut needs three trumps or fewer and "
                             "not both Kreuz-Damen (D5.7)", count=normal_trumps(held))
    return IllegalAction("vorbehalt_off", f"this table does not play the {kind} solo "
                         "(option solo_set, D6.1)", value=kind)


def explain_ansage(rules: DoppelkopfRules, hand: Hand, seat: int, word: str) -> IllegalAction:
    """D7.3-D7.7: too early, the other party's word, a step already made, too late, after a
    late reply."""
    p = hand.pending
    if p["kind"] is None or hand.phase not in (PLAYING, ANSAGEN) or (
            p["kind"] == HOCHZEIT and p["k"] is None):
        return IllegalAction("ansage_early", "announcements start once the game is settled "
                             "(in a Hochzeit: after the trick that finds the partner) (D7.3)",
                             ansage=word)
    party = hand.team[seat]
    if word in PARTY_WORDS and word != PARTY_WORDS[party]:
        return IllegalAction("ansage_party", f"seat {seat} is not {word}: a player "
                             "announces for his own party (D7.2)", ansage=word)
    levels = p["levels"]
    own, other = levels[party], levels[1 - party]
    to = level_of(word)
    if to <= own:
        return IllegalAction("ansage_repeat", f"{word} has been announced for this party "
                             "already (D7.5)", ansage=word)
    if own and p["replied"][party]:
        return IllegalAction("ansage_after_reply", "after a late reply the party makes no "
                             "Absage (D7.7)", ansage=word)
    held = len(hand.hands[seat])
    n, shift = rules.n, rules.shift(hand)
    need = threshold(n, own + 1, shift)
    if not own and other:
        late = threshold(n, other, shift) - 1
        if held >= late:
            return IllegalAction("ansage_reply_only", "too late for an Absage: only "
                                 f"{PARTY_WORDS[party]} as a reply (D7.7)", ansage=word,
                                 held=held)
        return IllegalAction("ansage_late", f"{word} is too late: seat {seat} holds {held} "
                             f"cards, a reply needs {late} (D7.7)", ansage=word, held=held,
                             needed=late)
    return IllegalAction("ansage_late", f"{word} is too late: seat {seat} holds {held} "
                         f"cards and needs {need} (D7.4)", ansage=word, held=held, needed=need)
