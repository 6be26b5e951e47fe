"""Clicks carried between shard processes (``bot.crossplay.relay``), in process: how the
process that got a click defers it, where the owner's answers to a deferred click land, the
clicks kept for a shard (on both databases), and the bus that announces them.

The real thing, two shard processes against the Discord stand-in, is
``tests/test_e2e_relay.py``."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

from bot.crossplay.relay import EPHEMERAL, PUBLIC, UPDATE, Relay, RelayedResponse, deferral
from bot.protocol import parse
from bot.web.bus import LocalBus


def clicked(message_id: int) -> Any:
    return SimpleNamespace(message=SimpleNamespace(id=message_id))


def test_a_click_answered_by_a_message_of_its_own_is_deferred_as_the_clickers_own() -> None:
    """My hand, the last trick, the rules, a hint, a review's first page: deferred as a
    message only the clicker sees, so that the hand view's token edits that message (never
    the public table message the button was on)."""
    for custom_id in ("fc:hand:5", "fc:last:5", "fc:rules:5", "fc:review:5:1"):
        click = parse(custom_id, None)
        assert click is not None, custom_id
        assert deferral(click, clicked(10), 10) == EPHEMERAL, custom_id
    card = parse("fc:card:5:1:0:EO", None)
    assert card is not None
    assert deferral(card, clicked(77), 10) == UPDATE  # the hand view is redrawn in place
    after = parse("fc:next:5:1", None)
    assert after is not None
    assert deferral(after, clicked(11), 10) == PUBLIC  # under a result: a new table below
    assert deferral(after, clicked(10), 10) == UPDATE  # on the table message itself


class Hook:
    """What an interaction's webhook was asked to do."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def edit_original_response(self, **fields: Any) -> Any:
        self.calls.append(("edit", fields))
        return SimpleNamespace(id=1)

    async def delete_original_response(self) -> None:
        self.calls.append(("delete", {}))

    @property
    def followup(self) -> Any:
        hook = self

        class Followup:
            async def send(self, **fields: Any) -> Any:
                hook.calls.append(("followup", fields))
                return SimpleNamespace(id=2)

        return Followup()


async def test_the_owners_answers_to_a_deferred_click_go_by_its_webhook() -> None:
    # My hand, deferred as the clicker's own "thinking…": the hand view replaces it.
    hook = Hook()
    response = RelayedResponse(hook, EPHEMERAL)  # type: ignore[arg-type]
    sent = await response.send_message("cards", ephemeral=True)
    assert sent.message_id == 1 and [c for c, _ in hook.calls] == ["edit"]
    assert hook.calls[0][1]["content"] == "cards"
    # A card from the hand view: the view redrawn where it is; a refusal only its clicker
    # sees comes as a follow-up of theirs.
    hook = Hook()
    response = RelayedResponse(hook, UPDATE)  # type: ignore[arg-type]
    await response.edit_message(content="view", view=None)
    await response.send_message("not your turn", ephemeral=True)
    assert [c for c, _ in hook.calls] == ["edit", "followup"]
    assert hook.calls[1][1]["ephemeral"] is True
    # Next hand under a result, refused: the public "thinking…" goes, the refusal is the
    # clicker's alone.
    hook = Hook()
    response = RelayedResponse(hook, PUBLIC)  # type: ignore[arg-type]
    await response.send_message("the hand is not over", ephemeral=True)
    assert [c for c, _ in hook.calls] == ["delete", "followup"]
    assert hook.calls[1][1]["ephemeral"] is True
    assert not response.is_done()  # every answer, refusals too, comes through it


async def test_clicks_kept_for_a_shard_are_taken_once_by_its_owner(store: Any) -> None:
    """A click kept while no process owned its shard is taken by the owner's sweep; one
    announced on the bus by the owner that hears it; each once."""
    handled: list[str] = []

    async def dispatch(interaction: Any) -> None:
        handled.append(interaction.payload["id"])

    def rebuild(payload: dict[str, Any]) -> Any:
        return SimpleNamespace(payload=payload, id=int(payload["id"]))

    early = await store.relay(1, {"interaction": {"id": "1"}, "deferred": UPDATE})
    elsewhere = await store.relay(0, {"interaction": {"id": "2"}, "deferred": UPDATE})
    assert await store.relayed_for([1], stale_before=time.time()) == [early]
    bus = LocalBus()
    owner = Relay(store, bus, shards=[1], shard_count=2, rebuild=rebuild, dispatch=dispatch)
    await owner.sweep()  # as at its start
    assert handled == ["1"]
    await owner.start()
    try:
        later = await store.relay(1, {"interaction": {"id": "3"}, "deferred": UPDATE})
        await bus.publish(f"c:1:{later}")
        await bus.publish(f"c:0:{elsewhere}")  # another shard's: not this process's
        await asyncio.gather(*owner.tasks)
        await owner.take(later)  # announced twice, or swept as well: taken once
        assert handled == ["1", "3"]
        assert await store.relayed_for([0, 1], stale_before=time.time()) == [elsewhere]
    finally:
        await owner.stop()


