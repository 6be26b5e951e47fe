"""Card pictures (``bot.cardart``): every card of every pack, golden images, themes, layout.

The golden images are in ``tests/golden_images``; after a deliberate change to the drawing,
regenerate them with ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_cardart.py`` and
look at them before committing.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import pytest
from PIL import Image, ImageChops, ImageStat

from bot import cardart
from bot.cardart import CARD_H, CARD_W, THEMES, card_image, hand_png, table_png
from engine.cards import (
    ACORNS,
    BELLS,
    HEARTS,
    LEAVES,
    OVER,
    PACK_20,
    PACK_24,
    PACK_30,
    PACK_30_KELEBIA,
    PACK_32,
    SUITS,
    UNDER,
    card,
    cards,
    code,
    make,
)

GOLDEN = Path(__file__).parent / "golden_images"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
PACKS = {"32": PACK_32, "30": PACK_30, "30-kelebia": PACK_30_KELEBIA, "24": PACK_24,
         "20": PACK_20}

HAND = cards(["EO", "GO", "HU", "SA", "H10", "GK", "E9", "S7"])
PLAYABLE = cards(["EO", "GO", "HU"])
SEATS = ("Ana", "Béla", "Ștefan", "Jürgen")
TRICK = ((1, card("G10")), (2, card("SK")), (3, card("EU")))
RGB = tuple[int, int, int]


def table(*, seats: Sequence[str] = SEATS, trick: Sequence[tuple[int, int]] = TRICK,
          trump: int | None = HEARTS, shown: Sequence[int] = (card("HO"),),
          theme: str = "dark") -> bytes:
    return table_png(seats=seats, trick=trick, trump=trump, shown=shown, theme=theme)


def decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def mean_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per pixel and channel (0..255)."""
    assert a.size == b.size
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / 3


def on_background(img: Image.Image, theme: str) -> Image.Image:
    bg = Image.new("RGBA", img.size, (*cardart._THEMES[theme].bg, 255))
    bg.alpha_composite(img)
    return bg.convert("RGB")


