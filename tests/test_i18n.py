"""Languages: the catalogs, the choice of language per message, and the slash commands.

- Every catalog has every English key, no other key, and exactly English's placeholders.
- A user's own messages (hand view, refusals) follow their Discord locale; public messages
  (lobby, table, results) the server's, also when sent outside any interaction.
- The synced slash commands carry Romanian, Hungarian and German names and descriptions that
  Discord accepts: valid under its OpenAPI schema and its rules for names.
"""

from __future__ import annotations

import re
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
from bot.render import card_key_label
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
    card_word,
    game_title,
    has_text,
    language_of,
    load_catalog,
    load_plurals,
    points_text,
    showing,
    speaking,
    suit_label,
    t,
)
from engine import Hand, make_rules, public_view
from engine.cards import ALL_CARDS, CARD_POINTS, card, code
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
        "de": ("Eichel", "Gras", "Herz", "Schellen", "Ober", "Unter", "König", "Sau"),
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
    # Ana's hand view speaks Romanian, with the Romanian cards' corner letters on the buttons
    # ("🌰D": doiar).
    view = (await h.press(ana, de("btn.my_hand"))).message
    assert view.audience == ana.id
    assert view.content.startswith("**" + ro("hand.title", game="Filicău", number=1))
    session = h.session()
    seat = session.seat_of(ana.id)
    assert seat is not None and session.hand is not None
    with speaking("ro"):
        labels = {card_key_label(public_view(session.hand), c) for c in session.hand.hands[seat]}
    assert {b["label"] for b in view.buttons if b["custom_id"].startswith("fc:card:")} == labels
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


async def test_a_german_filicau_table_counts_punkte(german: Harness) -> None:
    """Filicău counts Aces and Tens: "Punkte", never the card points' "Augen"."""
    h = german
    await started_table(h, h.user("ana"))
    fields = {f["name"]: f["value"] for f in h.table_message().embeds[0]["fields"]}
    assert de("table.points") == "Punkte" and "Punkte" in fields
    assert "Augen" not in h.table_message().text


