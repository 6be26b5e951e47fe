"""Play across servers as players and managers notice it, in process
(``tests/fake_discord.py``): invitations stay within a server, a server's opt-in, blocks,
reports and the operator's bar."""

from __future__ import annotations

import asyncio
import random

from fake_discord import (
    CHANNEL_ID,
    CHANNEL_MESSAGE,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    OWNER_ID,
    Channel,
    Harness,
    Message,
    User,
)
from test_cogs import play_turn, play_until

from bot.store import EVERYWHERE
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


# -- a server's opt-in -------------------------------------------------------------------------


async def test_play_across_servers_is_off_until_a_manager_turns_it_on(h: Harness) -> None:
    """Off by default: *everywhere* is refused, saying how to turn it on; a manager turns it
    on for one game and one channel; off again, refused again."""
    ana, boss = h.user("ana"), h.user("boss", manager=True)
    r = await h.command(ana, "play", where="everywhere")
    assert r.ephemeral and r.text == t("crossplay.off")
    r = await h.command(boss, "admin crossplay", mode="on", game="filko",
                        channel=Channel(CHANNEL_ID))
    assert r.ephemeral and r.text == t("ok.crossplay_on", games=t("game.filko"),
                                       channels=f"<#{CHANNEL_ID}>")
    r = await h.command(ana, "play", where="everywhere", game="filicau")
    assert r.text == t("crossplay.game_off")
    r = await h.command(ana, "play", where="everywhere", game="filko",
                        channel_id=OTHER_CHANNEL_ID)
    assert r.text == t("crossplay.channel_off")
    r = await h.command(ana, "play", where="everywhere", game="filko")
    assert r.text.startswith(t("crossplay.queued", game=t("game.filko"), waiting=1)[:20])
    assert [w.user_id for w in await h.bot.store.waiting()] == [ana.id]
    # A player may not turn it on; off again leaves nobody of this server waiting.
    r = await h.command(ana, "admin crossplay", mode="on")
    assert r.ephemeral and r.text == t("err.need_manage_server")
    assert (await h.bot.store.crossplay_settings(GUILD_ID)).games == ("filko",)
    r = await h.command(boss, "admin crossplay", mode="off")
    assert r.text == t("ok.crossplay_off") and await h.bot.store.waiting() == []
    r = await h.command(ana, "play", where="everywhere", game="filko")
    assert r.text == t("crossplay.off")
    h.check_clean()


# -- one table, several servers ----------------------------------------------------------------


async def four_servers(h: Harness, game: str = "filicau") -> list[tuple[User, int]]:
    """Four players, one in each of four servers that play across servers, all queued for
    ``game`` from their own channel: each with the channel they play from."""
    players = []
    for number, name in enumerate(("ana", "bob", "cid", "dan")):
        guild_id, channel_id = (GUILD_ID, CHANNEL_ID) if number == 0 else h.guild(number)
        boss = h.user(f"boss{number}", manager=True, guild=guild_id)
        r = await h.command(boss, "admin crossplay", mode="on", channel_id=channel_id)
        assert r.ephemeral
        players.append((h.user(name, guild=guild_id), channel_id))
    for user, channel_id in players:
        r = await h.command(user, "play", where="everywhere", game=game, channel_id=channel_id)
        assert r.ephemeral
    return players


def table_in(h: Harness, channel_id: int) -> Message:
    """The one table message of a channel (a public message with a My hand button)."""
    [table] = [m for m in h.public(channel_id)
               if any(b.get("label") == t("btn.my_hand") for b in m.buttons)]
    return table


