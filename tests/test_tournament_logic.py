"""A tournament's pure logic (``bot.tournaments.scoring``; ``bot.boards``; ``bot.holds``):
how hands score, how standings and tie-breaks fall, what a duplicate board is — checked
against examples worked by hand (the draw: ``tests/test_pairing.py``)."""

from __future__ import annotations

import itertools

import pytest

from bot import boards, holds
from bot.direct import Budget
from bot.tournaments import scoring
from bot.tournaments.round_scores import seat_values
from bot.tournaments.scoring import HandScore, TableRound
from engine import Hand, make_rules

FILICAU = (0, 1, 0, 1)


def board(values_a: tuple[float, float], values_b: tuple[float, float], number: int = 1,
          ) -> HandScore:
    """A hand of a game of two fixed sides (seats 0 and 2 against 1 and 3)."""
    return HandScore(number, (values_a, values_b, values_a, values_b), FILICAU)


# -- duplicate: the example worked by hand ----------------------------------------------------


def test_duplicate_match_points_as_worked_by_hand() -> None:
    """Three tables play the same two boards from the same seats (seats 0 and 2 partners
    against 1 and 3). A seat's value is (outcome, card points): +1 masters, 0 even, -1
    slaves, then tricks.

    Board 1 — T1: side A masters 6-2, T2: nobody 5-3, T3: side A masters 7-1.
      Seat 0 (side A): T3 (1, 7) beats T1 (1, 6) and T2 (0, 5): 2 MP; T1 beats T2: 1;
      T2: 0. Seat 1 (side B): T2 (0, 3) beats T1 (-1, 2) and T3 (-1, 1): 2; T1 beats T3:
      1; T3: 0.
    Board 2 — T1: 4-4 even, T2: side B masters 6-2, T3: 4-4 even.
      Seat 0: T1 and T3 tie (½ each) and both beat T2: 1½ each; T2: 0. Seat 1: T2 beats
      both: 2; T1 and T3 tie: ½ each.
    Partners sit in seats of the same side and score alike. Totals, of 4 possible:
      T1 a, c: 1 + 1½ = 2½; b, d: 1 + ½ = 1½. T2 e, g: 0; f, h: 2 + 2 = 4.
      T3 i, k: 2 + 1½ = 3½; j, l: 0 + ½ = ½.
    Every board and seat hands out 3 MP among three tables: 24 in all.
    """
    tables = [
        TableRound(1, 1, ("a", "b", "c", "d"), (board((1, 6), (-1, 2), 1),
                                                board((0, 4), (0, 4), 2))),
        TableRound(1, 2, ("e", "f", "g", "h"), (board((0, 5), (0, 3), 1),
                                                board((-1, 2), (1, 6), 2))),
        TableRound(1, 3, ("i", "j", "k", "l"), (board((1, 7), (-1, 1), 1),
                                                board((0, 4), (0, 4), 2))),
    ]
    entrants = list("abcdefghijkl")
    standings = scoring.duplicate(entrants, tables, rounds=1)
    got = {s.entrant: s.score for s in standings}
    assert got == {"a": 2.5, "c": 2.5, "b": 1.5, "d": 1.5, "e": 0, "g": 0, "f": 4, "h": 4,
                   "i": 3.5, "k": 3.5, "j": 0.5, "l": 0.5}
    assert sum(got.values()) == 24
    assert [s.entrant for s in standings] == list("fhikacbdjleg")
    assert [s.place for s in standings] == list(range(1, 13))
    percent = {s.entrant: s.percent for s in standings}
    assert percent["f"] == 100 and percent["i"] == 87.5 and percent["e"] == 0
    # Tops: f topped both boards at seat 1, i the first at seat 0.
    tops = {s.entrant: s.tiebreaks[0] for s in standings}
    assert tops["f"] == 2 and tops["i"] == 1 and tops["a"] == 0


def test_duplicate_reflects_play_not_cards() -> None:
    """Where every table did the same with the same cards, everybody scores alike, however
    good or bad the cards were: a rout on board 1 and a loss on board 2, everywhere."""
    tables = [TableRound(1, n, tuple(f"{n}{s}" for s in "abcd"),
                         (board((1, 8), (-1, 0), 1), board((-1, 1), (1, 7), 2)))
              for n in (1, 2, 3, 4)]
    standings = scoring.duplicate([e for t in tables for e in t.seats], tables, rounds=1)
    assert {s.score for s in standings} == {3.0}  # ½ against each of three, on two boards


