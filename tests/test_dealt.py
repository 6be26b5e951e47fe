"""What a player was dealt against what chance predicts (``engine.dealt``): the figures a
profile shows, held against simulated deals (issue 43: "the profile's dealt-cards figures
against a simulation")."""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from statistics import fmean, pvariance

import pytest
from conftest import random_finish

from engine import Hand, make_rules
from engine.cards import ACE, TEN, card, rank_of
from engine.dealt import EXACT_HANDS, KINDS, LEVEL, Dealt, Odds, _exact, _normal, figures
from engine.shuffle import shuffled_cards


def test_what_counts_as_a_trump_in_each_game() -> None:
    trumps = {g: Dealt.in_pack(make_rules(g))["trumps"] for g in
              ("filicau", "filko", "filko5", "kelebia", "filcau20", "schafkopf3", "schafkopf",
               "wendish", "officers")}
    # Only the permanent trumps where the hand picks its suit after the deal (the Overs;
    # Kelebia's eight), the whole usual trump suit where the game fixes it before.
    assert trumps == {"filicau": 4, "filko": 4, "filko5": 4, "kelebia": 8, "filcau20": 4,
                      "schafkopf3": 14, "schafkopf": 14, "wendish": 14, "officers": 14}
    assert Dealt.in_pack(make_rules("filko", {"top_trumps": "hearts_seven"}))["trumps"] == 5
    assert Dealt.in_pack(make_rules("schafkopf", {"short_pack": True})) == \
        {"trumps": 12, "aces": 4, "tens": 4}
    assert Dealt.in_pack(make_rules("filko6"))["aces"] == 4


def test_a_seats_cards_are_counted() -> None:
    rules = make_rules("schafkopf")
    cards = [card(c) for c in ["EO", "HU", "HA", "H7", "EA", "GA", "G10", "S9"]]
    d = Dealt.of(rules, cards)
    assert (d.pack, d.cards) == (32, 8)
    assert d.seen == {"trumps": 4, "aces": 3, "tens": 1}
    assert Dealt.from_json(d.to_json()) == d


def test_no_hands_no_figures() -> None:
    assert figures([]) == {}


