"""Card pictures (``bot.cardart``): every card of every pack with German and French faces,
golden images, themes, colour vision, layout.

The golden images are in ``tests/golden_images``; after a deliberate change to the drawing,
regenerate them with ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_cardart.py`` and
look at them before committing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import itertools
import json
import math
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest
from colour_vision import CVD, ciede2000, delta_e00, seen, simulate
from PIL import Image, ImageChops, ImageStat

from bot import cardart
from bot.cardart import CARD_H, CARD_W, FACES, THEMES, card_image, hand_png, table_png, themes
from bot.cardart.table import TABLE_H, TABLE_W
from bot.cardart.text import printable
from engine.cards import (
    ACE,
    ACORNS,
    BELLS,
    EIGHT,
    HEARTS,
    KING,
    LEAVES,
    NINE,
    OVER,
    PACK_20,
    PACK_24,
    PACK_30,
    PACK_30_KELEBIA,
    PACK_32,
    SEVEN,
    SUITS,
    TEN,
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
    bg = Image.new("RGBA", img.size, (*themes.BY_NAME[theme].bg, 255))
    bg.alpha_composite(img)
    return bg.convert("RGB")


# -- every card -------------------------------------------------------------------------------


@pytest.mark.parametrize("faces", FACES)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("pack", list(PACKS))
def test_every_card_of_every_pack_renders_and_differs(pack: str, theme: str, faces: str) -> None:
    # What a player sees: the card on the background, shown at half size.
    seen = {}
    for c in PACKS[pack]:
        img = card_image(c, theme, faces=faces)
        assert img.size == (CARD_W, CARD_H)
        assert img.mode == "RGBA"
        assert cast(tuple[int, ...], img.getpixel((0, 0)))[3] == 0  # rounded corners
        assert cast(tuple[int, ...], img.getpixel((CARD_W // 2, CARD_H // 2)))[3] == 255
        flat = on_background(img, theme)
        # Drawn, not blank (a blank face has 16 colours: its own and its edge's shades).
        assert len(flat.getcolors(maxcolors=1 << 16) or ()) > 60
        seen[c] = flat.resize((CARD_W // 2, CARD_H // 2), Image.Resampling.BOX)
    for a, b in itertools.combinations(seen, 2):
        diff = ImageChops.difference(seen[a], seen[b]).convert("L")
        clearly = sum(diff.histogram()[48:])  # pixels that differ clearly
        assert clearly >= 40, f"{code(a)} and {code(b)} look alike ({clearly} px differ)"


def test_the_same_card_looks_different_with_french_faces() -> None:
    """The same code, another deck: every card of the pack with French faces differs clearly
    from its German face, as two cards of one pack do (a fallback to the German drawing would
    not)."""
    for c in PACK_32:
        german = on_background(card_image(c, "light"), "light")
        french = on_background(card_image(c, "light", faces="french"), "light")
        small = (CARD_W // 2, CARD_H // 2)
        diff = ImageChops.difference(german.resize(small, Image.Resampling.BOX),
                                     french.resize(small, Image.Resampling.BOX)).convert("L")
        assert sum(diff.histogram()[48:]) >= 40, code(c)


def sign_colour(suit: int, theme: str, faces: str = "german") -> RGB:
    """The main colour of the suit's sign: the commonest colour in the middle of its Ace."""
    ace = on_background(card_image(make(suit, 0), theme, faces=faces), theme)
    middle = ace.crop((45, 75, 75, 105))
    return cast(RGB, max(middle.getcolors(maxcolors=1 << 16) or ())[1])


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
    assert card_image(5, "light", faces="french") is card_image(5, "light", faces="french")
    for bad in ("France", "German", ""):
        with pytest.raises(ValueError):
            card_image(0, faces=bad)
        with pytest.raises(ValueError):
            hand_png([0], faces=bad)
        with pytest.raises(ValueError):
            table_png(seats=["a", "b"], trick=[], trump=None, faces=bad)
        with pytest.raises(ValueError):
            cardart.ranking_png([("x", [0])], faces=bad)


# -- themes, dimming, determinism -------------------------------------------------------------


@pytest.mark.parametrize("faces", FACES)
def test_light_and_dark_differ(faces: str) -> None:
    for c in PACK_32:
        assert mean_diff(card_image(c, "light", faces=faces),
                         card_image(c, "dark", faces=faces)) > 10
    assert mean_diff(decode(hand_png(HAND, theme="light")),
                     decode(hand_png(HAND, theme="dark"))) > 20
    assert mean_diff(decode(table(theme="light")), decode(table(theme="dark"))) > 10


def saturation(img: Image.Image) -> float:
    return ImageStat.Stat(img.convert("HSV").getchannel("S")).mean[0]


