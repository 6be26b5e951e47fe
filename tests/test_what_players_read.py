"""What players read at a table and after it (issue 31, "What players stumble on"): the goal of
the game in view, sides named by their role wherever a side forms in the deal (the declarer
and the defenders, the Old Man's side, the Rich and the Poor), points that say why they do
not add up, scores in words, hints from one side's view with honest odds and their button
under the cards, reviews that show hands as the hand view does and say how much better in
the hand's own terms, and the 20-card game's fris window as it is.

The tables are played through the in-process Discord fake, by clicks, as a person would.
"""

from __future__ import annotations

import random
from typing import Any

from bot_fixtures import FixedDeal, reseed, rig
from fake_discord import Harness, Message, User
from test_cogs import four_players, hand_of, one_human, play_until
from test_games_bot import fris_pack

from bot import render
from bot.render import TRUMP_MARK
from bot.session import TableSession
from bot.texts import card_label, points_text, speaking, t
from engine import GAMES, Action, Hand, Match, make_rules, public_view, seat_view
from engine.ai import make_player
from engine.ai.analysis import Chance, Decision, Outcome, hint, review, review_to_json
from engine.cards import code

# -- helpers ------------------------------------------------------------------------------------


async def sit_alone(h: Harness, game: str, *, level: str = "easy",
                    seed: int = 1) -> tuple[TableSession, User]:
    """Ana takes the first seat of a ``game`` table, computers the others; started."""
    ana = h.user("ana")
    await h.command(ana, "table new", game=game, rated=False)
    await h.press(ana, t("btn.join_a") if GAMES[game].fixed_teams else t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, level)
    await reseed(session, seed)
    await h.press(ana, t("btn.start"))
    await h.press(ana, t("btn.my_hand"))
    return session, ana


async def play_out(h: Harness, session: TableSession, ana: User, rng: random.Random, *,
                   choose: Any = None) -> Hand:
    """Ana plays by clicks until the hand is over: ``choose(view)`` may pick her move (a
    custom_id, or None for a random one); cards chosen together are the menu's first, and
    so is a choice offered in a menu only."""
    for _ in range(100):
        hand = hand_of(session)
        if hand.finished:
            return hand
        await h.settle()
        view = h.hand_view(ana)
        together = view.select("together")
        if together is not None:
            size = together["min_values"]
            await h.choose(ana, together["custom_id"],
                           [o["value"] for o in together["options"][:size]], message=view)
            continue
        moves = sorted(view.moves())
        menu = view.select("act")
        if not moves and menu is not None:
            # A choice made in a menu (the Old Man names trump): its first option.
            await h.choose(ana, menu["custom_id"], [menu["options"][0]["value"]], message=view)
            continue
        if not moves:
            continue
        picked = choose(view) if choose is not None else None
        await h.click(ana, picked or rng.choice(moves), message=view)
    raise AssertionError("the hand did not end")


def lines_of(message: Message) -> list[str]:
    return message.text.splitlines()


# -- the goal ---------------------------------------------------------------------------------


async def test_the_lobby_says_the_goal_of_its_game(h: Harness) -> None:
    """A newcomer sees what the hand is for before it starts: the game's goal, in the
    server's words, in the lobby (and ``/help``); the table message keeps its room for the
    trick (issue 44)."""
    session, _ = await one_human(h)
    with speaking("en"):
        assert t("goal.filicau") == GAMES["filicau"].goal
    assert t("goal.filicau") not in h.table_message().text
    assert t("goal.filicau") in (render.lobby_embed(session).description or "")


def test_every_game_has_its_goal_in_every_language() -> None:
    for lang in ("en", "ro", "hu", "de"):
        with speaking(lang):
            for game in GAMES:
                goal = t(f"goal.{game}")
                assert goal and goal != f"goal.{game}"
                if lang != "en":
                    assert goal != GAMES[game].goal, (lang, game)


# -- sides by their role ------------------------------------------------------------------------


def test_each_game_declares_its_sides_roles_as_the_table_knows_them() -> None:
    """The engine names the sides (the bot words them): the declarer and the defenders once
    the widow is taken, the Old Man's side, the Rich and the Poor, a Lust Solo's soloist;
    a quiet solo looks like any hand of the Old Ones until play is over."""
    seen: dict[str, set[tuple[str, ...]]] = {}
    for game in GAMES:
        for seed in range(6):
            hand = Match(make_rules(game), seed=seed).deal()
            rng = random.Random(seed)
            while not hand.finished:
                seen.setdefault(game, set()).add(public_view(hand).sides)
                seat = hand.actors()[0]
                hand.apply(seat, rng.choice(hand.legal_actions(seat)))
            assert hand.result is not None
            assert hand.result.teams == tuple(hand.team)
            assert hand.result.sides == public_view(hand).sides
    for game in ("filicau", "filko", "filko6", "filko_hats", "filcau20", "officers"):
        assert seen[game] == {()}, game
    assert seen["filko5"] == seen["kelebia"] == {("old_man", "others")}
    assert seen["rich_poor"] == {("rich", "poor")}
    assert ("declarer", "defenders") in seen["schafkopf3"]
    assert ("soloist", "defenders") in seen["dreiwendsch"]
    assert {("old_ones", "others"), ("soloist", "defenders")} & seen["wendish"]


