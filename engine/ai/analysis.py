"""Hints and hand reviews: what the search players think of a position, said to a person.

Both read the same determinized samples the search players decide with
(``engine.ai.search``): for each sample the hidden hands are guessed from the seat's view
only, every legal action is played out (or searched exactly near the end), and the action
with the best total is the search's choice. Beside that total, this module keeps what each
playout *ended in*: the hand's result as the rules name it (``HandResult.event`` and whether
it is about the seat's own team), so that a hint can say "EA: stay masters 62%".

- ``hint(view, samples=, seed=)`` is Normal's view of a position: its choice and, per legal
  action, the chance of each outcome. With Normal's sample count and the seat as the seed
  (as ``bot.thinking`` plays its computers) the recommended action is exactly what a Normal
  computer in that seat would play.
- ``review(record, seat, samples=, seed=)`` goes through a finished hand and, for every
  decision ``seat`` made, compares Hard's value of the action played with Hard's best, both
  from what the seat could see then (``seat_view`` of the replayed prefix): a review never
  uses cards the seat could not know, so a good play that lost to an unlucky lie of the cards
  is not a mistake.

Values are the search's own (``Rules.outcome_value`` of the final outcome, about -1 to 1, plus
a small card-point tie-break). A decision costs ``best - played``; it is a costly mistake
when that is at least ``MISTAKE_COST``.

>>> from engine import Match, make_rules, seat_view
>>> hand = Match(make_rules("filicau"), seed=3).deal()
>>> h = hint(seat_view(hand, hand.to_move), samples=4, seed=0)
>>> h.recommended in hand.legal_actions()
True
>>> all(abs(sum(o.chance for o in a.outcomes) - 1) < 1e-9 for a in h.actions)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, action_from_json, action_to_json
from engine.ai import SEARCH, make_player
from engine.ai.search import (
    Reading,
    Rollout,
    Scorer,
    SearchPlayer,
    SeatScorer,
    rule_of_thumb,
    search_hands,
    settle_choices,
)
from engine.determinize import hand_from_view, plays_so_far
from engine.hand import Hand
from engine.inference import infer, sample
from engine.record import GameRecord, replay, start, to_record
from engine.view import SeatView, seat_view

#: A decision that loses at least this much value against the best one is a costly mistake.
#: Values run from -1 (the worst outcome for the seat's team) to 1 (the best), so 0.25 is,
#: for example, a one-in-four chance of ending slaves instead of even, or one in eight of
#: ending slaves instead of masters. Sampling noise stays below it: Hard's own plays
#: reviewed by Hard with other seeds (252 decisions, Filicău and Schafkopf) cost at most 0.15,
#: and none was marked.
MISTAKE_COST = 0.25

#: Bumped when what a review holds or how it is computed changes: stored reviews of another
#: version are recomputed rather than shown.
REVIEW_VERSION = 1

#: A review's cap on positions searched per decision, the machine-independent stand-in for
#: Hard's time cap (a review must repeat exactly). It binds where the exact search over the
#: last cards is costly (two-player Officers: up to 900,000 positions for 200 samples), not in
#: Filicău and Schafkopf (at most 51,200 and 66,307 positions in the hands measured). About
#: 1-3 s on a loaded 2-core machine.
REVIEW_WORK = 100_000

#: Samples of a hint (Normal's) and of a review (Hard's).
HINT_SAMPLES: int = SEARCH["normal"]["samples"]  # type: ignore[assignment]
REVIEW_SAMPLES: int = SEARCH["hard"]["samples"]  # type: ignore[assignment]


@dataclass(frozen=True)
class Outcome:
    """How a hand ended, as the rules name it: the result's ``event`` key (``masters``,
    ``stay_masters``, ``no_change``, ``ran_away``, ``declarer_won``...), whether it is about
    the asking seat's own team (True), the other (False) or nobody (None), and a game's
    ``level`` of the result where it has one (Schafkopf's ``schneider``)."""

    event: str
    ours: bool | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "ours": self.ours, "level": self.level}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Outcome:
        return cls(str(obj["event"]), obj.get("ours"), obj.get("level"))


