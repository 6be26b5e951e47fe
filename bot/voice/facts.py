"""A game's own facts (``Rules.public_info`` / ``private_info``) worded for players.

The engine gives plain data: seats, card codes, suit letters, words. Each key known here has a
sentence in the catalog (``info.KEY`` / ``private.KEY``) and a way to fill it in (seats become
the players, cards and suits their segments); a key not known is shown plainly, so a new game
still renders before its texts are written.

>>> from engine import make_rules
>>> from bot.texts import speaking
>>> from bot.voice.table import Table
>>> table = Table("filko5", make_rules("filko5"), 1, ("1", "2", "3", "4", "5"),
...               names={"1": "Ana"})
>>> with speaking("en"):
...     [line.plain for line in public_lines(table, {"old_man": 0, "partner_card": "GA"})]
['Old Man: Ana', "Partner's card: 🍃\xa0A"]
"""

from __future__ import annotations

import contextlib
from functools import lru_cache
from typing import Any

from bot.texts import card_label, current_language, has_text, suit_label, t, team_name
from bot.voice.table import Table
from bot.voice.text import Card, Number, Person, Segment, Suit, Text, say
from engine.cards import SUIT_LETTERS, CardError, card, code

#: Facts the table shows elsewhere (the match score field) or that only computers need.
SKIP = frozenset({"score", "badges", "first", "piles", "deals", "pack", "last_signal"})


def card_of(c: int | str) -> Card:
    """A card as a segment (a code or its number), in the language in force."""
    return _card(card(c) if isinstance(c, str) else c, current_language())


@lru_cache(maxsize=256)
def _card(c: int, lang: str) -> Card:
    return Card(code(c), card_label(c))


def suit_of(s: int) -> Suit:
    return _suit(s, current_language())


@lru_cache(maxsize=32)
def _suit(s: int, lang: str) -> Suit:
    return Suit(SUIT_LETTERS[s], suit_label(s))


def word(value: str) -> Segment | Text:
    """A card code, suit letter or game word as players read it."""
    if value in SUIT_LETTERS:
        return suit_of(SUIT_LETTERS.index(value))
    with contextlib.suppress(CardError):
        return card_of(value)
    key = f"word.{value}"
    return t(key) if has_text(key) else value.replace("_", " ")


def plain(value: Any, table: Table) -> Segment | Text:
    """Any fact value: words, cards and suits worded, lists joined."""
    if isinstance(value, bool):
        return t("word.yes") if value else t("word.no")
    if isinstance(value, str):
        return word(value)
    if isinstance(value, list | tuple):
        return Text.join(", ", [plain(x, table) for x in value]) or Text("—")
    if isinstance(value, dict):
        return Text.join("; ", [Text(word(str(k)), ": ", plain(x, table))
                                for k, x in value.items()])
    return str(value)


