"""Wuxia odds: the spec's table, its scenarios, brute force and icepool (R16-R18)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings, strategies as st

from companion.games.wuxia.dice import evaluate, outcome_of
from companion.games.wuxia.odds import contest_odds, opposed_odds, pool_odds, table, table_floats

# Section 3 of rules/wuxia.md (percent, rounded half-up to 0.1). Rows T = <=2..>=10.
SUCCESS = """
90.0 99.0 97.2 99.6 99.1 99.9 99.7 100.0 99.9 100.0
80.0 96.0 96.8 98.6 98.9 99.4 99.6 99.7 99.8 99.9
70.0 91.0 95.2 97.2 98.1 98.7 99.1 99.4 99.6 99.7
60.0 84.0 91.8 95.0 96.6 97.5 98.2 98.6 98.9 99.2
50.0 75.0 86.0 91.2 93.8 95.3 96.3 97.1 97.6 98.0
40.0 64.0 77.2 84.5 88.6 91.2 92.8 94.0 94.8 95.5
30.0 51.0 64.8 73.7 79.5 83.3 85.9 87.7 89.1 90.2
20.0 36.0 48.2 57.3 64.0 68.9 72.5 75.2 77.2 78.7
10.0 19.0 26.8 33.4 38.9 43.3 46.9 49.8 52.1 53.9
"""
CRITICAL = """
10.0 1.0 2.8 0.4 0.9 0.1 0.3 0.0 0.1 0.0
10.0 3.0 3.1 1.4 1.1 0.6 0.4 0.3 0.2 0.1
10.0 5.0 4.0 2.6 1.9 1.3 0.9 0.6 0.4 0.3
10.0 7.0 5.5 4.2 3.2 2.4 1.8 1.4 1.1 0.8
10.0 9.0 7.6 6.3 5.2 4.3 3.5 2.9 2.4 2.0
10.0 11.0 10.3 9.3 8.2 7.3 6.4 5.6 5.0 4.4
10.0 13.0 13.6 13.3 12.7 12.0 11.3 10.6 9.9 9.2
10.0 15.0 17.5 18.7 19.2 19.4 19.3 19.1 18.8 18.5
10.0 17.0 22.0 25.7 28.4 30.5 32.1 33.4 34.5 35.3
"""


def _parse(block: str) -> dict[tuple[int, int], Fraction]:
    rows = [line.split() for line in block.strip().splitlines()]
    return {(n, t): Fraction(v) for t, row in zip(range(2, 11), rows) for n, v in zip(range(1, 11), row)}


def _half_up(p: Fraction) -> Fraction:
    return Fraction(int(p * 1000 + Fraction(1, 2)), 10)


def test_the_spec_table_comes_out_of_the_engine() -> None:
    tab = table(range(1, 11), range(2, 11))
    want_ok, want_crit = _parse(SUCCESS), _parse(CRITICAL)
    for key, (ok, crit) in tab.items():
        assert _half_up(ok) == want_ok[key], key
        assert _half_up(crit) == want_crit[key], key


def test_source_reading_example_w_t1() -> None:
    """Attribute 5, Compétence 2, SR 10: "80 % success, 13 % critical failure"."""
    o = pool_odds(5, 10 - 2)
    assert o.success == Fraction(2484, 3125) and o.critical == Fraction(398, 3125)
    # the program prints 79.5 / 12.7 (0.1 %), which the text reads as "80 %" / "13 %"
    assert (_half_up(o.success), _half_up(o.critical)) == (Fraction("79.5"), Fraction("12.7"))
    assert abs(100 * o.success - 80) < 1 and abs(100 * o.critical - 13) < 1
    assert 1 - Fraction(7, 10) ** 5 != o.success  # "at least one success" is looser (W-T1)
    with_above = pool_odds(5, 8, rule="above")  # the ">" reading does not give 80/13 (W1)
    assert (round(100 * float(with_above.success), 1), round(100 * float(with_above.critical), 1)) == (64.0, 19.2)


def test_program_constants_w_t2() -> None:
    o = pool_odds(7, 5)
    assert abs(float(o.success) - 0.9815742) < 1e-9 and abs(float(o.critical) - 0.0182071) < 1e-9


def test_threshold_beyond_ten_is_invariant_w_t3() -> None:
    for n in range(1, 12):
        assert pool_odds(n, 13 - 2).success == pool_odds(n, 10).success
        assert pool_odds(n, 12).critical == pool_odds(n, 10).critical
    assert (pool_odds(2, 11).success, pool_odds(2, 11).critical) == (Fraction(19, 100), Fraction(17, 100))
    o = pool_odds(5, 11)
    assert (o.success, o.critical) == (Fraction(38856, 100000), Fraction(28376, 100000))
    assert pool_odds(3, -1).success == pool_odds(3, 2).success


def test_monotonicity_remarks_w_t4() -> None:
    tab = table(range(1, 11), range(7, 11))
    for t, peak in ((7, 2), (8, 3), (9, 6)):
        crits = [tab[(n, t)][1] for n in range(1, 11)]
        assert crits.index(max(crits)) + 1 == peak
    tens = [tab[(n, 10)][1] for n in range(1, 11)]
    assert all(a < b for a, b in zip(tens, tens[1:]))


@pytest.mark.parametrize("t", range(-1, 14))
def test_one_die_w_t5(t: int) -> None:
    o = pool_odds(1, t)
    assert o.critical == Fraction(1, 10)
    assert o.success == Fraction(max(1, min(9, 11 - t)), 10)


def _brute(n: int, t: int) -> tuple[Fraction, Fraction, dict[int, Fraction]]:
    ok = crit = 0
    succ: dict[int, int] = {}
    for roll in itertools.product(range(1, 11), repeat=n):
        r = evaluate(roll, t)
        ok += r.outcome == "success"
        crit += r.outcome == "critical"
        succ[r.successes] = succ.get(r.successes, 0) + 1
    tot = 10**n
    return Fraction(ok, tot), Fraction(crit, tot), {k: Fraction(v, tot) for k, v in succ.items()}


@pytest.mark.parametrize("t", [2, 5, 8, 10, 12])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_against_every_face_enumeration(n: int, t: int) -> None:
    ok, crit, succ = _brute(n, t)
    o = pool_odds(n, t)
    assert (o.success, o.critical) == (ok, crit)
    assert o.successes == succ
    assert o.success + o.critical + o.failure == 1


def _closed_form(t: int, n: int) -> tuple[Fraction, Fraction]:
    """The spec's R18 reference function, verbatim."""
    p = Fraction(sum(1 for d in range(2, 11) if d >= t or d == 10), 10)
    r = Fraction(1, 10)
    q = 1 - p - r
    ok = crit = Fraction(0)
    for s in range(n + 1):
        for u in range(n - s + 1):
            pr = comb(n, s) * comb(n - s, u) * p**s * r**u * q ** (n - s - u)
            if u > s:
                crit += pr
            elif s >= 1:
                ok += pr
    return ok, crit


