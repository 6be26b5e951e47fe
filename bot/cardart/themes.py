"""The colours of the pictures: three themes (light, dark, four-colour), each with the colours
of both decks' suit signs (German and French faces), chosen so that colour-blind players
still tell the suits apart (``tests/test_cardart.py`` simulates their vision on the drawn
cards).

>>> theme_of("dark").face
(64, 67, 75)
>>> len(theme_of("fourcolour").french.sign)  # clubs, spades, hearts, diamonds
4
>>> theme_of("blue")
Traceback (most recent call last):
...
ValueError: unknown theme 'blue'; use one of ('light', 'dark', 'fourcolour')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.cardart.pen import RGB

THEMES: Final = ("light", "dark", "fourcolour")
#: The decks a card can be drawn in: the same card (``EO`` is the Ober of acorns, or the Queen
#: of clubs) with German or French faces.
FACES: Final = ("german", "french")


@dataclass(frozen=True)
class GermanPalette:
    """The colours of the German suit signs and of the figures' clothes."""

    nut: tuple[RGB, RGB, RGB]  # acorn: fill, outline, shine
    cup: tuple[RGB, RGB]  # acorn's cup: fill, outline
    leaf: tuple[RGB, RGB]
    heart: tuple[RGB, RGB, RGB]
    bell: tuple[RGB, RGB, RGB, RGB]  # fill, outline, band, shine
    robe: tuple[RGB, RGB, RGB, RGB]  # per suit
    ink: tuple[RGB, RGB, RGB, RGB]  # the corners' rank letters, per suit


#: The cards' own colours, shifted so that a colour-blind player still tells four suits apart:
#: the leaves are blue-green (teal), which stays blue for a red-green colour-blind eye, where
#: the old grass green turned the same olive-brown as the acorns and the hearts; the acorns are
#: far darker than the hearts on white cards (lighter on the dark theme's slate cards), so that
#: those two, both yellowish to such an eye, still differ in lightness. Every two suits stay at
#: least 15 CIEDE2000 apart under simulated protanopia, deuteranopia and tritanopia
#: (``tests/test_cardart.py``; before: 1.2 between acorns and hearts for a deuteranope).
GERMAN: Final = GermanPalette(  # on white cards
    nut=((72, 48, 24), (36, 22, 8), (156, 118, 80)), cup=((128, 94, 56), (36, 22, 8)),
    leaf=((0, 144, 144), (0, 78, 80)), heart=((216, 80, 48), (128, 30, 10), (255, 172, 150)),
    bell=((240, 200, 0), (128, 90, 0), (196, 140, 0), (255, 236, 150)),
    robe=((112, 74, 38), (0, 122, 124), (196, 64, 40), (232, 184, 20)),
    ink=((72, 48, 24), (0, 116, 118), (196, 58, 28), (156, 110, 0)),
)
#: The same on the dark theme's slate cards: light tan acorns, lighter gold bells.
GERMAN_DARK: Final = GermanPalette(
    nut=((184, 144, 120), (96, 66, 44), (236, 212, 192)), cup=((124, 92, 66), (70, 48, 30)),
    leaf=((0, 144, 160), (0, 70, 82)), heart=((208, 56, 24), (112, 20, 0), (255, 150, 128)),
    bell=((248, 216, 104), (122, 90, 10), (200, 150, 40), (255, 246, 200)),
    robe=((150, 112, 82), (0, 120, 134), (186, 48, 26), (236, 196, 80)),
    ink=((214, 178, 152), (80, 200, 214), (255, 112, 84), (250, 214, 100)),
)
#: Four colours far apart in lightness as well as hue, on white cards: black acorns, dark
#: blue-green leaves, light vermilion hearts, yellow bells (after the Okabe-Ito palette). Where
#: the cards' own colours above keep the suits apart for red-green and blue-yellow colour
#: blindness, these keep them apart by lightness alone: in grey (no colour vision at all, a
#: phone's screen in the sun or set to greyscale) they stay at least 15 CIEDE2000 apart too.
GERMAN_FOUR: Final = GermanPalette(
    nut=((28, 26, 26), (0, 0, 0), (120, 112, 106)), cup=((12, 12, 12), (0, 0, 0)),
    leaf=((0, 100, 80), (0, 48, 38)), heart=((235, 80, 30), (120, 30, 0), (255, 180, 150)),
    bell=((246, 212, 40), (96, 72, 0), (150, 110, 0), (255, 244, 170)),
    robe=((70, 68, 72), (0, 112, 90), (222, 74, 30), (232, 190, 30)),
    ink=((24, 22, 22), (0, 96, 76), (204, 60, 16), (150, 108, 0)),
)


@dataclass(frozen=True)
class FrenchPalette:
    """The colours of the French suit signs, per suit in the engine's order (clubs = E,
    spades = G, hearts = H, diamonds = S), and of the court figures' clothes."""

    sign: tuple[tuple[RGB, RGB], tuple[RGB, RGB], tuple[RGB, RGB], tuple[RGB, RGB]]  # fill, line
    robe: tuple[RGB, RGB, RGB, RGB]
    ink: tuple[RGB, RGB, RGB, RGB]


