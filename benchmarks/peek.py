"""What placing the hidden cards better is worth: the arena of a Hard that peeks.

``python -m benchmarks.peek --share 0.25 --game filicau --deals 3000 --seed 21 --workers 2
--log FILE`` plays duplicate deals (``engine.tools.arena``) of ``peek`` against ``hard_unread``
(``--b``). ``peek`` is Hard unread, except that in each of its samples every hidden card is
placed with its true holder with chance ``--share``, drawn afresh each sample, and only the
others are guessed (consistently with the view, as ever). So a hidden card lies with its true
holder in ``share + (1 - share) * p`` of the samples, where the unread guesses put it there in
``p``: the chance that ``benchmarks.reading_model`` reports as *P(true holder)*. Share 0 is
``hard_unread`` decision for decision, share 1 ``hard_open``.

It asks how far a reader must move P(true holder) to close a given part of the open-hand
gap (issue 46: reading closes about a ninth of it in Filicău, the goal is a third). A reader
moves the chances unevenly, by what the play shows; the peek moves every card's alike, so
this maps the size of the shift, not its shape.

``--when play`` peeks only in the card play, ``--when choices`` only in the choices Hard
searches before it (``Rules.searched_choices``: in Bavarian Schafkopf the game and the
doublings); elsewhere it guesses as Hard unread. With ``--share 1`` the two split the
open-hand gap into what seeing the cards is worth in the play and in the choices before it.
``--first N`` starts at deal N of the seed, as the arena's does.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable

from engine.ai import SEARCH, OpenHandPlayer, SearchPlayer, make_player
from engine.cards import Card, code
from engine.determinize import hand_from_view, plays_so_far
from engine.hand import Hand
from engine.inference import Knowledge, infer, sample
from engine.players import Player
from engine.rules import GAMES
from engine.rules.base import Rules
from engine.tools.arena import arena, format_arena
from engine.view import SeatView

PEEK = "peek"
#: When a peeking player peeks: in every decision, in the card play only, in the searched
#: choices before it only.
WHEN = ("all", "play", "choices")


class PeekPlayer(OpenHandPlayer):
    """Hard unread whose samples put each hidden card with its true holder with chance
    ``share`` (the arena shows it the hand, as ``hard_open``).

    >>> from engine import Match, make_rules, seat_view
    >>> hand = Match(make_rules("filicau"), seed=3).deal()
    >>> player = PeekPlayer("peek", share=0.5, samples=4)
    >>> player.see(hand)
    >>> player.choose(seat_view(hand, hand.to_move)) in hand.legal_actions()
    True
    """

    def __init__(self, name: str, *, share: float, when: str = "all",
                 **settings: object) -> None:
        super().__init__(name, **settings)  # type: ignore[arg-type]
        if when not in WHEN:
            raise ValueError(f"when is one of {', '.join(WHEN)}, not {when!r}")
        self.share = share
        self.when = when

    def peeks_in(self, view: SeatView) -> bool:
        """Does it peek in this decision (``when``)?"""
        if self.when == "all":
            return True
        return (view.phase in view.rules.searched_choices) == (self.when == "choices")

    def guesser(self, view: SeatView) -> Callable[[random.Random], Hand]:
        share = self.share if self.peeks_in(view) else 0.0
        if share <= 0.0:
            return SearchPlayer.guesser(self, view)  # no card seen: hard_unread's guesses
        if share >= 1.0:
            return super().guesser(view)  # every card seen: hard_open's sample
        true = self.seen
        if true is None or len(true.actions) != len(view.actions) or \
                true.to_move != view.to_move:
            raise ValueError("a peeking player must be shown the hand it decides in")
        if type(view.rules).determinize is not Rules.determinize:
            # Such a game rebuilds a hand from its own knowledge, the guess only seeding
            # the draw: a peek at some cards would place none of them.
            raise ValueError(f"{view.rules.title} can be peeked at wholly or not at all")
        knowledge = infer(view)
        holder = {c: s for s, cards in enumerate(true.hands) if s != view.seat for c in cards}
        # The peeks draw from a stream of their own, apart from the guesses'.
        history = " ".join(code(c) for _, c in plays_so_far(view))
        peeks = random.Random(f"peek|{self.seed}|{view.seat}|{view.phase}|{history}")

        def guess(rng: random.Random) -> Hand:
            shown = {c for c in knowledge.unknown
                     if peeks.random() < share and c in holder}
            return hand_from_view(view, sample(_knowing(knowledge, shown, holder), rng))

        return guess


def _knowing(k: Knowledge, shown: set[Card], holder: dict[Card, int]) -> Knowledge:
    """``k`` with the ``shown`` cards known to be with their ``holder``."""
    if not shown:
        return k
    known = [list(cards) for cards in k.known]
    need = list(k.need)
    for c in k.unknown:
        if c in shown:
            known[holder[c]].append(c)
            need[holder[c]] -= 1
    unknown = tuple(c for c in k.unknown if c not in shown)
    return Knowledge(k.seat, unknown, tuple(map(tuple, known)), tuple(need), k.void, k.suit)


def make(level: str, seed: int | None = 0, *, timed: bool = True) -> Player:
    """``make_player``, and ``peek=SHARE`` or ``peek=SHARE@WHEN``: a ``PeekPlayer`` with Hard
    unread's settings (the level is a name, so that the arena's workers can make it)."""
    name, _, share = level.partition("=")
    if name != PEEK:
        return make_player(level, seed, timed=timed)
    share, _, when = share.partition("@")
    settings = dict(SEARCH["hard_unread"])
    if not timed:
        settings["budget"] = None
    return PeekPlayer(PEEK, share=float(share), when=when or "all", seed=seed, **settings)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.peek", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--share", type=float, required=True,
                   help="the chance that a sample places a hidden card with its holder")
    p.add_argument("--when", default="all", choices=WHEN,
                   help="peek in every decision, in the card play only or in the choices only")
    p.add_argument("--b", default="hard_unread", help="the level it plays against")
    p.add_argument("--game", default="filicau", choices=sorted(GAMES))
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--first", type=int, default=0, help="start at this deal of the seed")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--log", default=None, help="each deal's result to this file (JSONL)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    args = p.parse_args(argv)
    if not 0.0 <= args.share <= 1.0:
        p.error("--share is a chance, from 0 to 1")
    if args.first < 0:
        p.error("--first is a deal's number, 0 or more")
    level = f"{PEEK}={args.share}" + ("" if args.when == "all" else f"@{args.when}")
    log = None if args.log is None else open(args.log, "w", encoding="utf-8")  # noqa: SIM115
    try:
        result = arena(args.game, level, args.b, args.deals, seed=args.seed,
                       workers=args.workers, err=None, log=log, make=make, first=args.first)
    finally:
        if log is not None:
            log.close()
    print(json.dumps(result) if args.json else format_arena(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
