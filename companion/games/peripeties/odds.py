"""Exact odds of a trial roll (spec section 7, R10, R11, D13).

One die of ``die`` sides (10 or 12) is rolled; total = roll + ``modifier``; success iff
total >= ``difficulty``, except that (with the ``naturals`` rule, the default) the
natural maximum always succeeds and a natural 1 always fails:

    P(success) = P(natural max) + P(2 <= roll <= max-1 and roll + modifier >= difficulty)

Computed by counting faces (exact :class:`~fractions.Fraction`), never simulated.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["success_probability", "needed_roll", "is_success"]


def is_success(roll: int, die: int, modifier: int, difficulty: int, naturals: bool = True) -> tuple[bool, str | None]:
    """Outcome of one roll and which natural rule decided it (``"max"``, ``"one"``).

    The spec's P4: a D12 character with combat 9 against difficulty 5 fails on a natural
    1, and a D10 character's 10 always succeeds:

    >>> is_success(1, 12, 9, 5)
    (False, 'one')
    >>> is_success(10, 10, 0, 20)
    (True, 'max')
    >>> is_success(10, 10, 0, 20, naturals=False)
    (False, None)
    """
    if naturals:
        if roll == die:
            return True, "max"
        if roll == 1:
            return False, "one"
    return roll + modifier >= difficulty, None


def success_probability(die: int, modifier: int, difficulty: int, naturals: bool = True) -> Fraction:
    """Exact chance that a trial succeeds.

    >>> success_probability(10, 7, 15)  # 8, 9 and the natural 10
    Fraction(3, 10)
    >>> success_probability(12, 30, 2)  # all but the natural 1
    Fraction(11, 12)
    """
    if die < 2:
        raise ValueError("a trial die has at least 2 sides")
    wins = sum(1 for r in range(1, die + 1) if is_success(r, die, modifier, difficulty, naturals)[0])
    return Fraction(wins, die)


def needed_roll(die: int, modifier: int, difficulty: int, naturals: bool = True) -> int:
    """The smallest natural roll that succeeds (``die`` when only the natural max does).

    >>> needed_roll(10, 7, 15), needed_roll(10, 0, 25), needed_roll(10, 0, 25, naturals=False)
    (8, 10, 11)
    """
    for r in range(1, die + 1):
        if is_success(r, die, modifier, difficulty, naturals)[0]:
            return r
    return die + 1  # only without the naturals rule: nothing succeeds
