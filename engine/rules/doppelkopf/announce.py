"""When a party may announce (RULINGS.md D7): the deadlines by the cards the announcer still
holds, skipping steps, and the late reply.

A party's level ``L`` is 0 (nothing said), 1 (Re resp. Kontra), 2 (keine 90) ... 5 (schwarz).
Step ``j`` is in time while the announcer holds ``h >= thr(j) = n - j - shift`` cards
(D7.4), ``n`` the cards dealt (12, or 10 without nines) and ``shift`` the Hochzeit's
``k - 1`` (D7.6). Raising from ``L`` to any higher step needs step ``L + 1`` in time (D7.5).
A party that has said nothing and missed its own deadline may still say Re resp. Kontra as a
reply while ``h >= thr(L_O) - 1``, ``L_O`` the other party's level (D7.7, D14.9); it may make
no Absage after that (D14.8).

>>> steps(12, 0, held=12, own=0, other=0, replied=False)   # Re, or any Absage at once
((1, 2, 3, 4, 5), False)
>>> steps(12, 0, held=10, own=1, other=0, replied=False)   # keine 90 until the third card
((2, 3, 4, 5), False)
>>> steps(12, 0, held=9, own=0, other=2, replied=False)    # D13.2 (c): Re as a late reply
((1,), True)
>>> steps(12, 1, held=10, own=0, other=0, replied=False)   # D13.4: a Hochzeit, k = 2
((1, 2, 3, 4, 5), False)
>>> steps(12, 0, held=8, own=0, other=2, replied=False)    # too late even as a reply
((), False)
"""

from __future__ import annotations

#: The highest step, schwarz.
TOP = 5


def threshold(n: int, step: int, shift: int) -> int:
    """D7.4: the fewest cards an announcer may hold when making ``step``."""
    return n - step - shift


def steps(n: int, shift: int, *, held: int, own: int, other: int, replied: bool
          ) -> tuple[tuple[int, ...], bool]:
    """The levels the party may raise itself to now, by a seat holding ``held`` cards, and
    whether that is a late reply (then only level 1)."""
    if own >= TOP:
        return (), False
    if held >= threshold(n, own + 1, shift):
        if own and replied:
            return (), False  # D14.8: no Absage after a late reply
        return tuple(range(own + 1, TOP + 1)), False
    if not own and other and held >= threshold(n, other, shift) - 1:
        return (1,), True  # D7.7
    return (), False


#: ``floor`` of a party that may announce nothing more.
NEVER = 99


def floor(n: int, shift: int, *, own: int, other: int, replied: bool) -> int:
    """The fewest cards a seat of the party may hold and still announce something:
    ``steps`` is not empty exactly while ``held >= floor``. (The tricks ask this of every
    seat after every card: it changes only with an announcement.)

    >>> floor(12, 0, own=0, other=0, replied=False), floor(12, 0, own=0, other=2, replied=False)
    (11, 9)
    """
    best = NEVER
    if own < TOP and not (own and replied):
        best = threshold(n, own + 1, shift)
    if not own and other:
        best = min(best, threshold(n, other, shift) - 1)
    return best
