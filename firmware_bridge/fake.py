"""A tray that is only a value, for tests and for code that needs a tray without any line.

:class:`FakeTray` is to :class:`~firmware_bridge.link.TrayLink` what gpiozero's
``MockFactory`` is to real pins: it speaks the same
:class:`~firmware_bridge.events.TraySource` interface (``start``, ``stop``,
``subscribe``, ``send``, ``connected``), records every command it was sent, and emits
the events a test asks for, at once, on the caller's thread: no pty, no thread, no
timing.

>>> from firmware_bridge import protocol as p
>>> tray = FakeTray()
>>> heard = []
>>> _ = tray.subscribe(heard.append)
>>> _ = tray.start()
>>> tray.roll(moving_ms=420)
>>> [e.kind for e in heard]
['connected', 'motion', 'settled']
>>> heard[-1].moving_ms
420
>>> tray.set_status("fast", wait=1)
True
>>> tray.sent, tray.pattern
([Status(pattern='fast', seq=0)], 'fast')
>>> tray.refuse("LIGHT")
>>> tray.set_light(300)
Traceback (most recent call last):
  ...
firmware_bridge.errors.ProtocolError: Light.level must be an integer from 0 to 255, not 300
>>> tray.set_light(90, wait=1)  # a command the tray answers with a NAK
False
"""

from __future__ import annotations

import threading
from typing import Callable

from . import protocol as p
from .errors import TrayError
from .events import (ButtonPressed, ButtonReleased, DiceSettled, MotionStarted, Subscriber, Subscribers,
                     TrayConnected, TrayDisconnected, TrayEvent)
from .session import check_command, command_key

__all__ = ["FakeTray"]


