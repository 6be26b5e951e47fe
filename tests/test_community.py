"""Finding a game, in process (``tests/fake_discord.py``): ``/play`` and ``/tables`` with
their *Join* from anywhere in the server, seats held for the invited, the call for one more
player, reminders by direct message, a player's ``/settings``, a server's ``/community`` —
each as a player or a manager would notice it."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_ID,
    CHANNEL_MESSAGE,
    EPHEMERAL,
    OTHER_CHANNEL_ID,
    UPDATE_MESSAGE,
    Harness,
    Message,
    Role,
    User,
)
from test_cogs import one_human, play_until

from bot import holds
from bot.courier import Signal
from bot.session import TableSession
from bot.texts import LANGUAGES, card_label, speaking, t

#: The widest a line of ours may be to fit a phone without wrapping badly (characters, with
#: a mention or a channel shown as a short name).
PHONE = 60


def lobby_in(h: Harness, channel_id: int) -> Message:
    session = h.tables.session_in(channel_id)
    assert session is not None and session.message_id is not None
    return h.discord.messages[session.message_id]


async def open_lobby(h: Harness, opener: User, channel_id: int = CHANNEL_ID,
                     *joining: User, game: str = "filicau", **options: Any) -> TableSession:
    """``/table new`` in a channel; the others press Join on its lobby."""
    r = await h.command(opener, "table new", channel_id=channel_id, game=game, **options)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral, r.text
    session = h.tables.session_in(channel_id)
    assert session is not None
    await session.join(opener.id, 0 if session.fixed_teams else None, opener.name)
    for user in joining:
        lobby = lobby_in(h, channel_id)
        label = t("btn.join_b") if session.fixed_teams and session.seats[1] is None \
            else t("btn.join_a") if session.fixed_teams else t("btn.sit")
        r = await h.press(user, label, message=lobby)
        assert r.type == UPDATE_MESSAGE, r.text
    return session


def seated(session: TableSession) -> set[int]:
    return {int(m) for m in session.seats if m is not None and m.isdigit()}


# -- /play ------------------------------------------------------------------------------------


async def test_play_opens_a_table_here_when_none_takes_the_player(h: Harness) -> None:
    ana = h.user("ana")
    r = await h.command(ana, "play", game="filicau")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    session = h.session()
    assert session.state == "lobby" and seated(session) == {ana.id}
    assert ana.mention in r.text  # the lobby shows her seated
    h.check_clean()


async def test_play_seats_the_player_at_the_fullest_table_of_the_server(h: Harness) -> None:
    ana, bob, cid, dan = (h.user(n) for n in ("ana", "bob", "cid", "dan"))
    here = await open_lobby(h, ana, CHANNEL_ID)
    there = await open_lobby(h, bob, OTHER_CHANNEL_ID, cid)
    r = await h.command(dan, "play", game="filicau")
    # The other channel's table is fuller: Dan sits there, and is told where it is.
    assert r.ephemeral and f"<#{OTHER_CHANNEL_ID}>" in r.text
    assert f"/{OTHER_CHANNEL_ID}/{there.message_id}" in r.text
    assert dan.id in seated(there) and dan.id not in seated(here)
    assert dan.mention in lobby_in(h, OTHER_CHANNEL_ID).text  # its lobby was redrawn
    h.check_clean()


async def test_play_keeps_to_the_game_asked_for(h: Harness) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    await open_lobby(h, ana, CHANNEL_ID)
    # No table of Filkó anywhere, and this channel has its table: nothing to open here.
    r = await h.command(bob, "play", game="filko")
    assert r.ephemeral and r.text == t("err.channel_busy")
    assert bob.id not in seated(h.session())
    # Any game: the Filicău table.
    r = await h.command(bob, "play", channel_id=OTHER_CHANNEL_ID)
    assert r.ephemeral and bob.id in seated(h.session())
    h.check_clean()


async def test_a_table_between_hands_offers_a_computers_seat(h: Harness) -> None:
    session, ana = await one_human(h)
    bob = h.user("bob")
    # In the middle of a hand nobody may sit down: /play opens a table elsewhere.
    r = await h.command(bob, "play", game="filicau", channel_id=OTHER_CHANNEL_ID)
    assert not r.ephemeral and bob.id not in seated(session)
    assert h.bot is not None
    await h.bot.service.end(h.table(h.session(OTHER_CHANNEL_ID)), "ok.ended")
    # Between hands Bob takes a computer's seat, from the other channel.
    await play_until(h, session, [ana], random.Random(3))
    assert session.between_hands
    r = await h.command(bob, "play", channel_id=OTHER_CHANNEL_ID)
    assert r.ephemeral and f"<#{CHANNEL_ID}>" in r.text
    assert bob.id in seated(session) and sum(m.startswith("cpu:") for m in session.seats) == 2
    h.check_clean()


# -- /tables and Join ---------------------------------------------------------------------------


async def test_tables_lists_the_open_seats_fullest_first_with_a_join_each(h: Harness) -> None:
    ana, bob, cid, dan = (h.user(n) for n in ("ana", "bob", "cid", "dan"))
    here = await open_lobby(h, ana, CHANNEL_ID)
    there = await open_lobby(h, bob, OTHER_CHANNEL_ID, cid)
    r = await h.command(dan, "tables")
    listing = r.message
    assert r.ephemeral and listing.embeds[0]["title"] == t("tables.title")
    lines = listing.embeds[0]["description"].split("\n")
    assert f"<#{OTHER_CHANNEL_ID}>" in lines[0] and f"<#{CHANNEL_ID}>" in lines[2]
    assert "2/4" in lines[1] and "1/4" in lines[3]
    joins = [b["custom_id"] for b in listing.buttons]
    assert joins == [f"fc:take:{there.id}", f"fc:take:{here.id}"]
    # Join under the list seats Dan at the other channel's table, from this channel.
    r = await h.click(dan, joins[0], message=listing)
    assert r.type == UPDATE_MESSAGE and r.message.id == listing.id
    assert f"<#{OTHER_CHANNEL_ID}>" in r.text and not r.message.buttons
    assert dan.id in seated(there)
    assert dan.mention in lobby_in(h, OTHER_CHANNEL_ID).text
    h.check_clean()


async def test_join_is_refused_where_it_was_never_drawn(h: Harness) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    session = await open_lobby(h, ana, CHANNEL_ID)
    # A Join made up on the table message itself (a public message that has its own Join).
    lobby = lobby_in(h, CHANNEL_ID)
    r = await h.click(bob, f"fc:take:{session.id}", message=lobby, forge=True)
    assert r.ephemeral and r.text == t("err.bad_button")
    assert bob.id not in seated(session)
    # A Join with arguments the bot never writes.
    r = await h.command(bob, "tables")
    r = await h.click(bob, f"fc:take:{session.id}:x", message=r.message, forge=True)
    assert r.text == t("err.bad_button") and bob.id not in seated(session)
    assert r.message.audience == bob.id  # answered only to him, the list left alone
    h.check_clean()


async def test_join_from_a_stale_list_is_refused_when_the_table_filled(h: Harness) -> None:
    ana, bob, cid, dan, eve = (h.user(n) for n in ("ana", "bob", "cid", "dan", "eve"))
    session = await open_lobby(h, ana, CHANNEL_ID, bob, cid)
    listing = (await h.command(eve, "tables")).message
    await h.command(dan, "play")  # takes the last seat
    assert dan.id in seated(session)
    r = await h.click(eve, listing.buttons[0]["custom_id"], message=listing)
    assert r.type == CHANNEL_MESSAGE and r.ephemeral
    assert r.text in (t("err.team_full", team="A"), t("err.team_full", team="B"))
    assert eve.id not in seated(session)
    h.check_clean()


# -- invitations and held seats ---------------------------------------------------------------


async def test_an_invitation_holds_seats_for_the_invited_and_mentions_them(h: Harness) -> None:
    ana, bob, cid, eve = (h.user(n) for n in ("ana", "bob", "cid", "eve"))
    r = await h.command(ana, "table new", game="filicau", invite=bob, invite_2=cid)
    session = h.session()
    held = holds.active(session.row.runtime, time.time())
    assert set(held) == {str(bob.id), str(cid.id)}
    assert 9 * 60 < min(held.values()) - time.time() <= 10 * 60  # ten minutes by default
    [told] = r.followups
    assert bob.mention in told.text and cid.mention in told.text and ana.mention in told.text
    call = next(c for c in r.calls if c.path.endswith(told_path(r)))
    assert call.body["allowed_mentions"]["users"] == [str(bob.id), str(cid.id)]
    # Ana sits down; two seats are held, two are free: Eve takes one, not a second person.
    await session.join(ana.id, 0, "ana")
    dan = h.user("dan")
    r = await h.press(eve, t("btn.join_b"))
    assert r.type == UPDATE_MESSAGE and eve.id in seated(session)
    r = await h.press(dan, t("btn.join_a"))
    until = int(min(held.values()))
    assert r.ephemeral and r.text == t("err.seat_held", until=f"<t:{until}:t>")
    # /play and /tables do not offer the table to Dan either.
    r = await h.command(dan, "tables")
    assert r.message.embeds[0]["description"] == t("tables.none")
    # Bob, invited, takes his seat.
    r = await h.press(bob, t("btn.join_a"))
    assert r.type == UPDATE_MESSAGE and bob.id in seated(session)
    # The holds survive a restart; once they run out anyone may sit down.
    await h.restart()
    session = h.session()
    r = await h.press(dan, t("btn.join_b"))
    assert r.ephemeral and r.text.startswith(t("err.seat_held", until="").split("{")[0][:20])
    await session.keep(**{holds.HELD: {k: time.time() - 1 for k in held}})
    r = await h.press(dan, t("btn.join_b"))
    assert r.type == UPDATE_MESSAGE and dan.id in seated(session)
    h.check_clean()


def told_path(r: Any) -> str:
    """The path of the follow-up that told the invited (a token route: no global limit)."""
    return f"/webhooks/{r.harness.bot.application_id}/{r.token}"


async def test_an_invited_player_who_chose_direct_messages_gets_one(h: Harness) -> None:
    ana, bob, cid = h.user("ana"), h.user("bob", locale="de"), h.user("cid")
    r = await h.command(bob, "settings", invites="dm")
    assert r.ephemeral
    r = await h.command(ana, "table new", game="filicau", invite=bob, invite_2=cid,
                        invite_3=ana)
    session = h.session()
    # Ana invited herself: ignored. Bob gets a direct message in his own language, with a
    # link to the table; Cid is mentioned in the channel.
    assert set(holds.active(session.row.runtime, time.time())) == {str(bob.id), str(cid.id)}
    [dm] = h.dms(bob)
    link = f"https://discord.com/channels/{session.guild_id}/{CHANNEL_ID}/{session.message_id}"
    assert link in dm.text
    with speaking("de"):
        assert dm.text.startswith(t("invite.dm", user=ana.mention, game="\0", channel="",
                                    until="", link="").split("\0")[0])
    [told] = r.followups
    assert cid.mention in told.text and bob.mention not in told.text
    assert h.dms(cid) == []
    h.check_clean()


# -- the call for one more player ------------------------------------------------------------


async def test_a_lobby_one_seat_short_calls_the_servers_role_once_a_while(h: Harness) -> None:
    boss = h.user("boss", manager=True)
    players = Role(860_000_000_000_000_001, "players")
    ana, bob, cid, dan, eve, fay = (h.user(n) for n in ("ana", "bob", "cid", "dan", "eve",
                                                         "fay"))
    # Without a role nobody is called.
    await open_lobby(h, ana, CHANNEL_ID, bob, cid)
    assert not [m for m in h.public() if "<@&" in m.text]
    assert h.bot is not None
    await h.bot.service.end(h.table(h.session()), "ok.ended")
    r = await h.command(ana, "community", call_role=players)
    assert r.text == t("err.need_manage_server")
    r = await h.command(boss, "community", call_role=players, hold_minutes=5)
    assert players.mention in r.text and "5" in r.text
    mark = h.mark()
    session = await open_lobby(h, ana, CHANNEL_ID, bob, cid)
    [call] = [m for m in h.public() if m.text.startswith(players.mention)]
    assert f"<#{CHANNEL_ID}>" in call.text
    [sent] = [c for c in h.calls_since(mark) if c.body and "allowed_mentions" in c.body
              and c.body["allowed_mentions"].get("roles")]
    mentions = sent.body["allowed_mentions"]  # the role, nobody else
    assert (mentions["parse"], mentions["roles"]) == ([], [str(players.id)])
    # Its Join seats whoever presses it, answered only to them.
    r = await h.click(dan, call.buttons[0]["custom_id"], message=call)
    assert r.ephemeral and dan.id in seated(session)
    assert h.discord.messages[call.id].text == call.text  # the call itself is unchanged
    # Another table one seat short soon after: no second call in the server.
    await open_lobby(h, eve, OTHER_CHANNEL_ID, fay, h.user("gus"))
    assert [m for m in h.public(OTHER_CHANNEL_ID) if "<@&" in m.text] == []
    h.check_clean()


# -- reminders ----------------------------------------------------------------------------------


async def test_a_reminder_comes_by_direct_message_once_a_turn_and_names_no_card(
        h: Harness) -> None:
    session, ana = await one_human(h)
    runner = h.runner(session)

    async def play_a_card() -> None:
        view = h.hand_view(ana)
        await h.click(ana, sorted(view.moves())[0], message=view)
        assert session.waiting_for_human() == [0]  # the computers played: her turn again

    # Not asked for: no direct message.
    await runner.courier.signal(Signal.WARNING, 30)
    assert h.dms(ana) == []
    r = await h.command(ana, "settings", reminders="dm")
    assert t("choice.dm") in r.text
    await play_a_card()
    await runner.courier.signal(Signal.TURN, 80)  # a few seconds in: no reminder yet
    assert h.dms(ana) == []
    await runner.courier.signal(Signal.WARNING, 30)  # two thirds of the turn gone
    await runner.courier.signal(Signal.WARNING, 29)  # the same turn: nothing more
    [dm] = h.dms(ana)
    link = f"https://discord.com/channels/{session.guild_id}/{CHANNEL_ID}/{session.message_id}"
    assert link in dm.text and "30" in dm.text
    hand = session.hand
    assert hand is not None
    for c in [c for cards in hand.hands for c in cards]:
        assert card_label(c) not in dm.text
    assert not dm.buttons and not dm.files
    # Her next turn is another turn.
    await play_a_card()
    await runner.courier.signal(Signal.WARNING, 30)
    assert len(h.dms(ana)) == 2
    h.check_clean()


async def test_reminders_keep_within_the_budget(h: Harness) -> None:
    session, ana = await one_human(h)
    await h.command(ana, "settings", reminders="dm")
    dms = h.bot.community.dms  # type: ignore[union-attr]
    dms.budget.tokens = 0.0
    dms.budget.per_second = 0.0
    await h.runner(session).courier.signal(Signal.WARNING, 30)
    assert h.dms(ana) == [] and dms.dropped == 1
    h.check_clean()


# -- /settings, /community ----------------------------------------------------------------------


async def test_settings_are_a_players_own_and_say_what_they_are(h: Harness) -> None:
    ana = h.user("ana", locale="ro")
    r = await h.command(ana, "settings")
    with speaking("ro"):
        assert r.text == t("settings.now", reminders=t("choice.off"),
                           invites=t("choice.mention"))
    r = await h.command(ana, "settings", reminders="dm", invites="dm")
    prefs = await h.bot.store.player_settings(ana.id)  # type: ignore[union-attr]
    assert (prefs.reminders, prefs.invites, prefs.locale) == ("dm", "dm", "ro")
    assert r.message.flags & EPHEMERAL if hasattr(r.message, "flags") else r.ephemeral
    h.check_clean()


# -- phone width --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_new_lines_fit_a_phone(lang: str) -> None:
    """Each line of the list of tables and of a tournament's standings, with its longest
    game name, a channel and a mention shown as short names, fits a phone's width."""
    from bot.texts import game_title
    from engine.rules import GAMES

    with speaking(lang):
        game = max((game_title(g, c.title) for g, c in GAMES.items()), key=len)
        texts = [
            t("tables.line", number=10, game=game, channel="#cards", taken=5, seats=6,
              state=t("tables.between"), free=t("tables.free", count=2)),
            t("tour.standing_line", place=32, name="@someone",
              score=t("tour.score_mp_percent", score="12.5", percent="100")),
            t("tour.standings_title", round=10, rounds=10),
            t("btn.take", number=10), t("btn.sign_up"), t("btn.withdraw"),
            t("btn.start_now"),
        ]
    for text in texts:
        for line in re.sub(r"\*\*", "", text).split("\n"):
            assert len(line) <= PHONE, (lang, line)