async def test_a_german_schafkopf_table_counts_augen_and_shows_no_empty_shown_cards(
        german: Harness) -> None:
    """Schafkopf's trump is always bells below every Ober and Unter, no card is shown for
    it: the trump line says the trumps as the game defines them ("Ober und Unter, dann
    Schellen", not "Schellen (aufgedeckt: —)"), and the parties' card points are "Augen"."""
    h = german
    ana = h.user("ana")
    await h.command(ana, "table new", game="schafkopf3")
    await h.press(ana, de("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    await h.press(ana, de("btn.start"))
    await h.settle()
    fields = {f["name"]: f["value"] for f in h.table_message().embeds[0]["fields"]}
    with speaking("de"):
        assert fields[t("table.trump")] == f"alle Ober und Unter, dann {suit_label(3)}"
    assert "aufgedeckt" not in h.table_message().text
    # The card points so far, each seat's or (once the parties are known) each party's:
    # called Augen either way.
    text = h.table_message().text
    with speaking("de"):
        assert t("table.card_points") == "Augen"
    assert "Augen" in text and "Punkte" not in text, text


def test_german_schafkopf_words_read_as_a_bavarian_player_says_them() -> None:
    """Issue 44: the called Ace is the Rufsau; the pot is the Stock (never also a Topf)
    and the widow of the games for three is the Skat (as Dreiwendsch's rulings say);
    Kontra and Re by name; one's secret side as what one is; no "earlier seat" riddle in
    the clarification; a setting reads as a setting."""
    with speaking("de"):
        assert t("info.called", card="🔔 Sau") == "Gerufene Sau: 🔔 Sau"
        widow = ["phase.widow", "prompt.widow", "act.take.True", "info.widow",
                 "info.widow_lying", "private.widow", "hand.from_widow", "goal.schafkopf3",
                 "rulings.dreiwendsch.8"]
        assert all("Skat" in t(k, cards="—") and "Stock" not in t(k, cards="—")
                   for k in widow), [t(k, cards="—") for k in widow]
        german = (Path(__file__).parent.parent / "bot/locales/de/LC_MESSAGES/bot.po"
                  ).read_text(encoding="utf-8")
        assert "Topf" not in german
        assert t("info.pot", value=40) == "Im Stock: 40"
        assert t("info.doubles", doubles="Kontra (Ana), Re (Bo)") == "Kontra (Ana), Re (Bo)"
        assert "Stöße" not in german
        assert t("private.side", side=t("side.declarer")).startswith("Du bist Spieler")
        assert t("result.teams", teams="Spieler: Ana Bo · Gegenspieler: Cy Dan") == (
            "Spieler: Ana Bo · Gegenspieler: Cy Dan")
        assert "früher" not in t("prompt.clarify", user="Ana", value="Solo")
        assert "Platz:" not in t("illegal.bid_too_low")
        assert t("settings.now", reminders=t("choice.dm"), invites=t("choice.mention")) == (
            "Deine Einstellungen: Erinnerungen: Direktnachricht · Einladungen: Erwähnung.")
        assert t("word.rufspiel") == "Sauspiel"
        assert card_key_label(public_view(Hand(make_rules("schafkopf"), 0, list(
            make_rules("schafkopf").pack))), card("GA")) == "🍃Sau"


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
    assert re.sub(r"<t:\d+:R>", "<t:…:R>", warning.content) == de(
        "turn.warning", user=ana.mention, when="<t:…:R>")
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


def test_german_says_kontra_and_re_and_the_commands_it_registers() -> None:
    """Issue 44, the German catalog read whole as a Bavarian player: the rulings double by
    Kontra and Re (not "Stoß"); Schneider as the tariff counts it; the bot says du, in
    Doppelkopf's goal too; das Karlchen; a command named in a text is the German one that
    Discord shows (not ``/play``, ``/league start``)."""
    de = texts_of_lang("de")
    rulings = [v for k, v in de.items() if k.startswith("rulings.schafkopf.")]
    assert rulings and not any(re.search(r"Stoß|stoßen", v) for v in rulings)
    assert "Kontra und Re verdoppeln" in de["rulings.schafkopf.8"]
    assert "Klopfen, jedes Kontra und jedes Re verdoppelt" in de["rulings.schafkopf.9"]
    assert "91 Augen oder mehr" in de["rulings.schafkopf.7"]
    assert de["word.stoss5"] == "fünfte Verdopplung"
    assert de["goal.doppelkopf"].startswith("Hol mit deiner Partei")
    assert not any(" eurer " in v or "den Karlchen" in v for v in de.values())
    commands = {v for k, v in de.items() if k.startswith("cmdname.")}
    named = {(k, m[1]) for k, v in de.items()
             for m in re.finditer(r"(?<![\w/:.)\]])/([^\W\d_]+)", v)}
    assert named and {(k, c) for k, c in named if c not in commands} == set()


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


# -- as a native card player reads them ---------------------------------------------------------
#
# What players of each language noticed in the catalogs (issue 31), kept from coming back.


def texts_of_lang(lang: str) -> dict[str, str]:
    """Every text of a catalog by key, plural forms joined (each form is read)."""
    texts = dict(CATALOGS[lang])
    texts.update({key: " | ".join(forms) for key, forms in PLURALS[lang].items()})
    return texts


def outside_glosses(text: str) -> str:
    """The text without its parentheses: a gloss may give a word the catalog does not use
    ("as (tuz)": the Romanian 20-card game's own name of the Ace)."""
    return re.sub(r"\([^()]*\)", "", text)


#: Words for a card, suit or trump that each catalog does not use: it names each card one way
#: everywhere (buttons, tables, rules). English says Ober and Unter, as English players of the
#: Schafkopf family do (and "Over" would read as the preposition: "the hand is over"). German
#: says Sau for the Ace: the cards are the Bavarian pack's, whose Ace is the Sau (a Sauspiel
#: calls one), and "Ass" is the French pack's word. A language's other words appear only
#: inside a gloss, in parentheses.
REJECTED_CARD_WORDS = {
    "en": r"\b(?:Overs?|Unders?|Knaves?|Queens?|Jacks?|Eichel|Gras|Schellen|Herz)\b",
    "ro": r"\b(?:treiar\w*|valet\w*|tuz\w*|cal|calul|cai|caii|rege\w*|dam[aăe]\w*|zecic\w*"
          r"|filc[aă]u\w*|tromf\w*|frunz\w*|inim\w*|clopo\w*)\b",
    "hu": r"\b(?:tromf\w*|dáma\w*|bubi\w*|levél|szív|csengő\w*|filkó\w*|treff\w*)\b",
    "de": r"\b(?:Daus\w*|Ass|Asse[sn]?|Buben?|Damen?|Laub|Grün|Schelle|Trumf\w*)\b",
}


#: Doppelkopf is played with the French pack's names (Kreuz, Pik, Herz, Karo; Dame, Bube;
#: RULINGS.md D, conventions): its rules, goal and how to play say Dame and Bube, not Ober and
#: Unter, in every language. Its other texts (buttons, refusals) name no card by rank and
#: suit, and keep to each catalog's words.
FRENCH_PACK_TEXTS = re.compile(r"^(?:rulings|goal|how)\.doppelkopf\b")
#: The French pack's own card words: a table whose cards show French faces (Doppelkopf's,
#: or any game on a server that chose them) names its cards with these, not the German pack's.
FRENCH_CARD_WORDS = re.compile(r"^(?:suit|rank|rankname|trump\.top)\.french\.")
#: What each catalog calls the French pack's Queen and Jack, clubs and diamonds.
FRENCH_NAMES = {"en": ("Queen", "Jack", "clubs", "diamonds"),
                "ro": ("damă", "valet", "treflă", "caro"),
                "hu": ("dáma", "bubi", "treff", "káró"),
                "de": ("Dame", "Bube", "Kreuz", "Karo")}
BAVARIAN_CARD_WORDS = {
    "en": r"\b(?:Obers?|Unters?|acorns?|leaves|bells)\b",
    "ro": r"\b(?:filic[aă]u\w*|doiar\w*|pătrar\w*|ghind\w*|dub[aăe]\w*)\b",
    "hu": r"\b(?:felső\w*|alsó\w*|makk\w*|tök\w*)\b",
    "de": r"\b(?:Ober|Unter|Sau|Säue|Eichel\w*|Gras|Schellen\w*)\b",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_word_per_card_everywhere(lang: str) -> None:
    word = re.compile(REJECTED_CARD_WORDS[lang])
    found = {key: word.findall(outside_glosses(text))
             for key, text in texts_of_lang(lang).items()
             if not FRENCH_PACK_TEXTS.match(key) and not FRENCH_CARD_WORDS.match(key)}
    assert {key: words for key, words in found.items() if words} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_french_faces_name_their_cards_with_the_french_packs_words(lang: str) -> None:
    """Every German card word has its French twin where the packs differ (the Queen for the
    Ober, clubs for acorns), none of them a German pack's word; a card on French faces reads
    them, on German faces the German pack's."""
    texts = texts_of_lang(lang)
    french = {key: text for key, text in texts.items() if FRENCH_CARD_WORDS.match(key)}
    assert {f"suit.french.{s}" for s in "EGHS"} | {
        f"{kind}.french.{r}" for kind in ("rank", "rankname") for r in "AKOU"} | {
        f"trump.top.french.{r}" for r in ("O", "U", "OU", "O7")} == set(french)
    word = re.compile(BAVARIAN_CARD_WORDS[lang])
    assert {key: word.findall(text) for key, text in french.items() if word.search(text)} == {}
    queen, jack, clubs, diamonds = FRENCH_NAMES[lang]
    with speaking(lang), showing("french"):
        assert card_label(card("EO")) == f"♣\u00a0{queen}"
        assert jack in card_word("SU") and diamonds in card_word("SU")
        assert clubs in suit_label(0) and suit_label(3).startswith("♦")
    with speaking(lang), showing("german"):
        assert card_label(card("EO")) == f"🌰\u00a0{texts['rank.O']}"
        assert word.search(card_word("SU"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_doppelkopf_names_the_french_packs_cards(lang: str) -> None:
    texts = {key: text for key, text in texts_of_lang(lang).items()
             if FRENCH_PACK_TEXTS.match(key)}
    assert len(texts) == len(GAMES["doppelkopf"].rulings) + 2
    word = re.compile(BAVARIAN_CARD_WORDS[lang])
    assert {key: word.findall(text) for key, text in texts.items() if word.search(text)} == {}
    french = {"en": "Jack", "ro": "vale", "hu": "bubi", "de": "Bube"}[lang]
    assert any(french in text for text in texts.values())


def test_the_card_word_check_sees_a_rejected_word() -> None:
    assert re.search(REJECTED_CARD_WORDS["en"], "the fris Over leads")
    assert not re.search(REJECTED_CARD_WORDS["ro"], outside_glosses("as (tuzul, 11)"))
    assert re.search(REJECTED_CARD_WORDS["ro"], outside_glosses("cu tuzul de tromf"))


#: How each catalog names a house rule in the rules summary, and the words for where a
#: rule came from that players never read.
HOUSE_RULES = {"en": "House rule", "ro": "Regul", "hu": "Házszabály", "de": "Hausregel"}
SOURCE_WORDS = {
    "en": r"(?i)\b(?:seeds?|project|sources?)\b",
    "ro": r"(?i)\b(?:surs[aăe]\w*|proiect\w*)\b",
    "hu": r"(?i)(?:forrás|projekt)",
    "de": r"(?i)(?:quelle|projekt)",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_players_read_house_rules_not_the_projects_sources(lang: str) -> None:
    word = re.compile(SOURCE_WORDS[lang])
    assert {key: text for key, text in texts_of_lang(lang).items() if word.search(text)} == {}
    english_house_rules = 0
    for key, cls in GAMES.items():
        for i, line in enumerate(cls.rulings):
            if line.startswith("House rule"):
                english_house_rules += 1
                with speaking(lang):
                    assert t(f"rulings.{key}.{i}").startswith(HOUSE_RULES[lang]), (key, i)
    assert english_house_rules >= 9


@pytest.mark.parametrize("lang", LANGUAGES)
def test_players_read_no_ruling_numbers(lang: str) -> None:
    """RULINGS.md numbers its rulings (B4.5, B12.7) for code, docs and tests; a player reads
    the rule itself, never the number of the note that settled it."""
    number = re.compile(r"\bB\d+(?:\.\d+)?\b")
    assert {key: text for key, text in texts_of_lang(lang).items() if number.search(text)} == {}
    assert not [line for cls in GAMES.values() for line in (*cls.rulings, cls.goal)
                if number.search(line)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_buttons_never_share_a_label(lang: str) -> None:
    """Leaving the lobby and leaving a table in play are different actions."""
    with speaking(lang):
        assert t("btn.leave") != t("btn.leave_hand")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_speaks_of_true_or_false(lang: str) -> None:
    word = re.compile(r"(?i)\b(?:true|false)\b")
    assert {key: text for key, text in texts_of_lang(lang).items() if word.search(text)} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_name_is_never_glued_into_a_compound(lang: str) -> None:
    """"Filkó mit Hüten-Tisch" and "Filkó (6 játékos)-asztal" break the game's name."""
    for key in ("lobby.title", "table.title", "table.thread_name", "hand.title"):
        for game, cls in GAMES.items():
            with speaking(lang):
                name = game_title(game, cls.title)
                text = t(key, game=name, number=1)
            assert name in text and f"{name}-" not in text, (key, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_spelling_of_filcau(lang: str) -> None:
    spellings = {m for text in texts_of_lang(lang).values()
                 for m in re.findall(r"(?i)\bfilc[aă]u\b", outside_glosses(text))}
    assert len(spellings) == 1, spellings


def test_romanian_filcau_texts_gloss_the_games_own_words() -> None:
    """Filcau's Romanian players call the Ace tuz, the King cal, the Under valet and trump
    tromf: its rules name the cards as the other games do and give those words once."""
    for key in ("rulings.filcau20.0", "how.filcau20"):
        text = CATALOGS["ro"][key]
        glosses = " ".join(re.findall(r"\(([^()]*)\)", text))
        for word in ("tuz", "cal", "valet", "tromf"):
            assert word in glosses, (key, word)


def test_hungarian_articles_come_from_the_helper() -> None:
    """"a(z)" is what a form says, not a person: the {x:az} placeholder picks the article."""
    bare = {key: text for key, text in texts_of_lang("hu").items() if "a(z)" in text.lower()}
    assert bare == {}
    with speaking("hu"):
        assert t("err.bad_setting", option="Osztások", low=0, high=9).startswith("Az Osztások")


def test_hungarian_spells_szolo_one_way() -> None:
    texts = texts_of_lang("hu").values()
    assert not [text for text in texts if re.search(r"(?i)\bsol[oó]", text)]
    assert any("szóló" in text for text in texts)


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_buttons_carry_no_romanian_word(lang: str) -> None:
    """The 20-card game's Romanian terms are glossed in its rules, never a button's label."""
    romanian = re.compile(r"[ăâîșțĂÂÎȘȚ]|\b(?:legare|slugă|egal|șef)\b")
    buttons = {key: text for key, text in texts_of_lang(lang).items()
               if key.startswith(("btn.", "act.")) and romanian.search(text)}
    assert buttons == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_mode_and_match_are_three_words(lang: str) -> None:
    """One word per idea: a hand ("Spiel 3"), a game's mode ("Spielart") and a match
    ("Partie") are never called the same on one table message."""
    def word(key: str) -> str:
        return re.sub(r"\{\w+\}|[.:]", "", CATALOGS[lang][key]).strip().lower()

    words = [word("result.hand_title"), word("info.mode"), word("table.match")]
    assert len(set(words)) == 3, words


#: Keys that only games counting card points (Ace 11 … Unter 2) show: a Ramsch is one.
CARD_POINT_KEYS = {"table.card_points", "result.card_points_line", "n.card_points",
                   "event.least_won", "event.least_all", "event.most_won", "event.ramsch"}


def test_german_says_augen_only_for_card_points() -> None:
    """German card players count "Augen" in the Schafkopf games (and Filkó with Hats);
    Filicău's and Filkó's Aces and Tens are "Punkte"."""
    card_point_games = {game for game, cls in GAMES.items() if cls.points == CARD_POINTS}
    assert {"schafkopf3", "wendish", "filko_hats"} <= card_point_games
    assert not {"filicau", "filko", "filcau20"} & card_point_games
    wrong = {}
    for key, text in texts_of_lang("de").items():
        game = key.split(".")[1] if key.startswith(("rulings.", "how.", "goal.")) else None
        allowed = key in CARD_POINT_KEYS or game in card_point_games
        if "Auge" in text and not allowed:
            wrong[key] = text
    assert wrong == {}
    for game in set(GAMES) - card_point_games:
        assert "Punkt" in de(f"how.{game}"), game


def test_the_words_of_the_points_follow_the_game() -> None:
    with speaking("de"):
        assert points_text("table.points", GAMES["filicau"].points) == "Punkte"
        assert points_text("table.points", GAMES["schafkopf3"].points) == "Augen"
        assert points_text("n.points", GAMES["wendish"].points, count=61) == "61 Augen"
        assert points_text("result.points_line", GAMES["dreiwendsch"].points,
                           points="A 41 · B 79") == "Augen: A 41 · B 79"
    with speaking("hu"):
        assert points_text("n.points", GAMES["filko"].points, count=6) == "6 pont"
        assert points_text("n.points", GAMES["officers"].points, count=61) == "61 lappont"


def test_what_a_native_reader_flagged() -> None:
    """Sentences a player of each language stumbled on, each worded as such a player
    would say it."""
    with speaking("ro"):
        # The player, not the points, wins.
        assert "a câștigat cine" in t("event.least_won")
        assert "a câștigat cine" in t("event.most_won")
        # A button says what the player does; it does not order the bot about.
        assert t("act.face_up.True").startswith("Cer ")
    with speaking("hu"):
        assert "adója" not in " ".join(CATALOGS["hu"].values())  # tax, not trump (aduja)
        # A team is one, its members many: "az A csapat tagjai szolgák".
        assert "Az A csapat tagjai" in t("lobby.status_masters", team="A", since="x",
                                          slaves=t("lobby.word_servants"), dealer="@b")
        assert "a B csapat tagjai" in t("result.masters", team="A", other="B",
                                         slaves=t("lobby.word_slaves"))
        assert "mp-" not in t("turn.warning", user="@ana", when="<t:1:R>")
        assert "pont nyert" not in t("event.least_won")
        assert t("face.G").split(" ", 1)[1] == "felnézés"  # a noun, as the other faces
        ran = [key for key, text in CATALOGS["hu"].items() if "elszök" in text]
        assert ran == []  # one verb for running away: elszalad
    with speaking("de"):
        assert "wer die wenigsten Augen hat" in t("event.least_won")
        assert "für @ana" in t("turn.autoplay", user="@ana")
        assert "Analyse" in t("review.title", game="Filkó", number=1)
        assert "Weitergeben" not in t("act.deal_on.True")  # passing the deal on
        assert "gewinnt, wer die meisten Augen hat, 1" in t("rulings.dreiwendsch.9")
