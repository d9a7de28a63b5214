"""Soak: many tablets connected, a camera roll every few seconds, for minutes.

    python benchmarks/soak_tablets.py                      # 20 tablets, 10 minutes, a roll every 2 s
    python benchmarks/soak_tablets.py --tablets 5 --minutes 0.2 --interval 0.3   # quick

Each tablet is a Server-Sent Events client of ``/events`` (as the page's EventSource).
Every roll goes through the camera path (rendered frames of five d10, the real reader,
the rules, the log). Checked: no client error, every tablet received every outcome
(no missed event: the same list of sequence numbers on every tablet as in the log),
and the server's memory (resident set, after a warm-up) grew by less than 10 %.
Baseline in the same run: the resident set right after the warm-up.
"""

from __future__ import annotations

import argparse
import gc
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _live import CameraTable, LiveServer, SSEClient, loads  # noqa: E402


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def soak(tablets: int = 20, seconds: float = 600.0, interval: float = 2.0, frames_n: int = 4,
         warmup_rolls: int = 20, quiet: bool = False) -> dict[str, Any]:
    from web.app import create_app

    ct = CameraTable("soak-", frames_n, photo_files=200, face=lambda s, i: (s + 3 * i) % 10 + 1)
    table, roll, test_ev = ct.table, ct.roll, ct.test_ev
    app = create_app({"SERVICE": table, "TABLE_PIN": "0000"})
    server = LiveServer(app, threads=8)  # streams hold no thread

    seen: list[list[int]] = [[] for _ in range(tablets)]
    resyncs = [0] * tablets
    lock = threading.Lock()

    def handler(i: int) -> Any:
        def on(name: str, data: str, t: float) -> None:
            if name == "table":
                seq = loads(data)["applied"]["event"]["seq"]
                with lock:
                    seen[i].append(seq)
            elif name == "resync":
                resyncs[i] += 1
        return on

    clients = [SSEClient(server.port, handler(i)) for i in range(tablets)]
    for c in clients:
        c.connected.wait(10)

    def one_roll() -> None:
        table.submit(test_ev)
        done = threading.Event()
        n0 = roll.rolls
        roll.settled()
        deadline = time.monotonic() + 10
        while roll.rolls == n0 and time.monotonic() < deadline:
            done.wait(0.01)

    for _ in range(warmup_rolls):
        one_roll()
    gc.collect()
    time.sleep(0.3)
    base = rss_mb()
    start = time.monotonic()
    rolls = 0
    peak = base
    next_t = start
    while time.monotonic() - start < seconds:
        one_roll()
        rolls += 1
        peak = max(peak, rss_mb())
        next_t += interval
        time.sleep(max(0.0, next_t - time.monotonic()))
        if not quiet and rolls % 30 == 0:
            print(f"  {time.monotonic() - start:6.0f} s  {rolls} rolls  rss {rss_mb():.1f} MB", flush=True)
    time.sleep(0.5)
    gc.collect()
    end = rss_mb()
    expected = [e.seq for e in table.log.events() if e.seq is not None]
    errors = [e for c in clients for e in c.errors]
    for c in clients:
        c.close()
    server.close()
    ct.close()
    first = min(min(s) for s in seen if s) if any(seen) else 0
    want = [s for s in expected if s >= first]
    missed = sum(1 for s in seen if s != want)
    statuses = [r.get("status") for r in roll.records.recent(50)]
    return {"tablets": tablets, "seconds": seconds, "rolls": rolls, "events": len(want), "errors": errors,
            "tablets_missing_events": missed, "resyncs": sum(resyncs), "rss_base_mb": base, "rss_end_mb": end,
            "rss_peak_mb": peak, "growth": (end - base) / base if base else 0.0, "roll_errors": roll.errors,
            "read_statuses": {s: statuses.count(s) for s in set(statuses)}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tablets", type=int, default=20)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--interval", type=float, default=2.0)
    a = ap.parse_args()
    r = soak(a.tablets, a.minutes * 60, a.interval)
    print(f"{r['tablets']} tablets, {r['seconds']:.0f} s, {r['rolls']} rolls, {r['events']} events each")
    print(f"client errors: {len(r['errors'])}  tablets that missed an event: {r['tablets_missing_events']}  "
          f"resyncs: {r['resyncs']}  roll errors: {r['roll_errors']}  reads: {r['read_statuses']}")
    print(f"memory: baseline {r['rss_base_mb']:.1f} MB (after warm-up), end {r['rss_end_mb']:.1f} MB, "
          f"peak {r['rss_peak_mb']:.1f} MB, growth {100 * r['growth']:.1f} % (bar < 10 %)")
    ok = not r["errors"] and not r["tablets_missing_events"] and not r["roll_errors"] and r["growth"] < 0.10
    print("bar:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
