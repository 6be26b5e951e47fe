"""Why Bavarian Schafkopf refuses an action: each refusal names its rule (RULINGS.md) by a
stable reason key, worded for players by the catalogs' ``illegal.*`` entries.

The rules' ``explain`` and ``explain_card`` hooks (``engine.rules.bavarian.game``) call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Action, IllegalAction
from engine.cards import SUIT_NAMES, Card, code
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
    WEITER,
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
        if phase in WINDOWS or phase == LEAD:
            return IllegalAction("claim_not_now", "no claim while a doubling may still be "
                                 "given: the first claim comes once the window has closed "
                                 f"({_window_end(rules)}) (B8.6)", window=True)
        return IllegalAction("claim_not_now", "only the player on lead may claim, at the "
                             "start of a trick, once play has begun (B8.3)", window=False)
    if phase in WINDOWS:
        return explain_in_window(rules, hand, seat, kind)
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

def _window_end(rules: BavarianRules) -> str:
    return ("at forehand's lead to trick 1" if rules.opts.stoss_window == "first_card"
            else "at the start of trick 2")


def _seats(seats: Sequence[int]) -> str:
    """``seat 2``, ``seats 1 and 3``, ``seats 0, 1 and 3``."""
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return "seats " + ", ".join(names[:-1]) + " and " + names[-1]


def explain_in_window(rules: BavarianRules, hand: Hand, seat: int, kind: str) -> IllegalAction:
    """An action other than the doubling asked for while the window is open (B10.3): who is
    asked, and that play waits for their answers."""
    asked = list(hand.pending["asked"])
    name = STOSS_NAMES[rules.level(hand) - 1].capitalize()
    if kind == WEITER and seat in hand.pending["decided"]:
        return IllegalAction("stoss_declined", f"seat {seat} has already answered this "
                             f"{name} (B10)", stoss=name.lower())
    if kind == WEITER:
        return IllegalAction("not_your_turn", f"the {name} window asks {_seats(asked)}, not "
                             f"seat {seat} (B10.1)", seat=seat, to_move=hand.to_move,
                             asked=asked)
    return IllegalAction("wrong_phase", f"the {name} window is open: {_seats(asked)} "
                         f"{'is' if len(asked) == 1 else 'are'} asked to say {name} or "
                         "Weiter, and play goes on once each has answered (B10.3)",
                         phase=hand.phase, asked=asked, stoss=name.lower())


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
    phase = hand.phase
    if contract is None:
        return IllegalAction("stoss_early", "no game is declared yet: doubling starts once "
                             "one is (B10.3)", stoss=name, declared=False)
    if phase in (WEDDING, EXCHANGE):
        return IllegalAction("stoss_early", "the Hochzeit is declared, but doubling starts "
                             "once its partner has taken the trump and given a card back "
                             "(B10.3, B12.5)", stoss=name, declared=True)
    if phase not in WINDOWS and phase != LEAD:
        return _stoss_late(rules, hand, name)
    now = rules.level(hand)
    if now > rules.opts.stoss_max:  # every doubling given before forehand's card
        return _stoss_late(rules, hand, name)
    if level != now:
        now_name = STOSS_NAMES[now - 1]
        return IllegalAction("stoss_level", f"the doubling now is {now_name.capitalize()} "
                             "(B10.2)", stoss=name, now=now_name)
    if seat in p["decided"]:
        return IllegalAction("stoss_declined", "you declined this doubling (B10)",
                             stoss=name)
    side = "opponents" if level % 2 else "declaring party"
    return IllegalAction("stoss_party", f"{name.capitalize()} is given by the {side} only "
                         "(B10.1)", stoss=name)


def _stoss_late(rules: BavarianRules, hand: Hand, name: str) -> IllegalAction:
    """Why the window is closed (B10.2, B10.3): no doubling at this table, the last one
    allowed given, the card that ends it played, or every seat asked answered."""
    most = rules.opts.stoss_max
    given = len(hand.pending["stoss"])
    played = 4 * len(hand.tricks) + len(hand.trick)
    window = rules.opts.stoss_window
    last = 1 if window == "first_card" else 2
    if not most:
        closed, why = "off", "this table plays without doubling (stoss_max 0)"
    elif given >= most:
        allowed = {1: "one doubling, and it was", 2: "two doublings, and both were"}.get(
            most, f"{most} doublings, and all were")
        closed, why = "max", f"this table allows {allowed} given"
    elif played >= last:
        closed, why = "card", (f"the window closed with the {('first', 'second')[last - 1]} "
                               "card of trick 1")
    else:
        closed, why = "answered", "the window closed when every seat asked had answered"
    return IllegalAction("stoss_late", f"{name.capitalize()} is too late: {why} (B10.2, "
                         "B10.3)", stoss=name, closed=closed, window=window, stoss_max=most)
