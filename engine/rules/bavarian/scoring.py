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
  names them (the bot words each as ``counted.KEY``), with what each adds to the value
  (``value``: the game's base, the Laufende's, Schneider's; ``times`` of the base and
  Laufende for a Tout or Sie; ``count`` of knocks and doublings, each × 2), so that
  ``(sum of the values) × times × 2 ** (knocks + doublings)`` is the game's ``value``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from engine.hand import HandResult
from engine.rules.bavarian.games import (
    BETTEL,
    RAMSCH,
    RUFSPIEL,
    SAUSPIEL,
    SIE,
    Contract,
)
from engine.rules.bavarian.options import Tariff
from engine.rules.bavarian.protocol import BavarianRules
from engine.status import Status

if TYPE_CHECKING:
    from engine.hand import Hand


def _credit_rest(hand: Hand, seat: int) -> None:
    """B8.1, B8.2, B8.4: the cards still in the hands count for ``seat``."""
    won = sum(map(hand.rules.point_of, chain.from_iterable(hand.hands)))
    hand.taken[seat] += won
    hand.team_taken[hand.team[seat]] += won


def game_value(contract: Contract, rates: Tariff, points: int, tricks: Sequence[int],
               lauf: int) -> tuple[bool, bool, bool, int]:
    """Whether the declaring party won, with Schneider, with Schwarz, and the game's value
    before doubling (B9, B11.2, B11.3), from the declaring party's card points, the tricks
    each party took (declaring party first) and the Laufende that count.

    >>> from engine.rules.bavarian.options import TARIFFS
    >>> game_value(Contract(SAUSPIEL, 0), TARIFFS["10/50"], 92, (5, 3), 3)
    (True, True, False, 50)
    >>> game_value(Contract(SAUSPIEL, 0), TARIFFS["10/50"], 60, (4, 4), 0)
    (False, False, False, 10)
    """
    if contract.kind == SIE:
        return True, False, False, 4 * (rates.solo + rates.extra * lauf)  # B9.6, B11.3
    if contract.kind == BETTEL:
        return tricks[0] == 0, False, False, rates.bettel  # B12.9
    if contract.tout:
        return tricks[1] == 0, False, False, 2 * (rates.solo + rates.extra * lauf)  # B9.5
    won = points >= 61  # B9.1
    schwarz = tricks[1] == 0 if won else tricks[0] == 0  # B9.3
    schneider = schwarz or (points >= 91 if won else points <= 30)  # B9.2
    base = rates.sauspiel if contract.game_class == RUFSPIEL else rates.solo
    return won, schneider, schwarz, base + rates.extra * (lauf + schneider + schwarz)  # B11.2


def settle(rules: BavarianRules, hand: Hand) -> None:
    p = hand.pending
    contract: Contract = p["contract"]
    if p["credit"] is not None:
        _credit_rest(hand, p["credit"])
    if contract.kind == RAMSCH:
        _ramsch(rules, hand)
        return
    team = hand.team
    declarer = p["declarer"]
    p0, p1 = hand.team_taken[0], hand.team_taken[1]
    tricks = [0, 0]
    for t in hand.tricks:
        tricks[team[t.winner]] += 1
    if p["claimed"] is not None:
        tricks[team[p["claimed"]]] += len(hand.hands[p["claimed"]])
    lauf: int = p["laufende"]
    if contract.kind == SIE:
        lauf = 6 if rules.short else 8  # B11.3
    won, schneider, schwarz, value = game_value(contract, rules.rates, p0, tricks, lauf)
    counted = _counted(rules.rates, contract, lauf, schneider, schwarz)
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
            points=(p0, p1), extra=extra, reason=_early_reason(p, contract))


def _counted(rates: Tariff, contract: Contract, lauf: int, schneider: bool, schwarz: bool
             ) -> list[dict[str, Any]]:
    """The items of the game's value as a player adds them up (B11.2, B11.3): the game's
    base (``value``; ``times``: 2 for a Tout, 4 for Sie), the Laufende, Schneider or
    Schwarz, each with what it adds (``value``); the doublings follow in ``settle``.

    >>> from engine.rules.bavarian.options import TARIFFS
    >>> _counted(TARIFFS["10/50"], Contract(SAUSPIEL, 0), 3, True, False)
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'key': 'game', 'game': 'sauspiel_E', 'value': 10, 'times': 1},
     {'key': 'laufende', 'count': 3, 'value': 30}, {'key': 'schneider', 'value': 10}]
    """
    base = (rates.bettel if contract.kind == BETTEL
            else rates.sauspiel if contract.game_class == RUFSPIEL else rates.solo)
    times = 4 if contract.kind == SIE else 2 if contract.tout else 1
    counted: list[dict[str, Any]] = [
        {"key": "game", "game": contract.name, "value": base, "times": times}]
    if lauf:
        counted.append({"key": "laufende", "count": lauf, "value": rates.extra * lauf})
    if schwarz:  # Schwarz counts with its Schneider (B9.3, B11.2)
        counted.append({"key": "schwarz", "value": 2 * rates.extra})
    elif schneider:
        counted.append({"key": "schneider", "value": rates.extra})
    return counted


