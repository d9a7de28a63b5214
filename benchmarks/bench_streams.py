"""Many tablets on live updates: the serving designs compared, on 127.0.0.1 only.

    ulimit -n 4096
    python benchmarks/bench_streams.py --baseline main       # 200 tablets, 3 rounds: main's server, then this one
    python benchmarks/bench_streams.py --servers waitress,gevent   # the design comparison
    python benchmarks/bench_streams.py --tablets 60 --rounds 1

Each candidate serves a fresh table in a subprocess (so its memory is its own):

- ``waitress``: what ``companion serve`` ran before (48 threads; each stream holds one);
- ``gevent``: :mod:`web.server` (streams are greenlets, the app runs in 8 threads);
- ``gevent@REV`` (``--baseline REV``): ``web/server.py`` as it is at git revision REV,
  with this tree's app, so an older server and this one are measured in the same run
  (the machine's load changes from one run to the next).

Before the figures, a warm-up (20 tablets, the posts) loads every code path and cache,
so "memory at start" is the table's working size; the memory at launch is printed too.
A control server of the last kind takes the same posts with no stream open: what the
table itself grows by (the log, the kept frames, SQLite's page cache; the test game keeps
every roll) is told apart from what the streams leave behind.

A round: ``--tablets`` Server-Sent Events clients connect (from 25 loopback addresses,
as tablets have their own), each waits for its ``hello``; then ``--posts`` events are
posted one after another while every stream is open (latency of each post until its
201) and ``/healthz`` is asked between posts; every stream must receive every event;
then all clients leave. Printed per round: streams that connected, posts answered and
their p50/p99, /healthz answered and its worst time, tablets that missed an event, the
server's resident memory. Baselines measured in the same run: posts with no stream open,
the memory before the first round, and the other candidate.

Every wait is bounded (connect 5 s, a request 5 s), so a frozen server costs seconds,
not a hang.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PIN = "802417"
TIMEOUT = 5.0


def _serve(kind: str, port_file: str, data: str) -> None:
    """The server subprocess: a fresh table, the chosen server, the port written out."""
    from companion.service import TableService
    from web.app import create_app

    service = TableService(Path(data) / "table.sqlite")
    app = create_app({"SERVICE": service, "TABLE_PIN": PIN, "STREAMS_PER_ADDRESS": 16, "SSE_PING_S": 15.0})
    if kind.startswith("gevent@"):
        import importlib.util

        spec = importlib.util.spec_from_file_location("baseline_server", str(Path(data) / "baseline_server.py"))
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        server: Any = mod.create_server(app, host="127.0.0.1", port=0, threads=8)
        port = server.effective_port
    elif kind == "waitress":
        from waitress import create_server

        server = create_server(app, host="127.0.0.1", port=0, threads=48, channel_timeout=120)
        port = server.effective_port
    else:
        from web.server import create_server as create

        server = create(app, host="127.0.0.1", port=0, threads=8)
        port = server.effective_port
    Path(port_file).write_text(str(port))
    server.run()


def cpu_s(pid: int | None) -> float:
    """CPU time (user + system) the process has used: unlike latency, not inflated by
    the other processes of a loaded machine."""
    if pid is None:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class _Conn:
    """One tablet's stream: connected (``hello``), ``table`` events received, error."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.hello = threading.Event()
        self.events = 0
        self.error: str | None = None
        self.head = b""
        self.tail = b""


