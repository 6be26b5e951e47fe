"""Languages: the catalogs, the choice of language per message, and the slash commands.

- Every catalog has every English key, no other key, and exactly English's placeholders.
- A user's own messages (hand view, refusals) follow their Discord locale; public messages
  (lobby, table, results) the server's, also when sent outside any interaction.
- The synced slash commands carry Romanian, Hungarian and German names and descriptions that
  Discord accepts: valid under its OpenAPI schema and its rules for names.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from fake_discord import CHANNEL_ID, Harness, User, running
from standin.schema import SchemaCheck

from bot.courier import Signal
from bot.render import TRUMP_MARK
from bot.texts import (
    CATALOGS,
    EN,
    FORMATTER,
    LANGUAGES,
    LOCALE_DIR,
    PLURALS,
    TRANSLATIONS,
    card_label,
    card_labels,
    game_title,
    has_text,
    language_of,
    load_catalog,
    load_plurals,
    speaking,
    suit_label,
    t,
)
from engine.cards import ALL_CARDS, card, code
from engine.rules import GAMES

OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


# -- the catalogs ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", OTHERS)
def test_a_catalog_has_every_key_and_no_other(lang: str) -> None:
    catalog = load_catalog(lang)
    assert sorted(set(EN) - set(catalog)) == [], "keys missing"
    assert sorted(set(catalog) - set(EN)) == [], "keys English does not have"


@pytest.mark.parametrize("lang", OTHERS)
def test_a_catalog_has_exactly_the_english_placeholders(lang: str) -> None:
    catalog = load_catalog(lang)
    wrong = {key: (sorted(placeholders(EN[key])), sorted(placeholders(text)))
             for key, text in catalog.items() if placeholders(text) != placeholders(EN[key])}
    assert wrong == {}, "placeholders differ from English (english, this catalog)"


@pytest.mark.parametrize("lang", OTHERS)
def test_a_catalog_has_every_plural_entry_with_its_forms(lang: str) -> None:
    """Entries that word a number: every one English has, as many forms as the language's
    Plural-Forms declares, and together English's placeholders."""
    plurals = load_plurals(lang)
    assert sorted(set(PLURALS["en"]) - set(plurals)) == [], "plural entries missing"
    assert sorted(set(plurals) - set(PLURALS["en"])) == [], "plural entries English lacks"
    forms = {"ro": 3, "hu": 1, "de": 2}[lang]
    for key, texts in plurals.items():
        assert len(texts) == forms, key
        english = set().union(*(placeholders(x) for x in PLURALS["en"][key]))
        assert set().union(*(placeholders(x) for x in texts)) == english, key
        assert all(placeholders(x) <= english for x in texts), key
    # A plural entry is not also a plain one (t would not know which to use).
    assert not set(plurals) & set(CATALOGS[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_formats(lang: str) -> None:
    """Each text formats with its placeholders filled (no stray brace, no unknown spec)."""
    texts = list(CATALOGS[lang].items()) + [
        (key, x) for key, forms in PLURALS[lang].items() for x in forms]
    for key, text in texts:
        FORMATTER.format(text, **dict.fromkeys(placeholders(text), "x"))
        assert text.strip() == text and text, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plural_rule_is_the_catalog_header(lang: str) -> None:
    """gettext reads each catalog's Plural-Forms (Romanian's three forms, Hungarian's one)."""
    header = TRANSLATIONS[lang].info()["plural-forms"]
    assert header.startswith({"en": "nplurals=2", "de": "nplurals=2", "ro": "nplurals=3",
                              "hu": "nplurals=1"}[lang])


def test_the_catalog_checks_catch_a_missing_key_and_placeholder(tmp_path: Path) -> None:
    """The checks above fail on a broken catalog (a key dropped, a placeholder renamed)."""
    source = (LOCALE_DIR / "de" / "LC_MESSAGES" / "bot.po").read_text(encoding="utf-8")
    broken = source.replace('msgid "err.gone"', 'msgid "err.gone_x"').replace(
        "Mannschaft {team} ist voll.", "Mannschaft {mannschaft} ist voll.")
    assert broken != source
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "de" / "LC_MESSAGES" / "bot.po").write_text(broken, encoding="utf-8")
    import bot.texts as texts

    original = texts.LOCALE_DIR
    texts.LOCALE_DIR = tmp_path  # type: ignore[misc]
    try:
        catalog = texts.load_catalog("de")
    finally:
        texts.LOCALE_DIR = original  # type: ignore[misc]
    assert "err.gone" not in catalog and "err.gone_x" in catalog
    assert placeholders(catalog["err.team_full"]) != placeholders(EN["err.team_full"])


def test_romanian_uses_comma_below_letters() -> None:
    """ș and ț, not the Turkish ş and ţ with a cedilla."""
    bad = {key: text for key, text in CATALOGS["ro"].items() if set(text) & set("şţŞŢ")}
    assert bad == {}


def test_hungarian_uses_double_acute_letters() -> None:
    """ő and ű, not the look-alikes õ/ô and û."""
    bad = {key: text for key, text in CATALOGS["hu"].items() if set(text) & set("õôûÕÔÛ")}
    assert bad == {}
    assert any("ő" in text for text in CATALOGS["hu"].values())


def test_the_card_words_of_each_language() -> None:
    words = {
        "ro": ("ghindă", "verde", "roșu", "dubă", "filicău", "doiar", "pătrar", "as"),
        "hu": ("makk", "zöld", "piros", "tök", "felső", "alsó", "király", "ász"),
        "de": ("Eichel", "Gras", "Herz", "Schellen", "Ober", "Unter", "König", "Ass"),
        "en": ("acorns", "leaves", "hearts", "bells", "Ober", "Unter", "K", "A"),
    }
    for lang, expected in words.items():
        with speaking(lang):
            got = (*(suit_label(s).split(" ", 1)[1] for s in range(4)),
                   *(card_label(card(c)).split("\u00a0", 1)[1] for c in ("EO", "EU", "EK", "EA")))
        assert got == expected, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_labels_are_one_per_card(lang: str) -> None:
    with speaking(lang):
        labels = [card_label(c) for c in ALL_CARDS]
    assert len(set(labels)) == len(labels)


def test_a_label_of_one_card_never_names_another() -> None:
    """The hidden-card check looks for a card by its label in every language: no label of
    one card may be another card's label in some language."""
    seen: dict[str, int] = {}
    for c in ALL_CARDS:
        for label in card_labels(c):
            assert seen.setdefault(label, c) == c, (label, code(c), code(seen[label]))


def test_english_game_names_are_the_engines() -> None:
    for key, cls in GAMES.items():
        assert game_title(key, cls.title) == cls.title


def test_english_rulings_are_the_engines() -> None:
    """The rules summary's English lines are the engine's own, line by line (the catalogs
    translate them; they must not drift apart)."""
    for key, cls in GAMES.items():
        with speaking("en"):
            assert [t(f"rulings.{key}.{i}") for i in range(len(cls.rulings))] == \
                list(cls.rulings), key
        assert not has_text(f"rulings.{key}.{len(cls.rulings)}"), f"{key}: a line too many"


def test_english_goals_are_the_engines() -> None:
    """The goal a table shows (``goal.GAME``) is in English the engine's own ``Rules.goal``,
    the sentence the terminal game starts with; every game has one."""
    for key, cls in GAMES.items():
        assert cls.goal, key
        with speaking("en"):
            assert t(f"goal.{key}") == cls.goal, key


# -- choosing the language ---------------------------------------------------------------------


@pytest.mark.parametrize(("locale", "lang"), [
    ("ro", "ro"), ("hu", "hu"), ("de", "de"), ("en-US", "en"), ("en-GB", "en"),
    ("fr", "en"), ("pt-BR", "en"), (None, "en"), (discord.Locale.german, "de"),
    (discord.Locale.romanian, "ro"), (discord.Locale.hungarian, "hu"),
    (discord.Locale.british_english, "en"),
])
def test_discord_locales_map_to_catalogs(locale: Any, lang: str) -> None:
    assert language_of(locale) == lang


def test_t_speaks_the_current_language_and_falls_back_to_english() -> None:
    assert t("btn.my_hand") == "My hand"
    with speaking("de"):
        assert t("btn.my_hand") == "Meine Karten"
        with speaking("ro"):
            assert t("btn.my_hand") == "Cărțile mele"
        assert t("btn.my_hand") == "Meine Karten"
        CATALOGS["de"].pop("btn.rules")
        try:
            assert t("btn.rules") == "Rules"
        finally:
            CATALOGS["de"]["btn.rules"] = "Regeln"
    with speaking("xx"):
        assert t("btn.my_hand") == "My hand"
    with pytest.raises(KeyError):
        t("no.such.key")


@pytest.fixture
async def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """A bot in a German server."""
    async with running(tmp_path / "bot.sqlite3", monkeypatch, guild_locale="de") as harness:
        yield harness


def de(key: str, **params: Any) -> str:
    with speaking("de"):
        return t(key, **params)


def ro(key: str, **params: Any) -> str:
    with speaking("ro"):
        return t(key, **params)


async def started_table(h: Harness, opener: User) -> None:
    r = await h.command(opener, "table new", game="filicau")
    assert not r.ephemeral and r.message.embeds[0]["title"] == de("lobby.title",
                                                                 game="Filicău")
    await h.press(opener, de("btn.join_a"))
    session = h.session()
    while not session.full:
        await h.add_computer(opener, "easy")
    await h.press(opener, de("btn.start"))


async def test_a_romanian_user_at_a_german_server(german: Harness) -> None:
    h = german
    ana = h.user("ana", locale="ro")
    await started_table(h, ana)
    # The public table message speaks German, the server's language.
    table = h.table_message()
    assert table.embeds[0]["title"].startswith("Filicău — Spiel 1")
    assert de("btn.my_hand") in table.text and de("table.seats") in table.text
    # Ana's hand view speaks Romanian, with Romanian card words on the buttons.
    view = (await h.press(ana, de("btn.my_hand"))).message
    assert view.audience == ana.id
    assert view.content.startswith("**" + ro("hand.title", game="Filicău", number=1))
    session = h.session()
    seat = session.seat_of(ana.id)
    assert seat is not None and session.hand is not None
    with speaking("ro"):
        labels = {card_label(c) for c in session.hand.hands[seat]}
    assert {b["label"].removeprefix(TRUMP_MARK) for b in view.buttons
            if b["custom_id"].startswith("fc:card:")} == labels
    assert h.hand_view(ana).id == view.id
    # A refusal is its user's: Hungarian for Bob.
    bob = h.user("bob", locale="hu")
    r = await h.press(bob, de("btn.my_hand"))
    with speaking("hu"):
        assert r.rejected_with(t("err.not_seated"))
    # Play the hand out by clicking: the table edits (outside the clicks: computer moves)
    # and the result stay German; Ana's view stays Romanian.
    while not session.hand.finished:
        view = h.hand_view(ana)
        playable = view.enabled("card") or view.enabled("act")
        assert playable, view.text
        await h.click(ana, playable[0], message=view)
    assert "Spiel 1" in h.table_message().embeds[0]["title"]
    result = [m for m in h.public() if m.embeds and m.embeds[0]["title"].startswith("Spiel 1")]
    assert len(result) == 1
    assert h.hand_view(ana).content.startswith("**Cărțile tale — Filicău, mâna 1**")


async def test_a_server_locale_is_remembered_for_messages_sent_later(german: Harness) -> None:
    """The turn warning is sent by a timer, outside any interaction: in the server's
    language, even though the last click came from an English user."""
    h = german
    ana = h.user("ana", locale="en-US")
    await started_table(h, ana)
    session = h.session()
    assert h.bot is not None and h.bot.public_language(session.row.guild_id) == "de"
    assert session.waiting_for_human() == [session.seat_of(ana.id)]
    await h.runner(session).courier.signal(Signal.WARNING, 30)
    warning = h.public()[-1]
    assert warning.content == de("turn.warning", user=ana.mention, seconds=30)
    # A restart keeps it (the store has it).
    await h.restart()
    assert h.bot.public_language(session.row.guild_id) == "de"


async def test_standings_are_public_and_german_rules_are_the_users(german: Harness) -> None:
    h = german
    eva = h.user("eva", locale="hu")
    r = await h.command(eva, "standings")
    assert not r.ephemeral and r.message.embeds[0]["title"] == de("standings.title",
                                                                 game="Filicău")
    r = await h.command(eva, "rules", game="filko")
    assert r.ephemeral and r.message.embeds[0]["title"] == "Filkó"
    with speaking("hu"):
        assert r.message.embeds[0]["fields"][-1]["name"] == t("rules.options")
        # The rulings themselves in Hungarian, not the engine's English.
        assert r.message.embeds[0]["description"].splitlines() == [
            f"• {t(f'rulings.filko.{i}')}" for i in range(len(GAMES["filko"].rulings))]
    assert GAMES["filko"].rulings[0] not in r.message.embeds[0]["description"]
    r = await h.command(eva, "history")
    with speaking("hu"):
        assert r.rejected_with(t("err.no_table"))


# -- slash commands ----------------------------------------------------------------------------


def synced(h: Harness) -> tuple[str, list[dict[str, Any]]]:
    [call] = [c for c in h.discord.calls if c.method == "PUT" and c.path.endswith("/commands")]
    return call.path, call.body


def walk(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every command, option and choice of the synced commands."""
    for item in items:
        yield item
        yield from walk(item.get("options") or [])
        yield from walk(item.get("choices") or [])


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}
    \\p{sc=Thai}]{1,32}$`` and lowercase where the letter has a lowercase form."""
    return (1 <= len(name) <= 32 and name == name.lower()
            and all(ch in "-_" or unicodedata.category(ch)[0] in "LN"
                    or unicodedata.category(ch) in ("Mn", "Mc") for ch in name))


async def test_the_synced_commands_are_valid_under_discords_schema(h: Harness) -> None:
    check = SchemaCheck()
    assert check.available, f"{check.path} is needed to check the command payload"
    path, body = synced(h)
    assert check.validate("PUT", path, body) is None


async def test_every_command_is_named_and_described_in_each_language(h: Harness) -> None:
    _, body = synced(h)
    checked = 0
    for item in walk(body):
        is_choice = "value" in item and "type" not in item
        names = item.get("name_localizations") or {}
        assert set(names) == set(OTHERS), item["name"]
        for lang, name in names.items():
            if is_choice:
                assert 1 <= len(name) <= 100
            else:
                assert valid_name(name), (lang, name)
                descriptions = item.get("description_localizations") or {}
                assert set(descriptions) == set(OTHERS), item["name"]
                assert all(1 <= len(d) <= 100 for d in descriptions.values())
            checked += 1
        if not is_choice:
            assert valid_name(item["name"])
    assert checked > 100


async def test_sibling_names_stay_distinct_in_each_language(h: Harness) -> None:
    _, body = synced(h)

    def siblings(items: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
        yield items
        for item in items:
            yield from siblings(item.get("options") or [])

    for group in siblings(body):
        for lang in OTHERS:
            names = [(i.get("name_localizations") or {}).get(lang, i["name"]) for i in group]
            assert len(set(names)) == len(names), (lang, names)


async def test_a_german_command_name_is_the_catalogs(h: Harness) -> None:
    _, body = synced(h)
    table = next(c for c in body if c["name"] == "table")
    assert table["name_localizations"] == {"ro": "masa", "hu": "asztal", "de": "tisch"}
    new = next(o for o in table["options"] if o["name"] == "new")
    game = next(o for o in new["options"] if o["name"] == "game")
    assert game["name_localizations"]["de"] == "spiel"
    filko = next(c for c in game["choices"] if c["value"] == "filko6")
    assert filko["name_localizations"]["de"] == "Filkó (6 Spieler)"
    assert h.tables.session_in(CHANNEL_ID) is None
