"""Why Bavarian Schafkopf refuses an action: each refusal names its rule (RULINGS.md) by a
stable reason key, worded for players by the catalogs' ``illegal.*`` entries.

The rules' ``explain`` and ``explain_card`` hooks (``engine.rules.bavarian.game``) call these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, IllegalAction
from engine.cards import SUIT_NAMES, Card, code
from engine.hand import FINISHED, PLAYING
from engine.rules.base import flag_false
from engine.rules.bavarian.games import (
    BETTEL,
    HOCHZEIT,
    OPTION_OF,
    RAMSCH,
    SAUSPIEL,
    SIE,
    Contract,
    trump_count,
)
from engine.rules.bavarian.kinds import (
    BID,
    CHOOSE,
    CLAIM,
    CLARIFY,
    EXCHANGE,
    GAME,
    GIVE,
    HEIRATEN,
    LEAD,
    STOSS,
    STOSS_NAMES,
    WEDDING,
    WINDOWS,
)
from engine.rules.bavarian.protocol import BavarianRules

if TYPE_CHECKING:
    from engine.hand import Hand


def explain_card(rules: BavarianRules, hand: Hand, seat: int, card_: Card) -> IllegalAction | None:
    p = hand.pending
    held = hand.hands[seat]
    order = hand.order
    if order is None or not p.get("duty"):
        return None
    ace: Card = p["contract"].called
    if ace not in held:
        return None
    led = order.suit[hand.trick[0]] if hand.trick else None
    follows = led is None or order.suit[card_] == led or not any(
        order.suit[c] == led for c in held)
    if not follows:
        return None  # the common duty to follow is the reason
    if led is not None and led == order.suit[ace]:
        return IllegalAction(
            "called_ace_searched", f"the called suit is led: seat {seat} must play the "
            f"called Ace {code(ace)} (B6.3a)", card=code(card_), ace=code(ace))
    if led is not None:
        return IllegalAction(
            "called_ace_kept", f"seat {seat} may not throw the called Ace {code(ace)} onto "
            "another suit's trick before its suit is led (B6.3b)", card=code(ace))
    return IllegalAction(
        "called_suit_lead", f"seat {seat} may lead the called suit only with the Ace "
        f"{code(ace)}, unless he holds {rules.run_away} of it (B6.3c)",
        card=code(card_), ace=code(ace), count=rules.run_away)


def explain(rules: BavarianRules, hand: Hand, seat: int, action: Action) -> IllegalAction:
    kind, phase = action.kind, hand.phase
    if not isinstance(seat, int) or not 0 <= seat < 4:
        return IllegalAction("no_such_seat", f"there is no seat {seat}", seat=seat)
    if action.value is False:
        return flag_false(action)
    if kind == STOSS:
        return explain_stoss(rules, hand, seat, action.value)
    if kind == CLAIM:
        if seat in hand.pending["failed"]:
            return IllegalAction("claim_again", "a player whose claim failed may not "
                                 "claim again in this deal (B8.4)")
        if hand.pending["contract"] is not None and \
                hand.pending["contract"].kind in (BETTEL, RAMSCH):
            return IllegalAction("claim_game", "no claims in a Bettel or a Ramsch (B8.5)")
        return IllegalAction("claim_not_now", "only the player on lead may claim, at the "
                             "start of a trick (B8.3)")
    if phase in WINDOWS and seat in rules.window_actors(hand):
        return IllegalAction("wrong_phase", "double or decline (B10)", phase=phase)
    if seat != hand.to_move:
        return IllegalAction("not_your_turn", f"seat {seat} may not act now: seat "
                             f"{hand.to_move} is to act", seat=seat, to_move=hand.to_move)
    if phase == CHOOSE and kind == GAME:
        return explain_game(rules, hand, seat, Contract.parse(action.value))
    if phase == CLARIFY and kind == BID:
        if action.value not in rules.classes(hand.hands[seat]):
            return IllegalAction("class_not_playable", f"seat {seat} may not play a "
                                 f"{action.value} with these cards (B4.7)",
                                 value=action.value)
        return IllegalAction("bid_too_low", "name a class higher than the one standing "
                             "(the earlier seat: at least as high) (B4.5)",
                             value=action.value)
    if phase == WEDDING and kind == HEIRATEN:
        return IllegalAction("wedding_no_plain", "only a player holding a card that is no "
                             "trump may accept a Hochzeit (B12.5)")
    if phase == EXCHANGE and kind == GIVE:
        if action.value not in hand.hands[seat]:
            return IllegalAction("not_your_card", f"seat {seat} does not hold "
                                 f"{code(action.value)}", seat=seat, card=code(action.value))
        return IllegalAction("give_trump", "give back a card that is no trump (B12.5)",
                             card=code(action.value))
    if phase == LEAD and kind == "card":
        if action.value not in hand.hands[seat]:
            return IllegalAction("not_your_card", f"seat {seat} does not hold "
                                 f"{code(action.value)}", seat=seat, card=code(action.value))
        reason = explain_card(rules, hand, seat, action.value)
        if reason is not None:
            return reason
    return IllegalAction("wrong_phase", f"{kind} cannot be done now ({phase})", phase=phase)

def explain_game(rules: BavarianRules, hand: Hand, seat: int, contract: Contract) -> IllegalAction:
    held = hand.hands[seat]
    option = OPTION_OF.get(contract.kind)
    if option is not None and not getattr(rules.opts, option):
        return IllegalAction("game_off", f"this table does not play {contract.kind} "
                             f"(option {option})", value=contract.name)
    limit = hand.pending["limit"]
    if limit is not None and contract.game_class != limit:
        return IllegalAction("game_not_named", f"the clarification was won with a "
                             f"{limit}: declare a game of that class (B4.6)",
                             value=contract.name, named=limit)
    if contract.kind == SAUSPIEL:
        ace = contract.called
        assert ace is not None
        if ace in held:
            return IllegalAction("call_held", f"seat {seat} holds {code(ace)}: the called "
                                 "Ace must be one he lacks (B6.1)", card=code(ace))
        return IllegalAction("call_no_suit", f"seat {seat} holds no card of "
                             f"{SUIT_NAMES[contract.suit]} that is no trump: he cannot "  # type: ignore[index]
                             f"call {code(ace)} (B6.1)", card=code(ace))
    if contract.kind == HOCHZEIT:
        return IllegalAction("hochzeit_trumps", "a Hochzeit needs exactly one trump "
                             "(B12.5)", count=trump_count(held))
    if contract.kind == SIE:
        return IllegalAction("sie_cards", "Sie needs every Ober and Unter (B4.7)")
    return IllegalAction("not_allowed", f"{contract.name} is not allowed now")

def explain_stoss(rules: BavarianRules, hand: Hand, seat: int, level: int) -> IllegalAction:
    p = hand.pending
    name = STOSS_NAMES[level - 1]
    contract = p["contract"]
    if contract is not None and contract.kind in (RAMSCH, SIE):
        return IllegalAction("stoss_none", "there is no doubling in a Ramsch or Sie (B10.4)",
                             stoss=name)
    if hand.phase not in WINDOWS:
        if contract is None or hand.phase not in (PLAYING, FINISHED):
            return IllegalAction("stoss_early", "doubling starts once a game is declared "
                                 "(B10.3)", stoss=name)
        return IllegalAction("stoss_late", f"{name} is too late: the window closed with "
                             f"the {rules.opts.stoss_window.replace('_', ' ')} of trick 1 "
                             "(B10.3)", stoss=name)
    if level != rules.level(hand):
        now = STOSS_NAMES[rules.level(hand) - 1]
        return IllegalAction("stoss_level", f"the doubling now is {now} (B10.2)",
                             stoss=name, now=now)
    if seat in p["decided"]:
        return IllegalAction("stoss_declined", "you declined this doubling (B10)",
                             stoss=name)
    side = "opponents" if level % 2 else "declaring party"
    return IllegalAction("stoss_party", f"{name} is given by the {side} only (B10.1)",
                         stoss=name)
