"""Exact odds of an Appel (spec section 6): the probability of each of the five results.

The gems are drawn without replacement from the current pool, so the counts of each type
in a draw of k gems follow a multivariate hypergeometric law:

    P(k_1..k_6) = prod_i C(pool_i, k_i) / C(total, k)

Every composition is enumerated exactly (at most C(17, 5) = 6188 for 12 gems of 6 types),
no sampling; probabilities are exact fractions (also given as floats). The result of a
composition depends only on which gem types are present, and is the one the chooser takes
for its side: the leader the best, the GM the worst (E7). Assumptions, all options:

- N in {1, -1}: with ``redraw`` the leader redraws (N = 1) when the first gem gives less
  than Success, the GM (N = -1) when it gives more than Failure; the second gem is taken
  from the pool with the first put back (E6 default) or set aside.
- ``prayer``: a Prayer gem the leader may add after the draw (R13). The leader adds it
  when it helps: when the leader chooses it can only help; when the GM chooses it must be
  placed, so the leader adds it only if the GM's worst pick then improves.
- ``talent`` False: the result is lowered one level (R24).
- |N| > 12: the automatic result (E8). A pool smaller than the draw: all of it (E9); an
  empty pool: :class:`OddsError`.

Imports nothing beyond the standard library: ``companion odds espri`` must start fast.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Iterator, Mapping, Sequence

from ...errors import CompanionError
from .options import DEFAULTS, Options, as_options
from .state import CF, F, GEMS, RESULTS, S, SEASONS
from .rules import apply_penalty, best_result, draw_plan

__all__ = ["OddsError", "appel_odds", "odds_by_n", "compositions", "DEFAULT_ODDS_OPTIONS"]

#: The options the odds depend on (the others change nothing in a draw's results).
_OPTION_KEYS: tuple[str, ...] = ("adjacent_modifier", "fixed_criticals", "max_draw", "automatic_success_draw",
                                 "redraw_first_gem", "no_talent_penalty")
#: Their defaults (derived from :class:`~.options.Options`, where each is stated once).
DEFAULT_ODDS_OPTIONS: Mapping[str, Any] = {k: getattr(DEFAULTS, k) for k in _OPTION_KEYS}


class OddsError(CompanionError):
    """The odds cannot be computed (empty pool, bad argument)."""


def compositions(pool: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """Every (k_1..k_6) with sum k and k_i <= pool_i."""
    m = len(pool)
    suffix = [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        suffix[i] = suffix[i + 1] + pool[i]
    parts = [0] * m

    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == m - 1:
            if left <= pool[i]:
                parts[i] = left
                yield tuple(parts)
            return
        lo = max(0, left - suffix[i + 1])
        for x in range(lo, min(pool[i], left) + 1):
            parts[i] = x
            yield from rec(i + 1, left - x)

    if 0 <= k <= suffix[0]:
        yield from rec(0, k)


def _level(counts: Sequence[int], called: str, options: Options, chooser: str,
           prayer: str | None) -> int:
    plain = best_result(counts, called, options, chooser)
    if prayer is None:
        return plain
    with_p = list(counts)
    with_p[GEMS.index(prayer)] += 1
    if chooser == "leader":
        return max(plain, best_result(with_p, called, options, "leader"))
    return max(plain, best_result(with_p, called, options, "gm", must=prayer))


def _dist(pool: tuple[int, ...], k: int, called: str, opts: Options, chooser: str,
          prayer: str | None) -> list[Fraction]:
    """Distribution of the chooser's result (before the Talent penalty) for a k-gem draw."""
    total = sum(pool)
    denom = comb(total, k)
    nums = [0] * 5
    cache: dict[int, int] = {}
    for comp in compositions(pool, k):
        mask = 0
        w = 1
        for i, x in enumerate(comp):
            if x:
                mask |= 1 << i
                w *= comb(pool[i], x)
        lvl = cache.get(mask)
        if lvl is None:
            lvl = _level(comp, called, opts, chooser, prayer)
            cache[mask] = lvl
        nums[lvl] += w
    return [Fraction(x, denom) for x in nums]


def _single_with_redraw(pool: tuple[int, ...], called: str, opts: Options,
                        redraw_by: str, prayer: str | None) -> list[Fraction]:
    total = sum(pool)
    out = [Fraction(0)] * 5
    same_pool = _dist(pool, 1, called, opts, "leader", prayer)
    for i, have in enumerate(pool):
        if not have:
            continue
        p_first = Fraction(have, total)
        single = [0] * len(GEMS)
        single[i] = 1
        lvl = _level(single, called, opts, "leader", prayer)
        redraw = lvl < S if redraw_by == "leader" else lvl > F
        if not redraw:
            out[lvl] += p_first
            continue
        if opts.redraw_first_gem == "aside":
            rest = tuple(c - (1 if j == i else 0) for j, c in enumerate(pool))
            if sum(rest) == 0:
                out[lvl] += p_first
                continue
            second = _dist(rest, 1, called, opts, "leader", prayer)
        else:
            second = same_pool
        for j in range(5):
            out[j] += p_first * second[j]
    return out


