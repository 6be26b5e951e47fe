"""Ratings and standings as players read them (issue 31): a rating and how sure it is after so
many hands, not "17.6 (μ 35.0 ± 5.8)" and "ranked by μ − 3σ"; pictures whose words read on a
phone; standings as a table that fits a phone's width rather than sentences that wrap.
"""

from __future__ import annotations

import io
import random
import sys
from typing import Any

import pytest
from fake_discord import GUILD_ID, Harness, Picture, User
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image
from test_cogs import one_human, play_until
from test_ratings_cogs import PLAYERS, rated_hands

from bot.pictures import digest
from bot.ratings import board
from bot.ratings.chart import (
    MIN_TEXT_PX,
    PHONE_PX,
    Labels,
    TopLabels,
    TopRow,
    png,
    rating_figure,
    top_figure,
)
from bot.ratings.model import SIGMA
from bot.standings import (
    MIN_NAME_CHARS,
    NAME_CHARS,
    PHONE_CHARS,
    PlayerLine,
    fit,
    player_columns,
    players_table,
    text_width,
)
from bot.texts import LANGUAGES, speaking, t
from engine import GAMES, make_rules

JARGON = ("μ", "σ", "±")


@pytest.fixture
def charts_are_known(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness checks every picture is one the bot drew: note the rating charts."""
    cog = sys.modules["cogs.ratings"]
    draw = cog.rating_chart

    def noted(*args: Any, **kwargs: Any) -> bytes:
        data = draw(*args, **kwargs)
        h.pictures[digest(data)] = Picture("chart", frozenset(), "dark", True)
        return data

    monkeypatch.setattr(cog, "rating_chart", noted)


@pytest.mark.usefixtures("charts_are_known")
async def test_a_profile_says_the_rating_and_how_sure_it_is(h: Harness) -> None:
    store = h.bot.store
    await rated_hands(store, 24, PLAYERS[:8])
    who = PLAYERS[0]
    r = await h.command(h.user("ana"), "profile", user=User(int(who), "pia"), game="filicau")
    text = r.message.embeds[0]["description"]
    assert not any(sign in text for sign in JARGON), text
    mine = next(x for x in await store.ratings(GUILD_ID, "filicau", 1) if x.player == who)
    sure = t(f"rating.sure.{board.sureness(mine.sigma)}", hands=t("n.hands", count=12))
    assert text.endswith(sure)
    assert f"**{mine.mu - 3 * mine.sigma:.1f}**" in text


async def test_the_leaderboard_says_how_sure_each_rating_is(h: Harness) -> None:
    await rated_hands(h.bot.store, 48)
    r = await h.command(h.user("ana"), "leaderboard", game="filicau")
    embed = r.message.embeds[0]
    shown = embed["description"] + embed["footer"]["text"]
    assert not any(sign in shown for sign in JARGON), shown
    words = {t(f"rating.sure_short.{n}") for n in range(4)}
    assert all(any(f" · {w} · " in line for w in words)
               for line in embed["description"].splitlines())


def test_sureness_grows_as_the_uncertainty_falls() -> None:
    steps = [board.sureness(SIGMA * share) for share in (1.0, 0.8, 0.6, 0.5, 0.3, 0.1)]
    assert steps == sorted(steps) and steps[0] == 0 and steps[-1] == 3


# -- pictures on a phone --------------------------------------------------------------------------


def phone_heights(fig: Figure) -> list[tuple[float, str]]:
    """Every word drawn on ``fig``, with how tall it is (its line, in pixels) once the picture
    is shown ``PHONE_PX`` wide, as Discord's app shows it on a phone."""
    canvas = FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()
    data = png(fig)
    width = Image.open(io.BytesIO(data)).width
    assert width == round(fig.get_figwidth() * fig.dpi)  # measured as drawn
    drawn: list[Text] = []
    for ax in fig.axes:
        drawn += [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            drawn += [tick.label1 for tick, where in zip(
                axis.get_major_ticks(), axis.get_majorticklocs(), strict=False)
                if low <= where <= high]
    for legend in fig.legends:
        drawn += legend.get_texts()
    out = []
    for text in drawn:
        if text.get_visible() and text.get_text().strip():
            box = text.get_window_extent(renderer)
            # Every word is in the picture (a title cut at the edge is not read either).
            assert box.x0 >= -1 and box.x1 <= width + 1, text.get_text()
            out.append((box.height * PHONE_PX / width, text.get_text()))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rating_chart_reads_on_a_phone(lang: str) -> None:
    with speaking(lang):
        labels = Labels(title=t("chart.title", game="Filkó (6 játékos)", season=12),
                        hands=t("chart.hands"), mu=t("chart.mu"), ranked=t("chart.ranked"))
    pts = tuple((25 + 0.2 * i, SIGMA * (1 - i / 80)) for i in range(60))
    heights = phone_heights(rating_figure(pts, labels))
    # Every label is there (wrapped to the picture's width where long).
    assert {labels.mu, labels.ranked, labels.title} <= {" ".join(text.split())
                                                         for _, text in heights}
    small = [(round(px, 1), text) for px, text in heights if px < MIN_TEXT_PX]
    assert small == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_top_ten_reads_on_a_phone(lang: str) -> None:
    with speaking(lang):
        labels = TopLabels(title=t("chart.top_title", game="Filkó (6 játékos)", season=12),
                           ranked=t("chart.ranked"), mu=t("chart.top_mu"))
    rows = tuple(TopRow(i + 1, name, 32 - i, 2 + 0.3 * i) for i, name in enumerate(
        ["Ana", "Bartholomew the Long", "Cid", "Dan", "Eva", "Flo", "Gus", "Hal", "Ivy",
         "Jo"]))
    fig = top_figure(rows, labels)
    heights = phone_heights(fig)
    assert [(round(px, 1), text) for px, text in heights if px < MIN_TEXT_PX] == []
    # About as tall as wide: Discord fits an embed's picture into a box.
    assert fig.get_figheight() <= 1.2 * fig.get_figwidth()


# -- standings ---------------------------------------------------------------------------------


def test_names_are_cut_to_the_table_by_the_columns_they_take() -> None:
    assert text_width("Ana") == 3 and text_width("🎩") == 2 and text_width("Ștefan") == 6
    for name in ("Bartholomew the Long", "🐉🐉🐉🐉🐉🐉🐉🐉", "a`b`c\nd", "Zoë Ångström-Ødegaard"):
        cut = fit(name, NAME_CHARS)
        assert text_width(cut) <= NAME_CHARS and "`" not in cut and "\n" not in cut


async def test_the_standings_are_a_table_that_fits_a_phone(h: Harness) -> None:
    """After a hand of Filicău, /standings shows the players as a table in a code block
    (one row each, the numbers in columns), each line short enough for a phone, and under
    it what each column means; not "ran away 0 / times" wrapped across lines."""
    session, ana = await one_human(h)
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    r = await h.command(ana, "standings")
    players = r.message.embeds[0]["fields"][0]["value"]
    _, block, legend = players.split("```")
    header, *rows = block.strip("\n").splitlines()
    assert header.split() == [t(f"standings.col.{c}")
                              for c in ("player", "hands", "made", "held")]
    [row] = rows
    assert row.split()[:2] == ["Ana", "1"]
    assert all(text_width(line) <= PHONE_CHARS for line in [header, *rows])
    assert legend.strip() == " · ".join(t(f"standings.legend.{c}") for c in ("made", "held"))
    assert t("n.ran_away", count=0) not in players


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_standings_fit_a_phone_in_every_language(lang: str, game: str) -> None:
    """The widest table a game's standings can have (a long name with its badge, four-digit
    counts, every column the game may show) fits a phone's width in every language."""
    rules = make_rules(game)
    matches = rules.score_by_seat or "score" in rules.status_fields
    # Only Filicau's slaves run away (8 to 0).
    rich = PlayerLine("1", hands=1234, became_masters=123, hands_as_masters=1234,
                      ran_away=12 if game == "filicau" else 0,
                      score=-123 if rules.score_by_seat else 0,
                      matches_won=12 if matches else 0)
    solos = {"1": 3} if game == "wendish" else {}
    columns = player_columns([rich], has_masters="masters" in rules.status_fields,
                             scored=rules.score_by_seat, solos=solos)
    with speaking(lang):
        lines = players_table([rich], columns, {"1": "Bartholomew the Long"}, ["1"],
                              t("standings.hat") if rules.losers_badge else "")
    assert all(text_width(line) <= PHONE_CHARS for line in lines), lines
    # The name is cut, but not to nothing.
    badge = 3 if rules.losers_badge else 0
    assert text_width(lines[1].split("…")[0]) >= MIN_NAME_CHARS - 1 - badge
