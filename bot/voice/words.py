"""What a table says, worded once for every surface: the table from a ``PublicView``, a seat's
own part from its ``SeatView``, a hand's result, a move, a choice. Each function returns a
``Text`` (or a list of them): the Discord messages (``bot.render``), the pages and the
Activity (``bot.web.views``, ``bot.web.seatview``) draw the same words.

Nothing here names a game: what differs comes from the engine (``Rules.losers``, the views'
``sides``, ``public``/``private`` facts worded by ``bot.voice.facts``, choices as actions,
trump from the order the hand plays by).

>>> import random
>>> from bot.texts import speaking
>>> from engine import Hand, make_rules, public_view
>>> rules = make_rules("schafkopf3")
>>> table = Table("schafkopf3", rules, 1, ("1", "2", "3"), names={"1": "Ana"})
>>> pack = list(rules.pack); random.Random(2).shuffle(pack)
>>> with speaking("en"):
...     trump(public_view(Hand(rules, 0, pack))).plain
'all Obers and Unters, then 🔔 bells'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache

from bot.store import PartnershipStatus
from bot.texts import (
    card_word,
    current_faces,
    current_language,
    faced,
    has_text,
    points_key,
    points_text,
    t,
    team_name,
)
from bot.voice.facts import (
    card_of,
    counted_line,
    optioned,
    plain,
    private_lines,
    public_lines,
    seat_role,
    side_role,
    suit_of,
    word,
)
from bot.voice.table import Table
from bot.voice.text import Moment, Number, Segment, Text, say
from engine import Action, HandResult, PublicView, SeatView, Status, Trick, action_to_json
from engine.ai.analysis import Chance, Decision, Hint, Outcome
from engine.cards import RANK_CODES, card, rank_of
from engine.hand import PLAYING
from engine.trumps import TrumpOrder


def heading(table: Table) -> Text:
    """``Filicău — hand 3``."""
    return say("table.title", game=table.title, number=table.number)


def goal(table: Table) -> Text | None:
    """The game's aim in one sentence, so that nobody has to look it up mid-hand."""
    key = f"goal.{table.game}"
    return say(key) if has_text(key) else None


def phase_name(v: PublicView) -> Text | None:
    """The phase the table is in when it is not play (a choice, an open window)."""
    if v.phase == PLAYING or v.finished:
        return None
    key = f"phase.{v.phase}"
    return say(key) if has_text(key) else Text(v.phase)


def now_line(v: PublicView) -> Text | None:
    """What the table waits for, when it is not simply a card."""
    phase = phase_name(v)
    if phase is None or not v.actors:
        return None
    return say("table.phase_now", phase=phase)


def facts(table: Table, v: PublicView) -> list[Text]:
    """The game's own public facts, one line each: the called card, bids, signals, face-up
    cards (``Rules.public_info``)."""
    return public_lines(table, v.public, v.dealer)


#: The public facts a hand view repeats before play: who has spoken, and how.
SPOKEN = ("weiter", "dad", "bidding", "knocks")


def spoken(table: Table, v: SeatView) -> list[Text]:
    """Before play, what the others have said (the hand view stands on its own while its
    player decides what to say)."""
    if v.phase == PLAYING or v.finished or not v.legal:
        return []
    return public_lines(table, {k: v.public[k] for k in SPOKEN if k in v.public}, v.dealer)


# -- trump -------------------------------------------------------------------------------------


def trumps(order: TrumpOrder) -> Text:
    """The trumps as the game defines them: its permanent ones by rank where all of a rank
    are (the Obers, the Unters), any other by card, then the trump suit.

    >>> from bot.texts import speaking
    >>> from engine.cards import HEARTS, OVERS, card
    >>> with speaking("de"):
    ...     trumps(TrumpOrder(OVERS, HEARTS)).plain
    ...     trumps(TrumpOrder((card("EU"), card("GU"), card("HU"), card("SU")), None)).plain
    'alle Ober, dann ❤️ Herz'
    'alle Unter'
    """
    return _trumps(order.permanent, order.trump_suit, current_language(), current_faces())