async def test_four_servers_play_one_table_each_in_its_own_channel(h: Harness) -> None:
    """Four players of four servers queue; a table forms; each is told where, in their own
    server's channel; each plays from their own channel's table message and hand view, and
    every move shows on every server's message. Hidden cards stay hidden on every message of
    every server (the harness checks each one), and no server's message names another server
    or mentions a person of another server."""
    players = await four_servers(h)
    [table] = list(h.tables)
    s = table.session
    assert sorted(s.seats) == sorted(u.member for u, _ in players)
    assert await h.bot.store.waiting() == []
    for user, channel_id in players:
        message = table_in(h, channel_id)
        told = h.last_ephemeral(user, containing=str(message.id))
        assert f"/{channel_id}/{message.id}" in told.text
        # Names, never mentions of people who are not in this server.
        assert "<@" not in message.text
        for other, _ in players:
            assert other.name.title() in message.text
        assert "Club" not in message.text and "Card club" not in message.text
    # Everybody opens their hand from their own server's table message, and plays.
    users = [u for u, _ in players]
    for user, channel_id in players:
        r = await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
        assert r.ephemeral and r.channel_id == channel_id
    before = {c: table_in(h, c).text for _, c in players}
    await play_turn(h, s, users, random.Random(3))
    await h.settle()
    after = {c: table_in(h, c).text for _, c in players}
    assert all(after[c] != before[c] for c in after)  # one move, every server's message
    await play_until(h, s, users, random.Random(3))
    await h.settle()
    for _, channel_id in players:
        assert any(m.embeds and t("btn.next_hand") in [b.get("label") for b in m.buttons]
                   for m in h.public(channel_id)), "no result in a server's channel"
    assert h.checked > 0
    # The hand is on the ladder of play across servers, in no server's own ratings.
    store = h.bot.store
    ladder = await store.ratings(EVERYWHERE, "filicau", 1)
    assert {r.player for r in ladder} == {u.member for u in users}
    for user, _ in players:
        assert await store.ratings(user.guild_id, "filicau", 1) == []
    # /leaderboard shows either: the ladder by the names shown at the table, or this
    # server's own (nobody yet).
    ana = players[0][0]
    r = await h.command(ana, "leaderboard", game="filicau", where="everywhere")
    [embed] = r.message.embeds
    assert embed["title"] == t("leaderboard.ladder_title", game=t("game.filicau"), season=1)
    assert all(u.name.title() in embed["description"] for u in users)
    assert "<@" not in embed["description"]
    r = await h.command(ana, "leaderboard", game="filicau")
    assert r.message.embeds[0]["description"] == t("leaderboard.none")
    h.check_clean()


async def test_a_click_from_a_server_that_does_not_show_the_table_is_refused(
        h: Harness) -> None:
    players = await four_servers(h)
    [table] = list(h.tables)
    guild_id, channel_id = h.guild(7)
    eve = h.user("eve", guild=guild_id)
    message = table_in(h, players[1][1])
    payload = message.payload()
    payload["channel_id"] = str(channel_id)
    r = await h.click(eve, message.button_by_label(t("btn.my_hand"))["custom_id"],
                      message=payload)
    assert r.ephemeral and r.text == t("err.elsewhere")
    # A player of the table, from a server of the table but not on its message there.
    ana = players[0][0]
    r = await h.click(ana, message.button_by_label(t("btn.my_hand"))["custom_id"],
                      message=message.payload())
    assert r.ephemeral and r.text == t("err.elsewhere")
    assert table.session.state == "playing"
    h.check_clean()


async def test_a_server_that_turns_it_off_hands_its_seats_to_the_computer(h: Harness) -> None:
    """Off again in Bob's server: the computer plays Bob's seat from now on, every server's
    channel says why, and the others play on."""
    players = await four_servers(h)
    [table] = list(h.tables)
    s = table.session
    bob, bob_channel = players[1]
    boss = h.user("boss-b", manager=True, guild=bob.guild_id)
    r = await h.command(boss, "admin crossplay", mode="off", channel_id=bob_channel)
    assert r.text == t("ok.crossplay_off")
    await h.settle()
    seat = s.seat_of(bob.id)
    assert seat is not None and seat in s.autoplay
    why = t("crossplay.withdrawn", user="Bob")
    for _, channel_id in players:
        assert any(m.text == why for m in h.public(channel_id)), channel_id
    users = [u for u, _ in players if u != bob]
    for user, channel_id in players:
        if user != bob:
            await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
    await play_until(h, s, users, random.Random(5))
    await h.settle()
    assert s.hand is not None and s.hand.finished
    h.check_clean()


async def test_a_table_across_servers_survives_a_restart(h: Harness) -> None:
    """The bot restarts mid-hand: every server's table message plays on where it was."""
    players = await four_servers(h)
    [table] = list(h.tables)
    users = [u for u, _ in players]
    for user, channel_id in players:
        await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
    await play_turn(h, table.session, users, random.Random(2))
    await h.restart()
    [table] = list(h.tables)
    s = table.session
    for user, channel_id in players:
        r = await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
        assert r.ephemeral and r.channel_id == channel_id
    await play_until(h, s, users, random.Random(2))
    await h.settle()
    assert s.hand is not None and s.hand.finished
    h.check_clean()


