"""How a Doppelkopf deal ends and is scored (RULINGS.md D8, D9, D6.5-D6.7).

``tally`` is the whole of D8.2-D9.5 on plain numbers: the two parties' levels, Augen and
tricks, and the extras the tricks earned, to the winner (or none) and every game point item
as players tally them. D13.2 (a), Kontra 163 : Re 77 after Kontra and keine 90:

>>> t = tally((0, 2), (77, 163), (3, 9), [], gegen=True)
>>> t.winner, t.net
(1, -6)
>>> [(i.name, i.points) for i in t.items]  # doctest: +NORMALIZE_WHITESPACE
[('won', 1), ('under_90', 1), ('kontra_said', 2), ('kontra_keine_90', 1),
 ('gegen_kreuz_damen', 1)]

``settle`` scores a finished hand with it (D9.6, D9.7) and carries the match on (D6.5-D6.7):
``HandResult.extra`` holds ``game``, ``declarer``, ``partner``, ``winner`` (the team),
``levels``, ``augen``, ``tricks``, ``needs``, ``items`` (``{"item", "party", "points"}``
each), ``net`` (``S``), ``scores`` (per seat), ``teams``, ``trick_augen`` and ``counted``
(the items worded one by one by the bot: ``counted.dk_item``, the last ``counted.dk_net``,
the sum, or ``counted.dk_even`` when the items cancel out).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.hand import HandResult
from engine.rules.doppelkopf.deck import FUCHS, KARLCHEN
from engine.rules.doppelkopf.games import EXTRA_GAMES, contract_word
from engine.rules.doppelkopf.kinds import KONTRA, PARTY_WORDS, RE, step_word
from engine.rules.doppelkopf.protocol import DoppelkopfRules
from engine.status import EVEN, Status

if TYPE_CHECKING:
    from engine.hand import Hand, Trick

#: D8.2.1: what a party's own Absage binds it to (keine 90, 60, 30; schwarz: every trick).
OWN = {2: 151, 3: 181, 4: 211}
#: D8.2.2: what a party needs against the other's Absage (schwarz: one trick).
AGAINST = {2: 90, 3: 60, 4: 30}
#: D9.1's last row: the Augen that earn a point against each of the other party's Absagen.
REACHED = {2: 120, 3: 90, 4: 60, 5: 30}
#: The items in the order a tally names them.
ITEMS = (
    "won", "under_90", "under_60", "under_30", "schwarz", "re_said", "kontra_said",
    *(f"{p}_{s}" for p in PARTY_WORDS for s in ("keine_90", "keine_60", "keine_30", "schwarz")),
    "against_keine_90", "against_keine_60", "against_keine_30", "against_schwarz",
    "gegen_kreuz_damen", "doppelkopf", "fuchs", "karlchen", "karlchen_gefangen",
)
_RANK = {name: i for i, name in enumerate(ITEMS)}


class Item(NamedTuple):
    """A game point item (a tuple: every search playout settles a deal and makes a dozen)."""

    name: str
    party: int
    points: int = 1


class Tally(NamedTuple):
    #: The party that won (0 Re, 1 Kontra), or None (D8.3).
    winner: int | None
    #: Every game point item, Re's first, each name once per party (Füchse added up).
    items: tuple[Item, ...]
    #: D9.5: S, Re's items less Kontra's.
    net: int


#: The items' names by mark, by step and by party (made once: every playout settles).
_UNDER = ((90, "under_90"), (60, "under_60"), (30, "under_30"))
_AGAINST = {2: "against_keine_90", 3: "against_keine_60", 4: "against_keine_30",
            5: "against_schwarz"}
_SAID = ("re_said", "kontra_said")
_STEP = tuple({step: f"{word}_{step_word(party, step)}" for step in range(2, 6)}
              for party, word in enumerate(PARTY_WORDS))


def needs(party: int, levels: Sequence[int]) -> int | str:
    """What ``party`` needs to win now (D8.2): Augen, or ``"all_tricks"`` (its own
    schwarz) or ``"one_trick"`` (against the other party's)."""
    own, other = levels[party], levels[1 - party]
    if own >= 2:
        return "all_tricks" if own == 5 else OWN[own]
    if other >= 2:
        return "one_trick" if other == 5 else AGAINST[other]
    if tuple(levels) == (0, 1):  # only Kontra said Kontra
        return 120 if party == RE else 121
    return 121 if party == RE else 120


def meets(party: int, levels: Sequence[int], augen: Sequence[int], tricks: Sequence[int]
          ) -> bool:
    """Whether ``party`` met its target (D8.2)."""
    need = needs(party, levels)
    if need == "all_tricks":
        return tricks[1 - party] == 0
    if need == "one_trick":
        return tricks[party] >= 1
    assert isinstance(need, int)
    return augen[party] >= need


def tally(levels: Sequence[int], augen: Sequence[int], tricks: Sequence[int],
          extras: Sequence[Item], *, gegen: bool) -> Tally:
    """D8.3, D9.1-D9.5. ``extras``: the Sonderpunkte the tricks earned (D9.4), each for the
    party that won its trick; ``gegen``: the extra "against the Kreuz-Damen" counts."""
    met_re, met_kontra = (meets(RE, levels, augen, tricks), meets(KONTRA, levels, augen, tricks))
    assert not (met_re and met_kontra), "at most one party meets its target (D8.3)"
    winner = RE if met_re else KONTRA if met_kontra else None
    points: dict[tuple[int, str], int] = {}
    for party in (RE, KONTRA):
        other = 1 - party
        # Below 90 / 60 / 30, and schwarz: for the winner, or with no winner for the party
        # whose opponents fell below the mark (D9.3).
        if winner is None or winner == party:
            for mark, name in _UNDER:
                if augen[other] < mark:
                    points[(party, name)] = 1
            if winner == party and tricks[other] == 0:
                points[(party, "schwarz")] = 1
        # D9.1's last row: Augen reached against each of the other party's Absagen.
        for step in range(2, levels[other] + 1):
            if augen[party] >= REACHED[step]:
                points[(party, _AGAINST[step])] = 1
    if winner is not None:
        points[(winner, "won")] = 1
        for party in (RE, KONTRA):
            if levels[party]:
                points[(winner, _SAID[party])] = 2
            for step in range(2, levels[party] + 1):
                points[(winner, _STEP[party][step])] = 1
        if gegen and winner == KONTRA:
            points[(KONTRA, "gegen_kreuz_damen")] = 1
    for item in extras:
        key = (item.party, item.name)
        points[key] = points.get(key, 0) + item.points
    net = 0
    for (party, _), n in points.items():
        net += -n if party else n
    out = tuple(Item(name, party, n) for (party, name), n in
                sorted(points.items(), key=lambda kv: (kv[0][0], _RANK[kv[0][1]])))
    return Tally(winner, out, net)


def trick_extras(tricks: Sequence[Trick], team: Sequence[int], enabled: Sequence[str],
                 points: Sequence[int], *, final: bool = True) -> list[Item]:
    """D9.4: Doppelkopf (a trick of 40 Augen or more), Fuchs gefangen (an ``SA`` of one party
    in a trick the other won), and, when ``tricks`` ends with the deal's last trick
    (``final``), Karlchen (the last trick won by an ``EU``) and ``karlchen_gefangen`` (an
    ``EU`` of one party in the last trick the other won), each for the party that won the
    trick."""
    out: list[Item] = []
    if not enabled:
        return out
    doppelkopf, fuchs = "doppelkopf" in enabled, "fuchs" in enabled
    for t in tricks:
        winner = team[t.winner]
        cards = t.cards
        if doppelkopf and sum(map(points.__getitem__, cards)) >= 40:
            out.append(Item("doppelkopf", winner))
        if fuchs and FUCHS in cards:
            for j, c in enumerate(cards):
                if c == FUCHS and team[(t.leader + j) % 4] != winner:
                    out.append(Item("fuchs", winner))
    last = tricks[-1] if final and tricks else None
    if last is not None and KARLCHEN in last.cards:
        winner = team[last.winner]
        if "karlchen" in enabled and last.cards[(last.winner - last.leader) % 4] == KARLCHEN:
            out.append(Item("karlchen", winner))
        if "karlchen_gefangen" in enabled:
            for j, c in enumerate(last.cards):
                if c == KARLCHEN and team[(last.leader + j) % 4] != winner:
                    out.append(Item("karlchen_gefangen", winner))
    return out


def seen_extras(tricks: Sequence[Trick], enabled: Sequence[str], points: Sequence[int], *,
                final: bool) -> list[dict[str, Any]]:
    """What the table sees of D9.4's extras while the parties are hidden: the tricks, not
    who is with whom. A ``fuchs`` played by one seat and won by another (``by``, ``to``,
    ``trick`` from 1), a ``doppelkopf`` trick (``to``, ``trick``, ``augen``) and, once the
    last trick is played (``final``), a ``karlchen`` (``to``) and a ``karlchen_gefangen``
    (``by``, ``to``). Whether each counts, and for whom, waits for the parties.

    >>> from engine.hand import Trick
    >>> from engine.cards import CARD_POINTS, card
    >>> t = Trick(0, tuple(card(c) for c in ("SA", "HA", "H10", "GA")), 2)
    >>> seen_extras([t], ["fuchs", "doppelkopf"], CARD_POINTS, final=False)
    [{'extra': 'fuchs', 'trick': 1, 'by': 0, 'to': 2}, {'extra': 'doppelkopf', 'trick': 1, \
'to': 2, 'augen': 43}]
    """
    out: list[dict[str, Any]] = []
    for n, t in enumerate(tricks, 1):
        for j, c in enumerate(t.cards):
            if "fuchs" in enabled and c == FUCHS and (t.leader + j) % 4 != t.winner:
                out.append({"extra": "fuchs", "trick": n, "by": (t.leader + j) % 4,
                            "to": t.winner})
        augen = sum(map(points.__getitem__, t.cards))
        if "doppelkopf" in enabled and augen >= 40:
            out.append({"extra": "doppelkopf", "trick": n, "to": t.winner, "augen": augen})
    last = tricks[-1] if final and tricks else None
    if last is not None:
        for j, c in enumerate(last.cards):
            by = (last.leader + j) % 4
            if c != KARLCHEN:
                continue
            if by == last.winner and "karlchen" in enabled:
                out.append({"extra": "karlchen", "to": by})
            elif by != last.winner and "karlchen_gefangen" in enabled:
                out.append({"extra": "karlchen_gefangen", "by": by, "to": last.winner})
    return out


def deal_scores(net: int, team: Sequence[int], soloist: int | None) -> list[int]:
    """D9.6, D9.7: each seat's score from S (the soloist three times)."""
    if soloist is not None:
        return [3 * net if s == soloist else -net for s in range(4)]
    return [net if team[s] == RE else -net for s in range(4)]


def counted(t: Tally) -> list[dict[str, Any]]:
    """The tally as the bot words it: each item (``counted.dk_item``; the first of each
    party's items names the party, ``counted.dk_item_for``), then ``S``
    (``counted.dk_net``)."""
    out: list[dict[str, Any]] = []
    for i, item in enumerate(t.items):
        switch = i == 0 or item.party != t.items[i - 1].party
        out.append({"key": "dk_item_for" if switch else "dk_item", "item": "dk_" + item.name,
                    "party": PARTY_WORDS[item.party], "points": item.points})
    # The sum as players say it: so many for the party it goes to (D9.5).
    out.append({"key": "dk_net", "party": PARTY_WORDS[t.net < 0], "net": abs(t.net),
                "sum": True} if t.net else {"key": "dk_even", "sum": True})
    return out


# -- the hand's end -------------------------------------------------------------------------------


def settle(rules: DoppelkopfRules, hand: Hand) -> None:
    """Score a deal whose tricks are all played."""
    p = hand.pending
    team = hand.team
    kind = p["kind"]
    alone = p["alone"]
    augen = (hand.team_taken[RE], hand.team_taken[KONTRA])
    tricks = [0, 0]
    for t in hand.tricks:
        tricks[team[t.winner]] += 1
    levels = p["levels"]
    extra_game = kind in EXTRA_GAMES and not alone
    enabled = rules.opts.extra_items() if extra_game else ()
    result = tally(levels, augen, tricks, trick_extras(hand.tricks, team, enabled, rules.points),
                   gegen="gegen_kreuz_damen" in enabled)
    soloist = p["declarer"] if alone else None
    scores = deal_scores(result.net, team, soloist)
    assert sum(scores) == 0 and len({x % 2 for x in scores}) == 1  # D9.8
    extra: dict[str, Any] = {
        "game": contract_word(kind, alone=alone), "declarer": p["declarer"],
        "partner": p["partner"], "winner": result.winner, "levels": list(levels),
        "augen": list(augen), "tricks": tricks,
        "needs": [needs(RE, levels), needs(KONTRA, levels)],
        "items": [{"item": i.name, "party": PARTY_WORDS[i.party], "points": i.points}
                  for i in result.items],
        "net": result.net, "counted": counted(result),
        "trick_augen": [sum(map(rules.point_of, t.cards)) for t in hand.tricks],
    }
    if p["k"] is not None:
        extra["klaerung"] = p["k"]
    if p["pflicht"]:
        extra["pflichtsolo"] = True
    if p["vorgefuehrt"]:
        extra["vorgefuehrt"] = True
    event = "no_winner" if result.winner is None else f"{PARTY_WORDS[result.winner]}_won"
    _finish(rules, hand, scores, event=event, team=result.winner, extra=extra, points=augen)


def thrown_in(rules: DoppelkopfRules, hand: Hand) -> None:
    """D3.4, D5.8: an Armut nobody took: nobody scores, the deal does not count and the same
    dealer deals again."""
    hand.play_over = True
    hand.to_move = None
    extra: dict[str, Any] = {"game": "armut", "declarer": hand.pending["declarer"],
                             "partner": None, "winner": None, "scores": [0, 0, 0, 0]}
    rules.finish(hand, HandResult(
        points=(0, 0), status_before=hand.status, status=hand.status,
        next_dealer=hand.dealer, event="armut_thrown_in", extra=extra))


def _finish(rules: DoppelkopfRules, hand: Hand, scores: list[int], *, event: str,
            team: int | None, extra: dict[str, Any], points: tuple[int, int]) -> None:
    before = hand.status
    p = hand.pending
    score = tuple(a + b for a, b in zip(before.score or (0,) * 4, scores, strict=True))
    # D6.5-D6.7: a Pflichtsolo not vorgeführt is no counted deal, and its dealer deals again.
    counts = not (p["pflicht"] and not p["vorgefuehrt"])
    deals = (before.deals or 0) + counts
    solos = None
    if rules.opts.pflichtsolo:
        owed = list(before.solos or (0,) * 4)
        if p["pflicht"]:
            owed[p["declarer"]] = 1
        solos = tuple(owed)
    extra["scores"] = scores
    extra["teams"] = list(hand.team)
    extra["match_score"] = list(score)
    if deals >= rules.match_deals:
        best = max(score)
        extra["match_winner"] = [s for s in range(4) if score[s] == best]
        extra["final_status"] = Status(score=score, deals=deals, solos=solos).to_json()
        status = EVEN
    else:
        status = Status(score=score, deals=deals, solos=solos)
    rules.finish(hand, HandResult(
        points=points, status_before=before, status=status,
        next_dealer=(hand.dealer + 1) % 4 if counts else hand.dealer, event=event, team=team,
        extra=extra))
