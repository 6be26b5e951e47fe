"""Turning tables and views into Discord embeds and components.

Public messages are built only from a ``PublicView`` and a hand view only from that player's
``SeatView``: a hidden card is never in the object being rendered, so it cannot reach anybody
else. Component ids are written by ``bot.protocol`` (``fc:OP:TABLE[:ARGS]``) and read by the
tables cog, so every button keeps working after a restart.
"""

from __future__ import annotations

import time
from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot import cardart, facts, holds, how, seals  # noqa: F401  (``render.facts``: the tests word facts with it)
from bot.colours import GAME_COLOUR
from bot.names import player_mention, seat_mention  # noqa: F401  (``render.seat_mention``)
from bot.options import encode as encode_option
from bot.options import menus as option_menus
from bot.options import offers as option_offered
from bot.protocol import Op, button_id, select_id
from bot.seats import is_computer
from bot.session import COMPUTER_LEVELS, TableSession
from bot.store import PartnershipStatus
from bot.texts import (
    SUIT_SIGNS,
    current_faces,
    game_title,
    has_text,
    option_name,
    option_text,
    points_text,
    showing,
    t,
    team_name,
)
from bot.voice import Text, say, words
from bot.voice import facts as voice_facts
from bot.voice.markdown import label, markdown
from bot.voice.table import Table
from engine import (
    Action,
    HandResult,
    PublicView,
    SeatView,
    make_rules,
    public_view,
    replay,
)
from engine.ai.analysis import Chance, Decision, Hint, Outcome
from engine.cards import RANK_CODES, card, code, rank_of, suit_of
from engine.hand import PLAYING
from engine.ranking import card_ranking
from engine.trumps import TrumpOrder

if TYPE_CHECKING:
    from engine import Trick

CARDS_PER_ROW = 4


def voiced(s: TableSession) -> Table:
    """The table as the voice names it (``bot.voice``)."""
    return Table.of(s)


def _lines(texts: list[Text]) -> list[str]:
    return [markdown(x) for x in texts]


def countdown(deadline: float | None) -> str:
    """A live countdown (Discord's relative timestamp: every reader's client counts it down
    in their own language), or nothing."""
    if deadline is None:
        return ""
    return f" ⏳ {relative_time(deadline)}"


def relative_time(moment: float) -> str:
    """A moment as Discord's relative timestamp ("in 30 seconds", counting live)."""
    return discord.utils.format_dt(datetime.fromtimestamp(moment, tz=UTC), "R")


