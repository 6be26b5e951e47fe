"""Grammar the catalogs cannot carry alone: numbers, articles, cards and options in sentences.

- A count takes its language's plural form: "1 hand" / "2 hands"; Romanian "o mână",
  "5 mâini", "21 de mâini"; Hungarian keeps the noun singular after a number.
- Hungarian picks "a" or "az" by the sound that follows ("az A csapat", "a B csapat").
- Cards and table options are named in words of the reader's language, never by the engine's
  codes and keys; option errors are worded from (option, value, reason).
- Dates are Discord timestamps, which every reader's client shows in their own language.
"""

from __future__ import annotations

import random
import re
import typing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fake_discord import GUILD_ID, OTHER_CHANNEL_ID, Harness, running

from bot.store import PartnershipStatus, ResultRow, canonical
from bot.texts import (
    FORMATTER,
    PLURALS,
    card_word,
    card_words,
    date_text,
    hungarian_article,
    option_error,
    option_name,
    option_value,
    refusal,
    speaking,
    t,
)
from engine import make_rules
from engine.actions import Action, IllegalAction
from engine.hand import Hand
from engine.rules import GAMES
from engine.status import Status

OTHERS = ("ro", "hu", "de")


def said(lang: str, key: str, **params: object) -> str:
    with speaking(lang):
        return t(key, **params)


# -- plural forms ------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["1 hand", "2 hands", "5 hands", "21 hands"]),
    ("ro", ["o mână", "2 mâini", "5 mâini", "21 de mâini"]),
    ("hu", ["1 leosztás", "2 leosztás", "5 leosztás", "21 leosztás"]),
    ("de", ["1 Spiel", "2 Spiele", "5 Spiele", "21 Spiele"]),
])
def test_a_count_of_hands_takes_the_languages_plural(lang: str, words: list[str]) -> None:
    assert [said(lang, "n.hands", count=n) for n in (1, 2, 5, 21)] == words


def test_romanian_has_three_forms() -> None:
    """1; 2–19 and whatever ends in 01–19; 20 and more take "de"."""
    ran = [said("ro", "n.ran_away", count=n) for n in (1, 2, 19, 20, 21, 101, 120)]
    assert ran == ["a fugit o dată", "a fugit de 2 ori", "a fugit de 19 ori",
                   "a fugit de 20 de ori", "a fugit de 21 de ori", "a fugit de 101 ori",
                   "a fugit de 120 de ori"]


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "Reset 1 partnership of @ana to even.", "Reset 2 partnerships of @ana to even."),
    ("ro", "O pereche a lui @ana a redevenit egală.",
     "2 perechi ale lui @ana au redevenit egale."),
    ("hu", "@ana 1 párosa újra egyenlő.", "@ana 2 párosa újra egyenlő."),
    ("de", "1 Paar von @ana ist wieder gleichgestellt.",
     "2 Paare von @ana sind wieder gleichgestellt."),
])
def test_a_sentence_with_a_count_agrees_with_it(lang: str, one: str, two: str) -> None:
    assert said(lang, "ok.reset", count=1, user="@ana") == one
    assert said(lang, "ok.reset", count=2, user="@ana") == two


def test_german_counts_of_times() -> None:
    assert said("de", "n.became_masters", count=1) == "einmal Herr geworden"
    assert said("de", "n.became_masters", count=5) == "5-mal Herr geworden"
    assert said("de", "standings.matches", count=1) == "1 Partie gewonnen"
    assert said("en", "hand.choose_cards", count=1) == "Choose 1 card…"


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_every_count_entry_shows_its_number(lang: str) -> None:
    """Each entry with plural forms writes 2, 5 and 21 as numbers; Romanian puts "de"
    between 20 or more and the noun ("21 de mâini") but not after 2–19 ("5 mâini"); a
    partitive needs none ("21 dintre")."""
    for key in PLURALS["en"]:
        params = {"user": "@ana", "suit": "♥", "lowest": "U"}
        for n in (2, 5, 21):
            assert str(n) in said(lang, key, count=n, **params), (key, n)
        if lang == "ro":
            text = said(lang, key, count=21, **params)
            assert "21 de " in text or "21 dintre " in text, key
            assert "5 de " not in said(lang, key, count=5, **params), key


