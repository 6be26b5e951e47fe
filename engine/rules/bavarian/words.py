"""Bavarian Schafkopf's decisions and games in plain English, as the terminal game says them
(``Rules.kind_words``, ``Rules.early_reasons``); the bot's English catalog words them the
same way (``word.GAME``, ``act.KIND.VALUE``).

>>> GAME_WORDS["sauspiel_G"], GAME_WORDS["solo_tout_H"], CLASS_WORDS["rufspiel"]
('Sauspiel with the leaves Ace (die Blaue)', 'Solo Tout in hearts', 'Sauspiel (or Hochzeit)')
"""

from __future__ import annotations

from engine.cards import SUIT_LETTERS, SUIT_NAMES
from engine.rules.bavarian.games import (
    ALL_CONTRACTS,
    BETTEL,
    CLASSES,
    FARBGEIER,
    FARBWENZ,
    GEIER,
    HOCHZEIT,
    RAMSCH,
    RUFSPIEL,
    SAUSPIEL,
    SIE,
    SOLO,
    WENZ,
    Contract,
)
from engine.rules.bavarian.kinds import (
    BID,
    CLAIM,
    DAD,
    GAME,
    GIVE,
    HEIRATEN,
    KLOPFEN,
    STOSS,
    WEITER,
)
from engine.words import KindWords

#: Each kind of game by its German name, as players of every language call it.
KIND_NAMES = {SAUSPIEL: "Sauspiel", HOCHZEIT: "Hochzeit", BETTEL: "Bettel",
              FARBGEIER: "Farbgeier", GEIER: "Geier", FARBWENZ: "Farbwenz", WENZ: "Wenz",
              SOLO: "Solo", SIE: "Sie", RAMSCH: "Ramsch"}
#: The callable Aces by their suit, in English, with the nickname Bavarian players give them.
CALLED_ACES = {"E": "the acorn Ace (die Alte)", "G": "the leaves Ace (die Blaue)",
               "S": "the bells Ace (die Hundsgfickte)"}


def game_words(contract: Contract) -> str:
    """``Sauspiel with the acorn Ace (die Alte)``, ``Wenz Tout``, ``Farbwenz in bells``."""
    name = KIND_NAMES[contract.kind] + (" Tout" if contract.tout else "")
    if contract.suit is None:
        return name
    letter = SUIT_LETTERS[contract.suit]
    if contract.kind == SAUSPIEL:
        return f"{name} with {CALLED_ACES[letter]}"
    return f"{name} in {SUIT_NAMES[contract.suit]}"


#: Every game a player may declare (``{"game": ...}``), in words.
GAME_WORDS = {c.name: game_words(c) for c in ALL_CONTRACTS}
#: Every class of game named in the clarification (``{"class": ...}``), in words.
CLASS_WORDS = {c: "Sauspiel (or Hochzeit)" if c == RUFSPIEL else
               " ".join(KIND_NAMES.get(part, part.capitalize()) for part in c.split("_"))
               for c in CLASSES}
#: The doublings, from the first (B10.2).
STOSS_WORDS = {1: "Kontra", 2: "Re", 3: "Sup", 4: "Hirsch", 5: "a fifth doubling",
               6: "a sixth doubling"}

KIND_WORDS = {
    WEITER: KindWords("Weiter (pass)", "{who} says Weiter"),
    DAD: KindWords(
        "I dad (I play)", "{who} says I dad: wants to play",
        "I dad (\"I play\"): you want to play a game, which you name once everybody has "
        "spoken; if several want to play, the higher game wins, then the seat nearer "
        "forehand."),
    KLOPFEN: KindWords(
        "knock", "{who} knocks",
        "Knocking, seeing only your first cards, doubles whatever the hand becomes; it does "
        "not oblige you to play."),
    BID: KindWords(
        "name {value}", "{who} names {value}",
        "Several want to play: name a game higher than the one standing (the earlier seat "
        "keeps its place with one at least as high), or give way with Weiter.",
        values=CLASS_WORDS),
    GAME: KindWords(
        "{value}", "{who} plays {value}",
        "Name your game: in a Sauspiel you call an Ace you lack, never hearts, and its holder "
        "is your hidden partner; in any other game you play alone against {others}.",
        values=GAME_WORDS),
    HEIRATEN: KindWords("marry (Heiraten): take the trump", "{who} marries and takes the trump",
                        "Marrying: you take the lone trump and give back a card that is no "
                        "trump; you two then play together against the other two."),
    GIVE: KindWords("give back {value}", "{who} gives back {value}",
                    hidden="{who} gives one card back face down"),
    STOSS: KindWords(
        "{value}", "{who} says {value}",
        "Kontra doubles the game's value; after a Kontra the declarer's side may double "
        "again with Re. The hidden partner is asked too, and may only say Weiter.",
        mine="You say {value}", values=STOSS_WORDS),
    CLAIM: KindWords(
        "lay down: the rest is mine", "{who} lays the hand down and claims the rest",
        "Laying down: on lead, before the trick's first card, you may claim every trick "
        "left. It is checked against every hand; if it is wrong, your hand stays open and "
        "play goes on.",
        mine="You lay your hand down and claim the rest"),
}

#: Why a deal stopped before its last trick (``HandResult.early_reason``).
EARLY_REASONS = {
    "tout_lost": "the Tout was lost at the first trick the opponents took",
    "bettel_lost": "the Bettel was lost at the first trick the declarer took",
    "claimed": "the rest was laid down and claimed, checked against every hand",
}