@lru_cache(maxsize=512)
def _trumps(permanent: tuple[int, ...], trump_suit: int | None, lang: str, faces: str
            ) -> Text:
    ranks = list(dict.fromkeys(RANK_CODES[rank_of(c)] for c in permanent))
    whole = [r for r in ranks if sum(1 for c in permanent if RANK_CODES[rank_of(c)] == r) == 4]
    key = faced("trump.top." + "".join(whole))
    parts: list[Segment | Text] = []
    if whole and has_text(key):
        parts.append(say(key))
        rest = [c for c in permanent if RANK_CODES[rank_of(c)] not in whole]
    else:
        rest = list(permanent)
    # A card that is a trump by the rules, not a card anybody shows: named in words (a
    # card's label says where a card is).
    parts.extend(card_word(c) for c in rest)
    top = Text.join(", ", parts)
    if trump_suit is None:
        return top or say("trump.none")
    suit = suit_of(trump_suit)
    return say("trump.then", top=top, suit=suit) if top else Text(suit)


def trump(v: PublicView, *, shown: bool = True) -> Text | None:
    """Trump once the hand has fixed it (None before), as the game defines it; with
    ``shown``, the cards shown to fix it after it."""
    order = v.order
    if order is None or (v.trump is None and order.trump_suit is not None):
        return None  # not fixed yet: an order the rules keep until a game is chosen
    text = trumps(order)
    if shown and v.shown:
        return say("table.trump_line", suit=text, shown=cards(v.shown))
    return text


def cards(cs: Sequence[int]) -> Text:
    return Text.join(" ", [card_of(c) for c in cs]) if cs else Text("—")


# -- the seats ---------------------------------------------------------------------------------


def seat_team(table: Table, v: PublicView, seat: int) -> str | None:
    """A seat's team as the table knows it: the team letter at fixed-teams tables; at the
    others a letter only for sides that have no role (a role is the seat's badge) and only
    when sides are formed (everybody alone needs no letter)."""
    if table.fixed_teams:
        return team_name(seat % 2)
    team = v.team[seat]
    if team is None or v.sides or len(set(v.team)) == len(v.team):
        return None
    return team_name(team)


def seat_role_of(v: PublicView, seat: int) -> str | None:
    """The seat's side's role, once public (``declarer``, ``defenders``, ``old_man``)."""
    team = v.team[seat]
    if v.sides and team is not None and team < len(v.sides):
        return v.sides[team]
    return None


def seat_badges(table: Table, v: PublicView, seat: int) -> list[Text]:
    """A seat's badges: its side's role, masters or the side below them, Servant, dealer,
    and the game's own (``badges`` of the public facts)."""
    badges: list[Text] = []
    role = seat_role_of(v, seat)
    if role is not None:
        badges.append(Text(seat_role(role)))
    status = v.result.status if v.result else v.status
    if status.masters is not None:
        teams = status.teams or table.rules.seat_teams
        badges.append(say("table.masters") if teams[seat] == status.masters
                      else say(f"table.{table.rules.losers}"))
    if status.servant == seat:
        badges.append(say("table.servant"))
    if seat == v.dealer:
        badges.append(say("table.dealer"))
    for key in v.public.get("badges", {}).get(str(seat), ()):
        badges.append(say(f"badge.{key}") if has_text(f"badge.{key}") else Text(key))
    return badges


def taken(table: Table, v: PublicView, seat: int) -> Text | None:
    """The card points a seat has taken, where each seat counts its own."""
    if table.fixed_teams or not v.taken or _by_party(table, v):
        return None
    return Text(points_text("n.points", table.rules.points, count=v.taken[seat]))


# -- the trick, the points, the score ----------------------------------------------------------


