"""Card codes, packs, point tables and how cards rank once trump is known."""

from __future__ import annotations

import pytest
from conftest import ALL_CODES

from engine import cards
from engine.cards import CardError, card, code
from engine.trumps import TrumpOrder


def test_every_code_round_trips() -> None:
    assert [code(card(c)) for c in ALL_CODES] == ALL_CODES
    assert len({card(c) for c in ALL_CODES}) == 32


def test_codes_are_case_insensitive_and_trimmed() -> None:
    assert card("h10") == card("H10")
    assert card(" eo ") == card("EO")


@pytest.mark.parametrize("bad", ["", "X7", "E1", "E11", "EQ", "10", "H", "EOO", None, 3])
def test_bad_codes_are_refused(bad: object) -> None:
    with pytest.raises(CardError):
        card(bad)  # type: ignore[arg-type]


def test_suits_and_ranks_of_codes() -> None:
    assert cards.suit_of(card("EO")) == cards.ACORNS
    assert cards.suit_of(card("GA")) == cards.LEAVES
    assert cards.suit_of(card("H10")) == cards.HEARTS
    assert cards.suit_of(card("S7")) == cards.BELLS
    assert cards.rank_of(card("H10")) == cards.TEN
    assert cards.rank_of(card("SO")) == cards.OVER
    assert cards.rank_of(card("GU")) == cards.UNDER
    assert [cards.parse_suit(x) for x in "eGhS"] == [0, 1, 2, 3]
    with pytest.raises(CardError):
        cards.parse_suit("X")


def _codes(pack: tuple[int, ...]) -> set[str]:
    return set(cards.codes(pack))


def test_pack_32_is_the_whole_pack() -> None:
    assert len(cards.PACK_32) == 32
    assert _codes(cards.PACK_32) == set(ALL_CODES)


def test_pack_30_has_no_sevens_of_leaves_and_bells() -> None:
    assert len(cards.PACK_30) == 30
    assert _codes(cards.PACK_30) == set(ALL_CODES) - {"G7", "S7"}
    assert _codes(cards.PACK_30_KELEBIA) == set(ALL_CODES) - {"G8", "E8"}


def test_pack_24_has_no_eights_and_sevens() -> None:
    assert len(cards.PACK_24) == 24
    assert _codes(cards.PACK_24) == {c for c in ALL_CODES if c[1:] not in ("8", "7")}


def test_pack_20_is_a_ten_king_over_under() -> None:
    assert len(cards.PACK_20) == 20
    assert _codes(cards.PACK_20) == {s + r for s in "EGHS" for r in ("A", "10", "K", "O", "U")}


def test_count_points_are_aces_and_tens() -> None:
    scoring = {code(c) for c in cards.ALL_CARDS if cards.COUNT_POINTS[c]}
    assert scoring == {s + r for s in "EGHS" for r in ("A", "10")}
    assert sum(cards.COUNT_POINTS) == 8
    assert set(cards.COUNT_POINTS) == {0, 1}


def test_card_points_total_120() -> None:
    worth = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
    for c in ALL_CODES:
        assert cards.CARD_POINTS[card(c)] == worth[c[1:]], c
    assert sum(cards.CARD_POINTS) == 120


# -- ranking ---------------------------------------------------------------------------------

OVERS = tuple(card(c) for c in ("EO", "GO", "HO", "SO"))


def _order(trump: str) -> TrumpOrder:
    return TrumpOrder(OVERS, cards.parse_suit(trump))


def _winner(order: TrumpOrder, trick: str) -> str:
    played = [card(c) for c in trick.split()]
    return code(played[order.winner(played)])


def test_trumps_high_to_low_with_overs_on_top() -> None:
    assert _order("G").trumps_high_to_low(cards.PACK_32) == [
        "EO", "GO", "HO", "SO", "GA", "G10", "GK", "GU", "G9", "G8", "G7",
    ]


def test_overs_are_not_in_their_printed_suit() -> None:
    order = _order("H")
    for over in ("EO", "GO", "HO", "SO"):
        assert order.is_trump(card(over))
        assert order.suit[card(over)] == cards.TRUMP
    # An acorns lead is not followed by the Over of acorns...
    assert _winner(order, "E7 EO") == "EO"  # ...it wins as a trump instead
    assert _winner(order, "E9 EA") == "EA"


def test_overs_beat_the_trump_ace_in_order() -> None:
    order = _order("S")
    assert _winner(order, "SA SO") == "SO"
    assert _winner(order, "SO HO") == "HO"
    assert _winner(order, "HO GO") == "GO"
    assert _winner(order, "GO EO") == "EO"
    assert _winner(order, "SA S10 SK SU") == "SA"


def test_plain_suit_order_a_10_k_u_9_8_7() -> None:
    order = _order("H")
    ranking = ["EA", "E10", "EK", "EU", "E9", "E8", "E7"]
    for i, high in enumerate(ranking):
        for low in ranking[i + 1:]:
            assert _winner(order, f"{low} {high}") == high
            assert _winner(order, f"{high} {low}") == high


def test_trump_suit_order_a_10_k_u_9_8_7() -> None:
    order = _order("G")
    ranking = ["GA", "G10", "GK", "GU", "G9", "G8", "G7"]
    for i, high in enumerate(ranking):
        for low in ranking[i + 1:]:
            assert _winner(order, f"{low} {high}") == high


def test_lowest_trump_beats_any_plain_card_and_off_suit_never_wins() -> None:
    order = _order("H")
    assert _winner(order, "EA E10 H7") == "H7"
    assert _winner(order, "E7 GA SA") == "E7"  # neither followed nor trumped
    assert _winner(order, "G9 G10 EA G8") == "G10"


def test_hearts_seven_and_leaves_low_orders() -> None:
    seven = TrumpOrder(tuple(card(c) for c in ("H7", "EO", "GO", "HO", "SO")), cards.ACORNS)
    assert seven.trumps_high_to_low(cards.PACK_32)[:6] == ["H7", "EO", "GO", "HO", "SO", "EA"]
    assert _winner(seven, "EO H7") == "H7"
    assert _winner(seven, "H8 H7") == "H7"  # H7 is a trump, not a heart
    low = TrumpOrder(tuple(card(c) for c in ("EO", "HO", "SO", "GO")), cards.BELLS)
    assert low.trumps_high_to_low(cards.PACK_32)[:5] == ["EO", "HO", "SO", "GO", "SA"]
    assert _winner(low, "GO SO") == "SO"
    assert _winner(low, "GO SA") == "GO"
