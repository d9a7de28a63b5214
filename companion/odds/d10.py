"""Exact odds for pools of ten-sided dice, computed, never simulated.

A die of a d10 pool game falls into one of three classes once its face is read:
a *success*, a *one* (the face 1, which usually has a rule of its own) or an *other*
failure. Which faces are which depends on the game (a threshold, a target...), so a die
is described here by how many of its faces fall in each class: :class:`DieClasses`.

Everything is counted with integers: a pool of ``n`` dice has ``sides ** n`` equally
likely outcomes and a :class:`Dist` holds, for each result, *how many* of those outcomes
give it. Probabilities are exact :class:`~fractions.Fraction` values; a ``float`` made
from them (``count / total``) is correctly rounded. No floating-point error accumulates,
whatever the pool size.

The building blocks:

- :func:`joint` -- the joint distribution of (successes, ones) of ``n`` dice (a
  trinomial, closed form);
- :func:`successes` -- the number of successes alone (a binomial);
- :func:`net_polynomials` -- the distribution of successes minus ones for every pool
  size ``0..n_max`` at once (one polynomial product per extra die), the fast path for
  whole tables;
- :func:`reroll` -- re-roll some dice after seeing the first roll, chosen by a policy
  that looks at the counts (successes, ones, others), the new faces replacing the old;
- :func:`compare` -- P(A > B), P(A = B), P(A < B) for two independent results.

This module knows nothing of any game: the games' odds modules (``companion.games.wuxia
.odds``...) map their rules onto it. It imports only the standard library.

Two Wuxia dice against a threshold of 8 (faces 8-10 succeed, 1 is a one): at least one
success is 1 - (7/10)² = 51 %:

>>> die = DieClasses(3, 1, 6)
>>> successes(2, die).probability(lambda s: s >= 1)
Fraction(51, 100)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Callable, Iterable, Mapping

__all__ = [
    "SIDES",
    "DieClasses",
    "Dist",
    "joint",
    "joint3",
    "successes",
    "convolve",
    "net_polynomials",
    "reroll",
    "compare",
    "OddsError",
]

#: Faces of a d10 (the "0" face counts 10).
SIDES = 10


class OddsError(ValueError):
    """A pool the toolkit cannot describe (negative size, impossible face counts)."""


@dataclass(frozen=True)
class DieClasses:
    """How the faces of one die split into success / one / other failure.

    ``success + one + other`` is the number of faces (10 for a d10). For Wuxia against a
    threshold of 8: faces 8, 9, 10 succeed, face 1 is a one, faces 2..7 are other
    failures: ``DieClasses(3, 1, 6)``.

    >>> DieClasses(3, 1, 6).sides
    10
    >>> DieClasses(-1, 1, 1)
    Traceback (most recent call last):
      ...
    companion.odds.d10.OddsError: impossible face counts DieClasses(success=-1, one=1, other=1)
    """

    success: int
    one: int
    other: int

    def __post_init__(self) -> None:
        if min(self.success, self.one, self.other) < 0 or self.sides <= 0:
            raise OddsError(f"impossible face counts {self!r}")

    @property
    def sides(self) -> int:
        return self.success + self.one + self.other


@dataclass(frozen=True)
class Dist:
    """An exact distribution: ``weights[result]`` outcomes out of ``total``.

    The weights are non-negative integers summing to ``total`` (results with weight 0
    may be left out).
    """

    weights: Mapping[Any, int]
    total: int

    def probability(self, pred: Callable[[Any], bool] | None = None) -> Fraction:
        """P(pred(result)); with no predicate, 1 (a sanity check)."""
        if pred is None:
            return Fraction(sum(self.weights.values()), self.total)
        return Fraction(sum(w for k, w in self.weights.items() if pred(k)), self.total)

    def count(self, pred: Callable[[Any], bool]) -> int:
        """How many of the ``total`` outcomes satisfy ``pred``."""
        return sum(w for k, w in self.weights.items() if pred(k))

    def map(self, f: Callable[[Any], Any]) -> "Dist":
        """The distribution of ``f(result)``."""
        out: dict[Any, int] = {}
        for k, w in self.weights.items():
            key = f(k)
            out[key] = out.get(key, 0) + w
        return Dist(out, self.total)

    def fractions(self) -> dict[Any, Fraction]:
        return {k: Fraction(w, self.total) for k, w in self.weights.items() if w}

    def floats(self) -> dict[Any, float]:
        """Each result's probability as a correctly rounded float."""
        return {k: w / self.total for k, w in self.weights.items() if w}

    def scaled(self, factor: int) -> "Dist":
        """The same distribution over ``total * factor`` outcomes (to share a denominator)."""
        return Dist({k: w * factor for k, w in self.weights.items()}, self.total * factor)


