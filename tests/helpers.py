"""Helpers for tests that run the real command line and server in a subprocess."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEST_GAMES = "dummy=tests.companion.dummy_game:GAME"


def env(**extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e["COMPANION_EXTRA_GAMES"] = TEST_GAMES
    e.update(extra)
    return e


def run_cli(*args: str, check: bool = True, **kw: Any) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env(),
                          capture_output=True, text=True, timeout=120, **kw)
    if check and proc.returncode != 0:
        raise AssertionError(f"companion {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``companion serve`` in a subprocess on a loopback port."""

    def __init__(self, *args: str, pin: str = "135790", port: int | None = None) -> None:
        self.port = port or free_port()
        self.pin = pin
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--pin", pin, *args],
            cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.output = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited: {self.proc.stdout.read() if self.proc.stdout else ''}")
            try:
                self.get("/healthz")
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise AssertionError("server did not start in 30 s")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=5) as r:
            return json.loads(r.read())

    def post(self, body: Any, pin: str | None = None) -> tuple[int, Any]:
        req = urllib.request.Request(self.base + "/api/events", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": pin or self.pin})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.proc.stdout:
            self.output = self.proc.stdout.read()
            self.proc.stdout.close()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def printed_pin(output: str) -> str | None:
    m = re.search(r"PIN : (\S+)", output)
    return m.group(1) if m else None