@pytest.mark.parametrize("theme", THEMES)
def test_cards_that_cannot_be_played_are_greyed(theme: str) -> None:
    bright = decode(hand_png(HAND, theme=theme, playable=HAND))
    dim = decode(hand_png(HAND, theme=theme, playable=()))
    assert bright.size == dim.size
    assert mean_diff(bright, dim) > 10
    # Greyed: at least 30 % less colour over the cards than when they can be played (half
    # greyed: the suit's colour still shows, faintly).
    band = (16, 30, bright.width - 16, 30 + CARD_H)
    assert saturation(dim.crop(band)) < 0.7 * saturation(bright.crop(band))
    # Only the cards outside ``playable`` change.
    some = decode(hand_png(HAND, theme=theme, playable=PLAYABLE))
    first_three = (0, 0, 16 + 2 * 88 + 80, some.height)
    assert mean_diff(some.crop(first_three), bright.crop(first_three)) < 1
    assert mean_diff(some.crop(first_three), dim.crop(first_three)) > 10


def luminance(c: Sequence[int]) -> float:
    """Relative luminance (WCAG 2)."""
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
    r, g, b = c[:3]
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


#: WCAG's minimum for large text (the corner letter is about 14 px on a phone).
LARGE_TEXT = 3.0
#: The card's outline against the background: enough to see where the card is.
OUTLINE = 2.0


@pytest.mark.parametrize("faces", FACES)
@pytest.mark.parametrize("theme", THEMES)
def test_cards_that_cannot_be_played_stay_legible(theme: str, faces: str) -> None:
    """A card that cannot be played is greyed, but its corner letter keeps 3:1 against the
    card and its outline 2:1 against the background (faded as they were before, the worst
    card had 1.7:1 and 1.6:1 on the dark theme, 1.8:1 and 1.4:1 on the light one)."""
    bg = themes.BY_NAME[theme].bg
    for c in PACK_32:
        # One card, not playable, in a hand with one playable card before it.
        img = decode(hand_png([PACK_32[(c + 1) % 32], c], theme=theme,
                              playable=[PACK_32[(c + 1) % 32]], labels=False, faces=faces))
        x0, y0 = 16 + 88, 16 + 14  # the dimmed card's top left
        face = cast(RGB, img.getpixel((x0 + 4, y0 + 90)))  # inside its left edge
        letter = img.crop((x0 + 6, y0 + 4, x0 + 34, y0 + 30))
        colours = cast(list[tuple[int, RGB]], letter.getcolors(maxcolors=1 << 16) or [])
        best = max(contrast(col, face) for _, col in colours)
        assert best >= LARGE_TEXT, (
            f"{code(c)}: corner letter at {best:.2f}:1 on {theme}, {faces} faces")
        outline = max(contrast(cast(RGB, img.getpixel((x0 + dx, y0 + 90))), bg)
                      for dx in range(-1, 3))
        assert outline >= OUTLINE, f"{code(c)}: outline at {outline:.2f}:1 on {theme}"


def digests() -> dict[str, str]:
    """A digest of every card face and of a hand, per faces, theme and language."""
    out = {}
    for faces, theme, lang in itertools.product(FACES, THEMES, ("en", "ro", "hu", "de")):
        h = hashlib.sha256()
        for c in PACK_32:
            h.update(card_image(c, theme, lang=lang, faces=faces).tobytes())
        h.update(hand_png(HAND, theme=theme, playable=PLAYABLE, lang=lang, faces=faces))
        out[f"{faces}/{theme}/{lang}"] = h.hexdigest()
    return out


@pytest.mark.slow
def test_every_face_theme_and_language_gives_the_same_bytes_every_time() -> None:
    """The pictures are the same bytes whenever they are drawn: after the caches are
    cleared, and in another process with another hash seed (so that a server's shards, and
    a page's cached face, agree). No two faces or themes draw the same, and two languages
    draw the same only where their corner letters are the same (German faces in English
    and German: A K O U)."""
    first = digests()
    for (k1, d1), (k2, d2) in itertools.combinations(first.items(), 2):
        (f1, t1, l1), (f2, t2, l2) = k1.split("/"), k2.split("/")
        same_letters = [cardart.corner_label(r, l1, f1) for r in range(8)] == [
            cardart.corner_label(r, l2, f2) for r in range(8)]
        assert (d1 == d2) == (f1 == f2 and t1 == t2 and same_letters), (k1, k2)
    cardart.clear_caches()
    assert digests() == first
    script = ("import json, sys; sys.path.insert(0, 'tests'); from test_cardart import digests; "
              "sys.stdout.write(json.dumps(digests()))")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONHASHSEED": "4242"},
                         cwd=Path(__file__).parent.parent)
    assert json.loads(out.stdout) == first


@pytest.mark.slow
def test_the_same_input_gives_the_same_bytes() -> None:
    first = hand_png(HAND, theme="light", playable=PLAYABLE), table()
    cardart.clear_caches()
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
    assert empty.size == full.size == (TABLE_W, TABLE_H)
    assert mean_diff(empty, full) > 3


