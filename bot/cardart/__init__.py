"""Card pictures: the cards drawn with Pillow from simple shapes, with German or French faces.

Pure functions, plain data in, pictures out (no Discord here): ``card_image`` gives one card
face, ``hand_png`` a player's hand with the index numbers of its buttons, ``table_png`` the
trick in progress around a table, ``ranking_png`` a game's cards from high to low. Everything
is drawn from polygons, ellipses and lines, supersampled (4x for cards, 2x for the table) and
scaled down so the edges are smooth. Text is set in DejaVu Sans, shipped in ``bot/fonts`` (a
subset: Latin with every accent, Greek, Cyrillic), so names keep their accents ("Ștefan",
"Őrs"), and the emoji of names in Noto Emoji (monochrome, shipped beside it; licences in
``bot/fonts/LICENSE.txt``): "Ana 🌻" keeps her sunflower. What neither font has (🂡) is
dropped. The same input always gives the same bytes.

>>> from engine.cards import card
>>> card_image(card("SA"), "light", faces="french").size
(120, 180)
>>> corner_label(card("EU") % 8, "en", "french"), corner_label(card("EU") % 8, "en")
('J', 'U')

- Faces (``FACES``): the same card code is drawn as a German-suited card (``"german"``, the
  default: acorns, leaves, hearts, bells; King, Ober, Unter; ``bot.cardart.german``) or a
  French-suited one (``"french"``: clubs for E, spades for G, hearts, diamonds for S; King,
  Queen for the Ober, Jack for the Unter; ``bot.cardart.french``). A game declares the faces
  it is played with (``Rules.faces``: Doppelkopf French, the others German) and a server may
  choose otherwise (``faces_for``).
- Ranks: the rank in the two corners as the reader's language names it (``corner_label``,
  from the catalogs: Á K F A in Hungarian on German faces, where "A" is the Under, *alsó*;
  A K Q J in English, A K D B in German, A R D V in Romanian and Á K D B in Hungarian on
  French faces) above the suit sign.
- Sizes are for a 2x screen (a card is 120x180 px and is shown about 60x90), so that pictures
  stay sharp on phones and desktops when Discord scales them down.
- Themes: ``"light"`` (white cards on Discord's light grey), ``"dark"`` (slate cards on
  Discord's dark grey, the default) and ``"fourcolour"`` (white cards on dark grey; German
  faces: black acorns, dark blue-green leaves, vermilion hearts, yellow bells; French faces:
  green clubs, black spades, vermilion hearts, orange diamonds); the picture is opaque, so it
  reads in either client theme. In every theme a colour-blind player (red-green or
  blue-yellow) tells the suits apart: on German faces the four by colour (the leaves are
  blue-green and the acorns differ from the hearts in lightness), on French faces the black
  from the red by colour and the two of a colour by shape, as on any French card. The
  four-colour theme goes further: its four suits differ in lightness alone, so they stay
  apart in grey too. Cards that cannot be played are half greyed and lowered, their corners
  kept above 3:1 contrast.
- The table labels the trump sign and the shown cards, puts each name by its own card (at
  five and six seats the side seats' names beside their cards, toward the rim), the name of
  the seat to move on a blue pill with an arrow, and frames the card that takes the trick so
  far in gold.

The package: ``pen`` draws in card units, ``themes`` holds the colours, ``german`` and
``french`` draw each deck's signs, pips and figures, ``cards`` a whole face with its corners,
``text`` names and labels, ``hands`` rows of cards, ``table`` the table.

Speed (``tools/card_pictures.py --bench``: CPU time per image, median of 15, Pillow 13 on the
project's 2-core VM, both faces in one run; CPU time, because wall time on this shared VM
drifted up to 3x while other jobs ran. This run had a load of 13 on the two cores, which slows
even CPU time: a quiet run before the French faces gave the German ones 54, 90, 53, 65 and 4 ms
cold):

======================================  ======  ======  ===========  =======
image                                   faces     cold  cards known   cached
======================================  ======  ======  ===========  =======
``hand_png``, 8 cards (one row)         german   68 ms        14 ms  0.03 ms
``hand_png``, 8 cards (one row)         french  104 ms        13 ms  0.03 ms
``hand_png``, 16 cards (two rows)       german  134 ms        28 ms  0.03 ms
``hand_png``, 16 cards (two rows)       french  176 ms        31 ms  0.03 ms
``table_png``, 4 seats, 3 cards played  german   85 ms        28 ms  0.04 ms
``table_png``, 4 seats, 3 cards played  french   84 ms        20 ms  0.04 ms
``table_png``, 6 seats, 5 cards played  german   67 ms        22 ms  0.04 ms
``table_png``, 6 seats, 5 cards played  french  103 ms        31 ms  0.04 ms
``card_image``, one face                german    6 ms            -        -
``card_image``, one face                french    9 ms            -        -
======================================  ======  ======  ===========  =======

*cold*: nothing cached, every card face drawn (happens once per face, faces, theme and
language: 64 faces, about 0.3 s in all with German faces, 0.5 s with French ones, whose signs
are each drawn through a mask shrunk for the outline); *cards known*: the faces are cached but
the picture is new (the usual case: a card less, another set of playable cards): the same for
both; *cached*: the same picture again.
"""

from __future__ import annotations

from typing import Final, Protocol

from bot.cardart import cards as _cards
from bot.cardart import hands as _hands
from bot.cardart import table as _table
from bot.cardart import text as _text
from bot.cardart.cards import card_image, corner_label, suit_sign
from bot.cardart.hands import hand_png, ranking_png
from bot.cardart.pen import CARD_H, CARD_W
from bot.cardart.table import table_png
from bot.cardart.themes import FACES, THEMES

__all__ = ["AS_PLAYED", "CARD_H", "CARD_W", "FACES", "THEMES", "card_image", "clear_caches",
           "corner_label", "faces_for", "hand_png", "ranking_png", "suit_sign", "table_png"]

#: A server's faces setting that draws each game with the faces it is played with
#: (``Rules.faces``); the other settings are the faces themselves (``FACES``).
AS_PLAYED: Final = "game"


class _Played(Protocol):
    @property
    def faces(self) -> str: ...


def faces_for(rules: _Played, chosen: str = AS_PLAYED) -> str:
    """The faces a picture of a game is drawn with: the server's ``chosen`` faces, or with
    ``AS_PLAYED`` (the default) those the game declares (``rules.faces``, a ``Rules`` class or
    instance).

    >>> class Doppelkopf:
    ...     faces = "french"
    >>> faces_for(Doppelkopf), faces_for(Doppelkopf, "german")
    ('french', 'german')
    """
    faces = rules.faces if chosen == AS_PLAYED else chosen
    if faces not in FACES:
        raise ValueError(f"unknown faces {faces!r}; use one of {FACES}")
    return faces


def clear_caches(*, cards: bool = True) -> None:
    """Forget the pictures drawn so far and, with ``cards``, the card faces and the other
    pieces they are made of too (for timing the first picture of a kind,
    ``tools/card_pictures.py --bench``)."""
    _hands.clear_caches()
    _table.clear_caches(pieces=cards)
    if cards:
        _cards.clear_caches()
        _text.pill.cache_clear()
