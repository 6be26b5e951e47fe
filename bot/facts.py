"""A game's own facts (``Rules.public_info`` / ``private_info``) worded for players.

The engine gives plain data: seats, card codes, suit letters, words. Each key known here has a
sentence in the catalog (``info.KEY`` / ``private.KEY``) and a way to fill it in (seats become
the players' names, cards their labels); a key not known is shown plainly, so a new game still
renders before its texts are written.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.names import mention
from bot.texts import card_label, has_text, suit_label, t, team_name
from engine.cards import SUIT_LETTERS, CardError, card

if TYPE_CHECKING:
    from bot.session import TableSession

#: Facts the table shows elsewhere (the match score field) or that only computers need.
SKIP = frozenset({"score", "badges", "first", "piles", "deals", "pack", "last_signal"})

Name = Callable[[int], str]


def word(value: str) -> str:
    """A card code, suit letter or game word as players read it."""
    if value in SUIT_LETTERS:
        return suit_label(SUIT_LETTERS.index(value))
    with contextlib.suppress(CardError):
        return card_label(card(value))
    key = f"word.{value}"
    return t(key) if has_text(key) else value.replace("_", " ")


def plain(value: Any, name: Name) -> str:
    """Any fact value: words, cards and suits worded, lists joined."""
    if isinstance(value, bool):
        return t("word.yes") if value else t("word.no")
    if isinstance(value, str):
        return word(value)
    if isinstance(value, list | tuple):
        return ", ".join(plain(x, name) for x in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{word(str(k))}: {plain(x, name)}" for k, x in value.items())
    return str(value)


def _cards(value: Any) -> str:
    return " ".join(word(c) for c in value) if value else "—"


def binding_text(b: dict[str, Any]) -> str:
    return t("info.binding_value", count=b["count"], suit=word(b["trump"]),
             lowest=word(b["lowest"]))


def _fact(key: str, value: Any, name: Name) -> str | None:
    """The sentence of one known public fact, or None for a key this module does not know."""
    if key in ("old_man", "partner", "declarer"):
        return t(f"info.{key}", user=name(value))
    if key in ("passed", "fris_passed"):
        return t(f"info.{key}", users=", ".join(name(s) for s in value))
    if key in ("partner_card", "called"):
        return t(f"info.{key}", card=word(value))
    if key in ("widow", "buried"):
        return t(f"info.{key}", cards=_cards(value))
    if key == "solo_suit":
        return t("info.solo_suit", suit=word(value))
    if key in ("mode", "contract", "deal"):
        return t(f"info.{key}", value=word(value))
    if key == "widow_lying":
        return t("info.widow_lying") if value else ""
    if key == "hats":
        return t("info.hats", team=team_name(value))
    if key == "signals":
        return t("info.signals", signals=", ".join(
            t("info.signal", user=name(seat), suit=word(suit)) for seat, suit in value))
    if key == "bindings":
        said = []
        for entry in value:
            who = name(entry["seat"])
            if "bind" in entry:
                said.append(f"{who}: {binding_text(entry['bind'])}")
            else:
                said.append(f"{who}: {plain(next(k for k in entry if k != 'seat'), name)}")
        return t("info.bindings", bindings="; ".join(said))
    if key == "binding":
        return t("info.binding", user=name(value["seat"]), binding=binding_text(value))
    if key == "fris":
        return t("info.fris", user=name(value["seat"]), card=word(value["over"]),
                 suit=word(value["trump"]))
    if key == "face_up":
        return t("info.face_up", shown="; ".join(
            f"{name(e['seat'])}: {_cards(e['cards'])}" for e in value))
    if key in ("knocks", "dad"):
        return t(f"info.{key}", users=", ".join(name(seat) for seat in value))
    if key == "bidding":
        return t("info.bidding", user=name(value["seat"]), value=word(value["value"]))
    if key == "doubles":
        return t("info.doubles", doubles=", ".join(
            t("info.double", user=name(d["seat"]), stoss=word(d["stoss"])) for d in value))
    if key == "open_hand":
        return "\n".join(t("info.open_hand", user=name(e["seat"]), cards=_cards(e["cards"]))
                         for e in value)
    if key == "claimed":
        return t("info.claimed", user=name(value))
    if key == "pot":
        return t("info.pot", value=value)
    if key == "match":
        return t("info.match", deals=value["deals"] + 1, length=value["length"])
    if key == "layout":
        return "\n".join(t("info.layout", user=name(seat), up=_cards(
            [c for c, _ in piles if c is not None]), down=sum(1 for _, d in piles if d))
            for seat, piles in enumerate(value))
    return None


def public_lines(s: TableSession, public: dict[str, Any]) -> list[str]:
    """The table message's lines for a game's public facts."""
    name = _namer(s)
    out = []
    for key, value in public.items():
        if key in SKIP or value is None or value == [] or value == {}:
            continue
        line = _fact(key, value, name)
        if line is None:
            line = f"{word(key)}: {plain(value, name)}"
        if line:
            out.append(line)
    return out


def private_lines(s: TableSession, private: dict[str, Any]) -> list[str]:
    """A hand view's lines for what only its player knows."""
    name = _namer(s)
    out = []
    for key, value in private.items():
        if key in SKIP or value is None or value == [] or value == {}:
            continue
        if key in ("widow", "buried"):
            out.append(t(f"private.{key}", cards=_cards(value)))
        elif key == "team":
            out.append(t("private.team", team=team_name(value)))
        elif key == "old_ones":
            out.append(t("private.old_ones", count=value))
        elif key == "exchange":
            out.append(t("private.exchange", trump=word(value["trump"]),
                         card=word(value["card"]) if value["card"] else "—"))
        else:
            out.append(f"{word(key)}: {plain(value, name)}")
    return out


def counted_line(counted: list[dict[str, Any]]) -> str:
    """What a result counted, one ``counted.KEY`` sentence per item, joined: a game's word
    (``game``), counts and amounts as they are."""
    parts = []
    for item in counted:
        params = {k: word(v) if isinstance(v, str) else v for k, v in item.items()
                  if k != "key"}
        key = f"counted.{item['key']}"
        parts.append(t(key, **params) if has_text(key) else word(str(item["key"])))
    return t("result.counted", what=", ".join(parts[:-1]), total=parts[-1]) if len(parts) > 1 \
        else parts[0] if parts else ""


def _namer(s: TableSession) -> Name:
    def name(seat: int) -> str:
        if not isinstance(seat, int) or not 0 <= seat < len(s.seats):
            return str(seat)
        return mention(s.seats[seat], seat)

    return name
