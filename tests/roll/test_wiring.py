"""What `companion serve` starts: without a tray, the camera frames say when the dice settled."""

from __future__ import annotations

import time

import pytest

from companion.roll.demo import demo_events
from companion.roll.wiring import start_devices
from companion.service import TableService

pytest.importorskip("cv2")


def test_without_a_tray_stillness_in_the_frames_triggers_the_read(tmp_path) -> None:
    service = TableService(tmp_path / "table.sqlite")
    for ev in demo_events("shayo"):
        service.submit(ev)
    devs = start_devices(service, tmp_path, camera="demo", tray="none", gpio="none", demo=False)
    try:
        assert devs.link is None and devs._threads  # the stillness watcher runs
        time.sleep(0.6)
        assert devs.roll.rolls == 0  # a still tray is not a roll
        want = service.state_json()["state"]["expects"]["dice"][0]["count"]
        devs.camera.source.prepare([("d10", 1 + (3 * i) % 10) for i in range(want)], seed=41)
        deadline = time.monotonic() + 20
        while devs.roll.rolls == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert devs.roll.rolls == 1
        rec = devs.roll.records.recent(1)[-1]
        assert rec["game"] == "shayo" and rec["status"] in ("applied", "pending")
        time.sleep(1.0)
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