def trick(table: Table, leader: int, cs: Sequence[int]) -> Text:
    """``🌰 Ober Ana · ❤️ 9 Bo``: each card with who played it."""
    return Text.join(" · ", [Text(card_of(c), " ", table.player((leader + i) % table.players))
                             for i, c in enumerate(cs)])


def last_trick(table: Table, last: Trick) -> Text:
    return say("table.last_trick_line", cards=trick(table, last.leader, last.cards),
               user=table.player(last.winner))


def trick_title(v: PublicView) -> Text:
    number = min(len(v.tricks) + 1, v.tricks_total or len(v.tricks) + 1)
    return say("table.trick_of", trick=number, tricks=v.tricks_total)


def team_points(table: Table, v: PublicView) -> Text | None:
    """Each partnership's points so far: at a fixed-teams table by team; where the hand
    has parties with roles (a declarer's and the defenders'), by party once the parties
    are known, and while they are not, why the seats count their own."""
    if table.fixed_teams and len(v.team_points) == 2:
        return say("table.points_line", a=Number(v.team_points[0], str(v.team_points[0])),
                   b=Number(v.team_points[1], str(v.team_points[1])))
    if _by_party(table, v):
        return Text.join(" · ", [Text(side_role(role), " ", Number(p, str(p)))
                                 for role, p in zip(v.sides, v.team_points, strict=False)])
    if v.sides and v.taken and not v.finished and len(set(v.team)) > 1:
        return say("table.points_hidden")
    return None


def _by_party(table: Table, v: PublicView) -> bool:
    """Whether the card points are told by party (known parties with roles), not seat."""
    return not table.fixed_teams and bool(v.sides) and len(v.team_points) == len(v.sides)


def score_word(table: Table) -> str:
    """What the running score is called: a match's, or (Bavarian Schafkopf) each player's
    balance (``Rules.score_kind``)."""
    return "balance" if table.rules.score_kind == "balance" else "match"


def score(table: Table, values: Sequence[int]) -> Text:
    """A match score: per team (``A 3 · B 7``) or per player."""
    if table.rules.score_by_seat:
        return Text.join(" · ", [Text(table.person(seat), " ", Number(x, str(x)))
                                 for seat, x in enumerate(values)])
    return Text.join(" · ", [Text(f"{team_name(team)} ", Number(x, str(x)))
                             for team, x in enumerate(values)])


def score_line(table: Table, values: Sequence[int]) -> Text:
    return say(f"table.{score_word(table)}_line", score=score(table, values))


def status_of(v: PublicView) -> Status:
    return v.result.status if v.result else v.status


def free_seats(table: Table) -> Text | None:
    """Between hands, when a seat is free: who may sit, and what a change does to status."""
    free = [seat for seat, m in enumerate(table.seats) if m is None]
    if not free:
        return None
    return say("table.seats_free", seats=", ".join(str(x + 1) for x in free))


def unplayed(table: Table, v: PublicView) -> list[Text]:
    """Once play is over, the cards nobody played, by seat."""
    if not (v.finished and v.unplayed and any(v.unplayed)):
        return []
    return [Text(table.person(seat), ": ", cards(cs)) for seat, cs in enumerate(v.unplayed)
            if cs]


def slaves_word(table: Table) -> str:
    """What the game calls the side below the masters (Filicău: slaves), as a word."""
    return t(f"lobby.word_{table.rules.losers}")


def status_line(table: Table, status: Status, dealer: int | None,
                st: PartnershipStatus | None) -> Text | None:
    """"Team B are servants since 12 Nov — Ana deals", for the players at this table, with
    the match score where the game keeps one."""
    if st is None or (status == Status() and dealer is None):
        return None
    who: Segment = table.person(dealer) if dealer is not None else "?"
    since = Moment(_timestamp(st.since), "date", st.since[:10]) if st.since else "?"
    lines: list[Text] = []
    if status.masters is None:
        lines.append(say("lobby.status_even", dealer=who))
    elif table.fixed_teams:
        lines.append(say("lobby.status_masters", team=team_name(1 - status.masters),
                         slaves=slaves_word(table), since=since,
                         dealer=who))
    else:
        teams = status.teams or table.rules.seat_teams
        masters = Text.join(" ", [table.person(seat) for seat in range(table.players)
                                  if teams[seat] == status.masters])
        lines.append(say("lobby.status_masters_group", masters=masters, since=since,
                         dealer=who))
    if status.score is not None:
        lines.append(score_line(table, status.score))
    return Text.join("\n", lines)