def test_table_shows_trump_shown_cards_and_names() -> None:
    base = table()
    assert base != table(trump=None)
    assert base != table(trump=LEAVES)
    assert base != table(shown=())
    assert base != table(trick=TRICK[:2])
    assert base != table(seats=("Ana", "Béla", "Ștefan", "Jörg"))
    table_png(seats=("🂡🂡", "x" * 200), trick=[], trump=None)  # no crash on odd names


def name_label(png: bytes, seat_box: tuple[int, int, int, int]) -> Image.Image:
    return decode(png).crop(seat_box)


@pytest.mark.parametrize(("accented", "plain"), [("Ștefan", "Stefan"), ("Őrs", "Ors"),
                                                   ("Béla", "Bela"), ("Jürgen", "Jurgen")])
def test_names_keep_their_accents(accented: str, plain: str) -> None:
    """The shipped font draws the accents: the name differs from its plain spelling, and only
    in the name's label (seat 2 sits at the top, its label above its card)."""
    seats = ["Ana", "Béla", accented, "Jörg"]
    with_accents = table(seats=seats)
    without = table(seats=[*seats[:2], plain, seats[3]])
    assert with_accents != without
    top_label = (250, 25, 550, 75)
    diff = ImageChops.difference(name_label(with_accents, top_label),
                                 name_label(without, top_label)).convert("L")
    assert sum(diff.histogram()[48:]) >= 4  # an accent is 4 to 10 px at this size
    rest = decode(with_accents), decode(without)
    rest[0].paste((0, 0, 0), top_label)
    rest[1].paste((0, 0, 0), top_label)
    assert mean_diff(*rest) == 0
    assert printable(accented) == accented


def test_a_name_beyond_the_fonts_loses_only_what_they_cannot_show() -> None:
    assert printable("🂡 Őrs") == "Őrs"  # a playing card: in neither font
    assert printable("S\u0326tefan") == "Ștefan"  # a decomposed comma below
    assert printable("Ana  \u200d 🌻") == "Ana 🌻"  # a stray joiner goes
    assert table(seats=["Ana", "Béla", "🂡 Őrs", "Jörg"]) == table(
        seats=["Ana", "Béla", "Őrs", "Jörg"])


def ink(png: bytes, box: Box, theme: str = "dark") -> set[tuple[int, int]]:
    """The pixels of ``box`` drawn in (nearly) the labels' text colour."""
    colour = themes.BY_NAME[theme].label_text
    img = decode(png).crop(box)
    return {(x, y) for x in range(img.width) for y in range(img.height)
            if close(cast(RGB, img.getpixel((x, y))), colour) <= 60}


@pytest.mark.parametrize("emoji", ["🌻", "😀", "❤️", "👍🏽", "🇷🇴", "🌰"])
def test_an_emoji_in_a_name_is_drawn(emoji: str) -> None:
    """Seat 2's name (above its card, at the top) with an emoji after it: past the letters'
    ink there is an emoji's worth more, a glyph at least 10 px high and wide, where before the
    emoji was dropped and the picture was the same as without it."""
    top_label = (250, 25, 550, 75)
    plain = ink(table(seats=["Ana", "Béla", "Őrs", "Jörg"]), top_label)
    with_emoji = ink(table(seats=["Ana", "Béla", f"Őrs {emoji}", "Jörg"]), top_label)
    left = min(x for x, _ in with_emoji)
    letters_end = left + max(x for x, _ in plain) - min(x for x, _ in plain)
    glyph = {(x, y) for x, y in with_emoji if x > letters_end + 3}
    assert len(glyph) >= 30, f"{emoji}: {len(glyph)} px of ink where the emoji should be"
    xs, ys = [x for x, _ in glyph], [y for _, y in glyph]
    assert max(xs) - min(xs) >= 10 and max(ys) - min(ys) >= 10
    # The letters are the same letters: the name is shifted, not redrawn otherwise.
    assert len(with_emoji) - len(glyph) == pytest.approx(len(plain), rel=0.1)


# -- whose card is whose ----------------------------------------------------------------------

Box = tuple[int, int, int, int]
#: The felt inside the table's rim.
FELT: Box = (18, 18, TABLE_W - 18, TABLE_H - 18)


def changed(a: bytes, b: bytes, outside: Box | None = None) -> Box:
    """Where two light-theme pictures clearly differ (a card on the felt, a pill that turns
    blue; not a card's soft shadow), optionally leaving out one box."""
    diff = ImageChops.difference(decode(a), decode(b))
    mask = ImageChops.lighter(ImageChops.lighter(*diff.split()[:2]), diff.split()[2])
    mask = mask.point(lambda v: 255 if v > 60 else 0)
    if outside is not None:
        mask.paste(0, outside)
    box = mask.getbbox()
    assert box is not None, "no difference"
    return box


