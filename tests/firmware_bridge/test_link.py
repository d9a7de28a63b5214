"""The link against the emulated tray: the real host code over a real pseudo-terminal."""

from __future__ import annotations

import os
from typing import Any

import pytest

from firmware_bridge import open_tray, protocol as p
from firmware_bridge.emulator import TrayEmulator
from firmware_bridge.errors import PortError, ProtocolError, TrayError
from firmware_bridge.events import (
    ButtonPressed, ButtonReleased, DiceSettled, MotionStarted, TrayConnected, TrayDisconnected,
)
from firmware_bridge.link import LinkSettings, TrayLink
from firmware_bridge.soak import FAST_FIRMWARE, FAST_LINK

from tests.firmware_bridge.conftest import Recorder


def as_frame(event: Any) -> tuple[str, tuple[int, ...]]:
    """The firmware's record of the frame an event came from (see ``TrayEmulator.deliveries``)."""
    if isinstance(event, MotionStarted):
        return "MOTION", (event.tray_ms,)
    if isinstance(event, DiceSettled):
        return "SETTLED", (event.tray_ms, event.moving_ms)
    if isinstance(event, ButtonPressed):
        return "PRESS", (event.button, event.tray_ms)
    return "RELEASE", (event.button, event.tray_ms, event.held_ms)


def test_handshake_reports_the_tray(link: TrayLink, recorder: Recorder, emulator: TrayEmulator) -> None:
    (info,) = recorder.wait_count(TrayConnected, 1)
    assert info == TrayConnected(emulator.port, "0.1.0", "sim", 1)
    assert link.connected and link.info == info
    assert emulator.host_present


def test_a_roll_and_a_click_arrive_in_order(link: TrayLink, recorder: Recorder, emulator: TrayEmulator) -> None:
    emulator.shake(0.1)
    recorder.wait_count(DiceSettled, 1)
    emulator.click(2, hold=0.05)
    recorder.wait_count(ButtonReleased, 1)
    kinds = [type(e) for e in recorder.events]
    assert kinds == [TrayConnected, MotionStarted, DiceSettled, ButtonPressed, ButtonReleased]
    settled = recorder.of(DiceSettled)[0]
    assert settled.tray_ms - recorder.of(MotionStarted)[0].tray_ms >= FAST_FIRMWARE["settle_ms"]
    assert recorder.of(ButtonPressed)[0].button == 2
    # the link delivers exactly what the firmware sent, field for field (times, durations)
    assert emulator.wait_for(lambda: len(emulator.deliveries) >= 4)
    assert [(name, args) for name, args, acked in emulator.deliveries if acked] == [
        as_frame(e) for e in recorder.events[1:]]


def test_commands_are_acknowledged_and_applied(link: TrayLink, emulator: TrayEmulator) -> None:
    assert link.set_light(90, 255, 200, 150, wait=5)
    assert emulator.light == (90, 255, 200, 150)
    assert link.set_status("double", wait=5)
    assert emulator.pattern == "double"
    assert link.send(p.Setting("settle_ms", 150), wait=5)
    assert emulator.tray is not None and emulator.tray.settle_ms == 150
    assert link.stats.commands_acked == 3


def test_a_refused_command_says_so(link: TrayLink, emulator: TrayEmulator) -> None:
    assert not link.send(p.Setting("settle_ms", 5), wait=5)  # below the firmware's range: NAK
    assert link.stats.commands_refused == 1
    assert emulator.tray is not None and emulator.tray.settle_ms == FAST_FIRMWARE["settle_ms"]


@pytest.mark.parametrize("bad,error", [
    ("LIGHT 1 2 3 4", TrayError), (p.Motion(5), TrayError), (p.Light(300), ProtocolError),
    (p.Status("disco"), ProtocolError), (p.Setting("colour", 1), TrayError),
])
def test_bad_commands_are_refused_at_once(link: TrayLink, emulator: TrayEmulator, bad: Any, error: type) -> None:
    before = emulator.light
    with pytest.raises(error):
        link.send(bad)
    assert emulator.light == before and link.session.queued() == []


def test_unplug_and_replug(link: TrayLink, recorder: Recorder, emulator: TrayEmulator) -> None:
    assert link.set_light(42, 1, 2, 3, wait=5)
    old = emulator.device
    emulator.unplug()
    (gone,) = recorder.wait_count(TrayDisconnected, 1)
    assert gone.reason == "unplugged" and not link.connected
    assert not os.path.exists(emulator.port)
    boots = emulator.boots
    emulator.plug()
    recorder.wait_count(TrayConnected, 2)
    # a new pseudo-terminal behind the same stable path, a freshly booted firmware, found again
    assert old is not None and emulator.device is not None and os.readlink(emulator.port) == emulator.device
    assert emulator.boots == boots + 1
    assert link.connected and link.info is not None and link.info.port == emulator.port
    assert (link.stats.connects, link.stats.disconnects) == (2, 1)
    # the firmware rebooted with its default light; the link restored ours
    assert emulator.wait_for(lambda: emulator.light == (42, 1, 2, 3) and emulator.host_present)
    emulator.click(1)
    recorder.wait_count(ButtonReleased, 1)  # the same subscriber still hears the tray


