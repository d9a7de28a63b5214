"""The board interface the firmware drives, as a typing Protocol (CPython only).

Not copied to the Pico: ``tray.py`` imports it only for the type checker, so mypy checks
that :class:`~firmware_bridge.simboard.SimBoard`, the emulator's ``PtyBoard`` and the
calls of the firmware agree. The same interface is described in words at the top of
``tray.py``; ``board_pico.py`` implements it on the Pico.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Board"]


class Board(Protocol):
    name: str

    def ticks_ms(self) -> int: ...

    def ticks_diff(self, a: int, b: int) -> int: ...

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    def buttons(self) -> list[tuple[int, bool]]: ...

    def motion_pulses(self) -> int: ...

    def set_ring(self, level: int, r: int, g: int, b: int) -> None: ...

    def set_status(self, on: bool) -> None: ...
