"""Speed of the exact Shayo odds, beside icepool and brute force, measured in one run.

    python benchmarks/bench_shayo_odds.py

- 40 dice, keep 5, difficulty 8: our category enumeration vs icepool's multiset
  evaluator (both exact; the results are compared);
- 40 dice with signatures (re-roll a failure, +1, re-roll a 10): ours alone (icepool has
  no model of the player's choices);
- small pools (5 and 6 dice): ours vs brute force over every face of every die.

CPU time (process time), best of a few repeats, caches cleared before each run.
"""

from __future__ import annotations

import itertools
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.shayo import odds  # noqa: E402
from companion.games.shayo.odds import PoolSpec, net_distribution, net_from_counts, pool_from  # noqa: E402
from companion.games.shayo.signatures import CATALOGUE  # noqa: E402


def timed(fn: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        odds._exact.cache_clear()
        odds._multinomial.cache_clear()
        odds._capped.cache_clear()
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def ours(spec: PoolSpec) -> Callable[[], object]:
    return lambda: net_distribution(spec)


def icepool_dist(n: int, k: int, d: int) -> Callable[[], object]:
    import icepool

    class Counts(icepool.MultisetEvaluator):
        def next_state(self, state, order, outcome, count):  # type: ignore[override]
            o, s, f = state or (0, 0, 0)
            if outcome == 1:
                return (o + count, s, f)
            if outcome >= d:
                return (o, s + count, f)
            return (o, s, f + count)

        def final_outcome(self, final_state, order, outcomes, *sizes):  # type: ignore[override]
            o, s, f = final_state or (0, 0, 0)
            return net_from_counts(o, s, f, k, "all_rolled")

    def run() -> dict[int, Fraction]:
        die = Counts().evaluate(icepool.d10.pool(n))
        den = die.denominator()
        return {int(o): Fraction(q, den) for o, q in die.items()}

    return run


def brute(n: int, k: int, d: int) -> Callable[[], object]:
    def run() -> dict[int, Fraction]:
        out: dict[int, int] = {}
        for roll in itertools.product(range(1, 11), repeat=n):
            ones = roll.count(1)
            s = sum(1 for v in roll if v != 1 and v >= d)
            net = net_from_counts(ones, s, n - ones - s, k, "all_rolled")
            out[net] = out.get(net, 0) + 1
        return {net: Fraction(c, 10**n) for net, c in out.items()}

    return run


def main() -> None:
    n, k, d = 40, 5, 8
    t_ours, a = timed(ours(PoolSpec(n, k, d)))
    t_ice, b = timed(icepool_dist(n, k, d), repeat=1)
    assert a == b, "icepool disagrees"
    print(f"40d10 keep 5, SD 8:  ours {t_ours * 1000:8.2f} ms   icepool {t_ice * 1000:8.2f} ms"
          f"   icepool/ours = {t_ice / t_ours:,.0f}x")
    sig = [CATALOGUE["relance_echec"], CATALOGUE["plus_1"], CATALOGUE["relance_10"]]
    t_sig, _ = timed(ours(pool_from(n, k, 11, sig)))
    print(f"40d10 keep 5, SD 11, 3 signatures: ours {t_sig * 1000:8.2f} ms")
    t_sig, _ = timed(ours(pool_from(n, k, 7, sig, tens_mode="extra_die")), repeat=1)
    print(f"40d10 keep 5, SD 7, 3 signatures, extra-die 10s (worst case): ours {t_sig * 1000:8.2f} ms")
    for n_small in (5, 6):
        t_o, a = timed(ours(PoolSpec(n_small, 3, 7)))
        t_b, b = timed(brute(n_small, 3, 7), repeat=1)
        assert a == b, "brute force disagrees"
        print(f"{n_small}d10 keep 3, SD 7:  ours {t_o * 1000:8.3f} ms   brute force {t_b * 1000:9.1f} ms"
              f"   brute/ours = {t_b / t_o:,.0f}x")


if __name__ == "__main__":
    main()