def appel_odds(pool: Sequence[int], called: str, n: int, options: Options | Mapping[str, Any] | None = None,
               talent: bool = True, prayer: str | None = None, redraw: bool = True) -> dict[str, Any]:
    """Exact probabilities of the five results of an Appel with N = ``n``.

    Returns ``{"N", "n", "draw", "chooser", "redraw_by", "automatic", "results", "exact",
    "p_called"}``: ``N`` is the signed gem count of R11, ``n`` (= ``draw``) the number of
    gems actually drawn (|N| capped at 12, at most the pool; 0 for an automatic Critical
    Failure; 1 for N in -1..1).
    """
    key = _odds_key(options)
    if called not in SEASONS:
        raise OddsError(f"unknown Season {called!r}; Seasons are {', '.join(SEASONS)}")
    if prayer is not None and prayer not in GEMS:
        raise OddsError(f"unknown Prayer gem {prayer!r}; gems are {', '.join(GEMS)}")
    pool_t = tuple(int(x) for x in pool)
    if len(pool_t) != len(GEMS) or any(x < 0 for x in pool_t):
        raise OddsError("the pool needs 6 counts >= 0 (printemps, ete, automne, hiver, temps, rupture)")
    out = dict(_cached(pool_t, called, int(n), key, talent, prayer, redraw))
    out["results"] = dict(out["results"])
    out["exact"] = dict(out["exact"])
    return out


def _odds_key(options: Options | Mapping[str, Any] | None) -> tuple[Any, ...]:
    """The values of the options the odds depend on: typed options as they are; a
    mapping names some options (the others keep their defaults; options the odds do not
    depend on are ignored), each checked like the game's."""
    if options is not None and not isinstance(options, Options):
        if not isinstance(options, Mapping):
            raise OddsError(f"the options are a mapping of named options, not {type(options).__name__}")
        try:
            options = as_options({k: v for k, v in options.items() if k in _OPTION_KEYS})
        except CompanionError as exc:
            raise OddsError(str(exc)) from None
    opts = as_options(options)
    return tuple(getattr(opts, k) for k in _OPTION_KEYS)


@lru_cache(maxsize=4096)
def _cached(pool: tuple[int, ...], called: str, n: int, key: tuple[Any, ...], talent: bool,
            prayer: str | None, redraw: bool) -> tuple[tuple[str, Any], ...]:
    opts = replace(DEFAULTS, **dict(zip(_OPTION_KEYS, key)))
    plan = draw_plan(n, opts)
    total = sum(pool)
    p_called: Fraction | None = None
    if plan["automatic"] is not None:
        dist = [Fraction(0)] * 5
        dist[4 if plan["automatic"] == "critical_success" else CF] = Fraction(1)
        k = min(plan["count"], total)
    else:
        if total == 0:
            raise OddsError("the pool is empty: the Appel cannot be resolved (Communion Ritual, R35, or a GM ruling)")
        k = min(plan["count"], total)
        if k == 1 and redraw and plan["redraw_by"]:
            dist = _single_with_redraw(pool, called, opts, plan["redraw_by"], prayer)
        else:
            dist = _dist(pool, k, called, opts, plan["chooser"], prayer)
        ci = GEMS.index(called)
        p_called = 1 - Fraction(comb(total - pool[ci], k), comb(total, k))
        if not talent:
            pen = opts.no_talent_penalty
            moved = [Fraction(0)] * 5
            for lvl, p in enumerate(dist):
                moved[apply_penalty(lvl, pen)] += p
            dist = moved
    if sum(dist) != 1:  # pragma: no cover - a bug, never a user error
        raise OddsError(f"internal error: the probabilities add up to {sum(dist)}, not 1")
    return (
        ("N", n),
        ("n", k),
        ("draw", k),
        ("chooser", plan["chooser"]),
        ("redraw_by", plan["redraw_by"] if redraw else None),
        ("automatic", plan["automatic"]),
        ("results", {RESULTS[i]: float(p) for i, p in enumerate(dist)}),
        ("exact", {RESULTS[i]: f"{p.numerator}/{p.denominator}" for i, p in enumerate(dist)}),
        ("p_called", float(p_called) if p_called is not None else None),
    )


def odds_by_n(pool: Sequence[int], called: str, options: Options | Mapping[str, Any] | None = None,
              talent: bool = True, prayer: str | None = None, lo: int = -12, hi: int = 12) -> list[dict[str, Any]]:
    """:func:`appel_odds` for every N from ``lo`` to ``hi`` (default -12..12)."""
    return [appel_odds(pool, called, n, options, talent, prayer) for n in range(lo, hi + 1)]


