"""What a Bavarian Schafkopf player reads at the table and after it (issue 44): the goal said
once, the parties' points, the trumps in full, the game's value while it is played, the
tariff's sum in the result, the clarification's words, the claim button."""

from __future__ import annotations

from bot_fixtures import FixedDeal, rig
from deal import pack_for
from fake_discord import Harness, Message, User
from test_games_bot import hand_of
from test_schafkopf_bot import BASE, labels, seated

from bot import names, render
from bot.options import encode
from bot.session import TableSession
from bot.texts import speaking, t
from bot.voice import words
from bot.voice.markdown import label
from bot.voice.table import Table
from engine import Action, Hand, make_rules, seat_view
from engine.cards import card


async def play_out(h: Harness, ana: User, session: TableSession, game: str | None = None,
                   *, stoss: bool = False) -> Message:
    """Ana says I dad and names ``game`` (else Weiter), then plays her first legal card
    (Kontra when offered and ``stoss``) to the end; the result post."""
    await h.press(ana, t("btn.my_hand"))
    view = h.hand_view(ana)
    if game is None:
        await h.press(ana, t("act.weiter.True"), message=view)
    else:
        await h.press(ana, t("act.dad.True"), message=view)
        await h.until(lambda: hand_of(session).phase == "game")
        view = h.hand_view(ana)
        [menu] = view.selects
        value = next(o["value"] for o in menu["options"] if o["label"] == t(f"word.{game}"))
        await h.choose(ana, menu["custom_id"], [value], message=view)
    for _ in range(80):
        await h.until(lambda: hand_of(session).finished or bool(session.waiting_for_human()))
        if hand_of(session).finished:
            break
        view = h.hand_view(ana)
        moves = sorted(view.moves())
        if stoss:
            moves = sorted(moves, key=lambda m: ":stoss:" not in m)
        await h.click(ana, moves[0], message=view)
    await h.until(lambda: any(m.embeds and m.embeds[0].get("title", "").startswith("Hand 1")
                              for m in h.public()))
    return next(m for m in h.public() if m.embeds and m.embeds[0].get("title", "")
                .startswith("Hand 1"))


# -- the goal, once ----------------------------------------------------------------------------


async def test_the_goal_is_said_in_the_lobby_and_help_not_on_every_table_message(
        h: Harness) -> None:
    ana = h.user("ana")
    await h.command(ana, "table new", game="schafkopf")
    assert t("goal.schafkopf") in h.table_message().text
    session = await seated_again(h, ana)
    assert t("goal.schafkopf") not in h.table_message().text
    r = await h.command(ana, "help", game="schafkopf")
    assert t("goal.schafkopf") in r.message.embeds[0]["description"]
    assert session.hand_number == 1


