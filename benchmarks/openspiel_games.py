"""The engine's games for OpenSpiel's Python API (``pip install -e '.[openspiel]'``).

``register(game)`` registers ``engine_GAME`` (``engine_filicau``, ``engine_schafkopf``...)
with ``pyspiel``; ``pyspiel.load_game("engine_filicau")`` then plays it like any OpenSpiel
game: the pack is dealt by chance one card at a time (each chance step draws the next pack
card among those left, uniformly), then the seats act in the engine's order (the first of
several seats a window asks acts first, as the arena plays), and at the end each seat's
return is what the engine's search players aim for: its team's ``Rules.outcome_value`` with
card points as a small tie-break, or in games that value whole hands (Bavarian Schafkopf) the
seat's ``Rules.hand_value`` over 8. A seat's information state is what its ``SeatView``
holds: its own cards, every action as the table saw it, what only it knows.

Actions: a card is its number; any other action gets a number from ``CHOICES_AT`` on, in the
order this process first met it (``action_id``).

``resample(state, player)`` is the determinization OpenSpiel's IS-MCTS asks for
(``ISMCTSBot.set_resampler``): a state consistent with the player's information state, the
hidden cards dealt by the engine's own guess (``engine.inference.sample``, uniform among the
deals consistent with the voids and shown cards, rebuilt by the game's ``determinize``), as
the unread search levels guess them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pyspiel

from engine.actions import Action
from engine.ai.search import Scorer
from engine.determinize import hand_from_view
from engine.hand import Hand
from engine.inference import infer, sample
from engine.rules import make_rules
from engine.rules.base import Rules
from engine.status import RecordError, Status
from engine.view import seat_view

#: Card actions are the card's number, below this; other actions count up from it.
CHOICES_AT = 128
_MAX_CHOICES = 1024
#: Action -> id and back, for the actions that are not cards (the same in the whole process).
_IDS: dict[Action, int] = {}
_ACTIONS: list[Action] = []


def action_id(action: Action) -> int:
    if action.kind == "card":
        return int(action.value)
    known = _IDS.get(action)
    if known is None:
        known = _IDS[action] = CHOICES_AT + len(_ACTIONS)
        _ACTIONS.append(action)
        if len(_ACTIONS) > _MAX_CHOICES:  # pragma: no cover - no game has that many
            raise ValueError("more distinct actions than the OpenSpiel wrapper numbers")
    return known


def action_of(number: int) -> Action:
    if number < CHOICES_AT:
        return Action("card", number)
    return _ACTIONS[number - CHOICES_AT]


def seat_returns(hand: Hand) -> list[float]:
    """Each seat's return: what the engine's search would score the finished hand at."""
    rules = hand.rules
    n = hand.n
    return [Scorer(rules, hand.status, hand.team[s])(hand) / (
        8.0 if type(rules).hand_value is not Rules.hand_value else 1.0) for s in range(n)]


class EngineState(pyspiel.State):  # type: ignore[misc]
    """A hand of an engine game as an OpenSpiel state (dealt by chance, or given)."""

    def __init__(self, game: EngineGame, hand: Hand | None = None) -> None:
        super().__init__(game)
        self._engine_game = game
        self.rules = game.rules
        self.dealt: list[int] = [] if hand is None else list(hand.pack)
        self.hand: Hand | None = hand

    # -- OpenSpiel's state API ------------------------------------------------------------

    def current_player(self) -> int:
        hand = self.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        if hand.finished:
            return int(pyspiel.PlayerId.TERMINAL)
        return hand.actors()[0]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None
        return sorted(action_id(a) for a in self.hand.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in self.rules.pack if c not in self.dealt]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            self.dealt.append(action)
            if len(self.dealt) == len(self.rules.pack):
                self.hand = Hand(self.rules, self._engine_game.dealer, self.dealt,
                                 self._engine_game.status)
            return
        seat = self.hand.actors()[0]
        self.hand.apply(seat, action_of(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action_of(action)) if player >= 0 else f"deal {action}"

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.finished

    def returns(self) -> list[float]:
        if self.hand is None or not self.hand.finished:
            return [0.0] * self.rules.players
        return seat_returns(self.hand)

    def __str__(self) -> str:
        return "" if self.hand is None else json.dumps(
            [(s, str(a)) for s, a in self.hand.actions])

    def __deepcopy__(self, memo: dict[int, Any]) -> EngineState:
        if self.hand is not None:
            return EngineState(self._engine_game, self.hand.copy())
        state = EngineState(self._engine_game)
        state.dealt = list(self.dealt)
        return state

    def resample_from_infostate(self, player: int, sampler: Any) -> EngineState:
        """OpenSpiel's C++ IS-MCTS asks the state itself (``resample``, its own numbers)."""
        return resample(self, player, self._engine_game.draws)

    def info_string(self, player: int) -> str:
        """What ``player`` knows: its cards, the actions as the table saw them, its secrets."""
        hand = self.hand
        if hand is None:
            return f"{player}|dealing {len(self.dealt)}"
        rules = hand.rules
        public = rules.public_action
        seen = [(s, str(a) if a.kind == "card" else str(public(hand, s, a)))
                for s, a in hand.actions]
        private = rules.private_info(hand, player)
        return (f"{player}|{sorted(hand.hands[player])}|{seen}|"
                f"{json.dumps(private, sort_keys=True) if private else ''}")


