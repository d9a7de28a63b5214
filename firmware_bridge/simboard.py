"""Simulated pins for the tray firmware under CPython.

:class:`SimBoard` implements the board interface documented at the top of
``firmware/tray.py`` with plain attributes instead of GPIO: tests set ``pressed`` or add
``pulses`` and read back ``ring`` and ``status``. Its transport is two byte buffers
(``rx`` from the host, ``tx`` to the host); the emulator's :class:`PtyBoard` replaces them
with a pseudo-terminal. The clock is injectable, so firmware tests are deterministic.
"""

from __future__ import annotations

import time
from typing import Callable, Iterable

from .firmware.tray import Tray

__all__ = ["SimBoard", "ManualClock", "Tray"]


class ManualClock:
    """A millisecond clock that moves only when told (:meth:`advance`)."""

    def __init__(self, start: int = 1000) -> None:
        self.t = start

    def __call__(self) -> int:
        return self.t

    def advance(self, ms: int) -> None:
        self.t += ms


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class SimBoard:
    """The tray's hardware, simulated: two buttons, a motion sensor, the LED ring, the status LED."""

    name = "sim"

    def __init__(self, clock: Callable[[], int] | None = None, buttons: Iterable[int] = (1, 2)) -> None:
        self.clock = clock or _monotonic_ms
        self.pressed: dict[int, bool] = {b: False for b in buttons}
        self.pulses = 0
        self.ring: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.status = False
        self.status_changes = 0
        self.rx = bytearray()
        self.tx = bytearray()

    # the board interface -------------------------------------------------------------
    def ticks_ms(self) -> int:
        return int(self.clock())

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def read(self) -> bytes:
        data = bytes(self.rx)
        self.rx.clear()
        return data

    def write(self, data: bytes) -> None:
        self.tx += data

    def buttons(self) -> list[tuple[int, bool]]:
        return list(self.pressed.items())

    def motion_pulses(self) -> int:
        n, self.pulses = self.pulses, 0
        return n

    def set_ring(self, level: int, r: int, g: int, b: int) -> None:
        self.ring = (level, r, g, b)

    def set_status(self, on: bool) -> None:
        if on != self.status:
            self.status_changes += 1
        self.status = on

    # helpers for tests ------------------------------------------------------------------
    def take_tx(self) -> bytes:
        data = bytes(self.tx)
        self.tx.clear()
        return data
