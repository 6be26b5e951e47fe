"""End to end, a seat at a table across servers found and taken from the shard process that
does not drive it: six servers on two shard processes (the real bot, ``python -m bot``,
against the stand-in and one real PostgreSQL). Four people of four servers play a table; one
leaves, the computer plays on, and a player of the other process holds the seat for a
newcomer in a fifth server, on that process, told by direct message. The newcomer asks
``/tables`` there: the list is asked of the owner (``bot.crossplay.openings``), their *Join*
is carried to it (``bot.crossplay.relay``), which seats them and shows the table in their
server's channel. From there they block a player and report a hand, both answered by their
own process from the store, and play on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from standin import Player, StandIn, serving, shard_process
from standin.crossgame import TIMEOUT, CrossTable
from test_e2e_relay import PgHiddenCards

from bot.store.postgres import PostgresStore
from bot.texts import t


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    """Six servers, one channel each: servers 0, 2 and 4 on shard 0, 1, 3 and 5 on 1."""
    async with serving(channels=6, guilds=6, shards=2) as server:
        yield server


def listed(standin: StandIn, p: Player, inter_original: int | None) -> str:
    msg = standin.messages[inter_original] if inter_original else None
    assert msg is not None and msg.audience == p.id, "no list only the asker sees"
    return str(msg.embeds[0].get("description") or "") if msg.embeds else msg.content


@pytest.mark.slow
async def test_a_seat_across_servers_is_found_and_taken_from_the_other_process(
    standin: StandIn, tmp_path: Path, pg_url: str
) -> None:
    guilds = [standin.guild_of[c] for c in standin.channel_ids]
    assert [standin.shard_of(g) for g in guilds] == [0, 1, 0, 1, 0, 1]
    procs = {s: shard_process(standin, tmp_path, pg_url, [s]) for s in (0, 1)}
    for p in procs.values():
        await p.start()
    store = PostgresStore(pg_url)
    await store.open()
    hidden = PgHiddenCards(store)
    standin.observers.append(hidden)
    try:
        for number, c in enumerate(standin.channel_ids):
            boss = Player(standin, f"boss{number}", channel_id=c, manager=True)
            await boss.command("admin crossplay", mode="on")
        people = [Player(standin, name, channel_id=c)
                  for name, c in zip(("ana", "bo", "cy", "di"), standin.channel_ids[:4],
                                     strict=True)]
        for p in people:
            await p.command("play", where="everywhere", game="filicau")
        table = CrossTable(standin, people, seed=11)
        await standin.wait_for(lambda: all(table.table_message(p) for p in people),
                               TIMEOUT, "the table in every server's channel")
        [row] = await store.open_tables()
        home = standin.shard_of(row.guild_id)
        # The newcomer's server is of the process that does not drive the table, and shows
        # no table yet.
        ed_channel = next(c for c in standin.channel_ids[4:]
                          if standin.shard_of(standin.guild_of[c]) != home)
        ed = Player(standin, "ed", channel_id=ed_channel)
        none_line = t("tables.none")
        join = t("btn.take", number=1)

        async def tables() -> tuple[str, int | None]:
            """Ed's /tables: the list's text and its message (the answer waited for in
            full: the other process is asked meanwhile)."""
            inter = await ed.command("tables")
            await table.settled(ed, inter)
            return listed(standin, ed, inter.original), inter.original

        # Mid-hand every seat is a person's: nothing to take.
        for p in people:
            await table.my_hand(p)
        number = await table.playing()
        await table.play(number, moves=2)
        text, _ = await tables()
        assert text == none_line

        # A player leaves mid-hand; the computer plays their seat to the end of the hand.
        leaver = people[1]
        inter = await leaver.press(t("btn.leave_hand"), table.table_message(leaver))  # type: ignore[arg-type]
        assert await table.settled(leaver, inter) is None
        # The question: the answer itself, or a follow-up where the click was carried.
        question = standin.messages[inter.followups[0]] if inter.followups \
            else leaver.response(inter)
        assert question.content == t("hand.leave_ask")
        inter = await leaver.press(t("btn.leave_yes"), question)
        assert await table.settled(leaver, inter) is None
        table.players.remove(leaver)
        # A player of the process that does not drive the table holds the seat for Ed,
        # who takes invitations by direct message (the hold carried to the owner).
        inviter = next(p for p in table.players
                       if standin.shard_of(standin.guild_of[p.channel_id]) != home)
        await ed.command("settings", invites="dm")
        inter = await inviter.command("crossplay invite", user=ed)
        await table.settled(inviter, inter)
        held = inviter.response(inter)
        assert held.audience == inviter.id
        prefix = t("ok.crossplay_invited_dm", user="\0", until="\0").split("\0")[0]
        assert held.content.startswith(prefix) and "Ed" in held.content, held.content
        [dm] = await standin.wait_for(lambda: ed.dms() or None, TIMEOUT, "Ed's invitation")
        assert dm.content.startswith(t("crossplay.invite_dm", user=inviter.name.title(),
                                       game=t("game.filicau"), until="\0").split("\0")[0])
        after_hold = await store.get_table(row.id)
        assert after_hold is not None and str(ed.id) in after_hold.runtime["held"]
        await table.play(number)
        for p in table.players:
            await standin.wait_for(lambda p=p: table.result(number, p), TIMEOUT,
                                   f"the result in {p.name}'s channel")

        # Between hands the computer's seat is free: Ed's process asks the owner, and lists
        # the table as one across servers, naming nothing of the server it was formed in.
        text, original = await tables()
        line = t("tables.line_across", number=1, game=t("game.filicau"), taken=4, seats=4,
                 state=t("tables.between"), free=t("tables.free", count=1))
        assert text == line
        assert "<#" not in text
        # His Join is carried to the owner, which seats him and posts the table in his
        # channel; the list becomes the answer.
        assert original is not None
        inter = await ed.press(join, standin.messages[original])
        await table.settled(ed, inter)
        seated = t("play.seated", game=t("game.filicau"), channel="\0", link="\0")
        answer = await standin.wait_for(
            lambda: standin.messages[original].content or None, TIMEOUT, "Ed's answer")
        assert answer.startswith(seated.split("\0")[0]), answer
        assert f"<#{ed_channel}>" in answer
        await standin.wait_for(lambda: table.table_message(ed), TIMEOUT,
                               "the table in Ed's channel")
        after = await store.get_table(row.id)
        assert after is not None and str(ed.id) in after.seats
        venues = {v.guild_id: v for v in await store.venues(row.id)}
        assert venues[standin.guild_of[ed_channel]].channel_id == ed_channel
        # Listed again, the table takes him no more: he sits there.
        text, _ = await tables()
        assert text == none_line

        # From his channel, on his own process, he blocks Ana and reports the first hand.
        ana = people[0]
        seat = after.seats.index(str(ana.id)) + 1
        inter = await ed.command("crossplay block", seat=seat)
        blocked = ed.response(inter)
        assert blocked.audience == ed.id
        assert blocked.content == t("ok.blocked", user=ana.name.title()), blocked.content
        assert await store.blocked_among([ed.id, ana.id]) == {(ed.id, ana.id)}
        inter = await ed.command("crossplay report", hand=1, reason="stalling")
        assert ed.response(inter).content == t("ok.reported", hand=1)
        [report] = await store.reports(limit=5)
        assert report.reporter_id == ed.id
        inter = await ed.command("crossplay report", hand=99, reason="stalling")
        assert ed.response(inter).content == t("err.no_such_hand", hand=99)

        # He plays the next hand with the others, his clicks carried to the owner.
        table.players.append(ed)
        await table.next_hand(people[0])
        while not any(p is ed for p, _ in table.moves):
            await table.step(await table.playing())
        await hidden.drain()
        assert not hidden.problems, hidden.problems
        assert not hidden.leaks, hidden.leaks
        for p in procs.values():
            assert p.errors() == [], p.log()[-3000:]
    finally:
        await hidden.stop()
        await store.close()
        for p in procs.values():
            await p.stop()
