"""Button and status LED on the Pi's own GPIO, with gpiozero's mock pins."""

from __future__ import annotations

from typing import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge import protocol as p
from firmware_bridge.errors import TrayError
from firmware_bridge.events import ButtonPressed, ButtonReleased, TrayConnected, TrayDisconnected
from firmware_bridge.gpio import LED_PATTERNS, GpioTray

from tests.firmware_bridge.conftest import Recorder


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def tray(factory: MockFactory, recorder: Recorder, clock: Clock) -> Iterator[GpioTray]:
    t = GpioTray(17, 27, pin_factory=factory, bounce_time=None, clock=clock)
    t.subscribe(recorder)
    t.start()
    yield t
    t.stop()


def test_press_and_release(tray: GpioTray, factory: MockFactory, recorder: Recorder, clock: Clock) -> None:
    pin = factory.pin(17)
    assert pin.state  # pulled up: released reads high
    clock.advance(0.5)
    pin.drive_low()
    clock.advance(0.03)
    pin.drive_high()
    recorder.wait_count(ButtonReleased, 1)
    kinds = [type(e) for e in recorder.events]
    assert kinds == [TrayConnected, ButtonPressed, ButtonReleased]
    assert recorder.of(ButtonPressed) == [ButtonPressed(1, 500)]
    assert recorder.of(ButtonReleased) == [ButtonReleased(1, 530, 30)]


def test_bounces_are_ignored(factory: MockFactory, recorder: Recorder, clock: Clock) -> None:
    t = GpioTray(17, None, pin_factory=factory, bounce_time=0.05, clock=clock)
    t.subscribe(recorder)
    with t:
        pin = factory.pin(17)
        pin.drive_low()
        for _ in range(5):  # contact chatter within the bounce time
            clock.advance(0.001)
            pin.drive_high()
            pin.drive_low()
        clock.advance(0.1)  # held well past the bounce time (a recheck sees it still down)
        pin.drive_high()
        recorder.wait_count(ButtonReleased, 1)
    assert recorder.of(ButtonPressed) == [ButtonPressed(1, 0)]
    assert recorder.of(ButtonReleased) == [ButtonReleased(1, 105, 105)]


def test_a_tap_shorter_than_the_bounce_time_is_not_stuck(factory: MockFactory, recorder: Recorder,
                                                         clock: Clock) -> None:
    t = GpioTray(17, None, pin_factory=factory, bounce_time=0.05, clock=clock)
    t.subscribe(recorder)
    with t:
        pin = factory.pin(17)
        pin.drive_low()
        pin.drive_high()  # released 0 ms later: ignored as chatter, then read again
        clock.advance(0.06)  # the bounce time is over: the recheck takes the release
        (released,) = recorder.wait_count(ButtonReleased, 1, timeout=5)
    assert released.held_ms == 60


@pytest.mark.parametrize("pattern,level", [("on", True), ("off", False)])
def test_steady_patterns(tray: GpioTray, factory: MockFactory, pattern: str, level: bool) -> None:
    assert tray.status is not None
    assert tray.set_status(pattern)
    assert tray.status.wait_for(lambda: factory.pin(27).state == level)


def test_blinking_patterns_blink(tray: GpioTray, factory: MockFactory) -> None:
    led = factory.pin(27)
    status = tray.status
    assert status is not None
    assert tray.set_status("fast")
    assert status.wait_for(lambda: status.pattern == "fast" and led.state)  # the first "on" of the pattern
    start = len(led.states)
    assert status.wait_for(lambda: len(led.states) - start >= 4)  # off, on, off, on...
    changes = [s.state for s in led.states[start - 1:]]
    assert all(a != b for a, b in zip(changes, changes[1:]))  # each one a change: it blinks


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
