"""The host side of the tray: a serial link that survives unplugging.

:class:`TrayLink` owns one I/O thread. It finds the port (a path, a
``/dev/serial/by-id/...`` link, ``auto`` by USB vendor:product, or an in-process
emulator), opens it, and then, until :meth:`TrayLink.stop`, moves bytes between the port
and its :class:`~firmware_bridge.session.Session` (the protocol, as a state machine
without I/O) and carries out what the session answers:

- the tray's events (motion, settled, buttons) go to every subscriber, in order, exactly
  once (the session drops the tray's resends), on a dispatcher thread of its own, so a
  slow subscriber never stalls the line;
- commands (light, status, settings) are sent one at a time until acknowledged; the
  latest of each kind is sent again after every reconnect or tray reboot;
- on an I/O error (cable pulled) or silence the tray is marked disconnected, the
  subscribers are told, and the link tries again with back-off, forever, re-resolving
  the port each time.

Nothing raised on the line escapes the thread; subscriber exceptions are logged.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from typing import Any, Callable

from companion import __version__

from . import protocol as p
from .errors import PortError
from .events import Subscriber, Subscribers, TrayConnected, TrayEvent
from .ports import PortSpec, find_usb_port, parse_spec
from .session import Action, Closed, Done, Emit, LinkSettings, LinkStats, Opened, Resend, Send, Session

__all__ = ["TrayLink", "LinkSettings", "LinkStats"]  # the last two live in .session

log = logging.getLogger(__name__)
#: How long :meth:`TrayLink.stop` waits for each of its threads (they wake every
#: ``read_timeout``; only a machine under heavy load makes them slow).
STOP_WAIT = 30.0


class TrayLink:
    """A tray on a serial port. ``port``: see :mod:`firmware_bridge.ports` (None: ``$COMPANION_TRAY``, else ``auto``).

    ``emulator_options`` are passed to the :class:`~firmware_bridge.emulator.TrayEmulator`
    created when the port is ``emulated``; it is then :attr:`emulator`.

    Wiring: plug the tray's Pico into any USB port of the Pi with a data cable (not a
    charge-only one); it appears as ``/dev/ttyACM0`` and
    ``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_<serial>-if00``. The Pi user
    needs the ``dialout`` group. The tray's own wiring is in ``hardware.md``.
    """

    def __init__(self, port: str | None = None, settings: LinkSettings | None = None, *,
                 emulator_options: dict[str, Any] | None = None) -> None:
        self.settings = settings or LinkSettings()
        self.spec: PortSpec = parse_spec(port, self.settings.usb_ids)
        if self.spec.kind in ("gpio", "none"):
            raise PortError(f"{self.spec.kind!r} is not a serial tray; use firmware_bridge.open_tray()")
        self.stats = LinkStats()
        #: the protocol's state; only touched under ``_lock``
        self.session = Session(self.settings, __version__, self.stats)
        self.emulator: Any = None
        self._emulator_options = dict(emulator_options or {})
        self._lock = threading.Lock()
        self._subscribers = Subscribers("tray")
        self._waiters: dict[int, _Waiter] = {}
        self._connected = False
        self._info: TrayConnected | None = None
        self._device: str | None = None
        self._ser: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._events: queue.Queue[TrayEvent | None] = queue.Queue()
        self._dispatcher: threading.Thread | None = None
        self._connected_cond = threading.Condition(self._lock)

    # -- public API -------------------------------------------------------------------
    def start(self) -> "TrayLink":
        """Start the I/O and dispatcher threads (and the emulator, if ``emulated``). Returns at once."""
        if self._thread is not None:
            return self
        if self.spec.kind == "emulated" and self.emulator is None:
            from .emulator import TrayEmulator

            self.emulator = TrayEmulator(**self._emulator_options).start()
        self._stop.clear()
        self._dispatcher = threading.Thread(target=self._dispatch, name="tray-dispatch", daemon=True)
        self._dispatcher.start()
        self._thread = threading.Thread(target=self._run, name="tray-link", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close the port and stop the threads; subscribers get ``TrayDisconnected("stopped")``."""
        self._stop.set()
        self._wake()
        if self._thread is not None:
            # the I/O thread posts its last events ("stopped") and then the dispatcher's end,
            # in that order; on a loaded machine that can take a while
            self._thread.join(timeout=STOP_WAIT)
            if self._thread.is_alive():
                log.warning("tray link: the I/O thread did not stop within %.0f s", STOP_WAIT)
                self._events.put(None)
            self._thread = None
        if self._dispatcher is not None:
            self._dispatcher.join(timeout=STOP_WAIT)
            self._dispatcher = None
        if self.emulator is not None and self.spec.kind == "emulated":
            self.emulator.stop()
            self.emulator = None

    def __enter__(self) -> "TrayLink":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        """The handshake succeeded and the tray has been heard from recently."""
        return self._connected

    @property
    def info(self) -> TrayConnected | None:
        """The last successful handshake (firmware version, board, protocol, port)."""
        return self._info

    def wait_connected(self, timeout: float | None = None) -> bool:
        """Block until connected (True) or ``timeout`` seconds have passed (False)."""
        with self._connected_cond:
            return self._connected_cond.wait_for(lambda: self._connected, timeout)

    def wait_for(self, pred: Callable[[], bool], timeout: float | None = None) -> bool:
        """Block until ``pred()`` is true (False after ``timeout`` s); it is checked again
        whenever the link has done something (written, delivered, connected, given up)."""
        with self._connected_cond:
            return self._connected_cond.wait_for(pred, timeout)

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(event)`` for every event, on the dispatcher thread; returns an unsubscribe function."""
        return self._subscribers.add(callback)

    def send(self, command: p.Command, wait: float | None = None) -> bool:
        """Queue a command (:class:`~firmware_bridge.protocol.Light`, ``Status``, ``Setting``).

        It is remembered and sent again after every reconnect. Returns at once (True) when
        ``wait`` is None; else waits up to ``wait`` seconds and returns whether the tray
        acknowledged it (or a newer command of the same kind).
        """
        waiter = _Waiter()
        with self._lock:
            ticket = self.session.submit(command)  # raises TrayError / ProtocolError for a bad command
            self._waiters[ticket] = waiter
        self._wake()
        if wait is None:
            return True
        return waiter.wait(wait)

    def set_light(self, level: int, r: int = 255, g: int = 255, b: int = 255, wait: float | None = None) -> bool:
        """Light the tray: brightness 0-255, colour r g b 0-255."""
        return self.send(p.Light(level, r, g, b), wait)

    def set_status(self, pattern: str, wait: float | None = None) -> bool:
        """Status LED pattern: off, on, slow, fast or double."""
        return self.send(p.Status(pattern), wait)

    # -- dispatching ------------------------------------------------------------------------
    def _emit(self, event: TrayEvent) -> None:
        self._events.put(event)

    def _dispatch(self) -> None:
        while True:
            event = self._events.get()
            if event is None:
                return
            self._subscribers.emit(event)

    def _wake(self) -> None:
        ser = self._ser
        if ser is not None:
            try:
                ser.cancel_read()
            except Exception:
                pass

    # -- the I/O thread -----------------------------------------------------------------
    def _run(self) -> None:
        delay = self.settings.reconnect_min
        while not self._stop.is_set():
            ok = False
            try:
                ok = self._session()
            except Exception as exc:  # never let the thread die
                log.exception("tray link: unexpected error")
                self.stats.last_error = f"{type(exc).__name__}: {exc}"
            if ok:
                delay = self.settings.reconnect_min
            else:
                delay = min(delay * 2, self.settings.reconnect_max)
            if not self._stop.is_set():
                self._stop.wait(self.settings.reconnect_min if ok else delay)
        self._set_connected(False, None)
        self._events.put(None)  # after every event of this thread: the dispatcher delivers them, then ends

    def _resolve(self) -> str | None:
        spec = self.spec
        if spec.kind == "emulated":
            return self.emulator.port if self.emulator is not None else None
        if spec.kind in ("auto", "usb"):
            return find_usb_port(spec.usb_ids)
        if spec.kind == "path" and not os.path.exists(spec.path):
            return None
        return spec.path

    def _set_connected(self, value: bool, info: TrayConnected | None) -> None:
        with self._connected_cond:
            self._connected = value
            if info is not None:
                self._info = info
            self._connected_cond.notify_all()

    def _session(self) -> bool:
        """One connection, from opening the port to losing it. True if the handshake succeeded."""
        import serial

        device = self._resolve()
        if device is None:
            return False
        try:
            ser = serial.serial_for_url(device, baudrate=self.settings.baudrate,
                                        timeout=self.settings.read_timeout, write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as exc:
            log.debug("tray link: cannot open %s: %s", device, exc)
            return False
        self._device = device
        self._ser = ser
        reason = "unplugged"
        try:
            with self._lock:
                actions = self.session.open(device, time.monotonic())
            while not self._carry_out(ser, actions):
                if self._stop.is_set():
                    reason = "stopped"
                    break
                n = ser.in_waiting
                data = ser.read(n if n else 1)
                now = time.monotonic()
                with self._lock:
                    actions = self.session.receive(data, now) if data else []
                    if self.session.phase != "closed":
                        actions += self.session.tick(now)
        except (serial.SerialException, OSError) as exc:
            log.debug("tray link: %s", exc)
            reason = "unplugged"
        finally:
            self._ser = None
            try:
                ser.close()
            except Exception:
                pass
            with self._lock:
                actions = self.session.close(reason)
                opened = self.session.opened
            self._set_connected(False, None)
            self._carry_out(None, actions)
        return opened

    def _carry_out(self, ser: Any, actions: list[Action]) -> bool:
        """Do what the session said, in order; True if it said the session is over."""
        over = False
        for action in actions:
            if isinstance(action, (Send, Resend)):
                if ser is not None:
                    ser.write(action.frame)
            elif isinstance(action, Emit):
                self._emit(action.event)
            elif isinstance(action, Done):
                with self._lock:
                    waiters = [self._waiters.pop(t, None) for t in action.tickets]
                for w in waiters:
                    if w is not None:
                        w.finish(action.ok)
            elif isinstance(action, Opened):
                self._set_connected(True, action.info)
            elif isinstance(action, Closed):
                self._set_connected(False, None)
                over = True
        if actions:
            with self._connected_cond:
                self._connected_cond.notify_all()
        return over


class _Waiter:
    """What a :meth:`TrayLink.send` with ``wait`` waits on: the command's :class:`~firmware_bridge.session.Done`."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self.ok = False

    def finish(self, ok: bool) -> None:
        self.ok = ok
        self._done.set()

    def wait(self, timeout: float | None) -> bool:
        return self._done.wait(timeout) and self.ok
