"""Latency of one camera roll: "settled" -> the outcome received by a tablet's event stream.

    python benchmarks/bench_roll_latency.py            # 60 rolls, ~1 minute
    python benchmarks/bench_roll_latency.py --rolls 200

The whole pipeline runs as ``companion serve --demo`` runs it: a Wuxia table waiting for
a pool of five d10, the synthetic (rendered) camera at 960x720, the real reader with the
calibration of the empty tray, the rules, the SQLite log (WAL, one transaction per
event) and web.server serving ``/events`` to a Server-Sent Events client. Frames are
rendered before the clock starts (a camera has the picture when the tray says
"settled"). Per stage: capture, read, rules (match + fold + append), publish, and the
end-to-end figure at the client.

Bar (issue "Camera-assisted play"): median <= 150 ms, 99th percentile <= 300 ms on the
development machine. Baseline, same run: the same event typed by hand (POST-less:
``TableService.submit``) to the same client.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _live import CameraTable, LiveServer, SSEClient, loads, pct  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rolls", type=int, default=60)
    ap.add_argument("--frames", type=int, default=6, help="distinct rendered trays, cycled")
    args = ap.parse_args()
    from web.app import create_app

    ct = CameraTable("bench-roll-", args.frames)
    print(f"{len(ct.frames)} rendered trays of five d10, 960x720, all read cleanly")
    table, roll, test_ev = ct.table, ct.roll, ct.test_ev
    app = create_app({"SERVICE": table, "TABLE_PIN": "0000", "DEVICES": None})
    server = LiveServer(app)

    got = threading.Event()
    received: dict[str, float] = {}

    def on_event(name: str, data: str, t: float) -> None:
        if name == "table":
            ev = loads(data)["applied"]["event"]
            if ev["type"] == "wuxia.roll":
                received["t"] = t
                got.set()

    client = SSEClient(server.port, on_event)
    client.connected.wait(10)

    def run(n: int, camera: bool) -> tuple[list[float], list[dict[str, float]]]:
        lat, stages = [], []
        for i in range(n):
            table.submit(test_ev)  # a new test: the table waits for five d10 again
            got.clear()
            t0 = time.perf_counter()
            if camera:
                roll.settled(t0)
            else:
                table.submit({"type": "wuxia.roll", "data": {"dice": [7, 3, 9, 1, 10]}, "source": "manual"})
            if not got.wait(10):
                print(f"roll {i}: no outcome within 10 s", file=sys.stderr)
                continue
            lat.append((received["t"] - t0) * 1000)
            if camera:
                time.sleep(0.05)  # let the worker finish the photo (after the outcome)
                rec = roll.records.recent(1)[-1]
                if rec.get("status") != "applied":
                    print(f"roll {i}: {rec.get('status')} {rec.get('message')}", file=sys.stderr)
                stages.append(rec.get("timings", {}))
            time.sleep(0.02)
        return lat, stages

    run(3, True)  # warm-up: imports, caches
    base, _ = run(args.rolls, False)
    lat, stages = run(args.rolls, True)
    client.close()
    server.close()
    ct.close()

    def line(name: str, vals: list[float]) -> str:
        return f"  {name:10} median {statistics.median(vals):7.1f} ms   p99 {pct(vals, 0.99):7.1f} ms   max {max(vals):7.1f} ms"

    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{len(lat)} camera rolls, {len(base)} typed rolls (baseline)")
    for st in ("capture", "read", "rules", "publish"):
        vals = [s[st] for s in stages if st in s]
        if vals:
            print(line(st, vals))
    print(line("end-to-end", lat))
    print(line("baseline", base))
    med, p99 = statistics.median(lat), pct(lat, 0.99)
    print(f"ratio to the typed baseline (median): {med / statistics.median(base):.1f}x")
    ok = med <= 150 and p99 <= 300
    print(f"bar: median <= 150 ms and p99 <= 300 ms: {'PASS' if ok else 'FAIL'} ({med:.1f} / {p99:.1f} ms)")
    if client.errors:
        print("client errors:", client.errors[:3])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
