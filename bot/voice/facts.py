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

from bot.texts import (
    card_label,
    current_faces,
    current_language,
    has_text,
    points_key,
    suit_label,
    t,
    team_name,
)
from bot.voice.table import Table
from bot.voice.text import Card, Number, Person, Segment, Suit, Text, say
from engine.cards import SUIT_LETTERS, CardError, card, code

#: Facts the table shows elsewhere (the match score field) or that only computers need.
SKIP = frozenset({"score", "badges", "first", "piles", "deals", "pack", "last_signal"})


def card_of(c: int | str) -> Card:
    """A card as a segment (a code or its number), in the language and faces in force."""
    return _card(card(c) if isinstance(c, str) else c, current_language(), current_faces())


@lru_cache(maxsize=512)
def _card(c: int, lang: str, faces: str) -> Card:
    return Card(code(c), card_label(c))


def suit_of(s: int) -> Suit:
    return _suit(s, current_language(), current_faces())


@lru_cache(maxsize=64)
def _suit(s: int, lang: str, faces: str) -> Suit:
    return Suit(SUIT_LETTERS[s], suit_label(s))


def word(value: str) -> Segment | Text:
    """A card code, suit letter or game word as players read it."""
    if value in SUIT_LETTERS:
        return suit_of(SUIT_LETTERS.index(value))
    with contextlib.suppress(CardError):
        return card_of(value)
    key = f"word.{value}"
    return t(key) if has_text(key) else value.replace("_", " ")


def optioned(table: Table, value: str) -> Segment | Text:
    """A game word as this table's options make it: ``word.VALUE.OPTION`` where that option
    is on and has a word of its own (a class that holds a Hochzeit only where one may be
    played), else the word."""
    for name, on in table.rules.options.model_dump().items():
        if on is True and has_text(f"word.{value}.{name}"):
            return t(f"word.{value}.{name}")
    return word(value)


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


def _fact(table: Table, key: str, value: Any, dealer: int | None = None) -> Text | None:
    """The sentence of one known public fact, or None for a key this module does not know."""
    if key in ("old_man", "partner", "declarer", "claimed"):
        return say(f"info.{key}", user=seat(table, value))
    if key in ("dad", "weiter") and dealer is not None:
        # Where each sits from the dealer on (Vorhand first): in a clarification the
        # earlier seat may hold with a game as high.
        return say(f"info.{key}", users=Text.join(", ", [
            say("info.at_position", user=seat(table, s), position=t(
                f"position.{(s - dealer - 1) % table.players + 1}"))
            if has_text(f"position.{(s - dealer - 1) % table.players + 1}") else seat(table, s)
            for s in value]))
    if key in ("passed", "fris_passed", "knocks", "dad", "weiter"):
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
        return say("info.bidding", user=seat(table, value["seat"]),
                   value=optioned(table, str(value["value"])))
    if key == "doubles":
        return say("info.doubles", doubles=Text.join(", ", [
            say("info.double", user=seat(table, d["seat"]), stoss=word(d["stoss"]))
            for d in value]))
    if key == "open_hand":
        return Text.join("\n", [say("info.open_hand", user=seat(table, e["seat"]),
                                    cards=_cards(e["cards"])) for e in value])
    if key == "pot":
        return say("info.pot", value=Number(value, str(value)))
    if key == "stake":
        return say("info.stake", value=stake(value))
    if key == "match":
        return say("info.match", deals=value["deals"] + 1, length=value["length"])
    if key == "layout":
        return Text.join("\n", [say("info.layout", user=seat(table, s), up=_cards(
            [c for c, _ in piles if c is not None]), down=sum(1 for _, d in piles if d))
            for s, piles in enumerate(value)])
    return _party_fact(table, key, value)


def _by_party(value: dict[str, Any], say_one: Any) -> Text:
    """``{"re": x, "kontra": y}`` as ``Re: x · Kontra: y``, each side by its role."""
    return Text.join(" · ", [Text(side_role(party), ": ", say_one(party, x))
                             for party, x in value.items()])


