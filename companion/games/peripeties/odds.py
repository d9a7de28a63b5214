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
    """Outcome of one roll and which natural rule decided it (``"max"``, ``"one"``)."""
    if naturals:
        if roll == die:
            return True, "max"
        if roll == 1:
            return False, "one"
    return roll + modifier >= difficulty, None


def success_probability(die: int, modifier: int, difficulty: int, naturals: bool = True) -> Fraction:
    """Exact chance that a trial succeeds."""
    if die < 2:
        raise ValueError("a trial die has at least 2 sides")
    wins = sum(1 for r in range(1, die + 1) if is_success(r, die, modifier, difficulty, naturals)[0])
    return Fraction(wins, die)


def needed_roll(die: int, modifier: int, difficulty: int, naturals: bool = True) -> int:
    """The smallest natural roll that succeeds (``die`` when only the natural max does)."""
    for r in range(1, die + 1):
        if is_success(r, die, modifier, difficulty, naturals)[0]:
            return r
    return die + 1  # only without the naturals rule: nothing succeeds