def _timestamp(iso: str) -> float:
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


# -- moves and choices -------------------------------------------------------------------------

#: Action kinds whose value is a seat (shown as the player's name).
SEAT_KINDS = frozenset({"servant"})


def chosen_together(action: Action) -> bool:
    """Cards chosen together (to bury): the record lists them."""
    return isinstance(next(iter(action_to_json(action).values())), list)


def choice(table: Table, action: Action) -> Text:
    """A choice as its control says it: ``act.KIND.VALUE``, or ``act.KIND`` with the value
    worded (a choice of several parts by its sentence ``actvalue.KIND``)."""
    (kind, value), = action_to_json(action).items()
    if isinstance(value, str | bool | int) and has_text(f"act.{kind}.{value}"):
        return say(f"act.{kind}.{value}")
    parts = table.rules.action_parts(action)
    shown: Segment | Text
    if kind in SEAT_KINDS and isinstance(value, int):
        shown = table.person(value)
    elif parts is not None and has_text(f"actvalue.{kind}"):
        # A choice made of several parts (a binding, a fris) has a sentence of its own,
        # with every part (a fris names its trump also when it is its Ober's own suit).
        shown = say(f"actvalue.{kind}", **{k: plain(x, table) for k, x in parts.items()})
    elif kind == "signal" and has_text(f"face.{value}"):
        return say("act.signal", face=t(f"face.{value}"), value=word(value))
    elif isinstance(value, str):
        shown = optioned(table, value)
    else:
        shown = plain(value, table)
    return say(f"act.{kind}", value=shown) if has_text(f"act.{kind}") else Text(
        f"{kind} ", shown)


#: Marks a trump where a card is named as a choice (a hint, a review).
TRUMP_MARK = "★ "


def card_choice(v: PublicView, c: int) -> Text:
    """A card as a choice: its label, marked when it is a trump."""
    order = v.order
    mark = TRUMP_MARK if order is not None and order.is_trump(c) else ""
    return Text(mark, card_of(c))


def action(table: Table, v: PublicView, act: Action) -> Text:
    """An action as a player reads it: a card (marked if trump), else its choice."""
    if act.kind == "card":
        return card_choice(v, act.value)
    return choice(table, act)


def move(table: Table, seat: int, act: Action | None) -> Text:
    """One move as a list of moves says it: who, and the card or choice (a choice only its
    player knows, such as cards laid face down, is only said to have been made)."""
    who = table.player(seat)
    if act is None:
        return say("web.move_hidden", user=who)
    if act.kind == "card":
        return say("web.move", user=who, what=card_of(act.value))
    return say("web.move", user=who, what=choice(table, act))


def action_value(act: Action) -> tuple[str, str]:
    """An action as controls carry it: its kind and its JSON value."""
    (kind, value), = action_to_json(act).items()
    return kind, json.dumps(value, separators=(",", ":"))


# -- a seat's own --------------------------------------------------------------------------------


def hand_heading(table: Table) -> Text:
    return say("hand.title", game=table.title, number=table.number)