def _level(party: str, level: int) -> Segment | Text:
    """A party's announcement level as its highest word (1: its own name)."""
    if not level:
        return t("info.level_none")
    return side_role(party) if level == 1 else word(
        ("keine_90", "keine_60", "keine_30", "schwarz")[level - 2])


def _party_fact(table: Table, key: str, value: Any) -> Text | None:
    """Facts of games whose parties form in the deal and raise their stakes by
    announcements (Doppelkopf's, ``engine.rules.doppelkopf``)."""
    if key in ("vorbehalt", "armut_declined", "pflicht_owed"):
        return say(f"info.{key}", users=_people(table, value))
    if key in ("vorgefuehrt", "schweinchen"):
        return say(f"info.{key}", user=seat(table, value))
    if key == "spiel":
        return say("info.spiel", value=word(value))
    if key == "klaerung":
        return say("info.klaerung", trick=value)
    if key == "pflichtsolo":
        return say("info.pflichtsolo") if value else Text()
    if key == "armut_trumps_back":
        return say("info.armut_trumps_back", count=value)
    if key == "ansagen":
        return say("info.ansagen", said=Text.join(", ", [
            say("info.ansage_reply" if a["reply"] else "info.ansage",
                user=seat(table, a["seat"]), ansage=side_role(a["ansage"]) if a["ansage"] in (
                    "re", "kontra") else word(a["ansage"])) for a in value]))
    if key == "levels":
        return say("info.levels", levels=_by_party(value, _level))
    if key == "needs":
        augen = points_key("n.points", table.rules.points)
        return say("info.needs", needs=_by_party(value, lambda _, n: word(n) if isinstance(
            n, str) else say(augen, count=n)))
    if key == "sonderpunkte":
        return say("info.sonderpunkte", extras=Text.join(", ", [
            say("info.extra_for", extra=word("dk_" + e["extra"]), party=side_role(e["party"]))
            for e in value]))
    if key == "extras_seen":
        augen = points_key("n.points", table.rules.points)
        lines = []
        for e in value:
            params: dict[str, Any] = {k: seat(table, x) if k in ("by", "to") else x
                                      for k, x in e.items() if k != "extra"}
            if "augen" in e:
                params["augen"] = say(augen, count=e["augen"])
            lines.append(say(f"info.seen_{e['extra']}", card=word("EU"), **params))
        return Text.join("\n", lines)
    return None


def _shown(value: Any) -> bool:
    return value is not None and value != [] and value != {}


def public_lines(table: Table, public: dict[str, Any], dealer: int | None = None
                 ) -> list[Text]:
    """The lines for a game's public facts (``PublicView.public``); ``dealer``: the hand's,
    where seats are told by their position from it."""
    out = []
    for key, value in public.items():
        if key in SKIP or not _shown(value):
            continue
        line = _fact(table, key, value, dealer)
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
            known = isinstance(value, int) and 0 <= value < len(sides) and has_text(
                f"side.{sides[value]}")
            # A side by its role reads as what one is ("Du bist Spieler"), a letter as a team.
            out.append(say("private.side", side=side_role(sides[value])) if known
                       else say("private.team", team=team_name(value)))
        elif key == "old_ones":
            out.append(say("private.old_ones", count=value))
        elif key == "vorbehalt" and has_text(f"act.vorbehalt.{value}"):
            out.append(say(f"act.vorbehalt.{value}"))
        elif key == "stille_hochzeit":
            out.append(say("private.stille_hochzeit", card=word("EO")))
        elif key == "armut":
            out.append(say("private.armut", laid=_cards(value["laid"]),
                           returned=_cards(value["returned"])))
        elif key == "exchange":
            out.append(say("private.exchange", trump=word(value["trump"]),
                           card=word(value["card"]) if value["card"] else "—"))
        else:
            out.append(Text(word(key), ": ", plain(value, table)))
    return out


