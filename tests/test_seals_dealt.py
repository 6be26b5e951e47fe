"""A player's dealt cards against chance (``bot.dealt_figures``, ``engine.dealt``): what
each seat was dealt is kept with every finished hand, the profile counts the player's own
seats, and its figures (mean a hand, chance's mean, chance's range) agree with a simulation
of fair deals."""

from __future__ import annotations

import random
from statistics import fmean
from typing import Any

import pytest
from fake_discord import Harness
from test_seals import lobby_with_computers, play_out

from bot import dealt_figures
from bot.store import Store
from bot.texts import t
from bot.web import demo
from engine import Hand, make_rules
from engine.cards import code
from engine.dealt import KINDS, Dealt, figures
from engine.shuffle import Seal

HANDS = 12


async def test_the_profile_counts_what_each_hand_dealt_the_player(store: Store) -> None:
    session = await demo.open_table(store, seed=11)
    ana, bob = str(demo.FIRST_USER), str(demo.FIRST_USER + 1)
    dealt: dict[str, list[Dealt]] = {ana: [], bob: []}
    for number in range(HANDS):
        hand = session.hand
        assert hand is not None
        for seat, member in ((0, ana), (1, bob)):
            dealt[member].append(Dealt.of_hand(hand, seat))
        while await demo.move(session):
            pass
        if number < HANDS - 1:
            await demo.next_hand(session)
    db: Any = store.db  # type: ignore[attr-defined]
    for member, expected in dealt.items():
        kept = await dealt_figures.dealt_to(db, 1, "filicau", member)
        assert kept == expected[::-1]  # newest first
        assert dealt_figures.lines(kept) == [dealt_figures.line(f)
                                             for f in figures(expected).values()]
    assert await dealt_figures.dealt_to(db, 1, "filko", ana) == []
    assert await dealt_figures.dealt_to(db, 2, "filicau", ana) == []
    assert len(await dealt_figures.dealt_to(db, 1, "filicau", ana, latest=5)) == 5


def simulated_players(game: str, players: int, hands: int, seed: int) -> list[list[Dealt]]:
    """``players`` fair players' ``hands`` hands each: seat 0 of sealed deals whose seeds a
    seeded generator draws."""
    rules = make_rules(game)
    rng = random.Random(seed)
    out = []
    for _ in range(players):
        mine = []
        for _ in range(hands):
            seal = Seal.new(rules, token=rng.randbytes)
            mine.append(Dealt.of_hand(Hand(rules, rng.randrange(rules.players), seal.deal()),
                                      0))
        out.append(mine)
    return out


@pytest.mark.slow
def test_the_figures_agree_with_a_simulation_of_fair_deals() -> None:
    """Over 600 simulated players of 12 hands each: the mean of their means is chance's
    mean, and at least 95 % of them (less the simulation's own spread) lie within the
    range the profile gives."""
    for game in ("filicau", "schafkopf"):
        sims = simulated_players(game, 600, HANDS, seed=43)
        figs = [figures(p) for p in sims]
        for kind in KINDS:
            expected = figs[0][kind].expected
            assert all(f[kind].expected == expected for f in figs)
            assert abs(fmean(f[kind].mean for f in figs) - expected) < 0.03, (game, kind)
            inside = sum(f[kind].within for f in figs) / len(figs)
            assert 0.93 <= inside <= 1.0, (game, kind, inside)
        # A deal that favours a player shows: seat 0 always dealt the four Overs.
        rules = make_rules(game)
        rigged = [Dealt.of(rules, [c for c in rules.pack if c in _overs(rules)][:4]
                           + list(rules.pack[:4]))] * HANDS
        assert not figures(rigged)["trumps"].within


def _overs(rules: Any) -> set[int]:
    return {c for c in rules.pack if code(c).endswith("O")}


async def test_profile_shows_the_dealt_figures(h: Harness) -> None:
    # A casual table: no rating, so no chart; the deal is counted all the same.
    session, ana = await lobby_with_computers(h, rated=False)
    await h.press(ana, t("btn.start"))
    hand = session.hand
    assert hand is not None
    mine = Dealt.of_hand(hand, 0)
    await play_out(h, session, ana, random.Random(2))
    r = await h.command(ana, "profile", game="filicau")
    fields = {f["name"]: f["value"] for f in r.message.embeds[0]["fields"]}
    assert fields[t("profile.dealt")].splitlines() == [
        dealt_figures.line(f) for f in figures([mine]).values()]
