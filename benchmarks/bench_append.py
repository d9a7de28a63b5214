"""Append one event and publish its outcome: the latency a tablet waits for.

Measures ``TableService.submit`` (check against the fold, SQLite append with WAL and
``synchronous=FULL``, fold, JSON of the new state, publish to subscribers) on a table
that already holds a long campaign, and prints the median and 99th percentile beside a
baseline measured in the same run: a bare SQLite insert+commit with the same settings.

Target: under 10 ms per event on the development machine.

    python benchmarks/bench_append.py [--events 300] [--subscribers 20]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games import register_game  # noqa: E402
from companion.service import TableService  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def baseline(path: Path, n: int) -> list[float]:
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE e (seq INTEGER PRIMARY KEY, data TEXT)")
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO e (data) VALUES (?)", ('{"n": %d}' % i,))
        db.execute("COMMIT")
        out.append((time.perf_counter() - t0) * 1000)
    db.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--events", type=int, default=300)
    ap.add_argument("--subscribers", type=int, default=20)
    args = ap.parse_args()
    register_game("dummy", "tests.companion.dummy_game:GAME")
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline(Path(tmp) / "base.sqlite", args.events)
        service = TableService(Path(tmp) / "table.sqlite")
        service.submit({"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 10**9}}})
        subs = [service.broker.subscribe() for _ in range(args.subscribers)]
        times = []
        for i in range(args.events):
            t0 = time.perf_counter()
            service.submit({"type": "dummy.add", "data": {"n": 1 + i % 6}})
            times.append((time.perf_counter() - t0) * 1000)
            for s in subs:  # the tablets read their queue
                while not s.queue.empty():
                    s.queue.get_nowait()
        service.close()
    med, p99 = statistics.median(times), pct(times, 0.99)
    bmed = statistics.median(base)
    print(f"append+publish ({args.subscribers} subscribers): median {med:.2f} ms, p99 {p99:.2f} ms  (target < 10 ms)")
    print(f"baseline bare SQLite insert+commit: median {bmed:.2f} ms")
    print(f"ratio to baseline: {med / bmed:.2f}x")
    return 0 if med < 10 else 1


if __name__ == "__main__":
    sys.exit(main())
