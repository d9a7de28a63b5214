"""The d10 toolkit against brute-force enumeration of every face and against icepool."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from companion.odds.d10 import DieClasses, Dist, OddsError, compare, convolve, joint, joint3, net_polynomials, reroll, successes


def _faces_die(k: int) -> tuple[DieClasses, list[str]]:
    """A d10 whose faces 1 = one, the top ``k`` faces = success, the rest other."""
    classes = ["one"] + ["other"] * (9 - k) + ["success"] * k
    return DieClasses(k, 1, 9 - k), classes


def _brute_joint(n: int, classes: list[str]) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for roll in itertools.product(range(10), repeat=n):
        s = sum(classes[f] == "success" for f in roll)
        u = sum(classes[f] == "one" for f in roll)
        out[(s, u)] = out.get((s, u), 0) + 1
    return out


@pytest.mark.parametrize("k", [0, 1, 3, 8, 9])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_joint_counts_every_face(n: int, k: int) -> None:
    die, classes = _faces_die(k)
    d = joint(n, die)
    assert d.total == 10**n
    assert {key: w for key, w in d.weights.items() if w} == _brute_joint(n, classes)


@pytest.mark.parametrize("k", [1, 4, 9])
def test_successes_and_net_match_joint(k: int) -> None:
    die, _ = _faces_die(k)
    polys = net_polynomials(12, die)
    for n in range(13):
        j = joint(n, die)
        nonzero = {s: w for s, w in successes(n, die).weights.items() if w}
        assert nonzero == j.map(lambda x: x[0]).weights
        net = j.map(lambda x: x[0] - x[1])
        assert sum(polys[n]) == 10**n
        for dlt in range(-n, n + 1):
            assert polys[n][n + dlt] == net.weights.get(dlt, 0)


def test_successes_is_binomial() -> None:
    die = DieClasses(3, 1, 6)
    d = successes(6, die)
    assert d.probability(lambda s: s == 0) == Fraction(7, 10) ** 6
    assert d.probability() == 1


@pytest.mark.parametrize("rerolls", [1, 2, 3])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_reroll_matches_enumeration(n: int, rerolls: int) -> None:
    """Roll, re-roll up to R failed dice (1s first), enumerate every face of both rolls."""
    die, classes = _faces_die(3)

    def policy(s: int, u: int, o: int) -> tuple[int, int]:
        a = min(rerolls, u)
        return a, min(rerolls - a, o)

    got = reroll(n, die, policy)
    most = min(n, rerolls)
    brute: dict[tuple[int, int], int] = {}
    for roll in itertools.product(range(10), repeat=n):
        cls = [classes[f] for f in roll]
        order = [i for i, c in enumerate(cls) if c == "one"] + [i for i, c in enumerate(cls) if c == "other"]
        chosen = order[:rerolls]
        for new in itertools.product(range(10), repeat=most):
            final = list(cls)
            for i, f in zip(chosen, new):
                final[i] = classes[f]
            key = (final.count("success"), final.count("one"))
            brute[key] = brute.get(key, 0) + 1  # unused new faces pad the count uniformly
    assert got.total == 10 ** (n + most)
    assert {k: w for k, w in got.weights.items() if w} == brute


def test_reroll_rejects_a_bad_policy() -> None:
    with pytest.raises(OddsError):
        reroll(3, DieClasses(3, 1, 6), lambda s, u, o: (u + 1, 0))


def test_compare_and_convolve() -> None:
    a = Dist({0: 1, 1: 1}, 2)
    b = Dist({0: 1, 1: 1}, 2)
    gt, eq, lt = compare(a, b)
    assert (gt, eq, lt) == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    s = convolve([a, b], lambda x, y: x + y)
    assert s.fractions() == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(OddsError):
        joint(-1, DieClasses(3, 1, 6))
    with pytest.raises(OddsError):
        DieClasses(-1, 1, 6)


@given(st.integers(0, 9), st.integers(0, 25))
def test_joint3_sums_to_one(k: int, n: int) -> None:
    d = joint3(n, DieClasses(k, 1, 9 - k))
    assert sum(d.weights.values()) == d.total
    assert all(s + u + o == n for s, u, o in d.weights)


@pytest.mark.parametrize("n", [10, 25, 40])
def test_joint_against_icepool(n: int) -> None:
    icepool = pytest.importorskip("icepool")
    die = DieClasses(3, 1, 6)
    ours = joint(n, die).map(lambda k: k[0] - k[1])
    ref = n @ icepool.Die({1: 3, -1: 1, 0: 6})
    for outcome, q in ref.items():
        assert Fraction(ours.weights.get(outcome, 0), ours.total) == Fraction(q, ref.denominator())
