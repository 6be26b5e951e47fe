"""Sealed deals at the bot's tables (``bot.seals``, ``docs/fair-deals.md``): the table shows
the next deal's seal before anybody deals, the hand is dealt from it and cut by the click
that deals, nothing anybody is sent during the hand carries its seed or secret, and the
finished hand's record (as ``/history`` exports it) passes ``python -m engine verify`` while
a tampered copy fails."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
from fake_discord import UPDATE_MESSAGE, Harness, User, file_json
from web_helpers import path_of, serve

from bot import seals
from bot.seats import is_computer
from bot.session import TableSession
from bot.store import Store
from bot.texts import t
from bot.web import demo
from engine import Hand, make_rules, replay
from engine.shuffle import Seal, sealed_record, short
from engine.verify import verify

ROOT = Path(__file__).resolve().parent.parent


def secrets_of(seal: Seal) -> tuple[str, str]:
    return seal.seed.hex(), seal.secret.hex()


def everything_sent(h: Harness) -> str:
    """Every request body and file the bot sent Discord so far, as one text."""
    out = []
    for call in h.discord.calls:
        out.append(json.dumps(call.body, default=str))
        out.extend(data.decode("utf-8", "replace") for _, data in call.files)
    return "\n".join(out)


def assert_never_sent(h: Harness, seal: Seal) -> None:
    sent = everything_sent(h)
    for value in secrets_of(seal):
        assert value not in sent
        assert value.upper() not in sent


async def lobby_with_computers(h: Harness, **options: Any) -> tuple[TableSession, User]:
    ana = h.user("ana")
    r = await h.command(ana, "table new", game="filicau", **options)
    assert not r.ephemeral
    r = await h.press(ana, t("btn.join_a"))
    for _ in range(3):
        r = await h.add_computer(ana)
        assert r.type == UPDATE_MESSAGE
    session = h.session()
    session.rng = random.Random(5)
    assert all(is_computer(m) for m in session.seats[1:])
    return session, ana


async def play_out(h: Harness, session: TableSession, ana: User, rng: random.Random) -> None:
    """Ana clicks a random legal move of hers until the hand is over; after every click
    nothing sent so far carries the seal's seed or secret."""
    sealed = session.sealed
    assert sealed is not None
    for _ in range(200):
        hand = session.hand
        assert hand is not None
        if hand.finished:
            return
        await h.settle()
        if hand.finished:
            return
        r = await h.press(ana, t("btn.my_hand"))
        moves = sorted(r.message.moves())
        assert moves, "the table waits for Ana but her hand view offers nothing"
        await h.click(ana, rng.choice(moves), message=r.message)
        if not hand.finished:
            assert_never_sent(h, sealed)
    raise AssertionError("the hand did not end")


async def test_the_table_shows_the_seal_deals_from_it_and_reveals_it_only_at_the_end(
        hs: Harness) -> None:
    h = hs
    session, ana = await lobby_with_computers(h)
    lobby = h.table_message()
    kept = session.next_seal
    assert kept is not None
    # The lobby shows the seal of the deal to come, before anybody may deal.
    assert t("seal.next", seal=kept.short) in lobby.text
    assert_never_sent(h, kept)

    r = await h.press(ana, t("btn.start"))
    assert r.type == UPDATE_MESSAGE
    sealed = session.sealed
    hand = session.hand
    assert sealed is not None and hand is not None
    # Dealt from the seal shown, cut by the click that dealt (Discord's interaction id).
    assert sealed.commitment == kept.commitment and sealed.cut == str(r.id)
    assert list(hand.pack) == sealed.deal()
    assert t("seal.dealt", seal=kept.short) in h.table_message().text
    # During the hand: the record in the store has the commitment only, /history refuses
    # the hand, and no message carries the seed or the secret.
    [row] = await h.bot.store.hands(session.id)  # type: ignore[union-attr]
    record = row.record()
    assert record["shuffle"] == {"scheme": sealed.scheme, "commitment": sealed.commitment,
                                 "cut": sealed.cut}
    assert [f["reason"] for f in verify(record)["failures"]] == ["not_revealed"]
    r = await h.command(ana, "history", hand=1)
    assert r.rejected_with(t("err.hand_in_progress"))
    assert_never_sent(h, sealed)

    await play_out(h, session, ana, random.Random(5))
    next_seal = session.next_seal
    assert next_seal is not None and next_seal.commitment != sealed.commitment
    # The result shows the next deal's seal; the exported record verifies.
    assert t("seal.next", seal=next_seal.short) in h.result_post().text
    assert_never_sent(h, next_seal)
    r = await h.command(ana, "history", hand=1)
    exported = file_json(r.message)
    found = verify(exported)
    assert found["verified"], found["failures"]
    assert found["short"] == kept.short and found["cut"] == sealed.cut
    assert exported["shuffle"]["seed"] == sealed.seed.hex()
    assert exported["shuffle"]["secret"] == sealed.secret.hex()
    assert replay(exported).finished


