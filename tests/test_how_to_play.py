"""How to play each game: the card ranking the engine declares, its picture, the short text in
every language, and ``/help game:`` and ``/rules game:`` showing them in the reader's language.

The rankings checked here by hand are those of RULINGS.md (and the rulings' own words): Filicău
"the four Overs are always the top trumps (acorns, leaves, hearts, bells)"; Schafkopf for three
"EO GO HO SO EU GU HU SU, then bells A 10 K 9 8 7. Other suits A 10 K 9 8 7"; Kelebia "EO H7 GO
HO SO S7 G7 E7"; Filkó's ``leaves_low`` "EO HO SO GO".
"""

from __future__ import annotations

import io
import itertools

import pytest
from fake_discord import Harness
from PIL import Image
from test_cogs import one_human

from bot import cardart
from bot.how import RANKING_FILE, how_embed, ranking_of, ranking_rows, ranking_text
from bot.render import rules_embed
from bot.texts import CATALOGS, LANGUAGES, card_words, game_title, option_text, speaking, t
from engine import GAMES, make_rules
from engine.cards import BELLS, SUITS, cards, codes
from engine.ranking import card_ranking
from engine.trumps import trump_order


def words(text: str) -> list[str]:
    return text.split()


def test_filicau_ranks_the_four_overs_on_top_and_every_suit_alike() -> None:
    r = ranking_of("filicau")
    assert codes(r.trumps) == ["EO", "GO", "HO", "SO"]
    assert r.trump_suit is None  # the shown card fixes it, hand by hand
    assert [(s, codes(c)) for s, c in r.plain] == [
        (s, [f"{'EGHS'[s]}{rank}" for rank in ("A", "10", "K", "U", "9", "8", "7")])
        for s in SUITS]


def test_schafkopf_for_three_ranks_overs_unders_then_bells() -> None:
    r = ranking_of("schafkopf3")
    assert codes(r.trumps) == words("EO GO HO SO EU GU HU SU SA S10 SK S9 S8 S7")
    assert r.trump_suit == BELLS and r.permanent == 8
    assert [codes(c) for _, c in r.plain] == [
        [f"{s}{rank}" for rank in ("A", "10", "K", "9", "8", "7")] for s in "EGH"]


