"""The host side of the tray: a serial link that survives unplugging.

:class:`TrayLink` owns one I/O thread. It finds the port (a path, a
``/dev/serial/by-id/...`` link, ``auto`` by USB vendor:product, or an in-process
emulator), opens it, says HELLO, and then, until :meth:`TrayLink.stop`:

- delivers the tray's events (motion, settled, buttons) to every subscriber, in order,
  exactly once (the tray resends unacknowledged events; duplicates are dropped), on a
  dispatcher thread of its own, so a slow subscriber never stalls the line;
- sends commands (light, status, settings) one at a time until acknowledged; the latest
  of each kind is remembered and sent again after every reconnect or tray reboot;
- sends a heartbeat and watches the tray's: on an I/O error (cable pulled) or silence it
  marks the tray disconnected, tells the subscribers, and tries again with back-off,
  forever, re-resolving the port each time.

Nothing raised on the line escapes the thread; subscriber exceptions are logged.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from . import protocol as p
from .errors import PortError, TrayError
from .events import (
    ButtonPressed, ButtonReleased, DiceSettled, MotionStarted, Subscriber, TrayConnected,
    TrayDisconnected, TrayEvent,
)
from .ports import PICO_USB_ID, PortSpec, find_usb_port, parse_spec

__all__ = ["TrayLink", "LinkSettings", "LinkStats"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LinkSettings:
    """Timings of the link, in seconds. The defaults suit a real tray on a Pi."""

    baudrate: int = 115200  # ignored by USB CDC, needed by real UARTs
    heartbeat_interval: float = 0.5  # how often the host says HB
    silence_timeout: float = 2.0  # no good frame for this long: the tray is gone
    handshake_timeout: float = 1.0  # wait this long for the tray's HELLO after opening
    hello_interval: float = 0.25  # resend HELLO this often during the handshake
    ack_timeout: float = 0.25  # resend an unacknowledged command after this
    max_retries: int = 8  # give a command up after this many sends
    reconnect_min: float = 0.05  # first back-off after a failed attempt
    reconnect_max: float = 1.0  # back-off doubles up to this
    read_timeout: float = 0.05  # I/O thread wakes at least this often
    usb_ids: tuple[tuple[int, int], ...] = (PICO_USB_ID,)  # for "auto"

    def __post_init__(self) -> None:
        for name in ("heartbeat_interval", "silence_timeout", "handshake_timeout", "hello_interval",
                     "ack_timeout", "reconnect_min", "reconnect_max", "read_timeout"):
            if not getattr(self, name) > 0:
                raise TrayError(f"link setting {name} must be a positive number of seconds")
        if self.max_retries < 1:
            raise TrayError("link setting max_retries must be at least 1")


@dataclass
class LinkStats:
    """Counters for the display and the logs."""

    connects: int = 0
    disconnects: int = 0
    events: int = 0
    duplicates: int = 0
    commands_acked: int = 0
    commands_refused: int = 0
    commands_dropped: int = 0
    bad_frames: int = 0  # dropped by the host's decoder, all sessions
    tray_bad_frames: int = 0  # as the tray reported in its last heartbeat
    last_error: str = ""


class _Gone(Exception):
    """The session is over; the argument says why."""


@dataclass
class _Pending:
    command: p.Command
    waiters: list[threading.Event] = field(default_factory=list)


def _key(cmd: p.Command) -> str:
    return f"SET {cmd.key}" if isinstance(cmd, p.Setting) else cmd.NAME


_EVENT_OF: dict[type, Callable[[Any], TrayEvent]] = {
    p.Motion: lambda m: MotionStarted(m.t_ms),
    p.Settled: lambda m: DiceSettled(m.t_ms, m.moving_ms),
    p.Press: lambda m: ButtonPressed(m.button, m.t_ms),
    p.Release: lambda m: ButtonReleased(m.button, m.t_ms, m.held_ms),
}


class TrayLink:
    """A tray on a serial port. ``port``: see :mod:`firmware_bridge.ports` (None: ``$COMPANION_TRAY``, else ``auto``).

    ``emulator_options`` are passed to the :class:`~firmware_bridge.emulator.TrayEmulator`
    created when the port is ``emulated``; it is then :attr:`emulator`.
    """

    def __init__(self, port: str | None = None, settings: LinkSettings | None = None, *,
                 emulator_options: dict[str, Any] | None = None) -> None:
        self.settings = settings or LinkSettings()
        self.spec: PortSpec = parse_spec(port, self.settings.usb_ids)
        if self.spec.kind in ("gpio", "none"):
            raise PortError(f"{self.spec.kind!r} is not a serial tray; use firmware_bridge.open_tray()")
        self.stats = LinkStats()
        self.emulator: Any = None
        self._emulator_options = dict(emulator_options or {})
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []
        self._desired: dict[str, p.Command] = {}
        self._pending: dict[str, _Pending] = {}
        self._connected = False
        self._info: TrayConnected | None = None
        self._device: str | None = None
        self._ser: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._events: queue.Queue[TrayEvent | None] = queue.Queue()
        self._dispatcher: threading.Thread | None = None
        self._connected_cond = threading.Condition(self._lock)
        # The last event delivered, whole: a resend is byte-identical (same number, same
        # tray time), so this catches duplicates even across reconnects and reboots.
        self._rx_last: p.Message | None = None

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
            self._thread.join(timeout=5)
            self._thread = None
        if self._dispatcher is not None:
            self._events.put(None)
            self._dispatcher.join(timeout=5)
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

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(event)`` for every event, on the dispatcher thread; returns an unsubscribe function."""
        if not callable(callback):
            raise TrayError("subscribe() needs a function taking one event")
        with self._lock:
            self._subscribers = [*self._subscribers, callback]

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers = [s for s in self._subscribers if s is not callback]
        return unsubscribe

    def send(self, command: p.Command, wait: float | None = None) -> bool:
        """Queue a command (:class:`~firmware_bridge.protocol.Light`, ``Status``, ``Setting``).

        It is remembered and sent again after every reconnect. Returns at once (True) when
        ``wait`` is None; else waits up to ``wait`` seconds and returns whether the tray
        acknowledged it (or a newer command of the same kind).
        """
        if not isinstance(command, p.COMMANDS):
            raise TrayError(f"not a tray command: {command!r} (send Light, Status or Setting)")
        p.encode(command)  # raises ProtocolError with a clear message for a bad field
        if isinstance(command, p.Setting) and command.key not in p.SETTINGS:
            raise TrayError(f"unknown tray setting {command.key!r}; known: {', '.join(p.SETTINGS)}")
        done = threading.Event()
        key = _key(command)
        with self._lock:
            self._desired[key] = command
            pend = self._pending.get(key)
            if pend is None:
                self._pending[key] = _Pending(command, [done])
            else:
                pend.command = command
                pend.waiters.append(done)
        self._wake()
        if wait is None:
            return True
        return done.wait(wait) and getattr(done, "ok", False)

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
            for cb in self._subscribers:
                try:
                    cb(event)
                except Exception:  # a subscriber's bug must not stop the others
                    log.exception("tray subscriber %r failed on %r", cb, event)

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
        decoder = p.Decoder()
        s = _Session(self, ser, decoder, device)
        reason = "unplugged"
        handshake = False
        try:
            info = s.handshake()
            if info is None:
                return False
            handshake = True
            self.stats.connects += 1
            self._set_connected(True, info)
            log.info("tray connected on %s: %s firmware %s, protocol %d", device, info.board, info.firmware, info.protocol)
            self._emit(info)
            s.restore_state()
            s.serve()
            reason = "stopped"
        except _Gone as gone:
            reason = str(gone)
        except (serial.SerialException, OSError) as exc:
            log.debug("tray link: %s", exc)
            reason = "unplugged"
        finally:
            self._ser = None
            self.stats.bad_frames += decoder.stats.bad_frames
            try:
                ser.close()
            except Exception:
                pass
            s.abandon_inflight()
            if handshake:
                self.stats.disconnects += 1
                self._set_connected(False, None)
                log.info("tray disconnected (%s)", reason)
                self._emit(TrayDisconnected(reason))
        return handshake