def prompt(table: Table, v: SeatView) -> Text:
    """What the seat's player is to do now (or that there is nothing to do)."""
    if v.finished:
        return say("hand.over")
    if v.seat in table.leaving:
        return say("hand.left")
    if v.legal and v.legal[0].kind == "servant":
        return say("hand.choose_servant")
    if v.legal and v.phase != PLAYING:
        key = f"prompt.{v.phase}"
        bidding = v.public.get("bidding")
        if isinstance(bidding, dict) and has_text(f"{key}.holding"):
            # Who holds, with what: the one to answer is told what to beat or to keep.
            if bidding.get("seat") == v.seat:
                return say(f"{key}.holding")
            return say(key, user=table.player(bidding["seat"]),
                       value=optioned(table, str(bidding["value"])))
        if has_text(f"{key}.first"):
            return say(f"{key}.first")  # nothing named yet: nothing to be higher than
        return say(key) if has_text(key) else say("hand.your_choice")
    if v.legal:
        return say("hand.your_turn")
    # Not "waiting for Bob": that would go stale as the table moves on.
    return say("hand.not_your_turn")


def hand_context(table: Table, v: SeatView) -> Text | None:
    """One line that makes a hand view stand on its own: trump, and on your turn the trick
    so far (the cards in hand are the buttons). Off your turn the trick is the table's to
    show: a view nobody refreshes must never show an older trick than the table."""
    shown = trump(v, shown=False)
    # Before play proper (a choice) there is no trick to tell of, unless one is played.
    if not v.legal or v.finished or (v.phase != PLAYING and not v.trick):
        return say("hand.context_trump", trump=shown) if shown is not None else None
    so_far = trick(table, v.leader, v.trick) if v.trick else say("table.trick_empty")
    if shown is None:
        return say("hand.context_no_trump", trick=so_far)
    return say("hand.context", trump=shown, trick=so_far)


def notes(v: SeatView) -> list[Text]:
    """What a choice does beyond the player's own hand (``note.KIND``), said once."""
    if v.finished:
        return []
    kinds = dict.fromkeys(a.kind for a in (*v.legal, *v.free))
    return [say(f"note.{kind}") for kind in kinds if has_text(f"note.{kind}")]


def private(table: Table, v: SeatView) -> list[Text]:
    """What only the seat's player knows, its side by its role where sides have one; while
    cards are chosen together (burying), the widow's cards are marked on the cards."""
    known = v.private
    if any(chosen_together(a) for a in v.legal):
        known = {k: x for k, x in known.items() if k != "widow"}
    return private_lines(table, known, v.sides)


def choose_cards(kind: str, size: int) -> Text:
    """What a menu of cards chosen together asks."""
    return say(f"act.{kind}.choose") if has_text(f"act.{kind}.choose") else say(
        "hand.choose_cards", count=size)


# -- results -----------------------------------------------------------------------------------


def result_title(table: Table, result: HandResult, number: int) -> Text:
    """``Hand 3: Team A 6 · Team B 2``, or ``Hand 3``."""
    if table.fixed_teams and len(result.points) == 2:
        return say("result.title", number=number, a=result.points[0], b=result.points[1])
    return say("result.hand_title", number=number)


def hand_teams(table: Table, result: HandResult) -> tuple[int, ...]:
    """Each seat's team in the hand the result is of (a result the engine completed says;
    else the status's teams, else the seats' fixed teams)."""
    teams = result.extra.get("teams")
    return (result.teams or (tuple(teams) if isinstance(teams, list) else None)
            or result.status.teams or result.status_before.teams or table.rules.seat_teams)


def alone(teams: tuple[int, ...]) -> bool:
    """Everybody played for themselves: each seat is a side of its own."""
    return len(set(teams)) == len(teams)


def side_names(table: Table, result: HandResult) -> list[Segment | Text]:
    """Each side of the hand (team 0, 1...) by name: its role (Declarer, Defenders), its
    player when everybody played alone, else its team letter."""
    teams = hand_teams(table, result)
    if result.sides:
        return [side_role(role) for role in result.sides]
    if alone(teams):
        by_team = {team: seat for seat, team in enumerate(teams)}
        return [table.person(by_team[team]) if team in by_team else team_name(team)
                for team in range(len(result.points))]
    return [team_name(team) for team in range(len(result.points))]