class EngineObserver:
    """The information state string (perfect recall): ``EngineState.info_string``."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: EngineState, player: int) -> None:
        pass

    def string_from(self, state: EngineState, player: int) -> str:
        return state.info_string(player)


class EngineGame(pyspiel.Game):  # type: ignore[misc]
    rules: Rules

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        game = str(params.get("game", self.game_name))
        self.rules = make_rules(game)
        self.dealer = int(params.get("dealer", 0))
        self.status = Status()
        #: The guesses of ``resample_from_infostate`` (seeded by ``seed_draws``).
        self.draws = random.Random(0)
        super().__init__(_game_type(game), _game_info(self.rules), params)

    game_name = "filicau"

    def new_initial_state(self, hand: Hand | None = None) -> EngineState:
        return EngineState(self, hand)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> EngineObserver:
        return EngineObserver(iig_obs_type, params)


def _game_type(game: str) -> Any:
    rules = make_rules(game)
    return pyspiel.GameType(
        short_name=f"engine_{game}",
        long_name=f"{rules.title} (the filicau-bot engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.players,
        min_num_players=rules.players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"game": game, "dealer": 0},
    )


def _game_info(rules: Rules) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=CHOICES_AT + _MAX_CHOICES,
        max_chance_outcomes=len(rules.pack),
        num_players=rules.players,
        min_utility=-2.0,
        max_utility=2.0,
        utility_sum=None,
        max_game_length=len(rules.pack) * 3,
    )


_REGISTERED: set[str] = set()


def register(game: str) -> str:
    """Register ``engine_GAME`` with pyspiel (once) and return its name."""
    name = f"engine_{game}"
    if game not in _REGISTERED:
        cls = type(f"EngineGame_{game}", (EngineGame,), {"game_name": game})
        pyspiel.register_game(_game_type(game), cls)
        _REGISTERED.add(game)
    return name


_last: tuple[Hand, int, int, Any, Any] | None = None


def resample(state: EngineState, player: int, rng: random.Random) -> EngineState:
    """A state consistent with ``player``'s information state in ``state`` (see the module's
    doc): the same view, the hidden cards guessed anew."""
    global _last
    hand = state.hand
    assert hand is not None
    # IS-MCTS draws every iteration's deal from the same root state: its view is made once.
    last = _last
    if last is not None and last[0] is hand and last[1] == player and last[2] == len(
            hand.actions):
        view, knowledge = last[3], last[4]
    else:
        view = seat_view(hand, player)
        knowledge = infer(view)
        _last = (hand, player, len(hand.actions), view, knowledge)
    for _ in range(20):
        try:
            guess = hand_from_view(view, sample(knowledge, rng))
        except RecordError:
            continue
        return EngineState(state._engine_game, guess)
    return EngineState(state._engine_game, hand.copy())  # pragma: no cover - never in tests


def legal_ids(actions: Sequence[Action]) -> list[int]:
    return sorted(action_id(a) for a in actions)


class RolloutEvaluator:
    """OpenSpiel's random rollout (``open_spiel.python.algorithms.mcts.RandomRolloutEvaluator``:
    uniformly random legal actions to the end, the returns of where it ends; a uniform prior)
    played on the engine's hand directly rather than through the state's Python API, which
    costs the rollout a third of its time in calls."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: EngineState) -> Any:
        import numpy as np

        hand = state.hand
        assert hand is not None
        hand = hand.copy()
        rand = self.rng.random
        while not hand.finished:
            seat = hand.actors()[0]
            legal = hand.legal_actions(seat)
            hand.apply(seat, legal[int(rand() * len(legal))])
        return np.array(seat_returns(hand))

    def prior(self, state: EngineState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]