def _early_reason(pending: dict[str, Any], contract: Contract) -> str:
    """What stopped the deal, if its rules did (B8): a claim, a lost Tout or Bettel."""
    if not pending["stop"]:
        return ""
    if pending["claimed"] is not None:
        return "claimed"
    return "tout_lost" if contract.tout else "bettel_lost"


def _ramsch(rules: BavarianRules, hand: Hand) -> None:
    """B12.7: the most card points lose; all tricks (Durchmarsch) wins; a Jungfrau (no
    trick) gets double with ``ramsch_jungfrau``."""
    taken = hand.taken
    tricks = [0] * 4
    for t in hand.tricks:
        tricks[t.winner] += 1
    unit = rules.rates.ramsch * 2 ** len(hand.pending["knocks"])
    scores, event = ramsch_scores(taken, tricks, unit, rules.opts.ramsch_jungfrau)
    counted: list[dict[str, Any]] = [{"key": "game", "game": RAMSCH}]
    if event == "durchmarsch":
        counted.append({"key": "durchmarsch", "value": unit})
    elif event == "ramsch":
        if rules.opts.ramsch_jungfrau and 0 in tricks:
            counted.append({"key": "jungfrau"})
        counted.append({"key": "each", "value": unit})
    _finish(rules, hand, scores, hand.status.pot or 0, event=event, team=None,
            points=tuple(taken), extra={
                "game": RAMSCH, "declarer": None, "partner": None, "won": None,
                "laufende": 0, "schneider": False, "schwarz": False,
                "knocks": len(hand.pending["knocks"]), "doubles": 0, "value": unit,
                "counted": counted, "tricks": tricks,
            })


def ramsch_scores(taken: Sequence[int], tricks: Sequence[int], unit: int, jungfrau: bool
                  ) -> tuple[list[int], str]:
    """Each seat's amount in a Ramsch (B12.7), and the event: ``durchmarsch`` (one took every
    trick and gets ``unit`` from each), ``ramsch_even`` (all four on 30: nobody pays) or
    ``ramsch`` (each player with the most card points pays each other ``unit``, twice to a
    Jungfrau, one who took no trick, with ``jungfrau``).

    >>> ramsch_scores([50, 30, 40, 0], [3, 2, 3, 0], 20, True)
    ([-80, 20, 20, 40], 'ramsch')
    >>> ramsch_scores([45, 45, 30, 0], [3, 3, 2, 0], 20, False)
    ([-40, -40, 40, 40], 'ramsch')
    """
    if any(t == sum(tricks) for t in tricks):
        through = next(s for s in range(4) if tricks[s] == sum(tricks))
        return [3 * unit if s == through else -unit for s in range(4)], "durchmarsch"
    if len(set(taken)) == 1:
        return [0] * 4, "ramsch_even"
    most = max(taken)
    losers = [s for s in range(4) if taken[s] == most]
    scores = [0] * 4
    for s in range(4):
        if s in losers:
            continue
        owed = unit * (2 if jungfrau and tricks[s] == 0 else 1)
        scores[s] += owed * len(losers)
        for loser in losers:
            scores[loser] -= owed
    return scores, "ramsch"


def thrown_in(rules: BavarianRules, hand: Hand, *, stock: bool) -> None:
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
            points=(0, 0, 0, 0), played=False, extra={
                "game": None, "declarer": None, "partner": None, "won": None, "laufende": 0,
                "schneider": False, "schwarz": False, "knocks": len(hand.pending["knocks"]),
                "doubles": 0, "value": 0, "counted": counted,
            })


def _finish(rules: BavarianRules, hand: Hand, scores: list[int], pot: int, *, event: str,
            team: int | None, points: tuple[int, ...], extra: dict[str, Any],
            played: bool = True, reason: str = "") -> None:
    before = hand.status
    balance = tuple(a + b for a, b in zip(before.score or (0,) * 4, scores, strict=True))
    stock = rules.opts.all_pass == "stock"
    assert sum(balance) + pot == 0
    extra["scores"] = scores
    extra["teams"] = list(hand.team)
    if stock:
        extra["pot"] = pot
    early = played and any(hand.hands)
    rules.finish(hand, HandResult(
        points=points, status_before=before,
        status=Status(score=balance, pot=pot if stock else None),
        next_dealer=(hand.dealer + 1) % 4, event=event, team=team,
        early=early, early_reason=reason if early else "",
        extra=extra,
    ))