def _members(table: Table, teams: tuple[int, ...], team: int) -> Text:
    return Text.join(" ", [table.person(seat) for seat in range(table.players)
                           if teams[seat] == team])


def teams_line(table: Table, result: HandResult) -> Text | None:
    """Who played on which side this hand (results name the players, not only "Team A");
    None when everybody played alone (the points name each player)."""
    teams = hand_teams(table, result)
    if alone(teams) and not result.sides:
        return None
    names = side_names(table, result)
    parts = [Text(names[team] if team < len(names) else team_name(team), ": ",
                  _members(table, teams, team)) for team in sorted(set(teams))]
    return say("result.teams", teams=Text.join(" · ", parts))


def points_explained(table: Table, result: HandResult) -> list[Text]:
    """Why the points are what they are where that is not plain from the tricks: the
    buried cards counted for the declarer, and the points nobody took (still in the hands
    when the hand stopped early)."""
    out = []
    buried = result.extra.get("buried")
    if isinstance(buried, list) and buried and result.sides:
        worth = sum(table.rules.points[card(c)] for c in buried)
        # Not the cards themselves: the result stays up while the next hand is dealt, and
        # the table showed them when play was over.
        out.append(say("result.buried_counted", side=side_role(result.sides[0]), count=worth))
    if result.early:
        # Why it stopped, where the game's rules stopped it (a lost Tout, a claim); else
        # because no card could change the outcome any more.
        reason = f"result.early.{result.early_reason}"
        out.append(say(reason if result.early_reason and has_text(reason) else "result.early"))
    missing = table.rules.total_points - sum(result.points)
    if missing > 0:
        out.append(say("result.left_in_hands", count=missing))
    return out


def scores_line(table: Table, scores: list[int]) -> Text:
    """What each player scored this hand, in words: those who scored, then who scored
    nothing (not a row of "+0")."""
    scored = [Text(table.person(seat), " ", Number(x, f"{x:+d}"))
              for seat, x in enumerate(scores) if x]
    nothing = [table.person(seat) for seat, x in enumerate(scores) if not x]
    if not scored:
        return say("result.scores_none")
    line = say("result.scores_line", scores=Text.join(" · ", scored))
    if nothing:
        line = Text(line, " · ", say("result.scores_nothing", users=Text.join(", ", nothing)))
    return line


def payments(table: Table, scores: Sequence[int]) -> Text | None:
    """Who pays whom, where each payer pays alike and each payee gets alike ("Bo, Cy and
    Dan pay Ana 140 each"; "Ana pays Bo, Cy and Dan 20 each"); None where the amounts
    differ (the scores then say each)."""
    payers = [seat for seat, x in enumerate(scores) if x < 0]
    payees = [seat for seat, x in enumerate(scores) if x > 0]
    paid = {-scores[seat] for seat in payers}
    got = {scores[seat] for seat in payees}
    if not payers or not payees or len(paid) > 1 or len(got) > 1:
        return None
    (a,), (b,) = paid, got
    who = listed([table.player(seat) for seat in payers])
    whom = listed([table.player(seat) for seat in payees])
    if len(payers) == 1:
        if len(payees) == 1:
            return say("result.pays_one", payer=who, payee=whom, value=Number(a, str(a)))
        return say("result.pays_one_each", payer=who, payees=whom, value=Number(b, str(b)))
    if a != b and len(payees) > 1:
        return None
    return say("result.pays_many", payers=who, payee=whom, value=Number(a, str(a)))


def listed(items: Sequence[Segment | Text]) -> Text:
    """``Ana``, ``Ana and Bo``, ``Ana, Bo and Cy``."""
    if len(items) < 2:
        return Text(*items)
    return say("result.and", rest=Text.join(", ", list(items[:-1])), last=items[-1])


def losers(table: Table, result: HandResult) -> Text:
    """Who paid this hand (a Ramsch's loser), by name."""
    scores = result.extra.get("scores") or ()
    return listed([table.player(seat) for seat, x in enumerate(scores) if x < 0])


