"""Hostile interactions for the front-door fuzz (``test_fuzz_front_door.py``).

Three sources of payloads, all ending as an ``INTERACTION_CREATE`` for the in-process harness:

- parts drawn from Discord's own OpenAPI description (``tests/data/discord-api-spec``): it has
  no gateway Interaction object, so the parts it does describe (a message's buttons and
  string selects, a guild member and its user, the interaction types) are drawn with
  ``hypothesis-jsonschema`` and put into the envelope the harness builds;
- real clicks (buttons and menus the bot drew) with one part damaged: a field removed, a
  value of the wrong type, a huge string, the id of another server, channel, table or hand;
- custom_ids of every operation of ``bot.protocol.Op`` with garbage arguments and menu values.

``may_change`` is the oracle of the store assertion: whether a payload could be a legal move
by a person allowed to make it, from a message that carries it and is of a kind its operation
is drawn on (``bot.protocol.Click.places``). It reads the payload the way discord.py and the
cog do and errs towards "could be"; those payloads are not sent (legal play is tested
elsewhere), every other one must leave the store as it was.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any

import discord
from fake_discord import GUILD_ID, MANAGER_ROLE_ID, OWNER_ID
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from standin.discord_objects import walk_components

from bot.protocol import MAX_ID, Click, Op, Place, parse
from bot.session import TableSession

#: Kept with the tests, as the stand-in's schema check finds it.
SPEC_PATH = Path(__file__).resolve().parent / "data" / "discord-api-spec" / "openapi.json"

#: Ids that belong to nobody here: another server, an unknown table, a hand long gone.
FOREIGN_IDS = ["810000000000000777", "1", "0", "99999999999999999999", "-5", "18446744073709551616"]

#: Store tables whose rows only a legal move may change (``guild_settings`` follows the
#: locale Discord sends with any interaction, by design).
GAME_TABLES = ("tables", "hands", "actions", "partnerships", "results")

LOBBY_OPS = {Op.JOIN, Op.SIT, Op.LEAVE, Op.CPU, Op.UNCPU, Op.START, Op.CANCEL, Op.OPTION}
PLAY_OPS = {Op.CARD, Op.ACT, Op.TOGETHER, Op.SERVANT}
#: Anybody of the server may ask for these in a lobby; a seated player may leave; the rest
#: (computers, options, start, cancel) is for the opener and the server's managers.
OPEN_LOBBY_OPS = {Op.JOIN, Op.SIT}


# -- Discord's schema --------------------------------------------------------------------------


@lru_cache(maxsize=1)
def spec_schemas() -> dict[str, Any]:
    """The spec's ``components.schemas``; the file must be there (the tests say where)."""
    assert SPEC_PATH.is_file(), f"Discord's OpenAPI description is missing at {SPEC_PATH}"
    doc = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return dict(doc["components"]["schemas"])


#: Formats hypothesis-jsonschema draws; the spec's own (snowflake, int32, ...) are dropped,
#: their patterns and bounds stay.
_KNOWN_FORMATS = {"date-time", "uri"}


def inline(schema: Any, depth: int = 0) -> Any:
    """The schema with every ``#/components/schemas/X`` reference replaced by X (its sibling
    keywords kept), so that it stands alone; deeper than a few levels becomes ``null`` (the
    parts used here do not recurse further)."""
    if isinstance(schema, list):
        return [inline(s, depth) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if depth > 6:
            return {"type": "null"}
        target = inline(spec_schemas()[name], depth + 1)
        rest = {k: v for k, v in schema.items()
                if k not in ("$ref", "description", "title")}
        return {**target, **inline(rest, depth)} if rest else target
    out = {}
    for key, value in schema.items():
        if key == "format" and value not in _KNOWN_FORMATS:
            continue
        if key in ("description", "title"):
            continue
        out[key] = value if key in ("const", "enum") else inline(value, depth)
    return out


def strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of a (standalone) schema. hypothesis-jsonschema 0.23.1 draws objects with a
    Hypothesis internal that Hypothesis 6.1xx no longer has (``cu.many(...).more()``), so
    objects, arrays and unions of them are composed here and the library draws the rest
    (strings with their patterns, bounded integers, enums, ``[type, null]``)."""
    if schema.get("type") == "object" or "properties" in schema:
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {k: strategy(v) for k, v in props.items() if k in required},
            optional={k: strategy(v) for k, v in props.items() if k not in required})
    if schema.get("type") == "array":
        return st.lists(strategy(schema.get("items", {})),
                        min_size=schema.get("minItems", 0),
                        max_size=min(schema.get("maxItems", 4), 4))
    for union in ("oneOf", "anyOf"):
        branches = schema.get(union, [])
        if any(isinstance(b, dict) and ("properties" in b or b.get("type") in ("object", "array"))
               for b in branches):
            return st.one_of([strategy(b) for b in branches])
    return from_schema(schema)


def drawn(name: str, **overrides: Any) -> st.SearchStrategy[Any]:
    """Payloads of the spec's schema ``name`` (``overrides`` replace property schemas)."""
    schema = inline(spec_schemas()[name])
    for prop, sub in overrides.items():
        schema["properties"][prop] = sub
    return strategy(schema)


def schema_components() -> st.SearchStrategy[dict[str, Any]]:
    """A button or a string select as Discord describes them in a message."""
    options = {"type": "array", "maxItems": 4,
               "items": inline(spec_schemas()["StringSelectOptionResponse"])}
    return st.one_of(drawn("ButtonComponentResponse"),
                     drawn("StringSelectComponentResponse", options=options))


def schema_members() -> st.SearchStrategy[dict[str, Any]]:
    """A guild member (with its user) as Discord describes one."""
    roles = {"type": "array", "maxItems": 3,
             "items": inline(spec_schemas()["SnowflakeType"])}
    return drawn("GuildMemberResponse", roles=roles, collectibles={"type": "null"},
                 avatar_decoration_data={"type": "null"})


def schema_interaction_types() -> st.SearchStrategy[Any]:
    return from_schema(inline(spec_schemas()["InteractionTypes"]))


# -- damage --------------------------------------------------------------------------------------


#: Values of the wrong type (or of the right type but absurd) for any field.
def junk() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
        st.text(max_size=20), st.just("x" * 5000), st.just("9" * 40),
        st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5),
                                                             st.integers(), max_size=2),
        st.sampled_from(FOREIGN_IDS),
    )