def test_a_quiet_solo_is_named_only_once_play_is_over() -> None:
    """A quiet solo's sides read as the Old Ones and the others while it is played (the
    table must not learn that one player holds both), and as a soloist once it is over."""
    for seed in range(400):
        hand = Match(make_rules("wendish"), seed=seed).deal()
        rng = random.Random(seed)
        while not hand.finished and hand.phase == "declare":
            seat = hand.actors()[0]
            hand.apply(seat, Action("pass", True))
        if hand.pending.get("contract") != "quiet_solo":
            continue
        while not hand.play_over:
            assert public_view(hand).sides == ("old_ones", "others")
            seat = hand.actors()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        assert public_view(hand).sides == ("soloist", "defenders")
        return
    raise AssertionError("no quiet solo dealt in 400 seeds")


async def test_a_schafkopf_result_names_the_declarer_and_the_defenders(h: Harness) -> None:
    """Ana takes the widow: the result says who declared and who defended, the points of
    each side by that name (not "A 41 · B 62" beside "A: Ana · B: … · C: …"), the buried
    cards' share, why the points do not reach 120 when the hand stopped early, and who
    scored what in words (no "+0 · +0")."""
    session, ana = await sit_alone(h, "schafkopf3", seed=11)
    hand = hand_of(session)
    assert hand.to_move == 0 and hand.phase == "widow"
    await h.press(ana, t("act.take.True"), message=h.hand_view(ana))
    table = h.table_message()
    await play_out(h, session, ana, random.Random(3))
    await h.settle()
    hand = hand_of(session)
    result = hand.result
    assert result is not None and result.sides == ("declarer", "defenders")
    post = h.result_post()
    text = post.embeds[0]["description"]
    others = " ".join(render.seat_mention(session, s) for s in (1, 2))
    assert t("result.teams", teams=f"{t('side.declarer')}: {ana.mention} · "
             f"{t('side.defenders')}: {others}") in text
    d, o = result.points
    assert points_text("result.points_line", session.rules.points,
                       points=f"{t('side.declarer')} {d} · {t('side.defenders')} {o}") in text
    buried = sum(hand.rules.points[c] for c in hand.pending["buried"])
    assert t("result.buried_counted", side=t("side.declarer"), count=buried) in text
    if d + o < 120:
        assert result.early
        assert t("result.left_in_hands", count=120 - d - o) in text
    assert "+0" not in text
    [change] = [v for v in result.extra["scores"] if v]
    assert t("result.scores_line", scores=f"{ana.mention} {change:+d}") in text
    assert t("result.scores_nothing", users=", ".join(
        render.seat_mention(session, s) for s in (1, 2))) in text
    # The table names the sides too, on each seat.
    seats = h.table_message().embeds[0]["fields"]
    seat_lines = next(f["value"] for f in seats if f["name"] == t("table.seats"))
    mine = next(line for line in seat_lines.splitlines() if ana.mention in line)
    assert f"({t('role.declarer')}" in mine
    assert seat_lines.count(t("role.defenders")) == 2
    assert table.id == h.table_message().id


async def test_everybody_alone_has_no_team_letters(h: Harness) -> None:
    """When all pass, each plays for himself: no "Teams: A: Ana · B: … · C: …", the points
    name each player."""
    session, ana = await sit_alone(h, "schafkopf3", seed=11)
    await h.press(ana, t("act.pass.True"), message=h.hand_view(ana))
    await h.settle()
    hand = hand_of(session)
    assert hand.pending["mode"] == "alone"  # the computers passed too
    await play_out(h, session, ana, random.Random(5))
    await h.settle()
    text = h.result_post().embeds[0]["description"]
    assert t("result.teams", teams="") not in text
    result = hand_of(session).result
    assert result is not None and len(result.points) == 3
    assert points_text("result.points_line", session.rules.points, points=" · ".join(
        f"{render.seat_mention(session, s)} {p}" for s, p in enumerate(result.points))) in text
    assert "[A]" not in h.table_message().text