def result_sentence(table: Table, result: HandResult) -> Text:
    """What happened: the event, in the game's words."""
    team = result.team
    if result.event == "no_change":
        if result.status.masters is None:
            return say("result.no_change_even")
        return say("result.no_change")
    name = other = ""
    members = Text()
    if team is not None:
        name, other = team_name(team), team_name(1 - team) if team in (0, 1) else ""
        members = _members(table, hand_teams(table, result), team)
    slaves = slaves_word(table)
    servant = result.status.servant
    if table.fixed_teams and team is not None and result.event in (
            "ran_away", "stay_masters", "masters", "liberated"):
        if result.event == "ran_away":
            return say("result.ran_away", team=name)
        if result.event == "stay_masters":
            return say("result.stay_masters", team=name)
        text = say("result.liberated" if result.event == "liberated" else "result.masters",
                   team=name, other=other, slaves=slaves)
        if servant is not None:
            text = Text(text, " ", say("result.servant_chosen", user=table.person(servant)))
        return text
    key = f"event.{result.event}"
    text = (say(key, team=name, users=members, slaves=slaves, losers=losers(table, result))
            if has_text(key)
            else say("result.event", event=result.event.replace("_", " ")))
    if servant is not None and servant != result.status_before.servant:
        text = Text(text, " ", say("result.servant_chosen", user=table.person(servant)))
    return text


def cards_played(result: HandResult) -> bool:
    """Whether any card was played in the hand (a deal thrown in has no points, no trick,
    nothing to review)."""
    return any(result.points) or result.early


def result_lines(table: Table, result: HandResult) -> list[Text]:
    """What a hand's result says, wherever it is shown (the result post, the pages, the
    Activity): what happened, who played together, the points and what they do not count,
    the scores, the match, who deals next."""
    lines = [result_sentence(table, result)]
    teams = teams_line(table, result)
    if teams:
        lines.append(teams)
    # A hand thrown in (no card played) has no card points to tell of.
    if cards_played(result):
        if table.fixed_teams and len(result.points) == 2:
            lines.append(say("table.points_line", a=Number(result.points[0],
                                                             str(result.points[0])),
                             b=Number(result.points[1], str(result.points[1]))))
        else:
            key = points_key("result.points_line", table.rules.points)
            lines.append(say(key, points=Text.join(" · ", [
                Text(name, " ", Number(p, str(p))) for name, p in zip(
                    side_names(table, result), result.points, strict=False)])))
        lines.extend(points_explained(table, result))
    counted = result.extra.get("counted")
    if counted:
        # What a game counted, in order ("Sauspiel mit der Blauen, 2 Laufende, Schneider:
        # 30 each"): ``counted.KEY`` per item, its other entries the sentence's params.
        lines.append(counted_line(counted))
    scores = result.extra.get("scores")
    if scores is not None:
        lines.append(payments(table, scores) or scores_line(table, scores))
    if result.status.pot is not None:
        # The Stock after the hand: with the balances it adds up to zero.
        lines.append(say("info.pot", value=Number(result.status.pot, str(result.status.pot))))
    if result.status.score is not None:
        lines.append(score_line(table, result.status.score))
    winners = result.extra.get("match_winner")
    if winners:
        if table.rules.score_by_seat:
            who = Text.join(" ", [table.person(seat) for seat in winners])
        else:
            who = Text.join(" & ", [say("lobby.team", team=team_name(team))
                                    for team in winners])
        lines.append(say("result.match_won", who=who))
    lines.append(say("result.next_dealer", user=table.person(result.next_dealer)))
    return lines


# -- hints and reviews -------------------------------------------------------------------------