async def seated_again(h: Harness, ana: User) -> TableSession:
    """The table opened already: Ana sits, computers fill it, the fixed deal starts."""
    await h.press(ana, t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    rig(session, FixedDeal([card(c) for c in pack_for("schafkopf", BASE, 3)], 3))
    await h.press(ana, t("btn.start"))
    return session


async def seated_with(h: Harness, ana: User, hands: list[str], dealer: int = 3,
                      level: str = "easy", **options: str) -> TableSession:
    """Ana (seat 0) and three Easy computers; the lobby's ``options``; ``dealer``, ``hands``."""
    await h.command(ana, "table new", game="schafkopf")
    await h.press(ana, t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, level)
    for name, value in options.items():
        menu = next(m for m in h.table_message().selects
                    if any(o["value"] == encode(name, value) for o in m["options"]))
        await h.choose(ana, menu["custom_id"], [encode(name, value)])
    rig(session, FixedDeal([card(c) for c in pack_for("schafkopf", hands, 3)], 3))
    await h.press(ana, t("btn.start"))
    return session


async def pick(h: Harness, ana: User, view: Message, label: str) -> None:
    """Ana picks the choice ``label``: its button, or its entry in a menu."""
    for menu in view.selects:
        for o in menu["options"]:
            if o["label"] == label:
                await h.choose(ana, menu["custom_id"], [o["value"]], message=view)
                return
    await h.press(ana, label, message=view)


def field(message: Message, name: str) -> str:
    [embed] = message.embeds
    return next(f["value"] for f in embed.get("fields", []) if f["name"] == name)


# -- the table in play -------------------------------------------------------------------------


async def test_the_trumps_are_all_obers_and_unters_then_hearts(h: Harness) -> None:
    ana = h.user("ana")
    session = await seated(h, ana)
    await h.press(ana, t("btn.my_hand"))
    await h.press(ana, t("act.dad.True"), message=h.hand_view(ana))
    await h.until(lambda: hand_of(session).phase == "game")
    view = h.hand_view(ana)
    [menu] = view.selects
    value = next(o["value"] for o in menu["options"] if o["label"] == t("word.sauspiel_G"))
    await h.choose(ana, menu["custom_id"], [value], message=view)
    await h.until(lambda: hand_of(session).phase == "play")
    assert field(h.table_message(), t("table.trump")) == "all Obers and Unters, then ❤️ hearts"
    with speaking("de"):
        assert render.words.trumps(hand_of(session).order).plain == (
            "alle Ober und Unter, dann ❤️ Herz")


#: Seat 1 (Easy) says I dad with the four Obers and calls Gras, held by seat 2; Ana (seat 0)
#: is an opponent and may say Kontra.
OPPONENT = ["EU GU HK H7 S10 SK S9 S8", "EO GO HO SO H9 EA E7 G7",
            "GA G10 G9 GK E10 H8 S7 E8", "G8 HU SU HA H10 EK E9 SA"]


async def test_the_game_value_shows_while_it_is_played_and_doubles_with_kontra(
        h: Harness) -> None:
    """The table says what the game is worth so far: the Sauspiel's base, × 2 once Ana says
    Kontra; the Laufende wait for the end (they are a fact of the declarers' hands)."""
    ana = h.user("ana")
    session = await seated_with(h, ana, OPPONENT)
    await h.press(ana, t("btn.my_hand"))
    await h.press(ana, t("act.weiter.True"), message=h.hand_view(ana))
    await h.until(lambda: hand_of(session).phase == "kontra" and bool(
        session.waiting_for_human()))
    assert hand_of(session).pending["contract"].called == card("GA")
    table = h.table_message()
    facts_now = field(table, t("table.game_facts"))
    assert t("info.stake", value="10") in facts_now
    await h.press(ana, t("act.stoss.1"), message=h.hand_view(ana))
    await h.until(lambda: hand_of(session).phase == "play")
    facts_now = field(h.table_message(), t("table.game_facts"))
    # Kontra, and Re if the declarer answered it: each × 2.
    said = len(hand_of(session).pending["stoss"])
    worth = "10" + "".join(f", {t('counted.times_two', why=t(f'word.{w}'), value=10 * 2 ** n)}"
                           for n, w in enumerate(("kontra", "re")[:said], 1))
    assert said and t("info.stake", value=worth) in facts_now, facts_now
    # The parties are not known yet (the partner is hidden): the seats count their own,
    # and the points' field says why.
    assert field(h.table_message(), render.points_name(session)) == t("table.points_hidden")


# -- the result --------------------------------------------------------------------------------


async def test_the_result_adds_up_the_tariff_and_says_who_pays_whom(h: Harness) -> None:
    ana = h.user("ana")
    session = await seated(h, ana)
    post = await play_out(h, ana, session, "sauspiel_G")
    result = hand_of(session).result
    assert result is not None
    text = post.embeds[0]["description"]
    extra = result.extra
    items = {i["key"]: i for i in extra["counted"]}
    # The base first, each added item, the sum, then each doubling: the value.
    summed = f"{t('word.sauspiel_G')} {items['game']['value']}"
    assert summed in text
    assert f"= {extra['value']}" in text or len(items) == 2  # a bare base is its own value
    # Who pays whom, by name, instead of a row of signed scores.
    winners = [s for s in range(4) if extra["scores"][s] > 0]
    losers = [s for s in range(4) if extra["scores"][s] < 0]
    assert len(winners) == len(losers) == 2
    assert t("result.pays_many", payers=t("result.and", rest=names.seat_mention(
        session, losers[0]), last=names.seat_mention(session, losers[1])), payee=t(
        "result.and", rest=names.seat_mention(session, winners[0]),
        last=names.seat_mention(session, winners[1])), value=extra["value"]) in text
    assert not any(line.startswith(t("result.scores_line", scores="")[:6])
                   for line in text.splitlines())
    # And the table after it counts the parties' points, not each seat's.
    points = field(h.table_message(), render.points_name(session))
    assert points == (f"{t('side.declarer')} {result.points[0]} · "
                      f"{t('side.defenders')} {result.points[1]}")


async def test_a_ramsch_result_says_who_lost(h: Harness) -> None:
    ana = h.user("ana")
    session = await seated_with(h, ana, BASE, all_pass="ramsch")
    post = await play_out(h, ana, session)
    result = hand_of(session).result
    assert result is not None and result.event == "ramsch"
    lost = [s for s in range(4) if result.extra["scores"][s] < 0]
    assert len(lost) == 1
    text = post.embeds[0]["description"]
    assert t("event.ramsch", losers=names.seat_mention(session, lost[0])) in text


async def test_no_review_of_a_deal_nobody_played_a_card_of(h: Harness) -> None:
    ana = h.user("ana")
    session = await seated(h, ana)
    post = await play_out(h, ana, session)
    assert hand_of(session).result is not None and not hand_of(session).tricks
    assert t("btn.review") not in [b.get("label") for b in post.buttons]
    assert t("btn.next_hand") in [b.get("label") for b in post.buttons]


# -- the clarification -------------------------------------------------------------------------


async def test_the_clarification_tells_each_what_to_beat_and_who_has_spoken(
        h: Harness) -> None:
    """Ana (forehand) and seat 1 both say I dad: Ana speaks first, with nothing to be higher
    than; her hand view says who said I dad, from which position; the menu has no Hochzeit
    at a table without it."""
    ana = h.user("ana")
    session = await seated_with(h, ana, OPPONENT)
    await h.press(ana, t("btn.my_hand"))
    view = h.hand_view(ana)
    assert t("table.trick_empty") not in view.content
    await h.press(ana, t("act.dad.True"), message=view)
    await h.until(lambda: hand_of(session).phase == "clarify" and bool(
        session.waiting_for_human()))
    view = h.hand_view(ana)
    assert t("prompt.clarify.first") in view.content, view.content
    with speaking("en"):
        assert "higher" not in t("prompt.clarify.first")
    said = t("info.dad", users=", ".join(
        t("info.at_position", user=who, position=t(f"position.{n}"))
        for who, n in ((ana.mention, 1), (names.seat_mention(session, 1), 2))))
    assert said in view.content, view.content
    offered = [o["label"] for m in view.selects for o in m["options"]] + labels(view)
    assert any(x.startswith(t("word.rufspiel")) for x in offered) or t("word.wenz") in offered
    assert t("word.rufspiel.hochzeit") not in " ".join(offered)


def test_a_later_seat_is_told_who_holds_with_what() -> None:
    """Forehand and the next seat say I dad; forehand holds with a Sauspiel: the next seat
    is told who holds with what before naming a higher game, and forehand, challenged, to
    keep the seat with one at least as high."""
    rules = make_rules("schafkopf")
    hand = Hand(rules, 3, [card(c) for c in pack_for("schafkopf", BASE, 3)])
    table = Table("schafkopf", rules, 1, ("1", "2", "3", "4"), names={"1": "Ana", "2": "Bo"})
    hand.apply(0, Action("dad", True))
    hand.apply(1, Action("dad", True))
    hand.apply(2, Action("weiter", True))
    hand.apply(3, Action("weiter", True))
    assert hand.phase == "clarify" and hand.to_move == 0
    with speaking("en"):
        first = words.prompt(table, seat_view(hand, 0)).plain
        assert first == t("prompt.clarify.first") and "higher" not in first
        hand.apply(0, Action("class", "rufspiel"))
        assert hand.to_move == 1
        assert words.prompt(table, seat_view(hand, 1)).plain == t(
            "prompt.clarify", user="Ana", value=t("word.rufspiel"))
        higher = next(a for a in hand.legal_actions(1) if a.kind == "class")
        hand.apply(1, higher)
        assert hand.to_move == 0
        assert words.prompt(table, seat_view(hand, 0)).plain == t("prompt.clarify.holding")


def test_the_sauspiel_class_says_hochzeit_only_where_one_may_be_played() -> None:
    plain, wedding = make_rules("schafkopf"), make_rules("schafkopf", {"hochzeit": True})
    seats = ("1", "2", "3", "4")
    with speaking("en"):
        assert words.choice(Table("schafkopf", plain, 1, seats),
                            Action("class", "rufspiel")).plain == "Sauspiel"
        assert words.choice(Table("schafkopf", wedding, 1, seats),
                            Action("class", "rufspiel")).plain == "Sauspiel (or Hochzeit)"


# -- laying down -------------------------------------------------------------------------------


async def test_lay_down_is_a_secondary_button_offered_only_when_a_claim_could_hold(
        h: Harness) -> None:
    """Ana plays a Sauspiel with a middling hand: on lead at a trick's start the engine
    would take a claim, but with cards the others may beat she is not offered it; where it
    is offered, it is a grey button, not the cards' blue."""
    ana = h.user("ana")
    session = await seated(h, ana)
    await h.press(ana, t("btn.my_hand"))
    await h.press(ana, t("act.dad.True"), message=h.hand_view(ana))
    await h.until(lambda: hand_of(session).phase == "game")
    view = h.hand_view(ana)
    await pick(h, ana, view, t("word.sauspiel_G"))
    claim = Action("claim", True)
    withheld = 0
    for _ in range(60):
        await h.until(lambda: hand_of(session).finished or bool(session.waiting_for_human()))
        hand = hand_of(session)
        if hand.finished:
            break
        view = h.hand_view(ana)
        sv = seat_view(hand, 0)
        buttons = [b for b in view.buttons if b.get("label") == t("act.claim.True")]
        if claim in sv.free:
            could = session.rules.worth_offering(sv, claim)
            assert bool(buttons) == could
            withheld += not could
        for b in buttons:
            assert b["style"] == 2  # secondary
        await h.click(ana, sorted(m for m in view.moves() if ":claim:" not in m)[0],
                      message=view)
    assert withheld, "Ana was never on lead with a claim the engine would take"


# -- names -------------------------------------------------------------------------------------


def test_a_name_drawn_as_text_is_capped_and_cannot_turn_the_words_around() -> None:
    """Issue 44: a right-to-left override in a display name reversed "Mallory: 🔔 Unter" and
    the next name; a 200-character name widened what it was drawn in. Where Discord shows
    a name as text (a button, a menu, a list), it is capped and isolated (FSI…PDI)."""
    evil = "\u202eMallory" + "y" * 200
    rules = make_rules("filicau")
    table = Table("filicau", rules, 1, ("42", "7", None, None), names={"42": evil, "7": "Bo"})
    shown = label(words.choice(table, Action("servant", 0)))
    name = shown[shown.index("\u2068"):shown.index("\u2069") + 1]
    assert name.startswith("\u2068\u202eMallory") and len(name) == 2 + 32
    assert name[-2] == "…"
    assert label(words.choice(table, Action("servant", 1))).count("\u2068") == 0  # Bo