def gap(a: Box, b: Box) -> float:
    """The distance between two boxes; 0 when they touch or overlap."""
    dx = max(0, b[0] - a[2], a[0] - b[2])
    dy = max(0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def grow(box: Box, by: int) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


#: Names as long as a label holds (they are cut short with "…").
LONG_NAMES = tuple(f"Wilhelmina Kovács-Nagy {i}" for i in range(6))


@pytest.mark.parametrize("n", range(2, 7))
def test_each_name_is_by_its_own_card(n: int) -> None:
    """With every seat's card on the table and cards shown: each name (drawn as it is when that
    seat is to play, the widest) is beside its own card, clearly nearer it than any other card
    or the shown cards, overlaps no card and no other label; the same for "★ takes" beside the
    card that takes the trick; everything on the felt. (Before: with six seats the names of the
    two seats on each side sat above and below their stacked pair of cards, and the lower
    left name on the shown cards.)"""
    names = LONG_NAMES[:n]
    trick = [(s, PACK_32[4 * s + 1]) for s in range(n)]
    shown = cards(["HO", "H9", "H8", "SA"])

    def draw(*, trick: Sequence[tuple[int, int]] = trick, shown: Sequence[int] = shown,
             to_move: int | None = None, winner: int | None = None,
             trump: int = HEARTS) -> bytes:
        return table_png(seats=names, trick=trick, trump=trump, shown=shown, theme="light",
                         to_move=to_move, winner=winner)

    base = draw()
    card_at = {s: changed(base, draw(trick=[p for p in trick if p[0] != s])) for s in range(n)}
    name_at = {s: changed(base, draw(to_move=s)) for s in range(n)}
    shown_at = changed(base, draw(shown=()))
    badge = changed(base, draw(trump=BELLS))
    obstacles = [*card_at.values(), shown_at, badge]
    for s in range(n):
        label = name_at[s]
        own = gap(label, card_at[s])
        others = min(gap(label, c) for c in [*obstacles[:n], shown_at] if c != card_at[s])
        assert own <= 10, f"seat {s}: name {own:.0f} px from its card"
        assert others >= 2 * own + 20, (
            f"seat {s}: name {own:.0f} px from its card, {others:.0f} px from another")
        for box in obstacles:
            assert not overlap(label, box), f"seat {s}: name {label} over {box}"
        for t in range(s + 1, n):
            assert not overlap(label, name_at[t]), f"names of seats {s} and {t} overlap"
        assert gap(label, FELT) == 0 and label[0] >= FELT[0] and label[2] <= FELT[2]
        assert FELT[1] <= label[1] and label[3] <= FELT[3], f"seat {s}: name off the felt"
        # "★ takes" beside the card that takes the trick (its gold frame left out).
        takes = changed(base, draw(winner=s), outside=grow(card_at[s], 8))
        assert gap(takes, card_at[s]) <= 16
        for box in [*obstacles, *name_at.values()]:
            if box != card_at[s]:
                assert not overlap(takes, box), f"seat {s}: 'takes' {takes} over {box}"
        assert FELT[0] <= takes[0] and takes[2] <= FELT[2]
        assert FELT[1] <= takes[1] and takes[3] <= FELT[3]


def test_table_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        table_png(seats=["solo"], trick=[], trump=None)
    with pytest.raises(ValueError):
        table_png(seats=["a"] * 7, trick=[], trump=None)
    with pytest.raises(ValueError):
        table_png(seats=["a", "b"], trick=[(2, 0)], trump=None)
    with pytest.raises(ValueError):
        table_png(seats=["a", "b"], trick=[], trump=4)


# -- the reader's language -------------------------------------------------------------------

CORNER = (6, 2, 34, 32)  # the rank letter in the top left corner of a card


def corner(c: int, lang: str) -> Image.Image:
    return on_background(card_image(c, "light", lang=lang), "light").crop(CORNER)


def test_corner_letters_are_in_the_readers_language() -> None:
    """A Hungarian reads "A" as alsó (the Under): the Ace is "Á" (ász) and the Over "F"
    (felső) on the Hungarian cards, while English and German keep A, O and U."""
    for suit in SUITS:
        ace, over, under = make(suit, 0), make(suit, OVER), make(suit, UNDER)
        assert mean_diff(corner(ace, "hu"), corner(ace, "en")) > 3
        assert mean_diff(corner(over, "hu"), corner(over, "en")) > 3
        # The same letter in the same ink: the Hungarian Under is drawn as the English Ace is.
        assert mean_diff(corner(under, "hu"), corner(ace, "en")) < 0.5
        assert mean_diff(corner(under, "en"), corner(under, "de")) < 0.5
        assert mean_diff(corner(over, "ro"), corner(over, "en")) > 3  # F(ilicău), not O
    assert [cardart.corner_label(r, "hu") for r in range(8)] == [
        "Á", "10", "K", "F", "A", "9", "8", "7"]


def test_the_language_defaults_to_the_one_spoken() -> None:
    from bot.texts import speaking

    with speaking("hu"):
        hu_hand = hand_png(HAND)
        hu_table = table()
    assert hu_hand == hand_png(HAND, lang="hu") != hand_png(HAND, lang="en")
    assert hu_table == table_png(seats=SEATS, trick=TRICK, trump=HEARTS, shown=(card("HO"),),
                                 lang="hu") != table()
    assert card_image(card("EA"), lang="xx") is card_image(card("EA"), lang="en")


# -- telling the suits apart --------------------------------------------------------------------


def silhouette(suit: int, px: int, faces: str = "german") -> set[tuple[int, int]]:
    alpha = cardart.suit_sign(suit, 20, px=px, faces=faces).getchannel("A")
    return {(x, y) for x in range(px) for y in range(px)
            if cast(int, alpha.getpixel((x, y))) > 127}


@pytest.mark.parametrize("faces", FACES)
@pytest.mark.parametrize("px", [8, 10, 12])
def test_small_suit_signs_differ_by_shape(px: int, faces: str) -> None:
    """At phone size (a card 50 px wide: the corner's sign is 8 px, 10 to 12 on a larger phone)
    the signs differ by their outline, not only by colour: of the pixels either of two signs
    covers, at least a third belong to one only. (Before: leaves and bells, two round dots,
    shared all but 17 % to 21 %; acorns and bells all but 27 %.) On French faces this is what
    tells the two black suits and the two red ones apart."""
    shapes = {s: silhouette(s, px, faces) for s in SUITS}
    for a, b in itertools.combinations(SUITS, 2):
        only_one = len(shapes[a] ^ shapes[b]) / len(shapes[a] | shapes[b])
        assert only_one >= 1 / 3, f"suits {a} and {b} share {1 - only_one:.0%} at {px} px"


def luma(c: RGB) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def test_ciede2000_matches_the_published_test_data() -> None:
    """Pairs from Sharma, Wu and Dalal's table of test data (given in CIELAB)."""
    pairs = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
             ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
             ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373)]
    for first, second, expected in pairs:
        assert delta_e00(first, second) == pytest.approx(expected, abs=1e-4)
        assert delta_e00(second, first) == pytest.approx(expected, abs=1e-4)


