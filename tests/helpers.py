"""Helpers for tests that run the real command line and server in a subprocess, and
waits on what the table publishes (never on a guessed delay)."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable, TypeVar

T = TypeVar("T")

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


def wait_published(service: Any, check: Callable[[], T], timeout: float = 20.0) -> T:
    """``check()``'s first truthy value, re-checked each time the table service publishes
    something (an event, a camera read, a device's status). Subscribed before the first
    check, so nothing published in between is missed; ``timeout`` only catches a hang."""
    sub = service.broker.subscribe()
    deadline = time.monotonic() + timeout
    try:
        while True:
            got = check()
            if got:
                return got
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"not seen within {timeout} s")
            try:
                sub.queue.get(timeout=left)
            except queue.Empty:
                pass
    finally:
        service.broker.unsubscribe(sub)


def _next_message(resp: Any) -> None:
    """Reads one whole message (up to its blank line) of a live stream."""
    while True:
        line = resp.fp.readline()
        if not line:
            raise AssertionError("the server closed its live stream")
        if not line.strip():
            return


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
        self._lines: list[str] = []
        self._ready = threading.Event()  # the PIN line: printed once the socket listens
        self._reader = threading.Thread(target=self._read_output, daemon=True)
        self._reader.start()
        if not self._ready.wait(30) or self.proc.poll() is not None:
            self.stop()
            raise AssertionError(f"server did not start in 30 s:\n{self.output}")

    def _read_output(self) -> None:
        """Collects the server's output (so a chatty server never fills the pipe)."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.append(line)
            if "table PIN" in line:
                self._ready.set()
        self._ready.set()  # exited: the constructor sees it

    def wait_until(self, check: Callable[[], T], timeout: float = 20.0) -> T:
        """``check()``'s first truthy value, re-checked after each message of the
        server's live stream (``/events``: events, camera reads, device status, pings)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        deadline = time.monotonic() + timeout
        try:
            conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
            resp = conn.getresponse()
            _next_message(resp)  # the hello: subscribed from here on
            while True:
                got = check()
                if got:
                    return got
                if time.monotonic() > deadline:
                    raise AssertionError(f"not seen within {timeout} s")
                _next_message(resp)
        finally:
            conn.close()

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
        self._reader.join(10)
        if self.proc.stdout:
            self.proc.stdout.close()
        self.output = "".join(self._lines)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def printed_pin(output: str) -> str | None:
    m = re.search(r"PIN : (\S+)", output)
    return m.group(1) if m else None


def shared_data(*folders: str) -> Path:
    """``shared/data`` (beside the repository, else ``$COMPANION_SHARED/data``) when it
    holds ``folders``. Their absence fails the test under ``CI=true`` and skips it
    elsewhere."""
    import pytest

    places = [ROOT.parent / "shared" / "data"]
    if os.environ.get("COMPANION_SHARED"):
        places.append(Path(os.environ["COMPANION_SHARED"]) / "data")
    for place in places:
        if all((place / f).is_dir() for f in folders):
            return place
    msg = f"shared data ({', '.join(folders)}) not found in {' or '.join(map(str, places))}"
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)