def button(
    op: Op, table_id: int, *args: str | int, label: str = "\u200b",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[Any]:
    """A button of the bot: its custom_id says all it does (``bot.protocol``)."""
    return discord.ui.Button(label=label[:80], style=style, disabled=disabled, row=row,
                             custom_id=button_id(op, table_id, *args))


def select(
    op: Op, table_id: int, *args: str | int,
    options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
    min_values: int = 1, max_values: int = 1, row: int | None = None,
) -> discord.ui.Select[Any]:
    """A select menu of the bot (lobby options, cards to bury, long lists of choices)."""
    opts = options or [discord.SelectOption(label="\u200b", value="-")]
    return discord.ui.Select(
        custom_id=select_id(op, table_id, *args), options=opts[:25], placeholder=placeholder,
        min_values=min(min_values, len(opts)), max_values=min(max_values, len(opts)), row=row)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """Components to send. The view is stopped before it is sent: nothing in the bot waits
    on it (every click reaches the tables cog's one listener), so discord.py keeps no copy
    of it per message, however many messages the bot sends in a month."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


# -- lobby --------------------------------------------------------------------------------------


def lobby_embed(s: TableSession) -> discord.Embed:
    # The game's aim is said here, before the first card, and in /help: the table message
    # keeps its room for the trick (issue 44: on a phone a goal paragraph pushed it below).
    goal = goal_line(s)
    embed = discord.Embed(title=t("lobby.title", game=title(s)), colour=GAME_COLOUR,
                          description="\n\n".join(x for x in (
                              t("lobby.opened_by", user=f"<@{s.row.opener_id}>"), goal) if x))
    n = s.rules.players
    table = voiced(s)
    held = held_seats(s)

    def seat_line(seat: int) -> str:
        if seat in held:
            member, until = held[seat]
            return f"{seat + 1}. " + t("lobby.held", user=f"<@{member}>",
                                       until=relative_time(until))
        return f"{seat + 1}. {markdown(table.person(seat))}"

    if s.fixed_teams:
        for team in (0, 1):
            embed.add_field(name=t("lobby.team", team=team_name(team)), value="\n".join(
                seat_line(seat) for seat in range(team, n, 2)), inline=True)
    else:
        embed.add_field(name=t("lobby.seats", players=n), value="\n".join(
            seat_line(seat) for seat in range(n)), inline=False)
    embed.add_field(name=t("lobby.options"), value=options_line(s), inline=False)
    known = status_line(s, s.known)
    if known:
        embed.add_field(name="\u200b", value=known, inline=False)
    return _sealed(embed, s)


def _sealed(embed: discord.Embed, s: TableSession, *, in_play: bool = False) -> discord.Embed:
    """The embed with the seal line under it (``bot.seals``): the next deal's, or the hand in
    play's."""
    line = seals.shown(s.next_seal, s.sealed if in_play else None)
    return embed.set_footer(text=line) if line else embed


def held_seats(s: TableSession) -> dict[int, tuple[str, float]]:
    """The empty seats held for invited players not seated yet, by seat: a hold keeps a
    seat, not a given one, so the holds are shown on the first empty seats, the one that
    runs out first first (issue 44: held seats read "— empty —")."""
    now = time.time()
    pending = sorted(holds.holding("", s.seats, s.row.runtime, now).items(),
                     key=lambda x: (x[1], x[0]))
    empty = [seat for seat, m in enumerate(s.seats) if m is None]
    return dict(zip(empty, pending, strict=False))


def outsiders_may_sit(s: TableSession) -> bool:
    """Whether somebody not invited may take a seat now (else the seat buttons are for the
    invited only, and say so)."""
    return holds.free_for("", free=s.seats.count(None), seated=s.seats,
                          runtime=s.row.runtime, now=time.time()) > 0


def options_line(s: TableSession) -> str:
    """The game's options and the table's settings: what kind of table this is (rated or
    casual, hints, pings) is as much part of it as the rules."""
    # Only the options the lobby offers: an option a game accepts without effect is none.
    parts = [option_text(k, v) for k, v in s.rules.options.model_dump().items()
             if option_offered(s.game, k)]
    parts.append(t("lobby.turn_seconds", seconds=s.turn_seconds))
    parts.append(t("lobby.rated") if s.rated else t("lobby.casual"))
    if not s.rated:
        parts.append(t("lobby.hints_on") if s.hints else t("lobby.hints_off"))
    parts.append(t("lobby.pings_on") if s.pings else t("lobby.pings_off"))
    return ", ".join(parts)


def status_line(s: TableSession, st: PartnershipStatus | None) -> str | None:
    """"Team B are servants since 12 Nov — Ana deals", for the players at this table, with
    the match score where the game keeps one."""
    status, dealer_seat = s.stored_status(st)
    line = words.status_line(voiced(s), status, dealer_seat, st)
    return None if line is None else markdown(line)


def score_word(s: TableSession) -> str:
    """What the running score is called (``bot.voice.words.score_word``)."""
    return words.score_word(voiced(s))


def slaves_word(s: TableSession) -> str:
    """What the game calls the side below the masters (Filicău: slaves), as a word."""
    return words.slaves_word(voiced(s))


def score_text(s: TableSession, score: tuple[int, ...]) -> str:
    """A match score: per team (``A 3 · B 7``) or per player."""
    return markdown(words.score(voiced(s), score))


def lobby_view(s: TableSession) -> discord.ui.View:
    """The lobby in the rows a phone shows at once: the seat buttons (only those that can
    seat somebody) and Leave; the table's own buttons; one menu to add a computer of a
    level (while a seat is free); the options menu."""
    tid = s.id
    g, b, r = discord.ButtonStyle.green, discord.ButtonStyle.blurple, discord.ButtonStyle.red
    n = s.rules.players
    # Where every free seat is held, the seat buttons are the invited's: they say so, grey
    # (an outsider's press would be refused).
    invited = not outsiders_may_sit(s)
    style = discord.ButtonStyle.secondary if invited else b
    if s.fixed_teams:
        seat_buttons = [
            button(Op.JOIN, tid, team, label=t("btn.join_invited", team=team_name(team))
                   if invited else t(f"btn.join_{'ab'[team]}"), style=style, row=0)
            for team in (0, 1) if any(s.seats[x] is None for x in range(team, n, 2))]
    else:
        seat_buttons = [] if s.full else [button(
            Op.SIT, tid, label=t("btn.sit_invited") if invited else t("btn.sit"), style=style,
            row=0)]
    items: list[discord.ui.Item[Any]] = list(seat_buttons)
    if any(m is not None and not is_computer(m) for m in s.seats):
        items.append(button(Op.LEAVE, tid, label=t("btn.leave"), row=0))
    computers = [seat for seat, m in enumerate(s.seats) if is_computer(m)]
    if computers:
        # The last computer seated goes: the button says which.
        items.append(button(Op.UNCPU, tid, label=t("btn.remove_cpu_seat",
                                                   seat=computers[-1] + 1), row=1))
    items += [
        button(Op.START, tid, label=t("btn.start"), style=g, row=1, disabled=not s.full),
        button(Op.CANCEL, tid, label=t("btn.cancel"), style=r, row=1),
    ]
    if not s.full:
        items.append(select(Op.CPU, tid, placeholder=t("lobby.add_cpu"), row=2, options=[
            discord.SelectOption(label=t(ADD_CPU_LABELS[level]), value=level)
            for level in COMPUTER_LEVELS]))
    offered = option_menus(s.game)
    current = s.rules.options.model_dump()
    for index, entries in enumerate(offered):
        # More than 25 choices (Discord's limit) are split between menus, each named by the
        # options it holds.
        placeholder = t("lobby.change_option") if len(offered) == 1 else _shorten(
            ", ".join(dict.fromkeys(option_name(name) for name, _ in entries)), 150)
        items.append(select(Op.OPTION, tid, *((index,) if index else ()),
                            placeholder=placeholder, row=3 + index,
                            options=[discord.SelectOption(
                                label=option_text(name, value)[:100],
                                value=encode_option(name, value),
                                emoji="✅" if current.get(name) == value else None)
                                for name, value in entries]))
    return _view(*items)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: The text of each level in the Add computer menu.
ADD_CPU_LABELS = {"easy": "btn.add_cpu_easy", "normal": "btn.add_cpu", "hard": "btn.add_cpu_hard"}


# -- the table in play ------------------------------------------------------------------------


def seat_badges(s: TableSession, v: PublicView, seat: int) -> str:
    return _badges(voiced(s), v, seat)


def _badges(table: Table, v: PublicView, seat: int) -> str:
    badges = words.seat_badges(table, v, seat)
    return f" ({', '.join(_lines(badges))})" if badges else ""


def table_content(s: TableSession, v: PublicView) -> str:
    """The table message's text: empty. Whose turn it is shows in the seats (▶ and the
    countdown); the turn's one signal is a message of its own that pings them."""
    return ""


def now_line(s: TableSession, v: PublicView) -> str | None:
    """What the table waits for, when it is not simply a card (a choice, an open window)."""
    line = words.now_line(v)
    return None if line is None else markdown(line)


def goal_line(s: TableSession) -> str | None:
    """The game's aim in one sentence, so that nobody has to look it up mid-hand."""
    line = words.goal(voiced(s))
    return None if line is None else markdown(line)


def seat_prefix(s: TableSession, v: PublicView, seat: int) -> str:
    """A seat's team as the table knows it (``bot.voice.words.seat_team``): the letter
    alone at fixed-teams tables, in brackets at the others."""
    return _prefix(voiced(s), v, seat)


def _prefix(table: Table, v: PublicView, seat: int) -> str:
    team = words.seat_team(table, v, seat)
    if team is None:
        return ""
    return team if table.fixed_teams else f"[{team}] "


def role_word(role: str) -> str:
    """A seat's role as its badge says it: ``declarer``, ``defender``, ``Old Man's side``."""
    return markdown(voice_facts.seat_role(role))


def side_word(role: str) -> str:
    """A side named by its role, as results list sides: ``Declarer``, ``Defenders``."""
    return markdown(voice_facts.side_role(role))


def table_embed(s: TableSession, v: PublicView, deadline: float | None = None
                ) -> discord.Embed:
    """The table in play; ``deadline``: when the wait for the people to act ends (their
    line shows a live countdown)."""
    table = voiced(s)
    lines = [markdown(x) for x in (words.now_line(v),) if x]
    embed = discord.Embed(title=t("table.title", game=title(s), number=s.hand_number),
                          colour=GAME_COLOUR, description="\n".join(lines) or None)
    trump = words.trump(v)
    if trump is not None:
        embed.add_field(name=t("table.trump"), value=markdown(trump), inline=False)

    def seat_line(seat: int) -> str:
        turn = seat in v.actors
        taken = words.taken(table, v, seat)
        return (f"{'▶ ' if turn else ''}{_prefix(table, v, seat)}{seat + 1} "
                f"{markdown(table.person(seat))}{_badges(table, v, seat)}"
                + (countdown(deadline) if turn else "")
                + (f" — {markdown(taken)}" if taken is not None else ""))

    embed.add_field(name=t("table.seats"), value="\n".join(
        seat_line(seat) for seat in range(v.players)), inline=False)
    known = _lines(words.facts(table, v))
    if known:
        embed.add_field(name=t("table.game_facts"), value="\n".join(known)[:1024],
                        inline=False)
    # The trick in play, and one played before play proper (the fris trick: its cards are
    # on the table as soon as they fall, whatever the phase is called).
    if not v.finished and (v.phase == PLAYING or v.trick):
        embed.add_field(name=markdown(words.trick_title(v)),
                        value=markdown(words.trick(table, v.leader, v.trick)) if v.trick
                        else t("table.trick_empty"), inline=True)
    last = v.last_trick
    if last is not None:
        embed.add_field(name=t("table.last_trick"), value=markdown(words.last_trick(table, last)),
                        inline=True)
    points = words.team_points(table, v)
    if points is not None:
        embed.add_field(name=points_name(s), value=markdown(points), inline=False)
    status = words.status_of(v)
    if status.score is not None:
        embed.add_field(name=t(f"table.{words.score_word(table)}"),
                        value=markdown(words.score(table, status.score)), inline=False)
    free = words.free_seats(table) if v.finished else None
    if free:
        embed.add_field(name=t("table.seat_change"), value=markdown(free), inline=False)
    left = words.unplayed(table, v)
    if left:
        embed.add_field(name=t("table.unplayed"), value="\n".join(_lines(left)), inline=False)
    return _sealed(embed, s, in_play=not v.finished)


def points_name(s: TableSession) -> str:
    """The points' field name: card points where the game counts them."""
    return points_text("table.points", s.rules.points)


def info_lines(s: TableSession, v: PublicView) -> list[str]:
    """The game's own public facts (``Rules.public_info``), one line each: the called card,
    bids, signals, face-up cards."""
    return _lines(words.facts(voiced(s), v))


def trick_line(s: TableSession, leader: int, cards: tuple[int, ...]) -> str:
    return markdown(words.trick(voiced(s), leader, cards))


def last_trick_text(s: TableSession, trick: Trick) -> str:
    return markdown(words.last_trick(voiced(s), trick))


def table_view(s: TableSession, v: PublicView, watch_url: str | None = None,
               activity: bool = False) -> discord.ui.View:
    """The table's own buttons; between hands, the seat changes under them (Next hand is on
    the result, where the hand's players look). Leaving is on a row of its own, away from
    the buttons pressed every hand. ``activity``: the bot is a Discord Activity too, and
    *Open the table* opens it at this table."""
    tid = s.id
    buttons: list[discord.ui.Item[Any]] = [
        button(Op.HAND, tid, label=t("btn.my_hand"), style=discord.ButtonStyle.blurple),
        button(Op.LAST, tid, label=t("btn.last_trick")),
        button(Op.RULES, tid, label=t("btn.rules")),
    ]
    if activity:
        buttons.insert(1, button(Op.ACTIVITY, tid, label=t("btn.open_table"),
                                 style=discord.ButtonStyle.green))
    if v.finished:
        buttons.extend(between_hands_buttons(s))
    else:
        # A player who must go hands the seat to the computer (after a yes).
        buttons.append(button(Op.LEAVE, tid, label=t("btn.leave_hand"),
                              style=discord.ButtonStyle.danger, row=1))
    if watch_url is not None:
        # The table's live page (bot.web), for whoever would rather watch it drawn.
        buttons.insert(3, watch_button(watch_url))
    return _view(*buttons)


def leave_question(s: TableSession) -> discord.ui.View:
    """Yes or no to "Leave the table?" during a hand (only its asker sees it)."""
    return _view(
        button(Op.LEAVE, s.id, s.hand_number, "yes", label=t("btn.leave_yes"),
               style=discord.ButtonStyle.danger),
        button(Op.LEAVE, s.id, s.hand_number, "no", label=t("btn.leave_no")))


def between_hands_buttons(s: TableSession) -> list[discord.ui.Item[Any]]:
    """Changing seats between hands: sit down in a free seat or in place of a computer,
    leave, or fill a free seat with a computer (row 1, under the table's own buttons). A
    tournament seats its tables itself: none of these there."""
    if s.plan is not None:
        return []
    tid, n = s.id, s.rules.players
    b = discord.ButtonStyle.blurple

    def open_in(seats: range) -> bool:
        return any(s.seats[x] is None or is_computer(s.seats[x]) for x in seats)

    if s.fixed_teams:
        items: list[discord.ui.Item[Any]] = [
            button(Op.JOIN, tid, team, label=t(f"btn.join_{'ab'[team]}"), style=b, row=1)
            for team in (0, 1) if open_in(range(team, n, 2))]
    else:
        items = [button(Op.SIT, tid, label=t("btn.sit"), style=b, row=1)] \
            if open_in(range(n)) else []
    items.append(button(Op.LEAVE, tid, label=t("btn.leave"), row=1))
    if not s.full:
        items.append(button(Op.CPU, tid, "normal", label=t("btn.add_cpu"), row=1))
    return items


def free_seats_line(s: TableSession) -> str | None:
    """Between hands, when a seat is free: who may sit, and what a change does to status."""
    free = words.free_seats(voiced(s))
    return None if free is None else markdown(free)


# -- a player's hand ------------------------------------------------------------------------


def hand_content(s: TableSession, v: SeatView, deadline: float | None = None) -> str:
    table = voiced(s)
    status = markdown(words.prompt(table, v))
    if v.legal and not v.finished:
        status += countdown(deadline)
    context = words.hand_context(table, v)
    lines = [f"**{markdown(words.hand_heading(table))}**",
             *([markdown(context)] if context else [])]
    lines.extend(_lines(words.spoken(table, v)))
    lines.extend(_lines(words.private(table, v)))
    lines.append(status)
    lines.extend(_lines(words.notes(v)))
    return "\n".join(lines)


def hand_context(s: TableSession, v: SeatView) -> str:
    """One line that makes a hand view stand on its own (``bot.voice.words.hand_context``)."""
    context = words.hand_context(voiced(s), v)
    return "" if context is None else markdown(context)


#: Discord allows five rows of five components in a message.
ROWS, PER_ROW = 5, 5
#: Choice buttons side by side: what a phone shows in one row without wrapping.
PHONE_ROW = 3
#: A kind of choice with this many options is one menu (one row) rather than buttons.
MENU_FROM = 3


def hand_view(s: TableSession, v: SeatView) -> discord.ui.View:
    """Card buttons, trumps first; only legal cards are enabled. Then the other choices the
    player has now (a Servant, a bid, a call, a signal): a kind with many options as one
    select menu, the others as buttons, three a row (a phone's width). Cards to choose
    together (burying) are a select menu of those cards, and they are shown only there."""
    tid, number = s.id, s.hand_number
    legal_cards = {a.value for a in v.legal if a.kind == "card"}
    # A free action the game knows cannot succeed from what the player sees is not offered
    # (a claim of the rest with cards that others may beat).
    others = [a for a in v.legal if a.kind != "card"] + [
        a for a in v.free if s.rules.worth_offering(v, a)]
    together = [a for a in others if chosen_together(a)]
    single = [a for a in others if not chosen_together(a)]
    in_menu = {c for a in together for c in a.value}
    # One button per card: a pack with every card twice (Doppelkopf) may deal one twice.
    cards = list(dict.fromkeys(c for c in v.hand if c not in in_menu))
    kinds = Counter(a.kind for a in single)
    listed = [a for a in single if kinds[a.kind] >= MENU_FROM]
    pressed = [a for a in single if kinds[a.kind] < MENU_FROM]
    choice_rows = (1 if together else 0) + (1 if listed else 0) + -(-len(pressed) // PHONE_ROW)
    # Four cards a row fit a phone's width; five only when four would leave no room.
    per_row = CARDS_PER_ROW
    if -(-len(cards) // CARDS_PER_ROW) + choice_rows > ROWS:
        per_row = PER_ROW
    items: list[discord.ui.Item[Any]] = []
    for i, c in enumerate(cards):
        # The cards that may be played are the primary action; a trump says so in its label
        # (a colour alone would draw the eye to trumps that may not be played).
        items.append(button(
            Op.CARD, tid, number, len(v.tricks), code(c), label=card_key_label(v, c),
            style=discord.ButtonStyle.primary if c in legal_cards
            else discord.ButtonStyle.secondary,
            disabled=c not in legal_cards, row=min(i // per_row, ROWS - 1),
        ))
    row = -(-len(cards) // per_row) if cards else 0
    if together and row < ROWS:
        items.append(_together_select(s, v, together, row))
        row += 1
    if -(-len(pressed) // PHONE_ROW) + (1 if listed else 0) > ROWS - row:
        listed, pressed = single, []  # no room for buttons: every choice in menus
    if listed and row < ROWS:
        menus = _choice_menus(s, listed, row)
        items.extend(menus)
        row += len(menus)
    for i, a in enumerate(pressed):
        items.append(button(
            Op.ACT, tid, number, *action_args(a), label=action_label(s, a),
            style=ACTION_STYLES.get(a.kind, discord.ButtonStyle.blurple),
            row=min(row + i // PHONE_ROW, ROWS - 1)))
    if v.legal and not v.finished and s.hints:
        # "What would you play?" on a row of its own under the choices (a row below the
        # cards, never between two rows of them); where all five rows are taken, at the end
        # of the last one if it has room.
        used = max((item.row or 0 for item in items), default=-1)
        last = ROWS - 1
        if used < last:
            items.append(button(Op.HINT, tid, number, len(v.tricks), label=t("btn.hint"),
                                row=used + 1))
        elif sum(1 for item in items if item.row == last and
                 isinstance(item, discord.ui.Button)) < PER_ROW and not any(
                isinstance(item, discord.ui.Select) and item.row == last for item in items):
            items.append(button(Op.HINT, tid, number, len(v.tricks), label=t("btn.hint"),
                                row=last))
    return _view(*items)


def _choice_menus(s: TableSession, actions: list[Action], row: int
                  ) -> list[discord.ui.Select[Any]]:
    """Choices as select menus of 25 options each (a menu's limit), from ``row`` down."""
    kinds = {a.kind for a in actions}
    kind = next(iter(kinds))
    placeholder = t(f"act.{kind}.choose") if len(kinds) == 1 and has_text(
        f"act.{kind}.choose") else t("hand.choose")
    menus = []
    for k in range(0, min(len(actions), (ROWS - row) * 25), 25):
        # Each menu its own custom_id (Discord requires it); the handler reads the value.
        menus.append(select(
            Op.ACT, s.id, s.hand_number, *((k // 25,) if k else ()), placeholder=placeholder,
            row=row + k // 25, options=[discord.SelectOption(
                label=action_label(s, a)[:100], value=":".join(action_args(a))[:100])
                for a in actions[k:k + 25]]))
    return menus


# -- hints and reviews ------------------------------------------------------------------------


def action_text(s: TableSession, v: PublicView, action: Action) -> str:
    """An action as a player reads it: a card's label (marked if trump), else its choice."""
    return label(words.action(voiced(s), v, action))


def outcome_text(s: TableSession, outcome: Outcome) -> str:
    """How a hand may end, from the asker's side (``bot.voice.words.outcome``)."""
    return markdown(words.outcome(voiced(s), outcome))


def chances_text(s: TableSession, chances: tuple[Chance, ...]) -> str:
    return markdown(words.chances(voiced(s), chances))


#: Lines of choices a hint lists at most (a message holds 2,000 characters).
HINT_LINES = words.HINT_LINES


def hint_text(s: TableSession, v: PublicView, hint: Hint) -> str:
    """Normal's choice for the asker's position, and each legal action's likely endings
    (``bot.voice.words.hint``)."""
    return "\n".join(_lines(words.hint(voiced(s), v, hint)))[:2000]


def review_page(s: TableSession, record: dict[str, Any], number: int, seat: int,
                decisions: list[Decision], step: int) -> tuple[str, discord.ui.View]:
    """One trick of a finished hand with every hand open (it is over), sorted and marked as
    the hand view shows a hand (trumps first, each marked), and Hard's view of the asker's
    decisions in it; ◀ ▶ move between tricks. The summary of costly mistakes is on the
    first page only."""
    hand = replay(record)
    tricks = hand.tricks
    last = max(len(tricks) - 1, 0)
    step = min(max(step, 0), last)
    n = hand.n
    held = [list(hand.hands[x]) for x in range(n)]
    for trick in tricks[step:]:
        for i, c in enumerate(trick.cards):
            held[(trick.leader + i) % n].append(c)
    pv = public_view(hand)
    table = voiced(s)
    lines = [f"**{t('review.title', game=title(s), number=number)}**"]
    if step == 0:
        mistakes = sorted({d.trick + 1 for d in decisions if d.mistake})
        lines.append(t("review.summary", tricks=", ".join(map(str, mistakes)))
                     if mistakes else t("review.no_mistake"))
    lines.append(t("review.trick", trick=step + 1, tricks=len(tricks)))
    lines.extend(f"{x + 1}. {markdown(table.person(x))}: "
                 f"{held_text(pv, hand.sort_hand(held[x]))}" for x in range(n))
    if tricks:
        trick = tricks[step]
        lines.append(t("table.last_trick_line", cards=trick_line(s, trick.leader, trick.cards),
                       user=markdown(table.person(trick.winner))))
    for d in (d for d in decisions if d.trick == step):
        lines.append(decision_text(s, pv, d))
    tid = s.id
    view = _view(
        button(Op.REVIEW, tid, number, step - 1, label="◀", disabled=step == 0),
        button(Op.REVIEW, tid, number, step + 1, label="▶", disabled=step >= last))
    return "\n".join(lines)[:2000], view


def held_text(v: PublicView, cards: list[int]) -> str:
    """Cards in a hand as its buttons show them, trumps marked (a review's open hands)."""
    return " · ".join(card_button_label(v, c) for c in cards) if cards else "—"


def decision_text(s: TableSession, v: PublicView, d: Decision) -> str:
    """Hard's word on one decision (``bot.voice.words.decision``)."""
    return markdown(words.decision(voiced(s), v, d))


def result_view(s: TableSession, number: int, *, next_hand: bool = False,
                replay_url: str | None = None, result: HandResult | None = None
                ) -> discord.ui.View:
    """The buttons under a hand's result: a review of one's own play in it (not of a deal
    nobody played a card of: ``result``), Next hand until the next hand is dealt (the same
    button as the table's: the first click deals), and the hand's replay page when the bot
    serves pages (``bot.web``)."""
    items: list[discord.ui.Item[Any]] = []
    if result is None or words.cards_played(result):
        items.append(button(Op.REVIEW, s.id, number, label=t("btn.review")))
    if next_hand:
        items.insert(0, button(Op.NEXT, s.id, number, label=t("btn.next_hand"),
                               style=discord.ButtonStyle.green))
    if replay_url is not None:
        items.append(replay_button(replay_url))
    return _view(*items)


def replay_button(url: str) -> discord.ui.Button[Any]:
    """A link button to a hand's replay page: Discord opens it in the browser, and no
    interaction reaches the bot (it has no custom_id)."""
    return discord.ui.Button(label=t("btn.replay")[:80], style=discord.ButtonStyle.link,
                             url=url)


def watch_button(url: str) -> discord.ui.Button[Any]:
    """A link button to the table's live page (``bot.web``), for the table message."""
    return discord.ui.Button(label=t("btn.watch")[:80], style=discord.ButtonStyle.link,
                             url=url)


def history_line(number: int, summary: str, url: str | None = None) -> str:
    """A line of ``/history``: the hand's number links to its replay when there is one."""
    if url is None:
        return t("history.line", number=number, summary=summary)
    return t("history.line_link", number=number, summary=summary, url=url)


#: Marks a trump on its card button.
TRUMP_MARK = words.TRUMP_MARK


def card_button_label(v: PublicView, c: int) -> str:
    """A card on a hand's button: its label, marked when it is a trump."""
    return label(words.card_choice(v, c))


#: Marks a trump on its button in the hand: after the rank, and narrower than ``TRUMP_MARK``.
TRUMP_KEY_MARK = "*"


def card_key_label(v: PublicView, c: int) -> str:
    """A card on its button in the hand: the suit sign and the rank as the cards' corners show
    it (``corner.*``), a trump marked with a star after it: "🌰O*", "🍃10"; Hungarian "🌰F*",
    Romanian "🌰D". No space at all, so that it never breaks, and four buttons a row fit a
    phone 400 px wide in every language (with the rank in words and "★ " before it,
    "★ 🌰 Ober", rows of four wrapped 3+1). Menus, hints and the table, which have the room,
    name the card in words (``card_button_label``, ``card_label``)."""
    rank = RANK_CODES[rank_of(c)]
    # A button may say the rank as the text does where the corner's letter would not
    # (German: the Sau, whose corner shows "A"); French faces' corners say "A" for the Ass.
    faces = current_faces()
    keys = (f"key.{rank}", f"corner.{rank}") if faces == "german" else (
        f"corner.{faces}.{rank}",)
    corner = next((t(k) for k in keys if has_text(k)), rank)
    order: TrumpOrder | None = v.order
    mark = TRUMP_KEY_MARK if order is not None and order.is_trump(c) else ""
    return f"{SUIT_SIGNS[faces][suit_of(c)]}{corner}{mark}"


def chosen_together(action: Action) -> bool:
    """Cards chosen together (to bury): the record lists them."""
    return words.chosen_together(action)


#: Button colours of the non-card choices (blurple otherwise).
ACTION_STYLES = {
    "pass": discord.ButtonStyle.secondary,
    "signal": discord.ButtonStyle.secondary,
    # Looking at one's last two cards closes the fris window for everybody: no invitation.
    "look": discord.ButtonStyle.secondary,
    # Laying down ends the hand: not the primary action beside the cards.
    "claim": discord.ButtonStyle.secondary,
}


def action_args(action: Action) -> tuple[str, str]:
    """An action in a custom_id: its kind and its JSON value."""
    return words.action_value(action)


def action_label(s: TableSession, action: Action) -> str:
    """A choice on a button (``bot.voice.words.choice``): names as a button can show them."""
    return label(words.choice(voiced(s), action))


#: Action kinds whose value is a seat (shown as the player's name).
SEAT_KINDS = words.SEAT_KINDS


def _together_select(s: TableSession, v: SeatView, actions: list[Action],
                     row: int) -> discord.ui.Select[Any]:
    """Cards chosen together (burying two): a select of the cards any such choice uses."""
    kind = actions[0].kind
    size = len(actions[0].value)
    cards = sorted({c for a in actions for c in a.value}, key=v.hand.index
                   if all(c in v.hand for a in actions for c in a.value) else None)
    # The cards just taken (a widow) are marked here rather than listed again in the text.
    taken = {card(x) for x in v.private.get("widow") or () if isinstance(x, str)}
    return select(
        Op.TOGETHER, s.id, s.hand_number, kind, row=row, min_values=size, max_values=size,
        placeholder=label(words.choose_cards(kind, size)),
        options=[discord.SelectOption(
            label=card_button_label(v, c), value=code(c),
            description=t("hand.from_widow") if c in taken else None) for c in cards])


# -- results ---------------------------------------------------------------------------------


def result_embed(s: TableSession, result: HandResult, number: int, *,
                 next_at: float | None = None, dealt: bool = False) -> discord.Embed:
    """A hand's result; ``next_at``: when the next hand is dealt by itself (a live
    countdown); ``dealt``: it has been, so the result no longer asks for it."""
    table = voiced(s)
    lines = result_lines(s, result)
    if not dealt:
        lines.append(t("result.next_auto", when=relative_time(next_at))
                     if next_at is not None else markdown(say("result.next_in")))
    embed = discord.Embed(title=markdown(words.result_title(table, result, number)),
                          description="\n".join(lines), colour=GAME_COLOUR)
    return embed if dealt else _sealed(embed, s)


def result_lines(s: TableSession, result: HandResult) -> list[str]:
    """What a hand's result says (``bot.voice.words.result_lines``)."""
    return _lines(words.result_lines(voiced(s), result))


def hand_teams(s: TableSession, result: HandResult) -> tuple[int, ...]:
    return words.hand_teams(voiced(s), result)


def alone(teams: tuple[int, ...]) -> bool:
    return words.alone(teams)


def side_names(s: TableSession, result: HandResult) -> list[str]:
    return [markdown(x) for x in words.side_names(voiced(s), result)]


def teams_line(s: TableSession, result: HandResult) -> str | None:
    line = words.teams_line(voiced(s), result)
    return None if line is None else markdown(line)


def points_explained(s: TableSession, result: HandResult) -> list[str]:
    return _lines(words.points_explained(voiced(s), result))


def scores_line(s: TableSession, scores: list[int]) -> str:
    return markdown(words.scores_line(voiced(s), scores))


def result_sentence(s: TableSession, result: HandResult) -> str:
    return markdown(words.result_sentence(voiced(s), result))


def title(s: TableSession) -> str:
    """The table's game, named in the current language."""
    return game_title(s.game, s.rules.title)


def rules_embed(game: str, default_title: str, rulings: tuple[str, ...],
                options: dict[str, Any], *, picture: bool = False,
                faces: str = cardart.AS_PLAYED) -> discord.Embed:
    """A game's rules on one page: the engine's rulings (English), each worded in the
    reader's language by the catalog (``rulings.GAME.N``), the cards high to low with
    these options, and the options. ``picture``: the page shows the ranking's picture (the
    attachment ``bot.how.RANKING_FILE``: send ``bot.how.ranking_picture``'s file with it).
    The short how-to-play text is ``/help``'s: the rules page does not repeat it. The cards
    are named as the server's ``faces`` show them (default: those the game is played with)."""
    lines = [t(f"rulings.{game}.{i}") if has_text(f"rulings.{game}.{i}") else r
             for i, r in enumerate(rulings)]
    embed = discord.Embed(title=game_title(game, default_title), colour=GAME_COLOUR,
                          description="\n".join(f"• {r}" for r in lines))
    rules = make_rules(game, options)
    with showing(cardart.faces_for(rules, faces)):
        ranking = how.ranking_text(card_ranking(rules))
    embed.add_field(name=t("how.ranking_title"), inline=False, value=ranking)
    if options:
        embed.add_field(name=t("rules.options"),
                        value=", ".join(option_text(k, v) for k, v in options.items()))
    if picture:
        embed.set_image(url=f"attachment://{how.RANKING_FILE}")
    return embed