def test_the_colour_blind_simulation_confuses_red_and_green_but_keeps_grey() -> None:
    red, green = (222, 44, 52), (62, 163, 74)
    assert ciede2000(red, green) > 60
    assert ciede2000(seen(red, "deuteranopia"), seen(green, "deuteranopia")) < 10
    assert ciede2000(seen(red, "tritanopia"), seen(green, "tritanopia")) > 40
    for vision in CVD:
        for grey in ((255, 255, 255), (128, 128, 128), (0, 0, 0)):
            assert ciede2000(seen(grey, vision), grey) < 1.5


#: The least CIEDE2000 difference between any two suits' colours, for every vision: more than
#: seven times the just noticeable difference. (The cards' own brown, green and red were 1.2
#: to 6.2 apart for a deuteranope, 10.0 for a protanope: three olive-browns.)
SUITS_APART = 15.0


@pytest.mark.parametrize("vision", ["normal", *CVD])
@pytest.mark.parametrize("theme", THEMES)
def test_four_suits_stay_apart_for_colour_blind_players(theme: str, vision: str) -> None:
    """The suit signs as a colour-blind player sees them, simulated on the drawn cards: every
    two suits' colours (the commonest colour in the middle of the Ace) stay apart in every
    theme, the default dark one included."""
    colours = {}
    for s in SUITS:
        ace = on_background(card_image(make(s, 0), theme), theme).crop((45, 75, 75, 105))
        colours[s] = cast(RGB, max(simulate(ace, vision).getcolors(maxcolors=1 << 16) or ())[1])
    apart, a, b = min((ciede2000(colours[a], colours[b]), a, b)
                      for a, b in itertools.combinations(SUITS, 2))
    assert apart >= SUITS_APART, (
        f"{theme}, {vision}: suits {a} and {b} are {apart:.1f} apart "
        f"({colours[a]} and {colours[b]})")


def test_the_four_colour_theme_differs_in_lightness() -> None:
    """The four-colour theme keeps the suits apart by lightness alone, so that they stay apart
    in grey too (no colour vision at all, a screen set to greyscale); the cards' own colours
    keep them apart by hue for colour-blind players (the test above) but not in grey."""
    assert "fourcolour" in THEMES
    four = [luma(sign_colour(s, "fourcolour")) for s in SUITS]
    for a, b in itertools.combinations(four, 2):
        assert abs(a - b) >= 30
    german = [luma(sign_colour(s, "light")) for s in SUITS]
    assert min(abs(a - b) for a, b in itertools.combinations(german, 2)) < 30
    assert mean_diff(decode(hand_png(HAND, theme="fourcolour")),
                     decode(hand_png(HAND, theme="dark"))) > 10

    def grey(theme: str) -> float:
        greys = [seen(sign_colour(s, theme), "grey") for s in SUITS]
        return min(ciede2000(a, b) for a, b in itertools.combinations(greys, 2))

    assert grey("fourcolour") >= SUITS_APART > max(grey("light"), grey("dark"))


# -- table labels -----------------------------------------------------------------------------


def count_near(img: Image.Image, colour: RGB, box: tuple[int, int, int, int]) -> int:
    return sign_pixels(img, colour, box)