@dataclass(frozen=True)
class Chance:
    outcome: Outcome
    #: Share of the samples that ended so (the shares of one action sum to 1).
    chance: float

    def to_json(self) -> dict[str, Any]:
        return {**self.outcome.to_json(), "chance": self.chance}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Chance:
        return cls(Outcome.from_json(obj), float(obj["chance"]))


@dataclass(frozen=True)
class ActionHint:
    action: Action
    #: The search's mean value of this action (what it ranks actions by).
    value: float
    #: Outcomes, most likely first; empty when the position could not be searched.
    outcomes: tuple[Chance, ...]

    def to_json(self) -> dict[str, Any]:
        return {"action": action_to_json(self.action), "value": self.value,
                "outcomes": [c.to_json() for c in self.outcomes]}


@dataclass(frozen=True)
class Hint:
    seat: int
    #: The search's choice (Normal's, with the default samples and ``seed=seat``).
    recommended: Action
    #: One entry per legal action, in the engine's order of legal actions.
    actions: tuple[ActionHint, ...]
    #: Samples the estimate rests on (0: not searched, the game's rule of thumb chose).
    samples: int

    @property
    def estimated(self) -> bool:
        return self.samples > 0

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "recommended": action_to_json(self.recommended),
                "actions": [a.to_json() for a in self.actions], "samples": self.samples}


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat."""

    #: Index of the action in the record's ``actions``.
    index: int
    #: Tricks complete before it (0: the first trick; bids come before any).
    trick: int
    played: Action
    best: Action
    #: The search's values of the action played and of the best one (None when forced or
    #: not searched).
    played_value: float | None
    best_value: float | None
    #: ``best_value - played_value`` (0 when forced or not searched).
    cost: float
    #: Only one action was legal.
    forced: bool
    #: ``cost >= MISTAKE_COST``.
    mistake: bool
    #: Outcome chances of the action played and of the best one.
    played_outcomes: tuple[Chance, ...] = ()
    best_outcomes: tuple[Chance, ...] = ()
    samples: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "trick": self.trick,
            "played": action_to_json(self.played), "best": action_to_json(self.best),
            "played_value": self.played_value, "best_value": self.best_value,
            "cost": self.cost, "forced": self.forced, "mistake": self.mistake,
            "played_outcomes": [c.to_json() for c in self.played_outcomes],
            "best_outcomes": [c.to_json() for c in self.best_outcomes],
            "samples": self.samples,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Decision:
        return cls(
            index=int(obj["index"]), trick=int(obj["trick"]),
            played=action_from_json(obj["played"]), best=action_from_json(obj["best"]),
            played_value=obj["played_value"], best_value=obj["best_value"],
            cost=float(obj["cost"]), forced=bool(obj["forced"]), mistake=bool(obj["mistake"]),
            played_outcomes=tuple(Chance.from_json(c) for c in obj["played_outcomes"]),
            best_outcomes=tuple(Chance.from_json(c) for c in obj["best_outcomes"]),
            samples=int(obj["samples"]),
        )


def review_to_json(decisions: list[Decision]) -> dict[str, Any]:
    """A review as the store keeps it (with ``REVIEW_VERSION`` and the threshold used)."""
    return {"version": REVIEW_VERSION, "mistake_cost": MISTAKE_COST,
            "decisions": [d.to_json() for d in decisions]}


def review_from_json(obj: Mapping[str, Any]) -> list[Decision] | None:
    """A stored review, or None when it was made by another version (recompute it)."""
    if obj.get("version") != REVIEW_VERSION:
        return None
    return [Decision.from_json(d) for d in obj["decisions"]]


# -- the evaluation ---------------------------------------------------------------------------


@dataclass
class _Evaluation:
    legal: tuple[Action, ...]
    totals: list[float]
    ends: list[Counter[Outcome]]
    samples: int
    #: The search's choice (the rule of thumb's when nothing could be searched).
    choice: Action
    #: Positions searched (see ``_evaluate``).
    work: int = 0

    def value(self, j: int) -> float:
        return self.totals[j] / self.samples

    def chances(self, j: int) -> tuple[Chance, ...]:
        counts = self.ends[j]
        n = sum(counts.values())
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].event,
                                                        str(kv[0].ours), str(kv[0].level)))
        return tuple(Chance(o, k / n) for o, k in ranked)


def _finish(hand: Hand) -> None:
    """Play a searched hand on to its result: after play, a game may still owe a choice (a
    Servant) that changes nothing the search scored; its first legal action is taken."""
    for _ in range(16):
        if hand.result is not None:
            return
        actors = hand.actors()
        if not actors:
            return
        legal = hand.legal_actions(actors[0])
        if not legal:
            return
        hand.apply(actors[0], legal[0])


def _outcome(hand: Hand, team: int) -> Outcome:
    _finish(hand)
    result = hand.result
    if result is None:  # pragma: no cover - every game settles once play is over
        return Outcome("unfinished")
    level = result.extra.get("level")
    return Outcome(result.event, None if result.team is None else result.team == team,
                   level if isinstance(level, str) else None)


def _exact_line(hand: Hand, team: int, score: Scorer, alpha: float, beta: float,
                work: list[int]) -> tuple[float, Hand]:
    """``search.exact`` (the same minimax value, alpha-beta pruned) that also returns the
    final position of the line both sides play, to read its outcome. ``work[0]`` counts the
    positions searched."""
    while not hand.play_over:
        seat = hand.to_move
        if seat is None:
            break
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            hand.apply(seat, legal[0])
            continue
        mine = hand.team[seat] == team
        best = -9.0 if mine else 9.0
        line = hand
        for a in legal:
            child = hand.copy()
            child.apply(seat, a)
            work[0] += 1
            v, end = _exact_line(child, team, score, alpha, beta, work)
            if mine:
                if v > best:
                    best, line = v, end
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, line = v, end
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best, line
    return score(hand), hand


def _evaluate(view: SeatView, level: str, samples: int, seed: int | None,
              work_cap: int | None = None) -> _Evaluation:
    """The search of ``level`` (its playout and exact-search depth) with ``samples`` samples
    and no time cap, run the way ``SearchPlayer.choose`` runs it (same random stream, same
    order), keeping each action's outcomes beside its total.

    ``work_cap`` plays the part of the search players' time cap without depending on the
    machine: no sample is started once that many positions were searched (a playout counts
    the cards it plays, the exact search each position it visits)."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to decide now")
    settings = SEARCH[level]
    exact_cards: int = settings["exact_cards"]  # type: ignore[assignment]
    playout: Rollout = settings["playout"]  # type: ignore[assignment]
    rng: random.Random = SearchPlayer(level, samples=samples, seed=seed).rng_for(view)
    seat = view.seat
    totals = [0.0] * len(legal)
    ends: list[Counter[Outcome]] = [Counter() for _ in legal]
    # A choice before play (taking the widow) is searched only by a level that searches
    # choices; the others take the rule of thumb's, as ``SearchPlayer.choose`` does.
    choice_phase = view.phase in view.rules.searched_choices
    if choice_phase and not settings.get("choices"):
        return _Evaluation(legal, totals, ends, 0, rule_of_thumb(view), 0)
    knowledge = infer(view)
    team = view.team[seat]
    score: Scorer | None = SeatScorer(view.rules, view.status, seat) if choice_phase else None
    left = len(view.rules.pack) - len(plays_so_far(view))
    used = 0
    work = [0]
    read: Reading | None = settings.get("reading")  # type: ignore[assignment]
    hands = search_hands(view, rng, samples, lambda r: hand_from_view(view, sample(knowledge, r)),
                         read)
    for i, hand in enumerate(hands):
        if work_cap is not None and work[0] >= work_cap:
            break
        if hand is None:
            if i:
                continue
            return _Evaluation(legal, totals, ends, 0, rule_of_thumb(view), work[0])
        if team is None:
            team = hand.team[seat]
        if score is None:
            score = Scorer(view.rules, view.status, team)
        for j, a in enumerate(legal):
            child = hand.copy()
            child.apply(seat, a)
            if choice_phase:
                settle_choices(child)
            if left <= exact_cards and not choice_phase:
                work[0] += 1
                v, end = _exact_line(child, team, score, -9.0, 9.0, work)
            else:
                playout(child, rng)
                work[0] += left
                v, end = score(child), child
            totals[j] += v
            # Before play the seat's side is known only once the choices are made.
            ends[j][_outcome(end, end.team[seat] if choice_phase else team)] += 1
        used += 1
    best = max(totals)
    choice = legal[next(j for j, v in enumerate(totals) if v >= best - 1e-9)]
    return _Evaluation(legal, totals, ends, used, choice, work[0])


