"""The Activity of a table across servers (issue 42), in the process that drives it: opened
in a venue's channel (another server's), it shows the table as that server sees it — in
its pictures and words, each player's own hand only to them, names as names — where it used to find
no table at all."""

from __future__ import annotations

import json
import random
from pathlib import Path

import aiohttp
from activity_helpers import activity_site, hidden_named
from test_activity import next_step, open_socket, seat_user, ticket_of
from test_web import receive

from bot.store import GuildSettings, VenueRow
from engine import action_to_json, seat_view
from engine.cards import code


async def test_the_activity_in_a_venues_channel_shows_the_table_as_that_server_sees_it(
        tmp_path: Path) -> None:
    async with activity_site(tmp_path, guilds=2) as site, aiohttp.ClientSession() as http:
        session = await site.table(seed=5, watch="off")
        hand = session.hand
        assert hand is not None
        venue_channel = site.standin.channel_ids[1]
        venue_guild = site.standin.guild_of[venue_channel]
        assert venue_guild != session.guild_id
        away = seat_user(session, 3)
        await site.store.put_guild_settings(GuildSettings(guild_id=venue_guild, locale="de",
                                                          theme="light", faces="french"))
        # Not shown there yet: no table.
        answer = await ticket_of(site, http, site.standin.users[away], channel=1)
        assert answer["status"] != 200
        await site.store.put_venue(VenueRow(table_id=session.id, guild_id=venue_guild,
                                            channel_id=venue_channel, members=(away,)))
        answer = await ticket_of(site, http, site.standin.users[away], channel=1)
        assert answer["status"] == 200, answer
        ws, hello, first = await open_socket(site, http, answer["ticket"])
        # The venue's server's pictures, faces and card words.
        assert hello["table"]["cards"] == "cards/french/light/de/"
        assert hello["viewer"] == {"role": "player", "seat": 3}
        assert first["mine"]["cards"] == [code(c) for c in seat_view(hand, 3).hand]
        watcher = site.user(4343, "Wendel")
        answer = await ticket_of(site, http, watcher, channel=1)
        spectator, hello, spectated = await open_socket(site, http, answer["ticket"])
        assert hello["viewer"] == {"role": "spectator", "seat": None}
        assert "mine" not in spectated
        # A seat across servers is not taken from the Activity (``/tables``' Join asks
        # the player's server, the blocks and the bars first).
        await site.store.update_table(session.id, settings={**session.row.settings,
                                                            "crossplay": True})
        await spectator.send_json({"v": 1, "type": "seat", "op": "sit", "hand": None})
        refused = await receive(spectator)
        while refused["type"] != "error":  # (a turn's clock may come first)
            refused = await receive(spectator)
        assert refused["reason"] == "activity.crossplay_sit"
        assert str(watcher.id) not in session.seats
        # A home player's Activity is the home's, as before.
        answer = await ticket_of(site, http, site.standin.users[seat_user(session, 0)])
        assert answer["status"] == 200
        home, home_hello, _ = await open_socket(site, http, answer["ticket"])
        assert home_hello["table"]["cards"] == "cards/german/dark/en/"
        await home.close()
        # Every move reaches the venue's Activity; nothing hidden of anybody else's.
        seen, watched = [json.dumps(first)], [json.dumps(spectated)]
        rng = random.Random(2)
        for _ in range(6):
            seat = hand.actors()[0]
            at = len(hand.actions)
            await session.act(seat_user(session, seat), rng.choice(hand.legal_actions(seat)),
                              hand_number=session.hand_number, at=at)
            await site.server.feed.changed(session.id)
            step = await next_step(ws, at + 1, seen)
            assert step["mine"]["cards"] == [code(c) for c in seat_view(hand, 3).hand]
            await next_step(spectator, at + 1, watched)
            assert hidden_named("\n".join(seen), hand, 3) == []
            assert hidden_named("\n".join(watched), hand, None) == []
        names = "\n".join(watched)
        assert "<@" not in names
        # The away player plays from the venue's Activity.
        while hand.actors()[0] != 3:
            seat = hand.actors()[0]
            at = len(hand.actions)
            await session.act(seat_user(session, seat), rng.choice(hand.legal_actions(seat)),
                              hand_number=session.hand_number, at=at)
            await site.server.feed.changed(session.id)
            await next_step(ws, at + 1, seen)
        at = len(hand.actions)
        await ws.send_json({"v": 1, "type": "act", "hand": session.hand_id, "at": at,
                            "seat": 3, "action": action_to_json(hand.legal_actions(3)[0])})
        await next_step(ws, at + 1, seen)
        assert len(hand.actions) == at + 1
        for socket in (ws, spectator):
            await socket.close()
