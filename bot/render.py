"""Turning tables and views into Discord embeds and components.

Public messages are built only from a ``PublicView`` and a hand view only from that player's
``SeatView``: a hidden card is never in the object being rendered, so it cannot reach anybody
else. Component ids are written by ``bot.protocol`` (``fc:OP:TABLE[:ARGS]``) and read by the
tables cog, so every button keeps working after a restart.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot import facts, how
from bot.colours import GAME_COLOUR
from bot.names import plain_name, player_mention, seat_mention
from bot.options import encode as encode_option
from bot.options import menus as option_menus
from bot.options import offers as option_offered
from bot.protocol import Op, button_id, select_id
from bot.seats import is_computer
from bot.session import COMPUTER_LEVELS, TableSession
from bot.store import PartnershipStatus
from bot.texts import (
    SUIT_EMOJI,
    card_label,
    date_text,
    game_title,
    has_text,
    option_name,
    option_text,
    points_text,
    suit_label,
    t,
    team_name,
)
from engine import (
    Action,
    HandResult,
    PublicView,
    SeatView,
    Status,
    action_to_json,
    make_rules,
    public_view,
    replay,
)
from engine.ai.analysis import Chance, Decision, Hint, Outcome
from engine.cards import RANK_CODES, card, code, rank_of, suit_of
from engine.ranking import card_ranking
from engine.trumps import TrumpOrder

if TYPE_CHECKING:
    from engine import Trick

CARDS_PER_ROW = 4


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
    embed = discord.Embed(title=t("lobby.title", game=title(s)), colour=GAME_COLOUR,
                          description=t("lobby.opened_by", user=f"<@{s.row.opener_id}>"))
    n = s.rules.players
    if s.fixed_teams:
        for team in (0, 1):
            embed.add_field(name=t("lobby.team", team=team_name(team)), value="\n".join(
                f"{seat + 1}. {seat_mention(s, seat)}" for seat in range(team, n, 2)), inline=True)
    else:
        embed.add_field(name=t("lobby.seats", players=n), value="\n".join(
            f"{seat + 1}. {seat_mention(s, seat)}" for seat in range(n)), inline=False)
    embed.add_field(name=t("lobby.options"), value=options_line(s), inline=False)
    known = status_line(s, s.known)
    if known:
        embed.add_field(name="\u200b", value=known, inline=False)
    return embed


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
    if st is None or (status == Status() and dealer_seat is None):
        return None
    dealer = seat_mention(s, dealer_seat) if dealer_seat is not None else "?"
    lines = []
    if status.masters is None:
        lines.append(t("lobby.status_even", dealer=dealer))
    elif s.fixed_teams:
        lines.append(t("lobby.status_masters", team=team_name(1 - status.masters),
                       slaves=slaves_word(s), since=date_text(st.since), dealer=dealer))
    else:
        teams = status.teams or s.rules.seat_teams
        masters = " ".join(seat_mention(s, seat) for seat in range(s.rules.players)
                           if teams[seat] == status.masters)
        lines.append(t("lobby.status_masters_group", masters=masters,
                       since=date_text(st.since), dealer=dealer))
    if status.score is not None:
        lines.append(t(f"table.{score_word(s)}_line", score=score_text(s, status.score)))
    return "\n".join(lines)


def score_word(s: TableSession) -> str:
    """What the running score is called: a match's score, or (Bavarian Schafkopf) each
    player's balance (``Rules.score_kind``)."""
    return "balance" if s.rules.score_kind == "balance" else "match"


def slaves_word(s: TableSession) -> str:
    """What the game calls the side below the masters (Filicău: slaves), as a word."""
    return t(f"lobby.word_{s.rules.losers}")


def score_text(s: TableSession, score: tuple[int, ...]) -> str:
    """A match score: per team (``A 3 · B 7``) or per player."""
    if s.rules.score_by_seat:
        return " · ".join(f"{seat_mention(s, seat)} {v}" for seat, v in enumerate(score))
    return " · ".join(f"{team_name(team)} {v}" for team, v in enumerate(score))


