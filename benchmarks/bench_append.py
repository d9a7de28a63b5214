"""Append one event and publish its outcome: the latency a tablet waits for.

Measures ``TableService.submit`` (check against the fold, SQLite append with WAL and
``synchronous=FULL``, fold, JSON of the new state, publish to subscribers) on tables that
already hold a real Péripéties campaign (``bench_replay.build_log``, 2 % undos) of each
size, loaded with ``companion import`` and opened as the server opens them (from their
snapshots). The events appended are the campaign's own next events.

Prints the median and 99th percentile at each size beside two baselines measured in the
same run: a bare SQLite insert+commit with the same settings, and the smallest campaign
(the growth with the log's length is the ratio to it).

Target: under 10 ms per event, and no more than 2x the 1k figure at the largest size.

    python benchmarks/bench_append.py [--campaigns 1000,10000] [--events 300] [--subscribers 20]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from bench_replay import build_log  # noqa: E402

from companion.importer import import_lines  # noqa: E402
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


def appends(tmp: Path, lines: list[str], size: int, count: int, subscribers: int) -> list[float]:
    path = tmp / f"campaign-{size}" / "table.sqlite"
    report = import_lines(lines[:size], path)
    if report.refused:
        raise SystemExit(f"the campaign's import refused lines: {report.refused[:3]}")
    service = TableService(path)
    subs = [service.broker.subscribe() for _ in range(subscribers)]
    times = []
    try:
        for line in lines[size:size + count]:
            obj = json.loads(line)
            body = {"type": obj["type"], "data": obj.get("data", {}), "source": obj.get("source", "manual")}
            t0 = time.perf_counter()
            service.submit(body)
            times.append((time.perf_counter() - t0) * 1000)
            for s in subs:  # the tablets read their queue
                while not s.queue.empty():
                    s.queue.get_nowait()
    finally:
        service.close()
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--campaigns", default="1000,10000", help="campaign sizes; the first is the baseline")
    ap.add_argument("--events", type=int, default=300, help="events appended to each")
    ap.add_argument("--subscribers", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sizes = [int(s) for s in args.campaigns.split(",")]
    events = build_log(max(sizes) + args.events, args.seed, undo_rate=0.02)
    lines = [json.dumps(e.to_json(), ensure_ascii=False) for e in events]
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline(Path(tmp) / "base.sqlite", args.events)
        results = {n: appends(Path(tmp), lines, n, args.events, args.subscribers) for n in sizes}
    bmed = statistics.median(base)
    first = statistics.median(results[sizes[0]])
    print(f"baseline bare SQLite insert+commit: median {bmed:.2f} ms")
    ok = True
    for n in sizes:
        med, p99 = statistics.median(results[n]), pct(results[n], 0.99)
        print(f"append+publish on a {n:,}-event campaign ({args.subscribers} subscribers): median {med:.2f} ms,"
              f" p99 {p99:.2f} ms   ×{med / bmed:.2f} bare SQLite   ×{med / first:.2f} the {sizes[0]:,} campaign")
        ok = ok and med < 10
    last = statistics.median(results[sizes[-1]])
    print(f"target: < 10 ms: {'OK' if ok else 'MISSED'};"
          f" <= 2x the {sizes[0]:,} figure at {sizes[-1]:,}: {'OK' if last <= 2 * first else 'MISSED'}")
    return 0 if ok and last <= 2 * first else 1


if __name__ == "__main__":
    sys.exit(main())