def test_duplicate_tie_breaks_by_tops_then_own_table() -> None:
    """a, b and c (seat 0 at tables 1, 2, 3) all make 2 match points: a tops board 1 and is
    bottom on board 2, c the other way round, b is in the middle twice. Tops put a and c
    before b (though b won both hands at its own table, 5 tricks to 3: hand points 2);
    between a and c, the hand points at their own tables: a won one hand and lost one (1), c
    drew one and won one (1½). The sign-up order (b, a, c) decides nothing."""
    tables = [
        TableRound(1, 1, ("a", "x1", "a2", "x2"), (board((1, 6), (-1, 2), 1),
                                                   board((-1, 2), (1, 6), 2))),
        TableRound(1, 2, ("b", "y1", "b2", "y2"), (board((0, 5), (0, 3), 1),
                                                   board((0, 5), (0, 3), 2))),
        TableRound(1, 3, ("c", "z1", "c2", "z2"), (board((0, 4), (0, 4), 1),
                                                   board((1, 7), (-1, 1), 2))),
    ]
    entrants = ["b", "a", "c", "x1", "y1", "z1", "a2", "b2", "c2", "x2", "y2", "z2"]
    standings = {s.entrant: s for s in scoring.duplicate(entrants, tables, rounds=1)}
    assert [standings[e].score for e in "abc"] == [2, 2, 2]
    assert [standings[e].tiebreaks for e in "abc"] == [(1, 1), (0, 2), (1, 1.5)]
    assert standings["c"].place < standings["a"].place < standings["b"].place


def test_a_board_a_table_did_not_finish_counts_for_nobody_there() -> None:
    tables = [
        TableRound(1, 1, ("a", "b", "c", "d"), (board((1, 6), (-1, 2), 1),)),
        TableRound(1, 2, ("e", "f", "g", "h"), (board((0, 5), (0, 3), 1),
                                                board((1, 6), (-1, 2), 2))),
        TableRound(1, 3, ("i", "j", "k", "l"), (board((0, 4), (0, 4), 1),
                                                board((0, 4), (0, 4), 2))),
    ]
    standings = {s.entrant: s for s in scoring.duplicate(list("abcdefghijkl"), tables, 1)}
    assert standings["a"].score == 2 and standings["a"].percent == 100  # 2 of 2 possible
    assert standings["e"].score == 1 + 1  # board 2: only T2 and T3 compared
    assert standings["e"].percent == pytest.approx(100 * 2 / 3)


# -- Swiss ---------------------------------------------------------------------------------------


def test_hand_points_for_two_sides_and_for_more() -> None:
    assert scoring.hand_points(board((1, 6), (-1, 2))) == [1, 0, 1, 0]
    assert scoring.hand_points(board((0, 4), (0, 4))) == [0.5] * 4
    # Three players, each their own side (Schafkopf for three's scores): best beats both.
    three = HandScore(1, ((0.5, 3), (-0.25, 0), (-0.25, 0)), (0, 1, 2))
    assert scoring.hand_points(three) == [1, 0.25, 0.25]
    # A declarer and partner against two (sides formed in the deal).
    sides = HandScore(1, ((1, 70), (-1, 50), (1, 70), (-1, 50)), (0, 1, 0, 1))
    assert scoring.hand_points(sides) == [1, 0, 1, 0]