def test_kelebia_and_an_option_change_the_top_trumps() -> None:
    assert codes(ranking_of("kelebia").trumps) == words("EO H7 GO HO SO S7 G7 E7")
    # Kelebia plays without G8 and E8, and its Sevens are trumps.
    assert codes(dict(ranking_of("kelebia").plain)[0]) == ["EA", "E10", "EK", "EU", "E9"]
    r = card_ranking(make_rules("filko", {"top_trumps": "leaves_low"}))
    assert codes(r.trumps) == ["EO", "HO", "SO", "GO"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_ranking_is_how_the_tricks_are_won(game: str) -> None:
    """Against the engine's own trick logic: each listed card takes a trick from the next one
    (whatever suit was led), for every trump suit the game may have; every card of the pack
    is listed once."""
    rules = make_rules(game)
    r = card_ranking(rules)
    listed = list(r.trumps) + [c for _, cs in r.plain for c in cs]
    assert sorted(listed) == sorted(rules.pack)
    for trump in ([r.trump_suit] if r.trump_suit is not None else SUITS):
        order = trump_order(rules.top_trumps, trump)
        trumps = list(r.trumps) + list(dict(r.plain).get(trump, ()))
        assert all(order.is_trump(c) for c in trumps)
        for high, low in itertools.pairwise(trumps):
            assert order.winner([low, high]) == 1 and order.winner([high, low]) == 0
        for s, suit_cards in r.plain:
            if s == trump:
                continue
            assert not any(order.is_trump(c) for c in suit_cards)
            for high, low in itertools.pairwise(suit_cards):
                assert order.winner([low, high]) == 1


def test_the_picture_rows_are_the_engines_order() -> None:
    with speaking("en"):
        rows = ranking_rows(ranking_of("filicau"))
        assert rows[0] == (t("how.pic_top"), tuple(cards(["EO", "GO", "HO", "SO"])))
        assert [title for title, _ in rows[1:]] == ["Acorns", "Leaves", "Hearts", "Bells"]
        rows = ranking_rows(ranking_of("schafkopf3"))
        assert rows[0] == (t("how.pic_trumps"),
                           tuple(cards(words("EO GO HO SO EU GU HU SU"))))
        assert rows[1] == ("then bells", tuple(cards(words("SA S10 SK S9 S8 S7"))))
        assert len(rows) == 5
    with speaking("hu"):
        assert ranking_rows(ranking_of("schafkopf3"))[1][0] == "aztán tök"


def test_the_picture_draws_every_row() -> None:
    small = cardart.ranking_png([("A", cards(["EO", "GO"]))])
    rows = ranking_rows(ranking_of("schafkopf3"))
    big = cardart.ranking_png(rows, theme="light", lang="de")
    a, b = Image.open(io.BytesIO(small)), Image.open(io.BytesIO(big))
    assert a.format == b.format == "PNG"
    # Eight cards are wider than two, five rows taller than one.
    assert b.width > a.width and b.height > 4 * a.height
    assert len(big) < 400_000


def test_the_ranking_text_lists_the_trumps_in_order() -> None:
    with speaking("en"):
        text = ranking_text(ranking_of("schafkopf3"))
        assert text.splitlines()[0] == (
            "**Trumps:** Ober of acorns, Ober of leaves, Ober of hearts, Ober of bells, "
            "Unter of acorns, Unter of leaves, Unter of hearts, Unter of bells")
        assert "then 🔔 bells: A 10 K 9 8 7" in text
        assert "🌰 acorns: A 10 K 9 8 7" in text
    with speaking("ro"):
        text = ranking_text(ranking_of("filicau"))
        assert text.splitlines()[0] == t("how.top", cards=card_words(["EO", "GO", "HO", "SO"]))
        assert "🌰 ghindă: as 10 pătrar doiar 9 8 7" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_a_short_how_to_play_in_every_language(lang: str) -> None:
    for game in GAMES:
        text = CATALOGS[lang].get(f"how.{game}", "")
        assert text.strip(), f"{lang}: no how.{game}"
        assert len(text) <= 1100, f"{lang}: how.{game} is {len(text)} characters"
        with speaking(lang):
            rules = make_rules(game)
            pages = [rules_embed(game, rules.title, rules.rulings, rules.options.model_dump(),
                                 picture=True), how_embed(game, picture=True)]
        # Discord's limits: a description 4096, a field 1024, a message's embeds 6000. The
        # rules and how to play are each a message of their own (``/rules``, ``/help``).
        for page in pages:
            assert page.description and len(page.description) <= 4096
            assert all(len(str(f.value)) <= 1024 for f in page.fields)
            assert len(page) <= 6000, f"{lang} {game}"


async def test_help_names_the_way_to_how_to_play(h: Harness) -> None:
    ana = h.user("ana", locale="de")
    r = await h.command(ana, "help")
    [embed] = r.message.embeds
    with speaking("de"):
        assert {"name": t("how.help_title"), "value": t("how.help"),
                "inline": False} in embed["fields"]


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_help_with_a_game_tells_how_to_play_it_in_the_readers_language(
        h: Harness, lang: str) -> None:
    ana = h.user("ana", locale="en-US" if lang == "en" else lang)
    r = await h.command(ana, "help", game="filicau")
    assert r.ephemeral
    [embed] = r.message.embeds
    with speaking(lang):
        assert embed["title"] == t("how.title", game=game_title("filicau", "Filicău"))
        assert embed["description"] == t("how.filicau")
        assert embed["fields"][0]["value"] == ranking_text(ranking_of("filicau"))
    assert r.message.files == [] and "image" not in embed  # pictures are off by default


async def test_rules_are_one_page_with_the_ranking_picture_when_pictures_are_on(
        h: Harness) -> None:
    """``/rules`` says each rule once: the rulings, the cards high to low and the options on
    one page (the short how-to-play, which says the same rules again, is ``/help``'s)."""
    ana, mia = h.user("ana", locale="hu"), h.user("mia", manager=True)
    r = await h.command(ana, "rules", game="schafkopf3")
    assert [f for f, _ in r.message.files] == []
    r = await h.command(mia, "admin pictures", mode="on")
    assert r.rejected_with(t("ok.pictures_on"))

    r = await h.command(ana, "rules", game="schafkopf3")
    assert r.ephemeral
    [page] = r.message.embeds
    rules = make_rules("schafkopf3")
    with speaking("hu"):
        assert page["title"] == game_title("schafkopf3", "")
        assert page["description"].splitlines() == [
            f"• {t(f'rulings.schafkopf3.{i}')}" for i in range(len(rules.rulings))]
        assert [(f["name"], f["value"]) for f in page["fields"]] == [
            (t("how.ranking_title"), ranking_text(ranking_of("schafkopf3"))),
            (t("rules.options"), ", ".join(option_text(k, v)
                                           for k, v in rules.options.model_dump().items()))]
        assert t("how.schafkopf3") not in str(page)
    assert page["image"]["url"] == f"attachment://{RANKING_FILE}"
    [(name, data)] = r.message.files
    assert name == RANKING_FILE
    assert Image.open(io.BytesIO(data)).format == "PNG"
    noted = [p for p in h.pictures.values() if p.kind == "ranking"]
    assert len(noted) == 1 and noted[0].in_worker  # drawn off the event loop
    assert noted[0].faces == "german"  # the game's own
    # With French faces chosen for the server, the ranking shows French cards.
    r = await h.command(mia, "admin faces", faces="french")
    assert r.rejected_with(t("ok.faces", faces=t("choice.french")))
    h.pictures.clear()
    await h.command(ana, "rules", game="schafkopf3")
    assert [p.faces for p in h.pictures.values() if p.kind == "ranking"] == ["french"]


async def test_the_tables_rules_button_shows_the_same_page_with_the_tables_options(
        h: Harness) -> None:
    """The Rules button of a table shows the rules page with that table's options: its
    card ranking is the one they play (here the Seven of hearts above the Obers)."""
    ana = h.user("ana")
    await h.command(ana, "table new", game="filko", top_trumps="hearts_seven")
    await h.press(ana, t("btn.join_a"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    await h.press(ana, t("btn.start"))
    r = await h.press(ana, t("btn.rules"))
    [page] = r.message.embeds
    assert page["fields"][0]["value"] == ranking_text(card_ranking(
        make_rules("filko", {"top_trumps": "hearts_seven"})))
    assert page["fields"][0]["value"].splitlines()[0] == t("how.top", cards=card_words(
        ["H7", "EO", "GO", "HO", "SO"]))


async def test_rules_during_a_hand_show_no_hidden_card(h: Harness) -> None:
    """The ranking names every card, nobody's: the harness's hidden-card check (which fails
    the test at its end) finds none of the hidden cards in it, text or picture."""
    session, ana = await one_human(h, seed=2)
    assert session.hand is not None and not session.hand.finished
    mia = h.user("mia", manager=True)
    await h.command(mia, "admin pictures", mode="on")
    for game in ("filicau", "schafkopf3"):
        r = await h.command(ana, "rules", game=game)
        assert r.message.embeds[-1]["title"] == game_title(game, "")
    assert h.checked > 0 and h.leaks == []
