"""How a Bavarian Schafkopf deal is settled (RULINGS.md B9, B11, B12.7, B12.8).

Every deal ends in ``Rules.finish`` with a ``HandResult`` whose ``extra`` says what was
counted, so that the bot can word it ("Sauspiel mit der Blauen, 2 Laufende, Schneider: 30
each"):

- ``scores``: each seat's amount (they add up to zero, or to minus what went into the Stock);
- ``teams``: each seat's party (0 the declaring party, 1 the opponents; a seat number each in
  a Ramsch or a deal thrown in);
- ``game`` (the contract's word, ``ramsch``, or None), ``declarer``, ``partner``, ``won``
  (the declaring party), ``laufende``, ``schneider``, ``schwarz``, ``knocks``, ``doubles``,
  ``value`` (what each opponent pays or gets, after doubling), ``pot`` (the Stock after);
- ``counted``: the same as a list of items ``{"key": ..., params}`` in the order a sentence
  names them (the bot words each as ``counted.KEY``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.hand import HandResult
from engine.rules.bavarian.games import BETTEL, RAMSCH, SAUSPIEL, SIE, Contract, laufende
from engine.status import Status

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.rules.bavarian.game import Schafkopf


def _credit_rest(hand: Hand, seat: int) -> None:
    """B8.1, B8.2, B8.4: the cards still in the hands count for ``seat``."""
    won = sum(hand.rules.points[c] for h in hand.hands for c in h)
    hand.taken[seat] += won
    hand.team_taken[hand.team[seat]] += won


def settle(rules: Schafkopf, hand: Hand) -> None:
    p = hand.pending
    contract: Contract = p["contract"]
    if p["credit"] is not None:
        _credit_rest(hand, p["credit"])
    if contract.kind == RAMSCH:
        _ramsch(rules, hand)
        return
    rates = rules.rates
    team = hand.team
    declarer = p["declarer"]
    p0, p1 = hand.team_taken[0], hand.team_taken[1]
    tricks = [0, 0]
    for t in hand.tricks:
        tricks[team[t.winner]] += 1
    if p["claimed"] is not None:
        tricks[team[p["claimed"]]] += len(hand.hands[p["claimed"]])
    lauf = laufende(contract, rules.pack, p["party_cards"])
    schneider = schwarz = False
    counted: list[dict[str, Any]] = [{"key": "game", "game": contract.name}]
    if contract.kind == SIE:
        won = True
        lauf = 6 if rules.short else 8
        value = 4 * (rates.solo + rates.extra * lauf)  # B11.3
    elif contract.kind == BETTEL:
        won = tricks[0] == 0
        value = rates.bettel
    elif contract.tout:
        won = tricks[1] == 0  # B9.5
        value = 2 * (rates.solo + rates.extra * lauf)  # B11.3
    else:
        won = p0 >= 61  # B9.1
        schneider = p0 >= 91 if won else p0 <= 30  # B9.2
        schwarz = tricks[1] == 0 if won else tricks[0] == 0  # B9.3
        schneider = schneider or schwarz
        base = rates.sauspiel if contract.game_class == "rufspiel" else rates.solo
        value = base + rates.extra * (lauf + schneider + schwarz)  # B11.2
    if lauf:
        counted.append({"key": "laufende", "count": lauf})
    if schwarz:
        counted.append({"key": "schwarz"})
    elif schneider:
        counted.append({"key": "schneider"})
    knocks, doubles = len(p["knocks"]), len(p["stoss"])
    if knocks:
        counted.append({"key": "knocks", "count": knocks})
    if doubles:
        counted.append({"key": "doubles", "count": doubles})
    value *= 2 ** (knocks + doubles)  # B11.4
    sign = 1 if won else -1
    if contract.alone:
        scores = [sign * value * (3 if s == declarer else -1) for s in range(4)]  # B11.5
        counted.append({"key": "alone", "value": value, "total": 3 * value})
    else:
        scores = [sign * value * (1 if team[s] == 0 else -1) for s in range(4)]
        counted.append({"key": "each", "value": value})
    pot = hand.status.pot or 0
    if contract.kind == SAUSPIEL and pot:
        # B12.8: the Sauspiel's party takes the pot, or pays as much again into it.
        half = pot // 2
        for s in range(4):
            if team[s] == 0:
                scores[s] += half if won else -half
        counted.append({"key": "pot_won" if won else "pot_lost", "value": half})
        pot = 0 if won else 2 * pot
    level = "schwarz" if schwarz else "schneider" if schneider else None
    extra: dict[str, Any] = {
        "game": contract.name, "declarer": declarer, "partner": p["partner"], "won": won,
        "laufende": lauf, "schneider": schneider, "schwarz": schwarz, "knocks": knocks,
        "doubles": doubles, "value": value, "counted": counted,
    }
    if level is not None:
        extra["level"] = level
    winner = 0 if won else 1
    _finish(rules, hand, scores, pot, event=level or "won", team=winner,
            points=(p0, p1), extra=extra)


def _ramsch(rules: Schafkopf, hand: Hand) -> None:
    """B12.7: the most card points lose; all tricks (Durchmarsch) wins; a Jungfrau (no
    trick) gets double with ``ramsch_jungfrau``."""
    taken = hand.taken
    tricks = [0] * 4
    for t in hand.tricks:
        tricks[t.winner] += 1
    unit = rules.rates.ramsch * 2 ** len(hand.pending["knocks"])
    scores = [0] * 4
    counted: list[dict[str, Any]] = [{"key": "game", "game": RAMSCH}]
    event = "ramsch"
    all_tricks = len(hand.tricks)
    through = next((s for s in range(4) if tricks[s] == all_tricks), None)
    if through is not None:
        for s in range(4):
            scores[s] = 3 * unit if s == through else -unit
        event = "durchmarsch"
        counted.append({"key": "durchmarsch", "value": unit})
    elif len(set(taken)) > 1:
        most = max(taken)
        losers = [s for s in range(4) if taken[s] == most]
        jungfrau = rules.opts.ramsch_jungfrau
        for s in range(4):
            if s in losers:
                continue
            owed = unit * (2 if jungfrau and tricks[s] == 0 else 1)
            scores[s] += owed * len(losers)
            for loser in losers:
                scores[loser] -= owed
        if jungfrau and any(tricks[s] == 0 for s in range(4)):
            counted.append({"key": "jungfrau"})
        counted.append({"key": "each", "value": unit})
    else:
        event = "ramsch_even"  # all four on 30
    _finish(rules, hand, scores, hand.status.pot or 0, event=event, team=None,
            points=tuple(taken), extra={
                "game": RAMSCH, "declarer": None, "partner": None, "won": None,
                "laufende": 0, "schneider": False, "schwarz": False,
                "knocks": len(hand.pending["knocks"]), "doubles": 0, "value": unit,
                "counted": counted, "tricks": tricks,
            })


def thrown_in(rules: Schafkopf, hand: Hand, *, stock: bool) -> None:
    """B5.1: nobody pays; B12.8: each pays the Stock rate into the pot."""
    pot = hand.status.pot or 0
    if stock:
        rate = rules.rates.stock
        scores = [-rate] * 4
        pot += 4 * rate
        counted: list[dict[str, Any]] = [{"key": "stock", "value": rate}]
    else:
        scores = [0] * 4
        counted = []
    _finish(rules, hand, scores, pot, event="stock" if stock else "thrown_in", team=None,
            points=(0, 0, 0, 0), extra={
                "game": None, "declarer": None, "partner": None, "won": None, "laufende": 0,
                "schneider": False, "schwarz": False, "knocks": len(hand.pending["knocks"]),
                "doubles": 0, "value": 0, "counted": counted,
            })


def _finish(rules: Schafkopf, hand: Hand, scores: list[int], pot: int, *, event: str,
            team: int | None, points: tuple[int, ...], extra: dict[str, Any]) -> None:
    before = hand.status
    balance = tuple(a + b for a, b in zip(before.score or (0,) * 4, scores, strict=True))
    stock = rules.opts.all_pass == "stock"
    assert sum(balance) + pot == 0
    extra["scores"] = scores
    extra["teams"] = list(hand.team)
    if stock:
        extra["pot"] = pot
    rules.finish(hand, HandResult(
        points=points, status_before=before,
        status=Status(score=balance, pot=pot if stock else None),
        next_dealer=(hand.dealer + 1) % 4, event=event, team=team,
        early=any(hand.hands), extra=extra,
    ))

