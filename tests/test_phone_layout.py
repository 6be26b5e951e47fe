"""The messages as a player reads them on a phone (issue 17, part 7; issue 31): a card is one
unbroken label, four card buttons a row fit a phone's width in every language; choices fit
the few rows a phone shows (three buttons side by side); a Servant is chosen with ordinary
buttons; cards to bury are shown once."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from bot_fixtures import FixedDeal, find_deal, first_legal, masters_hand, rig
from fake_discord import UPDATE_MESSAGE, Harness, Message
from PIL import ImageFont
from test_cogs import four_players, play_until
from test_games_bot import fris_table, hand_of, sit_with_computers

from bot.courier import Signal
from bot.texts import LANGUAGES, SUIT_EMOJI, speaking, t
from engine import make_rules
from engine.cards import Card, card, cards, code

#: A card in words (the table's trick, menus): a suit sign, a no-break space, the rank.
CARD = re.compile(r"^(★ )?(" + "|".join(map(re.escape, SUIT_EMOJI)) + r")\u00a0(\S+)$")
#: A card on its button in the hand: the suit sign, the rank as the cards' corners show it, a
#: trump's star; no space at all.
CARD_KEY = re.compile(r"^(" + "|".join(map(re.escape, SUIT_EMOJI)) + r")([^\s*]{1,2})(\*?)$")


def rows(msg: Message) -> list[list[dict[str, Any]]]:
    return [row["components"] for row in msg.payload()["components"]]


def card_buttons(msg: Message) -> list[dict[str, Any]]:
    return [b for b in msg.buttons if b["custom_id"].split(":")[1] == "card"]


async def test_a_card_button_is_one_word_and_the_table_names_the_card_in_words(
        h: Harness) -> None:
    session, users = await four_players(h)
    ana = users[0]
    view = h.hand_view(ana)
    ranks = set()
    for b in card_buttons(view):
        m = CARD_KEY.match(b["label"])
        assert m is not None, b["label"]  # no space at all: it stays on one line
        ranks.add(m[2])
    held = {code(c)[1:] for c in hand_of(session).hands[0]}
    assert ranks == {t(f"corner.{r}") if r in "AKOU" else r for r in held}
    # The table message writes the cards of the trick in words ("🌰 Ober"), which have room
    # there.
    await play_until(h, session, users, first_legal, stop=lambda hand: len(hand.trick) == 2)
    await h.settle()
    hand = hand_of(session)
    [trick] = [f["value"] for f in h.table_message().embeds[0]["fields"]
               if f["name"] == t("table.trick_of", trick=len(hand.tricks) + 1, tricks=8)]
    played = [p.rsplit(" ", 1)[0] for p in trick.split(" · ")]
    assert len(played) == 2 and all(CARD.match(p) for p in played), trick
    assert all(m[3] not in {"O", "U"} for m in map(CARD.match, played) if m), trick


# -- measured as a phone draws the buttons -----------------------------------------------------

#: The width a message's rows of buttons have on a phone 400 CSS px wide, as
#: ``tools/render_messages.py`` lays a message out there (after Discord's mobile client): 12 px
#: of padding each side, the author's 40 px avatar and a 12 px gap.
PHONE_ROW_WIDTH = 400 - 2 * 12 - 40 - 12
#: A button: 16 px of padding each side, at least 60 px wide, 8 px apart. Its label as the
#: renderer draws it (measured in Chromium): DejaVu Sans at 16 px, an emoji 1.25 em wide (Noto
#: Color Emoji). Discord sets button labels at 14 px in its own face, narrower: what fits here
#: fits there.
BUTTON_PADDING, BUTTON_MIN, BUTTON_GAP, LABEL_PX = 32, 60, 8, 16
EMOJI_EM = 1.25
FONTS = Path(__file__).resolve().parent.parent / "bot" / "fonts"


@cache
def label_font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), LABEL_PX)


def label_width(label: str) -> float:
    width = 0.0
    for emoji in SUIT_EMOJI:
        width += label.count(emoji) * EMOJI_EM * LABEL_PX
        label = label.replace(emoji, "")
    return width + label_font().getlength(label)


def row_width(labels: Sequence[str]) -> float:
    return (sum(max(BUTTON_MIN, BUTTON_PADDING + label_width(x)) for x in labels)
            + BUTTON_GAP * (len(labels) - 1))


def test_the_phone_model_measures_as_the_renderer_did() -> None:
    """Buttons as Chromium measured them in the renderer's page (to 0.5 px), and the two rows
    issue 31 saw wrap 3+1 at 400 px (the labels in words) wrap here too."""
    measured = {"★ 🍃\u00a0Ober": 115.7, "★ 🌰\u00a0A": 87.5, "❤️\u00a0Unter": 101.6,
                "🌰O*": 72.6, "🌰10*": 80.4, "🔔10": 72.4, "🌰U": 63.7}
    for label, width in measured.items():
        assert row_width([label]) == pytest.approx(width, abs=0.5), label
    assert row_width(["★ 🍃\u00a0Ober", "★ 🌰\u00a0A", "★ 🌰\u00a09", "★ 🌰\u00a07"]) \
        > PHONE_ROW_WIDTH
    assert row_width(["🍃\u00a010", "🍃\u00a09", "❤️\u00a0Unter", "❤️\u00a07"]) > PHONE_ROW_WIDTH


def rigged(game: str, seat: int, held: Sequence[Card], dealer: int = 0) -> FixedDeal:
    """A deal in which ``seat`` is dealt ``held`` (the rest in the game's own order)."""
    rules = make_rules(game)
    pack = list(rules.pack)
    places = [pack.index(c) for c in rules.deal(tuple(pack), dealer)[seat]]
    wanted = list(held)
    for place, c in zip(places, wanted, strict=False):
        there = pack.index(c)
        pack[there], pack[place] = pack[place], pack[there]
    assert set(wanted) <= set(rules.deal(tuple(pack), dealer)[seat])
    return FixedDeal(pack, dealer)


OVERS_AND_UNDERS = ["EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("game", "extra"), [("filicau", []), ("schafkopf3", ["EA", "S10"])])
async def test_a_hand_of_overs_and_unders_fits_four_a_row_on_a_phone(
        h: Harness, game: str, extra: list[str], lang: str) -> None:
    """Ana holds the four Overs and the four Unders (trumps all, in Schafkopf for three: each
    button starred): every row of her card buttons fits a phone 400 px wide, four a row, in
    her language. (Before: "★ 🌰 Ober" and the like wrapped 3+1.)"""
    ana = h.user("ana", locale={"en": "en-US", "ro": "ro", "hu": "hu", "de": "de"}[lang])
    await h.command(ana, "table new", game=game)
    await h.press(ana, t("btn.join_a") if make_rules(game).fixed_teams else t("btn.sit"))
    session = h.session()
    seat = session.seat_of(ana.id)
    assert seat is not None
    while not session.full:
        await h.add_computer(ana, "easy")
    rig(session, rigged(game, seat, cards(OVERS_AND_UNDERS + extra)))
    await h.press(ana, t("btn.start"))
    view = (await h.press(ana, t("btn.my_hand"))).message
    assert sorted(code(c) for c in hand_of(session).hands[seat]) == sorted(
        OVERS_AND_UNDERS + extra)
    card_rows = [[b["label"] for b in row if b.get("custom_id", "").split(":")[1] == "card"]
                 for row in rows(view)]
    card_rows = [row for row in card_rows if row]
    assert [len(row) for row in card_rows][:2] == [4, 4]
    with speaking(lang):
        corners = {t("corner.O"), t("corner.U")}
        overs = tuple(f"{e}{t('corner.O')}" for e in SUIT_EMOJI)  # always trumps
    for row in card_rows:
        width = row_width(row)
        assert width <= PHONE_ROW_WIDTH, f"{lang}: {row} is {width:.0f} px wide"
    for row in card_rows[:2]:  # the Overs, then the Unters
        for x in row:
            m = CARD_KEY.match(x)
            assert m is not None and m[2] in corners, x
            if game == "schafkopf3" or x.startswith(overs):  # trumps, always
                assert m[3] == "*", x


async def test_servant_buttons_are_ordinary_choices_named_in_words(h: Harness) -> None:
    """In Filkó the new masters choose their Servant: plain primary buttons (not the red of
    a dangerous action) that read "Servant: Bob"."""
    session, users = await four_players(h, game="filko", deal=find_deal("filko",
                                                                        masters_hand()))
    await play_until(h, session, users, first_legal,
                     stop=lambda hand: hand.phase == "servant")
    chooser = next(u for u in users if h.hand_view(u).moves())
    mine = users.index(chooser) % 2
    buttons = [b for b in h.hand_view(chooser).buttons if ':servant:' in b["custom_id"]]
    # The Servant comes from the other team (the users sit A B A B).
    names = {u.name.capitalize() for u in users if users.index(u) % 2 != mine}
    assert {b["label"] for b in buttons} == {t("act.servant", value=n) for n in names}
    assert all(b["style"] == 1 for b in buttons)  # primary, not danger (4)
    with speaking("de"):
        assert t("act.servant", value="Bob") == "Knecht: Bob"


async def test_cards_to_bury_are_shown_once_in_their_menu(h: Harness) -> None:
    ana = h.user("ana")
    session = await sit_with_computers(h, "schafkopf3", ana)
    view = (await h.press(ana, t("btn.my_hand"))).message
    seat = session.seat_of(ana.id)
    for _ in range(10):
        await h.until(lambda: bool(session.waiting_for_human()) or hand_of(session).finished)
        hand = hand_of(session)
        if hand.phase != "widow" or session.waiting_for_human() != [seat]:
            break
        view = h.hand_view(ana)
        take = [c for c in view.moves() if ":take:" in c]
        await h.click(ana, take[0], message=view)
    hand = hand_of(session)
    assert hand.phase == "bury", "the seeded deal lets Ana take the widow"
    view = h.hand_view(ana)
    # One menu of her ten cards, the widow's two marked; no card buttons, no card list.
    assert card_buttons(view) == []
    [menu] = view.selects
    assert sorted(o["value"] for o in menu["options"]) == sorted(
        code(c) for c in hand.hands[seat])
    widow = [o["value"] for o in menu["options"] if o.get("description")]
    assert len(widow) == 2 and all(
        o["description"] == t("hand.from_widow") for o in menu["options"] if o["value"] in widow)
    for c in hand.hands[seat]:
        label = next(o["label"] for o in menu["options"] if o["value"] == code(c))
        assert label not in view.content


async def test_fris_choices_fit_two_rows_of_a_phone(h: Harness) -> None:
    ana = h.user("ana")
    session = await fris_table(h, ana)
    view = h.hand_view(ana)
    choice_rows = [row for row in rows(view)
                   if not all(c.get("custom_id", "").split(":")[1] == "card" for c in row)]
    assert len(choice_rows) <= 2
    assert all(len(row) <= 3 for row in choice_rows)
    menu = view.select("act")
    assert menu is not None and menu["placeholder"] == t("act.fris.choose")
    fris = [o for o in menu["options"] if o["value"].startswith("fris:")]
    assert len(fris) == 4
    # Choosing the hearts trump in the menu makes fris.
    [hearts] = [o["value"] for o in fris if '"trump":"H"' in o["value"]]
    r = await h.choose(ana, menu["custom_id"], [hearts], message=view)
    assert r.type == UPDATE_MESSAGE
    hand = hand_of(session)
    assert hand.phase == "fris_trick" and hand.shown == [card("EO")]


async def test_the_lobby_fits_a_phone_and_drops_seat_buttons_once_full(h: Harness) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    await h.command(ana, "table new", game="filko")
    lobby = h.table_message()
    # Seat buttons and Leave; Remove computer, Start, Cancel; two menus (computers by
    # level, options): four rows, none wider than a phone's three buttons.
    assert len(rows(lobby)) == 4 and all(len(row) <= 3 for row in rows(lobby))
    assert [len(m["options"]) for m in lobby.selects if ":cpu:" in m["custom_id"]] == [3]
    await h.press(ana, t("btn.join_a"))
    await h.press(bob, t("btn.join_a"))
    # Team A is full: only Join team B is offered.
    labels = {b["label"] for b in h.table_message().buttons}
    assert t("btn.join_b") in labels and t("btn.join_a") not in labels
    await h.add_computer(ana, "hard")
    await h.add_computer(ana, "easy")
    session = h.session()
    assert session.seats[1] == "cpu:hard" and session.seats[3] == "cpu:easy"
    lobby = h.table_message()
    labels = {b["label"] for b in lobby.buttons}
    assert not labels & {t("btn.join_a"), t("btn.join_b")}
    assert lobby.select("cpu") is None and len(rows(lobby)) == 3


async def test_the_fris_prompt_addresses_only_the_people_who_may_act(h: Harness) -> None:
    """Ana and the computer dealer may act in the fris window: the table says what it waits
    for, and the window's signal pings Ana, not the computer (which needs no prompt)."""
    ana = h.user("ana")
    session = await fris_table(h, ana)
    hand = hand_of(session)
    assert sorted(hand.actors()) == [0, 1]
    await h.settle()
    table = h.table_message()
    assert table.content == ""
    assert t("table.phase_now", phase=t("phase.fris")) in table.embeds[0]["description"]
    await h.runner(session).courier.signal(Signal.TURN, 20)
    [signal] = [m for m in h.public() if m.id != table.id]
    assert signal.content in {t("turn.ping", user=ana.mention),
                              t("turn.ping_view", user=ana.mention, button=t("btn.my_hand"))}