# -- hints ------------------------------------------------------------------------------------


def hint(view: SeatView, *, samples: int = HINT_SAMPLES, seed: int | None = 0,
         level: str = "normal") -> Hint:
    """Normal's choice for ``view`` and, per legal action, the chance of each outcome.

    Decided from ``view`` alone (what its seat may know) and ``seed``: two deals that look
    the same to the seat give the same hint. Raises ``ValueError`` when the seat has nothing
    to decide."""
    ev = _evaluate(view, level, samples, seed)
    if not ev.samples:
        actions = tuple(ActionHint(a, 0.0, ()) for a in ev.legal)
    else:
        actions = tuple(ActionHint(a, ev.value(j), ev.chances(j))
                        for j, a in enumerate(ev.legal))
    return Hint(view.seat, ev.choice, actions, ev.samples)


# -- reviews ----------------------------------------------------------------------------------


def review(record: Mapping[str, Any] | GameRecord, seat: int, *,
           samples: int = REVIEW_SAMPLES, seed: int | None = 0, level: str = "hard",
           work_cap: int | None = REVIEW_WORK) -> list[Decision]:
    """Hard's review of every decision ``seat`` made in a (finished) hand's ``record``: the
    value of the action played against the best, each seen from the seat's view at that
    moment. Out-of-turn actions (a partner signal) are not decisions and are left out.
    Deterministic given ``seed``. Raises ``engine.record.ReplayError`` for a bad record.
    ``work_cap``: see ``REVIEW_WORK`` (None: all ``samples`` always).

    The same as ``review_decision`` for each of ``decisions(record, seat)``, which lets a
    caller spread a review over several short tasks."""
    return [_decide(hand, seat, index, action, level, samples, seed, work_cap)
            for index, hand, action in _decision_points(record, seat)]


