"""Play a match in a terminal against computer players: ``python -m engine play``.

You hold one seat; computer players (``--level``, default Normal) hold the others. Seats are
numbered from 1, as on Discord. Cards are typed by code (``EO``, ``H10``) or by their number
in the list shown; ``help`` explains the codes again and ``quit`` leaves. A refused card is
answered with the rule that forbids it.

Nothing here names a game. Every decision is offered from the engine's legal actions: a kind
whose value is a set of cards (burying two) is picked one card at a time, any other kind is
worded from a small table keyed by kind (``KINDS``), else from its value in the record
notation. The goal comes from ``Rules.goal`` and ``Rules.match_goal``, the trumps from the
hand's trump order, the point scale from the rules' card points.

Plain ``input``/``print`` on purpose: the game is driven line by line from a pipe as easily as
from a keyboard (the tests script it), and it needs nothing beyond the engine.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.actions import Action, IllegalAction
from engine.ai import make_player
from engine.cards import (
    TRUMP,
    Card,
    card,
    code,
    suit_of,
)
from engine.match import Match
from engine.rules import make_rules
from engine.tools.terminal.words import (
    BY_POINTS,
    COUNTED_ITEMS,
    COUNTED_TIMES,
    EVENTS,
    HOW_TO_ANSWER,
    KINDS,
    NUMBERS,
    REVEALED,
    WINDOWS,
    and_list,
    capitalised,
    card_codes,
    card_from_text,
    card_set_kind,
    describe,
    json_value,
    payments,
    point_unit,
    refusal,
    suit_name,
    told,
    told_mine,
    trumps_line,
    use_faces,
    why_refused,
)
from engine.trumps import TrumpOrder
from engine.view import seat_view
from engine.words import KindWords


class TerminalGame:
    """A match at a terminal: what the player sees, and reading their answers.

    ``seat`` is the engine's seat (from 0); the player reads it from 1. ``hands``: how many
    hands to play (None: to the end of the match, or as long as the player says yes)."""

    def __init__(self, match: Match, seat: int, level: str, seed: int | None,
                 out: TextIO, inp: TextIO, hands: int | None = None) -> None:
        self.match, self.seat, self.out, self.inp = match, seat, out, inp
        self.rules = match.rules
        # Its cards are named as the game's own faces show them (Doppelkopf's French pack).
        use_faces(self.rules.faces)
        self.level = level
        self.hands = hands
        self.bot = make_player(level, seed)
        self.kinds_explained: set[str] = set()
        #: How every kind of decision reads: the common words, and the game's own.
        self.kinds: dict[str, KindWords] = {**KINDS, **self.rules.kind_words}
        self.unit, self.unit_one, self.scale = point_unit(self.rules)
        #: The trump order last described (a game whose trumps never change says them once).
        self.order_said: TrumpOrder | None = None
        self.hand = match.deal()
        self._new_hand()

    def _new_hand(self) -> None:
        self.tricks_shown = 0
        self.actions_shown = 0
        self.order_shown: TrumpOrder | None = None
        #: The hand as last shown to the player (shown again only when it changed).
        self.hand_said: tuple[Any, ...] = ()
        self.shown_cards: tuple[Card, ...] = ()
        self.held: set[Card] = set(self.hand.hands[self.seat])
        #: Games whose teams form in the hand: the teams as last told (as far as public).
        self.teams_said = ""
        self.play_over_said = False
        #: The points line said when play ended (not repeated with the result).
        self.points_said = ""
        #: The out-of-turn choices last offered (offered again only when they change).
        self.free_offered: frozenset[Action] = frozenset()
        #: The phase each action was taken in, and the doubling a window asked for then
        #: (``act``): a pass in a window is told as what it declined.
        self.taken_in: list[tuple[str, str]] = []
        #: The doubling window last announced (phase, what it asks for).
        self.window_said: tuple[str, str] = ("", "")

    def say(self, text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=self.out, flush=True)

    def act(self, seat: int, action: Action) -> None:
        """Apply an action, noting the phase it was taken in (``news`` tells it from that)."""
        hand = self.hand
        taken = (hand.phase, self._window_offer())
        hand.apply(seat, action)
        self.taken_in.extend([taken] * (len(hand.actions) - len(self.taken_in)))

    def _window_offer(self) -> str:
        """In a doubling window, the doubling asked for in the game's words ("Kontra")."""
        hand = self.hand
        if hand.phase not in WINDOWS:
            return ""
        offered = {a for s in hand.actors() for a in hand.legal_actions(s) if a.kind != "weiter"}
        return " or ".join(sorted(describe(a, self.kinds) for a in offered))

    # -- naming seats ---------------------------------------------------------------------

    def who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"seat {seat + 1}"

    def seats(self, seats: Sequence[int]) -> str:
        """``you and seat 3``, ``seats 2 and 4``, ``seat 2``."""
        others = [s for s in seats if s != self.seat]
        named = ""
        if others:
            named = ("seat " if len(others) == 1 else "seats ") + and_list(
                [str(s + 1) for s in others])
        if self.seat in seats:
            return "you" + (f" and {named}" if named else "")
        return named

    def _others(self) -> str:
        n = self.rules.players - 1
        return "the other one" if n == 1 else f"the other {NUMBERS[n]}"

    # -- what the player is told -------------------------------------------------------

    def opening(self) -> None:
        rules, me = self.rules, self.seat
        others = [s for s in range(rules.players) if s != me]
        self.say(f"{rules.title}: you are seat {me + 1}; computer players ({self.level}) hold "
                 f"{self.seats(others)}.")
        if rules.goal:
            self.say(f"The goal: {rules.goal}")
        self.say(self.scale)
        if rules.players == 2:
            self.say(f"You play alone against seat {others[0] + 1}.")
        elif rules.fixed_teams:
            partners = [s for s in others if rules.seat_teams[s] == rules.seat_teams[me]]
            against = [s for s in others if s not in partners]
            self.say(f"Your partner{'s are' if len(partners) > 1 else ' is'} "
                     f"{self.seats(partners)}; {self.seats(against)} play against you.")
        else:
            self.say("Teams are not fixed in this game: they form during each hand.")
        match = rules.match_goal()
        if self.hands is not None:
            self.say(f"You play {self.hands} hand{'s' if self.hands > 1 else ''}."
                     + (f" {match}" if match else ""))
        elif match:
            self.say(f"{match} You play the match to its end.")
        else:
            self.say("Hands follow one another: after each one you say whether to play on.")
        self.say(card_codes())
        self.say(HOW_TO_ANSWER)

    def hand_header(self) -> None:
        hand = self.hand
        self.say()
        self.say(f"— Hand {self.match.hands_played + 1}: "
                 f"{'you deal' if hand.dealer == self.seat else f'seat {hand.dealer + 1} deals'}"
                 " —")
        standing = self.standing()
        if standing:
            self.say(standing)
        self.news()
        self.show_hand("Your cards")

    def show_hand(self, title: str) -> None:
        """The player's cards, unless they were just shown as they are."""
        hand = self.hand
        cards = hand.hands[self.seat]
        said = (tuple(sorted(cards)), hand.order)
        if cards and said != self.hand_said:
            self.hand_said = said
            self.say(f"{title}: " + self.hand_words(cards))

    def standing(self) -> str:
        """Who are masters (and Servant) as the hand starts, in words; "" when nobody."""
        status, rules = self.hand.status, self.rules
        if status.masters is None:
            return ""
        teams = status.teams or rules.seat_teams
        masters = [s for s in range(rules.players) if teams[s] == status.masters]
        losers = [s for s in range(rules.players) if s not in masters]
        verb = "are" if len(masters) > 1 or self.seat in masters else "is"
        text = (f"{capitalised(self.seats(masters))} {verb} masters; {self.seats(losers)} "
                f"{'are' if len(losers) > 1 or self.seat in losers else 'is'} {rules.losers}")
        if rules.losers_badge:
            text += f" and wear {rules.losers_badge}s"
        if status.servant is not None:
            text += (f", and {self.who(status.servant)} "
                     f"{'are' if status.servant == self.seat else 'is'} the Servant, who deals")
        return text + "."

    def hand_words(self, cards: Sequence[Card]) -> str:
        """A hand as a player holds it, the trumps marked: ``trumps: EO HA · acorns: E10``.
        Before trump is known, the permanent trumps are marked as such."""
        hand = self.hand
        order = hand.order
        groups: dict[int, list[Card]] = {}
        for c in hand.sort_hand(cards):
            if order is not None:
                group = order.suit[c]
            else:
                group = TRUMP if c in self.rules.top_trumps else suit_of(c)
            groups.setdefault(group, []).append(c)
        trumps = "trumps" if order is not None else "always trumps"
        return " · ".join(
            f"{trumps if g == TRUMP else suit_name(g)}: {' '.join(code(c) for c in cs)}"
            for g, cs in sorted(groups.items(), key=lambda kv: -1 if kv[0] == TRUMP else kv[0]))

    def news(self) -> None:
        """Everything that happened since the player last looked: choices, trump, tricks."""
        hand = self.hand
        while self.actions_shown < len(hand.actions):
            seat, action = hand.actions[self.actions_shown]
            phase, offer = (self.taken_in[self.actions_shown]
                            if self.actions_shown < len(self.taken_in) else ("", ""))
            self.actions_shown += 1
            if action.kind == "card" or (seat == self.seat
                                         and action.kind not in hand.rules.free_kinds):
                continue
            who = capitalised(self.who(seat))
            if seat == self.seat:
                self.say(told_mine(action, self.kinds) + ".")
                continue
            if action.kind == "weiter" and phase in WINDOWS and offer:
                self.say(WINDOWS[phase][1].format(who=who, offer=offer) + ".")
                continue
            public = hand.rules.public_action(hand, seat, action)
            if public is not None:
                self.say(told(public, who, self.who, self.kinds) + ".")
                continue
            kind = self.kinds.get(action.kind)
            count = len(action.value) if isinstance(action.value, tuple) else 1
            self.say((kind.hidden.format(who=who, count=NUMBERS[count] if count < 9 else count)
                      if kind is not None and kind.hidden
                      else f"{who} makes a choice nobody else sees") + ".")
        self._news_cards()
        self._news_window()
        if not hand.rules.fixed_teams and hand.n > 2 and self._card_play_began():
            line = self._teams_line()
            if line != self.teams_said:
                self.teams_said = line
                self.say(line)
        while self.tricks_shown < len(hand.tricks):
            trick = hand.tricks[self.tricks_shown]
            self.tricks_shown += 1
            winner = "you win it" if trick.winner == self.seat else \
                f"seat {trick.winner + 1} wins it"
            self.say(f"Trick {self.tricks_shown}: {self._played(trick.leader, trick.cards)}"
                     f" — {winner}.")
        self._news_hand()
        if hand.play_over and not hand.finished and not self.play_over_said:
            self.play_over()

    def _news_cards(self) -> None:
        """Cards shown to everybody, and the trumps once they are known."""
        hand = self.hand
        trump_said = False
        shown = tuple(hand.shown)
        order_changed = hand.order is not None and hand.order != self.order_shown
        if shown != self.shown_cards:
            new = shown[len(self.shown_cards):] if shown[:len(self.shown_cards)] == \
                self.shown_cards else shown
            self.shown_cards = shown
            if new:
                held = [(c, s) for c in new for s in range(hand.n) if c in hand.hands[s]]
                holders = sorted({s for _, s in held})
                line = "Turned face up for everybody to see: " + " ".join(
                    code(c) for c in new) + "."
                if holders:
                    line += (f" {capitalised(self.seats(holders))} "
                             f"{'hold' if len(holders) > 1 or holders == [self.seat] else 'holds'}"
                             f" {'it' if len(new) == 1 else 'them'}, and everybody knows it.")
                last = new[-1]
                if (order_changed and hand.trump is not None and suit_of(last) == hand.trump
                        and last not in hand.rules.top_trumps):
                    line += (f" The last card turned up makes {suit_name(hand.trump)} "
                             "trump.")
                    trump_said = True
                self.say(line)
        if order_changed:
            assert hand.order is not None
            self.order_shown = hand.order
            if hand.order != self.order_said:
                self.order_said = hand.order
                self.say(trumps_line(hand.order, hand.rules.pack))
            elif hand.rules.usual_trump is None and hand.trump is not None and not trump_said:
                self.say(f"Trump is {suit_name(hand.trump)} again.")

    def _news_window(self) -> None:
        """A doubling window that opened: what it asks for, and of whom (everyone the table
        waits for; a hidden partner is asked like the others, so naming them tells nothing)."""
        hand = self.hand
        offer = self._window_offer()
        if not offer or (hand.phase, offer) == self.window_said:
            return
        self.window_said = (hand.phase, offer)
        self.say(WINDOWS[hand.phase][0].format(
            offer=offer, asked=capitalised(self.seats(sorted(hand.actors())))))

    def _news_hand(self) -> None:
        """Cards new in the player's hand (dealt later, the widow, turned up)."""
        hand = self.hand
        mine = hand.hands[self.seat]
        new_cards = [c for c in mine if c not in self.held]
        if new_cards:
            cards = " ".join(code(c) for c in hand.sort_hand(new_cards))
            widow = seat_view(hand, self.seat).private.get("widow")
            if not self.held:
                self.say(f"You are dealt {cards}.")
            elif isinstance(widow, list) and set(widow) == {code(c) for c in new_cards}:
                self.say(f"The widow held {cards}: both are in your hand now.")
            else:
                self.say(f"New in your hand: {cards}.")
        self.held = set(mine)

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
        if not mates and len({view.team[s] for s in against}) == len(against) > 1:
            return "Everybody plays alone."
        if not mates:
            return f"You play alone against {self.seats(against)}."
        return f"You play with {self.seats(mates)} against {self.seats(against)}."

    def _played(self, leader: int, cards: Sequence[Card]) -> str:
        n = self.hand.n
        return ", ".join(f"{self.who((leader + i) % n)} {code(c)}" for i, c in enumerate(cards))

    def _tricks_in_hand(self) -> int:
        return len(self.rules.pack) // self.rules.players

    # -- the end of a hand ------------------------------------------------------------------

    def sides(self, count: int) -> list[tuple[str, str]]:
        """The hand's ``count`` sides (teams as in ``Hand.team``), named by role: the
        declarer and the defenders, your team and the other team, or each player; each
        with its name and its possessive ("the declarer's")."""
        hand = self.hand
        teams = hand.team
        members = [[s for s in range(hand.n) if teams[s] == t] for t in range(count)]
        declarer = hand.result.extra.get("declarer") if hand.result else None
        out: list[tuple[str, str]] = []
        for seats in members:
            if isinstance(declarer, int) and count == 2:
                if declarer in seats:
                    role = "the declarer" if len(seats) == 1 else "the declarer's side"
                else:
                    role = "the defenders" if len(seats) > 1 else "the defender"
                # A plural's possessive is its apostrophe alone: "the defenders' 120".
                out.append((f"{role} ({self.seats(seats)})",
                            role + ("'" if role.endswith("s") else "'s")))
            elif count == 2 and hand.n > 2:
                role = "your team" if self.seat in seats else "the other team"
                out.append((f"{role} ({self.seats(seats)})", role + "'s"))
            else:
                name = self.seats(seats)
                out.append((name, "your" if name == "you" else name + "'s"))
        return out

    def points_line(self, points: Sequence[int]) -> str:
        """``Points: your team (you and seat 3) took 6 of the 8 Aces and Tens, the other
        team (seats 2 and 4) 2.`` The declarer's side first, else the player's."""
        named = list(zip(self.sides(len(points)), points, strict=True))
        if not (self.hand.result and isinstance(self.hand.result.extra.get("declarer"), int)):
            named.sort(key=lambda side: not (side[0][0] == "you" or "(you" in side[0][0]))
        ((first, _), p), *rest = named
        return (f"Points: {first} took {p} of the {self.rules.total_points} {self.unit}"
                + "".join(f", {name} {q}" for (name, _), q in rest) + ".")

    def play_over(self) -> None:
        """Play has ended (the last card, or no card could change the result): where the
        cards are, and the points, before any decision still owed (choosing a Servant)."""
        hand = self.hand
        self.play_over_said = True
        self.say()
        if len(hand.tricks) < self._tricks_in_hand():
            reason = self.rules.early_reasons.get(
                hand.result.early_reason if hand.result is not None else "",
                "no card still in the hands could change the result any more")
            self.say(f"The hand stopped after trick {len(hand.tricks)} of "
                     f"{self._tricks_in_hand()}: {reason}.")
            left = [(s, hand.sort_hand(cs)) for s, cs in enumerate(hand.hands) if cs]
            if left:
                self.say("Left in the hands: " + "; ".join(
                    f"{self.who(s)} {' '.join(code(c) for c in cs)}" for s, cs in left) + ".")
        if not hand.finished:
            self.points_said = self.points_line(hand.team_points())
            self.say(self.points_said)

    def ending(self) -> None:
        hand = self.hand
        result = hand.result
        assert result is not None
        if not self.play_over_said:
            if hand.tricks:
                self.play_over()
            else:
                self.say()
        if hand.tricks or any(result.points):
            line = self.points_line(result.points)
            if line != self.points_said:
                self.say(line)
        public = seat_view(hand, self.seat).public
        for key, sentence in REVEALED.items():
            cards = public.get(key)
            if isinstance(cards, list) and cards and all(card_from_text(c) is not None
                                                         for c in cards):
                held = hand.sort_hand([card(c) for c in cards])
                self.say(sentence.format(cards=" ".join(code(c) for c in held)))
        if hand.tricks or any(result.points):
            self._points_explained()
        self.say(self.outcome())
        self._scores()

    def _points_explained(self) -> None:
        """Where points come from that were not won in tricks, and why they may not add up
        to the whole pack."""
        hand = self.hand
        result = hand.result
        assert result is not None
        points = self.rules.points
        in_tricks = [0] * len(result.points)
        for t in hand.tricks:
            in_tricks[hand.team[t.winner]] += sum(points[c] for c in t.cards)
        sides = self.sides(len(result.points))
        for (_, whose), got, won in zip(sides, result.points, in_tricks, strict=True):
            if got > won:
                self.say(f"{got - won} of {whose} {got} come from cards not played in "
                         "tricks.")
        missing = self.rules.total_points - sum(result.points)
        where = ("were still in the hands when play stopped" if result.early
                 else "were not won in tricks")
        if missing == 1:
            self.say(f"One {self.unit_one} {where.replace('were', 'was', 1)}: it counts for "
                     "nobody.")
        elif missing > 1:
            self.say(f"The other {missing} {self.unit} {where}: they count for nobody.")

    def _scores(self) -> None:
        hand, rules, me = self.hand, self.rules, self.seat
        result = hand.result
        assert result is not None
        for line in self._breakdown():
            self.say(line)
        scores = result.extra.get("scores")
        if scores is not None and self._per_seat():
            gained = [f"{self.who(s)} {v:+d}" for s, v in enumerate(scores) if v]
            nothing = [s for s, v in enumerate(scores) if not v]
            line = "Scores for this hand: " + (", ".join(gained) if gained else "none")
            if gained and nothing:
                line += f"; {self.seats(nothing)} score nothing"
            self.say(line + ".")
        elif scores is not None:
            mine = rules.seat_teams[me]
            self.say(f"Scores for this hand: your team {scores[mine]:+d}, the other team "
                     f"{scores[1 - mine]:+d}.")
        final = result.extra.get("final_status")
        standing = result.extra.get("match_score") or (final or {}).get("score") or (
            result.status.score)
        if standing is not None:
            balance = rules.score_kind == "balance"
            self.say(("Final balances: " if final and balance else "Balances: " if balance
                      else "Final score of the match: " if final else "The match stands at: ")
                     + self._match_score(list(standing)) + ".")
        winners = result.extra.get("match_winner")
        if winners:
            if self._per_seat():
                names = self.seats(list(winners))
                self.say(f"The match is over: {names} "
                         f"{'share' if len(winners) > 1 else 'win' if me in winners else 'wins'}"
                         " it.")
            else:
                self.say("The match is over: " + ("your team wins it." if rules.seat_teams[me]
                                                   in winners else "the other team wins it."))

    def _breakdown(self) -> list[str]:
        """How the hand's score is made, item by item as a player checks it, and who pays
        whom: the items a result counts (``extra["counted"]``: the game, Laufende,
        Schneider, each doubling), else a game's value with its Schneider and Schwarz, else
        what the declarer's card points make; then the payments."""
        result = self.hand.result
        assert result is not None
        extra = result.extra
        counted = extra.get("counted")
        if isinstance(counted, list):
            return self._counted(counted, extra)
        lines: list[str] = []
        if isinstance(extra.get("value"), int) and "schneider" in extra and extra["value"]:
            parts = ["the game 1"] + [f"{word} 1" for word, key in (
                ("Schneider", "schneider"), ("Schwarz", "schwarz")) if extra.get(key)]
            lines.append("Counted: " + " + ".join(parts)
                         + (f" = {extra['value']}." if len(parts) > 1 else "."))
        elif isinstance(extra.get("declarer_points"), int) and extra.get("level"):
            level = {"simple": "a simple game", "schneider": "Schneider",
                     "schwarz": "Schwarz"}.get(extra["level"], str(extra["level"]))
            lines.append(f"Counted: the declarer's {extra['declarer_points']} "
                         f"{self.unit} make {level}.")
        scores = extra.get("scores")
        if isinstance(scores, list) and self._per_seat():
            paid = payments(scores, self.seats)
            if paid:
                lines.append(f"Paid: {paid}.")
        return lines

    def _counted(self, counted: list[dict[str, Any]], extra: dict[str, Any]) -> list[str]:
        """A game whose result lists what it counted (Bavarian Schafkopf): base + Laufende +
        Schneider or Schwarz, times a Tout's or Sie's factor, times 2 per knock and doubling,
        the value; then who pays whom, and the pot."""
        items = {i["key"]: i for i in counted}
        game = items.get("game", {})
        value = extra.get("value", 0)
        parts = [COUNTED_ITEMS[i["key"]].format(
            game=self.kinds["game"].values.get(i.get("game"), str(i.get("game"))), **{
                k: v for k, v in i.items() if k not in ("key", "game")})
            for i in counted if i["key"] in COUNTED_ITEMS and "value" in i]
        lines: list[str] = []
        unit = items.get("each", items.get("durchmarsch", {})).get("value")
        if game.get("game") == "ramsch" and isinstance(unit, int):
            knocks = extra.get("knocks", 0)
            text = f"Ramsch {unit // 2 ** knocks}"
            if knocks:
                text += f"; {self._doublings(knocks, 0)} = {unit}"
            lines.append(f"Counted: {text} a player.")
        if parts:
            total = sum(i["value"] for i in counted if i["key"] in COUNTED_ITEMS
                        and "value" in i)
            text = " + ".join(parts) + (f" = {total}" if len(parts) > 1 else "")
            times = game.get("times", 1)
            if times > 1:
                text = (f"({text})" if len(parts) > 1 else text) + (
                    f" × {times} ({COUNTED_TIMES.get(times, 'its factor')}) = {total * times}")
            factors = self._doublings(items.get("knocks", {}).get("count", 0),
                                      items.get("doubles", {}).get("count", 0))
            if factors:
                text += f"; {factors} = {value}"
            lines.append(f"Counted: {text}.")
        pays = self._counted_payments(items, extra)
        if pays:
            lines.append(f"Paid: {pays}.")
        return lines

    def _doublings(self, knocks: int, doubles: int) -> str:
        """``× 4 for a knock and Kontra``: the factor of the knocks and doublings."""
        if not knocks and not doubles:
            return ""
        names = []
        if knocks:
            names.append("a knock" if knocks == 1 else f"{NUMBERS[knocks]} knocks")
        stoss = self.kinds.get("stoss")
        words = stoss.values if stoss is not None else {}
        names += [words.get(level, f"doubling {level}") for level in range(1, doubles + 1)]
        return f"× {2 ** (knocks + doubles)} for {and_list(names)}"

    def _counted_payments(self, items: dict[str, dict[str, Any]], extra: dict[str, Any]) -> str:
        """Who pays whom in a counted result: each loser to a winner, the soloist to or from
        each of the others, a Ramsch's losers, the Stock."""
        scores = extra.get("scores") or []
        teams = extra.get("teams") or []
        if "stock" in items:
            pot = extra.get("pot")
            return (f"each player pays {items['stock']['value']} into the pot"
                    + (f" ({pot} in it now)" if pot is not None else ""))
        if "alone" in items:
            declarer = extra["declarer"]
            v = items["alone"]["value"]
            others = self.seats([s for s in range(len(scores)) if s != declarer])
            soloist = self.who(declarer)
            if scores[declarer] > 0:
                return f"{others} each pay {v} to {soloist} ({items['alone']['total']} in all)"
            verb = "pay" if soloist == "you" else "pays"
            return f"{soloist} {verb} {v} to each of {others} ({items['alone']['total']} in all)"
        text = payments([v for v in scores], self.seats) if "each" in items and len(
            teams) == len(scores) else ""
        if "pot_won" in items or "pot_lost" in items:
            # The pot moves beside the game: the game's payments are each ``value``.
            party = self.seats([s for s in range(len(teams)) if teams[s] == 0])
            v = extra.get("value", 0)
            won = bool(extra.get("won"))
            rest = self.seats([s for s in range(len(teams)) if teams[s] != 0])
            text = (f"{rest} pay {v} each; {party} get {v} each" if won
                    else f"{party} pay {v} each; {rest} get {v} each")
            half = items["pot_won" if won else "pot_lost"]["value"]
            text += (f", and take {half} each from the pot" if won
                     else f", and pay {half} each into the pot")
        return text

    def _per_seat(self) -> bool:
        """Are scores kept per player (each plays for himself, or two play each other)?"""
        return self.rules.score_by_seat or self.rules.teams == self.rules.players

    def _match_score(self, score: list[int]) -> str:
        rules, me = self.rules, self.seat
        if self._per_seat():
            return ", ".join(f"{self.who(s)} {v}" for s, v in enumerate(score))
        mine = rules.seat_teams[me]
        if len(score) == 2:
            return f"your team {score[mine]}, the other team {score[1 - mine]}"
        return ", ".join(f"team {t + 1} {v}" for t, v in enumerate(score))

    def outcome(self) -> str:
        """The result's event as a sentence about the sides, in the game's points."""
        hand = self.hand
        result = hand.result
        assert result is not None
        if result.event == "no_change":
            return ("No change: everybody is still even." if result.status.masters is None
                    else "No change: the masters stay masters.")
        extra = result.extra
        if isinstance(extra.get("declarer"), int) and result.event.startswith(
                ("declarer", "solo")):
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
        who = self.seats(seats)
        template = EVENTS.get(result.event, result.event.replace("_", " ") + ".")
        if seats and template.startswith("{who}") and hand.team[seats[0]] < len(result.points):
            # A whole side: named by its role ("the declarer (seat 3)", "your team (...)").
            side = hand.team[seats[0]]
            if sorted(seats) == [s for s in range(hand.n) if hand.team[s] == side]:
                who = self.sides(len(result.points))[side][0]
        text = template.format(who=who, are="are" if who.startswith(("you", "your")) or
                               " and " in who else "is")
        if result.event in BY_POINTS and seats:
            side = hand.team[seats[0]]
            if side < len(result.points):
                return (f"With {result.points[side]} of the {self.rules.total_points} "
                        f"{self.unit}, {text[0].lower()}{text[1:]}")
        return capitalised(text)

    # -- the player's turn ----------------------------------------------------------------

    def explain_kinds(self, actions: Sequence[Action]) -> None:
        for a in actions:
            kind = self.kinds.get(a.kind)
            if kind is not None and kind.explain and a.kind not in self.kinds_explained:
                self.kinds_explained.add(a.kind)
                self.say(kind.explain.format(others=self._others()))

    def turn(self) -> bool:
        """Ask the player for their action and apply it; False when they left."""
        hand, me = self.hand, self.seat
        view = seat_view(hand, me)
        self.free_offered = frozenset(view.free)
        self.say()
        legal = list(view.legal)
        if hand.trick or any(a.kind == "card" for a in legal):
            number = len(hand.tricks) + 1
            table = (f"on the table {self._played(hand.leader, hand.trick)}" if hand.trick
                     else "you lead")
            self.say(f"Trick {number} of {self._tricks_in_hand()}: {table}.")
        self.show_hand("Your hand")
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if len(legal) == 1 and legal[0].kind == "card" and not view.free:
            return self._forced(legal[0])
        sets = {k: acts for k, acts in by_kind.items() if k != "card" and card_set_kind(acts)}
        self.explain_kinds([a for a in legal + list(view.free) if a.kind not in sets]
                           + [acts[0] for acts in sets.values()])
        if len(sets) == 1 and len(by_kind) == 1:
            (acts,) = sets.values()
            return self._pick_together(acts)
        cards = sorted((a for a in legal if a.kind == "card"),
                       key=lambda a: view.hand.index(a.value))
        choices = [a for a in legal if a.kind != "card" and a.kind not in sets]
        # A set of cards to choose (burying) beside other choices: one entry, then the picks.
        entries: list[Action | str] = [*cards, *choices, *sets]
        signals = [a for a in view.free if a not in legal]
        entries += signals
        numbers = iter(range(1, len(entries) + 1))
        if cards:
            self.say("You may play: " + "  ".join(f"{next(numbers)}) {describe(a, self.kinds)}"
                                                  for a in cards))
        others = [describe(a, self.kinds) for a in choices] + [f"{kind.replace('_', ' ')} cards…"
                                                   for kind in sets]
        if others:
            self.say(("Or: " if cards else "Your choices: ") + "  ".join(
                f"{next(numbers)}) {words}" for words in others))
        if signals:
            self.say("You may also, out of turn: " + "  ".join(
                f"{next(numbers)}) {describe(a, self.kinds)}" for a in signals))
        while True:
            answer = self.ask("Your move")
            if answer is None:
                return False
            if not answer:
                continue
            choice = self._parse(answer, entries)
            if isinstance(choice, str):
                return self._pick_together(sets[choice])
            if choice is not None:
                self.act(me, choice)
                return True

    def _forced(self, play: Action) -> bool:
        """The player's only legal card is played for them, with the reason."""
        hand, me = self.hand, self.seat
        held = hand.hands[me]
        why = "your last card"
        other = next((c for c in held if c != play.value), None)
        if other is not None:
            why = "your only legal card"
            try:
                hand.copy().apply(me, Action("card", other))
            except IllegalAction as e:
                if e.reason in ("must_follow", "must_trump", "must_beat"):
                    why += f" ({why_refused(e)})"
        self.say(f"You play {code(play.value)}: {why}.")
        self.act(me, play)
        return True

    def offer_free(self, before: int) -> bool:
        """Out-of-turn choices (a partner signal, a doubling) that became open to the player
        while another seat is to act: offered once each time they change. False: they left."""
        free = frozenset(self.hand.free_actions(self.seat))
        if free == self.free_offered:
            return True
        self.free_offered = free
        if not free:
            return True
        self.news()
        actions = list(self.hand.free_actions(self.seat))
        self.say()
        self.show_hand("Your hand")
        self.explain_kinds(actions)
        self.say(f"Before {self.who(before)} moves, you may: 1) go on  " + "  ".join(
            f"{i}) {describe(a, self.kinds)}" for i, a in enumerate(actions, 2)))
        while True:
            answer = self.ask("Your move")
            if answer is None:
                return False
            if not answer or answer == "1" or answer.lower() == "go on":
                return True
            choice = self._parse(answer, ["go on", *actions])
            if isinstance(choice, Action):
                self.act(self.seat, choice)
                self.news()
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
        self.say(card_codes())
        self.say(HOW_TO_ANSWER)
        if self.rules.goal:
            self.say(f"The goal: {self.rules.goal}")
        if self.hand.order is not None:
            self.say(trumps_line(self.hand.order, self.rules.pack))

    def _parse(self, text: str, entries: Sequence[Action | str]) -> Action | str | None:
        if text.isdigit():
            if 1 <= int(text) <= len(entries):
                return entries[int(text) - 1]
            self.say(f"  There is no choice {text}: pick 1 to {len(entries)}.")
            return None
        words = text.lower()
        actions = [a for a in entries if isinstance(a, Action)]
        for a in actions:
            if describe(a, self.kinds).lower() == words or (a.kind != "card"
                                                and str(json_value(a)) == text):
                return a
        played = card_from_text(text)
        if played is None:
            self.say(f"  {text!r} is neither a choice nor a card code. {HOW_TO_ANSWER}")
            return None
        if not any(a.kind == "card" for a in actions):
            # A card typed for a choice that names one (calling it): that choice.
            naming = [a for a in actions if card_from_text(json_value(a)) == played]
            if len(naming) == 1:
                return naming[0]
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
        cards that still make a legal choice with those already picked; "done" where the
        cards picked so far are a choice already and more could be added."""
        kind = actions[0].kind
        values = [frozenset(a.value) for a in actions]
        sizes = sorted({len(v) for v in values})
        verb = kind.replace("_", " ")
        amount = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
        self.say(f"{capitalised(verb)} {amount} cards: pick them one at a time.")
        held = self.hand.sort_hand(self.hand.hands[self.seat])
        picked: list[Card] = []
        while True:
            fitting = [v for v in values if set(picked) <= v]
            options = [c for c in held if c not in picked and any(c in v for v in fitting)]
            done = frozenset(picked) in values
            if done and not options:
                break
            ordinal = ("first", "second", "third", "fourth")[len(picked)] \
                if len(picked) < 4 else "next"
            entries: list[str] = [f"{i}) {code(c)}" for i, c in enumerate(options, 1)]
            if done:
                entries.append(f"{len(options) + 1}) that is all")
            self.say(f"The {ordinal} card to {verb}: " + "  ".join(entries))
            answer = self.ask(f"{capitalised(verb)} which")
            if answer is None:
                return False
            if done and (answer == str(len(options) + 1) or answer.lower() == "that is all"):
                break
            chosen: Card | None = None
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                chosen = options[int(answer) - 1]
            elif card_from_text(answer) in options:
                chosen = card_from_text(answer)
            if chosen is None:
                self.say(f"  Pick a number from 1 to {len(entries)} or one of these codes.")
                continue
            picked.append(chosen)
        action = next(a for a, v in zip(actions, values, strict=True) if v == set(picked))
        self.act(self.seat, action)
        return True

    # -- the match ------------------------------------------------------------------------

    def next_actor(self) -> int:
        """Who acts now: the first of the seats that may that is the player, or a computer
        that does not wait for the others (a dealer holding back in an open window)."""
        hand = self.hand
        actors = hand.actors()
        for s in actors:
            if s == self.seat or not hand.rules.hold_back(hand, s):
                return s
        return actors[0]

    def play_hand(self) -> bool:
        """One hand, from the deal to its result; False when the player left."""
        self.hand_header()
        hand = self.hand
        while not hand.finished:
            self.news()
            actor = self.next_actor()
            if actor != self.seat:
                if not self.offer_free(actor):
                    return False
                if hand.finished or self.next_actor() != actor:
                    continue
                self.act(actor, self.bot.choose(seat_view(hand, actor)))
                continue
            if not self.turn():
                return False
        self.news()
        self.ending()
        return True

    def play(self) -> int:
        self.opening()
        played = 0
        while True:
            if not self.play_hand():
                return 0
            result = self.match.record_result(self.hand)
            played += 1
            match_over = bool(result.extra.get("match_winner"))
            if self.hands is not None:
                if played >= self.hands:
                    break
                if match_over:
                    self.say("A new match starts.")
            elif self.rules.match_goal() is not None:
                if match_over:
                    break
            else:
                again = self.yes_no("Another hand? [Y/n]")
                if again is None:
                    return 0
                if not again:
                    break
            self.hand = self.match.deal()
            self._new_hand()
        self.say("Thanks for the game.")
        return 0

    def yes_no(self, prompt: str) -> bool | None:
        while True:
            answer = self.ask(prompt)
            if answer is None:
                return None
            if answer.lower() in ("", "y", "yes"):
                return True
            if answer.lower() in ("n", "no"):
                return False
            self.say("  Answer y or n (Enter is yes).")


def play_terminal(
    game: str, *, seed: int | None, seat: int, out: TextIO, inp: TextIO = sys.stdin,
    level: str = "normal", hands: int | None = None,
) -> int:
    """Play at the terminal as ``seat`` (the engine's seat, from 0)."""
    rules = make_rules(game)
    if not 0 <= seat < rules.players:
        print(f"--seat must be 1 to {rules.players}", file=out)
        return 2
    return TerminalGame(Match(rules, seed=seed), seat, level, seed, out, inp, hands).play()