def test_table_shows_whose_turn_and_who_takes_the_trick() -> None:
    base = decode(table())
    accent = themes.BY_NAME["dark"].accent
    gold = themes.GOLD[0]
    # Seat 0 sits at the bottom, its name below the middle: a blue pill when it is to play.
    turn = decode(table_png(seats=SEATS, trick=TRICK, trump=HEARTS, shown=(card("HO"),),
                            to_move=0))
    name0 = (300, 550, 500, 600)
    assert count_near(turn, accent, name0) > 200 > count_near(base, accent, name0)
    # Seat 3 (on the left) takes the trick so far: a gold frame round its card.
    wins = decode(table_png(seats=SEATS, trick=TRICK, trump=HEARTS, shown=(card("HO"),),
                            winner=3))
    left_card = (100, 210, 240, 410)
    assert count_near(wins, gold, left_card) > 300 > count_near(base, gold, left_card)
    # Captions for trump and the shown cards (over their lower edge), in the reader's language
    # (a Nine is shown: its corners are the same in both).
    en, hu = (decode(table_png(seats=SEATS, trick=TRICK, trump=HEARTS, shown=(card("H9"),),
                               lang=lang)) for lang in ("en", "hu"))
    trump_caption, shown_caption = (20, 120, 120, 150), (60, 560, 200, 588)
    assert mean_diff(hu.crop(trump_caption), en.crop(trump_caption)) > 3
    assert mean_diff(hu.crop(shown_caption), en.crop(shown_caption)) > 3
    assert mean_diff(decode(table(shown=())).crop(shown_caption), en.crop(shown_caption)) > 3
    with pytest.raises(ValueError):
        table_png(seats=SEATS, trick=TRICK, trump=None, winner=0)  # seat 0 played nothing
    with pytest.raises(ValueError):
        table_png(seats=SEATS, trick=TRICK, trump=None, to_move=4)


# -- French faces ------------------------------------------------------------------------------

FRENCH_CORNERS = {
    "en": ["A", "10", "K", "Q", "J", "9", "8", "7"],
    "de": ["A", "10", "K", "D", "B", "9", "8", "7"],  # Ass, König, Dame, Bube
    "ro": ["A", "10", "R", "D", "V", "9", "8", "7"],  # as, rege, damă, valet
    "hu": ["Á", "10", "K", "D", "B", "9", "8", "7"],  # ász, király, dáma, bubi
}


def french_corner(c: int, lang: str) -> Image.Image:
    img = card_image(c, "light", lang=lang, faces="french")
    return on_background(img, "light").crop(CORNER)


def test_french_corner_letters_are_in_the_readers_language() -> None:
    """The Ober is the Queen and the Unter the Jack on French faces: Q and J to an English
    reader, D and B (Dame, Bube) to a German one, D and V (damă, valet) with R (rege) for the
    King to a Romanian one, D and B (dáma, bubi) with Á (ász) to a Hungarian one."""
    for lang, letters in FRENCH_CORNERS.items():
        assert [cardart.corner_label(r, lang, "french") for r in range(8)] == letters
    for suit in SUITS:
        queen, jack, king = make(suit, OVER), make(suit, UNDER), make(suit, KING)
        assert mean_diff(french_corner(queen, "de"), french_corner(queen, "en")) > 3
        assert mean_diff(french_corner(jack, "ro"), french_corner(jack, "en")) > 3
        assert mean_diff(french_corner(king, "ro"), french_corner(king, "en")) > 3
        # The same letters in the same ink: German and Hungarian French cards agree on D and B.
        assert mean_diff(french_corner(queen, "hu"), french_corner(queen, "de")) < 0.5
        assert mean_diff(french_corner(jack, "hu"), french_corner(jack, "de")) < 0.5
        # And the corner is the French one, not the German faces' O or F.
        assert mean_diff(french_corner(queen, "en"), corner(queen, "en")) > 3


def blobs(img: Image.Image, face: RGB) -> list[int]:
    """The sizes of the separate marks (4-connected pixels clearly off the card's colour) in
    the middle of a card, its corner indexes left out."""
    w, h = img.size
    ink = {(x, y) for x in range(3, w - 3) for y in range(3, h - 3)  # inside the card's edge
           if not (x < 40 and y < 60) and not (x >= w - 40 and y >= h - 60)
           and close(cast(RGB, img.getpixel((x, y))), face) > 90}
    sizes = []
    while ink:
        todo = [ink.pop()]
        size = 0
        while todo:
            x, y = todo.pop()
            size += 1
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in ink:
                    ink.remove(n)
                    todo.append(n)
        sizes.append(size)
    return [n for n in sizes if n >= 10]


