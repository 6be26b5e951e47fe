"""Play across servers as players and managers notice it, in process
(``tests/fake_discord.py``): invitations stay within a server, a server's opt-in, blocks,
reports and the operator's bar."""

from __future__ import annotations

from fake_discord import CHANNEL_MESSAGE, Harness

from bot.texts import t


async def test_a_table_of_one_server_refuses_to_invite_a_stranger(h: Harness) -> None:
    """Naming a user of another server by id used to hold a seat for them and mention them
    in a channel they cannot see: now nothing opens, and the answer says who and why."""
    ana, bob = h.user("ana"), h.user("bob")
    zed = h.stranger("zed")
    r = await h.command(ana, "table new", game="filicau", invite=bob, invite_2=zed)
    assert r.ephemeral and r.text == t("invite.strangers", users="Zed")
    assert h.tables.session_in(r.channel_id) is None
    assert not any(zed.mention in m.text for m in h.discord.messages.values())
    # The members alone: invited as before.
    r = await h.command(ana, "table new", game="filicau", invite=bob)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    [told] = r.followups
    assert bob.mention in told.text
    h.check_clean()
