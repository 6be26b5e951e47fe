"""Every game the engine knows, played in Discord through the in-process harness.

One person sits with Easy computers and plays two whole hands by clicking what their hand
view offers (card buttons, choice buttons, select menus), a random one each time. The test
checks what a player would notice: the lobby seats the game's number of players and offers
its options, the table message and results render, the hand view offers exactly the seat's
legal choices, the stored record replays to the hand that was played, the status reaches
the next hand and is stored for the group, and no message names a hidden card (the harness
checks every message).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from bot_fixtures import FixedDeal, reseed, rig
from fake_discord import CHANNEL_MESSAGE, GUILD_ID, UPDATE_MESSAGE, Harness, Message, User

from bot.session import TableSession
from bot.texts import t
from engine import Action, Hand, action_to_json, replay, report, seat_view
from engine.cards import card
from engine.rules import GAMES

#: The two 4-player games have their own, deeper suite (tests/test_cogs.py).
OTHER_GAMES = sorted(set(GAMES) - {"filicau", "filko"})


def hand_of(session: TableSession) -> Hand:
    assert session.hand is not None
    return session.hand


def offered(view: Message) -> set[str]:
    """What a hand view lets its player do, as action JSON: enabled buttons and the
    entries of its choice menus (cards to choose together are checked apart)."""
    out = set()
    for custom_id in view.moves():
        parts = custom_id.split(":")
        if parts[1] == "card":
            out.add(json.dumps({"card": parts[5]}))
        elif parts[1] == "act":
            out.add(json.dumps({parts[4]: json.loads(":".join(parts[5:]))}))
    menu = view.select("act")
    for option in (menu or {}).get("options", []):
        kind, _, raw = option["value"].partition(":")
        out.add(json.dumps({kind: json.loads(raw)}))
    return out


def expected(hand: Hand, seat: int) -> set[str]:
    """The choices a hand view offers: the legal actions, and the free ones worth offering
    (a claim that no deal of the unseen cards could make good is not)."""
    view = seat_view(hand, seat)
    free = [a for a in hand.free_actions(seat) if hand.rules.worth_offering(view, a)]
    return {json.dumps(action_to_json(a)) for a in (*hand.legal_actions(seat), *free)
            if not isinstance(action_to_json(a)[a.kind], list)}


async def sit_with_computers(h: Harness, game: str, ana: User) -> TableSession:
    rules = GAMES[game]
    r = await h.command(ana, "table new", game=game)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    lobby = r.message
    assert lobby.embeds[0]["title"] == t("lobby.title", game=rules.title)
    if rules.fixed_teams:
        r = await h.press(ana, t("btn.join_a"))
    else:
        r = await h.press(ana, t("btn.sit"))
    assert r.type == UPDATE_MESSAGE and ana.mention in r.text
    session = h.session()
    assert len(session.seats) == session.rules.players
    while not session.full:
        r = await h.add_computer(ana, "easy")
        assert r.type == UPDATE_MESSAGE
    await reseed(session, 7)
    r = await h.press(ana, t("btn.start"))
    assert r.type == UPDATE_MESSAGE and session.state == "playing"
    return session


async def play_a_hand(h: Harness, session: TableSession, ana: User, rng: random.Random
                      ) -> None:
    """Ana clicks through her hand view until the hand is over (computers play between)."""
    seat = session.seat_of(ana.id)
    assert seat is not None
    r = await h.press(ana, t("btn.my_hand"))
    assert r.type == CHANNEL_MESSAGE and r.ephemeral
    for _ in range(400):
        await h.until(lambda: hand_of(session).finished or bool(session.waiting_for_human()))
        hand = hand_of(session)
        if hand.finished:
            return
        view = h.hand_view(ana)
        assert offered(view) == expected(hand, seat), "the hand view offers other choices"
        before = len(hand.actions)
        choices: list[tuple[str, Any]] = [("click", c) for c in view.moves()
                                          if c.split(":")[1] in ("card", "act")]
        for menu in view.selects:
            op = menu["custom_id"].split(":")[1]
            if op in ("act", "together"):
                choices.append((op, menu))
        assert choices, "it is Ana's turn but her hand view offers nothing"
        kind, what = rng.choice(choices)
        if kind == "click":
            r = await h.click(ana, what, message=view)
        else:
            values = [o["value"] for o in what["options"]]
            size = what.get("min_values", 1)
            r = await h.choose(ana, what["custom_id"], rng.sample(values, size), message=view)
        if len(hand_of(session).actions) == before:
            # A choice the rules refuse (cards to bury that may not be buried): an answer
            # only Ana sees, and nothing changed.
            assert r.ephemeral
    raise AssertionError("the hand did not end")


@pytest.mark.slow
@pytest.mark.parametrize("game", OTHER_GAMES)
async def test_one_person_and_computers_play_two_hands(h: Harness, game: str) -> None:
    ana = h.user("ana")
    session = await sit_with_computers(h, game, ana)
    rng = random.Random(game)
    await play_a_hand(h, session, ana, rng)
    hand = hand_of(session)
    result = hand.result
    assert result is not None
    await h.until(lambda: any(m.embeds and m.embeds[0].get("title", "").startswith(
        "Hand 1") for m in h.public()))
    store = h.bot.store  # type: ignore[union-attr]
    [row] = await store.hands(session.id)
    assert row.result is not None
    assert report(replay(row.record())) == report(hand)
    team0, team1 = session.team_members()
    stored = await store.get_status(GUILD_ID, game, team0, team1)
    assert stored is not None
    assert session.stored_status(stored) == (result.status, result.next_dealer)
    # The next hand starts from the status the first one left.
    await h.press(ana, t("btn.next_hand"), message=h.result_post())
    assert hand_of(session) is not hand
    assert hand_of(session).status == result.status
    assert hand_of(session).dealer == result.next_dealer
    await play_a_hand(h, session, ana, rng)
    assert hand_of(session).finished
    # The server standings count Ana's two hands in this game (and her score, where the
    # game scores players).
    r = await h.command(ana, "standings", game=game)
    players = r.message.embeds[0]["fields"][0]["value"]
    header, *rows = players.split("```")[1].strip("\n").splitlines()
    columns = header.split()
    # The figures are the row's last columns; a name may wear a badge (🎩) beside it.
    row = next(x.split() for x in rows if x.startswith(ana.name.title()))
    figures = dict(zip(columns[1:], row[-(len(columns) - 1):], strict=True))
    assert figures[t("standings.col.hands")] == "2", players
    if session.rules.score_by_seat:
        results = await store.results(GUILD_ID, game)
        mine = sum((x.scores or {}).get(ana.member, 0) for x in results)
        assert figures[t("standings.col.score")] == f"{mine:+d}"


def test_hats_are_worn_by_the_team_that_is_not_masters() -> None:
    from bot.standings import badge_wearers
    from bot.store import PartnershipStatus

    st = PartnershipStatus(guild_id=1, game="filko_hats", team_a=["1", "3"], team_b=["2", "4"],
                           masters="b", servant="1")
    assert badge_wearers([st], "filko_hats") == {"1", "3"}
    assert badge_wearers([st.model_copy(update={"masters": None})], "filko_hats") == set()
    # Filkó's servants wear nothing; another game's status counts for nothing here.
    filko = st.model_copy(update={"game": "filko"})
    assert badge_wearers([filko], "filko") == set()
    assert badge_wearers([filko], "filko_hats") == set()


def test_every_game_is_covered() -> None:
    assert {"filko5", "filko6", "filcau20", "schafkopf3", "wendish"} <= set(OTHER_GAMES)


@pytest.mark.parametrize("game", OTHER_GAMES)
async def test_lobby_options_are_offered_and_changed_by_the_opener(h: Harness,
                                                                    game: str) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    await h.command(ana, "table new", game=game)
    lobby = h.table_message()
    menu = lobby.select("opt")
    assert menu is not None, f"{game} offers no options"
    session = h.session()
    current = session.rules.options.model_dump()
    entry = next(o["value"] for o in menu["options"]
                 if json.loads(o["value"].split("=", 1)[1]) != current[o["value"].split("=")[0]])
    name, value = entry.split("=", 1)
    r = await h.choose(bob, menu["custom_id"], [entry])
    assert r.ephemeral and r.text == t("err.not_manager")
    assert session.rules.options.model_dump()[name] == current[name]
    r = await h.choose(ana, menu["custom_id"], [entry])
    assert r.type == UPDATE_MESSAGE
    assert session.rules.options.model_dump()[name] == json.loads(value)
    [row] = [r for r in await h.bot.store.open_tables() if r.id == session.id]  # type: ignore[union-attr]
    assert row is not None and row.options[name] == json.loads(value)


# -- the fris window of the 20-card Filcau -----------------------------------------------------


def fris_pack() -> list[int]:
    """Dealer seat 1; Ana (seat 0) cuts and her first three cards (pack 6-8) hold the
    Over of acorns; nobody else has an Over among the first twelve cards."""
    rules = GAMES["filcau20"]
    overs = [card(c) for c in ("EO", "GO", "HO", "SO")]
    rest = [c for c in rules.pack if c not in overs]
    first = rest[:11]
    pack = [*first[:6], overs[0], *first[6:11], *overs[1:], *rest[11:]]
    assert len(pack) == 20 and pack[6] == overs[0]
    return pack


async def fris_table(h: Harness, ana: User, **options: Any) -> TableSession:
    await h.command(ana, "table new", game="filcau20", **options)
    await h.press(ana, t("btn.join_a"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    rig(session, FixedDeal(fris_pack(), 1))
    await h.press(ana, t("btn.start"))
    hand = hand_of(session)
    assert hand.dealer == 1 and hand.to_move == 0
    view = (await h.press(ana, t("btn.my_hand"))).message
    cut = next(c for c in view.enabled() if c.endswith(':deal:"cut"'))
    await h.click(ana, cut, message=view)
    await h.until(lambda: session.waiting_for_human() == [0])
    return session


async def test_the_fris_window_waits_for_a_person_then_the_dealer_deals_on(
        h: Harness) -> None:
    ana = h.user("ana")
    session = await fris_table(h, ana, window_seconds=45)
    assert session.window_seconds == 45  # the table's own window time, from /table new
    hand = hand_of(session)
    # The computers passed at once; the computer dealer waits for Ana (or the time).
    assert hand.phase == "fris" and sorted(hand.actors()) == [0, 1]
    assert [a.kind for _, a in hand.actions] == ["deal", "pass", "pass"]
    view = h.hand_view(ana)
    menu = view.select("act")
    assert menu is not None and any(o["value"].startswith("fris:") for o in menu["options"])
    session.row = session.row.model_copy(update={"settings": {
        **session.row.settings, "window_seconds": 0}})
    h.runner(session).kick()
    await h.until(lambda: hand.phase != "fris")
    # The computers may already have played on: the window's own end is the fourth action.
    assert hand.actions[3] == (1, Action("deal_on", True))
    assert all(len(cards) == 5 for cards in hand.hands)


async def test_a_person_makes_fris_in_the_window(h: Harness) -> None:
    ana = h.user("ana")
    session = await fris_table(h, ana)
    hand = hand_of(session)
    view = h.hand_view(ana)
    menu = view.select("act")
    assert menu is not None
    fris = next(o["value"] for o in menu["options"] if o["value"].startswith("fris:")
                and '"trump":"H"' in o["value"])
    r = await h.choose(ana, menu["custom_id"], [fris], message=view)
    assert r.type == UPDATE_MESSAGE
    assert hand.phase == "fris_trick" and hand.trump == 2 and hand.leader == 0
    assert hand.shown == [card("EO")]


def test_the_standings_show_each_players_solos_in_the_match() -> None:
    """Wendish with Muss-Solo keeps each player's solos (per player, so they follow the
    people): the standings show them, from each group's latest status."""
    from bot.standings import match_solos
    from bot.store import PartnershipStatus

    older = PartnershipStatus(guild_id=1, game="wendish", team_a=["1", "2", "3", "4"],
                              team_b=[], updated_at="2026-11-01T10:00:00+00:00",
                              extra={"solos": {"1": 1, "2": 0, "3": 0, "4": 0}})
    newer = older.model_copy(update={"updated_at": "2026-11-02T10:00:00+00:00",
                                     "extra": {"solos": {"1": 2, "2": 1, "3": 0, "4": 0}}})
    assert match_solos([newer, older], "wendish") == {"1": 2, "2": 1, "3": 0, "4": 0}
    assert match_solos([newer], "filicau") == {}
