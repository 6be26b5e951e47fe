"""A table as the web pages draw it: plain JSON data, worded in the server's language.

Everything here is built from a ``PublicView`` (``engine.view.public_view``): the data a page
receives cannot hold a card its viewer may not see, because such a card is not in the object
it was made from. Wording reuses ``bot.render`` (the same sentences as the table message),
with each mention of a person replaced by the name the table knows, since a web page cannot
show Discord's mentions.

A replay (``replay_steps``) is made from a finished hand's record only: once a hand is over,
everybody may see every card of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot import names, render
from bot.seats import is_computer
from bot.session import TableSession
from bot.store import HandRow, Member, Store, TableRow
from bot.texts import card_label, has_text, suit_label, t, team_name
from engine import Action, Hand, PublicView, action_from_json, public_view
from engine.ai.analysis import Decision
from engine.cards import SUIT_LETTERS, code
from engine.hand import PLAYING
from engine.record import start

_MENTION = re.compile(r"<@!?(\d+)>")
#: Discord's markdown a sentence of the catalogs may carry (bold, code): plain on a page.
_MARKDOWN = re.compile(r"\*\*|__|`")


def plain_text(value: str) -> str:
    """A catalog sentence for a page: Discord's bold and code marks dropped.

    >>> plain_text("Press **Next hand** or `/table new`")
    'Press Next hand or /table new'
    """
    return _MARKDOWN.sub("", value)


@dataclass(frozen=True)
class PageNames:
    """Who sits where in a hand, and how the table names them: a ``TableSession`` made from
    the stored rows (no I/O, no lock: the wording helpers of ``bot.render`` read it)."""

    session: TableSession
    names: Mapping[Member, str]

    def text(self, value: str) -> str:
        """A sentence of ``bot.render`` with each person's mention replaced by their name."""
        return plain_text(_MENTION.sub(lambda m: self.person(m.group(1)), value))

    def person(self, member: str) -> str:
        name = self.names.get(member)
        return name if name else t("web.player", number=member[-4:])

    def name(self, seat: int) -> str:
        member = self.session.seats[seat]
        if member is None:
            return t("lobby.empty")
        if is_computer(member):
            return self.text(names.mention(member, seat))
        return self.person(member)


def seating(row: TableRow, hand: HandRow | None, store: Store) -> PageNames:
    """The seating of ``hand`` (who sat when it was dealt), else the table's seats now."""
    members = hand.header.get("members") if hand is not None else None
    seats = list(members) if isinstance(members, list) else list(row.seats)
    session = TableSession(row.model_copy(update={"seats": seats}), store)
    if hand is not None:
        session.hand_number = hand.number
    names = row.runtime.get("names", {})
    return PageNames(session, names if isinstance(names, dict) else {})


def card_code(c: int) -> str:
    return code(c)


def _trick(leader: int, cards: Sequence[int], players: int) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) % players, "card": code(c)} for i, c in enumerate(cards)]


def move_text(seating: PageNames, v: PublicView, seat: int, action: Action | None) -> str:
    """One move as the move list shows it: who, and the card or choice (a choice only its
    player knows, such as cards laid face down, is only said to have been made)."""
    s = seating.session
    who = seating.name(seat)
    if action is None:
        return t("web.move_hidden", user=who)
    if action.kind == "card":
        return t("web.move", user=who, what=card_label(action.value))
    return t("web.move", user=who, what=seating.text(render.action_label(s, action)))


def table_state(seating: PageNames, v: PublicView, *, title: str) -> dict[str, Any]:
    """What a page draws of a table at one moment (no timer: see ``bot.web.live``)."""
    s = seating.session
    n = v.players
    finished = v.finished
    per_seat = not s.fixed_teams
    seats = []
    for seat in range(n):
        team = (team_name(seat % 2) if s.fixed_teams
                else None if v.team[seat] is None else team_name(v.team[seat] or 0))
        seats.append({
            "name": seating.name(seat),
            "badges": seating.text(render.seat_badges(s, v, seat)).strip(" ()"),
            "team": team,
            "cards": v.hand_sizes[seat],
            "taken": v.taken[seat] if per_seat and v.taken else None,
        })
    last = v.last_trick
    winner = None
    if v.trick and v.order is not None:
        winner = (v.leader + v.order.winner(v.trick)) % n
    status = v.result.status if v.result else v.status
    state: dict[str, Any] = {
        "title": title,
        "heading": t("table.title", game=title, number=s.hand_number),
        "number": s.hand_number,
        "players": n,
        "seats": seats,
        "turn": [] if finished else list(v.actors),
        "phase": "" if v.phase == PLAYING or finished else (
            t(f"phase.{v.phase}") if has_text(f"phase.{v.phase}") else v.phase),
        "trump": None if v.trump is None else {
            "suit": SUIT_LETTERS[v.trump], "label": suit_label(v.trump)},
        "shown": [code(c) for c in v.shown],
        "trick": _trick(v.leader, v.trick, n),
        "winner": winner,
        "last": None if last is None else {
            "cards": _trick(last.leader, last.cards, n), "winner": last.winner},
        "points": (t("table.points_line", a=v.team_points[0], b=v.team_points[1])
                   if s.fixed_teams and len(v.team_points) == 2 else None),
        "facts": [seating.text(line) for line in render.info_lines(s, v)],
        "match": (seating.text(render.score_text(s, status.score))
                  if status.score is not None else None),
        "unplayed": ([[code(c) for c in cards] for cards in v.unplayed]
                     if finished and v.unplayed and any(v.unplayed) else None),
        "result": None if v.result is None else result_lines(seating, v),
    }
    return state