async def test_an_old_man_result_names_the_teams_of_that_deal(h: Harness) -> None:
    """In 5-player Filkó the teams form in each deal: the result lists the Old Man's side and
    the others as they were dealt, not seats 1, 3, 5 against 2, 4."""
    for seed in range(1, 12):
        session, ana = await sit_alone(h, "filko5", seed=seed)
        hand = hand_of(session)
        if hand.team[:] != [0, 1, 0, 1, 0]:
            break
        await h.command(h.user("mia", manager=True), "admin end")
    await play_out(h, session, ana, random.Random(seed))
    await h.settle()
    hand = hand_of(session)
    text = h.result_post().embeds[0]["description"]
    sides = []
    for team, role in enumerate(("old_man", "others")):
        members = " ".join(render.seat_mention(session, s) for s in range(5)
                           if hand.team[s] == team)
        sides.append(f"{t(f'side.{role}')}: {members}")
    assert t("result.teams", teams=" · ".join(sides)) in text


# -- hints ----------------------------------------------------------------------------------------


def position_with_equal_chances() -> tuple[Hand, int]:
    """A Filicău position (seed 0, Easy players, the third trick) where two of the cards
    Ana may play end the same ways equally often in Normal's 24 guesses."""
    hand = Match(make_rules("filicau"), seed=0).deal()
    players = [make_player("easy", seed=s) for s in range(4)]
    while True:
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        if seat == 0 and len(view.legal) > 1 and len(hand.tricks) == 2:
            return hand, seat
        hand.apply(seat, players[seat].choose(view))


async def test_a_hint_never_prints_the_same_chances_twice(h: Harness) -> None:
    """Cards whose chances read the same share one line, and the hint says why the computer
    still prefers one: the guesses at the hidden cards are the same for every card and the
    endings few, so two cards often end the same ways as often; what sets them apart is the
    points they take."""
    session, _ = await four_players(h, rated=False)
    hand, seat = position_with_equal_chances()
    view = seat_view(hand, seat)
    advice = hint(view, seed=seat)
    text = render.hint_text(session, view, advice)
    lines = [line for line in text.splitlines() if line.startswith("• ")]
    chances = [line.split(": ", 1)[1] for line in lines]
    assert len(chances) == len(set(chances)), text
    shared = [line for line in lines if f" {t('hint.or')} " in line]
    assert shared, text
    assert t("hint.same_chances") in text
    # Every legal card is on a line, the recommended one on the first.
    assert sum(line.count(card_label(a.value)) for line in lines
               for a in view.legal) == len(view.legal)
    assert card_label(advice.recommended.value) in lines[0]


async def test_a_hint_speaks_from_the_askers_side_only(h: Harness) -> None:
    """"we: masters · they: masters" makes the reader turn sides mid-line: every ending is
    said of the asker's side ("you become masters", "you become slaves")."""
    session, _ = await four_players(h, rated=False)
    hand, seat = position_with_equal_chances()
    view = seat_view(hand, seat)
    text = render.hint_text(session, view, hint(view, seed=seat))
    for key in ("hint.us", "hint.them"):
        assert t(key, what="\0").split("\0")[0] not in text
    ours = {t(f"fate.{e}.us", slaves=t("lobby.word_slaves"))
            for e in ("masters", "stay_masters", "ran_away", "liberated")}
    theirs = {t(f"fate.{e}.them", slaves=t("lobby.word_slaves"))
              for e in ("masters", "stay_masters", "ran_away", "liberated")}
    said = {part.rsplit(" ", 1)[0] for line in text.splitlines() if line.startswith("• ")
            for part in line.split(": ", 1)[1].split(" · ")}
    assert said <= ours | theirs | {t("fate.no_change")}, said
    assert said & theirs  # the other side's endings, said of the asker's


async def test_the_hint_button_has_the_last_row_to_itself(h: Harness) -> None:
    """💡 sat between two rows of cards: it is on a row of its own, under everything."""
    _, users = await four_players(h, rated=False)
    mover = next(u for u in users if h.hand_view(u).moves())
    rows = h.hand_view(mover).payload()["components"]
    last = rows[-1]["components"]
    assert [c["label"] for c in last] == [t("btn.hint")]
    assert all(c["custom_id"].startswith("fc:card:") for row in rows[:-1]
               for c in row["components"])


# -- reviews ----------------------------------------------------------------------------------