async def test_a_click_whose_taker_died_before_doing_it_is_done_by_the_next_owner(
        store: Any, monkeypatch: Any) -> None:
    """The owner takes a click and dies before it is done: the click stays kept; the next
    owner of the shard leaves it while its taker might still finish it, then does it, once.
    A click this process is doing is never taken again by its own sweep."""
    from bot.crossplay import relay as relay_module

    handled: list[str] = []
    started, release = asyncio.Event(), asyncio.Event()

    async def dispatch(interaction: Any) -> None:
        handled.append(interaction.payload["id"])
        if interaction.payload["id"] == "slow":
            started.set()
            await release.wait()

    def relay_of() -> Relay:
        return Relay(store, LocalBus(), shards=[1], shard_count=2,
                     rebuild=lambda p: SimpleNamespace(payload=p, id=int(time.time_ns())),
                     dispatch=dispatch)

    rid = await store.relay(1, {"interaction": {"id": "lost"}, "deferred": UPDATE,
                                "at": time.time()})
    # The owner took it (as ``take`` does) and died before doing it.
    at = time.time()
    assert await store.take_relayed(rid, at=at, stale_before=at - 30) is not None
    heir = relay_of()
    await heir.sweep()
    assert handled == []  # its taker had its while yet
    monkeypatch.setattr(relay_module, "TAKEN_SECONDS", 0.0)
    await heir.sweep()
    await heir.sweep()
    assert handled == ["lost"]
    assert await store.relayed_for([1], stale_before=time.time() + 1) == []
    # A slow click in hand here is not taken again by this process's own sweep.
    slow = await store.relay(1, {"interaction": {"id": "slow"}, "deferred": UPDATE,
                                 "at": time.time()})
    doing = asyncio.ensure_future(heir.take(slow))
    await started.wait()
    await heir.sweep()
    release.set()
    await doing
    assert handled == ["lost", "slow"]
    # A click kept longer than its token lives is not done at all.
    old = await store.relay(1, {"interaction": {"id": "old"}, "deferred": UPDATE,
                                "at": time.time() - relay_module.TOKEN_SECONDS - 1})
    await heir.take(old)
    assert handled == ["lost", "slow"]
    assert await store.relayed_for([1], stale_before=time.time() + 1) == []


class SharedBus:
    """One bus for several processes in this one: a message reaches every listener (as
    PostgreSQL's NOTIFY does), the publisher's own too."""

    def __init__(self) -> None:
        self.handlers: list[Any] = []

    def join(self) -> Any:
        bus = self

        class Joined:
            async def start(self, handler: Any) -> None:
                bus.handlers.append(handler)

            async def publish(self, message: str) -> None:
                for handler in list(bus.handlers):
                    handler(message)

            async def stop(self) -> None:
                return None
        return Joined()


def guild_on(shard: int) -> int:
    return shard << 22  # a server id on that shard of two


async def test_a_request_is_answered_by_the_process_that_owns_its_shard(
        store: Any, monkeypatch: Any) -> None:
    """Another process's request (an Activity's tap) is done by the owner of the table's
    home shard: its answer comes back; its refusal comes back as the same refusal, to be
    worded where it was asked; with nobody owning the shard, the asker is told so."""
    from bot.crossplay import relay as relay_module
    from bot.lobby import SessionError

    done: list[tuple[str, dict[str, Any]]] = []

    def handler(name: str) -> Any:
        async def handle(work: dict[str, Any]) -> dict[str, Any]:
            done.append((name, work))
            if work.get("card") == "XX":
                raise SessionError("illegal.not_your_turn", seat=2)
            return {"text": f"{name} did {work['card']}"}
        return handle

    bus = SharedBus()

    def relay_of(shard: int) -> Relay:
        return Relay(store, bus.join(), shards=[shard], shard_count=2,
                     rebuild=lambda p: p, dispatch=lambda i: asyncio.sleep(0))

    owner, asker = relay_of(1), relay_of(0)
    owner.on("activity", handler("owner"))
    asker.on("activity", handler("asker"))
    await owner.start()
    await asker.start()
    try:
        answer = await asker.ask(guild_on(1), "activity", {"card": "EO"})
        assert answer == {"text": "owner did EO"}
        assert (asker.asked, owner.answered) == (1, 1)
        # A request for a server of this process's own shard is done here.
        assert await asker.ask(guild_on(0), "activity", {"card": "EU"}) == {
            "text": "asker did EU"}
        try:
            await asker.ask(guild_on(1), "activity", {"card": "XX"})
            raise AssertionError("not refused")
        except SessionError as e:
            assert (e.key, e.params) == ("illegal.not_your_turn", {"seat": 2})
        assert [name for name, _ in done] == ["owner", "asker", "owner"]
        # The owner dies: the request waits its while, then the asker is told; the
        # shard's next owner finds the request too late, and does not do it.
        await owner.stop()
        bus.handlers.remove(owner._heard)
        monkeypatch.setattr(relay_module, "ASK_SECONDS", 0.05)
        try:
            await asker.ask(guild_on(1), "activity", {"card": "EO"})
            raise AssertionError("answered by nobody")
        except SessionError as e:
            assert e.key == "err.no_answer"
        assert len(done) == 3
        assert len(await store.relayed_for([1], stale_before=time.time())) == 1
        heir = relay_of(1)
        heir.on("activity", handler("heir"))
        await heir.sweep()
        await heir.stop()
        assert len(done) == 3 and heir.answered == 0
        assert await store.relayed_for([1], stale_before=time.time()) == []
    finally:
        await asker.stop()