def decisions(record: Mapping[str, Any] | GameRecord, seat: int) -> list[int]:
    """Indexes in the record's actions of the decisions ``seat`` made."""
    return [index for index, _, _ in _decision_points(record, seat)]


def review_decision(record: Mapping[str, Any] | GameRecord, seat: int, index: int, *,
                    samples: int = REVIEW_SAMPLES, seed: int | None = 0, level: str = "hard",
                    work_cap: int | None = REVIEW_WORK) -> Decision:
    """The review of one decision: ``index`` must be one of ``decisions(record, seat)``."""
    for i, hand, action in _decision_points(record, seat, stop=index):
        if i == index:
            return _decide(hand, seat, index, action, level, samples, seed, work_cap)
    raise ValueError(f"action {index} is no decision of seat {seat}")


def _decision_points(record: Mapping[str, Any] | GameRecord, seat: int,
                     stop: int | None = None) -> Iterator[tuple[int, Hand, Action]]:
    """Each decision of ``seat``: its index, the hand just before it, the action taken."""
    # Replayed whole first, so that a bad record is refused before any search runs.
    if not 0 <= seat < replay(record).n:
        raise ValueError(f"there is no seat {seat}")
    rec = record if isinstance(record, GameRecord) else GameRecord.model_validate(record)
    hand = start(rec)
    for index, obj in enumerate(rec.actions):
        if stop is not None and index > stop:
            return
        actor = obj["seat"]
        action = action_from_json(obj)
        if actor == seat and action in hand.legal_actions(seat) and seat in hand.actors():
            yield index, hand, action
        hand.apply(actor, action)


