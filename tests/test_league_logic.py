"""A monthly league as its players see it, with a clock the test sets: who counts, the table
of each division, who goes up and down at the month's end (UTC), newcomers, players who stop,
and a league replayed from its results being the league that was kept."""

from __future__ import annotations

import ast
from datetime import timedelta
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from league_helpers import GAME, GUILD, OTHER_GUILD, Clock, hand, lines, rated
from pydantic import ValidationError

from bot.leagues import (
    BOT_WIDE,
    Ladder,
    LeagueSettings,
    LeagueTable,
    Month,
    MonthTally,
    Tally,
    close,
    month_closing,
    months_ended,
    replay,
    tally_month,
)
from bot.store import ResultRow

JAN, FEB, MAR, APR = (Month(2026, n) for n in (1, 2, 3, 4))
SMALL = LeagueSettings(division_size=4, movers=1, min_hands=3, drop_after=2)


def closing(ladder: Ladder, results: list[tuple[ResultRow, bool]],
            league: LeagueSettings = SMALL, scope: int = GUILD):
    return month_closing(ladder, league, results, scope=scope, game=GAME)


def catch_up(ladder: Ladder, results: list[tuple[ResultRow, bool]], clock: Clock,
             league: LeagueSettings = SMALL) -> tuple[Ladder, list[LeagueTable]]:
    """What the bot does whenever it looks: close every month that has ended by now."""
    tables = []
    for _ in months_ended(ladder.month, clock.now):
        done = closing(ladder, results, league)
        tables.append(done.table)
        ladder = done.after
    return ladder, tables


def test_a_league_run_through_a_month_and_the_two_after() -> None:
    clock = Clock("2026-01-01T00:00:00+00:00")
    ladder = Ladder(month=JAN, players=("a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"))
    results: list[tuple[ResultRow, bool]] = []

    def play(winners: list[str], losers: list[str], at: str) -> None:
        results.append((hand(winners, losers, clock.set(at)), True))

    play(["a1", "a2"], ["a3", "a4"], "2026-01-03T20:00:00+00:00")
    play(["a1", "a3"], ["a2", "a4"], "2026-01-04T20:00:00+00:00")
    play(["a1", "a2"], ["a3", "b1"], "2026-01-05T20:00:00+00:00")
    play(["b1", "b2"], ["b3", "b4"], "2026-01-10T20:00:00+00:00")
    play(["b1", "b3"], ["b2", "b4"], "2026-01-11T20:00:00+00:00")
    play(["b1", "b2"], ["a3", "b3"], "2026-01-12T20:00:00+00:00")

    # Mid-month: the table as it stands, and who would move if the month ended now.
    ladder, tables = catch_up(ladder, results, clock)
    assert tables == []
    now = closing(ladder, results).table
    assert lines(now) == [
        [("a1", "stay"), ("a2", "stay"), ("a3", "stay"), ("a4", "down")],
        [("b1", "up"), ("b2", "stay"), ("b3", "stay"), ("b4", "stay")]]
    assert now.standing("a4") == (1, now.divisions[0].standings[3])
    a4 = now.divisions[0].standings[3]
    assert (a4.hands, a4.counted) == (2, False)  # two hands of the three needed
    a1 = now.divisions[0].standings[0]
    assert (a1.hands, a1.points, a1.share) == (3, 3, 1)

    # A newcomer's first hand puts him in the lowest division (a new one: both are full).
    play(["c1", "b4"], ["b2", "b3"], "2026-01-20T20:00:00+00:00")
    now = closing(ladder, results).table
    [c1] = now.divisions[2].standings
    assert (c1.player, c1.new, c1.hands, c1.counted) == ("c1", True, 1, False)
    b4 = now.divisions[1].standings[2]
    assert (b4.player, b4.hands, b4.share) == ("b4", 3, Fraction(1, 3))

    # The last instant of January is still January.
    clock.set("2026-01-31T23:59:59.999999+00:00")
    ladder, tables = catch_up(ladder, results, clock)
    assert (ladder.month, tables) == (JAN, [])

    clock.set("2026-02-01T00:00:00+00:00")
    ladder, [january] = catch_up(ladder, results, clock)
    assert lines(january) == [
        [("a1", "stay"), ("a2", "stay"), ("a3", "stay"), ("a4", "down")],
        [("b1", "up"), ("b2", "stay"), ("b4", "stay"), ("b3", "stay")],
        [("c1", "stay")]]
    assert ladder == Ladder(month=FEB, players=(
        "a1", "a2", "a3", "b1", "a4", "b2", "b4", "b3", "c1"))
    # Looking again changes nothing: January is closed.
    assert catch_up(ladder, results, clock) == (ladder, [])

    # February: nobody plays. Nobody can go up, so nobody goes down; everyone is idle.
    clock.set("2026-03-01T00:00:00+00:00")
    ladder, [february] = catch_up(ladder, results, clock)
    assert {s.move for d in february.divisions for s in d.standings} == {"stay"}
    assert ladder.players == ("a1", "a2", "a3", "b1", "a4", "b2", "b4", "b3", "c1")
    assert set(ladder.idle.values()) == {1}

    # March: four of them play; the others have gone two months without a hand and leave,
    # and the places they leave are filled from below.
    play(["a1", "c1"], ["a2", "b2"], "2026-03-15T20:00:00+00:00")
    clock.set("2026-04-01T00:00:00+00:00")
    ladder, [march] = catch_up(ladder, results, clock)
    assert lines(march) == [
        [("a1", "stay"), ("a2", "stay"), ("a3", "out"), ("b1", "out")],
        [("b2", "up"), ("a4", "out"), ("b4", "out"), ("b3", "out")],
        [("c1", "up")]]
    assert ladder == Ladder(month=APR, players=("a1", "a2", "b2", "c1"))

    # A replay of the stored results from the first ladder is the league that was kept.
    first = Ladder(month=JAN, players=("a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"))
    assert replay(first, lambda m: SMALL, results, scope=GUILD, game=GAME,
                  now=clock.now) == (ladder, [january, february, march])


