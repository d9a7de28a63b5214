"""What `companion serve` starts: without a tray, the camera frames say when the dice settled."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from companion.roll.demo import demo_events
from companion.app.wiring import start_devices
from companion.service import TableService

pytest.importorskip("cv2")


def test_without_a_tray_stillness_in_the_frames_triggers_the_read(tmp_path) -> None:
    service = TableService(tmp_path / "table.sqlite")
    for ev in demo_events("shayo"):
        service.submit(ev)
    devs = start_devices(service, tmp_path, camera="demo", tray="none", gpio="none", demo=False)
    changed = threading.Condition()
    frames = [0]  # frames the stillness watcher has asked for
    capture = devs.camera.capture

    def counted_capture(*args: Any, **kw: Any) -> Any:
        with changed:  # frame n is asked for once frame n-1 has been judged (and any read queued)
            frames[0] += 1
            changed.notify_all()
        return capture(*args, **kw)

    def on_read(rec: dict[str, Any]) -> None:
        with changed:
            changed.notify_all()

    def wait_frames(n: int) -> None:
        with changed:
            start = frames[0]
            assert changed.wait_for(lambda: frames[0] >= start + n, 60), "the stillness watcher stopped"

    devs.camera.capture = counted_capture  # type: ignore[method-assign]
    devs.roll.listeners.append(on_read)
    try:
        assert devs.link is None and devs._threads  # the stillness watcher runs
        # a still tray is not a roll: more still frames than the settle time (0.6 s at 4 frames/s)
        wait_frames(4)
        assert devs.roll.rolls == 0
        want = service.state_json()["state"]["expects"]["dice"][0]["count"]
        devs.camera.source.prepare([("d10", 1 + (3 * i) % 10) for i in range(want)], seed=41)
        with changed:
            assert changed.wait_for(lambda: devs.roll.rolls >= 1, 60)
        assert devs.roll.rolls == 1
        rec = devs.roll.records.recent(1)[-1]
        assert rec["game"] == "shayo" and rec["status"] in ("applied", "pending")
        wait_frames(6)  # more than a settle time of still frames after the read
        assert devs.roll.rolls == 1  # and only once
    finally:
        devs.stop()
        service.close()


def test_device_specs_that_cannot_open_are_reported_not_raised(tmp_path) -> None:
    service = TableService(tmp_path / "table.sqlite")
    devs = start_devices(service, tmp_path, camera="folder:" + str(tmp_path / "none"), tray="gpio:99",
                         gpio="none")
    try:
        assert service.devices["camera"]["connected"] is False
        assert service.devices["tray"]["connected"] is False and "GPIO" in service.devices["tray"]["message"]
        assert devs.roll.roll()["status"] == "error"  # no frame: nothing appended, manual entry goes on
    finally:
        devs.stop()
        service.close()
