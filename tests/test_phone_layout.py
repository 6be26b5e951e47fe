"""The messages as a player reads them on a phone (issue 17, part 7): a card is one unbroken
label with the rank in words; choices fit the few rows a phone shows (three buttons side by
side); a Servant is chosen with ordinary buttons; cards to bury are shown once."""

from __future__ import annotations

import re
from typing import Any

from bot_fixtures import find_deal, first_legal, masters_hand
from fake_discord import UPDATE_MESSAGE, Harness, Message
from test_cogs import four_players, play_until
from test_games_bot import fris_table, hand_of, sit_with_computers

from bot.courier import Signal
from bot.texts import SUIT_EMOJI, speaking, t
from engine.cards import card, code

#: A card's label: a suit sign, a no-break space, the rank (a trump marked with a star).
CARD = re.compile(r"^(★ )?(" + "|".join(map(re.escape, SUIT_EMOJI)) + r")\u00a0(\S+)$")


def rows(msg: Message) -> list[list[dict[str, Any]]]:
    return [row["components"] for row in msg.payload()["components"]]


def card_buttons(msg: Message) -> list[dict[str, Any]]:
    return [b for b in msg.buttons if b["custom_id"].split(":")[1] == "card"]


async def test_a_card_label_is_one_word_of_rank_that_cannot_read_as_zero(h: Harness) -> None:
    session, users = await four_players(h)
    ana = users[0]
    view = h.hand_view(ana)
    ranks = set()
    for b in card_buttons(view):
        m = CARD.match(b["label"])
        assert m is not None, b["label"]  # never an ordinary space: it stays on one line
        ranks.add(m[3])
    assert not ranks & {"O", "U"}
    held = {code(c)[1:] for c in hand_of(session).hands[0]}
    if "O" in held:
        assert "Ober" in ranks
    if "U" in held:
        assert "Unter" in ranks
    # The words of every English Over and Under in the hand view (trump marked or not).
    with speaking("en"):
        assert t("rank.O") == "Ober" and t("rank.U") == "Unter"
    # The table message writes the cards of the trick the same way.
    await play_until(h, session, users, first_legal, stop=lambda hand: len(hand.trick) == 2)
    await h.settle()
    hand = hand_of(session)
    [trick] = [f["value"] for f in h.table_message().embeds[0]["fields"]
               if f["name"] == t("table.trick_of", trick=len(hand.tricks) + 1, tricks=8)]
    played = [p.rsplit(" ", 1)[0] for p in trick.split(" · ")]
    assert len(played) == 2 and all(CARD.match(p) for p in played), trick


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