def test_hands_count_in_the_utc_month_they_finished_in() -> None:
    ladder = Ladder(month=JAN, players=("1", "2"))
    results = rated(
        hand(["1"], ["2"], "2026-01-31T23:59:59.999+00:00"),
        hand(["2"], ["1"], "2026-02-01T00:00:00+00:00"),
        # 00:30 in Bucharest is 22:30 the day before in UTC; 23:30 in New York the next day.
        hand(["1"], ["2"], "2026-02-01T00:30:00+02:00"),
        hand(["2"], ["1"], "2026-01-31T23:30:00-05:00"),
        # Written without an offset: UTC.
        hand(["1"], ["2"], "2026-01-01T00:00:00"),
        hand(["2"], ["1"], "2025-12-31T23:59:59.999999"))
    january = tally_month(results, scope=GUILD, game=GAME, month=JAN)
    february = tally_month(results, scope=GUILD, game=GAME, month=FEB)
    assert january.players == {"1": Tally(3, Fraction(3)), "2": Tally(3, Fraction(0))}
    assert february.players == {"1": Tally(2, Fraction(0)), "2": Tally(2, Fraction(2))}
    # The month ends at the next month's first instant, not a microsecond before.
    assert months_ended(JAN, FEB.start) == [JAN]
    assert months_ended(ladder.month, Clock("2026-01-31T23:59:59.999+00:00").now) == []
    assert months_ended(ladder.month, Clock("2026-02-01T01:59:59+02:00").now) == []
    assert months_ended(ladder.month, Clock("2026-02-01T02:00:00+02:00").now) == [JAN]
    with pytest.raises(ValueError, match="aware"):
        months_ended(JAN, FEB.start.replace(tzinfo=None))


