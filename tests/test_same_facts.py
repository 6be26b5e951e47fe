"""Every surface says the same facts (issue 41): at every step of hands of all thirteen games —
every kind of decision the engine offers in the game made at least once, every phase passed
through — the Discord table message and hand views, the web page's state and the Activity's
state and seat agree on whose turn it is, the contract and the game's other facts, the sides
by their roles, trump as the game defines it, the points and the score, and the result.

The table is a stored one (``bot.web.demo``: people in every seat, each move through
``TableSession.act``). Discord's side is what its surface sends (``bot.present``); the page's
and the Activity's is what their socket sends (``bot.web.live.HandSteps``: the same steps,
dumped by the protocol and read back through its models). A page's text is compared with
Discord's by drawing its spans as Discord would (a person's seat as that member's mention,
emphasis as markdown): the words must be the same words.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot import render
from bot.session import TableSession
from bot.store import SqliteStore, Store
from bot.texts import card_label, has_text, points_text, speaking, t
from bot.voice.wire import Span
from bot.web import demo, protocol
from bot.web.live import HandSteps
from engine import GAMES, Action, Hand, make_rules, public_view, seat_view
from engine.cards import RANK_CODES, rank_of
from engine.cards import card as _card


def decision_kinds(game: str, hands: int = 40) -> set[str]:
    """Every kind of decision (not a card) the engine offers in ``hands`` random hands."""
    rules = make_rules(game)
    kinds: set[str] = set()
    for seed in range(hands):
        rng = random.Random(seed)
        pack = list(rules.pack)
        rng.shuffle(pack)
        hand = Hand(rules, seed % rules.players, pack)
        while not hand.finished:
            for seat in range(hand.n):
                kinds |= {a.kind for a in (*hand.legal_actions(seat),
                                           *hand.free_actions(seat)) if a.kind != "card"}
            seat = hand.actors()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    return kinds


def as_discord(spans: list[str | Span], members: list[str | None]) -> str:
    """A page's text as Discord draws the same words: a person as their mention."""
    out = []
    for s in spans:
        if isinstance(s, str):
            out.append(s)
            continue
        text = s.text
        if s.k == "person" and s.seat is not None and members[s.seat] is not None:
            text = f"<@{members[s.seat]}>"
        out.append(f"**{text}**" if s.strong else text)
    return "".join(out).replace("****", "")


def fields_of(embed: Any) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.to_dict().get("fields", [])}


def compare(session: TableSession, steps: HandSteps, hand: Hand) -> None:
    """The facts of this moment, on every surface."""
    v = public_view(hand)
    members = list(steps.table.seats)
    # What the page's and the Activity's sockets carry, read back through the models.
    message = protocol.OUTGOING.validate_json(protocol.dump(protocol.Step(
        hand=steps.id, number=steps.number, at=steps.at, state=steps.steps[-1].state,
        move=steps.steps[-1].move, deadline=None)))
    assert isinstance(message, protocol.Step)
    state = message.state
    table = render.table_embed(session, v)
    fields = fields_of(table)

    def said(spans: list[str | Span] | None) -> str:
        return as_discord(spans or [], members)

    # Whose turn.
    seat_lines = fields[t("table.seats")].splitlines()
    assert [i for i, line in enumerate(seat_lines) if line.startswith("▶ ")] == (
        [] if v.finished else sorted(v.actors)) == sorted(state.turn)
    # The sides by their roles, and each seat's badges.
    for seat, (line, shown) in enumerate(zip(seat_lines, state.seats, strict=True)):
        team = v.team[seat]
        role = v.sides[team] if v.sides and team is not None and team < len(v.sides) else None
        assert shown.role == role, (seat, shown.role, role)
        badges = said(shown.badges)
        assert (f"({badges})" in line) if badges else "(" not in line.split(">", 1)[-1]
        if role is not None:
            assert t(f"role.{role}") in line
    # Trump as the game defines it: its permanent trumps by rank, then its suit.
    if state.trump is None:
        assert t("table.trump") not in fields
    else:
        worded = fields[t("table.trump")]
        assert worded.startswith(said(state.trump.text))
        assert all(card_label(c) in worded for c in v.shown)
        order = v.order
        assert order is not None
        ranks = "".join(dict.fromkeys(RANK_CODES[rank_of(c)] for c in order.permanent))
        if ranks in ("O", "U", "OU"):
            assert t(f"trump.top.{ranks}") in worded
        if order.trump_suit is not None:
            assert t(f"suit.{'EGHS'[order.trump_suit]}") in worded
    # The trick in play (a fris trick too): each card the page shows is on the table message.
    trick_fields = [value for name, value in fields.items() if name != t("table.last_trick")
                    and any(card_label(c) in value for c in v.trick)]
    for played in state.trick:
        assert any(played.card and card_label(_card(played.card)) in value
                   for value in trick_fields), (hand.phase, played)
    # The contract and the game's other facts, line by line.
    facts = [said(f) for f in state.facts]
    assert fields.get(t("table.game_facts"), "") == "\n".join(facts)[:1024]
    if v.public.get("contract"):
        assert facts, "a contract the page does not say"
    # The points, the match score or balances.
    points = fields.get(points_text("table.points", session.rules.points))
    assert points == (None if state.points is None else said(state.points))
    score = fields.get(t("table.match"), fields.get(t("table.balance")))
    assert score == (None if state.match is None else said(state.match))
    # The result, as the result post says it (without its Next hand line).
    if v.result is not None:
        post = render.result_embed(session, v.result, session.hand_number, dealt=True)
        assert state.result is not None
        assert (post.description or "").splitlines() == [said(x) for x in state.result]
    else:
        assert state.result is None
    # Each seat's own: what the hand view says, what the Activity's seat says.
    for seat in range(hand.n):
        sv = seat_view(hand, seat)
        mine = steps.mine(seat, steps.at)
        content = render.hand_content(session, sv).splitlines()
        # Its heading and trump line (the page draws trump and the trick from the table's).
        context = 2 if render.hand_context(session, sv) else 1
        private = [said(x) for x in mine.private]
        notes = [said(x) for x in mine.notes]
        assert content[context:] == [*private, said(mine.prompt), *notes], seat
        assert mine.my_turn == (bool(sv.legal) and not sv.finished)
        if seat in state.turn:
            assert mine.my_turn
        # The seat's side as its player knows it (a secret partner knows theirs).
        team = sv.private.get("team")
        if isinstance(team, int) and 0 <= team < len(sv.sides):
            assert mine.role == sv.sides[team]
            if has_text(f"side.{sv.sides[team]}"):
                assert any(t(f"side.{sv.sides[team]}") in line for line in private)


