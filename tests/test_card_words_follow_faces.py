"""Card words follow the faces a table shows (issue 45): a Doppelkopf table, played with the
French pack, names its cards as French cards are named (Queen and Jack, clubs and diamonds;
Dame und Bube, Kreuz und Karo) on its hand view's buttons and in its trump line, with the
French suit signs; a game of the German pack keeps the German pack's words; a server that
chose the other faces (``/admin faces``) reads the other pack's words.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import aiohttp
import pytest
from activity_helpers import activity_site
from bot_fixtures import reseed
from fake_discord import Harness, User
from test_activity import open_socket, seat_user, ticket_of
from test_games_bot import sit_with_computers
from test_terminal import Answers
from test_web import receive
from web_helpers import path_of, serve

from bot.session import TableSession
from bot.store import SqliteStore
from bot.texts import language_of, speaking, t
from bot.web import demo
from bot.web.live import HandSteps
from engine import replay
from engine.cards import TRUMP, code
from engine.record import start
from engine.tools.terminal import play_terminal

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


# -- every answer of a French-faced table ------------------------------------------------------

#: The German pack's words and signs in any message of a French-faced table: the suit signs,
#: the Ober and Unter, the German suits (English "leaves" is left out: people leave tables).
GERMAN_ANYWHERE = {
    "en": re.compile(r"\b(?:Obers?|Unters?|acorns?|bells?)\b|🌰|🍃|🔔|❤️"),
    "de": re.compile(r"\b(?:Obern?|Untern?|Eichel|Gras|Schellen)\b|🌰|🍃|🔔|❤️"),
}
#: A suit named in a refusal: its French sign and word ("You must follow suit (♣ clubs).").
FRENCH_SUIT = {"en": re.compile(r"[♣♠♥♦]\s(?:clubs|spades|hearts|diamonds)\b"),
               "de": re.compile(r"[♣♠♥♦]\s(?:Kreuz|Pik|Herz|Karo)\b")}


def german_words(text: str, lang: str) -> list[str]:
    return [m.group() for m in GERMAN_ANYWHERE[lang].finditer(text)]


async def casual_doppelkopf(h: Harness, ana: User) -> TableSession:
    """Ana and three Easy computers at a casual Doppelkopf table (hints on), dealt from a
    fixed seed."""
    await h.command(ana, "table new", game="doppelkopf", rated=False)
    await h.press(ana, t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    await reseed(session, 7)
    await h.press(ana, t("btn.start"))
    return session


def refused_card(session: TableSession, seat: int) -> str | None:
    """A card Ana holds but may not play now because it does not follow a suit led (not
    trumps), if there is one."""
    hand = session.hand
    assert hand is not None
    if not hand.trick or hand.actors() != [seat] or hand.order is None:
        return None
    if hand.order.suit[hand.trick[0]] == TRUMP:
        return None
    # A card is played in the announcements' window too (its phase is not the play's).
    legal = {a.value for a in hand.legal_actions(seat) if a.kind == "card"}
    wrong = [c for c in hand.hands[seat] if c not in legal]
    if not legal:
        return None
    return code(wrong[0]) if wrong else None


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_every_answer_at_a_doppelkopf_table_names_french_cards(h: Harness, locale: str
                                                                      ) -> None:
    """Everything a player reads at a Doppelkopf table besides its hand view and table
    message — the hint, a refused card ("follow suit" names the suit led), the last trick,
    the result, the review of the hand page by page, ``/history`` — names its cards as the
    French pack does: no Ober, Unter, acorns or bells, no 🌰 🍃 ❤️ 🔔 (issue 45: hints,
    refusals and reviews said "★ 🌰 Ober" under the French pictures)."""
    h.guild_locale = locale
    lang = language_of(locale)
    ana = h.user("ana", locale=locale)
    with speaking(lang):
        session = await casual_doppelkopf(h, ana)
        await h.press(ana, t("btn.my_hand"))
        await healthy(h, ana)
        seat = session.seat_of(ana.id)
        assert seat is not None
        hand = session.hand
        assert hand is not None
        rng = random.Random(45)
        read: dict[str, list[str]] = {}
        for _ in range(200):
            await h.until(lambda: hand.finished or bool(session.waiting_for_human()))
            if hand.finished:
                break
            view = h.hand_view(ana)
            if "hint" not in read and view.enabled("hint") and len(hand.tricks) >= 1 \
                    and not hand.trick:
                r = await h.click(ana, view.enabled("hint")[0], message=view)
                read["hint"] = [r.message.text]
                view = h.hand_view(ana)
            wrong = refused_card(session, seat)
            if wrong is not None and "refusal" not in read:
                [button] = [b["custom_id"] for b in view.buttons
                            if str(b.get("custom_id", "")).split(":")[1::4] == ["card", wrong]
                            and b.get("disabled")][:1]
                before = len(hand.actions)
                r = await h.click(ana, button, message=view, force=True)
                assert r.ephemeral and len(hand.actions) == before
                read["refusal"] = [r.message.text]
                view = h.hand_view(ana)
            if len(hand.tricks) == 3 and "last trick" not in read:
                r = await h.press(ana, t("btn.last_trick"), message=h.table_message())
                read["last trick"] = [r.message.text]
            moves = sorted(view.moves())
            assert moves, "Ana's turn, and nothing to click"
            await h.click(ana, rng.choice(moves), message=view)
        assert hand.finished
        await h.settle()
        result = h.result_post()
        read["result"] = [result.text]
        r = await h.click(ana, result.button_by_label(t("btn.review"))["custom_id"],
                          message=result)
        pages = [r.message.text]
        while True:
            forward = r.message.buttons[-1]
            if forward.get("disabled"):
                break
            r = await h.click(ana, forward["custom_id"], message=r.message)
            pages.append(r.message.text)
        read["review"] = pages
        r = await h.command(ana, "history")
        read["/history"] = [r.message.text]
        read["everything else Ana can read"] = [m.text for m in h.readable(ana)]
    assert set(read) >= {"hint", "refusal", "last trick", "result", "review"}, set(read)
    found = {where: words for where, texts in read.items()
             if (words := [w for text in texts for w in german_words(text, lang)])}
    assert not found, found
    # Each says its cards as French cards (the test reads the words, not their absence).
    for where in ("hint", "last trick", "review"):
        assert any(sign in text for text in read[where] for sign in FRENCH_SIGNS), \
            (where, read[where])
    assert FRENCH_SUIT[lang].search(read["refusal"][0]), read["refusal"]
    assert len(pages) > 1, pages  # the review was walked page by page
    h.check_clean()


async def test_the_activity_refuses_a_card_in_the_french_packs_words(tmp_path: Path) -> None:
    """The Activity's refusal of a card that does not follow names the suit led as the page
    draws it: "♣ clubs" at a Doppelkopf table, never "🌰 acorns"."""
    async with activity_site(tmp_path) as site, aiohttp.ClientSession() as http:
        session = await site.table(game="doppelkopf", seed=11)
        hand = session.hand
        assert hand is not None
        while hand.phase == "vorbehalt":
            seat = hand.actors()[0]
            [gesund] = [a for a in hand.legal_actions(seat) if a.kind == "gesund"]
            await session.act(seat_user(session, seat), gesund,
                              hand_number=session.hand_number, at=len(hand.actions))
        # Play on (the first legal card) until a seat must follow a suit it can leave.
        for _ in range(48):
            seat = hand.actors()[0]
            wrong = refused_card(session, seat)
            if wrong is not None:
                break
            await session.act(seat_user(session, seat), hand.legal_actions(seat)[0],
                              hand_number=session.hand_number, at=len(hand.actions))
        assert wrong is not None, "no seat could leave a suit led"
        user = site.standin.users[seat_user(session, seat)]
        ws, _, _ = await open_socket(site, http, (await ticket_of(site, http, user))["ticket"])
        await ws.send_json({"v": 1, "type": "act", "hand": session.hand_id,
                            "at": len(hand.actions), "seat": seat, "action": {"card": wrong}})
        answer = await receive(ws)
        while answer["type"] != "error":
            answer = await receive(ws)
        assert answer["reason"] == "illegal.must_follow", answer
        assert FRENCH_SUIT["en"].search(answer["text"]), answer
        assert not german_words(answer["text"], "en"), answer


@pytest.mark.parametrize("game", ["doppelkopf", "filicau"])
def test_the_terminal_game_names_the_cards_as_the_game_shows_them(game: str) -> None:
    """``python -m engine play``: Doppelkopf, a game of the French pack, says clubs and
    diamonds, Queens and Jacks (how cards are written, the trumps, the hand, the card
    points, "you must follow spades"); Filicău keeps the German pack's Obers and acorns."""
    out = io.StringIO()
    assert play_terminal(game, seed=3, seat=0, out=out, inp=Answers(lambda *_: "1", out),
                         level="easy", hands=2) == 0
    text = out.getvalue()
    if game == "doppelkopf":
        assert not german_words(text, "en"), sorted(set(german_words(text, "en")))
        assert "so EO is the Queen of clubs" in text
        assert "the four Queens (EO GO HO SO), the four Jacks (EU GU HU SU), then diamonds" \
            in text
        assert "Queen 3, Jack 2" in text
        assert re.search(r"you must follow (?:clubs|spades|hearts)\b", text), text
    else:
        assert "so EO is the Ober of acorns" in text and "the four Obers" in text
        assert not re.search(r"\b(?:Queens?|Jacks?|clubs|diamonds)\b", text)


