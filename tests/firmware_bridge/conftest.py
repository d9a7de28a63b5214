"""Fixtures: an emulated tray on a pseudo-terminal and a link with short timings."""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterator

import pytest

from firmware_bridge.emulator import TrayEmulator
from firmware_bridge.link import TrayLink
from firmware_bridge.soak import FAST_FIRMWARE, FAST_LINK


class Recorder:
    """A subscriber that keeps every event and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.cond = threading.Condition()

    def __call__(self, event: Any) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def of(self, cls: type) -> list[Any]:
        with self.cond:
            return [e for e in self.events if isinstance(e, cls)]

    def wait_for(self, pred: Callable[[list[Any]], bool], timeout: float = 5.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: pred(self.events), timeout)

    def wait_count(self, cls: type, n: int, timeout: float = 5.0) -> list[Any]:
        assert self.wait_for(lambda evs: sum(isinstance(e, cls) for e in evs) >= n, timeout), (
            f"waited for {n} {cls.__name__}, got {self.events}")
        return self.of(cls)


@pytest.fixture
def emulator(tmp_path: Any) -> Iterator[TrayEmulator]:
    emu = TrayEmulator(tmp_path, "usb-MicroPython_Board_in_FS_mode_e66138528f3a2f2c-if00", **FAST_FIRMWARE).start()
    yield emu
    emu.stop()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def link(emulator: TrayEmulator, recorder: Recorder) -> Iterator[TrayLink]:
    lk = TrayLink(emulator.port, FAST_LINK)
    lk.subscribe(recorder)
    lk.start()
    assert lk.wait_connected(5)
    yield lk
    lk.stop()
