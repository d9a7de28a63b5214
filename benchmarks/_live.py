"""Shared by the roll benchmarks: a table served by web.server in-process, and a minimal
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
    """``web.server`` (what ``companion serve`` runs) in a thread on a loopback port."""

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


class CameraTable:
    """A Wuxia table waiting for a pool of five d10, fed by a camera that cycles through
    rendered trays the reader reads cleanly, as ``companion serve --demo`` runs it: the
    real reader with the empty tray's calibration, the rules, the SQLite log.

    ``test_ev`` is the event that opens a new test (the table waits for five d10 again).
    Call :meth:`close` at the end.
    """

    def __init__(self, prefix: str, frames: int, photo_files: int | None = None,
                 face: Callable[[int, int], int] = lambda s, i: (s * 3 + i * 7) % 10 + 1) -> None:
        import os
        import tempfile

        os.environ.setdefault("OMP_NUM_THREADS", "1")
        from vision.calibration import calibrate
        from vision.enroll import default_enrollment
        from vision.synth import render_tray

        from vision.camera import Camera
        from companion.roll.demo import demo_events
        from vision.demo_camera import DEMO_PX_PER_MM, DEMO_SPEC
        from companion.app.roll_service import RollService
        from companion.service import TableService

        spec = DEMO_SPEC()
        cal = calibrate(render_tray(0, objects=[], spec=spec).background, px_per_mm=DEMO_PX_PER_MM)
        enr = default_enrollment()
        from companion.app.roll_service import default_reader

        read = default_reader(None, calibration=cal)  # the table's own reader
        images: list[Any] = []
        for s in range(1, 1 + 6 * frames):  # only trays read cleanly: these measure the server
            img = render_tray(s, objects=[("d10", face(s, i)) for i in range(5)], spec=spec).image
            if sum(o["status"] == "read" for o in read(img)["objects"]) == 5:
                images.append(img)
            if len(images) == frames:
                break
        self.frames = images

        class Cycle:
            i = 0

            def read(self) -> Any:
                self.i += 1
                return images[self.i % len(images)]

            def close(self) -> None:
                pass

        self.tmp = Path(tempfile.mkdtemp(prefix=prefix))
        self.table = TableService(self.tmp / "table.sqlite")
        setup = demo_events("wuxia")
        for ev in setup:
            self.table.submit(ev)
        self.test_ev = setup[-1]
        self.cam = Camera(prefix, opener=lambda spec_: Cycle()).start()
        extra = {"photo_files": photo_files} if photo_files is not None else {}
        self.roll = RollService(self.table, self.tmp / "camera", self.cam,
                                reader=read, **extra)
        self.roll.start()

    def close(self) -> None:
        self.roll.stop()
        self.cam.stop()
        self.table.close()