class FakeTray:
    """A tray driven by the test. ``port``, ``firmware`` and ``board`` go into its ``TrayConnected``.

    - what it was sent: :attr:`sent` (every command, refused ones too, in order), and
      what it shows: :attr:`light`, :attr:`pattern`, :attr:`settings`;
    - :meth:`wait_sent` blocks until a command sent from another thread has arrived;
    - what it says: :meth:`motion`, :meth:`settle`, :meth:`roll`, :meth:`press`,
      :meth:`release`, :meth:`click`, and its mishaps :meth:`unplug` and :meth:`plug`;
    - :meth:`refuse` makes it answer a kind of command (``"LIGHT"``, ``"STATUS"``,
      ``"SET settle_ms"``) with a NAK.

    Like the link, it remembers the latest command of each kind and applies them again
    when plugged back; a command sent while unplugged waits for that (``send(...,
    wait=...)`` then returns False).
    """

    def __init__(self, port: str = "fake", firmware: str = "fake", board: str = "fake") -> None:
        self.info = TrayConnected(port, firmware, board, p.PROTOCOL_MAX)
        self.sent: list[p.Command] = []
        self.light: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.pattern = "on"
        self.settings: dict[str, int] = {}
        self.tray_ms = 1000  # the tray's clock; every event moves it on
        self._refused: set[str] = set()
        self._desired: dict[str, p.Command] = {}
        self._subscribers = Subscribers("fake tray")
        self._started = False
        self._plugged = True
        self._cond = threading.Condition()
        self._pressed_at: dict[int, int] = {}

    # -- the TraySource interface ----------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._started and self._plugged

    def start(self) -> FakeTray:
        """Report ``TrayConnected`` (if plugged); returns the tray."""
        if not self._started:
            self._started = True
            if self._plugged:
                self._emit(self.info)
        return self

    def stop(self) -> None:
        """Report ``TrayDisconnected("stopped")`` (if it was connected)."""
        if self._started:
            was = self.connected
            self._started = False
            if was:
                self._emit(TrayDisconnected("stopped"))

    def __enter__(self) -> FakeTray:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        return self._subscribers.add(callback)

    def send(self, command: p.Command, wait: float | None = None) -> bool:
        """Record and apply ``command``; bad commands raise as :meth:`TrayLink.send` does.

        Returns True at once when ``wait`` is None, else whether the tray took it (False
        for a refused kind, or while unplugged).
        """
        cmd = check_command(command)
        key = command_key(cmd)
        with self._cond:
            self._desired[key] = cmd
            ok = self.connected and key not in self._refused
            if self.connected:
                self.sent.append(cmd)
                if ok:
                    self._apply(cmd)
            self._cond.notify_all()
        return True if wait is None else ok

    def set_light(self, level: int, r: int = 255, g: int = 255, b: int = 255, wait: float | None = None) -> bool:
        return self.send(p.Light(level, r, g, b), wait)

    def set_status(self, pattern: str, wait: float | None = None) -> bool:
        return self.send(p.Status(pattern), wait)

    # -- what the test looks at ------------------------------------------------------------
    def wait_sent(self, pred: Callable[[list[p.Command]], bool], timeout: float = 5.0) -> bool:
        """Block until ``pred(sent)`` holds (commands arrive from other threads), or ``timeout`` s."""
        with self._cond:
            return self._cond.wait_for(lambda: pred(list(self.sent)), timeout)

    def refuse(self, *keys: str) -> None:
        """Answer these kinds of command with a NAK from now on (none: accept everything again)."""
        for key in keys:
            if key not in ("LIGHT", "STATUS") and not key.startswith("SET "):
                raise TrayError(f"not a kind of tray command: {key!r} (LIGHT, STATUS or 'SET <key>')")
        self._refused = set(keys)

    # -- what the test makes it say ------------------------------------------------------------
    def advance(self, ms: int) -> None:
        """Move the tray's clock on by ``ms``."""
        self.tray_ms = (self.tray_ms + ms) & 0xFFFFFFFF

    def motion(self) -> None:
        self._emit(MotionStarted(self.tray_ms))

    def settle(self, moving_ms: int = 300) -> None:
        self._emit(DiceSettled(self.tray_ms, moving_ms))

    def roll(self, moving_ms: int = 300, settle_ms: int = 800) -> None:
        """The dice move for ``moving_ms`` and stay still for ``settle_ms``: motion, then settled."""
        self.motion()
        self.advance(moving_ms + settle_ms)
        self.settle(moving_ms)

    def press(self, button: int = 1) -> None:
        self._pressed_at[button] = self.tray_ms
        self._emit(ButtonPressed(button, self.tray_ms))

    def release(self, button: int = 1) -> None:
        held = self.tray_ms - self._pressed_at.pop(button, self.tray_ms)
        self._emit(ButtonReleased(button, self.tray_ms, max(0, held)))

    def click(self, button: int = 1, held_ms: int = 80) -> None:
        self.press(button)
        self.advance(held_ms)
        self.release(button)

    def unplug(self, reason: str = "unplugged") -> None:
        """The cable is pulled (or the tray went ``silent``): ``TrayDisconnected(reason)``."""
        was = self.connected
        self._plugged = False
        if was:
            self._emit(TrayDisconnected(reason))

    def plug(self) -> None:
        """Back: ``TrayConnected``, then the latest command of each kind is applied again."""
        if self._plugged:
            return
        self._plugged = True
        if self._started:
            self._emit(self.info)
            with self._cond:
                for key, cmd in self._desired.items():
                    self.sent.append(cmd)
                    if key not in self._refused:
                        self._apply(cmd)
                self._cond.notify_all()

    # -- internals ---------------------------------------------------------------------------
    def _apply(self, cmd: p.Command) -> None:
        if isinstance(cmd, p.Light):
            self.light = (cmd.level, cmd.r, cmd.g, cmd.b)
        elif isinstance(cmd, p.Status):
            self.pattern = cmd.pattern
        else:
            self.settings[cmd.key] = cmd.value

    def _emit(self, event: TrayEvent) -> None:
        if self.connected or isinstance(event, TrayDisconnected):
            self._subscribers.emit(event)
