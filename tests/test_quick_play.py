"""Quick play's seating, as players notice it (issue 43): two ``/play`` at the same moment
open one table between them, not two; a player who sits at a table is told where, and is
not seated at a second one."""

from __future__ import annotations

import asyncio

from fake_discord import CHANNEL_ID, OTHER_CHANNEL_ID, Harness
from test_community import open_lobby, seated

from bot.texts import t

#: A third channel of the server.
THIRD_CHANNEL_ID = OTHER_CHANNEL_ID + 1


async def test_two_plays_at_once_after_a_table_filled_open_one_table(h: Harness) -> None:
    ana, bob, cid, dan, eve, fay = (h.user(n) for n in ("ana", "bob", "cid", "dan", "eve",
                                                        "fay"))
    full = await open_lobby(h, ana, CHANNEL_ID, bob, cid)
    await full.join(dan.id, 1, dan.name)
    assert None not in full.seats
    # Eve and Fay ask at the same moment, each in another channel.
    first, second = await asyncio.gather(
        h.command(eve, "play", game="filicau", channel_id=OTHER_CHANNEL_ID),
        h.command(fay, "play", game="filicau", channel_id=THIRD_CHANNEL_ID))
    await h.settle()
    opened = [s for s in (h.tables.session_in(c) for c in (OTHER_CHANNEL_ID, THIRD_CHANNEL_ID))
              if s is not None]
    assert len(opened) == 1, "two tables for two players"
    assert seated(opened[0]) == {eve.id, fay.id}
    assert first.answered and second.answered
    h.check_clean()


async def test_a_seated_players_play_says_where_they_sit(h: Harness) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    here = await open_lobby(h, ana, CHANNEL_ID)
    await open_lobby(h, bob, OTHER_CHANNEL_ID)
    # Ana sits here; another table takes players, but she is not seated twice.
    r = await h.command(ana, "play", game="filicau", channel_id=OTHER_CHANNEL_ID)
    assert r.ephemeral and f"<#{CHANNEL_ID}>" in r.text
    assert r.text.startswith(t("play.already_seated", game="\0", channel="", link="")
                             .split("\0")[0])
    assert f"/{CHANNEL_ID}/{here.message_id}" in r.text
    there = h.tables.session_in(OTHER_CHANNEL_ID)
    assert there is not None and ana.id not in seated(there)
    assert [ana.id] == [int(m) for m in here.seats if m == str(ana.id)]
    h.check_clean()


async def test_a_second_join_at_a_schafkopf_table_speaks_of_no_team(h: Harness) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    r = await h.command(ana, "table new", game="schafkopf")
    assert not r.ephemeral, r.text
    r = await h.press(bob, t("btn.sit"))
    assert not r.ephemeral, r.text
    # Schafkopf's partners form in each deal: there is no team to be in already.
    r = await h.press(bob, t("btn.sit"))
    assert r.rejected_with(t("err.already_at_table"))
    assert not r.rejected_with(t("err.already_seated"))
    h.check_clean()


async def test_the_opener_is_told_whom_the_invitation_left_out(h: Harness) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    robot = h.user("robot", bot=True)
    stranger = h.user("stranger", outsider=True)
    # Somebody who is not a member of this server: nothing opens, and the answer says who
    # (issue 42: a one-server table invites this server's members only).
    r = await h.command(ana, "table new", game="filicau", invite=robot, invite_2=stranger)
    assert r.ephemeral and r.text == t("invite.strangers", users="Stranger")
    assert h.tables.session_in(CHANNEL_ID) is None
    r = await h.command(ana, "table new", game="filicau", invite=robot, invite_2=ana)
    assert not r.ephemeral, r.text
    [told] = [m for m in r.followups if m.audience == ana.id]
    assert told.text == t("invite.left_out", users=", ".join([
        t("invite.left_bot", user=robot.mention), t("invite.left_self")]))
    # Nobody was invited: no seat held, nobody mentioned.
    assert [m for m in r.followups if m.audience is None] == []
    # Bob, a member, invited with them, is invited.
    r = await h.command(bob, "table new", game="filicau", channel_id=OTHER_CHANNEL_ID,
                        invite=ana, invite_2=robot)
    [left] = [m for m in r.followups if m.audience == bob.id]
    assert left.text == t("invite.left_out", users=t("invite.left_bot", user=robot.mention))
    [mention] = [m for m in r.followups if m.audience is None]
    assert ana.mention in mention.text
    h.check_clean()