async def test_a_review_shows_hands_as_the_hand_view_does_and_its_summary_once(
        h: Harness) -> None:
    session, users = await four_players(h)
    await play_until(h, session, users, random.Random(8))
    ana = users[0]
    store = h.bot.store  # type: ignore[union-attr]
    [row] = await store.hands(session.id)
    decisions = review(row.record(), 0, samples=3)
    await store.put_review(row.id, 0, review_to_json(decisions))
    result = h.result_post()
    r = await h.click(ana, result.button_by_label(t("btn.review"))["custom_id"],
                      message=result)
    page = r.message
    hand = hand_of(session)
    final = public_view(hand)
    for seat, user in enumerate(users):
        cards = sorted(hand.dealt[seat], key=final.order.sort_key)  # type: ignore[union-attr]
        shown = " · ".join(render.card_button_label(final, c) for c in cards)
        assert f"{seat + 1}. {user.mention}: {shown}" in page.content
    assert TRUMP_MARK in page.content
    mistakes = sorted({d.trick + 1 for d in decisions if d.mistake})
    summary = (t("review.summary", tricks=", ".join(map(str, mistakes))) if mistakes
               else t("review.no_mistake"))
    assert summary in page.content
    [_, forward] = page.buttons
    r = await h.click(ana, forward["custom_id"], message=page)
    assert t("review.trick", trick=2, tricks=len(hand.tricks)) in page.content
    assert summary not in page.content


async def test_a_better_card_is_said_in_the_chances_of_the_hands_outcome(h: Harness) -> None:
    """"🔔 8 was better by 0.21" had no unit: a better choice says how much more often the
    hand ends a way that matters, in the share of the computer's guesses; a choice better
    only for the points it takes says so."""
    session, _ = await four_players(h)
    view = public_view(hand_of(session))
    # Two of Ana's cards that are no trump (a trump is named with its mark).
    order = view.order
    plain = [c for c in hand_of(session).hands[0] if order is None or not order.is_trump(c)]
    played, best = (Action("card", c) for c in plain[:2])
    masters, nothing = Outcome("masters", True), Outcome("no_change", None)
    d = Decision(5, 2, played, best, 0.1, 0.4, 0.3, False, True,
                 (Chance(masters, 0.4), Chance(nothing, 0.6)),
                 (Chance(masters, 0.7), Chance(nothing, 0.3)), 200)
    text = render.decision_text(session, view, d)
    assert text == t("review.better_chance", action=card_label(played.value),
                     best=card_label(best.value), outcome=t("fate.masters.us"),
                     best_chance=70, chance=40) + " " + t("review.mistake")
    assert "0.3" not in text
    same = Decision(5, 2, played, best, 0.4, 0.41, 0.01, False, False,
                    (Chance(masters, 0.7), Chance(nothing, 0.3)),
                    (Chance(masters, 0.7), Chance(nothing, 0.3)), 200)
    assert render.decision_text(session, view, same) == t(
        "review.better_points", action=card_label(played.value), best=card_label(best.value))


# -- the fris window ------------------------------------------------------------------------


async def test_the_fris_window_as_it_is(h: Harness) -> None:
    """Ana cuts, then may make fris with her one Ober: every fris choice names its
    trump (the first one too, whose trump is the Ober's own suit), the window's line says
    nothing of binding, and looking at her last two cards, which closes fris for everybody,
    is no primary button and says what it does."""
    users = [h.user(n) for n in ("ana", "bob", "cid", "dan")]
    ana = users[0]
    await h.command(ana, "table new", game="filcau20")
    for i, user in enumerate(users):
        await h.press(user, t("btn.join_a") if i % 2 == 0 else t("btn.join_b"))
    session = h.session()
    # A laid pack (not a seed): the deal must not hang on how many ids the run made.
    rig(session, FixedDeal(fris_pack(), 1))
    await h.press(ana, t("btn.start"))
    await h.press(ana, t("btn.my_hand"))
    hand = hand_of(session)
    assert hand.dealer == 1 and hand.to_move == 0
    await h.press(ana, t("act.deal.cut"), message=h.hand_view(ana))
    await h.settle()
    view = h.hand_view(ana)
    menu = view.select("act")
    assert menu is not None
    fris = [o["label"] for o in menu["options"]]
    assert len(fris) == 4 and all(" → " in label for label in fris), fris
    [over] = [c for c in hand.hands[0] if code(c).endswith("O")]
    assert t("act.fris", value=t("actvalue.fris", over=card_label(over),
                                 trump=render.facts.word(code(over)[0]))) in fris
    look = view.button_by_label(t("act.look.True"))
    assert look is not None and look["style"] == 2  # secondary, not the blurple primary
    assert t("note.look") in view.content
    assert "legare" not in h.table_message().text


def code_card(x: str) -> int:
    from engine.cards import card

    return card(x)


def test_no_fris_label_lacks_its_trump() -> None:
    rules = make_rules("filcau20")
    from engine.rules.filcau20 import Fris

    for over in ("EO", "GO", "HO", "SO"):
        for suit in range(4):
            parts = rules.action_parts(Action("fris", Fris(code_card(over), suit)))
            assert parts == {"over": over, "trump": "EGHS"[suit]}
    assert code(code_card("EO")) == "EO"
