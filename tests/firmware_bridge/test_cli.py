"""``companion tray ...`` run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from firmware_bridge import protocol as p

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, timeout: float = 30, **kw: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, **kw)  # type: ignore[call-overload]


def test_frame_prints_a_line_the_tray_accepts() -> None:
    out = _run("tray", "frame", "light", "200", "255", "240", "220", "--seq", "7")
    assert out.returncode == 0
    assert p.Decoder().feed(out.stdout.encode()) == [p.Light(200, 255, 240, 220, seq=7)]
    bad = _run("tray", "frame", "LIGHT", "$")
    assert bad.returncode == 1 and "ASCII" in bad.stderr


def test_monitor_an_emulated_tray_as_json() -> None:
    out = _run("tray", "monitor", "emulated", "--json", "--duration", "1", "--light", "80", "--status", "slow")
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert events[0]["event"] == "connected" and events[0]["board"] == "sim"
    assert events[-1] == {"event": "disconnected", "reason": "stopped"}


def test_emulate_and_monitor_in_two_processes(tmp_path: Path) -> None:
    emu = subprocess.Popen([sys.executable, "-m", "companion", "tray", "emulate", "--dir", str(tmp_path),
                            "--settle-ms", "100", "--lang", "en"], cwd=ROOT, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert emu.stdout is not None and emu.stdin is not None
        port = emu.stdout.readline().strip()
        assert port == str(tmp_path / "tray")
        mon = subprocess.Popen([sys.executable, "-m", "companion", "tray", "monitor", port, "--duration", "4",
                                "--lang", "en"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        for cmd in ("shake", "click 2", "bogus"):
            emu.stdin.write(cmd + "\n")
            emu.stdin.flush()
            time.sleep(0.4)
        out, err = mon.communicate(timeout=20)
        emu.stdin.write("quit\n")
        emu.stdin.flush()
        assert emu.wait(timeout=10) == 0
        assert "unknown command: bogus" in emu.stderr.read()  # type: ignore[union-attr]
    finally:
        emu.kill()
    lines = out.splitlines()
    assert "tray connected on" in lines[0]
    assert any("dice moving" in line for line in lines)
    assert any("dice settled" in line for line in lines)
    assert any("button 2 released" in line for line in lines)


def test_register_imports_nothing_heavy() -> None:
    code = ("import sys, argparse; import firmware_bridge.cli as c; c.register(argparse.ArgumentParser()"
            ".add_subparsers()); bad = {'serial', 'gpiozero', 'cv2', 'flask', 'numpy'} & set(sys.modules); "
            "print(sorted(bad)); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stdout + out.stderr
