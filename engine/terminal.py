"""Play one hand in a terminal against computer players: ``python -m engine play``.

You hold one seat; computer players (``--level``, default Normal) hold the others. Cards are
typed by code (``EO``, ``H10``) or by their number in the list shown; ``help`` explains the
codes again and ``quit`` leaves. A refused card is answered with the rule that forbids it.

Plain ``input``/``print`` on purpose: the game is driven line by line from a pipe as easily as
from a keyboard (the tests script it), and it needs nothing beyond the engine.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.actions import Action, IllegalAction, action_to_json
from engine.ai import make_player
from engine.cards import (
    RANK_CODES,
    RANK_NAMES,
    SUIT_LETTERS,
    SUIT_NAMES,
    Card,
    CardError,
    card,
    code,
)
from engine.hand import Hand
from engine.match import Match
from engine.rules import make_rules
from engine.rules.hats import FACES
from engine.view import seat_view

CARD_CODES = (
    "Cards are written as suit letter + rank:\n"
    "  suits: " + ", ".join(f"{letter} {name}" for letter, name in zip(SUIT_LETTERS, SUIT_NAMES,
                                                                       strict=True)) + "\n"
    "  ranks: " + ", ".join(f"{c} {n}" for c, n in zip(RANK_CODES, RANK_NAMES, strict=True))
    + "\n  so EO is the Over of acorns and H10 the Ten of hearts."
)

HOW_TO_ANSWER = ('Answer with the number of a choice or a card\'s code (e.g. EO); "help" shows '
                 'this again, "quit" leaves.')

#: Choices that are not cards, in words: by kind and value, or by kind with the value worded.
CHOICE_WORDS: dict[tuple[str, Any], str] = {
    ("take", True): "take the widow",
    ("pass", True): "pass",
    ("deal", "cut"): "cut",
    ("deal", "knock"): "knock (binding)",
    ("deal_on", True): "deal on (close the fris window)",
    ("closed", True): "play închis (five trumps)",
    ("face_up", True): "turn my last two cards face up",
    ("first_trick", True): "the first trick is with me",
}

#: What each result event says; ``{who}`` is the team or seats it is about.
EVENTS = {
    "masters": "{who} {are} masters now.",
    "stay_masters": "{who} stay masters.",
    "ran_away": "{who} took no point and ran away: everybody is even again.",
    "liberated": "{who} turned the tables: masters now.",
    "swam_away": "The servants took no point and swam away: there are no masters now.",
    "hats_on": "{who} won: the others put on hats.",
    "hats_stay": "{who} won again: the hats stay on.",
    "hats_off": "{who} won: hats off, and onto the others.",
    "draw": "60-60: a draw, nothing changes.",
    "rich_win": "The Rich ({who}) won.",
    "poor_win": "The Poor ({who}) won.",
    "freed": "The dealing team scored 6: they are free.",
    "not_freed": "The dealing team deals again.",
    "redeal": "Nobody bound: the same dealer deals again.",
    "declarer_won": "The declarer ({who}) won.",
    "declarer_lost": "The declarer ({who}) lost.",
    "least_won": "Least: the fewest card points won ({who}).",
    "least_all": "Least: one player took all 120 and pays ({who}).",
    "solo_won": "The soloist ({who}) won.",
    "solo_lost": "The soloist ({who}) lost.",
    "most_won": "Everybody played alone: the most card points won ({who}).",
    "all_even": "Everybody played alone: all even.",
    "won": "{who} won.",
    "schneider": "{who} won with schneider.",
    "schwarz": "{who} won schwarz (every trick).",
}


def card_name(c: Card) -> str:
    """``card_name(card("H10")) == "Ten of hearts"``."""
    return f"{RANK_NAMES[c % 8]} of {SUIT_NAMES[c // 8]}"


def describe(action: Action) -> str:
    """A choice in words: ``H10``, ``trump: hearts``, ``take the widow``, ``servant: seat 3``.

    >>> describe(Action("trump", 2))
    'trump: hearts'
    """
    kind, value = action
    if kind == "card":
        return code(value)
    words = CHOICE_WORDS.get((kind, value))
    if words is not None:
        return words
    if kind == "servant":
        return f"servant: seat {value}"
    if kind == "signal":
        return f"make a face: {FACES[SUIT_LETTERS[value]]} (asks for {SUIT_NAMES[value]})"
    if kind in ("trump", "solo"):
        return f"{'Lust Solo in' if kind == 'solo' else kind + ':'} {SUIT_NAMES[value]}"
    if kind == "call":
        return f"call the {card_name(value)} ({code(value)})"
    if kind == "bury":
        return "bury " + " and ".join(code(c) for c in value)
    (json_kind, json_value), = action_to_json(action).items()
    if kind == "fris" and isinstance(json_value, str):
        return f"fris with {json_value}"
    if kind == "fris":
        return f"fris with {json_value['over']}, trump {_suit_word(json_value['trump'])}"
    if kind == "bind":
        return (f"bind: {json_value['count']} trumps in {_suit_word(json_value['trump'])}, "
                f"the lowest {json_value['lowest']}")
    return f"{json_kind.replace('_', ' ')}: {json_value}"


def _suit_word(letter: str) -> str:
    return SUIT_NAMES[SUIT_LETTERS.index(letter)]


def refusal(error: IllegalAction, shown: str) -> str:
    """Why the rules refuse the card the player typed, said to them."""
    reasons = {
        "must_follow": f"you must follow {error.params.get('suit', 'suit')}",
        "must_trump": "you cannot follow suit, so you must play a trump",
        "must_beat": "you must beat the trick if you can",
        "not_your_card": "you do not hold it",
        "not_your_turn": "it is not your turn",
    }
    return f"{shown} is refused: {reasons.get(error.reason, str(error))}."


def _seats(seats: Sequence[int], me: int) -> str:
    """``you and seat 2``, ``seats 1 and 3``, ``seat 1``."""
    others = [s for s in seats if s != me]
    named = ""
    if others:
        named = ("seat " if len(others) == 1 else "seats ") + _and([str(s) for s in others])
    if me in seats:
        return "you" + (f" and {named}" if named else "")
    return named


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class TerminalGame:
    """One hand at a terminal: what the player sees, and reading their answers."""

    def __init__(self, hand: Hand, seat: int, level: str, seed: int | None,
                 out: TextIO, inp: TextIO) -> None:
        self.hand, self.seat, self.out, self.inp = hand, seat, out, inp
        self.level = level
        self.bot = make_player(level, seed)
        self.tricks_shown = 0
        self.actions_shown = 0
        self.trump_shown: int | None = None
        self.shown_cards: tuple[Card, ...] = ()
        #: Games whose teams form in the hand: the teams as last told (as far as public).
        self.teams_said = ""

    def say(self, text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=self.out, flush=True)

    # -- what the player is told -------------------------------------------------------

    def opening(self) -> None:
        rules, hand, me = self.hand.rules, self.hand, self.seat
        others = [s for s in range(rules.players) if s != me]
        self.say(f"{rules.title}: you are seat {me}; computer players ({self.level}) hold "
                 f"{_seats(others, me)}. Seat {hand.dealer} deals.")
        if rules.players == 2:
            self.say(f"You play alone against seat {others[0]}.")
        elif rules.fixed_teams:
            partners = [s for s in others if rules.seat_teams[s] == rules.seat_teams[me]]
            self.say(f"Your partner{'s are' if len(partners) > 1 else ' is'} "
                     f"{_seats(partners, me)}; the others play against you.")
        else:
            self.say("Teams are not fixed in this game: they form during the hand.")
        self.say(CARD_CODES)
        self.say(HOW_TO_ANSWER)

    def news(self) -> None:
        """Everything that happened since the player last looked: choices, trump, tricks."""
        hand = self.hand
        while self.actions_shown < len(hand.actions):
            seat, action = hand.actions[self.actions_shown]
            self.actions_shown += 1
            if action.kind == "signal" and seat == self.seat:
                self.say(f"Your face asks your partner for {SUIT_NAMES[action.value]}.")
            elif action.kind == "signal":
                self.say(f"Seat {seat} {FACES[SUIT_LETTERS[action.value]]}: it asks its "
                         f"partner for {SUIT_NAMES[action.value]}.")
            elif action.kind != "card" and seat != self.seat:
                public = hand.rules.public_action(hand, seat, action)
                self.say(f"Seat {seat} chose: {describe(public)}." if public is not None
                         else f"Seat {seat} made a choice only they know.")
        if hand.trump is not None and hand.trump != self.trump_shown:
            self.trump_shown = hand.trump
            self.say(f"Trump is {SUIT_NAMES[hand.trump]}.")
        if tuple(hand.shown) != self.shown_cards:
            self.shown_cards = tuple(hand.shown)
            if self.shown_cards:
                self.say("Shown cards: " + " ".join(code(c) for c in self.shown_cards))
        if not hand.rules.fixed_teams and self._card_play_began():
            line = self._teams_line()
            if line != self.teams_said:
                self.teams_said = line
                self.say(line)
        while self.tricks_shown < len(hand.tricks):
            trick = hand.tricks[self.tricks_shown]
            self.tricks_shown += 1
            winner = "you win it" if trick.winner == self.seat else f"seat {trick.winner} wins it"
            self.say(f"Trick {self.tricks_shown}: {self._played(trick.leader, trick.cards)}"
                     f" — {winner}.")

    def _card_play_began(self) -> bool:
        hand = self.hand
        return bool(hand.trick or hand.tricks or any(
            a.kind == "card" for seat in hand.actors() for a in hand.legal_actions(seat)))

    def _teams_line(self) -> str:
        """Who plays with whom as everyone at the table knows it (a secret partner stays
        secret)."""
        hand, me = self.hand, self.seat
        view = seat_view(hand, me)
        mine = view.team[me]
        others = [s for s in range(hand.n) if s != me]
        if mine is None:
            return "Your partner is secret for now: the cards will tell."
        mates = [s for s in others if view.team[s] == mine]
        unknown = [s for s in others if view.team[s] is None]
        against = [s for s in others if s not in mates and s not in unknown]
        if unknown:
            return "Partners are secret for now: the cards will tell."
        if not mates:
            return f"You play alone against {_seats(against, me)}."
        return f"You play with {_seats(mates, me)} against {_seats(against, me)}."

    def _played(self, leader: int, cards: Sequence[Card]) -> str:
        n = self.hand.n
        return ", ".join(f"{'you' if (leader + i) % n == self.seat else f'seat {(leader + i) % n}'}"
                         f" {code(c)}" for i, c in enumerate(cards))

    def ending(self) -> None:
        hand, me = self.hand, self.seat
        result = hand.result
        assert result is not None
        self.say()
        if result.early:
            self.say(f"The hand stopped after trick {len(hand.tricks)}: no card still in the "
                     "hands could change the outcome any more.")
        teams = hand.team
        if hand.rules.players > 2 and len(result.points) == 2 and teams[me] in (0, 1):
            mine = teams[me]
            self.say(f"Points: your team {result.points[mine]}, "
                     f"the other team {result.points[1 - mine]}.")
        else:
            self.say("Points: " + ", ".join(
                f"{_seats([s for s in range(hand.n) if teams[s] == team], me)} {p}"
                for team, p in enumerate(result.points)) + ".")
        self.say(self.outcome())
        scores = result.extra.get("scores")
        if scores is not None:
            self.say("Scores: " + ", ".join(f"{'you' if s == me else f'seat {s}'} {v:+d}"
                                            for s, v in enumerate(scores)) + ".")
        match = result.status.score
        if match is not None and not hand.rules.score_by_seat and len(match) == 2:
            mine = hand.rules.seat_teams[me]
            self.say(f"Match: your team {match[mine]}, the other team {match[1 - mine]}.")
        winners = result.extra.get("match_winner")
        if winners:
            self.say("The match is over: " + ("you won it." if any(
                w == (me if hand.rules.score_by_seat else hand.rules.seat_teams[me])
                for w in winners) else "you lost it."))
        dealer = "you deal" if result.next_dealer == me else f"seat {result.next_dealer} deals"
        self.say(f"Next hand: {dealer}.")

    def outcome(self) -> str:
        """The result's event as a sentence about the player's side."""
        hand, me = self.hand, self.seat
        result = hand.result
        assert result is not None
        if result.event == "no_change":
            return ("No change: everybody is still even." if result.status.masters is None
                    else "No change: the masters stay masters.")
        extra = result.extra
        if "declarer" in extra and result.event.startswith(("declarer", "solo")):
            seats: list[int] = [extra["declarer"]]
        elif "winners" in extra:
            seats = list(extra["winners"])
        elif "least_winner" in extra:
            seats = [extra["least_winner"]]
        elif result.team is not None:
            teams = result.status.teams or hand.team
            seats = [s for s in range(hand.n) if teams[s] == result.team]
        else:
            seats = []
        who = _seats(seats, me)
        template = EVENTS.get(result.event, result.event.replace("_", " ") + ".")
        text = template.format(who=who, are="is" if who.startswith("seat ") else "are")
        return text[0].upper() + text[1:]

    # -- the player's turn ----------------------------------------------------------------

    def turn(self) -> bool:
        """Ask the player for their action and apply it; False when they left."""
        hand, me = self.hand, self.seat
        view = seat_view(hand, me)
        # Out-of-turn choices (a partner signal) are offered beside the turn's own.
        legal = list(view.legal) + list(view.free)
        self.say()
        if hand.trick or any(a.kind == "card" for a in legal):
            number = len(hand.tricks) + 1
            table = (f"on the table {self._played(hand.leader, hand.trick)}" if hand.trick
                     else "you lead")
            self.say(f"Trick {number}: {table}.")
        if view.hand:
            self.say("Your hand: " + " ".join(code(c) for c in view.hand))
        together = [a for a in legal if isinstance(a.value, tuple)]
        if together:
            return self._pick_together(together)
        cards = sorted((a for a in legal if a.kind == "card"),
                       key=lambda a: view.hand.index(a.value))
        choices = [a for a in legal if a.kind != "card" and a not in view.free]
        signals = [a for a in legal if a in view.free]
        legal = cards + choices + signals
        numbers = iter(range(1, len(legal) + 1))
        if cards:
            self.say("You may play: " + "  ".join(f"{next(numbers)}) {describe(a)}"
                                                  for a in cards))
        if choices:
            self.say(("Or: " if cards else "Your choices: ")
                     + "  ".join(f"{next(numbers)}) {describe(a)}" for a in choices))
        if signals:
            self.say("Or make a face to your partner (once a trick): " + "  ".join(
                f"{next(numbers)}) {FACES[SUIT_LETTERS[a.value]]} ({SUIT_NAMES[a.value]})"
                for a in signals))
        while True:
            answer = self.ask("Your move")
            if answer is None:
                return False
            if not answer:
                continue
            choice = self._parse(answer, legal)
            if choice is not None:
                hand.apply(me, choice)
                return True

    def ask(self, prompt: str) -> str | None:
        """One answer; None at the end of input or on ``quit``. ``help`` is answered here."""
        while True:
            self.say(f"{prompt}: ", end="")
            line = self.inp.readline()
            if not line:
                self.say("\nbye")
                return None
            text = line.strip()
            if not self.inp.isatty():
                # Answers from a pipe or a file: show them, so the transcript reads as a game.
                self.say(text)
            if text.lower() in ("quit", "exit", "q"):
                self.say("bye")
                return None
            if text.lower() in ("help", "h", "?"):
                self.help()
                continue
            return text

    def help(self) -> None:
        self.say(CARD_CODES)
        self.say(HOW_TO_ANSWER)
        if self.trump_shown is not None:
            self.say(f"Trump is {SUIT_NAMES[self.trump_shown]}.")

    def _parse(self, text: str, legal: list[Action]) -> Action | None:
        if text.isdigit():
            if 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            self.say(f"  There is no choice {text}: pick 1 to {len(legal)}.")
            return None
        words = text.lower()
        for a in legal:
            if describe(a).lower() == words or (a.kind != "card"
                                                and str(action_to_json(a)[a.kind]) == text):
                return a
        try:
            played = card(text.upper())
        except CardError:
            self.say(f"  {text!r} is neither a choice nor a card code. {HOW_TO_ANSWER}")
            return None
        if not any(a.kind == "card" for a in legal):
            self.say("  This is not the moment to play a card: pick one of the choices.")
            return None
        try:
            self.hand.copy().apply(self.seat, Action("card", played))
        except IllegalAction as e:
            self.say("  " + refusal(e, code(played)))
            return None
        return Action("card", played)

    def _pick_together(self, actions: list[Action]) -> bool:
        """Cards chosen together (burying two): one card at a time, each list only of the
        cards that still make a legal choice with those already picked."""
        size = len(actions[0].value)
        kind = actions[0].kind
        self.say(f"{kind.capitalize()} {size} cards: pick them one at a time.")
        picked: list[Card] = []
        while len(picked) < size:
            fitting = [a for a in actions if all(c in a.value for c in picked)]
            options = sorted({c for a in fitting for c in a.value if c not in picked},
                             key=lambda c: self.hand.sort_hand(self.hand.hands[self.seat])
                             .index(c))
            ordinal = ("first", "second", "third", "fourth")[len(picked)] \
                if len(picked) < 4 else "next"
            self.say(f"The {ordinal} card to {kind}: "
                     + "  ".join(f"{i}) {code(c)}" for i, c in enumerate(options, 1)))
            answer = self.ask(f"{kind.capitalize()} which")
            if answer is None:
                return False
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                picked.append(options[int(answer) - 1])
                continue
            try:
                chosen: Card | None = card(answer.upper())
            except CardError:
                chosen = None
            if chosen is not None and chosen in options:
                picked.append(chosen)
            else:
                self.say(f"  Pick a number from 1 to {len(options)} or one of these codes.")
        action = next(a for a in actions if set(a.value) == set(picked))
        self.hand.apply(self.seat, action)
        return True

    def play(self) -> int:
        self.opening()
        hand = self.hand
        while not hand.finished:
            self.news()
            actor = hand.actors()[0]
            if actor != self.seat:
                hand.apply(actor, self.bot.choose(seat_view(hand, actor)))
                continue
            if not self.turn():
                return 0
        self.news()
        self.ending()
        return 0


def play_terminal(
    game: str, *, seed: int | None, seat: int, out: TextIO, inp: TextIO = sys.stdin,
    level: str = "normal",
) -> int:
    rules = make_rules(game)
    if not 0 <= seat < rules.players:
        print(f"--seat must be 0 to {rules.players - 1}", file=out)
        return 2
    hand = Match(rules, seed=seed).deal()
    return TerminalGame(hand, seat, level, seed, out, inp).play()
