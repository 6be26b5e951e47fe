"""What every game's rules provide: data (pack, deal, points, trumps, duties) plus small hooks.

A game is a ``Rules`` subclass that sets data and overrides the hooks it needs; the hand state
machine (``engine.hand``) and the match (``engine.match``) call them. Nothing here is a copy of
the trick-taking loop: a game changes what is legal or how a hand is settled, never how cards
are played.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict

from engine.actions import Action, IllegalAction, action_to_json
from engine.cards import OVER, OVERS, Card, rank_of, suit_of
from engine.hand import FINISHED, HandResult
from engine.status import RecordError, Status

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.view import SeatView
    from engine.words import KindWords


#: How much the card-point difference (as a share of all points) counts beside a hand's
#: ``Rules.outcome_value`` (±1) when the computer players value a hand: more points are
#: better, all else equal. A game where fewer points are better ("least") corrects for it.
POINTS_WEIGHT = 0.1


def _getter(indexes: list[int]) -> Callable[[Sequence[Card]], tuple[Card, ...]]:
    """Picks these pack indexes at C speed (``itemgetter`` of one index gives no tuple)."""
    if len(indexes) == 1:
        i = indexes[0]
        return lambda pack: (pack[i],)
    return itemgetter(*indexes)


def flag_false(action: Action) -> IllegalAction:
    """A flag action (``pass``, ``take``, ``first_trick``...) is only ever ``true``."""
    return IllegalAction(
        "flag_false", f"{action.kind} is written true: {action.kind} false is no action",
        kind=action.kind,
    )


class Options(BaseModel):
    """A game's per-table options. Unknown options are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: Stop the hand once no remaining play can change its status outcome.
    early_end: bool = True


