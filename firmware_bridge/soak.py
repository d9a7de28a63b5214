"""A soak run: a link and an emulated tray under random unplugs, hangs, reboots and line noise.

Used by the CI test (a few seconds) and by ``benchmarks/bench_tray.py --soak 600`` (the
10-minute bar). It checks what matters to players:

- no exception escapes the link (its threads stay alive, ``threading.excepthook`` sees nothing);
- every event the firmware had acknowledged reached the subscriber exactly once, in order;
- no event is delivered twice;
- after the chaos the tray is connected again and a clean burst of events all arrives.
"""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .emulator import TrayEmulator
from .events import ButtonPressed, ButtonReleased, DiceSettled, MotionStarted, TrayConnected, TrayDisconnected
from .link import LinkSettings, TrayLink

__all__ = ["SoakReport", "run_soak", "FAST_LINK", "FAST_FIRMWARE"]

#: Short timings so a soak packs many reconnects into little time.
FAST_LINK = LinkSettings(heartbeat_interval=0.1, silence_timeout=0.6, handshake_timeout=0.5, hello_interval=0.1,
                         ack_timeout=0.05, max_retries=20, reconnect_min=0.02, reconnect_max=0.2)
FAST_FIRMWARE: dict[str, Any] = dict(settle_ms=60, debounce_ms=10, hb_ms=100, host_timeout_ms=800, ack_ms=50, retries=20)


@dataclass
class SoakReport:
    seconds: float = 0.0
    actions: dict[str, int] = field(default_factory=dict)
    events_acked: int = 0
    events_unacked: int = 0  # given up by the firmware: sent while the line was down
    events_delivered: int = 0
    lost: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    duplicates: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    thread_errors: list[str] = field(default_factory=list)
    connects: int = 0
    disconnects: int = 0
    bad_frames: int = 0
    final_burst_ok: bool = False
    link_alive: bool = False

    @property
    def ok(self) -> bool:
        return (not self.lost and not self.duplicates and not self.thread_errors
                and self.final_burst_ok and self.link_alive)


def _key(ev: Any) -> tuple[str, tuple[int, ...]] | None:
    if isinstance(ev, MotionStarted):
        return ("MOTION", (ev.tray_ms,))
    if isinstance(ev, DiceSettled):
        return ("SETTLED", (ev.tray_ms, ev.moving_ms))
    if isinstance(ev, ButtonPressed):
        return ("PRESS", (ev.button, ev.tray_ms))
    if isinstance(ev, ButtonReleased):
        return ("RELEASE", (ev.button, ev.tray_ms, ev.held_ms))
    return None


ACTIONS = ("shake", "click", "noise", "inject", "unplug", "silent", "reset", "light", "calm")
WEIGHTS = (20, 20, 6, 8, 3, 2, 2, 6, 10)


def _chaos(action: str, emu: TrayEmulator, link: TrayLink, rng: random.Random, noise: float) -> None:
    """One random mishap or use of the tray, held for a random while (the pacing is the chaos)."""
    if action == "shake":
        emu.shake(rng.uniform(0, 0.15))
        time.sleep(rng.uniform(0.1, 0.3))
    elif action == "click":
        emu.click(rng.choice((1, 2)), hold=rng.uniform(0.02, 0.1))
        time.sleep(rng.uniform(0.05, 0.2))
    elif action == "noise":
        emu.line_noise = noise * 4
        time.sleep(rng.uniform(0.2, 0.5))
        emu.line_noise = noise
    elif action == "inject":
        emu.inject(rng.choice([os.urandom(rng.randint(1, 200)), b"$12 SETT", b"$$$\n\n*", b"\x03\x04\x00"]))
    elif action == "unplug":
        emu.unplug()
        time.sleep(rng.uniform(0.05, 0.6))
        emu.plug()
        link.wait_connected(3)
    elif action == "silent":
        emu.go_silent()
        time.sleep(rng.uniform(0.2, 1.0))
        emu.resume()
    elif action == "reset":
        emu.reset()
    elif action == "light":
        link.set_light(rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
    else:
        emu.line_noise = 0.0
        time.sleep(rng.uniform(0.1, 0.4))
        emu.line_noise = noise


def _final_burst(emu: TrayEmulator, link: TrayLink) -> bool:
    """After the chaos, on a clean line: five clicks, each acknowledged before the next."""
    if not emu.wait_for(lambda: link.connected and emu.host_present and emu.tray is not None
                        and emu.tray.inflight is None and not emu.tray.queue, 5):
        return False
    before = len(emu.deliveries)
    for i in range(5):
        emu.click(1 + i % 2, hold=0.03)
        if not emu.wait_for(lambda: len(emu.deliveries) >= before + 2 * (i + 1), 5):
            return False
    return all(d[2] for d in emu.deliveries[before:])


def _tally(report: SoakReport, received: list[tuple[str, tuple[int, ...]]],
           deliveries: list[tuple[str, tuple[object, ...], bool]]) -> None:
    acked = [(name, tuple(int(str(a)) for a in args)) for name, args, ok in deliveries if ok]
    report.events_acked = len(acked)
    report.events_unacked = sum(1 for d in deliveries if not d[2])
    report.events_delivered = len(received)
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for k in received:
        if k in seen:
            report.duplicates.append(k)
        seen.add(k)
    it = iter(received)  # acked events must appear, in order, among those received
    for k in acked:
        for r in it:
            if r == k:
                break
        else:
            report.lost.append(k)
            it = iter(received)


def run_soak(seconds: float, seed: int = 1, noise: float = 0.05) -> SoakReport:
    """Run the chaos for ``seconds`` (plus a few seconds to settle and check)."""
    rng = random.Random(seed)
    report = SoakReport()
    received: list[tuple[str, tuple[int, ...]]] = []
    lock = threading.Lock()
    errors: list[str] = []
    old_hook = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        errors.append(f"{args.thread.name if args.thread else '?'}: {args.exc_type.__name__}: {args.exc_value}")
        old_hook(args)

    def on_event(ev: Any) -> None:
        k = _key(ev)
        if k is not None:
            with lock:
                received.append(k)
        elif isinstance(ev, TrayConnected):
            report.connects += 1
        elif isinstance(ev, TrayDisconnected):
            report.disconnects += 1

    threading.excepthook = hook
    emu = TrayEmulator(seed=seed, **FAST_FIRMWARE).start()
    link = TrayLink(emu.port, FAST_LINK)
    link.subscribe(on_event)
    t0 = time.monotonic()
    try:
        link.start()
        link.wait_connected(5)
        end = t0 + seconds
        while time.monotonic() < end:
            action = rng.choices(ACTIONS, weights=WEIGHTS)[0]
            report.actions[action] = report.actions.get(action, 0) + 1
            _chaos(action, emu, link, rng, noise)
        # calm down, then a clean burst must all arrive
        emu.line_noise = 0.0
        emu.resume()
        if not emu.plugged:
            emu.plug()
        report.link_alive = link.wait_connected(5)
        report.final_burst_ok = _final_burst(emu, link)
        emu.wait_for(lambda: len(received) >= sum(1 for d in emu.deliveries if d[2]), 5)
        report.link_alive = report.link_alive and link._thread is not None and link._thread.is_alive() \
            and link._dispatcher is not None and link._dispatcher.is_alive() and link.connected
    finally:
        link.stop()  # the dispatcher delivers everything queued before it ends: no straggler after this
        emu.stop()
        threading.excepthook = old_hook
    report.seconds = time.monotonic() - t0
    _tally(report, received, emu.deliveries)
    report.thread_errors = errors
    report.bad_frames = link.stats.bad_frames
    return report
