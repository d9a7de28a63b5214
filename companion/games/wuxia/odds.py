"""Exact Wuxia odds (R16-R18), from the d10 toolkit :mod:`companion.odds.d10`.

- :func:`pool_odds` -- one test: P(success), P(critical failure), P(plain failure) and
  the distribution of successes, for any pool size, with the specialisation re-rolls
  (R9) and the Destiny Dice when an option gives them a mechanic (W6).
- :func:`table` -- the source's announced table (success and critical failure by
  attribute and T = SR - Compétence), on the fast path: one polynomial column per
  distinct die (T <= 2 and T >= 10 share theirs), O(n_max^2) integer operations each.
- :func:`opposed_odds` -- an attack (R14): P(attacker wins), tie, defender holds, with
  Defence Dice cancelling attacker successes.

Re-rolls in the odds (the players choose the dice at the table; the odds assume a
policy, ``odds_reroll_policy``): ``"failed"`` (default) re-rolls up to R failed dice,
1s first (re-rolling a 1 never hurts: it removes a 1 and the new face is at worst a 1
again); ``"until_success"`` re-rolls the 1s, and the other failures only when the first
roll is not already a success (a re-rolled plain failure can come up 1 and turn a success
into a critical failure). With ``reroll_ones = false`` only the other failures are
re-rolled (W5).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

from ...odds.d10 import DieClasses, Dist, joint, net_polynomials, reroll
from .dice import die_classes, outcome_of

__all__ = ["PoolOdds", "pool_odds", "table", "table_floats", "opposed_odds", "contest_odds", "MAX_DICE", "REROLL_POLICIES"]

#: Largest pool the odds accept (the rules' pools stay far below; tests go to 40).
MAX_DICE = 100
REROLL_POLICIES = ("failed", "until_success")


@dataclass(frozen=True)
class PoolOdds:
    """Exact odds of one test."""

    dice: int
    threshold: int
    rerolls: int
    success: Fraction
    critical: Fraction
    failure: Fraction
    successes: dict[int, Fraction]
    joint: Dist

    def to_json(self, digits: int | None = None) -> dict[str, Any]:
        def f(x: Fraction) -> float:
            v = x.numerator / x.denominator
            return round(v, digits) if digits is not None else v

        return {
            "dice": self.dice,
            "threshold": self.threshold,
            "rerolls": self.rerolls,
            "success": f(self.success),
            "critical_failure": f(self.critical),
            "failure": f(self.failure),
            "successes": {str(k): f(v) for k, v in sorted(self.successes.items())},
        }


def _policy(rerolls: int, policy: str, reroll_ones: bool):  # type: ignore[no-untyped-def]
    def choose(s: int, u: int, o: int) -> tuple[int, int]:
        a = min(rerolls, u) if reroll_ones else 0
        left = rerolls - a
        if policy == "until_success" and s >= 1 and u <= s:
            return a, 0
        return a, min(left, o)

    return choose


def _check(n: int, rerolls: int, policy: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_DICE:
        raise ValueError(f"a Wuxia pool has 0 to {MAX_DICE} dice, not {n!r}")
    if not isinstance(rerolls, int) or isinstance(rerolls, bool) or rerolls < 0:
        raise ValueError(f"re-rolls must be a non-negative integer, not {rerolls!r}")
    if policy not in REROLL_POLICIES:
        raise ValueError(f"unknown re-roll policy {policy!r}; expected one of {', '.join(REROLL_POLICIES)}")


def pool_odds(n: int, t: int, rerolls: int = 0, *, rule: str = "at_least", policy: str = "failed",
              reroll_ones: bool = True) -> PoolOdds:
    """Exact odds of ``n`` dice against threshold ``t`` with ``rerolls`` re-rolls (R9)."""
    _check(n, rerolls, policy)
    die = die_classes(t, rule)
    dist = joint(n, die) if rerolls == 0 else reroll(n, die, _policy(rerolls, policy, reroll_ones))
    ok = crit = 0
    for (s, u), w in dist.weights.items():
        out = outcome_of(s, u)
        if out == "critical":
            crit += w
        elif out == "success":
            ok += w
    tot = dist.total
    succ = dist.map(lambda k: k[0])
    return PoolOdds(
        dice=n,
        threshold=t,
        rerolls=rerolls,
        success=Fraction(ok, tot),
        critical=Fraction(crit, tot),
        failure=Fraction(tot - ok - crit, tot),
        successes={k: Fraction(w, tot) for k, w in sorted(succ.weights.items()) if w},
        joint=dist,
    )


def table(attributes: Iterable[int] = range(1, 11), thresholds: Iterable[int] = range(2, 11),
          rule: str = "at_least") -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    """``{(attribute, T): (P(success), P(critical failure))}`` as exact fractions."""
    return {k: (Fraction(ok, tot), Fraction(cr, tot)) for k, (ok, cr, tot) in table_counts(attributes, thresholds, rule).items()}


def table_floats(attributes: Iterable[int] = range(1, 21), thresholds: Iterable[int] = range(2, 14),
                 rule: str = "at_least") -> dict[tuple[int, int], tuple[float, float]]:
    """Same as :func:`table` as correctly rounded floats (the benchmarked path)."""
    return {k: (ok / tot, cr / tot) for k, (ok, cr, tot) in table_counts(attributes, thresholds, rule).items()}


def table_counts(attributes: Iterable[int], thresholds: Iterable[int],
                 rule: str = "at_least") -> dict[tuple[int, int], tuple[int, int, int]]:
    """``{(n, T): (successful outcomes, critical outcomes, 10**n)}``.

    Successes - ones < 0 is a critical failure; the non-critical outcomes that are not
    successes are exactly those with no success and no 1 (all "other" faces), counted
    ``other ** n``.
    """
    attrs = list(attributes)
    ts = list(thresholds)
    for n in attrs:
        _check(n, 0, "failed")
    n_max = max(attrs, default=0)
    columns: dict[DieClasses, list[list[int]]] = {}
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    for t in ts:
        die = die_classes(t, rule)
        polys = columns.get(die)
        if polys is None:
            polys = columns[die] = net_polynomials(n_max, die)
        for n in attrs:
            poly = polys[n]
            crit = sum(poly[:n])
            tot = die.sides**n
            out[(n, t)] = (tot - crit - die.other**n, crit, tot)
    return out


def opposed_odds(attack_dice: int, attack_t: int, defence_dice_pool: int, defence_t: int,
                 defence_dice: int = 0, *, rule: str = "at_least", extra: str = "difference",
                 critical_loses: bool = True) -> dict[str, Any]:
    """Odds of an attack (R14, W11), as the rules resolve it: the defender spends
    ``defence_dice`` Defence Dice (each cancels one attacker success); the attacker wins
    iff the remaining successes beat the defender's and (with ``critical_loses``, W7) the
    attacker's roll is not a critical failure.

    Returns exact P(attacker wins), P(tie), P(defender holds otherwise) and the
    distribution of the extra successes the attacker may invest (``extra``: W11).
    """
    _check(attack_dice, 0, "failed")
    _check(defence_dice_pool, 0, "failed")
    a = joint(attack_dice, die_classes(attack_t, rule)).map(
        lambda k: (max(0, k[0] - defence_dice), critical_loses and k[1] > k[0]))
    d = joint(defence_dice_pool, die_classes(defence_t, rule)).map(lambda k: k[0])
    win = tie = 0
    extras: dict[int, int] = {}
    for (sa, crit), wa in a.weights.items():
        for sd, wd in d.weights.items():
            w = wa * wd
            if sa > sd and not crit:
                win += w
                e = sa - sd - (1 if extra == "difference_minus_one" else 0)
                extras[e] = extras.get(e, 0) + w
            elif sa == sd:
                tie += w
    tot = a.total * d.total
    return {
        "attacker_wins": Fraction(win, tot),
        "tie": Fraction(tie, tot),
        "defender_holds": Fraction(tot - win, tot),
        "extra_successes": {k: Fraction(w, tot) for k, w in sorted(extras.items())},
    }


def contest_odds(pools: list[tuple[int, int]], *, score: str = "successes", critical_loses: bool = True,
                 rule: str = "at_least") -> dict[str, Any]:
    """Odds of a competition (R10, W7): each ``(dice, threshold)`` pool rolls; the best
    score wins (``score``: successes, or successes - 1s), a critical failure cannot win
    (``critical_loses``), an equal best is a tie, and if nobody may win, nobody does.

    Exact, by combining the participants' (score, critical) distributions one by one,
    keeping only what decides the result: the best score so far, who holds it alone
    (or a tie), so the work stays small for the handful of people at a table.
    """
    if not 2 <= len(pools) <= 8:
        raise ValueError("a competition has 2 to 8 participants")
    dists = []
    for n, t in pools:
        _check(n, 0, "failed")
        j = joint(n, die_classes(t, rule))
        dists.append(j.map(lambda k: (k[0] if score == "successes" else k[0] - k[1], critical_loses and k[1] > k[0])))
    # state: (best score among eligible or None, holder index or -1 for a tie)
    acc: dict[tuple[int | None, int], int] = {(None, -1): 1}
    total = 1
    for i, d in enumerate(dists):
        nxt: dict[tuple[int | None, int], int] = {}
        for (best, holder), w in acc.items():
            for (sc, crit), w2 in d.weights.items():
                if crit:
                    key = (best, holder)
                elif best is None or sc > best:
                    key = (sc, i)
                elif sc == best:
                    key = (best, -1)
                else:
                    key = (best, holder)
                nxt[key] = nxt.get(key, 0) + w * w2
        acc = nxt
        total *= d.total
    wins = [0] * len(pools)
    tie = nobody = 0
    for (best, holder), w in acc.items():
        if best is None:
            nobody += w
        elif holder == -1:
            tie += w
        else:
            wins[holder] += w
    return {"wins": [Fraction(w, total) for w in wins], "tie": Fraction(tie, total), "nobody": Fraction(nobody, total)}
