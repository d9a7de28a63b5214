"""Shared by the roll benchmarks: a table served by waitress in-process, and a minimal
Server-Sent Events client (what a tablet's EventSource does, without a browser)."""

from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class LiveServer:
    def __init__(self, app: Any, threads: int = 32) -> None:
        from web.server import create_server

        self.server = create_server(app, host="127.0.0.1", port=0, threads=threads)
        self.port = self.server.effective_port
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError:
            pass

    def close(self) -> None:
        self.server.task_dispatcher.shutdown(timeout=2)
        self.server.close()


class SSEClient:
    """Reads ``/events`` in a thread; calls ``on_event(name, data_text, t_received)``."""

    def __init__(self, port: int, on_event: Callable[[str, str, float], None]) -> None:
        self.port = port
        self.on_event = on_event
        self.errors: list[str] = []
        self.connected = threading.Event()
        self._stop = False
        self.conn: http.client.HTTPConnection | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
            resp = self.conn.getresponse()
            if resp.status != 200:
                self.errors.append(f"HTTP {resp.status}")
                return
            name, data = "message", []
            while not self._stop:
                line = resp.fp.readline()
                if not line:
                    if not self._stop:
                        self.errors.append("stream closed")
                    return
                line = line.decode("utf-8").rstrip("\n")
                if not line:
                    if data:
                        if name == "hello":
                            self.connected.set()
                        self.on_event(name, "\n".join(data), time.perf_counter())
                    name, data = "message", []
                elif line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            if not self._stop:
                self.errors.append(f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        self._stop = True
        try:
            if self.conn is not None and self.conn.sock is not None:
                import socket

                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


def loads(text: str) -> Any:
    return json.loads(text)