@pytest.mark.parametrize("theme", THEMES)
def test_a_french_number_card_shows_as_many_signs_as_it_counts(theme: str) -> None:
    """Ten signs on the Ten, nine on the Nine, eight, seven, one on the Ace, each whole and
    apart from the others (French cards lay them out 4 + 2 + 4, 4 + 1 + 4, 3 + 2 + 3,
    3 + 1 + 3)."""
    face = themes.BY_NAME[theme].face
    for suit in SUITS:
        for rank, count in ((TEN, 10), (NINE, 9), (EIGHT, 8), (SEVEN, 7), (ACE, 1)):
            c = make(suit, rank)
            img = on_background(card_image(c, theme, faces="french"), theme)
            marks = blobs(img, face)
            assert len(marks) == count, f"{code(c)} on {theme}: {len(marks)} marks"


def pip_box(col: int, row: int) -> Box:
    """Where the French pip of column ``col`` (-1, 0, 1) and row ``row`` (0..1) lies."""
    x = 60 + col * 17
    y = 35 + row * 110
    return (x - 10, round(y) - 10, x + 10, round(y) + 10)


@pytest.mark.parametrize("suit", SUITS)
def test_french_pips_of_the_lower_half_are_upside_down(suit: int) -> None:
    """As on French cards, the signs below the middle point the other way: the Ten's bottom
    left sign is its top left one turned round (and not the same way up), and so on."""
    img = on_background(card_image(make(suit, TEN), "light", faces="french"), "light")
    for col in (-1, 1):
        top = img.crop(pip_box(col, 0))
        bottom = img.crop(pip_box(col, 1))
        turned = bottom.transpose(Image.Transpose.ROTATE_180)
        assert mean_diff(top, turned) < 8  # the same sign (but for its pixels' rounding)
        if suit != BELLS:  # a diamond is the same either way up
            assert mean_diff(top, bottom) > 4 * mean_diff(top, turned) + 20
    german = on_background(card_image(make(suit, TEN), "light"), "light")
    up, down = german.crop((37, 22, 57, 42)), german.crop((37, 138, 57, 158))
    if suit in (HEARTS, LEAVES):  # German pips all stand upright
        assert mean_diff(up, down) < mean_diff(up, down.transpose(Image.Transpose.ROTATE_180))


#: A French court's frame, and its upper half (the figure) and lower half (turned round).
FRAME: Box = (34, 20, 86, 160)


@pytest.mark.parametrize("suit", SUITS)
def test_french_courts_are_double_ended(suit: int) -> None:
    """The King, Queen and Jack are half-length figures drawn twice, the lower one turned
    round, as French courts are (a German King, Ober and Unter stand whole, once); the three
    differ in their heads: a crown with points, a rounded diadem over long hair, a cap."""
    x0, y0, x1, y1 = FRAME
    mid = (y0 + y1) // 2
    heads = {}
    for rank in (KING, OVER, UNDER):
        img = on_background(card_image(make(suit, rank), "light", faces="french"), "light")
        upper = img.crop((x0 + 2, y0 + 2, x1 - 2, mid - 2))
        lower = img.crop((x0 + 2, mid + 2, x1 - 2, y1 - 2)).transpose(Image.Transpose.ROTATE_180)
        assert mean_diff(upper, lower) < 2, f"{code(make(suit, rank))}: not double-ended"
        heads[rank] = img.crop((x0, y0, x1, y0 + 36))
        german = on_background(card_image(make(suit, rank), "light"), "light")
        g_upper = german.crop((x0 + 2, y0 + 2, x1 - 2, mid - 2))
        g_lower = german.crop((x0 + 2, mid + 2, x1 - 2, y1 - 2))
        assert mean_diff(g_upper, g_lower.transpose(Image.Transpose.ROTATE_180)) > 10
    for a, b in itertools.combinations(heads, 2):
        diff = ImageChops.difference(heads[a], heads[b]).convert("L")
        assert sum(diff.histogram()[48:]) >= 80, f"ranks {a} and {b}: heads alike"


BLACK, RED = (ACORNS, LEAVES), (HEARTS, BELLS)  # clubs and spades; hearts and diamonds


