"""A table as the web pages draw it: the protocol's ``TableState``, worded in the server's
language by the voice (``bot.voice``) — the same words as the table message, as spans.

Everything here is built from a ``PublicView`` (``engine.view.public_view``) and the table's
stored rows (``bot.voice.table.Table.from_rows``: who sat where, the names the table knows):
the data a page receives cannot hold a card its viewer may not see, because such a card is
not in the object it was made from.

A replay (``replay_steps``) is made from a finished hand's record only: once a hand is over,
everybody may see every card of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.voice import Text, say, words
from bot.voice.table import Table
from bot.voice.text import fill
from bot.voice.wire import spans
from bot.web.protocol import Move, ReplayState, TableState
from engine import Action, Hand, PublicView, action_from_json, public_view
from engine.ai.analysis import Decision
from engine.cards import SUIT_LETTERS, code
from engine.hand import PLAYING
from engine.record import start


def _trick(leader: int, cards: Sequence[int], players: int) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) % players, "card": code(c)} for i, c in enumerate(cards)]


def seat_state(table: Table, v: PublicView, seat: int) -> dict[str, Any]:
    """A seat as the table shows it (``SeatState``'s data)."""
    return {"name": table.player(seat).name, "team": words.seat_team(table, v, seat),
            "role": words.seat_role_of(v, seat),
            "badges": spans(Text.join(", ", words.seat_badges(table, v, seat))),
            "cards": v.hand_sizes[seat],
            "taken": None if table.fixed_teams or not v.taken else v.taken[seat]}


def trump_state(v: PublicView) -> dict[str, Any] | None:
    text = words.trump(v, shown=False)
    if text is None:
        return None
    order = v.order
    suit = None if order is None or order.trump_suit is None else SUIT_LETTERS[
        order.trump_suit]
    return {"suit": suit, "text": spans(text)}


def table_state(table: Table, v: PublicView) -> TableState:
    """What a page draws of a table at one moment (no timer: see ``bot.web.live``)."""
    return TableState.model_validate(state_data(table, v))


def state_data(table: Table, v: PublicView) -> dict[str, Any]:
    """``table_state``'s data: built as plain data, on every move, and read by the model
    once (in pydantic's core: a model built part by part in Python costs several times
    more)."""
    n = v.players
    last = v.last_trick
    winner = None
    if v.trick and v.order is not None:
        winner = (v.leader + v.order.winner(v.trick)) % n
    status = words.status_of(v)
    points = words.team_points(table, v)
    return {
        "title": table.title,
        "heading": spans(words.heading(table)),
        "number": table.number,
        "players": n,
        "seats": [seat_state(table, v, seat) for seat in range(n)],
        "turn": [] if v.finished else list(v.actors),
        "phase": spans(words.phase_name(v)),
        "trump": trump_state(v),
        "shown": [code(c) for c in v.shown],
        "trick": _trick(v.leader, v.trick, n),
        "winner": winner,
        "last": None if last is None else {
            "cards": _trick(last.leader, last.cards, n), "winner": last.winner},
        "points": None if points is None else spans(points),
        "facts": [spans(x) for x in words.facts(table, v)],
        "match": None if status.score is None else spans(words.score(table, status.score)),
        "unplayed": ([[code(c) for c in cs] for cs in v.unplayed]
                     if v.finished and v.unplayed and any(v.unplayed) else None),
        "result": None if v.result is None else [
            spans(x) for x in words.result_lines(table, v.result)],
    }


def lobby_state(table: Table) -> TableState:
    """A table before its first deal: its game and who sits where."""
    return TableState.model_validate({
        "title": table.title, "heading": spans(Text(table.title)), "number": 0,
        "players": table.players, "lobby": True, "note": spans(say("web.lobby")),
        "seats": [{"name": table.person(x).name} for x in range(table.players)]})


def move(table: Table, seat: int, action: Action | None) -> Move:
    return Move.model_validate({
        "seat": seat, "text": spans(words.move(table, seat, action)),
        "card": code(action.value) if action is not None and action.kind == "card" else None})


@dataclass(frozen=True)
class Step:
    """The table after ``at`` actions of a hand: its state, and the move that led there."""

    at: int
    state: TableState
    move: Move | None


def step(table: Table, hand: Hand) -> Step:
    """The step a page shows after the hand's latest action."""
    v = public_view(hand)
    last = None
    if v.actions:
        seat, action = v.actions[-1]
        last = move(table, seat, action)
    return Step(len(v.actions), table_state(table, v), last)


def trick_ends(record: Mapping[str, object]) -> list[int]:
    """The numbers of actions after which a delayed spectator's view may stand: the deal
    (0), the end of the choices before play, each trick taken, and the end of the hand.

    >>> from engine import make_rules
    >>> from engine.record import to_record
    >>> import random
    >>> rules = make_rules("filicau")
    >>> pack = list(rules.pack); random.Random(3).shuffle(pack)
    >>> hand = Hand(rules, 0, pack)
    >>> while not hand.finished:
    ...     seat = hand.actors()[0]
    ...     hand.apply(seat, hand.legal_actions(seat)[0])
    >>> ends = trick_ends(to_record(hand))
    >>> ends[:3], ends[-1] == len(hand.actions)
    ([0, 4, 8], True)
    """
    hand = start(record)
    out = [0]
    tricks, phase = 0, hand.phase
    actions = record["actions"]
    assert isinstance(actions, list)
    for i, obj in enumerate(actions, start=1):
        hand.apply(obj["seat"], action_from_json(obj))
        if len(hand.tricks) != tricks or hand.finished or (
                hand.phase == PLAYING and phase != PLAYING):
            out.append(i)
        tricks, phase = len(hand.tricks), hand.phase
    return out


def delayed_count(record: Mapping[str, object]) -> int:
    """How many actions of a hand a delayed spectator sees now: those up to the last trick
    taken (or the choices before play, or the hand's end), never the trick in progress."""
    return trick_ends(record)[-1]


# -- replays ------------------------------------------------------------------------------------


def replay_steps(table: Table, record: Mapping[str, object], *,
                 reviews: Mapping[int, list[Decision]]) -> list[ReplayState]:
    """A finished hand trick by trick, every hand face up: the deal, then one step per
    trick (its cards at their seats, who took it, the hands after it), the last with the
    result. ``reviews``: the stored reviews by seat, whose costliest decisions are noted at
    their tricks."""
    hand = start(record)
    n = hand.n
    steps: list[ReplayState] = []
    moves: list[Text] = []
    notes = review_notes(table, hand, reviews)

    def snapshot(trick: dict[str, Any] | None) -> ReplayState:
        return ReplayState.model_validate({
            **state_data(table, public_view(hand)), "turn": [],
            "hands": [[code(c) for c in hand.sort_hand(cards)] for cards in hand.hands],
            "trick_shown": trick, "moves": [spans(m) for m in moves],
            "notes": [spans(x) for x in notes.get(len(steps), [])]})

    steps.append(snapshot(None))
    tricks = 0
    actions = record["actions"]
    assert isinstance(actions, list)
    for obj in actions:
        seat = obj["seat"]
        action = action_from_json(obj)
        hand.apply(seat, action)
        moves.append(words.move(table, seat, action))
        if len(hand.tricks) != tricks:
            tricks = len(hand.tricks)
            last = hand.tricks[-1]
            steps.append(snapshot({"cards": _trick(last.leader, last.cards, n),
                                   "winner": last.winner}))
            moves = []
    if moves or len(steps) == 1:
        steps.append(snapshot(None))
    return steps


#: How many of a seat's decisions a replay notes: the costliest ones, where it lost most.
NOTES_PER_SEAT = 2


def review_notes(table: Table, hand: Hand, reviews: Mapping[int, list[Decision]]
                 ) -> dict[int, list[Text]]:
    """Notes by replay step (1: the first trick): each reviewed seat's costliest mistakes,
    worded as the review words them."""
    out: dict[int, list[Text]] = {}
    v = public_view(hand)
    for seat, decisions in sorted(reviews.items()):
        costly = sorted((d for d in decisions if not d.forced and d.cost > 0
                         and d.played != d.best), key=lambda d: -d.cost)[:NOTES_PER_SEAT]
        for d in costly:
            out.setdefault(d.trick + 1, []).append(words.review_note(table, v, seat, d))
    return out


def plain_text(value: str) -> str:
    """Kept for ``bot.activity`` until it words its hint with ``bot.voice.words.hint``: a
    sentence as the voice reads the catalogs' own marks (``bot.voice.text.fill``), plain.

    >>> plain_text("Press **Next hand** or `/table new`")
    'Press Next hand or /table new'
    """
    return fill(value.replace("{", "{{").replace("}", "}}"), {}).plain
