"""The FakeTray, and one contract that it and the real link (against the emulator) both keep."""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterator

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.emulator import TrayEmulator
from firmware_bridge.errors import ProtocolError, TrayError
from firmware_bridge.events import (ButtonPressed, ButtonReleased, DiceSettled, MotionStarted, TrayConnected,
                                    TrayDisconnected)
from firmware_bridge.fake import FakeTray
from firmware_bridge.link import TrayLink
from firmware_bridge.soak import FAST_FIRMWARE, FAST_LINK

from tests.firmware_bridge.conftest import Recorder


class Driver:
    """What a test does to a tray and reads back, for the fake and for the emulator."""

    def __init__(self, source: Any, roll: Callable[[], None], click: Callable[[int], None],
                 unplug: Callable[[], None], plug: Callable[[], None], pattern: Callable[[], str | None],
                 settle_ms: Callable[[], int | None], wait: Callable[[Callable[[], bool]], bool]) -> None:
        self.source, self.roll, self.click, self.unplug, self.plug = source, roll, click, unplug, plug
        self.pattern, self.settle_ms = pattern, settle_ms
        #: wait until what the tray shows satisfies a predicate
        self.wait = wait


@pytest.fixture(params=["fake", "emulated"])
def driver(request: pytest.FixtureRequest, tmp_path: Any, recorder: Recorder) -> Iterator[Driver]:
    if request.param == "fake":
        fake = FakeTray(port="fake0")
        fake.subscribe(recorder)
        yield Driver(fake, fake.roll, fake.click, fake.unplug, fake.plug, lambda: fake.pattern,
                     lambda: fake.settings.get("settle_ms"), lambda pred: pred())  # the fake is synchronous
        fake.stop()
        return
    emu = TrayEmulator(tmp_path, "tray", **FAST_FIRMWARE).start()
    link = TrayLink(emu.port, FAST_LINK)
    link.subscribe(recorder)

    def settle() -> int | None:
        return emu.tray.settle_ms if emu.tray is not None else None

    try:
        yield Driver(link, lambda: emu.shake(0.05), lambda b: emu.click(b, hold=0.03), emu.unplug, emu.plug,
                     lambda: emu.pattern, settle, emu.wait_for)
    finally:
        link.stop()
        emu.stop()


def test_contract_events_in_order(driver: Driver, recorder: Recorder) -> None:
    driver.source.start()
    recorder.wait_count(TrayConnected, 1)
    assert driver.source.connected
    driver.roll()
    recorder.wait_count(DiceSettled, 1)
    driver.click(2)
    recorder.wait_count(ButtonReleased, 1)
    assert [type(e) for e in recorder.events] == [TrayConnected, MotionStarted, DiceSettled, ButtonPressed,
                                                  ButtonReleased]
    assert recorder.of(ButtonPressed)[0].button == 2
    settled, motion = recorder.of(DiceSettled)[0], recorder.of(MotionStarted)[0]
    assert settled.tray_ms > motion.tray_ms


def test_contract_commands(driver: Driver, recorder: Recorder) -> None:
    driver.source.start()
    recorder.wait_count(TrayConnected, 1)
    assert driver.source.set_status("double", wait=5)
    assert driver.pattern() == "double"
    assert driver.source.send(p.Setting("settle_ms", 150), wait=5)
    assert driver.settle_ms() == 150
    with pytest.raises(ProtocolError):
        driver.source.set_light(256)
    with pytest.raises(TrayError):
        driver.source.send(p.Setting("colour", 1))


def test_contract_unplug_and_replug_restores_the_state(driver: Driver, recorder: Recorder) -> None:
    driver.source.start()
    recorder.wait_count(TrayConnected, 1)
    assert driver.source.set_status("slow", wait=5)
    driver.unplug()
    (gone,) = recorder.wait_count(TrayDisconnected, 1)
    assert gone.reason == "unplugged" and not driver.source.connected
    assert not driver.source.set_status("fast", wait=0.2)  # nobody there to acknowledge
    driver.plug()
    recorder.wait_count(TrayConnected, 2)
    assert driver.wait(lambda: driver.pattern() == "fast")  # the latest STATUS, restored
    driver.source.stop()
    assert recorder.of(TrayDisconnected)[-1] == TrayDisconnected("stopped")


# -- the fake itself -----------------------------------------------------------------------------
def test_the_fake_records_everything_it_was_sent() -> None:
    tray = FakeTray().start()
    tray.refuse("SET settle_ms")
    assert tray.set_light(10, 1, 2, 3, wait=1)
    assert not tray.send(p.Setting("settle_ms", 90), wait=1)
    assert tray.send(p.Setting("debounce_ms", 9), wait=1)
    assert tray.sent == [p.Light(10, 1, 2, 3), p.Setting("settle_ms", 90), p.Setting("debounce_ms", 9)]
    assert tray.light == (10, 1, 2, 3) and tray.settings == {"debounce_ms": 9}
    with pytest.raises(TrayError):
        tray.refuse("BLINK")


def test_the_fake_clock_gives_real_durations() -> None:
    tray = FakeTray()
    heard: list[Any] = []
    tray.subscribe(heard.append)
    tray.start()
    tray.press(1)
    tray.advance(250)
    tray.release(1)
    tray.roll(moving_ms=120, settle_ms=60)
    assert heard[1:] == [ButtonPressed(1, 1000), ButtonReleased(1, 1250, 250), MotionStarted(1250),
                         DiceSettled(1430, 120)]


def test_an_unplugged_or_stopped_fake_says_nothing() -> None:
    tray = FakeTray()
    heard: list[Any] = []
    tray.subscribe(heard.append)
    tray.click()  # not started
    tray.start()
    tray.unplug("silent")
    tray.click()
    tray.unplug()  # already gone: no second "disconnected"
    tray.plug()
    tray.stop()
    tray.stop()
    assert [e.kind for e in heard] == ["connected", "disconnected", "connected", "disconnected"]
    assert heard[1] == TrayDisconnected("silent")


def test_wait_sent_wakes_on_a_command_from_another_thread() -> None:
    tray = FakeTray().start()
    go = threading.Event()

    def worker() -> None:
        go.wait(5)
        tray.set_status("fast")

    th = threading.Thread(target=worker)
    th.start()
    assert not tray.wait_sent(lambda sent: p.Status("fast") in sent, timeout=0)
    go.set()
    assert tray.wait_sent(lambda sent: p.Status("fast") in sent, timeout=5)
    th.join(5)
