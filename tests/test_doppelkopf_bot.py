"""Doppelkopf in Discord (issue 45), through the in-process harness: quick play and the lobby
with every option of D10 in Discord's menus, a hand played to its rating and the leaderboard,
the table message's stakes, targets and extras as the table sees them, the result tallied as
players tally it, French faces, and a duplicate tournament. (Every surface's secrecy is
``tests/test_doppelkopf_secrecy.py``; the rulings are ``tests/test_doppelkopf.py``.)
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from fake_discord import CHANNEL_MESSAGE, GUILD_ID, Harness
from test_games_bot import play_a_hand, sit_with_computers
from test_pictures import pictures_on
from test_tournaments import announce, play_everything, sign_up, tournament_tables

from bot.options import MAX_CHOICES, choices, encode
from bot.texts import speaking, t
from bot.voice import facts
from bot.voice.table import Table
from bot.voice.text import plain
from engine import Match, make_rules, public_view, replay

GOLDEN = Path(__file__).parent / "golden"


async def test_quick_play_opens_a_lobby_with_every_option_in_discords_menus(h: Harness
                                                                           ) -> None:
    """D10's options are 29 choices: more than one menu holds (25), so the lobby shows two,
    each option's values in one of them, and the opener can set the last one too."""
    ana = h.user("ana")
    r = await h.command(ana, "play", game="doppelkopf")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    session = h.session()
    assert session.game == "doppelkopf" and session.state == "lobby"
    lobby = h.table_message()
    assert lobby.embeds[0]["title"] == t("lobby.title", game="Doppelkopf")
    menus = [m for m in lobby.selects if m["custom_id"].split(":")[1] == "opt"]
    assert all(len(m["options"]) <= MAX_CHOICES for m in menus) and len(menus) == 2
    assert len(lobby.data["components"]) <= 5
    offered = [o["value"] for m in menus for o in m["options"]]
    assert sorted(offered) == sorted(encode(n, v) for n, v in choices("doppelkopf"))
    assert {n for n, _ in choices("doppelkopf")} == {
        "nines", "dullen", "schweinchen", "armut", "extras", "solo_set", "hochzeit_finder",
        "lustsolo_lead", "pflichtsolo", "match_deals"}
    await h.choose(ana, menus[1]["custom_id"], [encode("match_deals", 8)])
    await h.choose(ana, menus[0]["custom_id"], [encode("nines", False)])
    assert session.rules.match_deals == 8  # type: ignore[attr-defined]
    assert len(session.rules.pack) == 40
    h.check_clean()


@pytest.mark.slow
async def test_a_hand_is_played_rated_and_on_the_leaderboard(h: Harness) -> None:
    ana = h.user("ana")
    session = await sit_with_computers(h, "doppelkopf", ana)
    await play_a_hand(h, session, ana, random.Random(3))
    await h.settle()
    store = h.bot.store  # type: ignore[union-attr]
    rows = {r.player: r for r in await store.ratings(GUILD_ID, "doppelkopf", 1)}
    assert ana.member in rows and rows[ana.member].hands == 1
    r = await h.command(ana, "leaderboard", game="doppelkopf")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert "Doppelkopf" in r.text
    h.check_clean()


def test_the_result_is_tallied_item_by_item_as_players_count() -> None:
    """D13.2 (a) and D13.6 in German: each item with its points, the party named once, and
    the sum "= S für" the party it goes to."""
    def tally(name: str) -> str:
        golden = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
        hand = replay(golden["record"])
        assert hand.result is not None
        with speaking("de"):
            return plain(facts.counted_line(hand.result.extra["counted"]))

    assert tally("doppelkopf_d13_2a_kontra_keine_90_made") == (
        "Kontra: gewonnen 1, keine 90 gespielt 1, Kontra angesagt 2, keine 90 von Kontra 1, "
        "gegen die Alten 1 = 6 für Kontra")
    assert tally("doppelkopf_d13_1_re_wins_130") == "Re: gewonnen 1 = 1 für Re"


