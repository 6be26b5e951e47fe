"""Duplicate boards stay secret until every table of the round has played them (issue 43).

Every table of a duplicate round plays the same boards. A player whose table is still on
board 1, while another table has finished it and plays board 2, tries every surface the bot
has: the other table's thread and table message, ``/history`` there and at his own table,
its My hand button, its live page and socket, the replay of its board 1, and its Activity.
He sees none of its cards; once his own table has finished board 1, that board's record and
replay open to everyone (so the refusals are the secret's, not a page that never works).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from fake_discord import GUILD_ID, Harness, User, running
from test_tournaments import announce, sign_up, tournament_tables
from web_helpers import path_of

from bot.activity import ActivityPlay
from bot.open_tables import OpenTable
from bot.seats import is_computer
from bot.texts import t
from bot.web.activity import Activity, Instance, Person, Refused, SessionRequest
from engine import replay as replay_hand
from engine.cards import code


class Identity:
    """Discord's answers about who opens an Activity, and where: each code names a user
    and each instance a channel with that user in it."""

    def __init__(self, people: dict[str, User], where: dict[str, int]) -> None:
        self.people = people
        self.where = where

    async def exchange(self, code: str) -> str:
        return code

    async def person(self, access_token: str) -> Person:
        user = self.people[access_token]
        return Person(user.id, user.name)

    async def instance(self, instance_id: str) -> Instance | None:
        code_, _ = instance_id.split("@")
        return Instance(GUILD_ID, self.where[instance_id],
                        frozenset({self.people[code_].id}))


def person_at(table: OpenTable, users: list[User]) -> User:
    [member] = [m for m in table.session.seats if m is not None and not is_computer(m)]
    return next(u for u in users if str(u.id) == member)


async def play_at(h: Harness, table: OpenTable, user: User, rng: random.Random,
                  until: Any) -> None:
    """The one person at ``table`` plays (random legal moves, Next hand under a result)
    until ``until()``."""
    viewed: set[int] = set()
    for _ in range(500):
        await h.settle()
        if until():
            return
        s = table.session
        assert s.hand is not None and s.message_id is not None
        if s.hand.finished:
            post = h.result_post(s.channel_id)
            next_id = next(b["custom_id"] for b in post.buttons
                           if b["custom_id"].startswith("fc:next:"))
            await h.click(user, next_id, message=post)
            continue
        if s.hand_number not in viewed:
            viewed.add(s.hand_number)
            await h.press(user, t("btn.my_hand"), message=h.discord.messages[s.message_id])
        if s.waiting_for_human():
            view = h.hand_view(user)
            await h.click(user, rng.choice(sorted(view.moves())), message=view)
    raise AssertionError("the table did not get there")


def card_codes(text: str, cards: list[int]) -> list[str]:
    """The cards of ``cards`` a page names by code (a JSON string, an image's name)."""
    return [code(c) for c in cards
            if re.search(r'["/=>]' + re.escape(code(c)) + r'(?:["<.]|\.png)', text)]


async def test_a_player_sees_no_card_of_a_board_another_table_is_playing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path / "bot.sqlite3", monkeypatch, web=True) as h:
        assert h.bot is not None and h.bot.web is not None
        boss = h.user("boss", manager=True)
        people = [h.user("ana"), h.user("bob")]
        row, announcement = await announce(h, boss, format="duplicate", rounds=1, hands=2,
                                           computers=6)
        shown = await sign_up(h, people, announcement)
        await h.press(boss, t("btn.start_now"), message=shown)
        tables = tournament_tables(h)
        assert len(tables) == 2
        fast, slow = tables
        runner, waiter = person_at(fast, people), person_at(slow, people)

        # Each table is a private thread with its own player in it, and nobody else.
        for table in tables:
            thread = h.discord.threads[table.session.channel_id]
            assert thread.private and not thread.invitable
            assert thread.members == {person_at(table, people).id}
        assert not [c for c in h.discord.invalid if c.startswith("schema")]

        # The fast table plays board 1 to its end and is into board 2; the slow table's
        # player has not moved: board 1 is in play there.
        await play_at(h, fast, runner, random.Random(3), lambda: (
            fast.session.hand_number == 2 and fast.session.hand is not None
            and len(fast.session.hand.actions) >= 2))
        assert slow.session.hand_number == 1 and not slow.session.hand.finished  # type: ignore[union-attr]
        board2 = fast.session.hand
        assert board2 is not None
        fast_thread = fast.session.channel_id
        store = h.bot.store
        [board1] = [r for r in await store.hands(fast.id) if r.number == 1]

        # Threads and table messages: nothing of the fast table's thread is readable.
        assert [m for m in h.readable(waiter) if m.channel_id == fast_thread] == []
        assert fast.session.message_id not in {m.id for m in h.readable(waiter)}

        # /history in the fast table's thread: board 1's record is refused, its replay not
        # linked; at his own table, board 1 is in play.
        r = await h.command(waiter, "history", channel_id=fast_thread, hand=1)
        assert r.ephemeral and r.text == t("err.board_secret") and not r.message.files
        r = await h.command(waiter, "history", channel_id=fast_thread)
        assert r.ephemeral and "http" not in r.text
        r = await h.command(waiter, "history", channel_id=slow.session.channel_id, hand=1)
        assert r.ephemeral and r.text == t("err.hand_in_progress")
        # The fast table's My hand: not his seat, no cards.
        table_message = h.discord.messages[fast.session.message_id]  # type: ignore[index]
        r = await h.press(waiter, t("btn.my_hand"), message=table_message)
        assert r.ephemeral and not r.message.files
        assert not [b for b in r.message.buttons if b["custom_id"].startswith("fc:card:")]

        # The web: the fast table's live page and socket show nothing, board 1's replay
        # nothing either.
        web = h.bot.web
        base = f"http://127.0.0.1:{web.port}"
        live = path_of(await web.table_link(GUILD_ID, fast.id))
        replay = path_of(await web.hand_link(GUILD_ID, board1.id))
        async with aiohttp.ClientSession(base) as client:
            async with client.get(live) as page:
                text = await page.text()
                assert page.status == 200 and card_codes(text, board2.pack) == []
            async with client.ws_connect("/ws" + live) as ws:
                await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
                got = [await ws.receive_json(timeout=10) for _ in range(2)]
                assert [m["type"] for m in got] == ["hello", "gone"]
                assert got[1]["reason"] == "off"
            async with client.get(replay) as page:
                text = await page.text()
                assert page.status == 200 and card_codes(text, board2.pack) == []

            # The Activity in the fast table's thread: refused to him, given to its player.
            identity = Identity({"w": waiter, "r": runner},
                                {"w@fast": fast_thread, "r@fast": fast_thread})
            activity = Activity(identity, ActivityPlay(h.bot.tables, h.bot.service,
                                                       h.bot.web_name), 1)
            activity.server = web
            with pytest.raises(Refused) as refused:
                await activity._session(SessionRequest(code="w", instance_id="w@fast"))
            assert refused.value.reason == "secret"
            assert t("activity.refused.secret") != "activity.refused.secret"
            assert (await activity._session(SessionRequest(code="r", instance_id="r@fast"))
                    )["ticket"]

            # Once the slow table has finished board 1 too, board 1 is everyone's.
            await play_at(h, slow, waiter, random.Random(4), lambda: (
                slow.session.hand is not None and slow.session.hand.finished))
            r = await h.command(waiter, "history", channel_id=fast_thread, hand=1)
            assert r.ephemeral and r.message.files
            async with client.get(replay) as page:
                text = await page.text()
            first = replay_hand(board1.record()).tricks[0].cards
            assert all(f'"{code(c)}"' in text for c in first)
        assert row.format == "duplicate"
