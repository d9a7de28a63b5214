"""Benchmark: the full Wuxia odds table (attribute 1-20 x threshold 2-13, 240 cells).

Three ways, measured in the same run:

- ours: ``companion.games.wuxia.odds.table_floats`` -- one integer polynomial column per
  distinct die (T <= 2 and T >= 10 share theirs), successes - ones counted exactly;
- icepool, its idiomatic way: each die is a ``Die`` over ``Vector((successes, ones))``
  outcomes, the pool is ``n @ die`` (icepool's sum of n dice, exact fractions), and
  ``.map`` classifies every (successes, ones) into success / critical / failure. A second
  icepool line uses the scalar trick our engine relies on (sum of +1/-1/0 dice), for
  fairness;
- brute force: the source's Scilab method, enumerating the 3^n outcome leaves of each
  cell (weights p, r, q), on attributes 1-8 only (3^20 leaves is out of reach); ours is
  timed on the same sub-table for that ratio.

Targets: whole table < 5 ms in-process, >= 100x faster than icepool, same results to
1e-12 (checked here; exit status 1 if a check fails).

Run: ``nice python benchmarks/bench_wuxia_odds.py``
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.wuxia.dice import die_classes, outcome_of  # noqa: E402
from companion.games.wuxia.odds import table_floats  # noqa: E402

ATTRS = range(1, 21)
THRESHOLDS = range(2, 14)
BRUTE_ATTRS = range(1, 9)


def best_of(fn, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def icepool_vector() -> dict[tuple[int, int], tuple[float, float]]:
    from icepool import Die, Vector

    out = {}
    for t in THRESHOLDS:
        dc = die_classes(t)
        die = Die({Vector((1, 0)): dc.success, Vector((0, 1)): dc.one, Vector((0, 0)): dc.other})
        for n in ATTRS:
            res = (n @ die).map(lambda v: outcome_of(v[0], v[1]))
            den = res.denominator()
            out[(n, t)] = (res.quantity("success") / den, res.quantity("critical") / den)
    return out


def icepool_scalar() -> dict[tuple[int, int], tuple[float, float]]:
    from icepool import Die

    out = {}
    for t in THRESHOLDS:
        dc = die_classes(t)
        die = Die({1: dc.success, -1: dc.one, 0: dc.other})
        for n in ATTRS:
            net = n @ die
            den = net.denominator()
            crit = net.quantity("<", 0)
            out[(n, t)] = ((den - crit - dc.other**n * (den // 10**n)) / den, crit / den)
    return out


def brute() -> dict[tuple[int, int], tuple[float, float]]:
    out = {}
    for t in THRESHOLDS:
        dc = die_classes(t)
        w = {"s": dc.success, "u": dc.one, "o": dc.other}
        for n in BRUTE_ATTRS:
            ok = crit = 0
            for leaf in itertools.product("suo", repeat=n):
                weight = 1
                for c in leaf:
                    weight *= w[c]
                s, u = leaf.count("s"), leaf.count("u")
                if u > s:
                    crit += weight
                elif s >= 1:
                    ok += weight
            out[(n, t)] = (ok / 10**n, crit / 10**n)
    return out


def replay_10k() -> tuple[float, float]:
    """CPU seconds to replay 10,000 Wuxia events (tests, rolls, corrections, re-rolls)
    through the Table, and the same replay of the bare table events as a baseline."""
    import random

    from companion.events import Event
    from companion.table import Table

    evs = [Event("table.new_game", {"game": "wuxia", "seed": 1}, seq=1),
           Event("wuxia.character_new", {"name": "Lin", "check": False,
                                         "attributes": {"metal": 4, "feu": 5, "terre": 6, "eau": 3, "bois": 4},
                                         "skills": [{"name": "Chasseur", "level": 5}, {"name": "Tir", "parent": "Chasseur"}]}, seq=2)]
    rng = random.Random(3)
    seq = 3
    while len(evs) < 10_000:
        for etype, data in (("wuxia.test", {"who": "Lin", "attribute": "feu", "skill": "Tir", "sr": rng.randint(8, 13)}),
                            ("wuxia.roll", {"dice": [rng.randint(1, 10) for _ in range(5)]}),
                            ("wuxia.correct", {"index": 0, "value": 2}),
                            ("wuxia.reroll", {"indices": [0], "dice": [9]})):
            evs.append(Event(etype, data, seq=seq))
            seq += 1
    t0 = time.process_time()
    Table().replay(evs, strict=True)
    ours = time.process_time() - t0
    bare = [Event("table.new_game", {"game": "wuxia", "seed": 1}, seq=i + 1) for i in range(len(evs))]
    t0 = time.process_time()
    Table().replay(bare, strict=True)
    return ours, time.process_time() - t0


def max_diff(a: dict, b: dict) -> float:  # type: ignore[type-arg]
    return max(max(abs(a[k][0] - b[k][0]), abs(a[k][1] - b[k][1])) for k in b)


def main() -> int:
    t_ours, ours = best_of(lambda: table_floats(ATTRS, THRESHOLDS), 30)
    t_ours_sub, _ = best_of(lambda: table_floats(BRUTE_ATTRS, THRESHOLDS), 30)
    t_ice, ice = best_of(icepool_vector, 2)
    t_ice2, ice2 = best_of(icepool_scalar, 3)
    t_brute, br = best_of(brute, 1)
    d_ice = max_diff(ours, ice)  # type: ignore[arg-type]
    d_ice2 = max_diff(ours, ice2)  # type: ignore[arg-type]
    d_brute = max_diff(ours, br)  # type: ignore[arg-type]
    cells = len(ours)  # type: ignore[arg-type]
    print(f"Wuxia odds table: attributes {ATTRS.start}-{ATTRS.stop - 1} x thresholds {THRESHOLDS.start}-{THRESHOLDS.stop - 1} ({cells} cells)")
    print(f"  ours (integer polynomial columns)   {1000 * t_ours:9.3f} ms")
    print(f"  icepool, Vector pool + map          {1000 * t_ice:9.3f} ms   ratio {t_ice / t_ours:8.0f}x   max |diff| {d_ice:.1e}")
    print(f"  icepool, scalar +1/-1/0 sum         {1000 * t_ice2:9.3f} ms   ratio {t_ice2 / t_ours:8.0f}x   max |diff| {d_ice2:.1e}")
    print(f"Sub-table attributes {BRUTE_ATTRS.start}-{BRUTE_ATTRS.stop - 1} ({len(br)} cells)")
    print(f"  ours                                {1000 * t_ours_sub:9.3f} ms")
    print(f"  brute force, 3^n leaves (source)    {1000 * t_brute:9.3f} ms   ratio {t_brute / t_ours_sub:8.0f}x   max |diff| {d_brute:.1e}")
    t_replay, t_bare = replay_10k()
    print("Replay of 10,000 Wuxia events through the Table (CPU time)")
    print(f"  wuxia events                        {1000 * t_replay:9.1f} ms   ({t_replay / t_bare:.1f}x the table alone: 10,000 table.new_game events, {1000 * t_bare:.1f} ms)")
    checks = {
        "whole table < 5 ms": t_ours < 0.005,
        ">= 100x faster than icepool (idiomatic)": t_ice / t_ours >= 100,
        "same as icepool to 1e-12": d_ice <= 1e-12 and d_ice2 <= 1e-12,
        "same as brute force to 1e-12": d_brute <= 1e-12,
        "10,000-event replay < 1 s": t_replay < 1.0,
    }
    for name, ok in checks.items():
        print(f"  [{'ok' if ok else 'FAIL'}] {name}")
    median = statistics.median([best_of(lambda: table_floats(ATTRS, THRESHOLDS), 1)[0] for _ in range(20)])
    print(f"  (median of 20 single runs: {1000 * median:.3f} ms)")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