def lobby_view(s: TableSession) -> discord.ui.View:
    """The lobby in the rows a phone shows at once: the seat buttons (only those that can
    seat somebody) and Leave; the table's own buttons; one menu to add a computer of a
    level (while a seat is free); the options menu."""
    tid = s.id
    g, b, r = discord.ButtonStyle.green, discord.ButtonStyle.blurple, discord.ButtonStyle.red
    n = s.rules.players
    if s.fixed_teams:
        seat_buttons = [
            button(Op.JOIN, tid, team, label=t(f"btn.join_{'ab'[team]}"), style=b, row=0)
            for team in (0, 1) if any(s.seats[x] is None for x in range(team, n, 2))]
    else:
        seat_buttons = [] if s.full else [button(Op.SIT, tid, label=t("btn.sit"), style=b,
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


def _cards(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_label(c) for c in cards) if cards else "—"


def seat_badges(s: TableSession, v: PublicView, seat: int) -> str:
    badges = []
    team = v.team[seat]
    if v.sides and team is not None and team < len(v.sides):
        # The seat's side by its role, once public: declarer, defender, the Old Man's side.
        badges.append(role_word(v.sides[team]))
    status = v.result.status if v.result else v.status
    if status.masters is not None:
        teams = status.teams or s.rules.seat_teams
        if teams[seat] == status.masters:
            badges.append(t("table.masters"))
        else:
            badges.append(t(f"table.{s.rules.losers}"))
    if status.servant == seat:
        badges.append(t("table.servant"))
    if seat == v.dealer:
        badges.append(t("table.dealer"))
    for key in v.public.get("badges", {}).get(str(seat), ()):
        badges.append(t(f"badge.{key}") if has_text(f"badge.{key}") else key)
    return f" ({', '.join(badges)})" if badges else ""


def table_content(s: TableSession, v: PublicView) -> str:
    """The table message's text: empty. Whose turn it is shows in the seats (▶ and the
    countdown); the turn's one signal is a message of its own that pings them."""
    return ""


def now_line(s: TableSession, v: PublicView) -> str | None:
    """What the table waits for, when it is not simply a card (a choice, an open window)."""
    if v.finished or not v.actors or v.phase == "play":
        return None
    key = f"phase.{v.phase}"
    phase = t(key) if has_text(key) else v.phase
    return t("table.phase_now", phase=phase)


def goal_line(s: TableSession) -> str | None:
    """The game's aim in one sentence, so that nobody has to look it up mid-hand."""
    key = f"goal.{s.game}"
    return t(key) if has_text(key) else None


def seat_prefix(s: TableSession, v: PublicView, seat: int) -> str:
    """A seat's team as the table knows it: the team letter at fixed-teams tables; at the
    others a letter only for sides that have no role (a role is the seat's badge) and
    only when sides are formed (everybody alone needs no letter)."""
    if s.fixed_teams:
        return team_name(seat % 2)
    team = v.team[seat]
    if team is None or v.sides or len(set(v.team)) == len(v.team):
        return ""
    return f"[{team_name(team)}] "


def role_word(role: str) -> str:
    """A seat's role as its badge says it: ``declarer``, ``defender``, ``Old Man's side``."""
    key = f"role.{role}"
    return t(key) if has_text(key) else facts.word(role)


def side_word(role: str) -> str:
    """A side named by its role, as results list sides: ``Declarer``, ``Defenders``."""
    key = f"side.{role}"
    return t(key) if has_text(key) else facts.word(role)


def table_embed(s: TableSession, v: PublicView, deadline: float | None = None
                ) -> discord.Embed:
    """The table in play; ``deadline``: when the wait for the people to act ends (their
    line shows a live countdown)."""
    lines = [x for x in (goal_line(s), now_line(s, v)) if x]
    embed = discord.Embed(title=t("table.title", game=title(s), number=s.hand_number),
                          colour=GAME_COLOUR, description="\n".join(lines) or None)
    if v.trump is not None:
        # A game that fixes trump shows no card for it: the suit alone, no "(shown: —)".
        embed.add_field(name=t("table.trump"), value=t(
            "table.trump_line", suit=suit_label(v.trump), shown=_cards(v.shown))
            if v.shown else suit_label(v.trump), inline=False)
    per_seat = not s.fixed_teams
    embed.add_field(name=t("table.seats"), value="\n".join(
        f"{'▶ ' if seat in v.actors else ''}{seat_prefix(s, v, seat)}{seat + 1} "
        f"{seat_mention(s, seat)}{seat_badges(s, v, seat)}"
        + (countdown(deadline) if seat in v.actors else "")
        + (f" — {points_text('n.points', s.rules.points, count=v.taken[seat])}"
           if per_seat and v.taken else "")
        for seat in range(v.players)), inline=False)
    facts = info_lines(s, v)
    if facts:
        embed.add_field(name=t("table.game_facts"), value="\n".join(facts)[:1024],
                        inline=False)
    if not v.finished and v.phase == "play":
        number = min(len(v.tricks) + 1, v.tricks_total or len(v.tricks) + 1)
        embed.add_field(name=t("table.trick_of", trick=number, tricks=v.tricks_total),
                        value=trick_line(s, v.leader, v.trick) if v.trick
                        else t("table.trick_empty"), inline=True)
    last = v.last_trick
    if last is not None:
        embed.add_field(name=t("table.last_trick"), value=last_trick_text(s, last), inline=True)
    if s.fixed_teams and len(v.team_points) == 2:
        a, b = v.team_points[0], v.team_points[1]
        embed.add_field(name=points_text("table.points", s.rules.points),
                        value=t("table.points_line", a=a, b=b),
                        inline=False)
    status = v.result.status if v.result else v.status
    if status.score is not None:
        embed.add_field(name=t(f"table.{score_word(s)}"), value=score_text(s, status.score),
                        inline=False)
    free = free_seats_line(s) if v.finished else None
    if free:
        embed.add_field(name=t("table.seat_change"), value=free, inline=False)
    if v.finished and v.unplayed and any(v.unplayed):
        embed.add_field(name=t("table.unplayed"), value="\n".join(
            f"{seat_mention(s, seat)}: {_cards(cards)}"
            for seat, cards in enumerate(v.unplayed) if cards), inline=False)
    return embed


def info_lines(s: TableSession, v: PublicView) -> list[str]:
    """The game's own public facts (``Rules.public_info``), one line each: the called card,
    bids, signals, face-up cards."""
    return facts.public_lines(s, v.public)


def trick_line(s: TableSession, leader: int, cards: tuple[int, ...]) -> str:
    return " · ".join(f"{card_label(c)} {player_mention(s, (leader + i) % s.rules.players)}"
                      for i, c in enumerate(cards))


def last_trick_text(s: TableSession, trick: Trick) -> str:
    return t("table.last_trick_line", cards=trick_line(s, trick.leader, trick.cards),
             user=player_mention(s, trick.winner))


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
    free = [seat for seat, m in enumerate(s.seats) if m is None]
    if not free:
        return None
    return t("table.seats_free", seats=", ".join(str(x + 1) for x in free))


# -- a player's hand ------------------------------------------------------------------------


def hand_content(s: TableSession, v: SeatView, deadline: float | None = None) -> str:
    heading = t("hand.title", game=title(s), number=s.hand_number)
    if v.finished:
        status = t("hand.over")
    elif v.seat in s.leaving:
        status = t("hand.left")
    elif v.legal and v.legal[0].kind == "servant":
        status = t("hand.choose_servant")
    elif v.legal and v.phase != "play":
        key = f"prompt.{v.phase}"
        status = t(key) if has_text(key) else t("hand.your_choice")
    elif v.legal:
        status = t("hand.your_turn")
    else:
        # Not "waiting for Bob": that would go stale as the table moves on.
        status = t("hand.not_your_turn")
    if v.legal and not v.finished:
        status += countdown(deadline)
    lines = [f"**{heading}**", *filter(None, [hand_context(s, v)])]
    private = v.private
    if any(chosen_together(a) for a in v.legal):
        # Choosing the cards to bury: the menu marks the widow's cards.
        private = {k: x for k, x in private.items() if k != "widow"}
    lines.extend(facts.private_lines(s, private, v.sides))
    lines.append(status)
    if not v.finished:
        # What a choice does beyond the player's own hand (``note.KIND``), said once.
        kinds = dict.fromkeys(a.kind for a in (*v.legal, *v.free))
        lines.extend(t(f"note.{kind}") for kind in kinds if has_text(f"note.{kind}"))
    return "\n".join(lines)


def hand_context(s: TableSession, v: SeatView) -> str:
    """One line that makes a hand view stand on its own: trump, and on your turn the trick
    so far (the cards in hand are the buttons). Off your turn the trick is the table's to
    show: a view nobody refreshes must never show an older trick than the table."""
    if not v.legal or v.finished:
        return t("hand.context_trump", trump=suit_label(v.trump)) if v.trump is not None \
            else ""
    trick = trick_line(s, v.leader, v.trick) if v.trick else t("table.trick_empty")
    if v.trump is None:
        return t("hand.context_no_trump", trick=trick)
    return t("hand.context", trump=suit_label(v.trump), trick=trick)


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
    others = [a for a in v.legal if a.kind != "card"] + list(v.free)
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
    if action.kind == "card":
        return card_button_label(v, action.value)
    return action_label(s, action)


def outcome_text(s: TableSession, outcome: Outcome) -> str:
    """How a hand may end, as the rules name it, always from the asker's side: "we become
    masters", "we stay slaves", "we beat the declarer" (``fate.EVENT.us`` when the event is
    about the asker's team, ``fate.EVENT.them`` when about the other, ``fate.EVENT`` when
    about nobody), never "they" beside "we"."""
    suffix = "" if outcome.ours is None else (".us" if outcome.ours else ".them")
    key = f"fate.{outcome.event}{suffix}"
    if has_text(key):
        what = t(key, slaves=slaves_word(s))
    else:
        plain = f"outcome.{outcome.event}"
        what = t(plain) if has_text(plain) else facts.word(outcome.event)
        if outcome.ours is not None:
            what = t("hint.us" if outcome.ours else "hint.them", what=what)
    if outcome.level and outcome.level != "simple":
        what += f" ({facts.word(outcome.level)})"
    return what


def chances_text(s: TableSession, chances: tuple[Chance, ...]) -> str:
    return " · ".join(f"{outcome_text(s, c.outcome)} {round(100 * c.chance)}%"
                      for c in chances[:3]) or "—"


#: Lines of choices a hint lists at most (a message holds 2,000 characters).
HINT_LINES = 10


def hint_text(s: TableSession, v: PublicView, hint: Hint) -> str:
    """Normal's choice for the asker's position, and each legal action's likely endings.

    Choices whose chances read the same share one line (the best first): the guesses at
    the hidden cards are the same for every choice, and the endings are few, so two cards
    often end the same way as often; the computer then prefers the one that takes more
    points, which the line says rather than printing the same chances twice."""
    lines = [t("hint.choice", action=action_text(s, v, hint.recommended))]
    if hint.estimated:
        lines.append(t("hint.chances", samples=hint.samples))
        groups: dict[str, list[Action]] = {}
        for a in sorted(hint.actions, key=lambda a: -a.value):
            groups.setdefault(chances_text(s, a.outcomes), []).append(a.action)
        for chances, actions in list(groups.items())[:HINT_LINES]:
            names = f" {t('hint.or')} ".join(action_text(s, v, a) for a in actions)
            lines.append(f"• {names}: {chances}")
        if any(len(actions) > 1 for actions in groups.values()):
            lines.append(t("hint.same_chances"))
    return "\n".join(lines)[:2000]


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
    lines = [f"**{t('review.title', game=title(s), number=number)}**"]
    if step == 0:
        mistakes = sorted({d.trick + 1 for d in decisions if d.mistake})
        lines.append(t("review.summary", tricks=", ".join(map(str, mistakes)))
                     if mistakes else t("review.no_mistake"))
    lines.append(t("review.trick", trick=step + 1, tricks=len(tricks)))
    lines.extend(f"{x + 1}. {seat_mention(s, x)}: {held_text(pv, hand.sort_hand(held[x]))}"
                 for x in range(n))
    if tricks:
        trick = tricks[step]
        lines.append(t("table.last_trick_line", cards=trick_line(s, trick.leader, trick.cards),
                       user=seat_mention(s, trick.winner)))
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
    """Hard's word on one decision. A better choice is said in the hand's own outcome: how
    much more often it ends a way that matters (the share of Hard's guesses at the hidden
    cards that end so), or, when the endings are as likely, that it takes more points."""
    played = action_text(s, v, d.played)
    if d.forced:
        return t("review.forced", action=played)
    if d.played == d.best or d.cost <= 0:
        return t("review.best", action=played)
    best = action_text(s, v, d.best)
    mistake = " " + t("review.mistake") if d.mistake else ""
    with_best = {c.outcome: c.chance for c in d.best_outcomes}
    with_played = {c.outcome: c.chance for c in d.played_outcomes}
    # The ending whose chance moves most (as the percentages show it); of two that move as
    # much, one about a side (masters, the declarer winning) rather than "no change".
    outcomes = sorted(with_best.keys() | with_played.keys(), key=lambda o: (
        -abs(round(100 * with_best.get(o, 0.0)) - round(100 * with_played.get(o, 0.0))),
        o.ours is None, o.event, str(o.ours)))
    if outcomes:
        o = outcomes[0]
        b, p = round(100 * with_best.get(o, 0.0)), round(100 * with_played.get(o, 0.0))
        if b != p:
            return t("review.better_chance", action=played, best=best,
                     outcome=outcome_text(s, o), best_chance=b, chance=p) + mistake
    return t("review.better_points", action=played, best=best) + mistake


def result_view(s: TableSession, number: int, *, next_hand: bool = False,
                replay_url: str | None = None) -> discord.ui.View:
    """The buttons under a hand's result: a review of one's own play in it, Next hand
    until the next hand is dealt (the same button as the table's: the first click deals),
    and the hand's replay page when the bot serves pages (``bot.web``)."""
    items: list[discord.ui.Item[Any]] = [
        button(Op.REVIEW, s.id, number, label=t("btn.review"))]
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
TRUMP_MARK = "★ "


def card_button_label(v: PublicView, c: int) -> str:
    """A card on a hand's button: its label, marked when it is a trump."""
    order: TrumpOrder | None = v.order
    return f"{TRUMP_MARK}{card_label(c)}" if order is not None and order.is_trump(c) \
        else card_label(c)


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
    corner = t(f"corner.{rank}") if has_text(f"corner.{rank}") else rank
    order: TrumpOrder | None = v.order
    mark = TRUMP_KEY_MARK if order is not None and order.is_trump(c) else ""
    return f"{SUIT_EMOJI[suit_of(c)]}{corner}{mark}"


def chosen_together(action: Action) -> bool:
    """Cards chosen together (to bury): the record lists them."""
    return isinstance(next(iter(action_to_json(action).values())), list)


#: Button colours of the non-card choices (blurple otherwise).
ACTION_STYLES = {
    "pass": discord.ButtonStyle.secondary,
    "signal": discord.ButtonStyle.secondary,
    # Looking at one's last two cards closes the fris window for everybody: no invitation.
    "look": discord.ButtonStyle.secondary,
}


def action_args(action: Action) -> tuple[str, str]:
    """An action in a custom_id: its kind and its JSON value."""
    (kind, value), = action_to_json(action).items()
    return kind, json.dumps(value, separators=(",", ":"))


def action_label(s: TableSession, action: Action) -> str:
    """A choice on a button: ``act.KIND.VALUE`` or ``act.KIND`` with the value worded."""
    (kind, value), = action_to_json(action).items()
    if isinstance(value, str | bool | int) and has_text(f"act.{kind}.{value}"):
        return t(f"act.{kind}.{value}")
    def name(seat: int) -> str:
        return plain_name(s, seat)

    parts = s.rules.action_parts(action)
    if kind in SEAT_KINDS and isinstance(value, int):
        shown = plain_name(s, value)
    elif parts is not None and has_text(f"actvalue.{kind}"):
        # A choice made of several parts (a binding, a fris) has a sentence of its own,
        # with every part (a fris names its trump also when it is its Ober's own suit).
        shown = t(f"actvalue.{kind}", **{k: facts.plain(v, name) for k, v in parts.items()})
    elif kind == "signal" and has_text(f"face.{value}"):
        return t("act.signal", face=t(f"face.{value}"), value=facts.word(value))
    else:
        shown = facts.plain(value, name)
    return t(f"act.{kind}", value=shown) if has_text(f"act.{kind}") else f"{kind} {shown}"


#: Action kinds whose value is a seat (shown as the player's name).
SEAT_KINDS = frozenset({"servant"})


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
        placeholder=t(f"act.{kind}.choose") if has_text(f"act.{kind}.choose")
        else t("hand.choose_cards", count=size),
        options=[discord.SelectOption(
            label=card_button_label(v, c), value=code(c),
            description=t("hand.from_widow") if c in taken else None) for c in cards])


# -- results ---------------------------------------------------------------------------------


def result_embed(s: TableSession, result: HandResult, number: int, *,
                 next_at: float | None = None, dealt: bool = False) -> discord.Embed:
    """A hand's result; ``next_at``: when the next hand is dealt by itself (a live
    countdown); ``dealt``: it has been, so the result no longer asks for it."""
    if s.fixed_teams and len(result.points) == 2:
        title = t("result.title", number=number, a=result.points[0], b=result.points[1])
    else:
        title = t("result.hand_title", number=number)
    lines = result_lines(s, result)
    if not dealt:
        lines.append(t("result.next_auto", when=relative_time(next_at))
                     if next_at is not None else t("result.next_in"))
    return discord.Embed(title=title, description="\n".join(lines), colour=GAME_COLOUR)


def result_lines(s: TableSession, result: HandResult) -> list[str]:
    """What a hand's result says, wherever it is shown (the result post, the web pages):
    what happened, who played together, the points and what they do not count, the scores,
    the match, who deals next."""
    lines = [result_sentence(s, result)]
    teams = teams_line(s, result)
    if teams:
        lines.append(teams)
    # A hand thrown in (no card played) has no card points to tell of.
    if any(result.points) or result.early:
        if s.fixed_teams and len(result.points) == 2:
            lines.append(t("table.points_line", a=result.points[0], b=result.points[1]))
        else:
            lines.append(points_text("result.points_line", s.rules.points, points=" · ".join(
                f"{name} {p}" for name, p in zip(side_names(s, result), result.points,
                                                 strict=False))))
        lines.extend(points_explained(s, result))
    counted = result.extra.get("counted")
    if counted:
        # What a game counted, in order ("Sauspiel mit der Blauen, 2 Laufende, Schneider:
        # 30 each"): ``counted.KEY`` per item, its other entries the sentence's params.
        lines.append(facts.counted_line(counted))
    scores = result.extra.get("scores")
    if scores is not None:
        lines.append(scores_line(s, scores))
    if result.status.pot is not None:
        # The Stock after the hand: with the balances it adds up to zero.
        lines.append(t("info.pot", value=result.status.pot))
    if result.status.score is not None:
        lines.append(t(f"table.{score_word(s)}_line",
                       score=score_text(s, result.status.score)))
    winners = result.extra.get("match_winner")
    if winners:
        if s.rules.score_by_seat:
            who = " ".join(seat_mention(s, seat) for seat in winners)
        else:
            who = " & ".join(t("lobby.team", team=team_name(team)) for team in winners)
        lines.append(t("result.match_won", who=who))
    lines.append(t("result.next_dealer", user=seat_mention(s, result.next_dealer)))
    return lines


def hand_teams(s: TableSession, result: HandResult) -> tuple[int, ...]:
    """Each seat's team in the hand the result is of (a result the engine completed says;
    else the status's teams, else the seats' fixed teams)."""
    teams = result.extra.get("teams")
    return (result.teams or (tuple(teams) if isinstance(teams, list) else None)
            or result.status.teams or result.status_before.teams or s.rules.seat_teams)


def alone(teams: tuple[int, ...]) -> bool:
    """Everybody played for themselves: each seat is a side of its own."""
    return len(set(teams)) == len(teams)


def side_names(s: TableSession, result: HandResult) -> list[str]:
    """Each side of the hand (team 0, 1...) by name: its role (Declarer, Defenders), its
    player when everybody played alone, else its team letter."""
    teams = hand_teams(s, result)
    if result.sides:
        return [side_word(role) for role in result.sides]
    if alone(teams):
        by_team = {team: seat for seat, team in enumerate(teams)}
        return [seat_mention(s, by_team[team]) if team in by_team else team_name(team)
                for team in range(len(result.points))]
    return [team_name(team) for team in range(len(result.points))]


def teams_line(s: TableSession, result: HandResult) -> str | None:
    """Who played on which side this hand (results name the players, not only "Team A");
    None when everybody played alone (the points name each player)."""
    teams = hand_teams(s, result)
    if alone(teams) and not result.sides:
        return None
    names = side_names(s, result)
    parts = []
    for team in sorted(set(teams)):
        members = " ".join(seat_mention(s, seat) for seat in range(s.rules.players)
                           if teams[seat] == team)
        parts.append(f"{names[team] if team < len(names) else team_name(team)}: {members}")
    return t("result.teams", teams=" · ".join(parts))


def points_explained(s: TableSession, result: HandResult) -> list[str]:
    """Why the points are what they are where that is not plain from the tricks: the
    buried cards counted for the declarer, and the points nobody took (still in the hands
    when the hand stopped early)."""
    out = []
    buried = result.extra.get("buried")
    if isinstance(buried, list) and buried and result.sides:
        worth = sum(s.rules.points[card(c)] for c in buried)
        # Not the cards themselves: the result stays up while the next hand is dealt, and
        # the table showed them when play was over.
        out.append(t("result.buried_counted", side=side_word(result.sides[0]), count=worth))
    if result.early:
        # Why it stopped, where the game's rules stopped it (a lost Tout, a claim); else
        # because no card could change the outcome any more.
        reason = f"result.early.{result.early_reason}"
        out.append(t(reason if result.early_reason and has_text(reason) else "result.early"))
    missing = s.rules.total_points - sum(result.points)
    if missing > 0:
        out.append(t("result.left_in_hands", count=missing))
    return out


def scores_line(s: TableSession, scores: list[int]) -> str:
    """What each player scored this hand, in words: those who scored, then who scored
    nothing (not a row of "+0")."""
    scored = [f"{seat_mention(s, seat)} {v:+d}" for seat, v in enumerate(scores) if v]
    nothing = [seat_mention(s, seat) for seat, v in enumerate(scores) if not v]
    if not scored:
        return t("result.scores_none")
    line = t("result.scores_line", scores=" · ".join(scored))
    if nothing:
        line += " · " + t("result.scores_nothing", users=", ".join(nothing))
    return line


def result_sentence(s: TableSession, result: HandResult) -> str:
    team = result.team
    if result.event == "no_change":
        if result.status.masters is None:
            return t("result.no_change_even")
        return t("result.no_change")
    name = other = ""
    members = ""
    if team is not None:
        name, other = team_name(team), team_name(1 - team) if team in (0, 1) else ""
        teams = hand_teams(s, result)
        members = " ".join(seat_mention(s, seat) for seat in range(s.rules.players)
                           if teams[seat] == team)
    slaves = slaves_word(s)
    if s.fixed_teams and team is not None and result.event in (
            "ran_away", "stay_masters", "masters", "liberated"):
        if result.event == "ran_away":
            return t("result.ran_away", team=name)
        if result.event == "stay_masters":
            return t("result.stay_masters", team=name)
        text = t("result.liberated" if result.event == "liberated" else "result.masters",
                 team=name, other=other, slaves=slaves)
        if result.status.servant is not None:
            text += " " + t("result.servant_chosen",
                            user=seat_mention(s, result.status.servant))
        return text
    key = f"event.{result.event}"
    text = (t(key, team=name, users=members, slaves=slaves) if has_text(key)
            else t("result.event", event=result.event.replace("_", " ")))
    if result.status.servant is not None and result.status.servant != \
            result.status_before.servant:
        text += " " + t("result.servant_chosen", user=seat_mention(s, result.status.servant))
    return text


def title(s: TableSession) -> str:
    """The table's game, named in the current language."""
    return game_title(s.game, s.rules.title)


def rules_embed(game: str, default_title: str, rulings: tuple[str, ...],
                options: dict[str, Any], *, picture: bool = False) -> discord.Embed:
    """A game's rules on one page: the engine's rulings (English), each worded in the
    reader's language by the catalog (``rulings.GAME.N``), the cards high to low with
    these options, and the options. ``picture``: the page shows the ranking's picture (the
    attachment ``bot.how.RANKING_FILE``: send ``bot.how.ranking_picture``'s file with it).
    The short how-to-play text is ``/help``'s: the rules page does not repeat it."""
    lines = [t(f"rulings.{game}.{i}") if has_text(f"rulings.{game}.{i}") else r
             for i, r in enumerate(rulings)]
    embed = discord.Embed(title=game_title(game, default_title), colour=GAME_COLOUR,
                          description="\n".join(f"• {r}" for r in lines))
    embed.add_field(name=t("how.ranking_title"), inline=False, value=how.ranking_text(
        card_ranking(make_rules(game, options))))
    if options:
        embed.add_field(name=t("rules.options"),
                        value=", ".join(option_text(k, v) for k, v in options.items()))
    if picture:
        embed.set_image(url=f"attachment://{how.RANKING_FILE}")
    return embed
