"""Button and status LED on the Pi's own GPIO, with gpiozero's mock pins."""

from __future__ import annotations

import time
from typing import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge import protocol as p
from firmware_bridge.errors import TrayError
from firmware_bridge.events import ButtonPressed, ButtonReleased, TrayConnected, TrayDisconnected
from firmware_bridge.gpio import LED_PATTERNS, GpioTray

from .conftest import Recorder, wait_until


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def tray(factory: MockFactory, recorder: Recorder) -> Iterator[GpioTray]:
    t = GpioTray(17, 27, pin_factory=factory, bounce_time=None)
    t.subscribe(recorder)
    t.start()
    yield t
    t.stop()


def test_press_and_release(tray: GpioTray, factory: MockFactory, recorder: Recorder) -> None:
    pin = factory.pin(17)
    assert pin.state  # pulled up: released reads high
    pin.drive_low()
    time.sleep(0.03)
    pin.drive_high()
    recorder.wait_count(ButtonReleased, 1)
    kinds = [type(e) for e in recorder.events]
    assert kinds == [TrayConnected, ButtonPressed, ButtonReleased]
    assert recorder.of(ButtonPressed)[0].button == 1
    assert recorder.of(ButtonReleased)[0].held_ms >= 20


def test_bounces_are_ignored(factory: MockFactory, recorder: Recorder) -> None:
    t = GpioTray(17, None, pin_factory=factory, bounce_time=0.05)
    t.subscribe(recorder)
    with t:
        pin = factory.pin(17)
        pin.drive_low()
        for _ in range(5):  # contact chatter within the bounce time
            pin.drive_high()
            pin.drive_low()
        time.sleep(0.1)
        pin.drive_high()
        time.sleep(0.1)
    assert len(recorder.of(ButtonPressed)) == 1
    assert len(recorder.of(ButtonReleased)) == 1


def test_a_tap_shorter_than_the_bounce_time_is_not_stuck(factory: MockFactory, recorder: Recorder) -> None:
    t = GpioTray(17, None, pin_factory=factory, bounce_time=0.05)
    t.subscribe(recorder)
    with t:
        pin = factory.pin(17)
        pin.drive_low()
        pin.drive_high()  # released 0 ms later: ignored as chatter, then read again
        recorder.wait_count(ButtonReleased, 1, timeout=2)


@pytest.mark.parametrize("pattern,level", [("on", True), ("off", False)])
def test_steady_patterns(tray: GpioTray, factory: MockFactory, pattern: str, level: bool) -> None:
    assert tray.set_status(pattern)
    assert wait_until(lambda: factory.pin(27).state == level, 2)


def test_blinking_patterns_blink(tray: GpioTray, factory: MockFactory) -> None:
    led = factory.pin(27)
    tray.set_status("fast")
    time.sleep(0.02)
    start = len(led.states)
    time.sleep(0.6)  # 4 Hz: about 5 changes
    assert len(led.states) - start >= 3


def test_no_ring_here(tray: GpioTray) -> None:
    assert tray.set_light(100) is False
    assert tray.send(p.Setting("settle_ms", 100)) is False
    with pytest.raises(TrayError):
        tray.send("on")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tray.set_status("disco")


def test_stop_releases_the_pins(factory: MockFactory, recorder: Recorder) -> None:
    t = GpioTray(17, 27, pin_factory=factory)
    t.subscribe(recorder)
    t.start()
    assert t.connected
    t.stop()
    assert not t.connected and recorder.of(TrayDisconnected) == [TrayDisconnected("stopped")]
    again = GpioTray(17, 27, pin_factory=factory).start()  # would raise if still claimed
    again.stop()


def test_patterns_match_the_firmware() -> None:
    from firmware_bridge.firmware.tray import PATTERNS as FW

    for name, steps in LED_PATTERNS.items():
        assert [(bool(on), ms) for on, ms in FW[name]] == [(on, round(s * 1000)) for on, s in steps]
    assert set(LED_PATTERNS) == set(p.PATTERNS)


def test_pins_already_taken_give_a_clear_error(factory: MockFactory) -> None:
    first = GpioTray(17, 27, pin_factory=factory).start()
    try:
        with pytest.raises(TrayError, match="GPIO17"):
            GpioTray(17, 22, pin_factory=factory).start()
        with pytest.raises(TrayError, match="GPIO27"):
            GpioTray(5, 27, pin_factory=factory).start()
        GpioTray(5, 6, pin_factory=factory).start().stop()  # GPIO5 was given back after the failure
    finally:
        first.stop()