def deal_many(game: str, hands: int) -> list[Dealt]:
    """What one seat after another was dealt over ``hands`` hands dealt from the checkable
    shuffle, each by the game's own deal (the cards a game deals late included)."""
    rules = make_rules(game)
    rng = random.Random(game)
    out = []
    for i in range(hands):
        seed = hashlib.sha256(f"{game}{i}".encode()).digest()
        hand = Hand(rules, i % rules.players, shuffled_cards(rules, seed))
        if any(len(d) == 0 for d in hand.dealt):
            random_finish(hand, rng)  # Filcau deals after the cut, the second packet later
        out.append(Dealt.of_hand(hand, (i // rules.players) % rules.players))
    return out


def histogram_fits(seen: list[int], odds: Odds) -> bool:
    """Chi-square of the counts seen against the hypergeometric probabilities, the rare
    high counts pooled until each cell expects at least 5, at the 0.1 % level."""
    n = len(seen)
    found = Counter(seen)
    cells: list[tuple[float, int]] = []
    pending = (0.0, 0)
    for x, p in enumerate(odds.pmf()):
        pending = (pending[0] + p * n, pending[1] + found[x])
        if pending[0] >= 5:
            cells.append(pending)
            pending = (0.0, 0)
    if pending[0]:
        last = cells.pop()
        cells.append((last[0] + pending[0], last[1] + pending[1]))
    stat = sum((o - e) ** 2 / e for e, o in cells)
    df = len(cells) - 1
    # Wilson–Hilferty's chi-square quantile at 99.9 %.
    limit = df * (1 - 2 / (9 * df) + 3.0902 * math.sqrt(2 / (9 * df))) ** 3
    return stat < limit


@pytest.mark.parametrize(("game", "hands"), [
    ("filicau", 2000), ("filko6", 2000), ("kelebia", 2000), ("schafkopf3", 2000),
    ("schafkopf", 2000), ("officers", 2000), ("filcau20", 400)])
def test_the_figures_match_simulated_deals(game: str, hands: int) -> None:
    dealt = deal_many(game, hands)
    figs = figures(dealt)
    assert set(figs) == set(KINDS)
    for kind, fig in figs.items():
        seen = [d.seen[kind] for d in dealt]
        odds = Odds(dealt[0].pack, dealt[0].marked[kind], dealt[0].cards)
        assert fig.hands == hands and fig.mean == fmean(seen)
        assert fig.expected == pytest.approx(odds.mean)
        # The mean and the spread of what was dealt are chance's.
        sd = math.sqrt(odds.variance)
        assert abs(fig.mean - fig.expected) < 4 * sd / math.sqrt(hands), kind
        assert pvariance(seen) == pytest.approx(odds.variance, rel=0.12), kind
        assert histogram_fits(seen, odds), kind
        assert fig.exact is (hands <= EXACT_HANDS)


def test_the_exact_mean_and_variance_are_the_distributions() -> None:
    for odds in (Odds(32, 4, 8), Odds(30, 8, 6), Odds(32, 14, 10), Odds(20, 4, 5)):
        pmf = odds.pmf()
        assert sum(pmf) == pytest.approx(1)
        mean = sum(x * p for x, p in enumerate(pmf))
        assert mean == pytest.approx(odds.mean)
        assert sum((x - mean) ** 2 * p for x, p in enumerate(pmf)) == \
            pytest.approx(odds.variance)


def test_where_the_range_turns_approximate_it_is_within_a_card_of_the_exact_one() -> None:
    """At ``EXACT_HANDS`` hands both are cheap: the normal approximation's bounds on the
    sum are the exact ones, or one card off."""
    for game in ("filicau", "filko6", "schafkopf3", "kelebia", "filcau20"):
        rules = make_rules(game)
        d = Dealt.of(rules, rules.deal(rules.pack, 0)[1])
        for kind in KINDS:
            groups = ((Odds(d.pack, d.marked[kind], d.cards), EXACT_HANDS),)
            (lo, hi), (alo, ahi) = _exact(groups, LEVEL), _normal(groups, LEVEL)
            assert abs(lo - alo) <= 1 and abs(hi - ahi) <= 1, (game, kind)
    assert figures([d] * EXACT_HANDS)["aces"].exact
    assert not figures([d] * (EXACT_HANDS + 1))["aces"].exact


@pytest.mark.parametrize(("game", "per_block"), [
    ("filicau", 20), ("filko5", 20),
    # The normal approximation's blocks are seconds of dealing.
    pytest.param("schafkopf3", 150, marks=pytest.mark.slow),
    pytest.param("filicau", 150, marks=pytest.mark.slow)])
def test_the_range_holds_chances_outcomes_95_times_in_100(game: str, per_block: int) -> None:
    """Blocks of hands dealt at random: the share of blocks whose mean lies in the range is
    95 % or a little more (exact ranges of a discrete count hold at least 95 %), for the
    exact ranges (20 hands) and the normal approximation (150)."""
    rules = make_rules(game)
    rng = random.Random(f"{game}{per_block}")
    size = len(rules.deal(rules.pack, 0)[1])
    blocks = 20000 // per_block if per_block <= EXACT_HANDS else 250
    inside = Counter[str]()
    for _ in range(blocks):
        # A seat's cards of a well-shuffled pack are any of its hands alike (the test above
        # deals them through the games' own deals).
        block = [Dealt.of(rules, rng.sample(rules.pack, size)) for _ in range(per_block)]
        for kind, fig in figures(block).items():
            inside[kind] += fig.within
    for kind in KINDS:
        share = inside[kind] / blocks
        assert 0.92 <= share <= 0.995, (kind, share)


def test_a_deal_that_favours_a_player_shows() -> None:
    """A dealer who slips a player an Ace for a small card in a hand out of three, over a
    hundred hands: the player's Aces are out of chance's range, their Tens are not."""
    rules = make_rules("filko")
    rng = random.Random(11)
    pack = list(rules.pack)
    fair, favoured = [], []
    for i in range(100):
        rng.shuffle(pack)
        cards = list(rules.deal(pack, 0)[1])
        fair.append(Dealt.of(rules, cards))
        if i % 3 == 0:
            ace = next((c for c in pack if rank_of(c) == ACE and c not in cards), None)
            low = next((c for c in cards if rank_of(c) not in (ACE, TEN)), None)
            if ace is not None and low is not None:
                cards[cards.index(low)] = ace
        favoured.append(Dealt.of(rules, cards))
    assert figures(fair)["aces"].within
    assert not figures(favoured)["aces"].within
    assert figures(favoured)["aces"].mean > figures(favoured)["aces"].high
    assert figures(favoured)["tens"].within
