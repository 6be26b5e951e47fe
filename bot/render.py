"""Turning tables and views into Discord embeds and components.

Public messages are built only from a ``PublicView`` and a hand view only from that player's
``SeatView``: a hidden card is never in the object being rendered, so it cannot reach anybody
else. Component ids are ``fc:OP:TABLE[:ARGS]`` and are handled by ``GameButton``, a persistent
dynamic item, so every button keeps working after a restart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.session import COMPUTER_LEVELS, TableSession, computer_level, is_computer
from bot.store import Member, PartnershipStatus
from bot.texts import card_label, suit_label, t, team_name
from engine import HandResult, PublicView, SeatView
from engine.cards import code
from engine.trumps import TrumpOrder

if TYPE_CHECKING:
    from engine import Trick

GAME_COLOUR = discord.Colour.dark_green()
CARDS_PER_ROW = 4


def mention(member: Member | None) -> str:
    if member is None:
        return t("lobby.empty")
    if is_computer(member):
        level = computer_level(member)
        if level in COMPUTER_LEVELS:
            return t("lobby.computer_level", level=t(f"level.{level}"))
        return t("lobby.computer")
    return f"<@{member}>"


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"fc:(?P<op>[a-z_]+):(?P<table>[0-9]+)(?::(?P<args>[A-Za-z0-9:]*))?"):
    """Every button of the bot. The cog named ``Tables`` handles the click."""

    def __init__(
        self, op: str, table_id: int, *args: str | int, label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.op = op
        self.table_id = table_id
        self.args = tuple(str(a) for a in args)
        custom_id = ":".join(("fc", op, str(table_id), *self.args))
        super().__init__(discord.ui.Button(
            label=label[:80], style=style, custom_id=custom_id, disabled=disabled, row=row,
        ))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> GameButton:
        args = [a for a in (match["args"] or "").split(":") if a]
        return cls(match["op"], int(match["table"]), *args)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: Any = interaction.client.get_cog("Tables")  # type: ignore[attr-defined,unused-ignore]
        await cog.on_button(interaction, self.op, self.table_id, self.args)


def _view(*buttons: GameButton) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(b)
    return view


# -- lobby --------------------------------------------------------------------------------------


def lobby_embed(s: TableSession) -> discord.Embed:
    embed = discord.Embed(title=t("lobby.title", game=s.rules.title), colour=GAME_COLOUR,
                          description=t("lobby.opened_by", user=f"<@{s.row.opener_id}>"))
    n = s.rules.players
    for team in (0, 1):
        embed.add_field(name=t("lobby.team", team=team_name(team)), value="\n".join(
            f"{seat}. {mention(s.seats[seat])}" for seat in range(team, n, 2)), inline=True)
    opts = ", ".join(f"{k}: {v}" for k, v in s.rules.options.model_dump().items())
    opts += f", turn: {s.turn_seconds} s"
    embed.add_field(name=t("lobby.options"), value=opts, inline=False)
    known = status_line(s, s.known)
    if known:
        embed.add_field(name="\u200b", value=known, inline=False)
    return embed


def status_line(s: TableSession, st: PartnershipStatus | None) -> str | None:
    """"Team B are slaves since 12 Nov — Ana deals", for the partnerships at this table."""
    if st is None or (st.masters is None and st.next_dealer is None):
        return None
    dealer = mention(st.next_dealer) if st.next_dealer else "?"
    if st.masters is None:
        return t("lobby.status_even", dealer=dealer)
    slaves_letter = "b" if st.masters == "a" else "a"
    slaves_team = 0 if s.team_letter(0) == slaves_letter else 1
    word = t("lobby.word_servants") if s.game == "filko" else t("lobby.word_slaves")
    return t("lobby.status_masters", team=team_name(slaves_team), slaves=word,
             since=short_date(st.since), dealer=dealer)


def short_date(iso: str | None) -> str:
    if not iso:
        return "?"
    from datetime import datetime

    return datetime.fromisoformat(iso).strftime("%d %b").lstrip("0")


def lobby_view(s: TableSession) -> discord.ui.View:
    tid = s.id
    g, b, r = discord.ButtonStyle.green, discord.ButtonStyle.blurple, discord.ButtonStyle.red
    return _view(
        GameButton("join", tid, 0, label=t("btn.join_a"), style=b, row=0),
        GameButton("join", tid, 1, label=t("btn.join_b"), style=b, row=0),
        GameButton("leave", tid, label=t("btn.leave"), row=0),
        # One Add computer button per level (row 1), the table's own buttons below.
        *(GameButton("cpu", tid, level, label=t(ADD_CPU_LABELS[level]), row=1,
                     disabled=s.full) for level in COMPUTER_LEVELS),
        GameButton("uncpu", tid, label=t("btn.remove_cpu"), row=1),
        GameButton("start", tid, label=t("btn.start"), style=g, row=2, disabled=not s.full),
        GameButton("cancel", tid, label=t("btn.cancel"), style=r, row=2),
    )


#: The text key of each level's Add computer button.
ADD_CPU_LABELS = {"easy": "btn.add_cpu_easy", "normal": "btn.add_cpu", "hard": "btn.add_cpu_hard"}


# -- the table in play ------------------------------------------------------------------------


def _cards(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_label(c) for c in cards) if cards else "—"


def seat_badges(s: TableSession, v: PublicView, seat: int) -> str:
    badges = []
    status = v.result.status if v.result else v.status
    if status.masters is not None:
        badges.append(t("table.masters") if seat % 2 == status.masters else t("table.slaves"))
    if status.servant == seat:
        badges.append(t("table.servant"))
    if seat == v.dealer:
        badges.append(t("table.dealer"))
    return f" ({', '.join(badges)})" if badges else ""


def table_content(s: TableSession, v: PublicView) -> str:
    """The message text: it mentions whoever must act."""
    if v.finished or not v.actors:
        return ""
    seat = v.actors[0]
    key = "table.turn" if v.phase == "play" else "table.servant_turn"
    return t(key, user=mention(s.seats[seat]))


def table_embed(s: TableSession, v: PublicView) -> discord.Embed:
    embed = discord.Embed(title=t("table.title", game=s.rules.title, number=s.hand_number),
                          colour=GAME_COLOUR)
    if v.trump is not None:
        embed.add_field(name=t("table.trump"), value=t(
            "table.trump_line", suit=suit_label(v.trump), shown=_cards(v.shown)), inline=False)
    embed.add_field(name=t("table.seats"), value="\n".join(
        f"{'▶ ' if seat in v.actors else ''}{team_name(seat % 2)}{seat} "
        f"{mention(s.seats[seat])}{seat_badges(s, v, seat)}"
        for seat in range(v.players)), inline=False)
    embed.add_field(name=t("table.trick"), value=trick_line(s, v.leader, v.trick)
                    if v.trick else t("table.trick_empty"), inline=True)
    last = v.last_trick
    if last is not None:
        embed.add_field(name=t("table.last_trick"), value=last_trick_text(s, last), inline=True)
    a, b = v.team_points[0], v.team_points[1]
    embed.add_field(name=t("table.points"), value=t("table.points_line", a=a, b=b), inline=False)
    if v.finished and v.unplayed and any(v.unplayed):
        embed.add_field(name=t("table.unplayed"), value="\n".join(
            f"{mention(s.seats[seat])}: {_cards(cards)}"
            for seat, cards in enumerate(v.unplayed) if cards), inline=False)
    return embed


def trick_line(s: TableSession, leader: int, cards: tuple[int, ...]) -> str:
    return " · ".join(f"{card_label(c)} {mention(s.seats[(leader + i) % s.rules.players])}"
                      for i, c in enumerate(cards))


def last_trick_text(s: TableSession, trick: Trick) -> str:
    return t("table.last_trick_line", cards=trick_line(s, trick.leader, trick.cards),
             user=mention(s.seats[trick.winner]))


def table_view(s: TableSession, v: PublicView) -> discord.ui.View:
    tid = s.id
    buttons = [
        GameButton("hand", tid, label=t("btn.my_hand"), style=discord.ButtonStyle.blurple),
        GameButton("last", tid, label=t("btn.last_trick")),
        GameButton("rules", tid, label=t("btn.rules")),
    ]
    if v.finished:
        buttons.append(GameButton("next", tid, s.hand_number, label=t("btn.next_hand"),
                                  style=discord.ButtonStyle.green))
    return _view(*buttons)


# -- a player's hand ------------------------------------------------------------------------


def hand_content(s: TableSession, v: SeatView) -> str:
    title = t("hand.title", game=s.rules.title, number=s.hand_number)
    if v.finished:
        status = t("hand.over")
    elif v.legal and v.legal[0].kind == "servant":
        status = t("hand.choose_servant")
    elif v.legal:
        status = t("hand.your_turn")
    else:
        status = t("hand.wait", user=" / ".join(mention(s.seats[a]) for a in v.actors) or "—")
    return f"**{title}**\n{_cards(v.hand)}\n{status}"


def hand_view(s: TableSession, v: SeatView) -> discord.ui.View:
    """Card buttons, trumps first; only legal cards are enabled. Eight cards fit in two
    rows; Discord allows five rows of five."""
    tid, number = s.id, s.hand_number
    legal_cards = {a.value for a in v.legal if a.kind == "card"}
    order: TrumpOrder | None = v.order
    buttons: list[GameButton] = []
    for i, c in enumerate(v.hand):
        trump = order is not None and order.is_trump(c)
        buttons.append(GameButton(
            "card", tid, number, len(v.tricks), code(c), label=card_label(c),
            style=discord.ButtonStyle.green if trump else discord.ButtonStyle.secondary,
            disabled=c not in legal_cards, row=i // CARDS_PER_ROW,
        ))
    servants = [a.value for a in v.legal if a.kind == "servant"]
    for seat in servants:
        buttons.append(GameButton(
            "servant", tid, number, seat, label=t("btn.servant", user=plain_name(s, seat)),
            style=discord.ButtonStyle.red, row=3,
        ))
    return _view(*buttons)


def plain_name(s: TableSession, seat: int) -> str:
    """Button labels cannot render mentions: the name cached at join time, or the seat."""
    member = s.seats[seat]
    if is_computer(member):
        return f"{t('lobby.computer')} ({seat})"
    return s.names.get(member or "", f"#{seat}")


# -- results ---------------------------------------------------------------------------------


def result_embed(s: TableSession, result: HandResult, number: int) -> discord.Embed:
    a, b = result.points[0], result.points[1]
    lines = [result_sentence(s, result)]
    if result.early:
        lines.append(t("result.early"))
    lines.append(t("result.next_dealer", user=mention(s.seats[result.next_dealer])))
    lines.append(t("result.next_in"))
    return discord.Embed(title=t("result.title", number=number, a=a, b=b),
                         description="\n".join(lines), colour=GAME_COLOUR)


def result_sentence(s: TableSession, result: HandResult) -> str:
    team = result.team
    if result.event == "no_change":
        if result.status.masters is None:
            return t("result.no_change_even")
        return t("result.no_change")
    assert team is not None
    name, other = team_name(team), team_name(1 - team)
    slaves = t("lobby.word_servants") if s.game == "filko" else t("lobby.word_slaves")
    if result.event == "ran_away":
        return t("result.ran_away", team=name)
    if result.event == "stay_masters":
        return t("result.stay_masters", team=name)
    text = t("result.liberated" if result.event == "liberated" else "result.masters",
             team=name, other=other, slaves=slaves)
    if result.status.servant is not None:
        text += " " + t("result.servant_chosen", user=mention(s.seats[result.status.servant]))
    return text


def rules_embed(game_title: str, rulings: tuple[str, ...], options: dict[str, Any]
                ) -> discord.Embed:
    embed = discord.Embed(title=game_title, colour=GAME_COLOUR,
                          description="\n".join(f"• {r}" for r in rulings))
    if options:
        embed.add_field(name=t("rules.options"),
                        value=", ".join(f"{k}: {v}" for k, v in options.items()))
    return embed