Path_ = tuple[str | int, ...]


def paths(payload: Any, prefix: Path_ = ()) -> list[Path_]:
    """Every key path inside a payload (dict keys and list indexes), outermost first."""
    out: list[Path_] = []
    if isinstance(payload, dict):
        for key, value in payload.items():
            out.append((*prefix, key))
            out += paths(value, (*prefix, key))
    elif isinstance(payload, list):
        for i, value in enumerate(payload):
            out.append((*prefix, i))
            out += paths(value, (*prefix, i))
    return out


def _parent(payload: Any, path: Path_) -> Any:
    node = payload
    for key in path[:-1]:
        node = node[key]
    return node


def removed(payload: dict[str, Any], path: Path_) -> dict[str, Any]:
    out = copy.deepcopy(payload)
    parent = _parent(out, path)
    del parent[path[-1]]
    return out


def replaced(payload: dict[str, Any], path: Path_, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(payload)
    _parent(out, path)[path[-1]] = value
    return out


#: Parts of the envelope that route the bot's answer: removed, or junk that discord.py
#: rejects or that still names a route (an empty token would name none: the answer would
#: fail as it does for an expired interaction, which is not the bot's input to judge).
ROUTING = {"token", "id", "application_id"}


def damaged(base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``base`` with one part removed or replaced by junk (a huge string, a wrong type, an id
    of somewhere else)."""
    candidates = [p for p in paths(base) if not (len(p) == 1 and p[0] in ROUTING)]

    def one(path: Path_) -> st.SearchStrategy[dict[str, Any]]:
        return st.one_of(st.just(removed(base, path)),
                         junk().map(lambda v: replaced(base, path, v)))

    routing = st.sampled_from(sorted(ROUTING)).flatmap(lambda key: st.one_of(
        st.just(removed(base, (key,))),
        st.sampled_from([None, "abc", [], {}]).map(
            lambda v: replaced(base, (key,), v))))
    return st.one_of(st.sampled_from(candidates).flatmap(one), routing)


def garbage_args() -> st.SearchStrategy[str]:
    """What may follow ``OP:TABLE`` in a custom_id: nothing, numbers, card codes, JSON,
    colons, text."""
    piece = st.one_of(
        st.integers(-3, 40).map(str), st.sampled_from(["EO", "H10", "ZZ", "e10", "", "null",
                                                       "true", "[]", "{}", '"x"', "1e999",
                                                       "NaN", "٣", "0x1", "normal", "x" * 80]),
        st.text(max_size=12),
    )
    return st.lists(piece, max_size=5).map(lambda parts: ":".join(parts))


def custom_ids(table_ids: list[int]) -> st.SearchStrategy[str]:
    """``fc:OP:TABLE:ARGS`` / ``fs:...`` for every operation, real and foreign tables, garbage
    arguments; some longer than Discord allows, some not the bot's at all."""
    tables = st.one_of(st.sampled_from([str(t) for t in table_ids]),
                       st.sampled_from(FOREIGN_IDS), st.text(max_size=5))
    ops = st.one_of(st.sampled_from([op.value for op in Op]), st.text(max_size=8))
    made = st.builds(lambda kind, op, table, args: f"{kind}:{op}:{table}" + (
        f":{args}" if args else ""), st.sampled_from(["fc", "fs", "fx", ""]), ops, tables,
        garbage_args())
    return st.one_of(made, made.map(lambda c: c + ":" + "9" * MAX_ID), st.text(max_size=30))


def menu_values() -> st.SearchStrategy[list[Any]]:
    """Values of a menu that offered other ones (or junk in place of strings)."""
    value = st.one_of(st.text(max_size=30), garbage_args(), st.sampled_from(
        ["EO", "card:\"EO\"", "fris:true", "turn_seconds=20", "game=\"x\"", "=", ":"]))
    return st.one_of(st.lists(value, max_size=4), st.lists(junk(), min_size=1, max_size=2))


# -- the oracle ----------------------------------------------------------------------------------


def _snowflake(data: Any, key: str) -> int | None:
    """As discord.py reads an id (``utils._get_as_snowflake``)."""
    return discord.utils._get_as_snowflake(data, key)


def _sender(payload: dict[str, Any]) -> tuple[int | None, bool]:
    """(user id, may manage the server) as the bot would see them; a manager in doubt."""
    member = payload.get("member")
    who = member.get("user") if isinstance(member, dict) else payload.get("user")
    try:
        user_id = int(who["id"])  # type: ignore[index]
    except (TypeError, KeyError, ValueError):
        return None, True
    manager = user_id == OWNER_ID
    if isinstance(member, dict):
        roles = member.get("roles")
        try:
            manager |= str(MANAGER_ROLE_ID) in [str(r) for r in roles or []]
            manager |= bool(int(member.get("permissions") or 0)
                            & discord.Permissions(manage_guild=True).value)
        except (TypeError, ValueError):
            manager = True
    return user_id, manager


def may_change(payload: Any, tables: Any) -> bool:
    """Whether the payload could be a legal move by somebody allowed to make it (in doubt,
    yes). ``tables`` is the tables cog (its open tables by id and by channel)."""
    if not isinstance(payload, dict):
        return False
    data = payload.get("data")
    if not isinstance(data, dict):
        return False
    if payload.get("type") == 2:
        return _command_may_change(payload, data, tables)
    if payload.get("type") != 3:
        return False
    values = data.get("values")
    click = parse(str(data.get("custom_id", "")), values if isinstance(values, list) else None)
    table = tables.get(click.table_id) if click else None
    if click is None or table is None:
        return False
    session: TableSession = table.session
    if not from_its_place(payload, data, click, session.message_id):
        return False  # answered on a message it is not drawn on: refused unread
    try:
        guild_id = _snowflake(payload, "guild_id")
        channel = payload.get("channel") or {}
        channel_id = _snowflake(channel, "id")
    except (TypeError, ValueError, AttributeError):
        return False
    if guild_id != session.guild_id or channel_id != session.channel_id:
        return False
    user_id, manager = _sender(payload)
    if user_id is None:
        return True
    seat = session.seat_of(user_id)
    op = click.op
    hand = session.hand
    if op is Op.LEAVE and seat is not None:
        return True  # a seated player may leave, in the lobby, between hands or mid-hand
    seats_open = session.state == "lobby" or (hand is not None and hand.finished)
    if op in LOBBY_OPS:
        # Seats change in the lobby and between hands (a person may take a computer's seat).
        return seats_open and (op in OPEN_LOBBY_OPS or manager
                               or user_id == session.row.opener_id)
    if op is Op.NEXT:
        return hand is not None and hand.finished and (seat is not None or manager)
    if op in PLAY_OPS:
        if hand is None or hand.finished or seat is None:
            return False
        try:
            return int(click.args[0]) == session.hand_number
        except (IndexError, ValueError):
            return False
    return False  # looking (My hand, last trick, rules) changes nothing stored


def from_its_place(payload: dict[str, Any], data: dict[str, Any], click: Click,
                   table_message_id: int | None) -> bool:
    """Whether the click comes from a message that carries its custom_id and is of a kind
    its operation is drawn on (the table message, a public post, a message only its user
    sees), as the message in the payload says (in doubt, yes)."""
    message = payload.get("message")
    if not isinstance(message, dict):
        return False
    components = message.get("components")
    try:
        ids = {c.get("custom_id") for c in walk_components(components or [])}
    except (AttributeError, TypeError):
        return True
    if data.get("custom_id") not in ids:
        return False
    try:
        message_id = int(message["id"])
        flags = int(message.get("flags") or 0)
    except (KeyError, TypeError, ValueError):
        return True
    place = (Place.TABLE if message_id == table_message_id
             else Place.PRIVATE if flags & 64 else Place.POST)
    return place in click.places


def _command_may_change(payload: dict[str, Any], data: dict[str, Any], tables: Any) -> bool:
    """``/table new`` where no table is open (in any server: it may open one there), an
    ``/admin`` command by a manager of the server of the table it aims at; the rest only
    reads."""
    name = data.get("name")
    try:
        guild_id = _snowflake(payload, "guild_id")
        channel_id = _snowflake(payload.get("channel") or {}, "id")
    except (TypeError, ValueError, AttributeError):
        return False
    if name == "table":
        return tables.session_in(channel_id) is None
    if name == "admin":
        _, manager = _sender(payload)
        return manager and guild_id == GUILD_ID
    return False


# -- the store -----------------------------------------------------------------------------------


def store_rows(db_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the game tables, read directly from the database file."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return {name: con.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall()
                for name in GAME_TABLES}
    finally:
        con.close()