def pick(hand: Hand, rng: random.Random, wanted: set[str], done: set[str]
         ) -> tuple[int, Action]:
    """A kind of decision not made yet if any seat has one, else a random legal action."""
    for seat in range(hand.n):
        for a in (*hand.legal_actions(seat), *hand.free_actions(seat)):
            if a.kind != "card" and a.kind in wanted - done:
                return seat, a
    seat = hand.actors()[0]
    return seat, rng.choice(hand.legal_actions(seat))


async def play_and_compare(store: Store, game: str, lang: str) -> tuple[set[str], set[str]]:
    """Hands of ``game`` until every kind of decision was made; returns (kinds, phases)."""
    wanted = decision_kinds(game)
    done: set[str] = set()
    phases: set[str] = set()
    rng = random.Random(game)
    for seed in range(1, 150):
        session = await demo.open_table(store, guild_id=seed, channel_id=seed, game=game,
                                        seed=seed)
        with speaking(lang):
            row = await store.current_hand(session.id)
            table = await store.get_table(session.id)
            assert row is not None and table is not None
            steps = HandSteps(row, table, lang)
            hand = session.hand
            assert hand is not None
            # The first hand is compared at every step; later ones (dealt for the kinds of
            # decision not met yet) where a new kind is offered, and right after it.
            look = True
            while True:
                seat, action = (-1, None) if hand.finished else pick(hand, rng, wanted, done)
                new = action is not None and action.kind != "card" and action.kind not in done
                if seed == 1 or look or new or hand.phase not in phases:
                    compare(session, steps, hand)
                phases.add(hand.phase)
                look = new
                if action is None or (seed > 1 and done >= wanted and not look):
                    break
                if action.kind != "card":
                    done.add(action.kind)
                member = session.seats[seat]
                assert member is not None
                await session.act(int(member), action, hand_number=session.hand_number,
                                  at=len(hand.actions))
                row = await store.current_hand(session.id)
                assert row is not None
                steps.extend(row.actions)
        await session.close()
        if done >= wanted:
            break
    assert done >= wanted, f"{game}: no hand offered {wanted - done}"
    return done, phases


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_surface_says_the_same_facts(tmp_path: Path, game: str) -> None:
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    try:
        _, phases = await play_and_compare(store, game, "en")
    finally:
        await store.close()
    assert {"play", "finished"} <= phases


async def test_a_bavarian_schafkopf_seat_and_table_say_the_same_in_german(
        tmp_path: Path) -> None:
    """The game whose sides, contract and trump were worded apart before (the Activity said
    "Your side: A" and "Trump: hearts"), in German, through a whole hand and every choice."""
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    try:
        await play_and_compare(store, "schafkopf", "de")
    finally:
        await store.close()
