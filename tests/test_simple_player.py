"""``SimplePlayer``: the web demo's computer (``python -m bot.web``) and the computer of
tables opened before the levels."""

from __future__ import annotations

import random

import pytest

from engine import GAMES, make_rules
from engine.hand import Hand
from engine.players import SimplePlayer
from engine.view import seat_view


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_simple_player_plays_every_game_to_the_end(game: str) -> None:
    """It finishes a hand of every game with legal moves, Doppelkopf's coded cards too (it
    raised a TypeError there, so the demo's Doppelkopf table stopped at its first card)."""
    rules = make_rules(game)
    pack = list(rules.pack)
    random.Random(f"simple|{game}").shuffle(pack)
    hand = Hand(rules, 0, pack)
    player = SimplePlayer()
    while not hand.finished:
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        action = player.choose(view)
        assert action in view.legal
        hand.apply(seat, action)
    assert hand.result is not None
