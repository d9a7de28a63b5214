"""Exact Shayo odds, checked against a brute-force enumeration of real dice (small pools,
with signatures) and against icepool (an independent library) on pools up to 40 dice.

Neither oracle uses the game's code: the net successes of a roll are found here by trying
every keep the rules allow (R2, R3 step 6-7, A1, A2, A5) and taking the player's best,
not by the game's keep policy (``best_keep``/``count``) or its closed form
(``net_from_counts``)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Iterator

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.shayo.odds import PoolSpec, net_distribution, pool_from, success_probability
from companion.games.shayo.signatures import CATALOGUE, Signature

SCOPES = ("all_rolled", "kept_only", "ones_forced_kept")


# -- the rules, read afresh: the best keep, by trying them all ---------------------------------
def keep_sizes(k: int, n: int) -> int:
    """A5: keep ``k``, but never more than were rolled."""
    return max(0, min(k, n))


def best_net(values: list[int], cancelled: list[bool], k: int, d: int, scope: str) -> int:
    """Net successes of concrete dice for a player who keeps the best legal set.

    A die is an active 1 if it reads 1 and no "cancel a 1" took it; a kept die is a success
    if it is not a 1 and reaches ``d`` (R2). The 1s that cancel (A1): every active 1 rolled
    (``all_rolled``), or only the kept ones (``kept_only``, ``ones_forced_kept``); with
    ``ones_forced_kept`` the active 1s must fill the keep first. Net = max(0, successes -
    cancelling 1s) (A2).
    """
    size = keep_sizes(k, len(values))
    if size == 0:
        return 0
    active = [v == 1 and not c for v, c in zip(values, cancelled)]
    best = 0
    for keep in itertools.combinations(range(len(values)), size):
        kept_ones = sum(active[i] for i in keep)
        if scope == "ones_forced_kept" and kept_ones < min(sum(active), size):
            continue
        successes = sum(1 for i in keep if values[i] != 1 and values[i] >= d)
        ones = sum(active) if scope == "all_rolled" else kept_ones
        best = max(best, max(0, successes - ones))
    return best


def best_net_from_counts(ones: int, successes: int, others: int, k: int, scope: str) -> int:
    """The same by category counts (for icepool): try every split of the keep among the three."""
    size = keep_sizes(k, ones + successes + others)
    best = 0
    for a in range(min(ones, size) + 1):
        for b in range(min(successes, size - a) + 1):
            if size - a - b > others:
                continue
            if scope == "ones_forced_kept" and a < min(ones, size):
                continue
            best = max(best, max(0, b - (ones if scope == "all_rolled" else a)))
    return best


def test_the_oracles_on_the_rules_examples() -> None:
    """S1/S2 of the rules, by hand: [1, 8, 6] keep 2 at 6, and [1, 1, 7] keep 2 at 7."""
    assert [best_net([1, 8, 6], [False] * 3, 2, 6, sc) for sc in SCOPES] == [1, 2, 0]
    assert best_net([1, 1, 7], [False] * 3, 2, 7, "all_rolled") == 0
    assert best_net([1, 8, 6], [True, False, False], 2, 6, "all_rolled") == 2  # a cancelled 1
    assert best_net([9, 9], [False] * 2, 4, 6, "all_rolled") == 2  # S3: keep all rolled
    assert [best_net_from_counts(1, 2, 0, 2, sc) for sc in SCOPES] == [1, 2, 0]
    assert best_net_from_counts(2, 1, 0, 2, "all_rolled") == 0


# -- brute force on real dice ---------------------------------------------------------------
def _rerolls(dice: list[int], idx: list[int], fn) -> Iterator[tuple[list[int], list[int]]]:
    """Every outcome of re-rolling the dice at ``idx`` (each weight 1 of 10**len(idx))."""
    for faces in itertools.product(range(1, 11), repeat=len(idx)):
        new = list(dice)
        extra: list[int] = []
        for i, f in zip(idx, faces):
            r = fn(new, i, f)
            if r is not None:
                extra.append(r)
        yield new + extra, []


def brute(n: int, k: int, d: int, scope: str, sigs: dict, tens_mode: str = "explode") -> dict[int, Fraction]:
    """The sensible player's policy on concrete dice (see odds.py), fully enumerated."""
    plus = sigs.get("plus_one", 0)
    tens_sig = sigs.get("tens", 0)

    def slots(dice: list[int], ones: int) -> int:
        return k - min(ones, k) if scope == "ones_forced_kept" else k

    def succ(dice: list[int]) -> int:
        return sum(1 for v in dice if v != 1 and v >= d)

    def take(c, pool):
        return pool if c is None else pool[:c]

    results: dict[int, int] = {}
    # integer weights over the common denominator 10**exp (exact, and fast)
    exp = n + 3 * n + 2

    def finish(dice: list[int], w: int) -> None:
        ones_idx = [i for i, v in enumerate(dice) if v == 1]
        c = sigs.get("cancel", 0)
        cancel = ones_idx if c is None else ones_idx[:c]
        cancelled = [i in cancel for i in range(len(dice))]
        active = len(ones_idx) - len(cancel)
        vals = list(dice)
        if plus != 0:
            room = max(0, slots(vals, active) - succ(vals))
            near = [i for i, v in enumerate(vals) if v != 1 and v == d - 1]
            for i in take(plus, near)[:room]:
                vals[i] += 1
        net = best_net(vals, cancelled, k, d, scope)
        results[net] = results.get(net, 0) + w

    def step_tens(dice: list[int], w: int) -> None:
        if tens_sig == 0:
            return finish(dice, w)
        tens = [i for i, v in enumerate(dice) if v == 10]
        if tens_mode == "extra_die":
            ones = sum(1 for v in dice if v == 1)
            if succ(dice) >= slots(dice, ones):
                tens = []
        idx = take(tens_sig, tens)
        if not idx:
            return finish(dice, w)
        if tens_mode == "explode":
            fn = lambda new, i, f: new.__setitem__(i, 10 + f)  # noqa: E731
        else:
            fn = lambda new, i, f: f  # noqa: E731
        for new, _ in _rerolls(dice, idx, fn):
            finish(new, w // 10 ** len(idx))

    def step_fail(dice: list[int], w: int) -> None:
        c = sigs.get("failures", 0)
        ones = sum(1 for v in dice if v == 1)
        if c == 0 or d > 10 or succ(dice) >= slots(dice, ones):
            return step_tens(dice, w)
        is_ten_split = tens_sig != 0
        cand = [i for i, v in enumerate(dice) if v != 1 and v < d and not (is_ten_split and v == 10)]
        near_split = plus != 0
        plain = [i for i in cand if not (near_split and dice[i] == d - 1)]
        near = [i for i in cand if near_split and dice[i] == d - 1]
        want = len(cand) if c is None else c
        a = plain[:want]
        excess = 0 if plus is None else max(0, len(near) - plus)
        b = near[:min(want - len(a), excess)]
        idx = a + b
        if not idx:
            return step_tens(dice, w)
        for new, _ in _rerolls(dice, idx, lambda new, i, f: new.__setitem__(i, f)):
            step_tens(new, w // 10 ** len(idx))

    def step_ones(dice: list[int], w: int) -> None:
        c = sigs.get("ones", 0)
        idx = take(c, [i for i, v in enumerate(dice) if v == 1]) if c != 0 else []
        if not idx:
            return step_fail(dice, w)
        for new, _ in _rerolls(dice, idx, lambda new, i, f: new.__setitem__(i, f)):
            step_fail(new, w // 10 ** len(idx))

    if n <= 0 or k <= 0:
        return {0: Fraction(1)}
    for roll in itertools.product(range(1, 11), repeat=n):
        step_ones(list(roll), 10 ** (exp - n))
    return {net: Fraction(w, 10**exp) for net, w in sorted(results.items())}


def _sigs(spec_sigs: dict) -> list[Signature]:
    out = []
    for key, c in spec_sigs.items():
        kind, which = {"ones": ("reroll", "ones"), "failures": ("reroll", "failures"), "tens": ("reroll", "tens"),
                       "cancel": ("cancel_one", None), "plus_one": ("plus_one", None)}[key]
        out.append(Signature(f"s_{key}", kind, which, c))
    return out


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("n,k,d", [(1, 1, 6), (3, 2, 6), (4, 2, 7), (4, 5, 5), (3, 1, 10), (2, 2, 11), (0, 2, 5), (3, 0, 5)])
def test_plain_pool_matches_brute_force(scope: str, n: int, k: int, d: int) -> None:
    assert net_distribution(PoolSpec(n, k, d, scope)) == brute(n, k, d, scope, {})


SINGLE = [{"ones": 1}, {"failures": 1}, {"tens": 1}, {"cancel": 1}, {"plus_one": 1},
          {"ones": None}, {"cancel": None}, {"plus_one": None}]


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("sigs", SINGLE, ids=str)
@pytest.mark.parametrize("d", [6, 11])
def test_one_signature_matches_brute_force(scope: str, sigs: dict, d: int) -> None:
    spec = pool_from(3, 2, d, _sigs(sigs), scope)
    assert net_distribution(spec) == brute(3, 2, d, scope, sigs)


def test_two_failure_rerolls_match_brute_force() -> None:
    assert net_distribution(pool_from(3, 2, 6, _sigs({"failures": 2}))) == brute(3, 2, 6, "all_rolled", {"failures": 2})


COMBOS = [
    {"ones": 1, "failures": 1, "tens": 1, "cancel": 1, "plus_one": 1},
    {"failures": 1, "plus_one": 1},
    {"ones": 1, "tens": 1},
    {"failures": None, "plus_one": 1},
]


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("sigs", COMBOS, ids=str)
@pytest.mark.parametrize("d,tens_mode", [(7, "explode"), (12, "explode"), (11, "explode"), (7, "extra_die")])
def test_signature_combinations_match_brute_force(scope: str, sigs: dict, d: int, tens_mode: str) -> None:
    spec = pool_from(2, 2, d, _sigs(sigs), scope, tens_mode)
    assert net_distribution(spec) == brute(2, 2, d, scope, sigs, tens_mode)


def test_three_dice_with_every_catalogue_signature() -> None:
    sigs = {"ones": 1, "failures": 1, "tens": 1, "cancel": 1, "plus_one": 1}
    spec = pool_from(3, 2, 8, list(CATALOGUE.values()))
    assert net_distribution(spec) == brute(3, 2, 8, "all_rolled", sigs)


# -- icepool on larger pools --------------------------------------------------------------------
class _Counts(icepool.MultisetEvaluator):
    """icepool evaluator: (ones, successes, others) -> net successes."""

    def __init__(self, k: int, d: int, scope: str) -> None:
        self.k, self.d, self.scope = k, d, scope

    def next_state(self, state, order, outcome, count):  # type: ignore[override]
        o, s, f = state or (0, 0, 0)
        if outcome == 1:
            o += count
        elif outcome >= self.d:
            s += count
        else:
            f += count
        return (o, s, f)

    def final_outcome(self, final_state, order, outcomes, *sizes):  # type: ignore[override]
        o, s, f = final_state or (0, 0, 0)
        return best_net_from_counts(o, s, f, self.k, self.scope)


def _icepool(die: icepool.Die, n: int, k: int, d: int, scope: str) -> dict[int, Fraction]:
    result = _Counts(k, d, scope).evaluate(die.pool(n))
    den = result.denominator()
    return {int(o): Fraction(q, den) for o, q in result.items()}


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("n,k,d", [(12, 4, 7), (25, 5, 6), (40, 5, 8)])
def test_large_plain_pools_match_icepool(scope: str, n: int, k: int, d: int) -> None:
    assert net_distribution(PoolSpec(n, k, d, scope)) == _icepool(icepool.d10, n, k, d, scope)


@pytest.mark.parametrize("n,k,d", [(15, 4, 7), (40, 3, 9)])
def test_reroll_every_one_matches_icepool(n: int, k: int, d: int) -> None:
    spec = pool_from(n, k, d, [Signature("r1", "reroll", "ones", None)])
    assert net_distribution(spec) == _icepool(icepool.d10.reroll([1], depth=1), n, k, d, "all_rolled")


@pytest.mark.parametrize("n,k,d", [(12, 4, 13), (30, 5, 15)])
def test_explode_every_ten_matches_icepool(n: int, k: int, d: int) -> None:
    spec = pool_from(n, k, d, [Signature("r10", "reroll", "tens", None)])
    assert net_distribution(spec) == _icepool(icepool.d10.explode([10], depth=1), n, k, d, "all_rolled")


# -- properties -------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 40), k=st.integers(0, 8), d=st.integers(2, 14),
       scope=st.sampled_from(SCOPES), ids=st.sets(st.sampled_from(sorted(CATALOGUE)), max_size=3))
def test_distribution_is_a_distribution(n: int, k: int, d: int, scope: str, ids: set[str]) -> None:
    dist = net_distribution(pool_from(n, k, d, [CATALOGUE[i] for i in sorted(ids)], scope))
    assert sum(dist.values()) == 1
    assert all(0 <= net <= min(n, k) for net in dist)
    assert all(p > 0 for p in dist.values())


def test_success_probability_is_the_tail() -> None:
    spec = PoolSpec(6, 3, 7)
    dist = net_distribution(spec)
    for r in (1, 2, 3):
        assert success_probability(spec, r) == sum(p for net, p in dist.items() if net >= r)
    assert success_probability(spec, 4) == 0


def test_difficulty_above_ten_needs_help() -> None:
    """A18: no d10 reaches 11 unless a '+1' or an exploding 10 helps."""
    assert success_probability(PoolSpec(10, 3, 11)) == 0
    assert success_probability(pool_from(10, 3, 11, [CATALOGUE["plus_1"]])) > 0
    assert success_probability(pool_from(10, 3, 11, [CATALOGUE["relance_10"]])) > 0


def test_difficulty_below_two_is_refused() -> None:
    with pytest.raises(ValueError):
        PoolSpec(3, 2, 1)


# -- state merging ----------------------------------------------------------------------------
@pytest.mark.parametrize("scope,sigs", [
    ("all_rolled", {"ones": 1}), ("ones_forced_kept", {"ones": 1}), ("all_rolled", {"failures": 1}),
    ("all_rolled", {"cancel": 1, "plus_one": 1}), ("kept_only", {"cancel": 1, "plus_one": 1}),
    ("all_rolled", {"tens": 1})], ids=str)
def test_saturated_counts_match_brute_force(scope: str, sigs: dict) -> None:
    """Keep 1 of 4: the categories' counts exceed their caps, so merged states are used."""
    d = 12 if "tens" in sigs else 7
    assert net_distribution(pool_from(4, 1, d, _sigs(sigs), scope)) == brute(4, 1, d, scope, sigs)


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("d,tens_mode", [(6, "extra_die"), (11, "explode"), (13, "explode")])
def test_merging_states_changes_nothing(monkeypatch: pytest.MonkeyPatch, scope: str, d: int, tens_mode: str) -> None:
    from companion.games.shayo import odds

    spec = pool_from(14, 3, d, list(CATALOGUE.values()), scope, tens_mode)
    merged = net_distribution(spec)
    odds._exact.cache_clear()
    monkeypatch.setattr(odds, "_caps", lambda spec, n: (10**6,) * 5)
    assert odds.net_distribution(spec) == merged
    odds._exact.cache_clear()
