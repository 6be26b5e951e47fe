"""The records: standings, status, rules and history — the commands that read rather than play."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import boards
from bot.choices import GAME_CHOICES
from bot.colours import GAME_COLOUR
from bot.errors import answer as reply_error
from bot.how import ranking_picture
from bot.names import mention
from bot.protocol import INT32
from bot.render import history_line, result_view, rules_embed
from bot.seats import computer_level, is_computer, user_member
from bot.standings import (
    PHONE_CHARS,
    PairLine,
    badge_wearers,
    fit,
    match_solos,
    player_columns,
    players_table,
    standings,
    table,
)
from bot.texts import EN, date_text, game_title, has_text, speaking, t, team_name
from bot.translator import ls
from bot.voice.markdown import isolated
from engine import make_rules

if TYPE_CHECKING:
    from bot.client import FilicauBot

MAX_LINES = 15
#: Discord refuses an embed field value longer than this.
FIELD_CHARS = 1024


def _team(members: list[str]) -> str:
    return " & ".join(mention(m) for m in members)


def _block(lines: list[str], after: str = "") -> str:
    """A table in a code block, with as many whole lines as fit in one embed field, then
    ``after`` (its legend)."""
    tail = f"\n{after}" if after else ""
    out: list[str] = []
    for line in lines:
        if len("```\n" + "\n".join([*out, line]) + "\n```" + tail) > FIELD_CHARS:
            break
        out.append(line)
    return "```\n" + "\n".join(out) + "\n```" + tail


def pair_table(pairs: list[PairLine], names: dict[str, str]) -> list[str]:
    """Partnerships: each on two lines, the two teams' names, then under the header their
    hands together and, team A against team B, the times they became masters, the hands
    they played as masters and the times they ran away, and who are masters now."""
    ran = any(sum(p.ran_away) for p in pairs)
    header = ["", t("standings.col.hands"), t("standings.col.made"), t("standings.col.held"),
              *([t("standings.col.ran")] if ran else []), t("standings.col.now")]

    def both(x: tuple[int, int]) -> str:
        return f"{x[0]}–{x[1]}"

    rows = [["", str(p.hands), both(p.became_masters), both(p.hands_as_masters),
             *([both(p.ran_away)] if ran else []),
             team_name("ab".index(p.masters_now)) if p.masters_now in ("a", "b") else "—"]
            for p in pairs]
    head, *lines = table(header, rows)
    out = [head]
    for p, line in zip(pairs, lines, strict=True):
        teams = " – ".join(" & ".join(fit(names.get(m, m), 9) for m in team)
                           for team in (p.team_a, p.team_b))
        out += [fit(teams, PHONE_CHARS), line]
    return out


class Standings(commands.Cog, name="Standings"):
    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("cmdname.standings"), description=ls("cmd.standings"))
    @app_commands.guild_only()
    @app_commands.describe(game=ls("cmd.standings_game"))
    @app_commands.rename(game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def standings_cmd(self, interaction: discord.Interaction[Any],
                            game: app_commands.Choice[str] | None = None) -> None:
        """A public answer: in the server's language."""
        assert interaction.guild_id is not None
        with speaking(self.bot.public_language(interaction.guild_id)):
            await self._standings(interaction, game.value if game else "filicau")

    async def _standings(self, interaction: discord.Interaction[Any], key: str) -> None:
        assert interaction.guild_id is not None
        results = await self.bot.store.results(interaction.guild_id, key)
        title = t("standings.title", game=game_title(key, make_rules(key).title))
        if not results:
            await interaction.response.send_message(
                embed=discord.Embed(title=title, description=t("standings.none"),
                                    colour=GAME_COLOUR))
            return
        pairs, players = standings(results)
        rules = make_rules(key)
        statuses = await self.bot.store.statuses(interaction.guild_id)
        badged = badge_wearers(statuses, key)
        solos = match_solos(statuses, key)
        # The tables name players by their display names (a code block shows a mention as
        # typed): looked up, so the answer comes as an edit.
        await interaction.response.defer(thinking=True)
        shown = players[:MAX_LINES]
        names = await self._names(interaction, [p.member for p in shown] + [
            m for pair in pairs[:MAX_LINES] for m in (*pair.team_a, *pair.team_b)])
        badge = t(f"standings.{rules.losers_badge}") if rules.losers_badge else ""
        columns = player_columns(shown, has_masters="masters" in rules.status_fields,
                                 scored=rules.score_by_seat, solos=solos)
        legend = " · ".join(t(f"standings.legend.{c.key}") for c in columns
                            if c.key != "hands")
        embed = discord.Embed(title=title, colour=GAME_COLOUR)
        embed.add_field(name=t("standings.players"), inline=False, value=_block(
            players_table(shown, columns, names, badged, badge), legend))
        if pairs:
            embed.add_field(name=t("standings.partnerships"), inline=False,
                            value=_block(pair_table(pairs[:MAX_LINES], names),
                                         t("standings.legend.pairs")))
        await interaction.edit_original_response(
            embed=embed, allowed_mentions=discord.AllowedMentions.none())

    async def _names(self, interaction: discord.Interaction[Any],
                     members: list[str]) -> dict[str, str]:
        """Each member's display name in the server of ``interaction``."""
        guild = interaction.guild
        out: dict[str, str] = {}
        for m in dict.fromkeys(members):
            level = computer_level(m) if is_computer(m) else None
            if level is not None and has_text(f"level.{level}"):
                # A computer by its level alone: "🤖 Normal" fits a column.
                out[m] = f"🤖 {t(f'level.{level}')}"
            elif is_computer(m):
                out[m] = mention(m)
            else:
                out[m] = m if guild is None else isolated(
                    await self.bot.member_names.display_name(guild, m))
        return out

    @app_commands.command(name=ls("cmdname.status"), description=ls("cmd.status"))
    @app_commands.guild_only()
    async def status_cmd(self, interaction: discord.Interaction[Any]) -> None:
        """A public answer: in the server's language."""
        assert interaction.guild_id is not None
        with speaking(self.bot.public_language(interaction.guild_id)):
            await self._status(interaction)

    async def _status(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        lines = []
        for st in await self.bot.store.statuses(interaction.guild_id):
            title = game_title(st.game, make_rules(st.game).title)
            dealer = mention(st.next_dealer) if st.next_dealer else "?"
            group_masters = st.extra.get("masters")
            if st.masters is None and group_masters is not None:
                teams = st.extra.get("teams") or {}
                masters = [m for m, team in teams.items() if team == group_masters]
                slaves = [m for m, team in teams.items() if team != group_masters]
                lines.append(t("status.line", game=title, masters=_team(masters),
                               slaves=_team(slaves), since=date_text(st.since), dealer=dealer))
            elif st.masters is not None:
                masters, slaves = (st.team_a, st.team_b) if st.masters == "a" else (
                    st.team_b, st.team_a)
                lines.append(t("status.line", game=title, masters=_team(masters),
                               slaves=_team(slaves), since=date_text(st.since), dealer=dealer))
            elif st.extra.get("score") is not None:
                lines.append(t("status.match_line", game=title,
                               players=_team(st.team_a + st.team_b), dealer=dealer))
            elif st.next_dealer is not None:
                lines.append(t("status.even_line", game=title, a=_team(st.team_a),
                               b=_team(st.team_b), dealer=dealer))
        embed = discord.Embed(title=t("status.title"), colour=GAME_COLOUR,
                              description="\n".join(lines[:MAX_LINES]) or t("status.none"))
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("cmdname.rules"), description=ls("cmd.rules"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.rename(game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules_cmd(self, interaction: discord.Interaction[Any],
                        game: app_commands.Choice[str]) -> None:
        """The rules on one page, only to the asker, in their language: the rulings, the
        cards high to low (as a picture too where the server has pictures on, not in a DM)
        and the options. The short how-to-play is ``/help game:``'s."""
        rules = make_rules(game.value)
        config = self.bot.config(interaction.guild_id)
        picture = config.pictures and interaction.guild_id is not None
        embed = rules_embed(game.value, rules.title, rules.rulings,
                            rules.options.model_dump(), picture=picture, faces=config.faces)
        if picture:
            file = await ranking_picture(game.value, config.theme, faces=config.faces)
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=ls("cmdname.history"), description=ls("cmd.history"))
    @app_commands.guild_only()
    @app_commands.describe(hand=ls("cmd.history_hand"))
    @app_commands.rename(hand=ls("optname.hand"))
    async def history_cmd(self, interaction: discord.Interaction[Any],
                          hand: app_commands.Range[int, 1, INT32] | None = None) -> None:
        session = self.bot.tables.session_in(interaction.channel_id)
        if session is None:
            await reply_error(interaction, t("err.no_table"))
            return
        if hand is not None:
            rows = await self.bot.store.hands(session.id,
                                          limit=max(hand, session.hand_number) + 1)
            match = [r for r in rows if r.number == hand]
            if not match:
                await reply_error(interaction, t("err.no_record"))
                return
            if match[0].result is None:
                # The record holds the pack: everybody's cards.
                await reply_error(interaction, t("err.hand_in_progress"))
                return
            if await boards.kept_secret(self.bot.store, session.row.settings, hand):
                await reply_error(interaction, t("err.board_secret"))
                return
            data = json.dumps(match[0].record(), ensure_ascii=False, indent=1).encode()
            # Who sat in the hand may step through it (a review of their own play).
            sat = user_member(interaction.user.id) in (match[0].header.get("members") or [])
            await interaction.response.send_message(
                file=discord.File(io.BytesIO(data), filename=f"table{session.id}-hand{hand}.json"),
                view=result_view(session, hand) if sat else discord.utils.MISSING,
                ephemeral=True)
            return
        rows = await self.bot.store.hands(session.id, limit=10)
        if not rows:
            await interaction.response.send_message(t("history.none"), ephemeral=True)
            return
        lines = []
        secret = boards.is_secret_table(session.row.settings)
        for r in rows:
            if r.result is None:
                summary = t("history.unfinished")
            else:
                pts, event = r.result["points"], str(r.result["event"])
                summary = t("history.summary", a=pts[0], b=pts[1],
                            event=t(f"outcome.{event}") if f"outcome.{event}" in EN
                            else event.replace("_", " "))
            web = self.bot.web
            url = (await web.hand_link(session.guild_id, r.id)
                   if web is not None and r.result is not None and not (
                       secret and await boards.kept_secret(self.bot.store,
                                                           session.row.settings, r.number))
                   else None)
            lines.append(history_line(r.number, summary, url))
        await interaction.response.send_message(
            embed=discord.Embed(title=t("history.title"), description="\n".join(lines)),
            ephemeral=True)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Standings(bot))
