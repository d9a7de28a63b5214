"""Tray and camera unplugged mid-game: every tablet is told, manual entry keeps working,
the device comes back by itself, nothing recorded is lost."""

from __future__ import annotations

import json
import time

import pytest

from companion.roll.demo import demo_events
from companion.app.wiring import start_devices
from companion.service import TableService

pytest.importorskip("cv2")


def wait(pred, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    return False


def test_tray_and_camera_unplugged_and_back(tmp_path) -> None:
    service = TableService(tmp_path / "table.sqlite")
    for ev in demo_events("wuxia"):
        service.submit(ev)
    sub = service.broker.subscribe()
    devs = start_devices(service, tmp_path, camera="demo", tray="emulated", gpio="none", demo=True)
    try:
        assert wait(lambda: service.devices.get("tray", {}).get("connected") is True)
        emu = devs.emulator
        emu.unplug()
        assert wait(lambda: service.devices["tray"]["connected"] is False)
        banners = [json.loads(d) for n, d in list(sub.queue.queue) if n == "devices"]
        assert any(b["devices"].get("tray", {}).get("connected") is False for b in banners)  # pushed to every tablet
        # manual entry keeps working while the tray is away
        seq = service.submit({"type": "wuxia.roll", "data": {"dice": [7, 7, 2, 9, 10]}}).event.seq
        emu.plug()
        assert wait(lambda: service.devices["tray"]["connected"] is True)
        # the camera: unplugged (its source fails), reported, then re-opened by itself
        cam = devs.camera
        src = cam.source
        src.read = lambda: (_ for _ in ()).throw(OSError("unplugged"))  # the next capture fails
        service.submit(demo_events("wuxia")[-1])
        rec = devs.roll.roll()
        assert rec["status"] == "error"
        assert wait(lambda: service.devices["camera"]["connected"] is True, 5)  # re-opened
        devs.shake()
        assert wait(lambda: devs.roll.records.recent(1)[-1]["id"] > rec["id"], 20)
        assert [e.seq for e in service.log.events()][-1] > seq
        assert any(e.seq == seq for e in service.log.events())  # nothing recorded lost
    finally:
        devs.stop()
        service.close()


def test_status_led_follows_the_reads(tmp_path) -> None:
    service = TableService(tmp_path / "table.sqlite")
    for ev in demo_events("wuxia"):
        service.submit(ev)
    devs = start_devices(service, tmp_path, camera="demo", tray="emulated", gpio="none", demo=True)
    try:
        assert wait(lambda: devs.link.connected)
        devs.camera.source.prepare([("d10", 4)], seed=3)  # one die for a pool of five: pending
        devs.camera.source.wait_ready(20)
        assert devs.roll.roll()["status"] == "pending"
        assert wait(lambda: devs.emulator.pattern == "fast")
        service.submit(demo_events("wuxia")[-1])
        devs.camera.stop()  # the camera is gone: the read fails
        assert devs.roll.roll()["status"] == "error"
        assert wait(lambda: devs.emulator.pattern == "double")
    finally:
        devs.stop()
        service.close()