async def test_a_player_who_waits_long_is_offered_computers_and_may_leave_the_queue(
        h: Harness) -> None:
    boss, ana = h.user("boss", manager=True), h.user("ana")
    await h.command(boss, "admin crossplay", mode="on")
    h.bot.crossplay.wait = 0  # the wait (CROSSPLAY_WAIT) is over at once
    r = await h.command(ana, "play", where="everywhere", game="filko")
    assert r.text == t("crossplay.queued", game=t("game.filko"), waiting=1)
    await asyncio.gather(*h.bot.crossplay.offers.values())
    offer = h.last_ephemeral(ana)
    assert offer.text == t("crossplay.computers", game=t("game.filko"))
    # Quick play here: out of the queue, a table here where computers can sit.
    r = await h.command(ana, "play", game="filko")
    assert r.type == CHANNEL_MESSAGE and await h.bot.store.waiting() == []
    assert h.session().game == "filko"
    h.check_clean()


# -- blocks, reports and the operator's bar ---------------------------------------------------


async def test_a_blocked_pair_is_never_seated_together_again(h: Harness) -> None:
    """Ana blocks Bob from her seat at their table; once it is over, five queue, Ana and Bob
    first: the table forms without Bob, who waits."""
    players = await four_servers(h)
    [table] = list(h.tables)
    s = table.session
    (ana, ana_channel), (bob, _) = players[0], players[1]
    bob_seat = s.seat_of(bob.id)
    assert bob_seat is not None
    r = await h.command(ana, "crossplay block", seat=bob_seat + 1, channel_id=ana_channel)
    assert r.ephemeral and r.text == t("ok.blocked", user="Bob")
    r = await h.command(ana, "crossplay block", seat=s.seat_of(ana.id) + 1,
                        channel_id=ana_channel)
    assert r.text == t("err.no_such_player", seat=s.seat_of(ana.id) + 1)
    boss = h.user("boss-home", manager=True)
    await h.command(boss, "admin end", channel_id=s.channel_id)
    assert s.state == "closed"
    guild_id, eve_channel = h.guild(4)
    await h.command(h.user("boss4", manager=True, guild=guild_id), "admin crossplay",
                    mode="on", channel_id=eve_channel)
    eve = h.user("eve", guild=guild_id)
    for user, channel_id in [*players, (eve, eve_channel)]:
        await h.command(user, "play", where="everywhere", game="filicau",
                        channel_id=channel_id)
    [table] = [x for x in h.tables if x.session.state != "closed"]
    assert bob.member not in table.session.seats and ana.member in table.session.seats
    assert [w.user_id for w in await h.bot.store.waiting()] == [bob.id]
    h.check_clean()


async def test_a_player_reports_a_hand_and_the_operator_reads_it(h: Harness) -> None:
    players = await four_servers(h)
    dan, dan_channel = players[3]
    r = await h.command(dan, "crossplay report", hand=1, reason="stalling",
                        channel_id=dan_channel)
    assert r.ephemeral and r.text == t("ok.reported", hand=1)
    r = await h.command(dan, "crossplay report", hand=1, reason="other",
                        channel_id=dan_channel)
    assert r.text == t("ok.already_reported", hand=1)
    r = await h.command(dan, "crossplay report", hand=7, reason="other",
                        channel_id=dan_channel)
    assert r.text == t("err.no_such_hand", hand=7)
    # Somebody not at the table, in a channel without one: refused.
    r = await h.command(h.user("zoe"), "crossplay report", hand=1, reason="name",
                        channel_id=OTHER_CHANNEL_ID)
    assert r.text == t("err.no_crossplay_table")
    # Only the operator (here: the application's owner) reads the reports.
    r = await h.command(dan, "crossplay reports", channel_id=dan_channel)
    assert r.text == t("err.not_operator")
    owner = User(OWNER_ID, "owner")
    r = await h.command(owner, "crossplay reports")
    assert r.ephemeral and t("choice.reason_stalling") in r.text and dan.mention in r.text
    h.check_clean()