def test_below_the_minimum_a_player_cannot_go_up_and_is_first_to_go_down() -> None:
    league = LeagueSettings(division_size=4, movers=2, min_hands=3)
    ladder = Ladder(month=JAN, players=("a", "b", "c", "d", "e", "f", "g", "h"))
    results = rated(
        # e wins all of his two hands: the best record of division 2, one hand short.
        hand(["e", "f"], ["g", "h"], "2026-01-02T10:00:00+00:00"),
        hand(["e", "g"], ["f", "h"], "2026-01-03T10:00:00+00:00"),
        hand(["f", "g"], ["h", "a"], "2026-01-04T10:00:00+00:00"),
        # a, b and c play their three; d none.
        hand(["a", "b"], ["c", "h"], "2026-01-05T10:00:00+00:00"),
        hand(["a", "c"], ["b", "g"], "2026-01-06T10:00:00+00:00"),
        hand(["b", "c"], ["f", "g"], "2026-01-07T10:00:00+00:00"))
    table = closing(ladder, results, league).table
    assert lines(table) == [
        [("a", "stay"), ("b", "stay"), ("c", "down"), ("d", "down")],
        [("f", "up"), ("g", "up"), ("h", "stay"), ("e", "stay")]]
    e = table.divisions[1].standings[3]
    assert (e.share, e.counted) == (1, False)


def test_ties_go_to_more_hands_then_to_the_higher_place_at_the_months_start() -> None:
    ladder = Ladder(month=JAN, players=("p", "q", "r", "s", "t", "u"))
    league = LeagueSettings(division_size=6, movers=1, min_hands=2)
    results = rated(
        # q and r: 1 of 2; p and u: 2 of 4; s and t: two ties (½ a hand).
        hand(["q"], ["r"], "2026-01-02T10:00:00+00:00"),
        hand(["r"], ["q"], "2026-01-02T11:00:00+00:00"),
        hand(["u"], ["p"], "2026-01-03T10:00:00+00:00"),
        hand(["u"], ["p"], "2026-01-03T11:00:00+00:00"),
        hand(["p"], ["u"], "2026-01-03T12:00:00+00:00"),
        hand(["p"], ["u"], "2026-01-03T13:00:00+00:00"),
        hand(["s"], ["t"], "2026-01-04T10:00:00+00:00", tied=True),
        hand(["t"], ["s"], "2026-01-04T11:00:00+00:00", tied=True))
    [division] = closing(ladder, results, league).table.divisions
    # p and u both ½ in 4 hands: p began above. Then q, r, s, t at ½ in 2: in their order.
    assert [(s.player, s.share, s.hands) for s in division.standings] == [
        ("p", Fraction(1, 2), 4), ("u", Fraction(1, 2), 4), ("q", Fraction(1, 2), 2),
        ("r", Fraction(1, 2), 2), ("s", Fraction(1, 2), 2), ("t", Fraction(1, 2), 2)]
    # The same hands with the ladder turned round: the order of the month's start decides.
    turned = Ladder(month=JAN, players=tuple(reversed(ladder.players)))
    [division] = closing(turned, results, league).table.divisions
    assert [s.player for s in division.standings] == ["u", "p", "t", "s", "r", "q"]


def test_a_hand_points_each_side_by_the_sides_it_beat() -> None:
    # Three sides: a solo winner, a tied pair in the middle, a last.
    row = hand(["1"], ["2", "3", "4"], "2026-01-02T10:00:00+00:00").model_copy(
        update={"scores": {"1": 30, "2": 0, "3": 0, "4": -30}})
    tally = tally_month(rated(row), scope=GUILD, game=GAME, month=JAN)
    assert {p: t.points for p, t in tally.players.items()} == {
        "1": 1, "2": Fraction(1, 2), "3": Fraction(1, 2), "4": 0}


def test_a_hand_with_a_computer_counts_only_where_the_league_says_so() -> None:
    row = hand(["1", "cpu:easy"], ["2", "3"], "2026-01-02T10:00:00+00:00")
    assert tally_month(rated(row), scope=GUILD, game=GAME, month=JAN).players == {}
    with_them = tally_month(rated(row), scope=GUILD, game=GAME, month=JAN,
                            with_computers=True)
    # The computer is in no league; the people's hand counts.
    assert set(with_them.players) == {"1", "2", "3"}
    assert with_them.arrivals == ("1", "2", "3")


