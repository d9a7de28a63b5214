"""Tray benchmarks: event latency, decoder throughput, unplug/replug times, optional soak.

    python benchmarks/bench_tray.py            # ~1 minute
    python benchmarks/bench_tray.py --soak 600 # plus the 10-minute soak

Bars (issue "The tray"): median event latency over the pseudo-terminal <= 5 ms; decoder
>= 5 MB/s of mixed garbage and frames; unplug noticed within 3 s; back within 2 s of the
port reappearing; no exception and no lost event in the soak. Each figure is printed with
a baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import serial  # noqa: E402

from firmware_bridge import protocol as p  # noqa: E402
from firmware_bridge.emulator import TrayEmulator  # noqa: E402
from firmware_bridge.events import DiceSettled, MotionStarted, TrayConnected, TrayDisconnected  # noqa: E402
from firmware_bridge.firmware import wire  # noqa: E402
from firmware_bridge.link import LinkSettings, TrayLink  # noqa: E402


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


class Waiter:
    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.times: dict[type, list[float]] = {}

    def __call__(self, ev: object) -> None:
        t = time.perf_counter()
        with self.cond:
            self.times.setdefault(type(ev), []).append(t)
            self.cond.notify_all()

    def wait(self, cls: type, n: int, timeout: float = 10) -> float:
        with self.cond:
            ok = self.cond.wait_for(lambda: len(self.times.get(cls, [])) >= n, timeout)
            if not ok:
                raise SystemExit(f"timed out waiting for {cls.__name__} #{n}")
            return self.times[cls][n - 1]


def bench_latency(n: int) -> None:
    print(f"== event latency, {n} rolls (shake -> MotionStarted at the subscriber)")
    emu = TrayEmulator(settle_ms=20).start()
    written: list[float] = []
    w = Waiter()
    link = TrayLink(emu.port)
    link.subscribe(w)
    link.start()
    link.wait_connected(5)
    emu.set_on_write(lambda data: written.append(time.perf_counter()) if b" MOTION " in data else None)
    stim, wire_lat = [], []
    for i in range(1, n + 1):
        t0 = time.perf_counter()
        emu.shake()
        t1 = w.wait(MotionStarted, i)
        stim.append((t1 - t0) * 1000)
        wire_lat.append((t1 - written[-1]) * 1000)
        w.wait(DiceSettled, i)
        time.sleep(0.005)
    link.stop()
    emu.stop()
    # baseline: the bare pseudo-terminal, one frame written on the master, read by pyserial
    master, slave = os.openpty()
    import tty
    tty.setraw(slave)
    ser = serial.Serial(os.ttyname(slave), timeout=1)
    frame = p.encode(p.Motion(123, seq=5))
    base = []
    for _ in range(n):
        t0 = time.perf_counter()
        os.write(master, frame)
        got = b""
        while not got.endswith(b"\n"):
            got += ser.read(max(1, ser.in_waiting))
        base.append((time.perf_counter() - t0) * 1000)
    ser.close()
    os.close(master)
    os.close(slave)
    for name, vals in (("stimulus -> subscriber", stim), ("frame written -> subscriber", wire_lat),
                       ("baseline: bare pty + pyserial", base)):
        print(f"  {name:32s} median {statistics.median(vals):6.2f} ms   p99 {pct(vals, 0.99):6.2f} ms")
    print(f"  ratio median (frame written -> subscriber) / baseline: {statistics.median(wire_lat) / statistics.median(base):.1f}x"
          f"   bar: median <= 5 ms -> {'OK' if statistics.median(wire_lat) <= 5 else 'MISSED'}")


def mixed_stream(size: int, seed: int = 7) -> bytes:
    rng = random.Random(seed)
    msgs = [p.Press(1, 100, seq=1), p.Settled(48211, 930, seq=2), p.Heartbeat(123456, 0, seq=3),
            p.Light(200, 255, 240, 220, seq=4), p.Hello(1, 1, "0.1.0", "pico", 500, seq=5)]
    frames = [p.encode(m) for m in msgs]
    out = bytearray()
    while len(out) < size:
        if rng.random() < 0.5:
            out += rng.choice(frames)
        else:
            out += rng.randbytes(rng.randint(1, 60))
    return bytes(out)


def bench_decoder() -> None:
    data = mixed_stream(8_000_000)
    print(f"== decoder throughput, {len(data) / 1e6:.1f} MB of half garbage, half frames, 4 KiB reads")
    best_wall = best_cpu = 0.0
    for _ in range(3):
        dec = p.Decoder()
        t0, c0 = time.perf_counter(), time.process_time()
        n = 0
        for i in range(0, len(data), 4096):
            n += len(dec.feed(data[i:i + 4096]))
        best_wall = max(best_wall, len(data) / (time.perf_counter() - t0) / 1e6)
        best_cpu = max(best_cpu, len(data) / max(1e-9, time.process_time() - c0) / 1e6)
    small = data[:400_000]
    reader = wire.LineReader()
    c0 = time.process_time()
    for i in range(0, len(small), 4096):
        reader.feed(small[i:i + 4096])
    base = len(small) / max(1e-9, time.process_time() - c0) / 1e6
    load = os.getloadavg()[0]
    print(f"  Decoder      {best_cpu:6.2f} MB per CPU second, {best_wall:6.2f} MB/s wall clock"
          f" (load average {load:.1f} on {os.cpu_count()} cores)  {n} frames, {dec.stats.bad_frames} bad dropped")
    print(f"  baseline: firmware LineReader (byte loop) {base:6.2f} MB per CPU second")
    print(f"  ratio {best_cpu / base:.1f}x   bar: >= 5 MB/s -> {'OK' if best_cpu >= 5 else 'MISSED'}"
          f"{'' if best_wall >= 5 else ' (per CPU second; the wall clock is shared with the load above)'}")


def bench_unplug(repeats: int) -> None:
    print(f"== unplug / replug with the default settings ({LinkSettings().silence_timeout} s silence timeout), {repeats} times")
    emu = TrayEmulator().start()
    w = Waiter()
    link = TrayLink(emu.port)
    link.subscribe(w)
    link.start()
    link.wait_connected(5)
    pulled, back, silent = [], [], []
    conn = 1
    disc = 0
    for i in range(repeats):
        time.sleep(0.3)
        t0 = time.perf_counter()
        emu.unplug()
        disc += 1
        pulled.append(w.wait(TrayDisconnected, disc) - t0)
        time.sleep(random.uniform(0.2, 1.5))
        t0 = time.perf_counter()
        emu.plug()
        conn += 1
        back.append(w.wait(TrayConnected, conn) - t0)
    for i in range(max(1, repeats // 3)):
        time.sleep(0.3)
        t0 = time.perf_counter()
        emu.go_silent()
        disc += 1
        silent.append(w.wait(TrayDisconnected, disc) - t0)
        emu.resume()
        conn += 1
        w.wait(TrayConnected, conn)
    link.stop()
    emu.stop()
    print(f"  cable pulled -> disconnected     median {statistics.median(pulled):5.2f} s  max {max(pulled):5.2f} s")
    print(f"  tray hung (no heartbeat) -> disc. median {statistics.median(silent):5.2f} s  max {max(silent):5.2f} s"
          f"   bar: <= 3 s -> {'OK' if max(silent) <= 3 and max(pulled) <= 3 else 'MISSED'}")
    print(f"  port back -> connected           median {statistics.median(back):5.2f} s  max {max(back):5.2f} s"
          f"   bar: <= 2 s -> {'OK' if max(back) <= 2 else 'MISSED'}")
    print(f"  baseline: the heartbeat period {LinkSettings().heartbeat_interval} s; back-off cap {LinkSettings().reconnect_max} s")


def bench_soak(seconds: float) -> None:
    from firmware_bridge.soak import run_soak

    print(f"== soak, {seconds:.0f} s of random unplugs, hangs, reboots and line noise")
    r = run_soak(seconds, seed=int(time.time()))
    print(f"  actions {r.actions}")
    print(f"  events acknowledged {r.events_acked}, delivered {r.events_delivered}, given up while down {r.events_unacked}")
    print(f"  lost {len(r.lost)}, duplicated {len(r.duplicates)}, thread exceptions {len(r.thread_errors)}, "
          f"reconnects {r.connects}, bad frames dropped {r.bad_frames}")
    print(f"  -> {'OK' if r.ok else 'FAILED'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=200)
    ap.add_argument("--unplugs", type=int, default=6)
    ap.add_argument("--soak", type=float, default=0.0, help="also run the soak for this many seconds (600 for the bar)")
    args = ap.parse_args()
    bench_latency(args.rolls)
    bench_decoder()
    bench_unplug(args.unplugs)
    if args.soak:
        bench_soak(args.soak)
    return 0


if __name__ == "__main__":
    sys.exit(main())
