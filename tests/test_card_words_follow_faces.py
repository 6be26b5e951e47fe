"""Card words follow the faces a table shows (issue 45): a Doppelkopf table, played with the
French pack, names its cards as French cards are named (Queen and Jack, clubs and diamonds;
Dame und Bube, Kreuz und Karo) on its hand view's buttons and in its trump line, with the
French suit signs; a game of the German pack keeps the German pack's words; a server that
chose the other faces (``/admin faces``) reads the other pack's words.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fake_discord import Harness, User
from test_games_bot import sit_with_computers

from bot.store import SqliteStore
from bot.texts import language_of, speaking, t
from bot.web import demo
from bot.web.live import HandSteps

FRENCH_SIGNS = "♣♠♥♦"
GERMAN_SIGNS = ("🌰", "🍃", "❤️", "🔔")
#: The letters of the Queen and the Jack on a French hand's buttons; the Ober and Unter's.
FRENCH_KEYS = {"en": ("Q", "J"), "de": ("D", "B")}
#: The French pack's words a trump line of Doppelkopf says, and the German pack's it may not.
FRENCH_TRUMPS = {"en": ("Queens", "Jacks", "diamonds"), "de": ("Damen", "Buben", "Karo")}
GERMAN_WORDS = {"en": r"\b(?:Obers?|Unters?|acorns|leaves|bells)\b",
                "de": r"\b(?:Ober|Unter|Eichel|Gras|Schellen)\b"}


def trump_line(h: Harness, lang: str) -> str:
    with speaking(lang):
        name = t("table.trump")
    [field] = [f for f in h.table_message().embeds[0]["fields"] if f["name"] == name]
    return str(field["value"])


def card_keys(h: Harness, ana: User) -> list[str]:
    """The labels of the card buttons of Ana's hand view."""
    view = h.hand_view(ana)
    return [str(b["label"]) for b in view.buttons if b.get("custom_id", "").split(":")[1:2]
            == ["card"]]


async def my_hand(h: Harness, ana: User, lang: str) -> list[str]:
    with speaking(lang):
        await h.press(ana, t("btn.my_hand"))
    return card_keys(h, ana)


async def healthy(h: Harness, ana: User) -> None:
    """Ana says she is healthy (gesund) and the computers say theirs: the play begins."""
    view = h.hand_view(ana)
    [gesund] = [b for b in view.buttons if ":gesund:" in str(b.get("custom_id"))]
    await h.click(ana, gesund["custom_id"], message=view)
    await h.settle()


def assert_french(keys: list[str], line: str, lang: str) -> None:
    assert keys and all(k[0] in FRENCH_SIGNS for k in keys), keys
    queen, jack = FRENCH_KEYS[lang]
    # The Queens and Jacks are trumps (starred): ana holds some of the 24 of the 48 cards.
    assert any(re.fullmatch(f"[{FRENCH_SIGNS}][{queen}{jack}]\\*", k) for k in keys), keys
    assert all(word in line for word in FRENCH_TRUMPS[lang]), line
    assert not re.search(GERMAN_WORDS[lang], line) and not any(
        sign in line for sign in GERMAN_SIGNS), line


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_a_doppelkopf_table_names_its_cards_as_french_cards(h: Harness, locale: str
                                                                  ) -> None:
    h.guild_locale = locale
    lang = language_of(locale)
    ana = h.user("ana", locale=locale)
    with speaking(lang):
        await sit_with_computers(h, "doppelkopf", ana)
    await my_hand(h, ana, lang)
    await healthy(h, ana)
    assert_french(card_keys(h, ana), trump_line(h, lang), lang)
    h.check_clean()


def assert_german(keys: list[str], line: str, lang: str) -> None:
    assert keys and all(k.startswith(GERMAN_SIGNS) for k in keys), keys
    assert re.search(GERMAN_WORDS[lang], line) and not any(
        sign in line for sign in FRENCH_SIGNS), line
    assert not any(word in line for word in FRENCH_TRUMPS[lang][:2]), line


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_a_filicau_table_keeps_the_german_packs_words(h: Harness, locale: str) -> None:
    h.guild_locale = locale
    lang = language_of(locale)
    ana = h.user("ana", locale=locale)
    with speaking(lang):
        await sit_with_computers(h, "filicau", ana)
    keys = await my_hand(h, ana, lang)
    assert_german(keys, trump_line(h, lang), lang)
    h.check_clean()


async def test_the_servers_faces_choice_changes_the_words(h: Harness) -> None:
    """``/admin faces`` draws every game with the faces chosen, and names its cards so: a
    Doppelkopf table on German faces says Ober and Unter; back as the game is played, Queen
    and Jack again; Filicău on French faces says Queen and clubs."""
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await sit_with_computers(h, "doppelkopf", ana)
    await my_hand(h, ana, "en")
    await healthy(h, ana)
    assert_french(card_keys(h, ana), trump_line(h, "en"), "en")
    assert (await h.command(mia, "admin faces", faces="german")).ephemeral
    assert_german(await my_hand(h, ana, "en"), trump_line(h, "en"), "en")
    assert "Obers and Unters" in trump_line(h, "en")
    assert (await h.command(mia, "admin faces", faces="game")).ephemeral
    assert_french(await my_hand(h, ana, "en"), trump_line(h, "en"), "en")
    h.check_clean()


async def test_a_filicau_table_on_french_faces_names_french_cards(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    assert (await h.command(mia, "admin faces", faces="french")).ephemeral
    await sit_with_computers(h, "filicau", ana)
    keys = await my_hand(h, ana, "en")
    assert keys and all(k[0] in FRENCH_SIGNS for k in keys), keys
    line = trump_line(h, "en")
    assert "all Queens, then " in line and not re.search(GERMAN_WORDS["en"], line), line
    h.check_clean()


async def test_the_pages_name_the_cards_as_they_draw_them(tmp_path: Path) -> None:
    """The watch and replay pages' steps (``bot.web.live.HandSteps``) word a Doppelkopf
    hand's trumps with the faces the pages draw: French by default, German where the server
    chose German faces."""
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    try:
        session = await demo.open_table(store, guild_id=1, channel_id=1, game="doppelkopf",
                                        seed=11)
        hand = session.hand
        assert hand is not None
        while hand.phase == "vorbehalt":
            seat = hand.actors()[0]
            [gesund] = [a for a in hand.legal_actions(seat) if a.kind == "gesund"]
            member = session.seats[seat]
            assert member is not None
            await session.act(int(member), gesund, hand_number=session.hand_number,
                              at=len(hand.actions))
        row, table = await store.current_hand(session.id), await store.get_table(session.id)
        assert row is not None and table is not None
        worded = {}
        for faces in ("french", "german"):
            steps = HandSteps(row, table, "en", faces)
            steps.extend(row.actions)
            worded[faces] = steps.steps[-1].state.model_dump_json()
        assert "Queens and Jacks" in worded["french"] and "♦ diamonds" in worded["french"]
        assert not re.search(GERMAN_WORDS["en"], worded["french"])
        assert "Obers and Unters" in worded["german"] and "bells" in worded["german"]
    finally:
        await store.close()
