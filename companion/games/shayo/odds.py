"""Exact odds of a Shayo test, computed (never simulated).

A test rolls ``rolled`` d10, keeps ``kept`` of them, counts kept dice at or above the
difficulty and lets 1s cancel successes (R2, A1, A2). Every die is independent, so the
roll is described by how many dice fall in each *category* relative to the difficulty:

``ONE`` (a 1), ``FAIL`` (neither a 1 nor a success), ``NEAR`` (a failure one below the
difficulty, only tracked when a "+1" signature exists), ``TEN`` (only tracked when a
10s signature exists) and ``SUCC``.

The distribution of those category counts is a multinomial, enumerated exactly with
integer weights over the common denominator ``10 ** dice``; signatures then move dice
between categories (a re-roll replaces ``r`` dice by the multinomial of ``r`` fresh dice),
and the final counts give the net successes. Category states with zero probability are
never created, so a plain test of 40 dice has only 861 states.

Player policy used for the odds (**[Decision A6]**, the sensible player at the table):
1s are always re-rolled and always cancelled when a signature allows; a failure (or an
extra die from a 10, option ``extra_die``) is re-rolled only while a keep slot still lacks
a success, and only if a success is possible; re-rolls take plain failures first, then
"near" failures a "+1" cannot already fix; "+1" goes to a near failure when a keep slot
lacks a success; exploding 10s are always re-rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Callable, Iterable, Mapping

from .signatures import Signature, merge_counts

__all__ = [
    "PoolError",
    "PoolSpec",
    "ONES_SCOPES",
    "TENS_MODES",
    "net_distribution",
    "success_probability",
    "net_from_counts",
    "pool_from",
    "as_floats",
]

ONES_SCOPES = ("all_rolled", "kept_only", "ones_forced_kept")
TENS_MODES = ("explode", "extra_die")

ONE, FAIL, NEAR, TEN, SUCC = range(5)
_NCAT = 5
MAX_DICE = 100  # [Decision] no maximum in the source; no tray holds more


class PoolError(ValueError):
    """A pool that cannot be rolled; ``fr`` and ``en`` say why (the message is English)."""

    def __init__(self, fr: str, en: str) -> None:
        super().__init__(en)
        self.fr, self.en = fr, en


@dataclass(frozen=True)
class PoolSpec:
    """Everything the odds of one test depend on (hashable: results are cached).

    ``effects`` is a sorted tuple of ``(kind, which, count)`` (``count`` ``None`` = every
    matching die), built from signatures by :func:`pool_from`.
    """

    rolled: int
    kept: int
    difficulty: int
    ones_scope: str = "all_rolled"
    tens_mode: str = "explode"
    effects: tuple[tuple[str, str | None, int | None], ...] = field(default=())
    ones_cancel: bool = True

    def __post_init__(self) -> None:
        why = self.problem()
        if why is not None:
            raise PoolError(*why)

    def problem(self) -> tuple[str, str] | None:
        """Why this pool cannot be rolled, in French and English, or ``None``."""
        if self.ones_scope not in ONES_SCOPES:
            return (f"la portée des 1 est l'une de {', '.join(ONES_SCOPES)}",
                    f"ones_scope must be one of {', '.join(ONES_SCOPES)}")
        if self.tens_mode not in TENS_MODES:
            return (f"les 10 se jouent selon l'un de {', '.join(TENS_MODES)}",
                    f"tens_mode must be one of {', '.join(TENS_MODES)}")
        if self.difficulty < 2:
            return ("la difficulté vaut au moins 2 (un d10 montre toujours 1 ou plus)",
                    "the difficulty must be at least 2 (a d10 always shows 1 or more)")
        if self.rolled > MAX_DICE or self.kept > MAX_DICE:
            return f"au plus {MAX_DICE} dés", f"at most {MAX_DICE} dice"
        return None

    def count(self, kind: str, which: str | None = None) -> int | None:
        """The signature count for an effect: 0 when absent, ``None`` when unlimited."""
        for k, w, c in self.effects:
            if k == kind and w == which:
                return c
        return 0


def pool_from(
    rolled: int,
    kept: int,
    difficulty: int,
    signatures: Iterable[Signature] = (),
    ones_scope: str = "all_rolled",
    tens_mode: str = "explode",
    ones_cancel: bool = True,
) -> PoolSpec:
    """A :class:`PoolSpec` from a test's numbers and its signatures."""
    merged = merge_counts(signatures)
    effects = tuple(sorted(((k, w, c) for (k, w), c in merged.items()), key=lambda e: (e[0], e[1] or "")))
    return PoolSpec(rolled, kept, difficulty, ones_scope, tens_mode, effects, ones_cancel)