def outcome(table: Table, o: Outcome) -> Text:
    """How a hand may end, as the rules name it, always from the asker's side: "we become
    masters", "we stay slaves", "we beat the declarer" (``fate.EVENT.us`` when the event is
    about the asker's team, ``fate.EVENT.them`` when about the other, ``fate.EVENT`` when
    about nobody), never "they" beside "we"."""
    suffix = "" if o.ours is None else (".us" if o.ours else ".them")
    key = f"fate.{o.event}{suffix}"
    what: Segment | Text
    if has_text(key):
        what = say(key, slaves=slaves_word(table))
    else:
        bare = f"outcome.{o.event}"
        what = say(bare) if has_text(bare) else word(o.event)
        if o.ours is not None:
            what = say("hint.us" if o.ours else "hint.them", what=what)
    if o.level and o.level != "simple":
        what = Text(what, " (", word(o.level), ")")
    return Text(what)


def chances(table: Table, cs: tuple[Chance, ...]) -> Text:
    return Text.join(" · ", [Text(outcome(table, c.outcome), " ",
                                  Number(round(100 * c.chance), f"{round(100 * c.chance)}%"))
                             for c in cs[:3]]) or Text("—")


#: Lines of choices a hint lists at most (a message holds 2,000 characters).
HINT_LINES = 10


def hint(table: Table, v: PublicView, h: Hint) -> list[Text]:
    """Normal's choice for the asker's position, and each legal action's likely endings.

    Choices whose chances read the same share one line (the best first): the guesses at
    the hidden cards are the same for every choice, and the endings are few, so two cards
    often end the same way as often; the computer then prefers the one that takes more
    points, which the line says rather than printing the same chances twice."""
    lines = [say("hint.choice", action=action(table, v, h.recommended))]
    if h.estimated:
        lines.append(say("hint.chances", samples=h.samples))
        groups: dict[Text, list[Action]] = {}
        for a in sorted(h.actions, key=lambda a: -a.value):
            groups.setdefault(chances(table, a.outcomes), []).append(a.action)
        for odds, acts in list(groups.items())[:HINT_LINES]:
            names = Text.join(f" {t('hint.or')} ", [action(table, v, a) for a in acts])
            lines.append(Text("• ", names, ": ", odds))
        if any(len(acts) > 1 for acts in groups.values()):
            lines.append(say("hint.same_chances"))
    return lines


def decision(table: Table, v: PublicView, d: Decision) -> Text:
    """Hard's word on one decision. A better choice is said in the hand's own outcome: how
    much more often it ends a way that matters (the share of Hard's guesses at the hidden
    cards that end so), or, when the endings are as likely, that it takes more points."""
    played = action(table, v, d.played)
    if d.forced:
        return say("review.forced", action=played)
    if d.played == d.best or d.cost <= 0:
        return say("review.best", action=played)
    best = action(table, v, d.best)
    mistake: list[Segment | Text] = [" ", say("review.mistake")] if d.mistake else []
    with_best = {c.outcome: c.chance for c in d.best_outcomes}
    with_played = {c.outcome: c.chance for c in d.played_outcomes}
    # The ending whose chance moves most (as the percentages show it); of two that move as
    # much, one about a side (masters, the declarer winning) rather than "no change".
    ends = sorted(with_best.keys() | with_played.keys(), key=lambda o: (
        -abs(round(100 * with_best.get(o, 0.0)) - round(100 * with_played.get(o, 0.0))),
        o.ours is None, o.event, str(o.ours)))
    if ends:
        o = ends[0]
        b, p = round(100 * with_best.get(o, 0.0)), round(100 * with_played.get(o, 0.0))
        if b != p:
            return Text(say("review.better_chance", action=played, best=best,
                            outcome=outcome(table, o), best_chance=b, chance=p), *mistake)
    return Text(say("review.better_points", action=played, best=best), *mistake)


def review_note(table: Table, v: PublicView, seat: int, d: Decision) -> Text:
    """A reviewed seat's costly decision, as a replay notes it at its trick."""
    return say("web.note", user=table.player(seat), note=say(
        "review.better", action=action(table, v, d.played), best=action(table, v, d.best),
        cost=f"{d.cost:.2f}"))