def test_only_rated_hands_of_the_game_and_the_scope_count() -> None:
    mine = hand(["1"], ["2"], "2026-01-02T10:00:00+00:00")
    casual = hand(["1"], ["2"], "2026-01-02T11:00:00+00:00")
    elsewhere = hand(["1"], ["2"], "2026-01-02T12:00:00+00:00", guild=OTHER_GUILD)
    other_game = hand(["1"], ["2"], "2026-01-02T13:00:00+00:00", game="wendish")
    results = [(mine, True), (casual, False), (elsewhere, True), (other_game, True)]
    server = tally_month(results, scope=GUILD, game=GAME, month=JAN)
    everywhere = tally_month(results, scope=BOT_WIDE, game=GAME, month=JAN)
    assert (server.players["1"].hands, everywhere.players["1"].hands) == (1, 2)


def test_a_player_who_left_comes_back_as_a_newcomer_at_the_bottom() -> None:
    league = LeagueSettings(division_size=2, movers=1, min_hands=1, drop_after=1)
    ladder = Ladder(month=JAN, players=("top", "x", "y", "z"))
    after = closing(ladder, rated(hand(["x"], ["y"], "2026-01-05T10:00:00+00:00"),
                                  hand(["z"], ["y"], "2026-01-06T10:00:00+00:00")),
                    league).after
    # top played nothing (drop_after 1): out. x stays top; z came up; y went down.
    assert after.players == ("x", "z", "y")
    back = closing(after, rated(hand(["top"], ["y"], "2026-02-02T10:00:00+00:00")), league)
    top = back.table.standing("top")
    assert top is not None and top[0] == 2 and top[1].new


def test_places_left_free_are_filled_from_below() -> None:
    league = LeagueSettings(division_size=2, movers=1, min_hands=1, drop_after=1)
    # Division 1 plays nothing this month and leaves the league.
    ladder = Ladder(month=JAN, players=("gone1", "gone2", "a", "b", "c", "d"))
    results = rated(hand(["a"], ["b"], "2026-01-05T10:00:00+00:00"),
                    hand(["c"], ["d"], "2026-01-05T11:00:00+00:00"))
    done = closing(ladder, results, league)
    # a goes up; c goes up, and on up into the places left free; b, relegated, stays; d,
    # last of the last division, is in division 2 now that there are two.
    assert lines(done.table) == [[("gone1", "out"), ("gone2", "out")],
                                 [("a", "up"), ("b", "stay")], [("c", "up"), ("d", "up")]]
    assert done.after.players == ("a", "c", "b", "d")


def test_a_month_cannot_close_with_another_months_hands() -> None:
    with pytest.raises(ValueError, match="cannot close"):
        close(Ladder(month=JAN), SMALL, MonthTally(FEB))


def test_settings_refuse_more_movers_than_a_division_holds() -> None:
    with pytest.raises(ValidationError, match="do not fit"):
        LeagueSettings(division_size=5, movers=3)
    with pytest.raises(ValidationError):
        LeagueSettings(min_hands=0)
    assert LeagueSettings(division_size=4, movers=2).movers == 2


def test_an_empty_league_and_a_month_without_hands() -> None:
    empty = closing(Ladder(month=JAN), [])
    assert (empty.table.divisions, empty.after) == ((), Ladder(month=FEB))


# -- properties --------------------------------------------------------------------------


