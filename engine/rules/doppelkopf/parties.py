"""Who is Re and who is Kontra, as the table knows it (RULINGS.md D5.6, D14.2-D14.5).

The engine knows every seat's party from the deal (``Hand.team``: 0 Re, 1 Kontra). The table
learns a seat's party only when the play has made it certain for everyone:

(a) a solo or an Armut made public shows all parties (in an Armut: its seat at once, all when
a seat takes it, D14.4; a vorgeführt deal from the start, D14.5); (b) a Hochzeit shows its
player at once (D14.3) and all parties at the Klärungsstich; (c) an announcement shows its
seat's party; (d) a seat that played an ``EO`` is Re; (e) in a deal announced as a normal
game, a seat that played a plain card to a trump lead is Kontra, unless already shown Re
(D14.2); (f) once two seats have each played an ``EO``, the other two are Kontra; (g) a stille
Hochzeit shows itself, and every party, when its player plays his second ``EO``. Nothing else
is shown or inferred: two known Kontra seats do not make the others Re (false in a stille
Hochzeit). Once play is over everything is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import TRUMP
from engine.rules.doppelkopf.deck import ALTE, NORMAL_SUIT
from engine.rules.doppelkopf.games import ARMUT, HOCHZEIT, NORMAL_GAMES, STILLE
from engine.rules.doppelkopf.kinds import ANSAGE, KONTRA, RE

if TYPE_CHECKING:
    from engine.hand import Hand

Parties = list[int | None]


def shown(hand: Hand) -> Parties:
    """Each seat's party as the table knows it (None: not shown)."""
    p = hand.pending
    team = hand.team
    if hand.play_over:
        return list(team)
    kind = p["kind"]
    if kind is None:
        return list(team) if p["vorgefuehrt"] else [None] * 4
    if kind == HOCHZEIT:
        if p["k"] is not None:
            return list(team)
        return [RE if s == p["declarer"] else None for s in range(4)]
    if kind == ARMUT:
        if p["partner"] is not None:
            return list(team)
        return [RE if s == p["declarer"] else None for s in range(4)]
    if kind not in NORMAL_GAMES:
        return list(team)  # a solo
    # The normal game and the stille Hochzeit look alike: worked out from the actions, and
    # carried on from where it was last worked out (every view and rule of thumb asks; a
    # copy of the hand shares the prefix of the actions it was copied at).
    state = p.get("_shown") or _START
    if state[0] != len(hand.actions):
        state = _from_play(hand, state)
        p["_shown"] = state
    if state[5]:
        return list(team)
    out = list(state[1])
    if len(state[2]) == 2:
        for s in range(4):
            if s not in state[2]:
                out[s] = KONTRA  # (f)
    return out


#: What ``_from_play`` carries: actions read, the parties shown by (c)-(e), the seats that
#: played an ``EO``, the cards played, the suit led in the last trick, (g) happened.
_State = tuple[int, tuple[int | None, ...], tuple[int, ...], int, int, bool]
_START: _State = (0, (None, None, None, None), (), 0, TRUMP, False)


def stille_shown(hand: Hand) -> bool:
    """D5.6 (g): the stille Hochzeit's player has played his second ``EO``."""
    return hand.pending["kind"] == STILLE and (
        hand.play_over or sum(1 for t in hand.tricks for c in t.cards if c == ALTE)
        + hand.trick.count(ALTE) == 2)


def _from_play(hand: Hand, state: _State) -> _State:
    team = hand.team
    done, known, alte_seats, played, led, stille = state
    out = list(known)
    alte = list(alte_seats)
    for seat, action in hand.actions[done:]:
        kind = action.kind
        if kind == ANSAGE:
            out[seat] = team[seat]  # (c)
        elif kind == "card":
            c = action.value
            first = played % 4 == 0
            played += 1
            if first:
                led = NORMAL_SUIT[c]
            if c == ALTE:
                out[seat] = RE  # (d)
                if seat in alte:
                    stille = True  # (g): the stille Hochzeit shows itself
                alte.append(seat)
            elif not first and led == TRUMP and NORMAL_SUIT[c] != TRUMP and out[seat] is None:
                out[seat] = KONTRA  # (e)
    return (len(hand.actions), tuple(out), tuple(alte), played, led, stille)


def all_shown(hand: Hand) -> bool:
    return None not in shown(hand)


def own_party(hand: Hand, seat: int) -> int | None:
    """What ``seat`` knows of its own party: the table's knowledge, or its cards' (the
    ``EO`` in a normal game; the others of a Hochzeit do not know theirs before the
    Klärungsstich, nor anyone before the game is settled)."""
    known = shown(hand)[seat]
    if known is not None:
        return known
    kind = hand.pending["kind"]
    if kind is None or (kind == HOCHZEIT and hand.pending["k"] is None):
        return None
    return hand.team[seat]
