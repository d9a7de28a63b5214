"""A long campaign on the real server: start-up, state, append and memory against its size.

    nice -n 10 python benchmarks/bench_campaign.py [--sizes 1000,10000,100000] [--samples 30]

1. Plays one Péripéties campaign (``bench_replay.build_log``: players, characters, camera
   reads, corrections, choices, deaths, 2 % undos) as long as the largest size, plus the
   events to append afterwards.
2. For each size N: ``companion import`` of its first N events into a fresh data folder
   (rules-checked, batched, snapshots written), then ``companion serve`` on loopback
   (the sizes are measured in turn, request by request, so that the drifting load of a
   shared machine weighs on all of them alike):

   - **start-up**: from the process's spawn to the first ``200`` of ``/healthz``, with the
     snapshot cache (the median of ``--starts``: what every start after the first sees)
     and without it
     (``cold``: the one-time rebuild after a rules update or a deleted cache);
   - **GET /api/state**: median and p90 of ``--samples`` requests;
   - **append + publish**: ``POST /api/events`` of the campaign's next events, with a
     tablet's live stream (``/events``) open, median and p90;
   - **GET /api/log** (one page of history from the middle of the log);
   - for each of these, the server's own CPU time per request (from ``/proc``), which the
     load of a shared machine does not inflate;
   - **RSS**: the server's resident memory after the appends (``VmRSS``; ``VmHWM`` peak).

3. Prints each figure with its ratio to the 1k figures measured in the same run, then
   the bars of the issue at the largest size, and the CPU time of a whole ``companion odds
   shayo --attribute 4 --skill 2 --difficulty 6`` process against a bare ``python -c pass``.

Bars at 100k events: append + publish <= 20 ms and <= 2x the 1k figure, state <= 20 ms,
start-up <= 3 s, RSS <= 250 MB; the odds process <= 0.12 s CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from _live import SSEClient, pct  # noqa: E402
from bench_replay import build_log  # noqa: E402

from companion.importer import import_lines  # noqa: E402
from companion.snapshots import snapshot_path  # noqa: E402

PIN = "2468"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``companion serve`` on loopback, no devices; ``startup`` = spawn to /healthz."""

    def __init__(self, data: Path) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--pin", PIN, "--data", str(data), "--camera", "none", "--tray", "none", "--gpio", "none"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = t0 + 300
        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"server exited: {self.proc.stderr.read() if self.proc.stderr else ''}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.perf_counter() > deadline:
                self.stop()
                raise SystemExit("server did not answer /healthz in 300 s")
            time.sleep(0.02)  # polling the server's readiness; not a test
        self.startup = time.perf_counter() - t0

    @staticmethod
    def warm_up() -> None:
        """One server start, not measured: the first one also reads Python's modules
        from disk, which the 1k figure (the baseline) should not pay alone."""
        tmp = Path(tempfile.mkdtemp(prefix="bench-campaign-warm-"))
        try:
            Served(tmp).stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return bytes(r.read())

    def post(self, body: Any) -> int:
        req = urllib.request.Request(self.base + "/api/events", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                r.read()
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    def memory(self) -> tuple[float, float]:
        """(VmRSS, VmHWM) in MB."""
        fields = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            fields[key] = value.strip()
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stderr:
            self.proc.stderr.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _body(line: str) -> dict[str, Any]:
    obj = json.loads(line)
    return {"type": obj["type"], "data": obj.get("data", {}), "source": obj.get("source", "manual")}


def measure(sizes: list[int], lines: list[str], samples: int, cold: bool, starts: int) -> dict[int, dict[str, float]]:
    """Every figure for every size. On a shared machine the load drifts over minutes, so
    the sizes are measured in turn, request by request (start-ups: start by start), and
    the servers' own CPU time is given beside the wall-clock figures."""
    out: dict[int, dict[str, float]] = {n: {} for n in sizes}
    dirs = {n: Path(tempfile.mkdtemp(prefix=f"bench-campaign-{n}-")) for n in sizes}
    servers: dict[int, Served] = {}
    try:
        for n in sizes:
            t0 = time.perf_counter()
            report = import_lines(lines[:n], dirs[n] / "table.sqlite")
            out[n]["import_s"] = time.perf_counter() - t0
            if report.refused or report.imported != n:
                raise SystemExit(f"import of the {n}-event campaign refused lines: {report.refused[:3]}")
            print(f"  imported {n:,} events in {out[n]['import_s']:.1f} s", flush=True)
        if cold:
            for n in sizes:
                snapshot_path(dirs[n] / "table.sqlite").unlink()
                srv = Served(dirs[n])
                out[n]["cold_s"] = srv.startup
                srv.stop()
                print(f"  cold start-up at {n:,} events: {srv.startup:.1f} s", flush=True)
        warm: dict[int, list[float]] = {n: [] for n in sizes}
        for i in range(max(1, starts)):
            for n in sizes:
                srv = Served(dirs[n])
                warm[n].append(srv.startup)
                if i == max(1, starts) - 1:
                    servers[n] = srv  # the last ones stay up for the requests
                else:
                    srv.stop()
        for n in sizes:
            out[n]["startup_s"] = statistics.median(warm[n])

        def timed(what: str, request: Any) -> None:
            times: dict[int, list[float]] = {n: [] for n in sizes}
            cpu0 = {n: cpu_seconds(servers[n].proc.pid) for n in sizes}
            for i in range(samples):
                for n in sizes:
                    t1 = time.perf_counter()
                    request(n, i)
                    times[n].append(time.perf_counter() - t1)
            for n in sizes:
                out[n][what + "_ms"] = statistics.median(times[n]) * 1000
                out[n][what + "_p90_ms"] = pct(times[n], 0.9) * 1000
                out[n][what + "_cpu_ms"] = (cpu_seconds(servers[n].proc.pid) - cpu0[n]) / samples * 1000

        timed("state", lambda n, i: servers[n].get("/api/state"))
        received: dict[int, list[float]] = {n: [] for n in sizes}
        tablets = {}
        for n in sizes:
            tablets[n] = SSEClient(servers[n].port, lambda name, data, t, n=n: received[n].append(t)
                                   if name == "table" else None)
            tablets[n].connected.wait(30)

        def append(n: int, i: int) -> None:
            status = servers[n].post(_body(lines[n + i]))
            if status != 201:
                raise SystemExit(f"append refused at {n} events: HTTP {status}")

        timed("append", append)
        deadline = time.perf_counter() + 10
        while any(len(received[n]) < samples for n in sizes) and time.perf_counter() < deadline:
            time.sleep(0.01)  # the streams are read in threads; bounded wait
        for n in sizes:
            out[n]["published"] = len(received[n])
            tablets[n].close()
        timed("page", lambda n, i: servers[n].get(f"/api/log?before={n // 2}&limit=50"))
        for n in sizes:
            out[n]["rss_mb"], out[n]["hwm_mb"] = servers[n].memory()
    finally:
        for srv in servers.values():
            srv.stop()
        for d in dirs.values():
            shutil.rmtree(d, ignore_errors=True)
    return out


def odds_cpu(runs: int) -> tuple[float, float]:
    """Median CPU seconds of a whole ``companion odds shayo ...`` process, and of
    ``python -c pass`` (the interpreter's own start)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def cpu(cmd: list[str]) -> float:
        vals = []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            vals.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        return statistics.median(vals)

    odds = cpu([sys.executable, "-m", "companion", "odds", "shayo", "--attribute", "4", "--skill", "2",
                "--difficulty", "6"])
    return odds, cpu([sys.executable, "-c", "pass"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000", help="campaign sizes, the first is the baseline")
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--undo-rate", type=float, default=0.02)
    ap.add_argument("--no-cold", action="store_true", help="skip the start-up without snapshot cache")
    ap.add_argument("--starts", type=int, default=3, help="warm start-ups per size (median)")
    ap.add_argument("--odds-runs", type=int, default=10)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]

    t0 = time.perf_counter()
    events = build_log(max(sizes) + args.samples, args.seed, args.undo_rate)
    lines = [json.dumps(e.to_json(), ensure_ascii=False) for e in events]
    undos = sum(e.type == "undo" for e in events)
    print(f"campaign: {len(events)} Péripéties events ({undos} undos), generated in {time.perf_counter() - t0:.1f} s")

    Served.warm_up()
    results = measure(sizes, lines, args.samples, cold=not args.no_cold, starts=args.starts)
    base = results[sizes[0]]
    rows = [
        ("import (companion import)", "import_s", "s"),
        ("start-up, cold (no cache)", "cold_s", "s"),
        ("start-up to /healthz", "startup_s", "s"),
        ("GET /api/state (median)", "state_ms", "ms"),
        ("GET /api/state (p90)", "state_p90_ms", "ms"),
        ("  server CPU per request", "state_cpu_ms", "ms"),
        ("append + publish (median)", "append_ms", "ms"),
        ("append + publish (p90)", "append_p90_ms", "ms"),
        ("  server CPU per request", "append_cpu_ms", "ms"),
        ("GET /api/log page (median)", "page_ms", "ms"),
        ("  server CPU per request", "page_cpu_ms", "ms"),
        ("server RSS", "rss_mb", "MB"),
        ("server peak RSS", "hwm_mb", "MB"),
    ]
    print()
    print(f"{'figure':28}" + "".join(f"{n:>20,}" for n in sizes))
    for label, key, unit in rows:
        if key not in base:
            continue
        cells = []
        for n in sizes:
            v = results[n][key]
            ratio = v / base[key] if base[key] else float("nan")
            cells.append(f"{v:9.2f} {unit:2} ×{ratio:5.2f}" if n != sizes[0] else f"{v:9.2f} {unit:2}       ")
        print(f"{label:28}" + "".join(f"{c:>20}" for c in cells))

    big = results[sizes[-1]]
    odds, bare = odds_cpu(args.odds_runs)
    checks = [
        (f"append + publish at {sizes[-1]:,} <= 20 ms", big["append_ms"] <= 20),
        (f"append + publish at {sizes[-1]:,} <= 2x the {sizes[0]:,} figure", big["append_ms"] <= 2 * base["append_ms"]),
        (f"GET /api/state at {sizes[-1]:,} <= 20 ms", big["state_ms"] <= 20),
        (f"start-up at {sizes[-1]:,} <= 3 s", big["startup_s"] <= 3),
        (f"server RSS at {sizes[-1]:,} <= 250 MB", big["rss_mb"] <= 250),
        (f"companion odds shayo: {odds:.3f} s CPU (python -c pass: {bare:.3f} s) <= 0.12 s", odds <= 0.12),
    ]
    print()
    for label, ok in checks:
        print(f"  {'OK    ' if ok else 'MISSED'} {label}")
    print(f"  every append published to the open tablet: {all(r['published'] >= args.samples for r in results.values())}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