def _decide(hand: Hand, seat: int, index: int, played: Action, level: str, samples: int,
            seed: int | None, work_cap: int | None) -> Decision:
    trick = len(hand.tricks)
    view = seat_view(hand, seat)
    if len(view.legal) == 1:
        return Decision(index, trick, played, played, None, None, 0.0, True, False)
    ev = _evaluate(view, level, samples, seed, work_cap)
    if not ev.samples:
        return Decision(index, trick, played, ev.choice, None, None, 0.0, False, False)
    j_played = ev.legal.index(played)
    j_best = ev.legal.index(ev.choice)
    played_value, best_value = ev.value(j_played), ev.value(j_best)
    # Equal totals are ties: the search's choice is then the action played if it ties.
    if played_value >= best_value - 1e-9:
        j_best, best_value = j_played, played_value
    cost = round(best_value - played_value, 6)
    return Decision(
        index, trick, played, ev.legal[j_best], played_value, best_value, cost, False,
        cost >= MISTAKE_COST, ev.chances(j_played), ev.chances(j_best), ev.samples,
    )


# -- another card: the analysis board -----------------------------------------------------


def play_out(record: Mapping[str, Any] | GameRecord, index: int, action: Action, *,
             level: str = "hard", seed: int | None = 0) -> dict[str, Any]:
    """A finished hand played again from its ``index``-th action with ``action`` in its
    place, the computers of ``level`` playing every seat from there on, each from its own
    view: what would have happened (the analysis board). Returns the new hand's record.

    Only a finished hand's full record is accepted: its hidden cards are public once it is
    over, never while it is in play (``ValueError``, as for an ``action`` that was not
    legal there or an ``index`` outside the record). Deterministic given ``seed``.

    >>> from engine import Match, make_rules, to_record
    >>> hand = Match(make_rules("filicau"), seed=3).deal()
    >>> players = [make_player("easy", seed=s) for s in range(4)]
    >>> while not hand.finished:
    ...     seat = hand.actors()[0]
    ...     hand.apply(seat, players[seat].choose(seat_view(hand, seat)))
    >>> record = to_record(hand)
    >>> first = start(record)
    >>> other = first.legal_actions()[-1]
    >>> again = play_out(record, 0, other, level="easy")
    >>> again["actions"][0] == {"seat": first.to_move, **action_to_json(other)}
    True
    """
    whole = replay(record)
    if not whole.finished:
        raise ValueError("only a finished hand can be played again: its cards are hidden "
                         "while it is in play")
    rec = record if isinstance(record, GameRecord) else GameRecord.model_validate(record)
    if not 0 <= index < len(rec.actions):
        raise ValueError(f"the record has no action {index}")
    hand = start(rec)
    for obj in rec.actions[:index]:
        hand.apply(obj["seat"], action_from_json(obj))
    seat = rec.actions[index]["seat"]
    if action not in hand.legal_actions(seat):
        raise ValueError(f"{action} is not legal for seat {seat} there")
    hand.apply(seat, action)
    players = [make_player(level, seed=None if seed is None else seed * 10 + s, timed=False)
               for s in range(hand.n)]
    while not hand.finished:
        actor = hand.actors()[0]
        hand.apply(actor, players[actor].choose(seat_view(hand, actor)))
    return to_record(hand)


__all__ = [
    "MISTAKE_COST",
    "REVIEW_VERSION",
    "REVIEW_WORK",
    "ActionHint",
    "Chance",
    "Decision",
    "Hint",
    "Outcome",
    "decisions",
    "hint",
    "play_out",
    "review",
    "review_decision",
    "review_from_json",
    "review_to_json",
]