async def test_the_operator_bars_a_user_from_play_across_servers(h: Harness) -> None:
    boss, eve = h.user("boss", manager=True), h.user("eve")
    await h.command(boss, "admin crossplay", mode="on")
    await h.command(eve, "play", where="everywhere")
    r = await h.command(boss, "crossplay bar", user=eve)
    assert r.text == t("err.not_operator")
    owner = User(OWNER_ID, "owner")
    r = await h.command(owner, "crossplay bar", user=eve)
    assert r.ephemeral and r.text == t("ok.barred", user=eve.mention)
    assert await h.bot.store.waiting() == []  # out of the queue at once
    r = await h.command(eve, "play", where="everywhere")
    assert r.text == t("crossplay.barred")
    r = await h.command(owner, "crossplay unbar", user=eve)
    assert r.text == t("ok.unbarred", user=eve.mention)
    r = await h.command(eve, "play", where="everywhere")
    assert r.text.startswith(t("crossplay.queued", game="\0", waiting=1).split("\0")[0])
    h.check_clean()


async def test_names_shown_as_text_are_capped_and_isolated_in_every_message(
        h: Harness) -> None:
    """Issue 44: at a table across servers people are named as text, not mentions. A
    200-character name (kept from elsewhere) and a right-to-left override (U+202E, which
    turned "Mallory: 🔔 Unter" into "retnU 🔔 :yrollaM" and the name after it round) reach
    every server's messages capped at 32 characters and between FSI…PDI: on the table, the
    hand views, the result, the notices and the ladder."""
    long_name, evil = "l" * 200, "\u202emallory"
    players = []
    for number, name in enumerate((long_name, evil, "cid", "dan")):
        guild_id, channel_id = (GUILD_ID, CHANNEL_ID) if number == 0 else h.guild(number)
        boss = h.user(f"boss{number}", manager=True, guild=guild_id)
        await h.command(boss, "admin crossplay", mode="on", channel_id=channel_id)
        players.append((h.user(name, guild=guild_id), channel_id))
    for user, channel_id in players:
        await h.command(user, "play", where="everywhere", game="filicau", channel_id=channel_id)
    [table] = list(h.tables)
    users = [u for u, _ in players]
    for user, channel_id in players:
        await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
    await play_until(h, table.session, users, random.Random(4))
    await h.settle()
    await h.command(users[2], "leaderboard", game="filicau", where="everywhere")
    texts = [m.text for m in h.discord.messages.values()]
    shown = [x for x in texts if "Llll" in x or "\u202e" in x]
    assert any("Llll" in x for x in shown) and any("\u202e" in x for x in shown)
    for text in texts:
        assert "l" * 32 not in text.lower(), text
        for at in [i for i, ch in enumerate(text) if ch == "\u202e"]:
            assert text[at - 1] == "\u2068" and text.index("\u2069", at) <= at + 32, text
    # The table, the result and the ladder name Mallory (no mention of another server).
    assert any("\u2068\u202eMallory\u2069" in table_in(h, c).text for _, c in players)
    h.check_clean()


# -- invitations across servers -----------------------------------------------------------------


