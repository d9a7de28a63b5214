"""The emulator seen from the host's side of the pseudo-terminal, with plain pyserial."""

from __future__ import annotations

import os
import threading
import time
from typing import Callable

import pytest
import serial

from firmware_bridge import protocol as p
from firmware_bridge.emulator import TrayEmulator


def _read_for(ser: serial.Serial, dec: p.Decoder, seconds: float) -> list:
    """Everything that arrives in ``seconds`` (only to show that nothing does)."""
    out: list = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out += dec.feed(ser.read(256))
    return out


def _read_until(ser: serial.Serial, dec: p.Decoder, pred: Callable[[list], bool], timeout: float = 10) -> list:
    """Read until what arrived satisfies ``pred`` (fails after ``timeout`` s)."""
    out: list = []
    end = time.monotonic() + timeout
    while not pred(out):
        assert time.monotonic() < end, f"waited {timeout} s, got {out}"
        out += dec.feed(ser.read(256))
    return out


def test_port_is_a_symlink_to_a_pty_and_speaks_the_protocol(emulator: TrayEmulator) -> None:
    assert os.path.islink(emulator.port) and os.readlink(emulator.port) == emulator.device
    with serial.Serial(emulator.port, timeout=0.05) as ser:
        dec = p.Decoder()
        ser.write(p.encode(p.Hello(1, 1, "t", "term", 500, seq=3)))
        _read_until(ser, dec, lambda got: any(isinstance(m, p.Hello) and m.seq > 0 for m in got)
                    and sum(isinstance(m, p.Heartbeat) for m in got) >= 2)
        emulator.shake()
        _read_until(ser, dec, lambda got: any(isinstance(m, p.Motion) for m in got))
        assert dec.stats.bad_frames == 0


def test_unplug_looks_like_a_pulled_cable(emulator: TrayEmulator) -> None:
    ser = serial.Serial(emulator.port, timeout=0.2)
    emulator.unplug()
    assert not emulator.plugged and not os.path.exists(emulator.port)
    with pytest.raises(serial.SerialException):
        for _ in range(10):
            ser.read(100)
    ser.close()
    emulator.plug()
    assert os.path.exists(emulator.port) and emulator.tray is not None
    with serial.Serial(emulator.port, timeout=0.05) as ser2:
        _read_until(ser2, p.Decoder(), lambda got: any(isinstance(m, p.Heartbeat) for m in got))


def test_silent_means_no_bytes_at_all(emulator: TrayEmulator) -> None:
    written: list[bytes] = []
    some = threading.Event()

    def on_write(data: bytes) -> None:
        written.append(data)
        some.set()

    with serial.Serial(emulator.port, timeout=0.05) as ser:
        emulator.set_on_write(on_write)
        assert some.wait(5)  # the firmware has written a frame since we started watching
        emulator.go_silent()  # returns once the firmware thread has taken it
        last = p.Decoder().feed(written[-1])[-1]
        dec = p.Decoder()
        end = time.monotonic() + 5
        got: list = []
        while last not in got and time.monotonic() < end:  # everything it wrote has arrived
            got += dec.feed(ser.read(256))
        assert last in got
        count = len(written)
        assert _read_for(ser, dec, 0.3) == []  # then nothing at all
        assert len(written) == count
        emulator.resume()
        _read_until(ser, p.Decoder(), lambda got: got != [])


def test_nobody_listening_does_not_block_the_firmware(emulator: TrayEmulator) -> None:
    for _ in range(300):  # far more than a pty buffers
        emulator.inject(b"x" * 100)
    emulator.shake()
    assert emulator.wait_for(lambda: emulator.tray is not None and emulator.tray.moving, 5)


def test_stop_removes_everything(tmp_path: object) -> None:
    emu = TrayEmulator(tmp_path).start()  # type: ignore[arg-type]
    port = emu.port
    assert os.path.exists(port)
    emu.stop()
    assert not os.path.lexists(port)
