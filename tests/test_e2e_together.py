"""Playing together, with the real bot process (issue 17's "tests through the stand-in"):
a turn's ping reaches only the player to act and goes when they act, a hint is for the asker
only, a review comes after the hand and only to the asker, and seats that change between
and during hands leave every stored hand replayable.

The stand-in checks every request body against Discord's OpenAPI schema, and a hidden-card
check reads every message the bot writes: a card still hidden in a hand, named anywhere but
in its holder's own messages, fails the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from standin import BotProcess, Player, StandIn
from standin.discord_objects import Message
from standin.game import Table
from standin.records import Database, HiddenCardCheck
from standin.server import CHANNEL_MESSAGE, UPDATE_MESSAGE, Interaction

from bot.texts import t


@dataclass
class Together:
    standin: StandIn
    bot: BotProcess
    db: Database
    hidden: HiddenCardCheck

    def players(self, *names: str) -> list[Player]:
        return [Player(self.standin, n, channel_id=self.standin.channel_ids[0]) for n in names]


@pytest.fixture
async def together(tmp_path: Path) -> AsyncIterator[Together]:
    standin = StandIn(channels=1)
    db = Database(tmp_path / "bot.sqlite3")
    hidden = HiddenCardCheck(db)
    standin.observers.append(hidden)
    await standin.start()
    # Pings a moment after a turn starts (the default waits a few seconds).
    bot = BotProcess(standin, db.path, tmp_path / "bot.log", ping_delay=0.2)
    try:
        await bot.start()
        yield Together(standin, bot, db, hidden)
    finally:
        await bot.stop()
        await standin.stop()
    assert not standin.problems, standin.problems
    assert not hidden.leaks, hidden.leaks
    assert hidden.checked > 0, "the hidden-card check saw no message of a hand in play"
    assert bot.errors() == [], bot.log()[-3000:]


async def two_and_two(env: Together, seed: int = 5) -> tuple[Table, Player, Player]:
    """Ana (team A) and Bo (team B) with two computers at a casual table (hints are for
    casual tables), the first hand dealt, both with their hand view open."""
    ana, bo = env.players("ana", "bo")
    table = Table(env.standin, [ana, bo], seed=seed)
    await table.open(ana, [(ana, 0), (bo, 1)], computers=2, rated=False)
    await table.start(ana)
    return table, ana, bo


async def person_to_act(env: Together, table: Table) -> tuple[Player, Message]:
    found: tuple[Player, Message] = await env.standin.wait_for(
        table.to_act, 30, "a person to act", channel_id=table.channel_id)
    return found


def pings(table: Table, p: Player) -> list[Message]:
    texts = {t("turn.ping", user=p.mention),
             t("turn.ping_view", user=p.mention, button=t("btn.my_hand"))}
    return [m for m in table.public() if m.content in texts]


async def written(env: Together, p: Player, inter: Interaction, what: str) -> Message:
    """The answer to ``inter``, once written: a hint or a review is worked out in the
    computer players' pool, so the bot defers the answer and writes it when it is ready."""
    def ready() -> Message | None:
        if inter.original is None:
            return None
        m = p.response(inter)
        return m if m.content or m.embeds else None

    found: Message = await env.standin.wait_for(ready, 60, what, channel_id=p.channel_id)
    return found


def buttons_of(op: str, messages: list[Message]) -> list[str]:
    return [b["custom_id"] for m in messages for b in m.buttons
            if str(b.get("custom_id", "")).startswith(f"fc:{op}:")]


async def test_a_ping_reaches_only_the_player_to_act_and_goes_when_they_act(
        together: Together) -> None:
    table, ana, bo = await two_and_two(together)
    mover, view = await person_to_act(together, table)
    other = bo if mover is ana else ana
    [ping] = await together.standin.wait_for(lambda: pings(table, mover) or None, 30,
                                             "the ping", channel_id=table.channel_id)
    assert ping.content == t("turn.ping", user=mover.mention)  # the view is open
    assert other.mention not in ping.content and pings(table, other) == []
    inter = await mover.click(sorted(view.moves())[0], message=view)
    assert inter.type == UPDATE_MESSAGE, mover.refused(inter)
    await together.standin.wait_for(lambda: ping.deleted, 30, "the ping to go",
                                    channel_id=table.channel_id)


async def test_a_hint_is_for_the_asker_only(together: Together) -> None:
    table, ana, bo = await two_and_two(together)
    mover, view = await person_to_act(together, table)
    other = bo if mover is ana else ana
    [hint] = [cid for cid in buttons_of("hint", [view])]
    inter = await mover.click(hint, message=view)
    answer = await written(together, mover, inter, "the hint")
    assert answer.audience == mover.id and mover.sees_ephemeral(answer)
    assert answer.content.startswith(t("hint.choice", action="\0").split("\0")[0])
    # The other player's own view offers no hint (not their turn), and they never see it.
    other_view = table.hand_view(other)
    assert other_view is not None and other_view.enabled("hint") == []
    assert answer.id not in {m.id for m in other.visible()}


async def test_a_review_comes_after_the_hand_and_only_to_the_asker(together: Together) -> None:
    table, ana, bo = await two_and_two(together)
    await table.play_hand(1, moves=2)
    assert buttons_of("review", table.public() + ana.ephemerals() + bo.ephemerals()) == []
    result = await table.play_hand(1)
    assert result is not None
    [review] = buttons_of("review", [result])
    inter = await bo.click(review, message=result)
    page = await written(together, bo, inter, "the review")
    assert page.audience == bo.id and bo.sees_ephemeral(page)
    assert page.id not in {m.id for m in ana.visible()}


async def test_seats_changed_during_and_between_hands_keep_every_hand_replayable(
        together: Together) -> None:
    table, ana, bo = await two_and_two(together, seed=7)
    # Ana must go mid-hand: the computer takes her cards at once, and the hand ends.
    table_message = table.table_message()
    assert table_message is not None
    inter = await ana.press(t("btn.leave_hand"), table_message)
    assert inter.type == CHANNEL_MESSAGE and ana.response(inter).content == t("hand.left")
    table.players = [bo]
    assert await table.play_hand(1) is not None
    # Between hands Cy takes her seat on team A; Bo deals the next hand from the result.
    cy = together.players("cy")[0]
    table.players = [cy, bo]
    lobby: Message = await together.standin.wait_for(
        lambda: (m := table.table_message()) is not None
        and m.button_by_label(t("btn.join_a")) is not None and m,
        30, "the free seat", channel_id=table.channel_id)
    inter = await cy.press(t("btn.join_a"), lobby)
    assert inter.type == UPDATE_MESSAGE, cy.refused(inter)
    await table.next_hand(bo)
    assert await table.play_hand(2) is not None

    row = together.db.table_in(table.channel_id)
    assert row is not None
    first, second = together.db.hands(int(row["id"]))
    assert str(ana.id) in first.header["members"]
    assert str(cy.id) in second.header["members"] and str(ana.id) not in second.header["members"]
    for stored in (first, second):
        replayed = stored.replay()
        assert replayed.finished and stored.result is not None
        assert replayed.result is not None
        assert list(replayed.result.points) == stored.result["points"]
