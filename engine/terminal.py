"""Play one hand in a terminal against computer players: ``python -m engine play``.

You hold one seat; the other three are computer players (``--level``, default Normal).
Cards are typed by code (``EO``, ``H10``) or by their number in the list shown.
"""

from __future__ import annotations

import sys
from typing import TextIO

from engine.actions import Action, action_to_json
from engine.ai import make_player
from engine.cards import SUIT_NAMES, code
from engine.match import Match
from engine.rules import make_rules
from engine.view import seat_view


def _describe(action: Action) -> str:
    return str(action) if action.kind == "card" else str(action_to_json(action))


def play_terminal(
    game: str, *, seed: int | None, seat: int, out: TextIO, inp: TextIO = sys.stdin,
    level: str = "normal",
) -> int:
    rules = make_rules(game)
    if not 0 <= seat < rules.players:
        print(f"--seat must be 0 to {rules.players - 1}", file=out)
        return 2
    match = Match(rules, seed=seed)
    hand = match.deal()
    bot = make_player(level, seed)
    teams = f"your partner is seat {(seat + 2) % rules.players}"
    print(f"{rules.title}: you are seat {seat} ({teams}); seat {hand.dealer} deals.", file=out)
    assert hand.trump is not None
    print(f"Shown: {' '.join(code(c) for c in hand.shown)} — trump is "
          f"{SUIT_NAMES[hand.trump]}.", file=out)
    last_shown = 0
    while not hand.finished:
        while last_shown < len(hand.tricks):
            t = hand.tricks[last_shown]
            last_shown += 1
            print(f"  trick {last_shown}: {' '.join(code(c) for c in t.cards)} "
                  f"(led by seat {t.leader}) — seat {t.winner} wins", file=out)
        actor = hand.actors()[0]
        view = seat_view(hand, actor)
        if actor != seat:
            hand.apply(actor, bot.choose(view))
            continue
        mine = seat_view(hand, seat)
        print(f"\nYour hand: {' '.join(code(c) for c in mine.hand)}", file=out)
        if hand.trick:
            print(f"On the table: {' '.join(code(c) for c in hand.trick)}", file=out)
        legal = list(mine.legal)
        for i, a in enumerate(legal, 1):
            print(f"  {i}) {_describe(a)}", file=out)
        while True:
            print("Your choice: ", end="", file=out, flush=True)
            line = inp.readline()
            if not line:
                print("\nbye", file=out)
                return 0
            choice = _pick(line.strip(), legal)
            if choice is not None:
                hand.apply(seat, choice)
                break
            print("  not a legal choice; type its number or its card code", file=out)
    result = hand.result
    assert result is not None
    for t in hand.tricks[last_shown:]:
        print(f"  trick: {' '.join(code(c) for c in t.cards)} — seat {t.winner} wins", file=out)
    mine_team = seat % 2
    print(f"\nPoints: your team {result.points[mine_team]}, "
          f"opponents {result.points[1 - mine_team]}. Outcome: {result.event}"
          + ("" if result.team is None else f" (team of seat {result.team})")
          + f"; seat {result.next_dealer} deals next.", file=out)
    return 0


def _pick(text: str, legal: list[Action]) -> Action | None:
    if text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    for a in legal:
        if a.kind == "card" and code(a.value) == text.upper():
            return a
        if a.kind != "card" and str(a.value) == text:
            return a
    return None
