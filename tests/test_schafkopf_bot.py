"""Bavarian Schafkopf through the bot (the in-process Discord fake): what a player sees of the
announcement, the game menu, the doubling window and the result (issue 34)."""

from __future__ import annotations

from bot_fixtures import FixedDeal, rig
from deal import pack_for
from fake_discord import CHANNEL_MESSAGE, Harness, Message, User
from test_games_bot import hand_of
from test_playing_together import pings

from bot import facts, names
from bot.options import encode
from bot.session import TableSession
from bot.texts import option_name, option_text, speaking, t
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
    rig(session, FixedDeal([card(c) for c in pack_for("schafkopf", BASE, 3)], 3))
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
    # The sides by their part in the game, the partner among the declarers, not Team A/B.
    whole = post.text
    partner = next(s for s in range(4) if s != 0 and hand_of(session).team[s] == 0)
    assert f"{t('side.declarer')}: {ana.mention} {names.seat_mention(session, partner)}" \
        in whole, whole
    assert t("side.defenders") in whole and "A: " not in whole
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
    rig(session, FixedDeal([card(c) for c in pack_for("schafkopf", hands, 3)], 3))
    assert h.bot is not None
    h.bot.settings.ping_delay = 0  # the turn's signal comes at once
    await h.press(ana, t("btn.start"))
    await h.press(ana, t("btn.my_hand"))
    hand = hand_of(session)
    await h.press(ana, t("act.weiter.True"), message=h.hand_view(ana))
    await h.until(lambda: hand.phase == "kontra" and session.waiting_for_human() == [0])
    assert hand.pending["contract"].called == card("GA") and hand.pending["partner"] == 0
    view = h.hand_view(ana)
    assert labels(view) == [t("act.weiter.True")]
    assert t("prompt.kontra") in view.content
    # Only she knows she plays with the declarer: her view says so by the side's part.
    assert t("private.team", team=t("side.declarer")) in view.text
    table = h.table_message()
    assert t("info.partner", user=ana.mention) not in table.text
    # She is asked as an opponent would be: marked to act on the table, and pinged by the
    # turn's one live signal (a message of its own, as every turn is signalled; the table
    # message itself mentions nobody).
    assert any(ana.mention in line for line in table.text.splitlines() if line.startswith("▶"))
    h.runner(session).kick()
    await h.until(lambda: bool(pings(h, ana)))
    [ping] = pings(h, ana)
    assert ping.content == t("turn.ping", user=ana.mention)


async def test_every_house_option_is_in_the_lobby_and_no_early_end(h: Harness) -> None:
    """Schafkopf's 27 option choices are more than one Discord menu holds (25): the lobby
    splits them between two menus, so the last (Ramsch with a Jungfrau) can be chosen too;
    the early end, which Schafkopf does not have, is neither stored nor shown, whatever
    ``/table new`` was told."""
    ana = h.user("ana")
    r = await h.command(ana, "table new", game="schafkopf", early_end=False)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert "early_end" not in h.session().row.options
    lobby = h.table_message()
    assert option_name("early_end") not in lobby.text
    menus = [m for m in lobby.selects if m["custom_id"].split(":")[1] == "opt"]
    assert [len(m["options"]) for m in menus] == [25, 2]
    offered = [o["value"] for m in menus for o in m["options"]]
    assert len(offered) == len(set(offered)) == 27
    second = menus[1]
    assert option_name("ramsch_jungfrau") in second["placeholder"]
    await h.choose(ana, second["custom_id"], [encode("ramsch_jungfrau", True)])
    assert h.session().rules.options.model_dump()["ramsch_jungfrau"] is True
    assert option_text("ramsch_jungfrau", True) in h.table_message().text


async def test_a_lost_tout_says_why_the_hand_stopped(h: Harness) -> None:
    """Ana plays a Solo Tout in hearts with a weak hand: the opponents take the first trick,
    the hand stops there, and the result says so (not that no card could change the
    outcome)."""
    ana = h.user("ana")
    session = await seated(h, ana)
    await h.press(ana, t("btn.my_hand"))
    view = h.hand_view(ana)
    await h.press(ana, t("act.dad.True"), message=view)
    await h.until(lambda: hand_of(session).phase == "game")
    view = h.hand_view(ana)
    [menu] = view.selects
    tout = next(o["value"] for o in menu["options"] if o["label"] == t("word.solo_tout_H"))
    await h.choose(ana, menu["custom_id"], [tout], message=view)
    for _ in range(20):
        await h.until(lambda: hand_of(session).finished or bool(session.waiting_for_human()))
        if hand_of(session).finished:
            break
        view = h.hand_view(ana)
        await h.click(ana, sorted(view.moves())[0], message=view)
    result = hand_of(session).result
    assert result is not None and result.early and len(hand_of(session).tricks) < 8
    await h.until(lambda: any(m.embeds and m.embeds[0].get("title", "").startswith("Hand 1")
                              for m in h.public()))
    post = next(m for m in h.public() if m.embeds and m.embeds[0].get("title", "")
                .startswith("Hand 1"))
    text = post.embeds[0]["description"]
    assert t("result.early.tout_lost") in text and t("result.early") not in text


async def test_the_stock_is_paid_shown_and_kept_over_a_restart(h: Harness) -> None:
    """With the Stock option all four pass: each pays the Stock rate (10) into the pot; the
    table shows the pot from the deal on, the result says who paid, the balances and the pot
    add up to zero, and the next hand, dealt by a restarted bot, still has the pot."""
    ana = h.user("ana")
    await h.command(ana, "table new", game="schafkopf")
    await h.press(ana, t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    menu = next(m for m in h.table_message().selects
                if any(o["value"] == encode("all_pass", "stock") for o in m["options"]))
    await h.choose(ana, menu["custom_id"], [encode("all_pass", "stock")])
    rig(session, FixedDeal([card(c) for c in pack_for("schafkopf", BASE, 3)], 3))
    await h.press(ana, t("btn.start"))
    assert t("info.pot", value=0) in h.table_message().text
    await h.press(ana, t("btn.my_hand"))
    await h.press(ana, t("act.weiter.True"), message=h.hand_view(ana))
    await h.until(lambda: hand_of(session).finished)
    result = hand_of(session).result
    assert result is not None and result.event == "stock"
    assert result.status.pot == 40 and result.status.score == (-10, -10, -10, -10)
    await h.until(lambda: any(m.embeds and m.embeds[0].get("title", "").startswith("Hand 1")
                              for m in h.public()))
    post = next(m for m in h.public() if m.embeds and m.embeds[0].get("title", "")
                .startswith("Hand 1"))
    text = post.embeds[0]["description"]
    assert t("event.stock") in text and t("info.pot", value=40) in text
    # Each player's balance, and no card points of a hand in which no card was played.
    balances = " · ".join(f"{m} -10" for m in (ana.mention, *(
        names.seat_mention(session, seat) for seat in (1, 2, 3))))
    assert t("table.balance_line", score=balances) in text
    assert t("table.match_line", score=balances) not in text
    assert not any(line.startswith(("Card points", "120")) for line in text.splitlines())
    await h.restart()
    restored = h.session()
    await h.press(ana, t("btn.next_hand"), message=post)
    await h.until(lambda: restored.hand_number == 2 and restored.hand is not None)
    assert hand_of(restored).status.pot == 40
    table = h.table_message().text
    assert t("info.pot", value=40) in table
    assert f"{t('table.balance')}\n{balances}" in table
