"""Bavarian Schafkopf through the bot (the in-process Discord fake): what a player sees of the
announcement, the game menu, the doubling window and the result (issue 34)."""

from __future__ import annotations

from bot_fixtures import FixedDeal
from deal import pack_for
from fake_discord import Harness, Message, User
from test_games_bot import hand_of

from bot import facts
from bot.session import TableSession
from bot.texts import speaking, t
from engine.cards import card

#: Dealer 3: Ana (seat 0) is forehand, holds EA and the Gras Seven: she may call Gras or
#: Schellen. Seat 1 holds GA; the Easy computers all say Weiter with these cards.
BASE = ["EO GO HU H9 EA E7 G7 S7", "HO SO GA G10 G9 GK E10 H8",
        "EU GU HK H7 S10 SK S9 S8", "SU HA H10 EK E9 SA G8 E8"]


async def seated(h: Harness, ana: User) -> TableSession:
    await h.command(ana, "table new", game="schafkopf")
    await h.press(ana, t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    session.rng = FixedDeal([card(c) for c in pack_for("schafkopf", BASE, 3)], 3)  # type: ignore[assignment]
    await h.press(ana, t("btn.start"))
    assert session.seat_of(ana.id) == 0 and hand_of(session).dealer == 3
    return session


def labels(view: Message) -> list[str]:
    return [b["label"] for b in view.buttons if b["custom_id"].split(":")[1] != "card"]


async def test_announcement_game_menu_and_result(h: Harness) -> None:
    ana = h.user("ana")
    session = await seated(h, ana)
    await h.press(ana, t("btn.my_hand"))
    view = h.hand_view(ana)
    # B4.1: two buttons beside the cards, on one phone row; the cards may not be played yet.
    assert labels(view)[:2] == [t("act.weiter.True"), t("act.dad.True")]
    assert not view.selects
    assert t("prompt.announce") in view.content
    await h.press(ana, t("act.dad.True"), message=view)
    await h.until(lambda: hand_of(session).phase == "game")
    view = h.hand_view(ana)
    [menu] = view.selects
    # Only the games she may declare (B4.7, B6.1): Gras or Schellen called, never Eichel.
    offered = [o["label"] for o in menu["options"]]
    assert offered[:2] == [t("word.sauspiel_G"), t("word.sauspiel_S")]
    assert t("word.sauspiel_E") not in offered and len(offered) == 12
    with speaking("de"):
        assert t("word.sauspiel_G") == "Sauspiel mit der Blauen"
    sau = next(o["value"] for o in menu["options"] if o["label"] == t("word.sauspiel_G"))
    await h.choose(ana, menu["custom_id"], [sau], message=view)
    await h.until(lambda: hand_of(session).phase != "game")
    table = h.table_message().text
    assert t("info.called", card=facts.word("GA")) in table
    # Play on: Ana plays her first legal card (or declines a doubling) until the end.
    for _ in range(60):
        await h.until(lambda: hand_of(session).finished or bool(session.waiting_for_human()))
        if hand_of(session).finished:
            break
        view = h.hand_view(ana)
        await h.click(ana, sorted(view.moves())[0], message=view)
    result = hand_of(session).result
    assert result is not None
    await h.until(lambda: any(m.embeds and m.embeds[0].get("title", "").startswith("Hand 1")
                              for m in h.public()))
    post = next(m for m in h.public() if m.embeds and m.embeds[0].get("title", "")
                .startswith("Hand 1"))
    text = post.embeds[0]["description"]
    # What was counted, as the issue words it: the game, its Laufende, Schneider, the value.
    assert facts.counted_line(result.extra["counted"]) in text
    assert text.count(t("word.sauspiel_G")) == 1
    # The balances after the hand, each player's.
    assert sum(result.status.score or ()) == 0


async def test_the_hidden_partner_is_asked_for_kontra_and_may_only_decline(h: Harness) -> None:
    """Ana (seat 0) holds the Gras Ace that seat 1 (a computer) calls: in the doubling window
    she is asked like the opponents, her hand view offers only Weiter, and the table names no
    partner."""
    ana = h.user("ana")
    # Seat 1 (Easy) alone says "I dad" with five trumps and calls Gras; Ana holds GA.
    hands = ["GA G10 G9 GK E10 H8 S7 E8", "EO GO HO SO H9 EA E7 G7",
             "EU GU HK H7 S10 SK S9 S8", "G8 HU SU HA H10 EK E9 SA"]
    await h.command(ana, "table new", game="schafkopf")
    await h.press(ana, t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    session.rng = FixedDeal([card(c) for c in pack_for("schafkopf", hands, 3)], 3)  # type: ignore[assignment]
    await h.press(ana, t("btn.start"))
    await h.press(ana, t("btn.my_hand"))
    hand = hand_of(session)
    await h.press(ana, t("act.weiter.True"), message=h.hand_view(ana))
    await h.until(lambda: hand.phase == "kontra" and session.waiting_for_human() == [0])
    assert hand.pending["contract"].called == card("GA") and hand.pending["partner"] == 0
    view = h.hand_view(ana)
    assert labels(view) == [t("act.weiter.True")]
    assert t("prompt.kontra") in view.content
    table = h.table_message()
    assert t("info.partner", user=ana.mention) not in table.text
    assert ana.mention in table.content  # she is asked, as an opponent would be