def test_against_the_spec_closed_form_up_to_forty() -> None:
    tab = table([1, 7, 15, 23, 40], range(0, 14))
    for (n, t), got in tab.items():
        assert got == _closed_form(t, n)


@pytest.mark.parametrize("n,t", [(12, 8), (25, 6), (40, 9), (40, 2)])
def test_against_icepool(n: int, t: int) -> None:
    icepool = pytest.importorskip("icepool")
    from icepool import Die, Vector

    k = sum(1 for d in range(2, 11) if d >= t or d == 10)
    pool = n @ Die({Vector((1, 0)): k, Vector((0, 1)): 1, Vector((0, 0)): 9 - k})
    out = pool.map(lambda v: outcome_of(v[0], v[1]))
    o = pool_odds(n, t)
    assert Fraction(out.quantity("success"), out.denominator()) == o.success
    assert Fraction(out.quantity("critical"), out.denominator()) == o.critical
    succ = pool.map(lambda v: v[0])
    assert {s: Fraction(q, succ.denominator()) for s, q in succ.items() if q} == o.successes


def test_full_table_floats_match_fractions() -> None:
    fl = table_floats(range(1, 21), range(2, 14))
    ex = table(range(1, 21), range(2, 14))
    assert len(fl) == 240
    for k, (ok, crit) in fl.items():
        assert ok == float(ex[k][0]) and crit == float(ex[k][1])


def _brute_reroll(n: int, t: int, rerolls: int, policy: str) -> tuple[Fraction, Fraction]:
    """Every face of the first roll and of the re-rolled dice, the player's choice per
    the policy (1s first, then other failures)."""
    ok = crit = 0
    most = min(n, rerolls)
    for roll in itertools.product(range(1, 11), repeat=n):
        r = evaluate(roll, t)
        ones = [i for i, c in enumerate(r.classes) if c == "one"]
        others = [i for i, c in enumerate(r.classes) if c == "failure"]
        chosen = ones[:rerolls]
        if not (policy == "until_success" and r.successes >= 1 and r.ones <= r.successes):
            chosen += others[: rerolls - len(chosen)]
        for new in itertools.product(range(1, 11), repeat=most):
            faces = list(roll)
            for i, f in zip(chosen, new):
                faces[i] = f
            out = evaluate(faces, t).outcome
            ok += out == "success"
            crit += out == "critical"
    tot = 10 ** (n + most)
    return Fraction(ok, tot), Fraction(crit, tot)


