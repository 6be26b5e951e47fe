"""Server standings, computed from the stored hand results."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.seats import is_computer
from bot.store import Member, PartnershipStatus, ResultRow
from bot.texts import t
from engine.rules import GAMES


@dataclass
class PairLine:
    team_a: list[Member]
    team_b: list[Member]
    hands: int = 0
    #: Index 0 for team a, 1 for team b.
    became_masters: tuple[int, int] = (0, 0)
    hands_as_masters: tuple[int, int] = (0, 0)
    ran_away: tuple[int, int] = (0, 0)
    masters_now: str | None = None


@dataclass
class PlayerLine:
    member: Member
    hands: int = 0
    became_masters: int = 0
    hands_as_masters: int = 0
    ran_away: int = 0
    #: Sum of the per-hand scores (games scored per player), and matches won.
    score: int = 0
    matches_won: int = 0


def _add(pair: tuple[int, int], side: str | None) -> tuple[int, int]:
    if side == "a":
        return (pair[0] + 1, pair[1])
    if side == "b":
        return (pair[0], pair[1] + 1)
    return pair


def standings(results: Iterable[ResultRow]) -> tuple[list[PairLine], list[PlayerLine]]:
    """Per partnership and per player: hands played, times they became masters, hands spent
    as masters, run-aways, score and matches won. Games whose teams form per deal have no
    partnership lines; their players are counted from the members stored with each result.
    Players are ranked by times they became masters, then score and matches won."""
    pairs: dict[tuple[tuple[str, ...], tuple[str, ...]], PairLine] = {}
    players: dict[Member, PlayerLine] = {}

    def player(m: Member) -> PlayerLine | None:
        if is_computer(m):
            return None
        return players.setdefault(m, PlayerLine(m))

    for r in results:
        for m in r.match_winners:
            p = player(m)
            if p is not None:
                p.matches_won += 1
        for m, v in (r.scores or {}).items():
            p = player(m)
            if p is not None:
                p.score += v
        if not r.team_a or not r.team_b:
            # Teams formed in the deal: count each member.
            before, after = set(r.masters_before_members), set(r.masters_after_members)
            for m in r.members:
                p = player(m)
                if p is None:
                    continue
                p.hands += 1
                p.became_masters += m in after and m not in before
                p.hands_as_masters += m in before
            continue
        key = (tuple(r.team_a), tuple(r.team_b))
        line = pairs.setdefault(key, PairLine(list(r.team_a), list(r.team_b)))
        line.hands += 1
        made = r.masters_after if r.masters_after and r.masters_after != r.masters_before \
            else None
        line.became_masters = _add(line.became_masters, made)
        line.hands_as_masters = _add(line.hands_as_masters, r.masters_before)
        ran = r.event_team if r.event == "ran_away" else None
        line.ran_away = _add(line.ran_away, ran)
        line.masters_now = r.masters_after
        for side, team in (("a", r.team_a), ("b", r.team_b)):
            for m in team:
                p = player(m)
                if p is None:
                    continue
                p.hands += 1
                p.became_masters += made == side
                p.hands_as_masters += r.masters_before == side
                p.ran_away += ran == side
    ranked = sorted(players.values(), key=lambda p: (
        -p.became_masters, -p.matches_won, -p.score, -p.hands_as_masters, -p.hands, p.member))
    return list(pairs.values()), ranked


def match_solos(statuses: Iterable[PartnershipStatus], game: str) -> dict[Member, int]:
    """Solos each player has announced in the match in progress, where the game counts them
    (Wendish with Muss-Solo: ``Status.solos``, stored per player), from each group's latest
    status."""
    out: dict[Member, int] = {}
    latest: dict[Member, str] = {}
    for st in statuses:
        solos = st.extra.get("solos") if st.game == game else None
        if not isinstance(solos, dict):
            continue
        for member, count in solos.items():
            when = st.updated_at or ""
            if member not in latest or when >= latest[member]:
                latest[member], out[member] = when, int(count)
    return out


def badge_wearers(statuses: Iterable[PartnershipStatus], game: str) -> set[Member]:
    """Players of ``game`` wearing its losers' badge (``Rules.losers_badge``: the hats of
    Filkó with Hats): the team that is not masters, in each partnership's current status,
    until they win."""
    if GAMES[game].losers_badge is None:
        return set()
    out: set[Member] = set()
    for st in statuses:
        if st.game == game and st.masters is not None:
            out |= set(st.team_b if st.masters == "a" else st.team_a)
    return out


# -- the standings as a table ---------------------------------------------------------------------
#
# A table reads better than a sentence per player ("ran away 0 / times" wrapped on a phone):
# a monospace table in a code block, whose columns stay aligned at any width, rather than an
# embed's inline fields, which a phone stacks and whose rows drift apart as soon as a name
# wraps. A code block cannot show a mention, so the table names players by their display
# names; it fits a phone's width (``PHONE_CHARS`` characters of Discord's code font on a
# 400 px screen) by shortening long names.

#: Characters a code block shows on one line of a 400 px phone inside an embed (Discord's
#: 14 px code font, as ``tools/render_messages.py`` draws it, with a little to spare).
PHONE_CHARS = 32
#: The longest name kept whole; longer ones end in "…" (shorter still where the game's
#: columns leave less room, down to ``MIN_NAME_CHARS``).
NAME_CHARS = 12
MIN_NAME_CHARS = 5


def text_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: wide characters (CJK, emoji) two, marks
    that join the letter before them none."""
    width = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf") or (
                0xFE00 <= ord(c) <= 0xFE0F):
            continue
        width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns (ending in "…" when cut), and made safe inside a
    code block (no backtick, no line break)."""
    text = " ".join(text.replace("`", "'").split())
    if text_width(text) <= width:
        return text
    out = ""
    for c in text:
        if text_width(out + c) > width - 1:
            break
        out += c
    return out + "…"


def pad(text: str, width: int, *, right: bool = False) -> str:
    gap = " " * max(0, width - text_width(text))
    return gap + text if right else text + gap


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A monospace table: the first column left-aligned (names), the others right-aligned
    (numbers), one space between columns, each as wide as its widest cell."""
    widths = [max(text_width(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [" ".join(pad(cell, widths[i], right=i > 0) for i, cell in enumerate(row)).rstrip()
            for row in [header, *rows]]


@dataclass(frozen=True)
class Column:
    """A column of the players' table: its header's text key and each line's cell."""

    key: str
    cell: Callable[[PlayerLine], str]


def player_columns(players: Sequence[PlayerLine], *, has_masters: bool, scored: bool,
                   solos: Mapping[Member, int]) -> list[Column]:
    """The columns that say something for these players: hands always; becoming masters and
    hands as masters where the game has masters; running away once anybody ran away; the
    score where the game scores players (or anybody scored); matches won; solos owed."""
    columns = [Column("hands", lambda p: str(p.hands))]
    if has_masters:
        columns += [Column("made", lambda p: str(p.became_masters)),
                    Column("held", lambda p: str(p.hands_as_masters))]
    if any(p.ran_away for p in players):
        columns.append(Column("ran", lambda p: str(p.ran_away)))
    if scored or any(p.score for p in players):
        columns.append(Column("score", lambda p: f"{p.score:+d}"))
    if any(p.matches_won for p in players):
        columns.append(Column("matches", lambda p: str(p.matches_won)))
    if solos:
        columns.append(Column("solos", lambda p: str(solos[p.member])
                              if p.member in solos else ""))
    return columns


def players_table(players: Sequence[PlayerLine], columns: Sequence[Column],
                  names: Mapping[Member, str], badged: Iterable[Member] = (),
                  badge: str = "") -> list[str]:
    """The players' table: a header of the columns' names, then a row per player, names
    cut to the room the numbers leave on a phone's line (``PHONE_CHARS``)."""
    header = [t("standings.col.player"), *(t(f"standings.col.{c.key}") for c in columns)]
    cells = [[c.cell(p) for c in columns] for p in players]
    numbers = sum(1 + max(text_width(x) for x in (h, *(row[i] for row in cells)))
                  for i, h in enumerate(header[1:]))
    room = max(MIN_NAME_CHARS, min(NAME_CHARS, PHONE_CHARS - numbers))
    marked = set(badged)
    mark = f" {badge}" if badge else ""
    rows = [[fit(names.get(p.member, p.member), room - (text_width(mark)
                                                         if p.member in marked else 0))
             + (mark if p.member in marked else ""), *row]
            for p, row in zip(players, cells, strict=True)]
    return table(header, rows)