def test_a_plural_entry_needs_its_count() -> None:
    with pytest.raises(KeyError):
        t("n.hands")


# -- the Hungarian article ---------------------------------------------------------------------


@pytest.mark.parametrize(("word", "article"), [
    ("A", "az"), ("B", "a"), ("C", "a"), ("E", "az"), ("F", "az"),  # á, bé, cé, é, ef
    ("ász", "az"), ("makk", "a"), ("Öreg", "az"), ("felső", "a"),
    ("1", "az"), ("2", "a"), ("5", "az"), ("10", "a"), ("15", "a"), ("50", "az"),
    ("100", "a"), ("500", "az"), ("1000", "az"), ("2000", "a"), ("5000", "az"),
    ("<@123>", "a"),
])
def test_the_hungarian_article_follows_the_sound(word: str, article: str) -> None:
    assert hungarian_article(word) == article


def test_the_article_is_asked_for_in_a_placeholder() -> None:
    assert FORMATTER.format("{team:Az} csapat megtelt.", team="A") == "Az A csapat megtelt."
    assert FORMATTER.format("{team:Az} csapat megtelt.", team="B") == "A B csapat megtelt."
    assert FORMATTER.format("ülsz {seat:az}. helyen", seat=5) == "ülsz az 5. helyen"
    with speaking("hu"):
        assert t("err.team_full", team="A") == "Az A csapat megtelt."
        assert t("err.team_full", team="B") == "A B csapat megtelt."


# -- cards and options in words ----------------------------------------------------------------


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Ober of acorns", "Seven of hearts", "Ten of bells", "Unter of leaves"]),
    ("ro", ["filicău de ghindă", "șeptar de roșu", "zece de dubă", "doiar de verde"]),
    ("hu", ["makk felső", "piros hetes", "tök tízes", "zöld alsó"]),
    ("de", ["Eichel-Ober", "Herz-Sieben", "Schellen-Zehn", "Gras-Unter"]),
])
def test_a_card_in_words(lang: str, words: list[str]) -> None:
    with speaking(lang):
        assert [card_word(c) for c in ("EO", "H7", "S10", "GU")] == words
        assert card_words(["EO", "H7"]) == ", ".join(words[:2])


@pytest.mark.parametrize(("lang", "name", "value", "deals"), [
    ("en", "early end", "the Ober's suit", "no set length"),
    ("ro", "oprire devreme", "culoarea filicăului", "fără limită"),
    ("hu", "korai vég", "a felső színe", "korlátlan"),
    ("de", "frühes Ende", "die Farbe des Obers", "ohne feste Länge"),
])
def test_options_in_words(lang: str, name: str, value: str, deals: str) -> None:
    with speaking(lang):
        assert option_name("early_end") == name
        assert option_value("fris_trump", "over_suit") == value
        assert option_value("deals", 0) == deals
        assert option_value("deals", 9) == "9"


@pytest.mark.parametrize("lang", OTHERS)
def test_no_option_is_named_by_its_english_key(lang: str) -> None:
    """Every option of every game, and each value the lobby offers, has its own words."""
    from bot.options import choices

    with speaking(lang):
        for game, cls in GAMES.items():
            for name in cls.options_model.model_fields:
                assert option_name(name) != name.replace("_", " "), (game, name)
            for name, value in choices(game):
                shown = option_value(name, value)
                assert "_" not in shown and shown not in ("True", "False"), (game, name)
                if isinstance(value, str):
                    assert shown != value or value == "standard", (game, name, value)


