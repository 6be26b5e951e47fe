"""One request, one call, every surface: what a player does in the Activity shows on Discord
as a click there would — the table message, the player's own hand view, a notice — because
both make the same call of the table service (``bot.service``), whose courier tells every
surface which seat's person asked and from where (``bot.courier.Change``).

The Activity's socket is driven here through the bot's own adapter (``bot.activity``), as
``bot.web.activity`` calls it for a player's message; its pages and the browser are
``tests/browser/test_activity_bot.py``'s.
"""

from __future__ import annotations

import pytest
from fake_discord import Harness
from test_cogs import four_players, to_move, view_cards

from bot.activity import ActivityPlay
from bot.lobby import SessionError
from bot.texts import t
from engine import Action
from engine.cards import code


def activity(h: Harness) -> ActivityPlay:
    """The Activity's adapter over the bot's own registry and table service."""
    assert h.bot is not None
    return ActivityPlay(h.bot.tables, h.bot.service, h.bot.web_name)


async def test_a_card_played_in_the_activity_leaves_the_players_hand_view_on_discord(
        h: Harness) -> None:
    """Ana has her hand view open on Discord and plays from the Activity: the card is gone
    from that view (no click answered it) and shows on the table message, and the next
    player's view offers them their cards."""
    session, users = await four_players(h)
    mover = to_move(session, users)
    seat = session.seat_of(mover.id)
    assert seat is not None and session.hand is not None and session.hand_id is not None
    view = h.hand_view(mover)
    edits = len(view.versions)
    [card] = [a.value for a in session.hand.legal_actions(seat)][:1]
    table = h.table_message()
    shown = len(table.versions)
    await activity(h).act(session.id, mover.id, Action("card", card),
                          hand_id=session.hand_id, at=len(session.hand.actions), seat=seat)
    await h.settle()
    assert session.hand.actions[-1] == (seat, Action("card", card))
    after = h.hand_view(mover)
    assert after.id == view.id and len(after.versions) > edits
    assert code(card) not in view_cards(after) and not after.moves()
    assert len(table.versions) > shown
    following = to_move(session, users)
    assert h.hand_view(following).moves()
    h.check_clean()


async def test_a_move_on_a_table_that_moved_meanwhile_is_refused_in_the_activity(
        h: Harness) -> None:
    """The page's stamp (the actions its player saw) is the service's check, as a button's
    trick is: a move made on a table that moved since is refused and changes nothing."""
    session, users = await four_players(h)
    mover = to_move(session, users)
    seat = session.seat_of(mover.id)
    assert seat is not None and session.hand is not None and session.hand_id is not None
    card = session.hand.legal_actions(seat)[0]
    played = len(session.hand.actions)
    with pytest.raises(SessionError) as refused:
        await activity(h).act(session.id, mover.id, card, hand_id=session.hand_id,
                              at=played + 1, seat=seat)
    assert refused.value.key == "err.stale_trick"
    assert len(session.hand.actions) == played
    h.check_clean()


async def test_leaving_in_the_activity_tells_the_channel_and_the_players_own_view(
        h: Harness) -> None:
    """Bob leaves in the middle of a hand from the Activity: the channel is told the
    computer plays his seat, his open hand view on Discord is redrawn, and he is still in
    the hand's seat until it ends."""
    session, users = await four_players(h)
    bob = users[1]
    view = h.hand_view(bob)
    edits = len(view.versions)
    await activity(h).seat(session.id, bob.id, "leave", team=None, hand_id=session.hand_id)
    await h.settle()
    notice = t("turn.left", user=bob.mention)
    assert any(m.content == notice for m in h.public())
    assert len(h.hand_view(bob).versions) > edits
    assert session.seat_of(bob.id) == 1 and 1 in session.leaving
    h.check_clean()