@pytest.mark.parametrize("policy", ["failed", "until_success"])
@pytest.mark.parametrize("n,t,rr", [(2, 8, 1), (3, 7, 2), (2, 10, 3), (3, 9, 1)])
def test_rerolls_against_enumeration(n: int, t: int, rr: int, policy: str) -> None:
    o = pool_odds(n, t, rr, policy=policy)
    assert (o.success, o.critical) == _brute_reroll(n, t, rr, policy)


@pytest.mark.parametrize("policy", ["failed", "until_success"])
def test_rerolls_raise_success(policy: str) -> None:
    base = pool_odds(5, 8)
    assert pool_odds(5, 8, 1, policy=policy).critical < base.critical  # the first re-roll takes a 1 if any
    for rr in (1, 2, 3):
        o = pool_odds(5, 8, rr, policy=policy)
        assert o.success > base.success
        base = o


def test_rerolling_plain_failures_can_raise_critical_failures() -> None:
    """With 3 re-rolls the literal policy re-rolls plain failures that may come up 1:
    critical failures go up again; the careful policy does better on both counts."""
    assert pool_odds(5, 8, 3).critical > pool_odds(5, 8, 2).critical
    careful, literal = pool_odds(5, 8, 3, policy="until_success"), pool_odds(5, 8, 3)
    assert careful.success > literal.success and careful.critical < literal.critical


@pytest.mark.parametrize("critical_loses", [True, False])
def test_opposed_odds_against_enumeration(critical_loses: bool) -> None:
    """W-T13 shape: attacker 3 dice T 7, defender 2 dice T 8, one Defence Die."""
    got = opposed_odds(3, 7, 2, 8, defence_dice=1, critical_loses=critical_loses)
    win = tie = 0
    extras: dict[int, int] = {}
    for a in itertools.product(range(1, 11), repeat=3):
        ra = evaluate(a, 7)
        sa = max(0, ra.successes - 1)
        for d in itertools.product(range(1, 11), repeat=2):
            sd = evaluate(d, 8).successes
            if sa > sd and not (critical_loses and ra.outcome == "critical"):
                win += 1
                extras[sa - sd] = extras.get(sa - sd, 0) + 1
            elif sa == sd:
                tie += 1
    tot = 10**5
    assert got["attacker_wins"] == Fraction(win, tot) and got["tie"] == Fraction(tie, tot)
    assert got["extra_successes"] == {k: Fraction(v, tot) for k, v in extras.items()}
    assert got["attacker_wins"] + got["defender_holds"] == 1


def test_bad_pools_are_refused() -> None:
    with pytest.raises(ValueError):
        pool_odds(-1, 8)
    with pytest.raises(ValueError):
        pool_odds(3, 8, 1, policy="whatever")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.integers(-2, 14), st.integers(0, 3), st.sampled_from(["failed", "until_success"]),
       st.booleans(), st.sampled_from(["at_least", "above"]))
def test_odds_are_distributions(n: int, t: int, rr: int, policy: str, ones: bool, rule: str) -> None:
    o = pool_odds(n, t, rr, policy=policy, reroll_ones=ones, rule=rule)
    assert o.success + o.critical + o.failure == 1
    assert sum(o.successes.values()) == 1
    assert all(0 <= p <= 1 for p in (o.success, o.critical, o.failure))
    if rr == 0:
        assert (o.success, o.critical) == table([n] if n else [0], [t], rule)[(n, t)]


@pytest.mark.parametrize("score,crit_loses", [("successes", True), ("net", False), ("net", True)])
def test_contest_odds_against_enumeration(score: str, crit_loses: bool) -> None:
    pools = [(2, 7), (1, 8), (1, 5)]
    got = contest_odds(pools, score=score, critical_loses=crit_loses)
    wins = [0, 0, 0]
    tie = nobody = 0
    for rolls in itertools.product(*(itertools.product(range(1, 11), repeat=n) for n, _t in pools)):
        scores = []
        for i, (faces, (_n, t)) in enumerate(zip(rolls, pools)):
            r = evaluate(faces, t)
            if crit_loses and r.outcome == "critical":
                continue
            scores.append((r.successes if score == "successes" else r.successes - r.ones, i))
        if not scores:
            nobody += 1
            continue
        best = max(s for s, _ in scores)
        top = [i for s, i in scores if s == best]
        if len(top) > 1:
            tie += 1
        else:
            wins[top[0]] += 1
    tot = 10**4
    assert got["wins"] == [Fraction(w, tot) for w in wins]
    assert (got["tie"], got["nobody"]) == (Fraction(tie, tot), Fraction(nobody, tot))