def test_option_errors_are_worded_from_their_reason() -> None:
    with speaking("en"):
        assert option_error("deals", 5, "multiple", {"step": 3}) == \
            "**deals** must be a multiple of 3, not 5."
        assert option_error("deals", 200, "range", {"low": 0, "high": 96}) == \
            "**deals** must be between 0 and 96, not 200."
        assert option_error("colour", "red", "unknown") == "This game has no option `colour`."
        assert option_error("sharp", "maybe", "no_such_reason") == "**sharp** cannot be maybe."
    with speaking("ro"):
        assert option_error("fris_trump", "x", "choice", {"choices": ["free", "over_suit"]}) \
            == "**atuul la fris** nu poate fi x: alege orice culoare / culoarea filicăului."
    with speaking("de"):
        assert option_error("early_end", "vielleicht", "invalid") == \
            "**frühes Ende** kann nicht vielleicht sein."
        assert t("err.bad_options", problem=option_error("deals", 5, "multiple", {"step": 3})) \
            == ("Diese Optionen gehen nicht: **Partielänge** muss ein Vielfaches von 3 sein, "
                "nicht 5.")


# -- dates -------------------------------------------------------------------------------------


def test_a_date_is_a_discord_timestamp() -> None:
    """``<t:SECONDS:D>``: each reader's client writes the day in its own language."""
    seconds = int(datetime(2026, 11, 12, 10, 0, tzinfo=UTC).timestamp())
    assert date_text("2026-11-12T10:00:00+00:00") == f"<t:{seconds}:D>"
    assert date_text("2026-11-12T12:00:00+02:00") == f"<t:{seconds}:D>"
    # Stored without a zone: UTC, not the machine's local time.
    assert date_text("2026-11-12T10:00:00") == f"<t:{seconds}:D>"
    assert date_text(None) == "?"


# -- the rules summary -------------------------------------------------------------------------

#: A card code (``EO``, ``H7``, ``S10``) or a row of rank letters (``A 10 K``, ``A 11, 10 10``).
CODE = re.compile(r"\b[EGHS](?:O|U|A|K|10|9|8|7)\b|\bA 10 K\b|\bA 11, 10 10\b")


def english_keys() -> set[str]:
    """Every option key of every game, and every word value an option can take."""
    keys: set[str] = set()
    for cls in GAMES.values():
        for name, field in cls.options_model.model_fields.items():
            keys.add(name)
            if typing.get_origin(field.annotation) is typing.Literal:
                keys |= {v for v in typing.get_args(field.annotation) if isinstance(v, str)}
    return keys - {"standard"}  # also a Romanian word


@pytest.mark.parametrize("lang", OTHERS)
def test_the_rules_summary_names_cards_and_options_in_words(lang: str) -> None:
    """/rules in Romanian, Hungarian and German: no engine card codes ("EO GO HO SO"), no
    English option keys (``early_end``) or values (``over_suit``)."""
    keys = english_keys()
    assert {"early_end", "fris_trump", "over_suit", "per_deal"} <= keys
    word = re.compile(r"\b(?:" + "|".join(sorted(keys)) + r")\b")
    with speaking(lang):
        for game, cls in GAMES.items():
            for i in range(len(cls.rulings)):
                line = t(f"rulings.{game}.{i}")
                assert not CODE.search(line), (game, i, line)
                assert not word.search(line), (game, i, line)


def test_the_code_check_would_see_a_code() -> None:
    """The check above is not blind: the English rulings (the engine's) do use codes."""
    assert any(CODE.search(r) for cls in GAMES.values() for r in cls.rulings)


# -- through the bot ---------------------------------------------------------------------------


async def a_server_with_history(h: Harness) -> tuple[str, str]:
    """Ana & Bea against two others: one Filicău hand played, after which Ana & Bea are
    masters since 12 November 2026."""
    store = h.bot.store  # type: ignore[union-attr]
    ana, bea = h.user("ana"), h.user("bea")
    mine, theirs = [str(ana.id), str(bea.id)], ["700000000000000091", "700000000000000092"]
    team_a, team_b, swapped = canonical(mine, theirs)
    ours = "b" if swapped else "a"
    table = await store.create_table(guild_id=GUILD_ID, channel_id=OTHER_CHANNEL_ID,
                                     game="filicau", options={}, opener_id=ana.id,
                                     seats=[None] * 4)
    hand_id = await store.start_hand(table.id, 1, {})
    await store.add_result(ResultRow(
        hand_id=hand_id, guild_id=GUILD_ID, game="filicau", team_a=team_a, team_b=team_b,
        points_a=6, points_b=2, masters_before=None, masters_after=ours, event="masters",
        event_team=ours, finished_at="2026-11-12T10:00:00+00:00"))
    await store.put_status(PartnershipStatus(
        guild_id=GUILD_ID, game="filicau", team_a=team_a, team_b=team_b, masters=ours,
        next_dealer=theirs[0], since="2026-11-12T10:00:00+00:00"))
    return ana.mention, bea.mention