# -- every card -------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("pack", list(PACKS))
def test_every_card_of_every_pack_renders_and_differs(pack: str, theme: str) -> None:
    # What a player sees: the card on the background, shown at half size.
    seen = {}
    for c in PACKS[pack]:
        img = card_image(c, theme)
        assert img.size == (CARD_W, CARD_H)
        assert img.mode == "RGBA"
        assert cast(tuple[int, ...], img.getpixel((0, 0)))[3] == 0  # rounded corners
        assert cast(tuple[int, ...], img.getpixel((CARD_W // 2, CARD_H // 2)))[3] == 255
        flat = on_background(img, theme)
        assert len(flat.getcolors(maxcolors=1 << 16) or ()) > 100  # drawn, not blank
        seen[c] = flat.resize((CARD_W // 2, CARD_H // 2), Image.Resampling.BOX)
    for a, b in itertools.combinations(seen, 2):
        diff = ImageChops.difference(seen[a], seen[b]).convert("L")
        clearly = sum(diff.histogram()[48:])  # pixels that differ clearly
        assert clearly >= 40, f"{code(a)} and {code(b)} look alike ({clearly} px differ)"


def sign_colour(suit: int, theme: str) -> RGB:
    """The main colour of the suit's sign: the commonest colour in the middle of its Ace."""
    ace = on_background(card_image(make(suit, 0), theme), theme).crop((45, 75, 75, 105))
    return cast(RGB, max(ace.getcolors(maxcolors=1 << 16) or ())[1])


def close(a: RGB, b: RGB) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def sign_pixels(img: Image.Image, colour: RGB, box: tuple[int, int, int, int]) -> int:
    colours = cast(list[tuple[int, RGB]], img.crop(box).getcolors(maxcolors=1 << 16) or [])
    return sum(n for n, c in colours if close(c, colour) <= 6)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("suit", SUITS)
def test_over_holds_the_sign_high_and_under_low(suit: int, theme: str) -> None:
    colour = sign_colour(suit, theme)
    top, bottom = (40, 18, 80, 58), (40, 126, 80, 166)  # middle of the card, above and below
    over = on_background(card_image(make(suit, OVER), theme), theme)
    under = on_background(card_image(make(suit, UNDER), theme), theme)
    assert sign_pixels(over, colour, top) > 3 * sign_pixels(over, colour, bottom) + 20
    assert sign_pixels(under, colour, bottom) > 3 * sign_pixels(under, colour, top) + 20


def test_suit_signs_have_their_own_colours() -> None:
    colours = [sign_colour(s, "light") for s in (ACORNS, LEAVES, HEARTS, BELLS)]
    for a, b in itertools.combinations(colours, 2):
        assert close(a, b) > 60


def test_card_image_is_cached_and_checks_its_arguments() -> None:
    assert card_image(5, "light") is card_image(5, "light")
    with pytest.raises(ValueError):
        card_image(32)
    with pytest.raises(ValueError):
        card_image(-1)
    with pytest.raises(ValueError):
        card_image(0, theme="blue")
    with pytest.raises(ValueError):
        hand_png([0, 40])


# -- themes, dimming, determinism -------------------------------------------------------------


def test_light_and_dark_differ() -> None:
    for c in PACK_32:
        assert mean_diff(card_image(c, "light"), card_image(c, "dark")) > 10
    assert mean_diff(decode(hand_png(HAND, theme="light")),
                     decode(hand_png(HAND, theme="dark"))) > 20
    assert mean_diff(decode(table(theme="light")), decode(table(theme="dark"))) > 10


@pytest.mark.parametrize("theme", THEMES)
def test_cards_that_cannot_be_played_are_dimmed(theme: str) -> None:
    bright = decode(hand_png(HAND, theme=theme, playable=HAND))
    dim = decode(hand_png(HAND, theme=theme, playable=()))
    assert bright.size == dim.size
    assert mean_diff(bright, dim) > 10
    # Faded: less contrast over the cards than when they can be played.
    band = (16, 30, bright.width - 16, 30 + CARD_H)
    assert sum(ImageStat.Stat(dim.crop(band)).stddev) < 0.7 * sum(
        ImageStat.Stat(bright.crop(band)).stddev)
    # Only the cards outside ``playable`` change.
    some = decode(hand_png(HAND, theme=theme, playable=PLAYABLE))
    first_three = (0, 0, 16 + 2 * 88 + 80, some.height)
    assert mean_diff(some.crop(first_three), bright.crop(first_three)) < 1
    assert mean_diff(some.crop(first_three), dim.crop(first_three)) > 10


def test_the_same_input_gives_the_same_bytes() -> None:
    first = hand_png(HAND, theme="light", playable=PLAYABLE), table()
    cardart._clear_caches()
    again = hand_png(HAND, theme="light", playable=PLAYABLE), table()
    assert first == again
    # And in another process, with another hash seed.
    script = ("import hashlib, sys; from bot.cardart import hand_png; "
              f"png = hand_png({HAND!r}, theme='light', playable={PLAYABLE!r}); "
              "sys.stdout.write(hashlib.sha256(png).hexdigest())")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONHASHSEED": "12345"},
                         cwd=Path(__file__).parent.parent)
    assert out.stdout == hashlib.sha256(first[0]).hexdigest()


# -- hand layout ------------------------------------------------------------------------------


def test_hand_wraps_to_two_rows_above_eight_cards() -> None:
    one_row = decode(hand_png(PACK_32[:8]))
    two_rows = decode(hand_png(PACK_32[:16]))
    assert two_rows.width == one_row.width  # 8 cards a row
    assert 1.8 * one_row.height < two_rows.height < 2.2 * one_row.height
    nine = decode(hand_png(PACK_32[:9]))  # 5 + 4
    assert nine.height == two_rows.height
    assert nine.width == decode(hand_png(PACK_32[:5])).width
    assert decode(hand_png(PACK_32[:3])).width < one_row.width


def test_hand_keeps_the_order_and_labels_are_optional() -> None:
    assert hand_png(HAND) != hand_png(HAND[::-1])
    with_labels, without = decode(hand_png(HAND)), decode(hand_png(HAND, labels=False))
    assert with_labels.width == without.width
    assert with_labels.height > without.height
    assert decode(hand_png(())).size[0] > 0  # an empty hand is an empty picture


# -- table ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 7))
def test_table_for_two_to_six_seats(n: int) -> None:
    names = [f"Player {i}" for i in range(n)]
    empty = decode(table_png(seats=names, trick=[], trump=None))
    full = decode(table_png(seats=names, trick=[(s, PACK_32[s]) for s in range(n)],
                            trump=BELLS, shown=PACK_32[10:13]))
    assert empty.size == full.size == (cardart._TABLE_W, cardart._TABLE_H)
    assert mean_diff(empty, full) > 3


def test_table_shows_trump_shown_cards_and_names() -> None:
    base = table()
    assert base != table(trump=None)
    assert base != table(trump=LEAVES)
    assert base != table(shown=())
    assert base != table(trick=TRICK[:2])
    assert base != table(seats=("Ana", "Béla", "Ștefan", "Jörg"))
    # The default font covers little beyond ASCII: accents are dropped rather than drawn as boxes.
    assert base == table(seats=("Ana", "Bela", "Stefan", "Jurgen"))
    table_png(seats=("🂡🂡", "x" * 200), trick=[], trump=None)  # no crash on odd names


def test_table_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        table_png(seats=["solo"], trick=[], trump=None)
    with pytest.raises(ValueError):
        table_png(seats=["a"] * 7, trick=[], trump=None)
    with pytest.raises(ValueError):
        table_png(seats=["a", "b"], trick=[(2, 0)], trump=None)
    with pytest.raises(ValueError):
        table_png(seats=["a", "b"], trick=[], trump=4)


# -- golden images ----------------------------------------------------------------------------

GOLDEN_CASES = {
    "hand_light": lambda: hand_png(HAND, theme="light", playable=PLAYABLE),
    "hand_dark": lambda: hand_png(HAND, theme="dark", playable=PLAYABLE),
    "hand16_dark": lambda: hand_png(PACK_32[::2], theme="dark"),
    "table_dark": lambda: table(theme="dark"),
    "table6_light": lambda: table_png(
        seats=("Ana", "Béla", "Cami", "Dorin", "Ede", "Fanni"),
        trick=[(4, card("SO")), (5, card("GU")), (0, card("HA"))], trump=None,
        theme="light"),
}


@pytest.mark.parametrize("name", list(GOLDEN_CASES))
def test_golden_image(name: str) -> None:
    png = GOLDEN_CASES[name]()
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
    assert path.exists(), f"no {path}; make it with UPDATE_GOLDEN=1"
    expected, got = decode(path.read_bytes()), decode(png)
    assert got.size == expected.size
    diff = mean_diff(got, expected)
    assert diff < 2, f"{name} drifted from its golden image (mean difference {diff:.2f}); " \
                     "if intended, regenerate with UPDATE_GOLDEN=1 and look at the result"