def counted_line(counted: list[dict[str, Any]]) -> Text:
    """What a result counted, as a player checks the tariff: the game's base, plus the
    Laufende and Schneider or Schwarz, times a Tout's factor, then × 2 for each knock and
    each doubling, each step's value after it ("Sauspiel 20 + 4 Laufende × 10 + Schneider
    10 = 70, × 2 Kontra = 140"); what was paid into or out of the pot after it. A result
    whose game has no base (a Ramsch, a deal thrown in) lists its items.

    >>> from bot.texts import speaking
    >>> with speaking("en"):
    ...     counted_line([{"key": "game", "game": "sauspiel_G", "value": 20, "times": 1},
    ...                   {"key": "laufende", "count": 4, "value": 40},
    ...                   {"key": "schneider", "value": 10},
    ...                   {"key": "doubles", "count": 1, "names": ["kontra"]},
    ...                   {"key": "each", "value": 140}]).plain.split(") ")[1]
    '20 + 4 Laufende × 10 + Schneider 10 = 70, × 2 Kontra = 140'
    """
    game = next((i for i in counted if i["key"] == "game"), None)
    if game is None or "value" not in game:
        return _listed(counted)
    items = {i["key"]: i for i in counted}
    adds: list[Text] = [say("counted.base", game=word(game["game"]),
                            value=_n(game["value"]))]
    total = game["value"]
    lauf = items.get("laufende")
    if lauf:
        adds.append(say("counted.laufende_sum", count=lauf["count"],
                        unit=_n(lauf["value"] // max(lauf["count"], 1)),
                        value=_n(lauf["value"])))
        total += lauf["value"]
    for key in ("schneider", "schwarz"):
        if key in items:
            adds.append(say(f"counted.{key}_sum", value=_n(items[key]["value"])))
            total += items[key]["value"]
    line = Text.join(" + ", adds)
    steps = len(adds) > 1
    times = game.get("times", 1)
    if times > 1:
        line = Text("(", line, f") × {times}") if steps else Text(line, f" × {times}")
        total *= times
        steps = True
    if steps:
        line = Text(line, " = ", _n(total))
    doubled: list[Segment | Text] = [say("counted.knock")] * items.get("knocks", {}).get(
        "count", 0)
    names = items.get("doubles", {}).get("names") or ["doubled"] * items.get(
        "doubles", {}).get("count", 0)
    doubled.extend(word(name) for name in names)
    for why in doubled:
        total *= 2
        line = Text(line, ", ", say("counted.times_two", why=why, value=_n(total)))
    for key in ("pot_won", "pot_lost"):
        if key in items:
            line = Text(line, "; ", say(f"counted.{key}", value=_n(items[key]["value"])))
    return line


def stake(value: dict[str, Any]) -> Text:
    """A game's value while it is played: its base, then × 2 for each knock and doubling
    ("50, × 2 knocked = 100, × 2 Kontra = 200")."""
    total = value["base"]
    line = Text(_n(total))
    doubled: list[Segment | Text] = [say("counted.knock")] * value.get("knocks", 0)
    doubled.extend(word(name) for name in value.get("doubles", ()))
    for why in doubled:
        total *= 2
        line = Text(line, ", ", say("counted.times_two", why=why, value=_n(total)))
    return line


def _n(x: int) -> Number:
    return Number(x, str(x))


def _listed(counted: list[dict[str, Any]]) -> Text:
    """A result's counted items one after the other, each ``counted.KEY``."""
    parts: list[Text] = []
    for item in counted:
        params = {k: word(v) if isinstance(v, str) else v for k, v in item.items()
                  if k not in ("key", "sum")}
        key = f"counted.{item['key']}"
        parts.append(say(key, **params) if has_text(key) else Text(word(str(item["key"]))))
    if len(parts) > 1:
        # A total the items add up to (``"sum"``) is said as players tally: items = total.
        form = "result.summed" if counted[-1].get("sum") else "result.counted"
        return say(form, what=Text.join(", ", parts[:-1]), total=parts[-1])
    return parts[0] if parts else Text()
