"""A seat's own part of the table, as the Activity draws it for the player who holds it.

Built from the seat's ``SeatView`` only (``engine.view.seat_view``): its cards, which of them
may be played now, which are trumps, every other choice the engine offers (bids, calls, a
fris, a binding, taking the widow, burying, announcements...) worded as the Discord hand view
words them (``bot.render.action_label``), what only this seat knows (``bot.facts``), and what
to do now. The game is never named: a new game's choices appear here as they appear on the
hand view's buttons. This object is sent to its holder's socket only (``bot.web.live``).
"""

from __future__ import annotations

from typing import Any

from bot import facts, render
from bot.texts import has_text, t
from bot.web.views import PageNames
from engine import Action, Hand, action_to_json, seat_view
from engine.cards import code


def choice(seating: PageNames, action: Action, *, free: bool) -> dict[str, Any]:
    """One choice as a control: what the socket sends back (``kind`` and ``value``, the
    engine's JSON), and its words."""
    (kind, value), = action_to_json(action).items()
    return {"kind": kind, "value": value, "free": free,
            "label": seating.text(render.action_label(seating.session, action))}


def seat_state(seating: PageNames, hand: Hand, seat: int) -> dict[str, Any]:
    """What the seat's holder sees of their own: a plain-data object (see the module
    docstring).

    >>> import random
    >>> from engine import make_rules
    >>> from bot.store import TableRow
    >>> from bot.web.views import seating
    >>> rules = make_rules("filicau")
    >>> pack = list(rules.pack); random.Random(1).shuffle(pack)
    >>> hand = Hand(rules, 0, pack)
    >>> row = TableRow(id=1, guild_id=1, channel_id=1, message_id=None, game="filicau",
    ...                options={}, opener_id=1, seats=["1", "2", "3", "4"], state="playing",
    ...                created_at="2026-01-01T00:00:00+00:00")
    >>> mine = seat_state(seating(row, None, None), hand, 1)  # type: ignore[arg-type]
    >>> len(mine["cards"]), mine["seat"], sorted(mine["legal"]) == sorted(mine["cards"])
    (8, 1, True)
    """
    v = seat_view(hand, seat)
    s = seating.session
    order = v.order
    cards = [code(c) for c in v.hand]
    legal = [code(a.value) for a in v.legal if a.kind == "card"]
    others = [a for a in v.legal if a.kind != "card"]
    choices = [choice(seating, a, free=False) for a in others if not render.chosen_together(a)]
    choices += [choice(seating, a, free=True) for a in v.free]
    together = [a for a in others if render.chosen_together(a)]
    private = dict(v.private)
    if together:
        # Choosing the cards to bury: the widow's cards are marked on the cards themselves.
        private.pop("widow", None)
    widow = [x for x in v.private.get("widow") or () if isinstance(x, str)]
    # The hand view's last line says what to do now (its wording, without its countdown:
    # the Activity counts down itself).
    prompt = render.hand_content(s, v).splitlines()[-1]
    return {
        "seat": seat,
        "cards": cards,
        "legal": legal,
        "trumps": [code(c) for c in v.hand if order is not None and order.is_trump(c)],
        "choices": choices,
        "together": None if not together else {
            "kind": together[0].kind,
            "size": len(together[0].value),
            "cards": sorted({code(c) for a in together for c in a.value}, key=cards.index
                            if all(code(c) in cards for a in together for c in a.value)
                            else None),
            "label": t(f"act.{together[0].kind}.choose")
            if has_text(f"act.{together[0].kind}.choose")
            else t("hand.choose_cards", count=len(together[0].value)),
            "widow": [x for x in widow if x in cards],
        },
        "private": [seating.text(line) for line in facts.private_lines(s, private)],
        "prompt": seating.text(prompt),
        "my_turn": bool(v.legal) and not v.finished,
        "hints": s.hints and bool(v.legal) and not v.finished,
    }