# -- the category model ----------------------------------------------------------------
def _face_category(value: int, d: int, split_near: bool, split_ten: bool, fresh: bool = True) -> int:
    if fresh and value == 1:
        return ONE
    if fresh and value == 10 and split_ten:
        return TEN
    if value >= d:
        return SUCC
    if split_near and value == d - 1:
        return NEAR
    return FAIL


def _weights(values: Iterable[int], d: int, split_near: bool, split_ten: bool, fresh: bool) -> tuple[int, ...]:
    w = [0] * _NCAT
    for v in values:
        w[_face_category(v, d, split_near, split_ten, fresh)] += 1
    return tuple(w)


@lru_cache(maxsize=4096)
def _multinomial(n: int, weights: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every category-count vector of ``n`` dice with its number of face outcomes."""
    cats = [c for c in range(_NCAT) if weights[c]]
    out: list[tuple[tuple[int, ...], int]] = []

    def rec(i: int, left: int, counts: list[int], ways: int) -> None:
        c = cats[i]
        if i == len(cats) - 1:
            counts[c] = left
            out.append((tuple(counts), ways * weights[c] ** left))
            counts[c] = 0
            return
        for k in range(left + 1):
            counts[c] = k
            rec(i + 1, left - k, counts, ways * comb(left, k) * weights[c] ** k)
        counts[c] = 0

    if n == 0:
        return (((0,) * _NCAT, 1),)
    rec(0, n, [0] * _NCAT, 1)
    return tuple(out)


@lru_cache(maxsize=4096)
def _capped(n: int, weights: tuple[int, ...], caps: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The multinomial of ``n`` dice with every count capped (see :func:`_caps`).

    Small pools enumerate the exact multinomial and merge; large ones fold die by die
    over capped states, so the work grows with the dice, not with their combinations.
    """
    active = sum(1 for w in weights if w)
    if active <= 1 or comb(n + active - 1, active - 1) <= 200_000:
        return tuple(_cap(dict(_multinomial(n, weights)), caps).items())
    cats = [c for c in range(_NCAT) if weights[c]]
    dist: dict[tuple[int, ...], int] = {(0,) * _NCAT: 1}
    for _ in range(n):
        nxt: dict[tuple[int, ...], int] = {}
        for st, w in dist.items():
            for c in cats:
                if st[c] < caps[c]:
                    key = st[:c] + (st[c] + 1,) + st[c + 1:]
                else:
                    key = st
                nxt[key] = nxt.get(key, 0) + w * weights[c]
        dist = nxt
    return tuple(dist.items())


def _ten_is_success(d: int) -> bool:
    return d <= 10


def _successes(st: tuple[int, ...], d: int) -> int:
    return st[SUCC] + (st[TEN] if _ten_is_success(d) else 0)


def _near(st: tuple[int, ...], d: int) -> int:
    return st[NEAR] + (st[TEN] if d == 11 else 0)


def _slots(st: tuple[int, ...], kept: int, scope: str) -> int:
    """Keep slots that may hold a success (1s forced first take theirs)."""
    if scope == "ones_forced_kept":
        return kept - min(st[ONE], kept)
    return kept


def net_from_counts(ones: int, successes: int, others: int, kept: int, scope: str, ones_cancel: bool = True) -> int:
    """Net successes of a roll given its counts, with the best keep (R2, A1, A2).

    ``others`` are the non-1 dice that are not successes.
    """
    if kept <= 0:
        return 0
    if not ones_cancel:
        return min(kept, successes)
    if scope == "all_rolled":
        return max(0, min(kept, successes) - ones)
    if scope == "kept_only":
        forced = max(0, min(ones, kept - successes - others))
        return max(0, min(kept, successes) - forced)
    kept_ones = min(ones, kept)
    return max(0, min(kept - kept_ones, successes) - kept_ones)


def _add(dist: dict[tuple[int, ...], int], st: tuple[int, ...], w: int) -> None:
    dist[st] = dist.get(st, 0) + w


def _replace(
    dist: dict[tuple[int, ...], int],
    caps: tuple[int, ...],
    total_max: int,
    count: int | None,
    pick: Callable[[tuple[int, ...]], list[tuple[int, int]]],  # state -> (category, how many) to re-roll
    fresh: tuple[int, ...],
    keep_originals: bool = False,
) -> tuple[dict[tuple[int, ...], int], int]:
    """Re-roll the dice chosen by ``pick`` in every state; returns the new distribution
    and how many dice the step may add to the denominator exponent."""
    step_max = total_max if count is None else min(count, total_max)
    out: dict[tuple[int, ...], int] = {}
    for st, w in dist.items():
        moves = pick(st)
        r = sum(n for _, n in moves)
        if r == 0:
            _add(out, st, w * 10**step_max)
            continue
        base = list(st)
        if not keep_originals:
            for c, n in moves:
                base[c] -= n
        scale = w * 10 ** (step_max - r)
        for counts, ways in _capped(r, fresh, caps):
            new = tuple(base[i] + counts[i] for i in range(_NCAT))
            _add(out, new, scale * ways)
    return out, step_max


def _caps(spec: PoolSpec, n: int) -> tuple[int, ...]:
    """How far each category's count matters; beyond it, states are equivalent.

    A count is needed exactly up to what later steps may take from the category (a
    re-roll count, "+1" conversions) plus the keep, past which every formula saturates
    (net = min(keep, successes) - 1s; forced 1s; free keep slots). ``None`` counts
    (every matching die) need the exact count. Merging equivalent states keeps a
    40-die pool with every signature at a few thousand states.
    """
    k = spec.kept
    big = n + 10 * n + 1  # never reached: no cap

    def c(kind: str, which: str | None = None) -> int | None:
        return spec.count(kind, which)

    c1, c2, c3 = c("reroll", "ones"), c("reroll", "failures"), c("reroll", "tens")
    cancel, plus = c("cancel_one"), c("plus_one")
    one_cap = big if c1 is None else c1 + k + (0 if cancel is None else cancel)
    fail_cap = big if c2 is None else c2 + k
    near_cap = big if c2 is None else c2 + (k if plus is None else plus) + k
    ten_cap = big if c3 is None else c3 + k
    return (one_cap, fail_cap, near_cap, ten_cap, k)


def _cap(dist: dict[tuple[int, ...], int], caps: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    out: dict[tuple[int, ...], int] = {}
    for st, w in dist.items():
        key = tuple(x if x < cap else cap for x, cap in zip(st, caps))
        out[key] = out.get(key, 0) + w
    return out


@lru_cache(maxsize=512)
def _exact(spec: PoolSpec) -> tuple[tuple[int, Fraction], ...]:
    n, k, d = spec.rolled, spec.kept, spec.difficulty
    if n <= 0 or k <= 0:
        return ((0, Fraction(1)),)
    plus = spec.count("plus_one")
    tens = spec.count("reroll", "tens")
    split_near = plus != 0
    # An exploding 10 is already a success at difficulty 10 or less: nothing to track.
    split_ten = tens != 0 and not (spec.tens_mode == "explode" and d <= 10)
    if not split_ten:
        tens = 0
    faces = range(1, 11)
    base_w = _weights(faces, d, split_near, split_ten, True)
    # Dice born from a re-roll are fresh d10 (a new 10 is still a 10: no chaining, the
    # 10s effect has either run already or runs once on what is there).
    exploded_w = _weights((10 + x for x in faces), d, split_near, split_ten, False)
    scope = spec.ones_scope

    caps = _caps(spec, n)
    dist = dict(_capped(n, base_w, caps))
    exponent = n
    total_max = n

    def free_slot(st: tuple[int, ...]) -> bool:
        return _successes(st, d) < _slots(st, k, scope)

    # 1. re-roll 1s
    c = spec.count("reroll", "ones")
    if c != 0:
        def pick_ones(st: tuple[int, ...], c: int | None = c) -> list[tuple[int, int]]:
            r = st[ONE] if c is None else min(c, st[ONE])
            return [(ONE, r)] if r else []
        dist, e = _replace(dist, caps, total_max, c, pick_ones, base_w)
        dist = _cap(dist, caps)
        exponent += e
    # 2. re-roll failures
    c = spec.count("reroll", "failures")
    success_possible = base_w[SUCC] + (base_w[TEN] if _ten_is_success(d) else 0) > 0
    if c != 0 and success_possible:
        plus_n = plus  # None = unlimited
        def pick_fail(st: tuple[int, ...], c: int | None = c) -> list[tuple[int, int]]:
            if not free_slot(st):
                return []
            want = (st[FAIL] + st[NEAR]) if c is None else c
            a = min(want, st[FAIL])
            excess_near = 0 if plus_n is None else max(0, st[NEAR] - plus_n)
            b = min(want - a, excess_near)
            return [m for m in ((FAIL, a), (NEAR, b)) if m[1]]
        dist, e = _replace(dist, caps, total_max, c, pick_fail, base_w)
        dist = _cap(dist, caps)
        exponent += e
    # 3. re-roll 10s
    if tens != 0:
        if spec.tens_mode == "explode":
            def pick_tens(st: tuple[int, ...], c: int | None = tens) -> list[tuple[int, int]]:
                r = st[TEN] if c is None else min(c, st[TEN])
                return [(TEN, r)] if r else []
            dist, e = _replace(dist, caps, total_max, tens, pick_tens, exploded_w)
            dist = _cap(dist, caps)
            exponent += e
        else:
            def pick_extra(st: tuple[int, ...], c: int | None = tens) -> list[tuple[int, int]]:
                if not free_slot(st):
                    return []
                r = st[TEN] if c is None else min(c, st[TEN])
                return [(TEN, r)] if r else []
            dist, e = _replace(dist, caps, total_max, tens, pick_extra, base_w, keep_originals=True)
            dist = _cap(dist, caps)
            exponent += e
            total_max += e
    # 4. cancel 1s, 5. +1 on near failures, then count.
    cancel = spec.count("cancel_one")
    out: dict[int, int] = {}
    for st, w in dist.items():
        ones = st[ONE]
        if cancel != 0:
            ones = 0 if cancel is None else max(0, ones - cancel)
        cancelled = st[ONE] - ones
        s = _successes(st, d)
        converted = 0
        if plus != 0:
            room = max(0, _slots((ones,) + st[1:], k, scope) - s)
            near = _near(st, d)
            converted = min(room, near) if plus is None else min(plus, room, near)
        ten_fail = st[TEN] if d >= 12 else 0
        # non-1 dice that are not successes (cancelled 1s are harmless fillers); counted
        # from the parts because capped categories no longer add up to the dice rolled
        others = st[FAIL] + _near(st, d) - converted + ten_fail + cancelled
        net = net_from_counts(ones, s + converted, others, k, scope, spec.ones_cancel)
        out[net] = out.get(net, 0) + w
    denom = 10**exponent
    return tuple((net, Fraction(w, denom)) for net, w in sorted(out.items()))


def net_distribution(spec: PoolSpec) -> dict[int, Fraction]:
    """Exact distribution of net successes: ``{net: probability}`` (sums to 1)."""
    return dict(_exact(spec))


def success_probability(spec: PoolSpec, required: int = 1) -> Fraction:
    """Probability that net successes reach ``required`` (A3: default 1)."""
    return sum((p for net, p in _exact(spec) if net >= required), Fraction(0))


def as_floats(dist: Mapping[int, Fraction]) -> dict[str, float]:
    """A distribution as JSON: ``{"0": 0.25, ...}`` (string keys, floats)."""
    return {str(k): float(v) for k, v in sorted(dist.items())}