_BLACK: Final = ((30, 30, 34), (0, 0, 0))
_RED: Final = ((220, 50, 32), (120, 20, 8))
#: Black clubs and spades, red hearts and diamonds, as French cards are: the two colours stay
#: at least 29 CIEDE2000 apart for every colour vision and in grey (the red is a vermilion,
#: lighter than a crimson, so that a protanope's darker red stays clear of the black); the
#: two suits of one colour differ by shape, as on every French card.
FRENCH: Final = FrenchPalette(
    sign=(_BLACK, _BLACK, _RED, _RED),
    robe=((40, 80, 170), (56, 56, 64), (196, 48, 36), (214, 140, 30)),
    ink=((30, 30, 34), (30, 30, 34), (204, 40, 24), (204, 40, 24)),
)
#: On the dark theme's slate cards the black suits are drawn light, as a dark screen shows
#: black text: light grey clubs and spades, a lighter red (at least 26 CIEDE2000 apart for
#: every colour vision, the least in grey).
FRENCH_DARK: Final = FrenchPalette(
    sign=(((226, 228, 234), (120, 122, 130)), ((226, 228, 234), (120, 122, 130)),
          ((240, 72, 56), (110, 20, 8)), ((240, 72, 56), (110, 20, 8))),
    robe=((70, 100, 200), (176, 178, 188), (200, 56, 40), (222, 150, 50)),
    ink=((226, 228, 234), (226, 228, 234), (255, 112, 96), (255, 112, 96)),
)
#: The four-colour French deck: green clubs and orange diamonds beside black spades and red
#: hearts (four-colour French packs make clubs green and diamonds blue or orange; orange is
#: nearer the yellow diamonds of the German tournament pack Doppelkopf players know, and
#: leaves room in lightness). Four lightnesses (black 6, green 34, vermilion 56, orange 80
#: in CIELAB), so that they stay at least 15 CIEDE2000 apart for every colour vision and in
#: grey (16 for a protanope, between the green and the vermilion).
FRENCH_FOUR: Final = FrenchPalette(
    sign=(((0, 92, 58), (0, 44, 26)), ((20, 20, 24), (0, 0, 0)),
          ((235, 80, 30), (120, 30, 0)), ((250, 190, 40), (150, 96, 0))),
    robe=((0, 108, 70), (56, 56, 64), (222, 74, 30), (236, 170, 30)),
    ink=((0, 92, 58), (20, 20, 24), (214, 64, 16), (176, 112, 0)),
)


@dataclass(frozen=True)
class Theme:
    bg: RGB
    text: RGB
    muted: RGB
    face: RGB
    edge: RGB
    line: RGB  # outlines of the figures
    shadow: int  # alpha of the shadow under a card
    felt: RGB
    felt_line: RGB
    rim: RGB
    label_bg: RGB
    label_text: RGB
    accent: RGB  # playable index numbers: the colour of Discord's primary buttons
    accent_text: RGB
    german: GermanPalette = GERMAN
    french: FrenchPalette = FRENCH
    #: How much of the background veils a card that cannot be played: little on the dark
    #: theme, whose cards are close to the background already.
    veil: float = 0.15


BY_NAME: Final = {
    "light": Theme(
        bg=(242, 243, 245), text=(49, 51, 56), muted=(128, 132, 142),
        face=(255, 255, 255), edge=(148, 152, 160), line=(60, 50, 48),
        shadow=70, felt=(46, 125, 82), felt_line=(98, 168, 126), rim=(122, 84, 52),
        label_bg=(255, 255, 255), label_text=(32, 34, 38),
        accent=(88, 101, 242), accent_text=(255, 255, 255),
    ),
    "dark": Theme(
        bg=(43, 45, 49), text=(219, 222, 225), muted=(148, 152, 162),
        face=(64, 67, 75), edge=(128, 132, 142), line=(22, 22, 26),
        shadow=120, felt=(28, 78, 52), felt_line=(58, 118, 84), rim=(70, 50, 36),
        label_bg=(30, 31, 34), label_text=(230, 232, 235),
        accent=(88, 101, 242), accent_text=(255, 255, 255), german=GERMAN_DARK,
        french=FRENCH_DARK, veil=0.06,
    ),
    # White cards (the four colours need a light face) on Discord's dark grey.
    "fourcolour": Theme(
        bg=(43, 45, 49), text=(219, 222, 225), muted=(148, 152, 162),
        face=(255, 255, 255), edge=(150, 154, 162), line=(60, 50, 48),
        shadow=120, felt=(28, 78, 52), felt_line=(58, 118, 84), rim=(70, 50, 36),
        label_bg=(30, 31, 34), label_text=(230, 232, 235),
        accent=(88, 101, 242), accent_text=(255, 255, 255), german=GERMAN_FOUR,
        french=FRENCH_FOUR,
    ),
}


def theme_of(theme: str) -> Theme:
    try:
        return BY_NAME[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}; use one of {THEMES}") from None


def check_faces(faces: str) -> str:
    """``faces`` if it names a deck (``FACES``), else a ValueError."""
    if faces not in FACES:
        raise ValueError(f"unknown faces {faces!r}; use one of {FACES}")
    return faces


# The figures' colours, the same in every theme (the clothes take the suit's colour).
SKIN: Final = (242, 204, 170)
HAIR: Final = (112, 72, 40)
TRIM: Final = (246, 240, 226)
GOLD: Final = ((244, 198, 52), (150, 104, 8))
RUBY: Final = (222, 44, 52)  # the jewel of a crown