def test_the_table_says_stakes_targets_and_the_foxes_as_they_fall() -> None:
    """The table's facts in German, as the table knows them: each party's announcement
    level and what it needs now, and a Fuchs another seat won before anyone knows whether it
    was caught (the parties still hidden)."""
    rules = make_rules("doppelkopf")
    table = Table("doppelkopf", rules, 1, ("1", "2", "3", "4"),
                  names={"1": "Ana", "2": "Bob", "3": "Cid", "4": "Dan"})
    names = ("Ana", "Bob", "Cid", "Dan")
    seen_fox = said = False
    for seed in range(200):
        hand = Match(rules, seed=seed).deal()
        rng = random.Random(seed)
        while not hand.finished and not (seen_fox and said):
            v = public_view(hand)
            with speaking("de"):
                lines = [line for x in facts.public_lines(table, v.public)
                         for line in plain(x).splitlines()]
            levels = v.public.get("levels")
            if levels is not None:
                level = {0: "nichts angesagt", 1: "Re", 2: "keine 90"}.get(levels["re"])
                if level is not None and levels["kontra"] == 0:
                    assert f"Stand der Ansagen: Re: {level} · Kontra: nichts angesagt" in lines
                    need = {0: 121, 1: 121, 2: 151}[levels["re"]]
                    assert (f"Zum Sieg nötig: Re: {need} Augen · Kontra: "
                            f"{240 - need + 1 if levels['re'] < 2 else 90} Augen") in lines
                    said |= levels["re"] > 0
            for e in v.public.get("extras_seen", ()):
                if e["extra"] == "fuchs":
                    assert None in v.team  # before the parties are known
                    assert (f"Fuchs: der von {names[e['by']]} ging an {names[e['to']]} "
                            f"({e['trick']}. Stich)") in lines
                    seen_fox = True
            seat = hand.actors()[0]
            legal = hand.legal_actions(seat)
            gesund = [a for a in legal if a.kind == "gesund"]
            say_re = [a for a in hand.free_actions(seat) if a.value in ("re", "keine_90")]
            action = gesund[0] if gesund else (say_re[0] if say_re and rng.random() < 0.3
                                               else rng.choice(legal))
            hand.apply(seat, action)
        if seen_fox and said:
            break
    assert seen_fox and said


async def test_help_and_rules_in_german_with_the_french_ranking(h: Harness) -> None:
    """``/help game:Doppelkopf`` is its how-to-play; ``/rules`` its rulings one by one and
    the ranking picture with the French faces it is played with."""
    ana, mia = h.user("ana", locale="de"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    r = await h.command(ana, "help", game="doppelkopf")
    [embed] = r.message.embeds
    with speaking("de"):
        # The goal first (said once, here and in the lobby), then how to play.
        assert embed["description"] == f"*{t('goal.doppelkopf')}*\n\n{t('how.doppelkopf')}"
        assert "Dulle" in embed["description"] and "Hochzeit" in embed["description"]
    r = await h.command(ana, "rules", game="doppelkopf")
    [page] = r.message.embeds
    rules = make_rules("doppelkopf")
    with speaking("de"):
        assert page["description"].splitlines() == [
            f"• {t(f'rulings.doppelkopf.{i}')}" for i in range(len(rules.rulings))]
    assert [p.faces for p in h.pictures.values() if p.kind == "ranking"] == ["french"]


async def test_cards_have_french_faces_unless_the_server_chose_german(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    await sit_with_computers(h, "doppelkopf", ana)
    await h.press(ana, t("btn.my_hand"))
    assert h.pictures and {p.faces for p in h.pictures.values()} == {"french"}
    r = await h.command(mia, "admin faces", faces="german")
    assert r.ephemeral
    h.pictures.clear()
    await h.press(ana, t("btn.my_hand"))
    assert h.pictures and {p.faces for p in h.pictures.values()} == {"german"}


@pytest.mark.slow
async def test_a_duplicate_tournament_deals_the_same_boards_at_every_table(h: Harness
                                                                           ) -> None:
    """Duplicate suits Doppelkopf: every table of a round plays the same boards, and each
    board's seats are compared across the tables."""
    boss = h.user("boss", manager=True)
    people = [h.user(n) for n in ("ana", "bob", "cid")]
    row, announcement = await announce(h, boss, game="doppelkopf", format="duplicate",
                                       rounds=1, hands=2, computers=9)
    shown = await sign_up(h, people, announcement)
    await h.press(boss, t("btn.start_now"), message=shown)
    assert len(tournament_tables(h)) == 3
    assert {table.session.game for table in tournament_tables(h)} == {"doppelkopf"}
    await play_everything(h, people, random.Random(5))
    store = h.bot.store  # type: ignore[union-attr]
    headers: dict[int, set[str]] = {}
    for table in await store.tournament_tables(row.id):
        assert table.table_id is not None
        for hand in await store.hands(table.table_id):
            headers.setdefault(hand.number, set()).add(repr((
                hand.header["pack"], hand.header["dealer"], hand.header["status"])))
            assert replay(hand.record()).result is not None
    assert sorted(headers) == [1, 2]
    assert all(len(same) == 1 for same in headers.values())
    h.check_clean()
