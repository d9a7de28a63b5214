"""Benchmark: exact ESPRI odds (hypergeometric enumeration) vs a brute-force enumeration of
ordered draws measured in the same run, and the wall time of ``companion odds espri``
including interpreter start-up (target: a 12-gem draw from a full pool under 1 s).

Run from the repository root:  nice python benchmarks/bench_espri_odds.py
"""

from __future__ import annotations

import itertools
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.espri import odds as odds_mod  # noqa: E402
from companion.games.espri.options import DEFAULTS  # noqa: E402
from companion.games.espri.rules import best_result  # noqa: E402

GEMS = ("printemps", "ete", "automne", "hiver", "temps", "rupture")


def brute_force(pool: list[int], called: str, k: int) -> list[Fraction]:
    """Every ordered draw of distinct gems: k! * C(total, k) sequences."""
    objs = [i for i, n in enumerate(pool) for _ in range(n)]
    counts = [0] * 5
    total = 0
    for draw in itertools.permutations(range(len(objs)), k):
        c = [0] * 6
        for j in draw:
            c[objs[j]] += 1
        counts[best_result(c, called, DEFAULTS, "leader")] += 1
        total += 1
    return [Fraction(x, total) for x in counts]


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def exact_cold(pool: list[int], called: str, n: int) -> dict:
    odds_mod._cached.cache_clear()
    return odds_mod.appel_odds(pool, called, n)


def replay_10k() -> tuple[int, float, float]:
    """CPU time of folding 10,000 ESPRI events (Appel cycles), and of the table's own
    overhead on as many trivial events (the baseline). Target: under 1 s."""
    from companion.events import Event, Source
    from companion.table import Table

    head = [Event("table.new_game", {"game": "espri", "seed": 1}, Source.MANUAL, 1),
            Event("espri.character", {"id": "a", "role": "guardian", "season": "hiver",
                                      "scores": {"hiver": 3, "ete": 3}, "devotion": 2, "prayers": []}, Source.MANUAL, 2)]
    cycle = [("espri.appel", {"season": "hiver", "leader": "a", "difficulty": 1}),
             ("espri.draw", {"gems": ["ete", "hiver"]}), ("espri.choose", {"selection": "ete"}),
             ("espri.appel", {"season": "ete", "leader": "a", "difficulty": 1}),
             ("espri.draw", {"gems": ["ete", "hiver"]}), ("espri.choose", {"selection": "hiver"})]
    evs = list(head)
    while len(evs) < 10_000:
        t, d = cycle[(len(evs) - 2) % len(cycle)]
        evs.append(Event(t, d, Source.MANUAL, len(evs) + 1))
    t0 = time.process_time()
    Table().replay(evs, strict=True)
    t_fold = time.process_time() - t0
    trivial = list(head) + [Event("espri.new_day", {}, Source.MANUAL, i + 3) for i in range(len(evs) - 2)]
    t0 = time.process_time()
    Table().replay(trivial, strict=True)
    return len(evs), t_fold, time.process_time() - t0


def main() -> int:
    n_ev, t_fold, t_trivial = replay_10k()
    print(f"replay of {n_ev} events (Appel cycles): {t_fold:.2f} s CPU; {n_ev} trivial events:"
          f" {t_trivial:.2f} s (ratio {t_fold / t_trivial:.1f}x); target < 1 s: {'OK' if t_fold < 1 else 'TOO SLOW'}")

    small = [2, 2, 2, 2, 2, 2]
    k = 5
    t_brute = timed(lambda: brute_force(small, "hiver", k), repeat=1)
    t_exact = timed(lambda: exact_cold(small, "hiver", k))
    same = [Fraction(v) for v in exact_cold(small, "hiver", k)["exact"].values()] == brute_force(small, "hiver", k)
    print(f"small pool 2x6, draw {k}: brute force {t_brute * 1e3:9.1f} ms, exact {t_exact * 1e3:7.2f} ms,"
          f" ratio {t_brute / t_exact:8.0f}x, same result: {same}")

    full = [12] * 6
    t12 = timed(lambda: exact_cold(full, "hiver", 12))
    n_seq = 1
    for i in range(12):
        n_seq *= 72 - i
    print(f"full pool, draw 12: exact {t12 * 1e3:.1f} ms (6188 compositions);"
          f" brute force would visit {n_seq:.3e} ordered draws")
    t_table = timed(lambda: [exact_cold(full, s, n) for s in ("hiver", "printemps", "ete", "automne") for n in range(-12, 13)], repeat=1)
    print(f"four Seasons x N -12..12 (100 odds, cold cache): {t_table * 1e3:.0f} ms")

    cmd = [sys.executable, "-m", "companion", "odds", "espri", "--season", "hiver", "--score", "12",
           "--difficulty", "0", "--pool", "printemps=12,ete=12,automne=12,hiver=12,temps=12,rupture=12", "--json"]
    walls = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
    base = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        base.append(time.perf_counter() - t0)
    wall, b = statistics.median(walls), statistics.median(base)
    print(f"CLI wall time, 12-gem draw from a full pool: median {wall * 1e3:.0f} ms"
          f" (bare interpreter {b * 1e3:.0f} ms, ratio {wall / b:.1f}x); target < 1000 ms:"
          f" {'OK' if wall < 1.0 else 'TOO SLOW'}")
    return 0 if wall < 1.0 and same else 1


if __name__ == "__main__":
    sys.exit(main())