@st.composite
def months(draw: st.DrawFn) -> tuple[Ladder, LeagueSettings, MonthTally]:
    size = draw(st.integers(2, 8))
    league = LeagueSettings(division_size=size, movers=draw(st.integers(1, size // 2)),
                            min_hands=draw(st.integers(1, 4)),
                            drop_after=draw(st.integers(0, 3)))
    players = [f"p{i}" for i in range(draw(st.integers(0, 30)))]
    ladder = Ladder(month=JAN, players=tuple(players), idle={
        p: draw(st.integers(0, 3)) for p in players if draw(st.booleans())})
    newcomers = [f"n{i}" for i in range(draw(st.integers(0, 6)))]
    everyone = players + newcomers
    tallies = {}
    for p in everyone:
        hands = draw(st.integers(0 if p in players else 1, 6))
        if hands:
            tallies[p] = Tally(hands, Fraction(draw(st.integers(0, 2 * hands)), 2))
    arrivals = draw(st.permutations([p for p in everyone if p in tallies]))
    return ladder, league, MonthTally(JAN, tallies, tuple(arrivals))


@settings(max_examples=150, deadline=None)
@given(months())
def test_every_player_is_in_exactly_one_division_of_the_set_size(
        month: tuple[Ladder, LeagueSettings, MonthTally]) -> None:
    ladder, league, tally = month
    done = close(ladder, league, tally)
    size = league.division_size
    shown = [s.player for d in done.table.divisions for s in d.standings]
    assert sorted(shown) == sorted({*ladder.players, *tally.arrivals})
    staying = [s.player for d in done.table.divisions for s in d.standings if s.move != "out"]
    assert sorted(done.after.players) == sorted(staying)
    table_sizes = [len(d.standings) for d in done.table.divisions]
    after_sizes = [len(d) for d in done.after.divisions(size)]
    for sizes in (table_sizes, after_sizes):
        assert all(n == size for n in sizes[:-1]) and all(1 <= n <= size for n in sizes[-1:])
    for d in done.table.divisions:
        assert [s.place for s in d.standings] == list(range(1, len(d.standings) + 1))


@settings(max_examples=150, deadline=None)
@given(months())
def test_promotion_and_relegation_mirror_each_other(
        month: tuple[Ladder, LeagueSettings, MonthTally]) -> None:
    ladder, league, tally = month
    league = league.model_copy(update={"drop_after": 0})  # nobody leaves
    done = close(ladder, league, tally)
    divisions = done.table.divisions
    for upper, lower in pairwise(divisions):
        up = [s for s in lower.standings if s.move == "up"]
        down = [s for s in upper.standings if s.move == "down"]
        assert len(up) == len(down) <= league.movers
        # Only players at the minimum go up: the best of them, in order.
        counted = [s for s in lower.standings if s.counted]
        assert up == counted[:len(up)]
        assert len(up) == min(league.movers, len(counted))
        # Those who go down are the last of the division above.
        assert down == list(upper.standings[len(upper.standings) - len(down):])
    assert all(s.move != "out" for d in divisions for s in d.standings)
    if divisions:
        assert all(s.move != "up" for s in divisions[0].standings)
        assert all(s.move != "down" for s in divisions[-1].standings)


@st.composite
def month_of_hands(draw: st.DrawFn) -> list[tuple[ResultRow, bool]]:
    pool = [str(n) for n in range(1, 9)]
    rows = []
    for hand_id in range(1, draw(st.integers(0, 25)) + 1):
        seated = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=4, unique=True))
        won = draw(st.integers(1, len(seated) - 1))
        # January and its first hours of February, some hands finished at the same time.
        at = JAN.start + timedelta(seconds=draw(st.integers(0, 240)) * 11_200)
        rows.append((hand(seated[:won], seated[won:], at, hand_id=hand_id,
                          tied=draw(st.booleans())), draw(st.booleans())))
    return rows


@settings(max_examples=60, deadline=None)
@given(month_of_hands(), st.randoms(use_true_random=False))
def test_a_month_closes_the_same_whatever_order_its_results_are_read_in(
        results: list[tuple[ResultRow, bool]], rng: Random) -> None:
    ladder = Ladder(month=JAN, players=("3", "1", "7"))
    once = closing(ladder, results)
    shuffled = list(results)
    rng.shuffle(shuffled)
    assert closing(ladder, shuffled) == once
    assert LeagueTable.model_validate_json(once.table.model_dump_json()) == once.table
    assert Ladder.model_validate_json(once.after.model_dump_json()) == once.after


def test_the_leagues_logic_is_pure() -> None:
    """No clock, no I/O, no Discord in the league's logic: the time is always passed in."""
    root = Path(__file__).resolve().parent.parent / "bot" / "leagues"
    impure = {"asyncio", "discord", "aiosqlite", "asyncpg", "aiohttp", "time", "os", "socket"}
    found = []
    for path in sorted(root.glob("*.py")):
        if path.name in ("sql.py", "keeping.py", "store.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] in impure]
            if isinstance(node, ast.Attribute) and node.attr in ("now", "utcnow", "today"):
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert found == []