def _check_n(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise OddsError(f"a pool size must be a non-negative integer, not {n!r}")


def joint(n: int, die: DieClasses) -> Dist:
    """Joint distribution of ``(successes, ones)`` for ``n`` dice.

    ``weights[(s, u)] = C(n, s) C(n - s, u) success^s one^u other^(n-s-u)``, out of
    ``sides ** n``.

    >>> joint(1, DieClasses(3, 1, 6))
    Dist(weights={(0, 0): 6, (0, 1): 1, (1, 0): 3}, total=10)
    >>> joint(2, DieClasses(3, 1, 6)).map(lambda k: max(0, k[0] - k[1])).fractions()[2]  # both succeed
    Fraction(9, 100)
    """
    _check_n(n)
    ws, wu, wo = die.success, die.one, die.other
    out: dict[Any, int] = {}
    for s in range(n + 1):
        head = comb(n, s) * ws**s
        if head == 0:
            continue
        rest = n - s
        for u in range(rest + 1):
            w = head * comb(rest, u) * wu**u * wo ** (rest - u)
            if w:
                out[(s, u)] = w
    return Dist(out, die.sides**n)


def joint3(n: int, die: DieClasses) -> Dist:
    """Like :func:`joint` but keyed ``(successes, ones, others)`` (re-roll policies need
    the others)."""
    return joint(n, die).map(lambda k: (k[0], k[1], n - k[0] - k[1]))


def successes(n: int, die: DieClasses) -> Dist:
    """Distribution of the number of successes of ``n`` dice (a binomial)."""
    _check_n(n)
    ws, wf = die.success, die.one + die.other
    return Dist({s: comb(n, s) * ws**s * wf ** (n - s) for s in range(n + 1) if ws or s == 0}, die.sides**n)


def net_polynomials(n_max: int, die: DieClasses) -> list[list[int]]:
    """For every pool size ``n`` in ``0..n_max``, the counts of ``successes - ones``.

    ``result[n][n + d]`` is the number of the ``sides ** n`` outcomes with
    successes - ones = ``d`` (``d`` from ``-n`` to ``n``). Each size is the previous one
    multiplied by the one-die polynomial ``one x^-1 + other + success x``: O(n_max^2)
    integer operations for the whole column, which is what makes a full odds table cheap.

    >>> net_polynomials(2, DieClasses(3, 1, 6))  # (x^-1 + 6 + 3x)^n for n = 0, 1, 2
    [[1], [1, 6, 3], [1, 12, 42, 36, 9]]
    """
    _check_n(n_max)
    ws, wu, wo = die.success, die.one, die.other
    polys = [[1]]
    cur = [1]
    for _ in range(n_max):
        m = len(cur)
        nxt = [0] * (m + 2)
        for i, c in enumerate(cur):
            if c:
                nxt[i] += c * wu
                nxt[i + 1] += c * wo
                nxt[i + 2] += c * ws
        polys.append(nxt)
        cur = nxt
    return polys


Policy = Callable[[int, int, int], tuple[int, int]]
"""A re-roll policy: given (successes, ones, others) of the first roll, how many ones
and how many other failures to re-roll (successes are never re-rolled here)."""


def reroll(n: int, die: DieClasses, policy: Policy, new_die: DieClasses | None = None) -> Dist:
    """Joint ``(successes, ones)`` after one round of re-rolls chosen by ``policy``.

    The player rolls ``n`` dice, looks at them, re-rolls ``a`` ones and ``b`` other
    failures (``policy(s, u, o) -> (a, b)``, with ``a <= u`` and ``b <= o``); each
    re-rolled die's new face replaces the old, the dice not re-rolled are kept.
    ``new_die`` describes the re-rolled dice when they differ (default: same die).

    The result is exact: outcomes that re-roll fewer dice are counted as many times as
    the faces of the dice they did not need, so every branch shares the denominator
    ``sides ** (n + most re-rolled)``.

    One die, its 1 re-rolled: a one stays only if both rolls are 1 (1/100); a success
    comes first time or after the 1 (3/10 + 1/10 × 3/10):

    >>> dist = reroll(1, DieClasses(3, 1, 6), lambda s, u, o: (u, 0)).fractions()
    >>> dist[(0, 1)], dist[(1, 0)]
    (Fraction(1, 100), Fraction(33, 100))
    """
    _check_n(n)
    new_die = new_die or die
    first = joint3(n, die)
    plans: dict[tuple[int, int, int], tuple[int, int]] = {}
    most = 0
    for (s, u, o) in first.weights:
        a, b = policy(s, u, o)
        if not (0 <= a <= u and 0 <= b <= o):
            raise OddsError(f"policy re-rolls {a} ones and {b} others of {(s, u, o)}")
        plans[(s, u, o)] = (a, b)
        most = max(most, a + b)
    cache: dict[int, Dist] = {}
    out: dict[Any, int] = {}
    sides = new_die.sides
    for (s, u, o), w in first.weights.items():
        a, b = plans[(s, u, o)]
        m = a + b
        if m == 0:
            key = (s, u)
            out[key] = out.get(key, 0) + w * sides**most
            continue
        again = cache.get(m)
        if again is None:
            again = cache[m] = joint(m, new_die)
        pad = sides ** (most - m)
        for (s2, u2), w2 in again.weights.items():
            key = (s + s2, u - a + u2)
            out[key] = out.get(key, 0) + w * w2 * pad
    return Dist(out, first.total * sides**most)


def compare(a: Dist, b: Dist, key_a: Callable[[Any], Any] = lambda k: k,
            key_b: Callable[[Any], Any] = lambda k: k) -> tuple[Fraction, Fraction, Fraction]:
    """``(P(A > B), P(A = B), P(A < B))`` for independent ``a`` and ``b``.

    ``key_a`` / ``key_b`` turn a result into the comparable score (the successes of a
    joint distribution, say).

    >>> one = successes(1, DieClasses(3, 1, 6))
    >>> compare(one, one)  # 3/10 × 7/10 each way
    (Fraction(21, 100), Fraction(29, 50), Fraction(21, 100))
    """
    da = a.map(key_a)
    db = b.map(key_b)
    gt = eq = lt = 0
    for ka, wa in da.weights.items():
        for kb, wb in db.weights.items():
            if ka > kb:
                gt += wa * wb
            elif ka == kb:
                eq += wa * wb
            else:
                lt += wa * wb
    tot = da.total * db.total
    return Fraction(gt, tot), Fraction(eq, tot), Fraction(lt, tot)


def convolve(parts: Iterable[Dist], combine: Callable[[Any, Any], Any]) -> Dist:
    """The distribution of ``combine``-folding independent results (sum of pools...).

    >>> die = DieClasses(3, 1, 6)
    >>> convolve([successes(1, die), successes(1, die)], lambda a, b: a + b) == successes(2, die)
    True
    """
    it = iter(parts)
    acc = next(it)
    for d in it:
        out: dict[Any, int] = {}
        for ka, wa in acc.weights.items():
            for kb, wb in d.weights.items():
                k = combine(ka, kb)
                out[k] = out.get(k, 0) + wa * wb
        acc = Dist(out, acc.total * d.total)
    return acc