def test_commands_sent_while_unplugged_are_applied_on_return(link: TrayLink, recorder: Recorder,
                                                             emulator: TrayEmulator) -> None:
    emulator.unplug()
    recorder.wait_count(TrayDisconnected, 1)
    assert not link.set_status("fast", wait=0.2)
    emulator.plug()
    recorder.wait_count(TrayConnected, 2)
    assert emulator.wait_for(lambda: emulator.pattern == "fast")


def test_a_silent_tray_is_dropped_and_picked_up_again(link: TrayLink, recorder: Recorder,
                                                      emulator: TrayEmulator) -> None:
    emulator.go_silent()
    (gone,) = recorder.wait_count(TrayDisconnected, 1)
    assert gone.reason == "silent"
    emulator.resume()
    recorder.wait_count(TrayConnected, 2)
    emulator.shake()
    recorder.wait_count(MotionStarted, 1)


def test_a_tray_reboot_is_noticed_and_its_state_restored(link: TrayLink, recorder: Recorder,
                                                         emulator: TrayEmulator) -> None:
    assert link.set_light(7, 7, 7, 7, wait=5)
    boots = emulator.boots
    emulator.reset()
    assert emulator.boots == boots + 1
    assert emulator.wait_for(lambda: emulator.light == (7, 7, 7, 7) and emulator.host_present)
    emulator.click(1)
    recorder.wait_count(ButtonReleased, 1)
    assert recorder.of(TrayDisconnected) == []  # a reboot is not an unplug


def test_a_lost_boot_hello_is_caught_by_the_heartbeat(link: TrayLink, recorder: Recorder,
                                                      emulator: TrayEmulator) -> None:
    assert link.set_light(5, 6, 7, 8, wait=5)
    emulator.go_silent()  # hang long enough for nothing, then reboot with the boot HELLO lost
    emulator.board.noise = 1.0
    emulator.reset()
    emulator.board.noise = 0.0
    emulator.resume()
    assert emulator.wait_for(lambda: emulator.host_present and emulator.light == (5, 6, 7, 8))
    emulator.click(1)
    recorder.wait_count(ButtonReleased, 1)
    assert recorder.of(TrayDisconnected) == []


def test_line_noise_loses_and_duplicates_nothing(link: TrayLink, recorder: Recorder, emulator: TrayEmulator) -> None:
    emulator.line_noise = 0.3
    for i in range(8):
        emulator.click(1 + i % 2, hold=0.03)
        emulator.inject(b"$12 SETT\x00\xff$$\n")
        recorder.wait_for(lambda evs: sum(isinstance(e, ButtonReleased) for e in evs) > i, 3)
    recorder.wait_count(ButtonReleased, 8, timeout=10)
    for level in (10, 20, 30):  # commands get through the noise too, resent until acknowledged
        assert link.set_light(level, wait=10)
        assert emulator.light[0] == level
    emulator.line_noise = 0.0
    presses = recorder.of(ButtonPressed)
    assert [e.button for e in presses] == [1, 2] * 4
    assert len({e.tray_ms for e in presses}) == 8
    assert link.stats.bad_frames + link.stats.duplicates + emulator.tray.reader.bad > 0  # noise really hit


def test_a_failing_subscriber_does_not_silence_the_others(link: TrayLink, recorder: Recorder,
                                                          emulator: TrayEmulator) -> None:
    def broken(event: Any) -> None:
        raise RuntimeError("boom")

    link.subscribe(broken)
    other = Recorder()
    unsubscribe = link.subscribe(other)
    emulator.click(1)
    other.wait_count(ButtonReleased, 1)
    unsubscribe()
    emulator.click(1)
    recorder.wait_count(ButtonReleased, 2)
    assert len(other.of(ButtonReleased)) == 1


def test_stop_says_stopped(emulator: TrayEmulator, recorder: Recorder) -> None:
    link = TrayLink(emulator.port, FAST_LINK)
    link.subscribe(recorder)
    link.start()
    assert link.wait_connected(5)
    link.stop()
    assert recorder.of(TrayDisconnected) == [TrayDisconnected("stopped")]
    assert not link.connected