def result_lines(seating: PageNames, v: PublicView) -> list[str]:
    """The result as the result post says it (without its timers)."""
    assert v.result is not None
    return [seating.text(line) for line in render.result_lines(seating.session, v.result)]


@dataclass(frozen=True)
class Step:
    """The table after ``at`` actions of a hand: its state, and the move that led there."""

    at: int
    state: dict[str, Any]
    move: dict[str, Any] | None


def step(seating: PageNames, hand: Hand, *, title: str) -> Step:
    """The step a page shows after the hand's latest action."""
    v = public_view(hand)
    move = None
    if v.actions:
        seat, action = v.actions[-1]
        move = {"seat": seat, "text": move_text(seating, v, seat, action),
                "card": code(action.value) if action is not None and action.kind == "card"
                else None}
    return Step(len(v.actions), table_state(seating, v, title=title), move)


def trick_ends(record: Mapping[str, Any]) -> list[int]:
    """The numbers of actions after which a delayed spectator's view may stand: the deal
    (0), the end of the choices before play, each trick taken, and the end of the hand.

    >>> from engine import make_rules
    >>> from engine.record import to_record
    >>> import random
    >>> from engine import Hand
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
    for i, obj in enumerate(record["actions"], start=1):
        hand.apply(obj["seat"], action_from_json(obj))
        if len(hand.tricks) != tricks or hand.finished or (
                hand.phase == PLAYING and phase != PLAYING):
            out.append(i)
        tricks, phase = len(hand.tricks), hand.phase
    return out


def delayed_count(record: Mapping[str, Any]) -> int:
    """How many actions of a hand a delayed spectator sees now: those up to the last trick
    taken (or the choices before play, or the hand's end), never the trick in progress."""
    return trick_ends(record)[-1]


# -- replays ------------------------------------------------------------------------------------


def replay_steps(seating: PageNames, record: Mapping[str, Any], *, title: str,
                 reviews: Mapping[int, list[Decision]]) -> list[dict[str, Any]]:
    """A finished hand trick by trick, every hand face up: the deal, then one step per
    trick (its cards at their seats, who took it, the hands after it), the last with the
    result. ``reviews``: the stored reviews by seat, whose costliest decisions are noted at
    their tricks."""
    hand = start(record)
    n = hand.n
    steps: list[dict[str, Any]] = []
    moves: list[str] = []
    notes = review_notes(seating, hand, reviews)

    def snapshot(trick: dict[str, Any] | None) -> dict[str, Any]:
        v = public_view(hand)
        state = table_state(seating, v, title=title)
        state["hands"] = [[code(c) for c in hand.sort_hand(cards)] for cards in hand.hands]
        state["trick_shown"] = trick
        state["moves"] = list(moves)
        state["notes"] = notes.get(len(steps), [])
        state["turn"] = []
        return state

    steps.append(snapshot(None))
    tricks = 0
    for obj in record["actions"]:
        seat = obj["seat"]
        action = action_from_json(obj)
        hand.apply(seat, action)
        v = public_view(hand)
        moves.append(move_text(seating, v, seat, action))
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


def review_notes(seating: PageNames, hand: Hand, reviews: Mapping[int, list[Decision]]
                 ) -> dict[int, list[str]]:
    """Notes by replay step (1: the first trick): each reviewed seat's costliest mistakes,
    worded as the review words them."""
    out: dict[int, list[str]] = {}
    s = seating.session
    v = public_view(hand)
    for seat, decisions in sorted(reviews.items()):
        costly = sorted((d for d in decisions if not d.forced and d.cost > 0
                         and d.played != d.best), key=lambda d: -d.cost)[:NOTES_PER_SEAT]
        for d in costly:
            text = t("web.note", user=seating.name(seat), note=seating.text(t(
                "review.better", action=render.action_text(s, v, d.played),
                best=render.action_text(s, v, d.best), cost=f"{d.cost:.2f}")))
            out.setdefault(d.trick + 1, []).append(text)
    return out
