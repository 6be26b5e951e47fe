"""Doppelkopf's decisions and games in plain English, as the terminal game says them
(``Rules.kind_words``); the bot's catalogs word them the same way (``act.KIND``,
``word.GAME``), German with the words Doppelkopf players use.

>>> GAME_WORDS["herzsolo"], RESERVATION_WORDS["hochzeit"], ANSAGE_WORDS["keine_90"]
('Herz-Solo (hearts)', 'Hochzeit (you hold both EO)', 'keine 90')
"""

from __future__ import annotations

from engine.rules.doppelkopf.games import SOLO_WORDS as SOLO_NAMES
from engine.rules.doppelkopf.kinds import (
    ANSAGE,
    GESUND,
    GIVE_BACK,
    LAY,
    SOLO_TYPE,
    TAKE,
    VORBEHALT_KIND,
    WEITER,
)
from engine.words import KindWords

#: The solos by their German names (D6.1), with the trump suit in English.
SOLO_WORDS = {
    "damen": "Damensolo (only the Queens are trumps)",
    "buben": "Bubensolo (only the Jacks are trumps)",
    "kreuz": "Kreuz-Solo (clubs)",
    "pik": "Pik-Solo (spades)",
    "herz": "Herz-Solo (hearts)",
    "karo": "Karo-Solo (diamonds, the normal trumps)",
    "fleischlos": "Fleischloser (no trumps)",
}
RESERVATION_WORDS = {
    **SOLO_WORDS,
    "hochzeit": "Hochzeit (you hold both EO)",
    "armut": "Armut (pass your trumps on)",
}
GAME_WORDS = {
    "normalspiel": "a normal game",
    "stille_hochzeit": "a stille Hochzeit",
    "hochzeit": "a Hochzeit",
    "hochzeit_solo": "a Hochzeit turned Karo-Solo",
    "armut": "an Armut",
    **{SOLO_NAMES[k]: v for k, v in SOLO_WORDS.items()},
}
ANSAGE_WORDS = {"re": "Re", "kontra": "Kontra", "keine_90": "keine 90",
                "keine_60": "keine 60", "keine_30": "keine 30", "schwarz": "schwarz"}

KIND_WORDS = {
    GESUND: KindWords("gesund (no Vorbehalt)", "{who} is gesund"),
    VORBEHALT_KIND: KindWords(
        "Vorbehalt: {value}", "{who} says Vorbehalt: {value}",
        "Vorbehalt: you want to play a solo (alone against the other three), a Hochzeit "
        "(holding both EO: the first other player to win one of the first three tricks is "
        "your partner) or an Armut; the others only hear \"Vorbehalt\". A Pflichtsolo beats a "
        "Lustsolo, which beats an Armut, which beats a Hochzeit; then the seat nearer "
        "forehand.",
        hidden="{who} says Vorbehalt", mine="You say Vorbehalt: {value}",
        values=RESERVATION_WORDS),
    SOLO_TYPE: KindWords(
        "{value}", "{who} plays {value}",
        "Your Pflichtsolo is vorgeführt: name the solo you play against {others}; you lead.",
        values=SOLO_WORDS),
    LAY: KindWords("lay aside {value}", "{who} lays aside {value}",
                   "Armut: lay aside all your trumps, made up to three cards with plain ones.",
                   hidden="{who} lays three cards aside for the Armut"),
    TAKE: KindWords("take the Armut", "{who} takes the Armut",
                    "Taking the Armut: you get the three cards, give three back of your "
                    "choice, and play together."),
    WEITER: KindWords("Weiter (do not take it)", "{who} does not take the Armut"),
    GIVE_BACK: KindWords("give back {value}", "{who} gives back {value}",
                         hidden="{who} gives three cards back"),
    ANSAGE: KindWords(
        "announce {value}", "{who} announces {value}",
        "Announcing: Re (or Kontra) says your party will win, and is worth 2 points more; "
        "keine 90 says the others will not make 90 Augen, and so on to schwarz, each a "
        "point more and binding: your party then needs 151 (keine 60: 181...).",
        mine="You announce {value}", values=ANSAGE_WORDS),
}
