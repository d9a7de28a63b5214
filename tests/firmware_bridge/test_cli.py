"""``companion tray ...`` run as a user runs it."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from firmware_bridge import protocol as p

ROOT = Path(__file__).resolve().parents[2]


def _ctrl_c_works() -> None:
    """In the child, before Python starts: SIGINT back to its default. A test run started
    in the background by a shell (``pytest &``) ignores SIGINT, and a child inherits that;
    Python then installs no KeyboardInterrupt and the test's Ctrl-C would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _run(*args: str, timeout: float = 120, **kw: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, **kw)  # type: ignore[call-overload]


def test_frame_prints_a_line_the_tray_accepts() -> None:
    out = _run("tray", "frame", "light", "200", "255", "240", "220", "--seq", "7")
    assert out.returncode == 0
    assert p.Decoder().feed(out.stdout.encode()) == [p.Light(200, 255, 240, 220, seq=7)]
    bad = _run("tray", "frame", "LIGHT", "$")
    assert bad.returncode == 1 and "ASCII" in bad.stderr


class Lines:
    """The lines a child process writes, gathered by a thread, so the test waits for a line (not a delay)."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self._new: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._new.put(line.rstrip("\n"))
        self._new.put(None)

    def wait_for(self, text: str, timeout: float = 60) -> str:
        """The first line (from now on) holding ``text``; fails if the stream ends or ``timeout`` s pass."""
        end = time.monotonic() + timeout
        while True:
            try:
                line = self._new.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line with {text!r} within {timeout} s; got {self.lines}") from None
            if line is None:
                raise AssertionError(f"the stream ended before a line with {text!r}; got {self.lines}")
            self.lines.append(line)
            if text in line:
                return line


def test_emulate_and_monitor_in_two_processes(tmp_path: Path) -> None:
    """Each step waits for the line that says the previous one happened, so a loaded machine only slows it."""
    emu = subprocess.Popen([sys.executable, "-m", "companion", "tray", "emulate", "--dir", str(tmp_path),
                            "--settle-ms", "100", "--lang", "en"], cwd=ROOT, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    mon: subprocess.Popen[str] | None = None
    try:
        assert emu.stdout is not None and emu.stdin is not None and emu.stderr is not None
        port = emu.stdout.readline().strip()
        assert port == str(tmp_path / "tray")
        emu_err = Lines(emu.stderr)
        mon = subprocess.Popen([sys.executable, "-m", "companion", "tray", "monitor", port, "--lang", "en"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_ctrl_c_works)
        assert mon.stdout is not None
        out = Lines(mon.stdout)

        def say(cmd: str) -> None:
            assert emu.stdin is not None
            emu.stdin.write(cmd + "\n")
            emu.stdin.flush()

        assert "tray connected on" in out.wait_for("tray ")  # the first line
        say("shake")
        out.wait_for("dice moving")
        out.wait_for("dice settled")
        say("click 2")
        out.wait_for("button 2 pressed")
        out.wait_for("button 2 released")
        say("bogus")
        emu_err.wait_for("unknown command: bogus")
        mon.send_signal(signal.SIGINT)  # Ctrl-C: the monitor stops its link and says so
        out.wait_for("tray disconnected (stopped)")
        assert mon.wait(timeout=60) == 130
        say("quit")
        assert emu.wait(timeout=60) == 0
    finally:
        for proc in (mon, emu):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


def test_monitor_an_emulated_tray_as_json() -> None:
    mon = subprocess.Popen([sys.executable, "-m", "companion", "tray", "monitor", "emulated", "--json",
                            "--light", "80", "--status", "slow"], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_works)
    try:
        assert mon.stdout is not None
        out = Lines(mon.stdout)
        first = json.loads(out.wait_for('"event"'))
        assert first["event"] == "connected" and first["board"] == "sim"
        mon.send_signal(signal.SIGINT)
        last = json.loads(out.wait_for('"disconnected"'))
        assert last == {"event": "disconnected", "reason": "stopped"}
        assert mon.wait(timeout=60) == 130
    finally:
        if mon.poll() is None:
            mon.kill()
            mon.wait()


def test_monitor_stops_after_its_duration() -> None:
    out = _run("tray", "monitor", "emulated", "--json", "--duration", "0.2", timeout=120)
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    if events:  # connected in time or not, a connected tray is always told goodbye
        assert events[0]["event"] == "connected" and events[-1] == {"event": "disconnected", "reason": "stopped"}


def test_register_imports_nothing_heavy() -> None:
    code = ("import sys, argparse; import firmware_bridge.cli as c; c.register(argparse.ArgumentParser()"
            ".add_subparsers()); bad = {'serial', 'gpiozero', 'cv2', 'flask', 'numpy'} & set(sys.modules); "
            "print(sorted(bad)); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stdout + out.stderr
