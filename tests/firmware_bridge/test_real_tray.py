"""The same checks against real hardware, opted in by environment variables.

    COMPANION_REAL_TRAY=/dev/ttyACM0 python -m pytest tests/firmware_bridge -m hardware
    COMPANION_REAL_GPIO=17:27 ...   (on a Pi, a button on GPIO17 and an LED on GPIO27)
"""

from __future__ import annotations

import os

import pytest

from firmware_bridge.events import TrayConnected, TrayDisconnected
from firmware_bridge.link import TrayLink

from tests.firmware_bridge.conftest import Recorder

REAL_TRAY = os.environ.get("COMPANION_REAL_TRAY")
REAL_GPIO = os.environ.get("COMPANION_REAL_GPIO")

pytestmark = pytest.mark.hardware


@pytest.mark.skipif(not REAL_TRAY, reason="set COMPANION_REAL_TRAY=/dev/ttyACM0 (or auto) to test a real tray")
def test_real_tray_handshake_commands_heartbeat() -> None:
    rec = Recorder()
    link = TrayLink(REAL_TRAY)
    link.subscribe(rec)
    with link:
        assert link.wait_connected(10), link.stats.last_error
        info = link.info
        assert info is not None and info.protocol >= 1 and info.firmware
        assert link.set_light(60, 255, 255, 255, wait=3)
        assert link.set_status("slow", wait=3)
        # for longer than the silence timeout, the heartbeats keep it up
        assert not rec.wait_for(lambda evs: any(isinstance(e, TrayDisconnected) for e in evs), 3.5)
        assert link.connected
        assert link.set_status("on", wait=3)
    assert rec.of(TrayConnected)


@pytest.mark.skipif(not REAL_GPIO, reason="set COMPANION_REAL_GPIO=BUTTON:LED (BCM numbers) on a Pi")
def test_real_gpio_led() -> None:
    from firmware_bridge.gpio import GpioTray

    button, led = (int(x) for x in (REAL_GPIO or "17:27").split(":"))
    with GpioTray(button, led) as tray:
        assert tray.connected
        status = tray.status
        assert status is not None
        for pattern in ("on", "fast", "double", "off"):
            before = status.writes
            assert tray.set_status(pattern)
            assert status.wait_for(lambda: status.pattern == pattern and status.writes > before)