def test_stop_says_stopped_even_when_the_io_thread_is_slow_to_finish(emulator: TrayEmulator,
                                                                     recorder: Recorder) -> None:
    """On a loaded machine the I/O thread may take seconds to post its last event; the
    dispatcher ends only after it (it once ended first, and "stopped" was never said)."""
    import threading
    import time

    link = TrayLink(emulator.port, FAST_LINK)
    link.subscribe(recorder)
    link.start()
    assert link.wait_connected(5)
    inside, release = threading.Event(), threading.Event()
    real_close = link.session.close

    def slow_close(reason: str) -> Any:
        if reason == "stopped":
            inside.set()
            release.wait(60)
        return real_close(reason)

    link.session.close = slow_close  # type: ignore[method-assign]
    stopper = threading.Thread(target=link.stop)
    stopper.start()
    assert inside.wait(30)
    time.sleep(6)  # longer than the 5 s stop() used to wait before ending the dispatcher
    release.set()
    stopper.join(60)
    assert not stopper.is_alive()
    assert recorder.of(TrayDisconnected) == [TrayDisconnected("stopped")]


def test_the_port_may_appear_later(tmp_path: Any, recorder: Recorder) -> None:
    path = tmp_path / "tray"
    link = TrayLink(str(path), FAST_LINK)
    link.subscribe(recorder)
    link.start()
    try:
        assert not link.wait_connected(0.3)
        with TrayEmulator(tmp_path, "tray", **FAST_FIRMWARE) as emu:
            recorder.wait_count(TrayConnected, 1)
            assert emu.host_present
    finally:
        link.stop()


def test_auto_finds_the_tray_by_usb_id(emulator: TrayEmulator, recorder: Recorder,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    def comports() -> list[ListPortInfo]:
        other = ListPortInfo("/dev/ttyUSB9")
        other.vid, other.pid = 0x0403, 0x6001  # an FTDI adapter: not ours
        pico = ListPortInfo(str(emulator.port))
        pico.vid, pico.pid = 0x2E8A, 0x0005
        return [other, pico]

    monkeypatch.setattr(list_ports, "comports", comports)
    link = TrayLink("auto", FAST_LINK)
    link.subscribe(recorder)
    with link:
        (info,) = recorder.wait_count(TrayConnected, 1)
    assert info.port == emulator.port


def test_incompatible_firmware_is_reported_not_connected(emulator: TrayEmulator,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_bridge.firmware import tray as fw

    monkeypatch.setattr(fw, "PROTO_MIN", 2)
    monkeypatch.setattr(fw, "PROTO_MAX", 3)
    emulator.reset()
    with TrayLink(emulator.port, FAST_LINK) as link:
        assert link.wait_for(lambda: "update" in link.stats.last_error, 5)
        assert not link.connected
    assert "protocol 2-3" in link.stats.last_error


def test_emulated_by_argument_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_TRAY", "emulated")
    link = TrayLink(settings=FAST_LINK, emulator_options=FAST_FIRMWARE)
    assert link.spec.kind == "emulated"
    with link:
        assert link.wait_connected(5)
        assert link.emulator is not None and link.emulator.host_present
        emu = link.emulator
    assert link.emulator is None and not emu.plugged


def test_open_tray_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero.pins.mock import MockFactory

    from firmware_bridge.gpio import GpioTray

    monkeypatch.setenv("COMPANION_TRAY", "none")
    assert open_tray() is None
    assert isinstance(open_tray("/dev/ttyACM0"), TrayLink)
    tray = open_tray("gpio:5:6", pin_factory=MockFactory())
    assert isinstance(tray, GpioTray) and (tray.button_pin, tray.led_pin) == (5, 6)
    with pytest.raises(PortError):
        TrayLink("gpio")
    with pytest.raises(PortError):
        open_tray("usb:zz:1")


def test_settings_are_checked() -> None:
    with pytest.raises(TrayError):
        LinkSettings(silence_timeout=0)
    with pytest.raises(TrayError):
        LinkSettings(max_retries=0)
    assert LinkSettings().silence_timeout <= 3.0  # an unplug is noticed within 3 s


def test_an_emulated_click_lasts_until_the_firmware_took_it(link: TrayLink, recorder: Recorder,
                                                           emulator: TrayEmulator) -> None:
    """A release due before the debounce is over (a busy machine stalls the firmware thread
    the same way) waits for the press to be taken: the click is never lost."""
    emulator.click(2, hold=0.0)
    (released,) = recorder.wait_count(ButtonReleased, 1)
    assert recorder.of(ButtonPressed) == [ButtonPressed(2, released.tray_ms - released.held_ms)]
    assert released.held_ms >= FAST_FIRMWARE["debounce_ms"]