def seat(table: Table, value: Any) -> Person | str:
    """A seat named in a fact: who played it in this hand."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(
            table.seats):
        return str(value)
    return table.player(value)


def _people(table: Table, seats: Any) -> Text:
    return Text.join(", ", [seat(table, s) for s in seats])


def _cards(value: Any) -> Text:
    return Text.join(" ", [word(c) for c in value]) if value else Text("—")


def binding(b: dict[str, Any]) -> Text:
    return say("info.binding_value", count=b["count"], suit=word(b["trump"]),
               lowest=word(b["lowest"]))


def _fact(table: Table, key: str, value: Any) -> Text | None:
    """The sentence of one known public fact, or None for a key this module does not know."""
    if key in ("old_man", "partner", "declarer", "claimed"):
        return say(f"info.{key}", user=seat(table, value))
    if key in ("passed", "fris_passed", "knocks", "dad"):
        return say(f"info.{key}", users=_people(table, value))
    if key in ("partner_card", "called"):
        return say(f"info.{key}", card=word(value))
    if key in ("widow", "buried"):
        return say(f"info.{key}", cards=_cards(value))
    if key == "solo_suit":
        return say("info.solo_suit", suit=word(value))
    if key in ("mode", "contract", "deal"):
        return say(f"info.{key}", value=word(value))
    if key == "widow_lying":
        return say("info.widow_lying") if value else Text()
    if key == "hats":
        return say("info.hats", team=team_name(value))
    if key == "signals":
        return say("info.signals", signals=Text.join(", ", [
            say("info.signal", user=seat(table, s), suit=word(suit)) for s, suit in value]))
    if key == "bindings":
        said = []
        for entry in value:
            who = seat(table, entry["seat"])
            if "bind" in entry:
                said.append(Text(who, ": ", binding(entry["bind"])))
            else:
                said.append(Text(who, ": ", plain(next(k for k in entry if k != "seat"),
                                                  table)))
        return say("info.bindings", bindings=Text.join("; ", said))
    if key == "binding":
        return say("info.binding", user=seat(table, value["seat"]), binding=binding(value))
    if key == "fris":
        return say("info.fris", user=seat(table, value["seat"]), card=word(value["over"]),
                   suit=word(value["trump"]))
    if key == "face_up":
        return say("info.face_up", shown=Text.join("; ", [
            Text(seat(table, e["seat"]), ": ", _cards(e["cards"])) for e in value]))
    if key == "bidding":
        return say("info.bidding", user=seat(table, value["seat"]), value=word(value["value"]))
    if key == "doubles":
        return say("info.doubles", doubles=Text.join(", ", [
            say("info.double", user=seat(table, d["seat"]), stoss=word(d["stoss"]))
            for d in value]))
    if key == "open_hand":
        return Text.join("\n", [say("info.open_hand", user=seat(table, e["seat"]),
                                    cards=_cards(e["cards"])) for e in value])
    if key == "pot":
        return say("info.pot", value=Number(value, str(value)))
    if key == "match":
        return say("info.match", deals=value["deals"] + 1, length=value["length"])
    if key == "layout":
        return Text.join("\n", [say("info.layout", user=seat(table, s), up=_cards(
            [c for c, _ in piles if c is not None]), down=sum(1 for _, d in piles if d))
            for s, piles in enumerate(value)])
    return None


def _shown(value: Any) -> bool:
    return value is not None and value != [] and value != {}


def public_lines(table: Table, public: dict[str, Any]) -> list[Text]:
    """The lines for a game's public facts (``PublicView.public``)."""
    out = []
    for key, value in public.items():
        if key in SKIP or not _shown(value):
            continue
        line = _fact(table, key, value)
        if line is None:
            line = Text(word(key), ": ", plain(value, table))
        if line:
            out.append(line)
    return out


def side_role(role: str) -> Segment | Text:
    """A side named by its role: ``Declarer``, ``Defenders``, ``The Old Man's side``."""
    key = f"side.{role}"
    return t(key) if has_text(key) else word(role)


def seat_role(role: str) -> Segment | Text:
    """A seat's role as its badge says it: ``declarer``, ``defender``."""
    key = f"role.{role}"
    return t(key) if has_text(key) else word(role)


def private_lines(table: Table, private: dict[str, Any], sides: tuple[str, ...] = ()
                  ) -> list[Text]:
    """The lines for what only a seat's player knows (``SeatView.private``); a secret side
    is named by its role where sides have one (``sides``: ``PublicView.sides``), else by its
    letter."""
    out = []
    for key, value in private.items():
        if key in SKIP or not _shown(value):
            continue
        if key in ("widow", "buried"):
            out.append(say(f"private.{key}", cards=_cards(value)))
        elif key == "team":
            known = isinstance(value, int) and 0 <= value < len(sides)
            out.append(say("private.team", team=side_role(sides[value]) if known
                           and has_text(f"side.{sides[value]}") else team_name(value)))
        elif key == "old_ones":
            out.append(say("private.old_ones", count=value))
        elif key == "exchange":
            out.append(say("private.exchange", trump=word(value["trump"]),
                           card=word(value["card"]) if value["card"] else "—"))
        else:
            out.append(Text(word(key), ": ", plain(value, table)))
    return out


def counted_line(counted: list[dict[str, Any]]) -> Text:
    """What a result counted, one ``counted.KEY`` sentence per item, joined: a game's word
    (``game``), counts and amounts as they are."""
    parts: list[Text] = []
    for item in counted:
        params = {k: word(v) if isinstance(v, str) else v for k, v in item.items()
                  if k != "key"}
        key = f"counted.{item['key']}"
        parts.append(say(key, **params) if has_text(key) else Text(word(str(item["key"]))))
    if len(parts) > 1:
        return say("result.counted", what=Text.join(", ", parts[:-1]), total=parts[-1])
    return parts[0] if parts else Text()
