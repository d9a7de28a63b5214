"""Exact odds toolkits shared by the games (standard library only, no numpy).

:mod:`companion.odds.d10` counts the outcomes of pools of ten-sided dice whose faces
split into success / one / other failure (Wuxia, Shayo...).
"""

from __future__ import annotations

from .d10 import SIDES, DieClasses, Dist, OddsError, compare, convolve, joint, joint3, net_polynomials, reroll, successes

__all__ = [
    "SIDES",
    "DieClasses",
    "Dist",
    "OddsError",
    "compare",
    "convolve",
    "joint",
    "joint3",
    "net_polynomials",
    "reroll",
    "successes",
]