@pytest.mark.parametrize("locale", ["ro", "hu", "de"])
async def test_standings_and_status_in_the_servers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    async with running(tmp_path / "bot.sqlite3", monkeypatch, guild_locale=locale) as h:
        await a_server_with_history(h)
        r = await h.command(h.user("eva", locale=locale), "standings")
        players = r.message.embeds[0]["fields"][0]["value"]
        _, block, legend = players.split("```")
        header, *rows = block.strip("\n").splitlines()
        with speaking(locale):
            # The table's columns and their legend in the server's language.
            assert header.split() == [t(f"standings.col.{c}")
                                      for c in ("player", "hands", "made", "held")]
            assert legend.strip() == " · ".join(t(f"standings.legend.{c}")
                                                for c in ("made", "held"))
        assert [row.split()[:4] for row in rows if row.startswith("Ana")] == [
            ["Ana", "1", "1", "0"]]
        r = await h.command(h.user("eva", locale=locale), "status")
        seconds = int(datetime(2026, 11, 12, 10, 0, tzinfo=UTC).timestamp())
        # The day as a Discord timestamp: each reader's client writes it in their language.
        assert f"<t:{seconds}:D>" in r.text
        assert "nov" not in r.text.lower()


# -- refusals ----------------------------------------------------------------------------------


def engine_refusals() -> list[IllegalAction]:
    """Real ``must_follow`` refusals from the engine: the second player of a Filicău hand
    trying each card that does not follow."""
    rules = make_rules("filicau")
    found = []
    for seed in range(20):
        pack = list(rules.pack)
        random.Random(seed).shuffle(pack)
        hand = Hand(rules, 0, pack, Status())
        first = hand.to_move
        assert first is not None
        hand.apply(first, hand.legal_actions(first)[0])
        second = hand.to_move
        assert second is not None
        legal = set(hand.legal_actions(second))
        for c in hand.hands[second]:
            if Action("card", c) not in legal:
                with pytest.raises(IllegalAction) as refused:
                    hand.copy().apply(second, Action("card", c))
                found.append(refused.value)
    return found


@pytest.mark.parametrize(("lang", "trump", "hearts"), [
    ("ro", "Trebuie să răspunzi la culoare (atu).", "Trebuie să răspunzi la culoare (❤️ roșu)."),
    ("hu", "Színt kell adnod (adu).", "Színt kell adnod (❤️ piros)."),
    ("de", "Farbzwang: Du musst bedienen (Trumpf).", "Farbzwang: Du musst bedienen (❤️ Herz)."),
])
def test_a_refusal_names_the_suit_in_the_readers_language(lang: str, trump: str,
                                                           hearts: str) -> None:
    """The engine names the suit to follow in English ("hearts", "trumps"): the refusal
    words it."""
    refusals = [e for e in engine_refusals() if e.reason == "must_follow"]
    suits = {e.params["suit"] for e in refusals}
    assert "trumps" in suits and suits - {"trumps"}
    with speaking(lang):
        for e in refusals:
            text = refusal("illegal." + e.reason, e.params)
            assert not {"trumps", "acorns", "leaves", "hearts", "bells"} & set(
                text.strip(".()").replace("(", " ").split()), text
        assert refusal("illegal.must_follow", {"card": "E7", "suit": "trumps"}) == trump
        assert refusal("illegal.must_follow", {"card": "E7", "suit": "hearts"}) == hearts


def test_the_texts_modules_examples_hold() -> None:
    """bot/ is outside the doctest paths: the examples in ``bot.texts`` are run here."""
    import doctest

    import bot.texts

    result = doctest.testmod(bot.texts)
    assert result.attempted >= 3 and result.failed == 0