async def test_a_player_invites_somebody_of_another_server_to_a_seat_that_frees(
        h: Harness) -> None:
    """At a table across servers a player holds a seat for somebody of any server: only
    once a seat is (or will be) free, never for a bot, themselves, one seated or one in a
    block with a player there. The invitee who allowed it is told by direct message (else
    the inviter is told to tell them), nobody is mentioned anywhere; between hands the
    held seat is offered in /tables to the invitee alone, who takes it from their own
    server."""
    players = await four_servers(h)
    [table] = list(h.tables)
    s = table.session
    (ana, ana_channel), (bob, bob_channel), (cid, _) = players[0], players[1], players[2]
    guild_id, eve_channel = h.guild(4)
    fay_guild, fay_channel = h.guild(5)
    for g, c in ((guild_id, eve_channel), (fay_guild, fay_channel)):
        await h.command(h.user(f"boss-{g}", manager=True, guild=g), "admin crossplay",
                        mode="on", channel_id=c)
    eve, fay = h.user("eve", guild=guild_id), h.user("fay", guild=fay_guild)
    zed = h.stranger("zed")

    async def invite(who: User, by: User = ana, channel_id: int = ana_channel) -> str:
        r = await h.command(by, "crossplay invite", user=who, channel_id=channel_id)
        assert r.ephemeral
        return r.text

    # Every seat is a person's: nothing to hold yet.
    assert await invite(eve) == t("err.crossplay_invite_no_seat")
    assert await invite(ana) == t("err.crossplay_invite_self")
    assert await invite(cid) == t("err.crossplay_invite_seated", user="Cid")
    assert await invite(h.user("robot", bot=True)) == t("err.crossplay_invite_bot")
    assert await invite(eve, by=fay, channel_id=fay_channel) == t("err.no_crossplay_table")
    # Bob and Dan leave mid-hand: their seats are the computer's at the next deal, and can
    # be held.
    dan, dan_channel = players[3]
    for user, channel_id in ((bob, bob_channel), (dan, dan_channel)):
        r = await h.press(user, t("btn.leave_hand"), message=table_in(h, channel_id))
        await h.press(user, t("btn.leave_yes"), message=r.message)
    await h.bot.store.block(cid.id, fay.id)
    assert await invite(fay) == t("err.crossplay_invite_refused", user="Fay")
    # Zed takes no invitations by direct message: Ana is told to tell him.
    text = await invite(zed)
    assert text.startswith(t("ok.crossplay_invited", user="Zed", until="\0").split("\0")[0])
    assert text.endswith(t("ok.crossplay_invited", user="Zed", until="\0").split("\0")[1])
    assert h.dms(zed) == []
    # Eve takes them by direct message.
    await h.command(eve, "settings", invites="dm", channel_id=eve_channel)
    text = await invite(eve)
    assert text.startswith(t("ok.crossplay_invited_dm", user="Eve", until="\0").split("\0")[0])
    [dm] = h.dms(eve)
    assert dm.text.startswith(t("crossplay.invite_dm", user="Ana", game=t("game.filicau"),
                                until="\0").split("\0")[0])
    assert "<@" not in dm.text and "<#" not in dm.text  # nothing of Ana's server
    # The two seats are held: none for Gus.
    gus = h.stranger("gus")
    assert await invite(gus) == t("err.crossplay_invite_no_seat")
    assert not any(eve.mention in m.text or zed.mention in m.text
                   for m in h.discord.messages.values())
    # Between hands /tables offers the seat to Eve alone; she takes it from her server.
    stayed = [(u, c) for u, c in players if u not in (bob, dan)]
    for user, channel_id in stayed:
        await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
    await play_until(h, s, [u for u, _ in stayed], random.Random(5))
    await h.settle()
    assert s.between_hands
    r = await h.command(fay, "tables", channel_id=fay_channel)
    assert r.message.embeds[0]["description"] == t("tables.none")
    r = await h.command(eve, "tables", channel_id=eve_channel)
    assert t("tables.line_across", number=1, game=t("game.filicau"), taken=4, seats=4,
             state=t("tables.between"), free=t("tables.free", count=2)) \
        in r.message.embeds[0]["description"]  # the invited take any seat open
    await h.press(eve, t("btn.take", number=1), message=r.message)
    assert eve.member in s.seats and bob.member not in s.seats
    assert sum(m == dan.member for m in s.seats) == 1  # Zed's, until he comes or it runs out
    assert table_in(h, eve_channel) is not None
    h.check_clean()


async def test_the_next_hand_dealt_in_one_server_shows_in_every_server(h: Harness) -> None:
    """Next hand under the result in one server's channel: the new hand's table is posted
    there, and every other server's table message shows the new hand too (it stayed on the
    last one, with nobody's move to redraw it)."""
    players = await four_servers(h)
    [table] = list(h.tables)
    s = table.session
    for user, channel_id in players:
        await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
    await play_until(h, s, [u for u, _ in players], random.Random(3))
    await h.settle()
    ana, ana_channel = players[0]
    [result] = [m for m in h.public(ana_channel)
                if t("btn.next_hand") in [b.get("label") for b in m.buttons]]
    await h.press(ana, t("btn.next_hand"), message=result)
    await h.settle()
    assert s.hand_number == 2
    for _, channel_id in players:
        title = table_in(h, channel_id).embeds[0]["title"]
        assert title == t("table.title", game=t("game.filicau"), number=2), (channel_id, title)