class Rules:
    #: The game's key in records and commands.
    game: ClassVar[str]
    title: ClassVar[str]
    #: The faces the game's cards are drawn with where it is usually played: ``"german"``
    #: (acorns, leaves, hearts, bells) or ``"french"`` (clubs, spades, hearts, diamonds; the
    #: same codes: E clubs, G spades, S diamonds, the Ober the Queen, the Unter the Jack).
    #: Only the pictures read it (``bot.cardart``).
    faces: ClassVar[str] = "german"
    options_model: ClassVar[type[Options]] = Options
    #: Rulings the bot's rules summary lists (RULINGS.md's wording, shortened).
    rulings: ClassVar[tuple[str, ...]] = ()
    #: What the players aim for in a hand, in one plain English sentence (the terminal game
    #: says it at the start; the bot words goals from its catalogs). Empty: the terminal
    #: says only what the cards count.
    goal: ClassVar[str] = ""
    #: How this game's own kinds of decision read in English, by action kind (the terminal
    #: game's words, ``engine.words``; the bot words them from its catalogs). A kind not
    #: listed is worded from its record notation.
    kind_words: ClassVar[Mapping[str, KindWords]] = {}
    #: Why a hand stopped before its last trick, by ``HandResult.early_reason``, as an English
    #: clause ("the Tout was lost at the first trick the opponents took"); a hand stopped
    #: because no card could change the outcome has no reason.
    early_reasons: ClassVar[Mapping[str, str]] = {}
    #: What ``Status.score`` is: ``"match"``, the score of a match (or of hands adding up),
    #: or ``"balance"``, each player's running balance from hand to hand, paid between the
    #: players, as Bavarian Schafkopf is played. The bot and the terminal word it.
    score_kind: ClassVar[str] = "match"

    #: True: the seats sit in fixed partnerships (team = seat % teams) that the lobby seats and
    #: the bot keeps status for. False: teams form in each deal (a called partner, a
    #: declarer against the rest); the lobby just seats players and status belongs to the
    #: group of players.
    fixed_teams: ClassVar[bool] = True
    #: True when ``Status.score`` and ``extra["scores"]`` hold one entry per seat (players
    #: scored alone, as in Schafkopf); False: one per team.
    score_by_seat: ClassVar[bool] = False
    #: What the game calls the side below the masters: Filicău's ``slaves``, the others'
    #: ``servants`` (the bot's catalogs word it).
    losers: ClassVar[str] = "servants"
    #: A badge the side below the masters wears until it wins (Filkó with Hats: ``hat``);
    #: the bot's standings show it.
    losers_badge: ClassVar[str | None] = None

    players: int = 4
    teams: int = 2
    pack: tuple[Card, ...]
    #: Packet sizes of one dealing round each, e.g. (4, 4): four each, twice round.
    packets: tuple[int, ...]
    points: tuple[int, ...]
    total_points: int
    #: Permanent top trumps, highest first.
    top_trumps: tuple[Card, ...] = OVERS
    #: The trump suit a hand starts with when the game fixes one (the Schafkopf games' bells;
    #: a solo may name another), or None when each hand fixes its own (a shown card, a call,
    #: a binding). Read by ``engine.ranking``, not by the play.
    usual_trump: ClassVar[int | None] = None
    must_trump: bool = True
    must_beat: bool = False
    #: Set when ``restrict_play`` narrows the legal cards (kept off the hot path otherwise).
    restricts_play: bool = False
    #: Called after each completed trick, or None.
    after_trick: Callable[[Hand], None] | None = None
    #: Action kinds a seat may take out of turn while the hand runs (a partner signal): see
    #: ``free_legal``. They are recorded like any action but change no turn.
    free_kinds: frozenset[str] = frozenset()
    #: Phases before play whose choices a search player may search as well as the play
    #: (``determinize`` rebuilds the hand in them): taking the widow, say. Players that do
    #: not search choices (``SearchPlayer(choices=False)``) leave them to ``suggest``.
    searched_choices: ClassVar[frozenset[str]] = frozenset()
    #: The ``Status`` fields this game uses; ``check_status`` refuses any other being set.
    status_fields: ClassVar[frozenset[str]] = frozenset({"masters", "servant"})

    def __init__(self, options: Options) -> None:
        self.options = options
        self.early_end = options.early_end
        # The hand reads these on every card; as instance attributes they take CPython's
        # fast path (class attributes read through an instance do not).
        self.points = self.points
        #: ``points[card]`` as a fast callable (a list's ``__getitem__``): the hand sums
        #: each trick with it.
        self.point_of: Callable[[Card], int] = list(self.points).__getitem__
        self.must_trump = self.must_trump
        self.must_beat = self.must_beat
        self.restricts_play = self.restricts_play
        self.after_trick = self.after_trick
        self.free_kinds = self.free_kinds
        #: Follow suit and trump are the only duties: the hand takes its fastest path.
        self.plain_play = not (self.must_beat or self.restricts_play)
        self.pack_set = frozenset(self.pack)
        #: Fixed teams sit alternately (RULINGS.md, "Seats"); games with other teams reassign.
        self.seat_teams = tuple(s % self.teams for s in range(self.players))
        self._holders: dict[int, tuple[int, ...]] = {}
        self._dealers: dict[int, list[Callable[[Sequence[Card]], tuple[Card, ...]]]] = {}
        self._fixed: dict[Status, list[list[bool]]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the game's class and its options (views travel to worker processes);
        # the caches hold closures that do not pickle and are cheap to refill.
        return (_unpickled, (type(self), self.options.model_dump()))

    # -- dealing ---------------------------------------------------------------------------

    def holders(self, dealer: int) -> tuple[int, ...]:
        """``holders(dealer)[i]``: the seat that pack card ``i`` is dealt to."""
        known = self._holders.get(dealer)
        if known is not None:
            return known
        out: list[int] = []
        n = self.players
        for size in self.packets:
            for k in range(1, n + 1):
                out.extend([(dealer + k) % n] * size)
        self._holders[dealer] = tuple(out)
        return self._holders[dealer]

    def deal(self, pack: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards, in the order dealt."""
        getters = self._dealers.get(dealer)
        if getters is None:
            holders = self.holders(dealer)
            getters = self._dealers[dealer] = [
                _getter([i for i, h in enumerate(holders) if h == seat])
                for seat in range(self.players)
            ]
        return tuple([get(pack) for get in getters])

    def start(self, hand: Hand) -> None:
        """Fix trump (or open a bidding phase) once the cards are dealt."""
        raise NotImplementedError  # every game defines how trump is chosen

    def shown_from(self, hand: Hand, indexes: Sequence[int]) -> None:
        """Show pack cards at ``indexes`` in turn while they are Overs; the first card that
        is no Over gives trump its suit (the Filicău and Filkó way of fixing trump). RULINGS
        says "while it is an Over": a shown H7 under ``hearts_seven`` makes hearts trump."""
        for i in indexes:
            c = hand.pack[i]
            hand.shown.append(c)
            if rank_of(c) != OVER:
                hand.set_trump(suit_of(c))
                return
        raise RecordError("no card was found to fix trump")  # packs always hold one

    # -- status ----------------------------------------------------------------------------

    def check_status(self, status: Status) -> None:
        for name in ("masters", "servant", "teams", "trump", "leader", "score", "deals", "solos",
                     "pot"):
            if name not in self.status_fields and getattr(status, name) is not None:
                raise RecordError(f"{self.title} keeps no status.{name}")
        if status.masters is not None and not 0 <= status.masters < self.teams:
            raise RecordError(f"status.masters must be a team (0 to {self.teams - 1}) or null")

    def check_deal(self, dealer: int, status: Status) -> None:
        """Refuse a dealer that the status does not allow (a standing Servant deals). Called
        after ``check_status`` with a valid seat."""

    def check_match(
        self, status: Status, match_deals: int, *, swing: int, zero_sum: bool, start: int = 0,
    ) -> None:
        """Refuse a match status (per-seat ``score``, ``deals``) that no play reaches.

        ``match_deals``: the match's length (0: open-ended, which counts no deals). Every
        hand of a match of set length writes ``score`` and ``deals`` together; a seat's score
        starts at ``start`` and moves by at most ``swing`` a deal; with ``zero_sum`` what one
        seat wins the others pay, so the scores add up to ``start`` per seat. Called at
        record and status load, never per action.

        >>> from engine.rules import make_rules
        >>> make_rules("officers").check_status(Status(score=(2, -2)))
        >>> make_rules("officers").check_status(Status(score=(2, 1)))
        Traceback (most recent call last):
        ...
        engine.errors.RecordError: status.score must add up to 0: what one seat wins the others pay
        """
        score, deals, n = status.score, status.deals, self.players
        if score is not None and len(score) != n:
            raise RecordError(f"status.score must hold one number per seat ({n})")
        if not match_deals:
            if deals is not None:
                raise RecordError("status.deals needs a match of set length (the deals option)")
        else:
            if deals is not None and not 0 <= deals < match_deals:
                raise RecordError(
                    f"status.deals must be from 0 to {match_deals - 1} (deals in a match)")
            if (score is None) != (deals is None):
                raise RecordError("status.score and status.deals go together in a match of "
                                  "set length (every hand writes both)")
        if score is None:
            return
        if zero_sum and sum(score) != start * n:
            raise RecordError(f"status.score must add up to {start * n}: what one seat wins "
                              "the others pay")
        if deals is not None and any(abs(x - start) > swing * deals for x in score):
            raise RecordError(f"status.score cannot have moved more than {swing} a deal in "
                              f"{deals} deal(s)")

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        """What a final score would decide; ``early_end`` compares these."""
        raise NotImplementedError  # every game defines how a hand is scored

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        """How good ``outcome`` (as ``outcome`` returns it) is for ``team``, from -1 to 1: what
        computer players aim for. The default reads a ``Status`` outcome: being (or becoming)
        masters is 1, even 0, the other team masters -1, so that running away from slavery
        beats staying slaves and a 6-2 beats an 8-0 that makes all even. Games whose outcome
        is something else (a score, a ladder step) override this."""
        masters = outcome.masters if isinstance(outcome, Status) else None
        if masters is None:
            return 0.0
        return 1.0 if masters == team else -1.0

    def wants_points(self, hand: Hand, team: int) -> bool:
        """Does ``team`` try to take card points from here on? Not in Schafkopf's "least",
        where every point counts against its taker. The computer players' playouts duck for
        such a team (``engine.ai.search.aimed_playout``)."""
        return True

    def hand_value(self, hand: Hand, team: int) -> float:
        """How good a hand whose play is over is for ``team`` (about -8 to 8), for games
        whose result depends on more than the points per team (a contract chosen in the
        hand, its Laufende, doublings: Bavarian Schafkopf). The search players ask it
        instead of ``outcome_value`` only where a game overrides it."""
        raise NotImplementedError  # only games that override it are asked

    def position_key(self, hand: Hand) -> tuple[object, ...] | None:
        """For a game with hooks after each trick or duties beyond following suit: what
        besides the cards held, the leader, the points taken and the teams decides the rest
        of the hand's value from a trick's start (the search's transposition table,
        ``engine.ai.search.exact``); None: the position cannot be told apart, and is
        searched afresh each time."""
        return None

    def payouts(self, result: HandResult) -> tuple[float, ...] | None:
        """What each seat won or lost in the game's own units (its payout), where the
        arena should count that rather than ``outcome_value``; None: it should not."""
        return None

    def outcome_fixed(self, hand: Hand) -> bool:
        """Can no split of the points still out change the outcome?"""
        table = hand.pending.get("_fixed")
        if table is None:
            table = hand.pending["_fixed"] = self._fixed_table(hand.status)
        p0, p1 = hand.team_taken
        return table[p0][p1]

    def _fixed_table(self, status: Status) -> list[list[bool]]:
        """``table[p0][p1]``: is the outcome settled with these points taken? One table per
        status, computed once."""
        table = self._fixed.get(status)
        if table is None:
            total = self.total_points
            table = []
            for p0 in range(total + 1):
                row = []
                for p1 in range(total + 1 - p0):
                    left = total - p0 - p1
                    first = self.outcome(status, (p0 + left, p1))
                    row.append(all(self.outcome(status, (p0 + x, p1 + left - x)) == first
                                   for x in range(left)))
                table.append(row)
            self._fixed[status] = table
        return table

    def settle(self, hand: Hand) -> None:
        """Play is over: decide the result, or open a phase for what is still owed.

        The ``HandResult`` a game gives (through ``finish``) says what the bot shows and
        stores: ``points`` per team, the new ``status``, ``next_dealer``, an ``event`` key
        and its ``team``. Games that score players, not teams, put the score change of each
        seat in ``extra["scores"]``; a hand that ends a match puts the winning team or seats
        in ``extra["match_winner"]`` (a list) and the match's final status (as JSON) in
        ``extra["final_status"]``, while ``status`` starts the next match."""
        raise NotImplementedError  # every game defines how a hand is scored

    def finish(self, hand: Hand, result: HandResult) -> None:
        # Every search playout settles a hand: the result is completed in place rather than
        # copied (``dataclasses.replace`` costs ten times as much).
        object.__setattr__(result, "teams", tuple(hand.team))
        object.__setattr__(result, "sides", self.side_roles(hand))
        hand.result = result
        hand.phase = FINISHED
        hand.to_move = None

    def first_dealer(self, status: Status, rng: random.Random) -> int:
        return rng.randrange(self.players)

    def match_goal(self) -> str | None:
        """How a match ends, in one plain English sentence, when hands add up to a match
        that ends (a set number of deals, a target score: the hand that ends it puts
        ``match_winner`` in its result); None when hands simply follow one another."""
        return None

    def public_team(self, hand: Hand, seat: int) -> int | None:
        """The team of ``seat`` as everyone at the table knows it (None while secret)."""
        return hand.team[seat]

    def public_teams(self, hand: Hand) -> list[int | None]:
        """``public_team`` of every seat (a game may work it out once for all of them)."""
        return [self.public_team(hand, s) for s in range(hand.n)]

    def side_roles(self, hand: Hand) -> tuple[str, ...]:
        """What each side of ``hand`` is, by team (as in ``hand.team``), as everyone at the
        table knows it: ``("declarer", "defenders")`` once a player has taken the widow,
        ``("old_man", "others")``, ``("rich", "poor")``. The bot words each role
        (``side.ROLE``, ``role.ROLE``) and names sides by them; ``()`` (the default): the
        sides have no role, as fixed partnerships (named A and B) or everybody alone.

        >>> from engine import Match, make_rules
        >>> make_rules("filicau").side_roles(Match(make_rules("filicau"), seed=1).deal())
        ()
        """
        return ()

    # -- phases other than trick play ------------------------------------------------------

    def actors(self, hand: Hand) -> list[int]:
        return [] if hand.to_move is None else [hand.to_move]

    def phase_legal(self, hand: Hand, seat: int) -> Sequence[Action]:
        """The actions ``seat`` may take in the hand's phase (a tuple may be returned as it
        is: ``Hand`` keeps the legal actions as a tuple)."""
        return []

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        raise self.explain(hand, seat, action)

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        """Why ``action`` by ``seat`` is illegal in a phase of this game's own."""
        if seat not in self.actors(hand):
            return IllegalAction("not_your_turn", f"seat {seat} may not act now", seat=seat)
        if action.value is False:
            return flag_false(action)
        return IllegalAction(
            "not_allowed", f"{action} is not allowed now ({hand.phase})", phase=hand.phase
        )

    # -- open windows (several seats may act) ---------------------------------------------

    def window_timeout(self, hand: Hand) -> tuple[int, Action] | None:
        """While a window is open that closes by itself after a while (the fris window),
        the seat and action that close it; None otherwise. The bot applies it when the
        table's window time runs out."""
        return None

    def hold_back(self, hand: Hand, seat: int) -> bool:
        """Whether a computer at ``seat`` should wait rather than act now (a dealer who
        would close an open window before the others had their chance)."""
        return False

    # -- actions out of turn -------------------------------------------------------------

    def free_legal(self, hand: Hand, seat: int) -> list[Action]:
        """The out-of-turn actions (of ``free_kinds``) ``seat`` may take now."""
        return []

    def free_apply(self, hand: Hand, seat: int, action: Action) -> None:
        """Apply an out-of-turn action (already checked against ``free_legal``)."""

    # -- what each seat may know ---------------------------------------------------------

    def action_parts(self, action: Action) -> dict[str, Any] | None:
        """A choice made of several parts, as plain data (card codes, suit letters, numbers)
        that the bot words part by part (``actvalue.KIND``); None for a choice of one part.
        The default is the action's own notation when it is an object; a game whose
        notation shortens a choice (a fris whose trump is its Ober's suit is written
        ``"GO"``) gives every part here.

        >>> from engine.rules import make_rules
        >>> make_rules("filicau").action_parts(Action("card", 0)) is None
        True
        """
        value = action_to_json(action)[action.kind]
        return value if isinstance(value, dict) else None

    def public_action(self, hand: Hand, seat: int, action: Action) -> Action | None:
        """``action`` as the whole table saw it, or None when only ``seat`` knows it (cards
        buried face down). Card plays and calls are public by default."""
        return action

    def public_team_points(self, hand: Hand) -> tuple[int, ...]:
        """Points per team as everyone may know them (games with secret partners hide the
        sums until the teams are known)."""
        return tuple(hand.team_taken)

    def public_info(self, hand: Hand) -> dict[str, Any]:
        """A game's own public facts for views and messages (the called card, bids, the
        match score, face-up cards...). Values must be plain data."""
        return {}

    def private_info(self, hand: Hand, seat: int) -> dict[str, Any]:
        """What only ``seat`` knows beyond its cards (the cards it buried...)."""
        return {}

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        """A full hand consistent with ``view`` and a guess of the hidden cards, for computer
        players; None lets ``engine.determinize`` rebuild it the common way (cards dealt by
        ``holders``, every action public). Games with hidden actions or a widow override."""
        return None

    def suggest(self, view: SeatView) -> Action | None:
        """A rule-of-thumb choice for a decision that is not a card (a bid, a call, taking
        the widow), from ``view`` only: the Easy player's choice, and the search players'
        when they cannot rebuild the hand. None: the first legal action."""
        return None

    def thumb(self, hand: Hand, seat: int) -> Action | None:
        """What the search's rule of thumb (``suggest`` of ``seat``'s view, or the first legal
        action) chooses in ``hand`` for the seat to move, where the game can work it out from
        the hand without building the view (it must read only what the view shows the seat);
        None: the view is built and asked."""
        return None

    # -- duties on top of follow-suit ------------------------------------------------------

    def restrict_play(self, hand: Hand, seat: int, cards: list[Card]) -> list[Card]:
        """The legal cards of ``seat`` among ``cards`` (those follow-suit allows), for a game
        that ``restricts_play``. The hand asks while ``hand.restricted``: a game sets that
        False once its duties can narrow nothing more in the hand."""
        return cards

    def explain_card(self, hand: Hand, seat: int, card: Card) -> IllegalAction | None:
        """A game-specific reason why ``card`` is illegal (None: the common duties apply)."""
        return None


#: The games' classes by key, as ``shared_rules`` has met them.
_CLASSES: dict[str, type[Rules]] = {}


def shared_rules(cls: type[Rules], options: Options) -> Rules:
    """The one ``Rules`` object of a game with these options: rules hold caches (deal maps,
    early-end tables) that every hand of the game shares. ``engine.rules.make_rules`` checks
    the options and asks here."""
    _CLASSES.setdefault(cls.game, cls)
    return _shared(cls.game, options)


@lru_cache(maxsize=256)
def _shared(game: str, options: Options) -> Rules:
    return _CLASSES[game](options)


def _unpickled(cls: type[Rules], options: dict[str, Any]) -> Rules:
    return shared_rules(cls, cls.options_model.model_validate(options))

