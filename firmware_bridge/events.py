"""What a tray tells its subscribers: small frozen values, one per happening.

Both :class:`~firmware_bridge.link.TrayLink` (the microcontroller over USB) and
:class:`~firmware_bridge.gpio.GpioTray` (a button wired to the Pi) deliver these, so the
server does not care which one the table has. ``tray_ms`` is the tray's own clock (only
differences are meaningful); the host stamps events itself when it logs them.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import asdict, dataclass
from typing import Any, Callable, ClassVar, Protocol, Union

from .errors import TrayError

log = logging.getLogger(__name__)

__all__ = [
    "TrayConnected", "TrayDisconnected", "MotionStarted", "DiceSettled", "ButtonPressed",
    "ButtonReleased", "TrayEvent", "Subscriber", "TraySource",
]


@dataclass(frozen=True)
class _Base:
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """``{"event": kind, ...fields}``, for ``companion tray monitor --json`` and the web page."""
        return {"event": self.kind, **asdict(self)}


@dataclass(frozen=True)
class TrayConnected(_Base):
    """The handshake succeeded (first time, or back after an unplug)."""

    port: str
    firmware: str
    board: str
    protocol: int
    kind: ClassVar[str] = "connected"


@dataclass(frozen=True)
class TrayDisconnected(_Base):
    """The tray is gone: ``unplugged`` (I/O error), ``silent`` (no heartbeat), ``stopped``, ``incompatible``."""

    reason: str
    kind: ClassVar[str] = "disconnected"


@dataclass(frozen=True)
class MotionStarted(_Base):
    """The dice started moving."""

    tray_ms: int
    kind: ClassVar[str] = "motion"


@dataclass(frozen=True)
class DiceSettled(_Base):
    """The dice have stopped for the settle time: the moment to take the photo."""

    tray_ms: int
    moving_ms: int
    kind: ClassVar[str] = "settled"


@dataclass(frozen=True)
class ButtonPressed(_Base):
    """Button ``button`` went down (1 = confirm, 2 = undo on the reference tray)."""

    button: int
    tray_ms: int
    kind: ClassVar[str] = "press"


@dataclass(frozen=True)
class ButtonReleased(_Base):
    """Button ``button`` came back up after ``held_ms``."""

    button: int
    tray_ms: int
    held_ms: int
    kind: ClassVar[str] = "release"


TrayEvent = Union[TrayConnected, TrayDisconnected, MotionStarted, DiceSettled, ButtonPressed, ButtonReleased]
Subscriber = Callable[[TrayEvent], None]


class Subscribers:
    """The callbacks of one tray source: added and removed from any thread, each called
    in turn for every event; a failing callback is logged and does not stop the others."""

    def __init__(self, who: str = "tray") -> None:
        self._who = who
        self._lock = threading.Lock()
        self._list: list[Subscriber] = []

    def add(self, callback: Subscriber) -> Callable[[], None]:
        """Register ``callback``; returns the function that unregisters it."""
        if not callable(callback):
            raise TrayError("subscribe() needs a function taking one event")
        with self._lock:
            self._list = [*self._list, callback]

        def unsubscribe() -> None:
            with self._lock:
                self._list = [s for s in self._list if s is not callback]
        return unsubscribe

    def emit(self, event: TrayEvent) -> None:
        for cb in self._list:  # a snapshot: the list is replaced, never changed in place
            try:
                cb(event)
            except Exception:  # a subscriber's bug must not stop the others
                log.exception("%s subscriber %r failed on %r", self._who, cb, event)


class TraySource(Protocol):
    """What the server needs from a tray, whichever kind it is."""

    @property
    def connected(self) -> bool: ...

    def start(self) -> Any: ...

    def stop(self) -> None: ...

    def subscribe(self, callback: Subscriber) -> Callable[[], None]: ...

    def send(self, command: Any, wait: float | None = None) -> bool: ...
