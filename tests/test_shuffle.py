"""The checkable shuffle (``engine.shuffle``, ``docs/fair-deals.md``): the same seed deals the
same pack everywhere, every order is equally likely, and a hand's public record tells nothing
of its seed or secret until the hand is over."""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import permutations
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from conftest import random_finish

from bot.boards import board
from engine import Hand, make_rules, replay
from engine.cards import PACK_24, card, codes
from engine.shuffle import (
    SCHEME,
    Seal,
    SealError,
    _Stream,
    board_seed,
    commitment,
    permutation,
    sealed_record,
    short,
    shuffle,
)

ROOT = Path(__file__).resolve().parent.parent
FILICAU = codes(make_rules("filicau").pack)
FILKO6 = codes(make_rules("filko6").pack)
#: A pack in which every card exists twice (as Doppelkopf's does).
DOUBLED = codes(PACK_24) * 2
CUT = "1312874506321051648"


def seeds(n: int, tag: str = "") -> list[bytes]:
    """A fixed set of seeds: the statistical tests give the same answer on every run."""
    return [hashlib.sha256(f"{tag}{i}".encode()).digest() for i in range(n)]


# -- the scheme as docs/fair-deals.md writes it, read a second time ---------------------------


def _encode(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def documented_shuffle(pack: Sequence[str], seed: bytes, cut: str = "",
                       rejected: list[int] | None = None) -> list[str]:
    """The documented algorithm written out from the page, not from the module: one long
    SHAKE-256 output, read a byte (two past 256 cards) per choice."""
    out = hashlib.shake_256(_encode(b"filicau-bot/shuffle", SCHEME.encode(), seed,
                                    cut.encode())).digest(4096)
    at = 0
    cards = sorted(pack, key=str.encode)
    for i in range(len(cards) - 1, 0, -1):
        m = i + 1
        width = 1 if m <= 256 else 2
        limit = (256 ** width // m) * m
        while True:
            v = int.from_bytes(out[at:at + width], "big")
            at += width
            if v < limit:
                break
            if rejected is not None:
                rejected.append(m)
        j = v % m
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def documented_commitment(game: str, pack: Sequence[str], seed: bytes, secret: bytes) -> str:
    text = ",".join(sorted(pack, key=str.encode))
    return hashlib.sha256(_encode(b"filicau-bot/commitment", SCHEME.encode(), game.encode(),
                                  text.encode(), seed, secret)).hexdigest()


@pytest.mark.parametrize("pack", [FILICAU, FILKO6, DOUBLED, ["EA", "E10"]],
                         ids=["32", "30", "48-doubled", "2"])
def test_the_engine_deals_what_the_page_describes(pack: list[str]) -> None:
    rejected: list[int] = []
    for i, seed in enumerate(seeds(200, "page")):
        cut = "" if i % 2 else str(10**18 + i)
        assert shuffle(pack, seed, cut) == documented_shuffle(pack, seed, cut, rejected)
    if len(pack) == 30:
        # Not every range divides 256: some choices are drawn again, and the engine drew
        # them again exactly where the page says.
        assert len(rejected) > 50
    assert commitment(SCHEME, "filko6", pack, seeds(1)[0], bytes(32)) == \
        documented_commitment("filko6", pack, seeds(1)[0], bytes(32))


def test_the_code_on_the_page_deals_what_the_engine_deals() -> None:
    """docs/fair-deals.md's Python, run as printed: another implementation from the page
    agrees with the engine."""
    page = (ROOT / "docs" / "fair-deals.md").read_text(encoding="utf-8")
    [block] = re.findall(r"```python\n(.*?)```", page, re.S)
    space: dict[str, Any] = {}
    exec(block, space)
    for i, seed in enumerate(seeds(100, "printed")):
        for pack in (FILICAU, FILKO6, DOUBLED):
            cut = str(i) if i % 3 else ""
            assert space["shuffle"](pack, seed, cut) == shuffle(pack, seed, cut)


# -- fixed test vectors: a change of the scheme must be a new scheme name ---------------------


def test_known_vectors() -> None:
    assert shuffle(FILICAU, bytes(32)) == [
        "SO", "EA", "HA", "SU", "GU", "E9", "EO", "S7", "H8", "EK", "GO", "H10", "GA", "H7",
        "HO", "G8", "EU", "SA", "E10", "H9", "G10", "S9", "G9", "S10", "S8", "E7", "HU", "E8",
        "GK", "HK", "G7", "SK"]
    assert commitment(SCHEME, "filicau", FILICAU, bytes(32), bytes(range(32))) == \
        "3af109a8ca358237531b00a177a0c36cdeb26ab1785b53c35c1a978581e458a2"
    seed = bytes.fromhex("adc621dcf07f19208e81efabe3f5248c2a1eefcef5182c5ae0f960e08bed4d90")
    assert shuffle(FILKO6, seed, CUT) == [
        "H9", "GO", "H10", "HO", "E7", "SA", "SK", "HK", "EO", "G9", "G10", "GU", "EA", "SO",
        "E10", "EU", "HU", "EK", "HA", "E8", "H8", "GK", "G8", "S8", "S9", "S10", "E9", "SU",
        "H7", "GA"]
    assert commitment(SCHEME, "filko6", FILKO6, seed, bytes(range(32, 64))) == \
        "2dd1a8b5f280cfa320fa93c05d779cf3f764120c45b63ea1805a0c7cda0d62de"
    assert " ".join(shuffle(DOUBLED, hashlib.sha256(b"doppelkopf").digest())) == (
        "EK EA EU E10 G10 GA S9 E10 S10 SK H10 GU GO SU HK EO EK GK GA E9 SU SA E9 SA G9 G9 "
        "HK HA H10 EA SO H9 EO HA G10 H9 HO EU S9 GU SO GK HU HU SK S10 HO GO")


# -- determinism ------------------------------------------------------------------------------


def test_the_same_seed_and_cut_deal_the_same_pack_and_any_change_another() -> None:
    a, b = seeds(2)
    assert shuffle(FILICAU, a) == shuffle(FILICAU, a)
    assert shuffle(FILICAU, a) != shuffle(FILICAU, b)
    assert shuffle(FILICAU, a, CUT) != shuffle(FILICAU, a)
    assert shuffle(FILICAU, a, CUT) != shuffle(FILICAU, a, CUT + "0")
    # How the pack is listed does not matter, only which cards it holds.
    assert shuffle(list(reversed(FILICAU)), a) == shuffle(FILICAU, a)
    # An empty cut is no cut.
    assert shuffle(FILICAU, a, "") == shuffle(FILICAU, a)


def test_a_pack_with_every_card_twice_deals_each_copy() -> None:
    for seed in seeds(20, "doubled"):
        dealt = shuffle(DOUBLED, seed)
        assert Counter(dealt) == Counter(DOUBLED)
    # The cards themselves are moved: two cards of one code both reach the pack.
    cards = tuple(PACK_24) * 2
    seal = Seal("doppel", cards, seeds(1)[0], bytes(32))
    assert Counter(seal.deal()) == Counter(cards)
    assert codes(seal.deal()) == shuffle(DOUBLED, seeds(1)[0])


def test_unknown_schemes_are_refused() -> None:
    with pytest.raises(SealError):
        permutation(4, bytes(32), scheme="fy-shake256/2")


# -- uniformity -------------------------------------------------------------------------------


def chi_square_limit(df: int, alpha: float = 1e-3) -> float:
    """The chi-square value a fair sample passes with probability 1 - alpha
    (Wilson–Hilferty)."""
    z = NormalDist().inv_cdf(1 - alpha)
    return float(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3)


def chi_square(counts: Sequence[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


def orders_are_uniform(deal: Callable[[list[int], bytes], list[int]], n: int,
                       samples: int) -> bool:
    """Whether every order of an ``n``-card pack came about equally often (every one of
    the n! orders counted, so a rule that favours some orders over others is caught even
    where each card's positions look fair)."""
    found = Counter(tuple(deal(list(range(n)), s)) for s in seeds(samples, f"orders{n}"))
    cells = [found[p] for p in permutations(range(n))]
    assert sum(cells) == samples
    return chi_square(cells, samples / math.factorial(n)) < chi_square_limit(len(cells) - 1)


def engine_deal(pack: list[int], seed: bytes) -> list[int]:
    return [pack[i] for i in permutation(len(pack), seed)]


def naive_deal(pack: list[int], seed: bytes) -> list[int]:
    """The shuffle people write by mistake: every card swapped with any position (n^n
    equally likely runs over n! orders, which n^n does not divide)."""
    stream = _Stream(seed, 64)
    n = len(pack)
    for i in range(n):
        j = stream.below(n)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_order_of_a_small_pack_is_equally_likely(n: int) -> None:
    assert orders_are_uniform(engine_deal, n, 200 * math.factorial(n))


def test_the_order_test_catches_a_biased_shuffle() -> None:
    assert not orders_are_uniform(naive_deal, 3, 1200)


def test_every_card_is_equally_likely_at_every_position() -> None:
    n, samples = 32, 9600
    at = Counter[tuple[int, int]]()
    for seed in seeds(samples, "positions"):
        for position, c in enumerate(permutation(n, seed)):
            at[c, position] += 1
    cells = [at[c, p] for c in range(n) for p in range(n)]
    assert chi_square(cells, samples / n) < chi_square_limit((n - 1) ** 2)


@pytest.mark.parametrize("m", [3, 30, 200, 300])
def test_each_choice_is_uniform_because_of_the_rejections(m: int) -> None:
    """A choice below ``m`` from whole bytes: without drawing again past the last complete
    run of ``m``, the small numbers would come up more often (for 200, twice as often)."""
    draws = 100 * m
    stream = _Stream(b"choices", 2 * draws)
    fair = Counter(stream.below(m) for _ in range(draws))
    assert chi_square([fair[v] for v in range(m)], draws / m) < chi_square_limit(m - 1)


def test_the_choice_test_catches_choices_made_without_rejections() -> None:
    m, draws = 200, 20000
    raw = _Stream(b"choices", draws).take(draws)
    biased = Counter(b % m for b in raw)
    assert chi_square([biased[v] for v in range(m)], draws / m) > chi_square_limit(m - 1)


# -- the seal ---------------------------------------------------------------------------------


def fixed_token(tag: str) -> Callable[[int], bytes]:
    counter = iter(range(100))
    return lambda n: hashlib.sha256(f"{tag}{next(counter)}".encode()).digest()[:n]


def test_a_public_record_of_a_hand_in_play_tells_neither_seed_nor_secret() -> None:
    rules = make_rules("schafkopf")
    seal = Seal.new(rules, token=fixed_token("in play")).with_cut(CUT)
    hand = Hand(rules, 1, seal.deal())
    rng = random.Random(4)
    hidden = (seal.seed.hex(), seal.secret.hex())
    steps = 0
    while not hand.finished:
        shown = json.dumps(sealed_record(hand, seal))
        assert not any(h in shown for h in hidden)
        assert set(sealed_record(hand, seal)["shuffle"]) == {"scheme", "commitment", "cut"}
        with pytest.raises(SealError):
            seal.revealed(hand)
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        steps += 1
    assert steps > 8
    done = sealed_record(hand, seal)["shuffle"]
    assert (done["seed"], done["secret"]) == hidden
    assert done["commitment"] == seal.commitment
    assert seal.short == short(seal.commitment)
    assert seal.short.replace(" ", "") == seal.commitment[:32]
    assert not any(h in repr(seal) for h in hidden)


def test_an_abandoned_hand_may_be_revealed_on_purpose() -> None:
    rules = make_rules("filicau")
    seal = Seal.new(rules)
    hand = Hand(rules, 0, seal.deal())
    assert "seed" not in sealed_record(hand, seal)["shuffle"]
    assert sealed_record(hand, seal, abandoned=True)["shuffle"]["seed"] == seal.seed.hex()


def test_a_hand_not_dealt_from_the_seal_gets_no_sealed_record() -> None:
    rules = make_rules("filicau")
    seal = Seal.new(rules)
    with pytest.raises(SealError):
        sealed_record(Hand(rules, 0, rules.pack), seal)
    with pytest.raises(SealError):
        sealed_record(Hand(rules, 0, seal.with_cut(CUT).deal()), seal)
    other = make_rules("filko")
    with pytest.raises(SealError):
        sealed_record(Hand(other, 0, seal.deal()), seal)


def test_a_sealed_record_replays_like_any_other() -> None:
    rules = make_rules("filko")
    seal = Seal.new(rules)
    hand = Hand(rules, 2, seal.deal())
    random_finish(hand, random.Random(2))
    again = replay(sealed_record(hand, seal))
    assert again.finished and again.result == hand.result


def test_new_seals_differ_and_a_kept_seal_deals_the_same_cards_after_a_restart() -> None:
    rules = make_rules("wendish")
    a, b = Seal.new(rules), Seal.new(rules)
    assert a.commitment != b.commitment and a.deal() != b.deal()
    cut = a.with_cut(CUT)
    back = Seal.from_kept(json.loads(json.dumps(cut.kept())), rules)
    assert back == cut and back.deal() == cut.deal() and back.commitment == a.commitment
    with pytest.raises(SealError):
        Seal.from_kept(cut.kept(), make_rules("filicau"))
    with pytest.raises(SealError):
        Seal.from_kept({"game": "wendish"}, rules)


def test_the_cut_changes_the_cards_not_the_commitment() -> None:
    rules = make_rules("filicau")
    seal = Seal.new(rules)
    cut = seal.with_cut(CUT)
    assert cut.commitment == seal.commitment
    assert cut.deal() != seal.deal()
    assert codes(cut.deal()) == shuffle(FILICAU, seal.seed, CUT)


def test_the_commitment_covers_the_games_cards() -> None:
    """The same seed and secret commit differently for a different game or pack (the
    short pack of Bavarian Schafkopf): a commitment shown for one deal fits no other."""
    seed, secret = seeds(2, "covers")
    full = make_rules("schafkopf")
    short_pack = make_rules("schafkopf", {"short_pack": True})
    assert Seal(full.game, full.pack, seed, secret).commitment != \
        Seal(short_pack.game, short_pack.pack, seed, secret).commitment
    assert commitment(SCHEME, "filko", FILICAU, seed, secret) != \
        commitment(SCHEME, "filicau", FILICAU, seed, secret)


# -- duplicate boards -------------------------------------------------------------------------


def test_every_table_seals_the_same_board_with_its_own_commitment() -> None:
    rules = make_rules("filko")
    pack, dealer = board(rules, "a1b2c3d4:1", 2)
    tables = [Seal.new(rules, seed=board_seed("a1b2c3d4:1", 2)) for _ in range(3)]
    assert all(t.deal() == pack for t in tables)
    assert len({t.commitment for t in tables}) == 3
    # The board's seed is its own: it is not the round's, and the next board's differs.
    own = board_seed("a1b2c3d4:1", 2)
    assert b"a1b2c3d4" not in own and own != board_seed("a1b2c3d4:1", 3)
    assert board(rules, "a1b2c3d4:1", 2) == (pack, dealer)
    assert [card(c) for c in shuffle(codes(rules.pack), own)] == pack