class Tablets:
    """Every tablet's ``/events`` stream in one selector thread: the benchmark's own CPU
    (it shares the machine with the server) stays small, as 200 tablets' would be."""

    def __init__(self, port: int, n: int) -> None:
        self.port = port
        self.conns = [_Conn(f"127.0.1.{1 + i % 25}") for i in range(n)]
        self.sel = selectors.DefaultSelector()
        self._stop = False
        for c in self.conns:
            sock = socket.socket()
            sock.bind((c.source, 0))
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            self.sel.register(sock, selectors.EVENT_WRITE, c)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        request = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        while not self._stop:
            for key, mask in self.sel.select(0.2):
                sock, c = key.fileobj, key.data
                assert isinstance(sock, socket.socket)
                if mask & selectors.EVENT_WRITE:
                    err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if err:
                        c.error = f"connect: {os.strerror(err)}"
                        self.sel.unregister(sock)
                        continue
                    sock.send(request)
                    self.sel.modify(sock, selectors.EVENT_READ, c)
                    continue
                try:
                    data = sock.recv(65536)
                except OSError as exc:
                    data, c.error = b"", type(exc).__name__
                if not data:
                    if not self._stop and c.error is None:
                        c.error = "closed"
                    self.sel.unregister(sock)
                    continue
                if not c.hello.is_set():
                    c.head += data
                    if not c.head.startswith(b"HTTP/1.1 200"):
                        if b"\r\n" in c.head:
                            c.error = c.head.split(b"\r\n", 1)[0].decode()
                            self.sel.unregister(sock)
                        continue
                    if b"event: hello" in c.head:
                        c.hello.set()
                    data = c.head
                text = c.tail + data
                c.events += text.count(b"event: table\n")
                c.tail = text[-16:]

    def close(self) -> None:
        self._stop = True
        self.thread.join(5)
        for key in list(self.sel.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.sel.close()


def _request(port: int, method: str, path: str, body: Any = None) -> tuple[int, float]:
    t0 = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        conn.request(method, path, body=json.dumps(body).encode() if body is not None else None,
                     headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
        r = conn.getresponse()
        r.read()
        conn.close()
        return r.status, time.perf_counter() - t0
    except OSError:
        return 0, time.perf_counter() - t0


def _streams_open(port: int) -> int | None:
    """Streams the server still holds (``/healthz`` of web.server says; waitress: None)."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        conn.request("GET", "/healthz")
        body = json.loads(conn.getresponse().read())
        conn.close()
        n = body.get("streams")
        return int(n) if n is not None else None
    except (OSError, ValueError):
        return None


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


def _round(port: int, tablets: int, posts: int, pid: int | None = None) -> dict[str, Any]:
    """One round: ``tablets`` streams open, ``posts`` posts (and /healthz) meanwhile, all leave."""
    tablets_ = Tablets(port, tablets)
    clients = tablets_.conns
    t_end = time.monotonic() + 10 + tablets * 0.02
    for c in clients:
        c.hello.wait(max(0.0, t_end - time.monotonic()))
    connected = sum(c.hello.is_set() for c in clients)
    lat, health, ok_posts, ok_health = [], [], 0, 0
    cpu0 = cpu_s(pid)
    phase_end = time.monotonic() + 60  # a frozen server: the rest count as unanswered
    for _ in range(posts):
        if time.monotonic() > phase_end:
            lat.append(TIMEOUT)
            health.append(TIMEOUT)
            continue
        st, dt = _request(port, "POST", "/api/events", {"type": "dummy.add", "data": {"n": 1}})
        lat.append(dt)
        ok_posts += st == 201
        st, dt = _request(port, "GET", "/healthz")
        health.append(dt)
        ok_health += st == 200
    cpu = cpu_s(pid) - cpu0
    peak = rss_mb(pid) if pid is not None else float("nan")
    expected = ok_posts
    t_end = time.monotonic() + 5
    while time.monotonic() < t_end and any(c.hello.is_set() and c.events < expected for c in clients):
        time.sleep(0.05)
    missed = sum(1 for c in clients if c.hello.is_set() and c.events < expected)
    errors = sum(1 for c in clients if c.error)
    tablets_.close()
    time.sleep(1.0)  # let the server notice the closed streams
    left = _streams_open(port)
    return {"connected": connected, "posts_ok": ok_posts, "posts": posts, "lat": lat,
            "post_p50_ms": 1000 * pct(lat, 0.5), "post_p99_ms": 1000 * pct(lat, 0.99),
            "healthz_ok": ok_health, "healthz_max_ms": 1000 * max(health), "missed": missed,
            "errors": errors, "rss_peak_mb": peak, "streams_left": left, "cpu_ms_per_post": 1000 * cpu / max(1, posts)}


class Candidate:
    """One server in its own process, with a fresh table."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.data = tempfile.mkdtemp(prefix="bench-streams-")
        if kind.startswith("gevent@"):
            rev = kind.split("@", 1)[1]
            src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:web/server.py"], check=True,
                                 capture_output=True, text=True).stdout
            # its relative imports point at this tree's modules
            Path(self.data, "baseline_server.py").write_text(src.replace("from . import ", "from web import "))
        port_file = os.path.join(self.data, "port")
        env = dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_EXTRA_GAMES="dummy=tests.companion.dummy_game:GAME")
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", kind, "--port-file", port_file,
                                      "--data", self.data], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not os.path.exists(port_file) or not Path(port_file).read_text():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError(f"{kind} server did not start")
            time.sleep(0.05)
        self.port = int(Path(port_file).read_text())
        self.out: dict[str, Any] = {"kind": kind, "rounds": []}

    def warm_up(self, tablets: int, posts: int) -> None:
        port = self.port
        if _request(port, "POST", "/api/events",
                    {"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 10 ** 9}}})[0] != 201:
            raise RuntimeError(f"{self.kind}: no new game")
        self.out["rss_launch_mb"] = rss_mb(self.proc.pid)
        _round(port, min(20, tablets), posts)  # every code path and cache loaded
        alone = [_request(port, "POST", "/api/events", {"type": "dummy.add", "data": {"n": 1}})[1] for _ in range(posts)]
        self.out.update(rss_start_mb=rss_mb(self.proc.pid), alone_p50_ms=1000 * pct(alone, 0.5),
                        alone_p99_ms=1000 * pct(alone, 0.99))

    def round(self, n: int, tablets: int, posts: int) -> dict[str, Any]:
        r = _round(self.port, tablets, posts, self.proc.pid)
        r["round"] = n
        r["rss_mb"] = rss_mb(self.proc.pid)
        self.out["rounds"].append(r)
        return r

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.data, ignore_errors=True)


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split(" ", 3)[0]
    except OSError:
        return "?"


def _print_round(kind: str, x: dict[str, Any], start: float, tablets: int) -> None:
    print(f"  {kind} round {x['round']} (load {x['load']}): streams {x['connected']}/{tablets}, "
          f"posts {x['posts_ok']}/{x['posts']} (p50 {x['post_p50_ms']:.0f} ms, p99 {x['post_p99_ms']:.0f} ms, "
          f"server CPU {x['cpu_ms_per_post']:.1f} ms a post), "
          f"healthz {x['healthz_ok']}/{x['posts']} (worst {x['healthz_max_ms']:.0f} ms), missed {x['missed']}, "
          f"client errors {x['errors']}, streams left {x['streams_left']}, memory with streams "
          f"{x['rss_peak_mb']:.1f} MB, after {x['rss_mb']:.1f} MB (x{x['rss_mb'] / start:.2f} of the start)", flush=True)


def _summary(results: list[dict[str, Any]], tablets: int) -> None:
    for r in results:
        lat = [v for x in r["rounds"] for v in x["lat"]]
        r["p50_ms"], r["p99_ms"] = 1000 * pct(lat, 0.5), 1000 * pct(lat, 0.99)
        r["cpu_ms"] = sum(x["cpu_ms_per_post"] for x in r["rounds"]) / len(r["rounds"])
        last = r["rounds"][-1]
        print(f"{r['kind']}: all rounds, posts with {tablets} streams p50 {r['p50_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms "
              f"(x{r['p99_ms'] / r['alone_p99_ms']:.1f} of its p99 with no stream), server CPU {r['cpu_ms']:.1f} ms a post "
              f"(each post, its /healthz and its fan-out to every stream); memory "
              f"{r['rss_start_mb']:.1f} -> {last['rss_mb']:.1f} MB after the rounds "
              f"(ratio {last['rss_mb'] / r['rss_start_mb']:.2f})")
    if len(results) > 1:
        best, base = results[-1], results[0]
        print(f"{best['kind']} against {base['kind']} (same run): p99 {best['p99_ms']:.0f} against "
              f"{base['p99_ms']:.0f} ms (ratio {best['p99_ms'] / base['p99_ms']:.2f}), p50 {best['p50_ms']:.0f} against "
              f"{base['p50_ms']:.0f} ms, server CPU a post {best['cpu_ms']:.1f} against {base['cpu_ms']:.1f} ms "
              f"(ratio {best['cpu_ms'] / base['cpu_ms']:.2f}), memory after/start {best['rounds'][-1]['rss_mb'] / best['rss_start_mb']:.2f} "
              f"against {base['rounds'][-1]['rss_mb'] / base['rss_start_mb']:.2f}")


def _memory_net(best: dict[str, Any], control: "Candidate | None") -> float:
    """Memory after the rounds over the start, the table's own growth (the control's) aside."""
    last = best["rounds"][-1]
    table_growth = 0.0
    if control is not None:
        co = control.out
        table_growth = co["rounds"][-1]["rss_mb"] - co["rss_start_mb"]
        print(f"control ({control.kind}, the same posts with no stream open): memory {co['rss_start_mb']:.1f} -> "
              f"{co['rounds'][-1]['rss_mb']:.1f} MB: the table itself grew {table_growth:+.1f} MB")
    net = (last["rss_mb"] - max(0.0, table_growth)) / best["rss_start_mb"]
    print(f"{best['kind']}: memory after the rounds {last['rss_mb']:.1f} MB = x{last['rss_mb'] / best['rss_start_mb']:.2f} "
          f"of the start; without the table's own growth x{net:.2f}")
    return float(net)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tablets", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--posts", type=int, default=100, help="posts per round")
    ap.add_argument("--servers", default="gevent", help="candidates, comma-separated: gevent, waitress")
    ap.add_argument("--baseline", default=None, metavar="REV",
                    help="also measure web/server.py of this git revision (e.g. main), in the same run")
    ap.add_argument("--no-control", action="store_true",
                    help="skip the control server (the same posts with no stream: the table's own memory growth)")
    ap.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--port-file", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--data", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        _serve(a.serve, a.port_file, a.data)
        return 0
    kinds = ([f"gevent@{a.baseline}"] if a.baseline else []) + a.servers.split(",")
    cands: list[Candidate] = []
    control: Candidate | None = None
    try:
        for kind in kinds:
            cands.append(Candidate(kind))
        if not a.no_control:
            # the same posts with no stream open, on a server of the last kind: what the
            # table itself grows by (its log, frames, SQLite cache), not the streams
            control = Candidate(kinds[-1])
            control.warm_up(a.tablets, a.posts)
        for c in cands:
            c.warm_up(a.tablets, a.posts)
            o = c.out
            print(f"{c.kind}: memory at launch {o['rss_launch_mb']:.1f} MB, at start (after warm-up) "
                  f"{o['rss_start_mb']:.1f} MB; posts with no stream open: p50 {o['alone_p50_ms']:.0f} ms, "
                  f"p99 {o['alone_p99_ms']:.0f} ms", flush=True)
        for n in range(1, a.rounds + 1):  # the candidates take turns: each round under the same load
            for c in cands:
                load = _load()
                r = c.round(n, a.tablets, a.posts)
                r["load"] = f"{load}-{_load()}"
                _print_round(c.kind, r, c.out["rss_start_mb"], a.tablets)
            if control is not None:
                control.round(n, 0, a.posts)
    finally:
        for c in cands + ([control] if control else []):
            c.close()
    results = [c.out for c in cands]
    _summary(results, a.tablets)
    best = results[-1]
    net = _memory_net(best, control)
    # p99 over every post of every round: with 100 posts a round's own "p99" is its
    # second-worst post, one scheduler hiccup of a loaded machine
    ok = (all(x["connected"] == a.tablets and x["posts_ok"] == x["posts"] and x["healthz_ok"] == x["posts"]
              and x["missed"] == 0 for x in best["rounds"])
          and best["p99_ms"] <= 100 and net <= 1.10)
    print(f"bar ({best['kind']}: every stream, post and /healthz answered, p99 of all rounds' posts <= 100 ms, "
          "memory back within 10 % of the start, the table's own growth aside):",
          "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