async def test_a_restart_mid_hand_keeps_the_sealed_deal(h: Harness) -> None:
    session, ana = await lobby_with_computers(h)
    await h.press(ana, t("btn.start"))
    sealed = session.sealed
    assert sealed is not None
    await h.restart()
    restored = h.session()
    assert restored is not session and restored.sealed == sealed
    await play_out(h, restored, ana, random.Random(9))
    r = await h.command(ana, "history", hand=1)
    assert verify(file_json(r.message))["verified"]


def tampered(record: dict[str, Any], how: str) -> dict[str, Any]:
    out = json.loads(json.dumps(record))
    if how == "pack":
        # Two cards of different seats swapped: the deal the players got was another.
        out["pack"][0], out["pack"][-1] = out["pack"][-1], out["pack"][0]
    elif how == "seed":
        seed = bytearray(bytes.fromhex(out["shuffle"]["seed"]))
        seed[0] ^= 1
        out["shuffle"]["seed"] = seed.hex()
    elif how == "secret":
        secret = bytearray(bytes.fromhex(out["shuffle"]["secret"]))
        secret[-1] ^= 0x80
        out["shuffle"]["secret"] = secret.hex()
    return out


def run_verify(path: Path) -> tuple[int, dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, json.loads(done.stdout)


async def test_verify_accepts_the_exported_record_and_refuses_a_tampered_one(
        h: Harness, tmp_path: Path) -> None:
    session, ana = await lobby_with_computers(h)
    await h.press(ana, t("btn.start"))
    await play_out(h, session, ana, random.Random(3))
    r = await h.command(ana, "history", hand=1)
    record = file_json(r.message)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out = run_verify(path)
    assert (code, out["verified"], out["short"]) == (0, True, short(record["shuffle"]
                                                                     ["commitment"]))
    # A swapped pack also breaks the replay (a card played that its seat no longer held).
    expected = {"pack": {"pack_mismatch"}, "seed": {"commitment_mismatch", "pack_mismatch"},
                "secret": {"commitment_mismatch"}}
    for how, reasons in expected.items():
        bad = tmp_path / f"{how}.json"
        bad.write_text(json.dumps(tampered(record, how)), encoding="utf-8")
        code, out = run_verify(bad)
        assert code == 1 and not out["verified"], how
        assert reasons <= {f["reason"] for f in out["failures"]} <= reasons | {
            "replay_failed"}, how


async def test_the_replay_page_says_the_deal_verified_and_a_hand_in_play_shows_no_seed(
        store: Store) -> None:
    session = await demo.open_table(store, seed=4)
    sealed = session.sealed
    assert sealed is not None
    server, base = await serve(store)
    try:
        async with aiohttp.ClientSession(base) as client:
            hand_id = session.hand_id
            assert hand_id is not None
            link = path_of(await server.hand_link(1, hand_id))
            table = path_of(await server.table_link(1, session.id))
            pages: list[str] = []
            while True:
                for path in (link, table):
                    async with client.get(path) as got:
                        pages.append(await got.text())
                if not await demo.move(session):
                    break
            during = "\n".join(pages[:-2])
            for value in secrets_of(sealed):
                assert value not in during
            async with client.get(link) as got:
                page = await got.text()
            assert t("seal.verified", seal=sealed.short) in page
            assert sealed.secret.hex() not in page  # the page says it; the record has it
    finally:
        await server.stop()


def test_a_tampered_record_is_said_so_on_the_replay_page() -> None:
    rules = make_rules("filicau")
    seal = Seal.new(rules, token=random.Random(2).randbytes).with_cut("77")
    hand = Hand(rules, 0, seal.deal())
    record = sealed_record(hand, seal, abandoned=True)
    assert seals.checked(record) == t("seal.verified", seal=seal.short)
    assert seals.checked(tampered(record, "pack")) == t("seal.not_verified",
                                                        reasons="pack_mismatch")
    assert seals.checked({k: v for k, v in record.items() if k != "shuffle"}) is None