@pytest.mark.parametrize("vision", ["normal", *CVD, "grey"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_french_black_and_red_stay_apart_for_colour_blind_players(theme: str,
                                                                   vision: str) -> None:
    """French faces in the light and dark themes are two-coloured, as French cards are: clubs
    and spades share one colour, hearts and diamonds another (their shapes tell them apart:
    ``test_small_suit_signs_differ_by_shape``), and the two colours stay clearly apart for
    every colour vision, in grey too."""
    colours = {s: seen(sign_colour(s, theme, "french"), vision) for s in SUITS}
    assert close(colours[BLACK[0]], colours[BLACK[1]]) <= 6
    assert close(colours[RED[0]], colours[RED[1]]) <= 6
    apart = ciede2000(colours[BLACK[0]], colours[RED[0]])
    assert apart >= SUITS_APART, f"{theme}, {vision}: black and red {apart:.1f} apart"


@pytest.mark.parametrize("vision", ["normal", *CVD, "grey"])
def test_french_four_colour_suits_stay_apart_for_colour_blind_players(vision: str) -> None:
    """The four-colour theme's French faces: green clubs, black spades, vermilion hearts,
    orange diamonds, every two at least 15 CIEDE2000 apart for every colour vision and in
    grey (four lightnesses)."""
    colours = {s: seen(sign_colour(s, "fourcolour", "french"), vision) for s in SUITS}
    apart, a, b = min((ciede2000(colours[a], colours[b]), a, b)
                      for a, b in itertools.combinations(SUITS, 2))
    assert apart >= SUITS_APART, f"{vision}: suits {a} and {b} are {apart:.1f} apart"
    green, orange = sign_colour(ACORNS, "fourcolour", "french"), sign_colour(BELLS,
                                                                            "fourcolour",
                                                                            "french")
    assert green[1] > green[0] + 40 and green[1] > green[2]  # clubs green
    assert orange[0] > orange[1] > orange[2] + 60  # diamonds orange


def test_the_table_draws_the_trump_sign_and_cards_with_the_faces() -> None:
    """The trump badge and every card on the table change with the faces; the names, labels
    and felt do not."""
    german = decode(table())
    french = decode(table_png(seats=SEATS, trick=TRICK, trump=HEARTS, shown=(card("HO"),),
                              theme="dark", faces="french"))
    badge = (32, 32, 108, 108)
    assert mean_diff(german.crop(badge), french.crop(badge)) > 3
    names = (250, 25, 550, 64)  # seat 2's name, at the top, above its card
    assert mean_diff(german.crop(names), french.crop(names)) == 0


# -- golden images ----------------------------------------------------------------------------

GOLDEN_CASES = {
    "hand_light": lambda: hand_png(HAND, theme="light", playable=PLAYABLE),
    "hand_dark": lambda: hand_png(HAND, theme="dark", playable=PLAYABLE),
    "hand16_dark": lambda: hand_png(PACK_32[::2], theme="dark"),
    "table_dark": lambda: table(theme="dark"),
    "table6_light": lambda: table_png(
        seats=("Ana", "Béla 🌻", "Cami", "Dorin", "Ede", "Fanni"),
        trick=[(4, card("SO")), (5, card("GU")), (0, card("HA"))], trump=None,
        shown=(card("S9"), card("G7")), theme="light", winner=5),
    "hand_fourcolour": lambda: hand_png(HAND, theme="fourcolour", playable=PLAYABLE),
    "table_hu_fourcolour": lambda: table_png(
        seats=("Ana", "Béla", "Ștefan", "Őrs"), trick=TRICK, trump=HEARTS,
        shown=(card("HO"),), theme="fourcolour", to_move=0, winner=3, lang="hu"),
    "hand_french_light": lambda: hand_png(HAND, theme="light", playable=PLAYABLE,
                                          faces="french"),
    "hand_french_dark_de": lambda: hand_png(HAND, theme="dark", playable=PLAYABLE, lang="de",
                                            faces="french"),
    "hand_french_fourcolour_hu": lambda: hand_png(HAND, theme="fourcolour", playable=PLAYABLE,
                                                  lang="hu", faces="french"),
    "pack_french_dark_ro": lambda: hand_png(PACK_32, theme="dark", lang="ro", faces="french"),
    "table_french_de_dark": lambda: table_png(
        seats=("Ana", "Béla", "Ștefan", "Őrs"), trick=TRICK, trump=BELLS,
        shown=(card("EO"),), theme="dark", to_move=0, winner=3, lang="de", faces="french"),
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


# -- the developers' tool ---------------------------------------------------------------------


def load_tool() -> Any:
    """``tools/card_pictures.py`` (a script, not a package)."""
    path = Path(__file__).resolve().parent.parent / "tools" / "card_pictures.py"
    spec = importlib.util.spec_from_file_location("card_pictures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_card_pictures_tool_says_what_it_wrote(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool()
    root = Path(__file__).resolve().parent.parent
    assert root not in tool.DEFAULT_OUT.parents  # no stray folder in the checkout by default
    # --out: per theme, the pack, a hand and five tables with German faces, the pack, a hand
    # and a table with French ones; --docs: docs/pictures.md's pictures.
    for option, count in (("--out", (7 + 3) * len(THEMES)), ("--docs", 36)):
        folder = tmp_path / option.strip("-")
        assert tool.main([option, str(folder)]) == 0
        printed = capsys.readouterr().out.splitlines()
        written = sorted(folder.iterdir())
        assert len(written) == count
        assert sorted(printed[:-1]) == [str(p) for p in written]
        assert printed[-1] == f"{count} pictures in {folder}"
        for p in written:
            assert p.read_bytes().startswith(b"\x89PNG")
    assert tool.main(["--bench", "--runs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "CPU ms per image, median of 1"
    rows = [line.split() for line in lines[2:]]
    assert [(row[0], row[-4] if row[0] != "card_image" else row[1]) for row in rows] == [
        (image, faces) for image in ("hand_png,", "hand_png,", "table_png,", "table_png,")
        for faces in FACES] + [("card_image", faces) for faces in FACES]