def test_swiss_standings_and_buchholz_as_worked_by_hand() -> None:
    """Round 1: table 1 a+c beat b+d; table 2 e+g and f+h draw. Round 2: a+e beat c+g;
    b+f beat d+h. Points: a 2, c 1, b 1, d 0, e 1½, g ½, f 1½, h ½.
    c and b have 1 each; Buchholz (the mean score of the others at your table, per round):
      c: round 1 mean(a 2, b 1, d 0) = 1, round 2 mean(a 2, e 1½, g ½) = 1⅓ — 2⅓;
      b: round 1 mean(a, c, d) = 1, round 2 mean(f 1½, d 0, h ½) = ⅔ — 1⅔. So c is ahead.
    e and f have 1½ each: e's Buchholz: mean(f, g, h) = ⅚ + mean(a, c, g) = 1⅙ — 2;
      f's: mean(e, g, h) = ⅚ + mean(b, d, h) = ½ — 1⅓. So e is ahead of f."""
    r1 = [TableRound(1, 1, ("a", "b", "c", "d"), (board((1, 6), (-1, 2)),)),
          TableRound(1, 2, ("e", "f", "g", "h"), (board((0, 4), (0, 4)),))]
    r2 = [TableRound(2, 1, ("a", "c", "e", "g"), (board((1, 6), (-1, 2)),)),
          TableRound(2, 2, ("b", "d", "f", "h"), (board((1, 6), (-1, 2)),))]
    standings = scoring.swiss(list("hgfedcba"), r1 + r2, rounds=2)
    by = {s.entrant: s for s in standings}
    assert {e: s.score for e, s in by.items()} == {
        "a": 2, "c": 1, "b": 1, "d": 0, "e": 1.5, "g": 0.5, "f": 1.5, "h": 0.5}
    assert by["c"].tiebreaks[0] == pytest.approx(7 / 3)
    assert by["b"].tiebreaks[0] == pytest.approx(5 / 3)
    assert [s.entrant for s in standings] == ["a", "e", "f", "c", "b", "g", "h", "d"]
    assert by["a"].rounds == (1, 1) and by["e"].rounds == (0.5, 1)


def test_fillers_are_ranked_nowhere_and_met_by_nobody() -> None:
    tables = [TableRound(1, 1, ("a", "b", "c", "cpu:easy"), (board((1, 6), (-1, 2)),))]
    standings = scoring.swiss(["a", "b", "c"], tables, rounds=1)
    assert [s.entrant for s in standings] == ["a", "c", "b"]
    # a's Buchholz is the mean of b and c only.
    assert standings[0].tiebreaks[0] == pytest.approx((0 + 1) / 2)


# -- boards, holds, the direct messages' budget ------------------------------------------------


def test_a_board_is_the_same_cards_and_dealer_for_every_table() -> None:
    rules = make_rules("filicau")
    packs = {tuple(boards.board(rules, "7:1", 1)[0]) for _ in range(3)}
    assert len(packs) == 1
    deals = [boards.board(rules, "7:1", n) for n in range(1, 6)]
    assert len({tuple(p) for p, _ in deals}) == 5
    assert all(0 <= d < rules.players for _, d in deals)


def test_a_seat_value_is_the_outcome_then_the_card_points() -> None:
    rules = make_rules("filicau")
    hand = Hand(rules, 0, list(rules.pack))
    while not hand.finished:
        seat = hand.actors()[0]
        hand.apply(seat, hand.legal_actions(seat)[0])
    values, sides = seat_values(hand)
    assert sides == (0, 1, 0, 1)
    assert values[0] == values[2] and values[1] == values[3]
    assert values[0][1] + values[1][1] == sum(hand.result.points)  # type: ignore[union-attr]
    assert {values[0][0], values[1][0]} <= {-1.0, 0.0, 1.0}


def test_held_seats_keep_a_place_for_the_invited_only_until_the_hold_ends() -> None:
    runtime = {holds.HELD: {"7": 1000.0, "8": 1000.0}}
    seated: list[str | None] = ["1", None, None, None]
    assert holds.free_for("9", free=3, seated=seated, runtime=runtime, now=10) == 1
    assert holds.free_for("7", free=3, seated=seated, runtime=runtime, now=10) == 3
    assert holds.free_for("9", free=3, seated=seated, runtime=runtime, now=2000) == 3
    seated[1] = "7"  # an invited player sat down: their hold keeps nothing now
    assert holds.free_for("9", free=2, seated=seated, runtime=runtime, now=10) == 1
    assert holds.until_of("9", seated, runtime, now=10) == 1000.0


def test_the_budget_refills_with_time() -> None:
    clock = itertools.count(0.0, 0.1)
    budget = Budget(per_second=1.0, burst=2, clock=lambda: next(clock))
    taken = [budget.take() for _ in range(30)]
    # Two at once, then about one a second (every tenth call, at 0.1 s a call).
    assert taken[:2] == [True, True]
    assert 3 <= sum(taken) <= 5