class _Session:
    """The state of one open port; used only by the I/O thread."""

    def __init__(self, link: TrayLink, ser: Any, decoder: p.Decoder, device: str) -> None:
        self.link = link
        self.ser = ser
        self.decoder = decoder
        self.device = device
        self.cfg = link.settings
        self.tx_seq = 0
        self.last_hello = 0.0
        self.inflight: tuple[str, int, bytes] | None = None
        self.inflight_sent = 0.0
        self.inflight_tries = 0
        self.inflight_pending: _Pending | None = None
        self.silence = self.cfg.silence_timeout

    # -- line ------------------------------------------------------------------------------
    def write(self, msg: p.Message) -> tuple[int, bytes]:
        seq = self.tx_seq
        self.tx_seq = seq + 1 if seq < 0xFFFF else 1
        frame = p.encode(replace(msg, seq=seq))
        self.ser.write(frame)
        return seq, frame

    def read(self) -> list[p.TrayMessage]:
        ser = self.ser
        n = ser.in_waiting
        data = ser.read(n if n else 1)
        return self.decoder.feed(data) if data else []

    def hello(self) -> None:
        from companion import __version__

        self.last_hello = time.monotonic()
        self.write(p.Hello(p.PROTOCOL_MIN, p.PROTOCOL_MAX, __version__, "companion",
                           int(self.cfg.heartbeat_interval * 1000)))

    # -- phases -----------------------------------------------------------------------------
    def handshake(self) -> TrayConnected | None:
        stop = self.link._stop
        deadline = time.monotonic() + self.cfg.handshake_timeout
        next_hello = 0.0
        while not stop.is_set():
            now = time.monotonic()
            if now >= deadline:
                log.debug("tray link: no HELLO from %s", self.device)
                return None
            if now >= next_hello:
                self.hello()
                next_hello = now + self.cfg.hello_interval
            for msg in self.read():
                if not isinstance(msg, p.Hello):
                    continue  # from before the tray heard us: it drops them on our HELLO
                if msg.seq == 0:
                    next_hello = 0.0  # it has just booted and not heard our HELLO
                    continue
                proto = p.negotiate(p.PROTOCOL_MIN, p.PROTOCOL_MAX, msg.proto_min, msg.proto_max)
                if proto is None:
                    err = (f"tray firmware {msg.version} speaks protocol {msg.proto_min}-{msg.proto_max}, "
                           f"this companion {p.PROTOCOL_MIN}-{p.PROTOCOL_MAX}: update one of them")
                    if self.link.stats.last_error != err:
                        log.error("%s", err)
                    self.link.stats.last_error = err
                    return None
                self.silence = max(self.cfg.silence_timeout, 3 * msg.hb_ms / 1000)
                return TrayConnected(self.device, msg.version, msg.board, proto)
        return None

    def restore_state(self) -> None:
        """Queue the latest command of every kind: the tray may have rebooted since."""
        link = self.link
        with link._lock:
            for key, cmd in link._desired.items():
                if key not in link._pending:
                    link._pending[key] = _Pending(cmd)

    def serve(self) -> None:
        stop = self.link._stop
        now = time.monotonic()
        last_rx = now
        next_hb = now
        while not stop.is_set():
            msgs = self.read()
            now = time.monotonic()
            if msgs:
                last_rx = now
                for msg in msgs:
                    self.handle(msg)
            if now - last_rx > self.silence:
                raise _Gone("silent")
            if now >= next_hb:
                self.write(p.Heartbeat(int(now * 1000) & 0xFFFFFFFF, self.decoder.stats.bad_frames, 1))
                next_hb = now + self.cfg.heartbeat_interval
            self.commands(now)

    # -- incoming -----------------------------------------------------------------------------
    def handle(self, msg: p.TrayMessage) -> None:
        link = self.link
        if isinstance(msg, p.EVENTS):
            self.write(p.Ack(msg.seq))  # every copy: our previous ACK may have been lost
            if msg == link._rx_last:
                link.stats.duplicates += 1
                return
            link._rx_last = msg  # type: ignore[assignment]  # an event, so a Message
            link.stats.events += 1
            link._emit(_EVENT_OF[type(msg)](msg))
        elif isinstance(msg, p.Heartbeat):
            link.stats.tray_bad_frames = msg.bad_frames
            if not msg.session and time.monotonic() - self.last_hello > max(1.0, 2 * self.silence / 3):
                # the tray has no session with us: it rebooted and we missed its boot HELLO,
                # or it gave us up; say HELLO again (not more than once a second)
                log.info("tray says it has no session; saying hello again")
                self.rehello()
        elif isinstance(msg, p.Ack):
            if self.inflight is not None and msg.ref == self.inflight[1]:
                link.stats.commands_acked += 1
                self.finish(True)
        elif isinstance(msg, p.Nak):
            if self.inflight is not None and msg.ref == self.inflight[1]:
                link.stats.commands_refused += 1
                log.warning("tray refused %s: %s", self.inflight[0], msg.reason)
                self.finish(False)
        elif isinstance(msg, p.Hello):
            if msg.seq == 0:  # the tray rebooted (watchdog, reset button, brown-out)
                log.info("tray rebooted; saying hello again")
                self.rehello()
        elif isinstance(msg, p.Unknown):
            reason = msg.reason if msg.reason in ("unknown", "args") else "bad"
            self.write(p.Nak(msg.seq, reason))
        else:  # a command sent to us
            self.write(p.Nak(msg.seq, "unexpected"))

    def rehello(self) -> None:
        """Open the session again and restore light, status and settings."""
        self.hello()
        self.abandon_inflight()
        self.restore_state()

    # -- outgoing commands ------------------------------------------------------------------
    def finish(self, ok: bool) -> None:
        pend = self.inflight_pending
        self.inflight = None
        self.inflight_pending = None
        if pend is not None:
            for w in pend.waiters:
                w.ok = ok  # type: ignore[attr-defined]
                w.set()

    def abandon_inflight(self) -> None:
        """Put the command in flight back in the queue (unless a newer one replaced it)."""
        pend = self.inflight_pending
        if pend is None:
            return
        link = self.link
        with link._lock:
            newer = link._pending.get(self.inflight[0]) if self.inflight else None
            if newer is None and self.inflight is not None:
                link._pending[self.inflight[0]] = pend
            elif newer is not None:
                newer.waiters.extend(pend.waiters)
        self.inflight = None
        self.inflight_pending = None

    def commands(self, now: float) -> None:
        if self.inflight is not None:
            if now - self.inflight_sent < self.cfg.ack_timeout:
                return
            if self.inflight_tries >= self.cfg.max_retries:
                log.warning("tray did not acknowledge %s; giving up", self.inflight[0])
                self.link.stats.commands_dropped += 1
                self.finish(False)
            else:
                self.ser.write(self.inflight[2])
                self.inflight_sent = now
                self.inflight_tries += 1
                return
        link = self.link
        with link._lock:
            if not link._pending:
                return
            key = next(iter(link._pending))
            pend = link._pending.pop(key)
        seq, frame = self.write(pend.command)
        self.inflight = (key, seq, frame)
        self.inflight_pending = pend
        self.inflight_sent = now
        self.inflight_tries = 1