async def test_the_analysis_board_names_french_cards(tmp_path: Path) -> None:
    """The replay page's analysis board plays another card out of a finished Doppelkopf hand
    and words its steps (the trumps, the tricks) as the page draws the cards: Queens, Jacks
    and ♦ diamonds, not Obers, Unters and bells."""
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    server, base = await serve(store)
    try:
        session = await demo.open_table(store, guild_id=1, channel_id=1, game="doppelkopf",
                                        seed=11)
        hand_id = session.hand_id
        assert hand_id is not None
        hand = session.hand
        assert hand is not None
        rng = random.Random(46)
        while not hand.finished:  # gesund all round, then random cards
            seat = hand.actors()[0]
            legal = hand.legal_actions(seat)
            action = next((a for a in legal if a.kind == "gesund"), rng.choice(legal))
            await session.act(seat_user(session, seat), action,
                              hand_number=session.hand_number, at=len(hand.actions))
        row = await store.hand(hand_id)
        assert row is not None
        record = row.record()
        again = start(record)
        for at, (seat, action) in enumerate(replay(record).actions):  # noqa: B007
            others = [a for a in again.legal_actions(seat) if a.kind == "card" and a != action]
            if action.kind == "card" and others and again.tricks:
                break
            again.apply(seat, action)
        else:
            raise AssertionError("no position with a choice of cards")
        link = path_of(await server.hand_link(1, hand_id)) + "/analysis"
        async with aiohttp.ClientSession(base) as client, client.post(
                link, json={"at": at, "action": {"card": code(others[0].value)}}) as r:
            assert r.status == 200
            text = json.dumps(await r.json(), ensure_ascii=False)
        assert "Queens and Jacks" in text and "♦ diamonds" in text, text[:2000]
        assert not german_words(text, "en"), sorted(set(german_words(text, "en")))
    finally:
        await server.stop()
        await store.close()
