"""One open port of a :class:`~firmware_bridge.link.TrayLink`: handshake, events, commands, heartbeat.

Used only by the link's I/O thread; :class:`LinkSettings` and :class:`LinkStats` are the
link's public values.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable

from . import protocol as p
from .errors import TrayError
from .events import ButtonPressed, ButtonReleased, DiceSettled, MotionStarted, TrayConnected, TrayEvent
from .ports import PICO_USB_ID

if TYPE_CHECKING:
    from .link import TrayLink

__all__ = ["LinkSettings", "LinkStats", "Session", "Gone", "Pending", "command_key"]

log = logging.getLogger("firmware_bridge.link")


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


class Gone(Exception):
    """The session is over; the argument says why."""


@dataclass
class Pending:
    command: p.Command
    waiters: list[threading.Event] = field(default_factory=list)


def command_key(cmd: p.Command) -> str:
    return f"SET {cmd.key}" if isinstance(cmd, p.Setting) else cmd.NAME


EVENT_OF: dict[type, Callable[[Any], TrayEvent]] = {
    p.Motion: lambda m: MotionStarted(m.t_ms),
    p.Settled: lambda m: DiceSettled(m.t_ms, m.moving_ms),
    p.Press: lambda m: ButtonPressed(m.button, m.t_ms),
    p.Release: lambda m: ButtonReleased(m.button, m.t_ms, m.held_ms),
}



class Session:
    """The state of one open port; used only by the I/O thread."""

    def __init__(self, link: TrayLink, ser: Any, decoder: p.Decoder, device: str) -> None:
        self.link = link
        self.ser = ser
        self.decoder = decoder
        self.device = device
        self.cfg = link.settings
        self.tx_seq = 0
        self.last_hello = 0.0
        self.backlog: list[p.TrayMessage] = []
        self.inflight: tuple[str, int, bytes] | None = None
        self.inflight_sent = 0.0
        self.inflight_tries = 0
        self.inflight_pending: Pending | None = None
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
            msgs = self.read()
            for i, msg in enumerate(msgs):
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
                self.backlog = msgs[i + 1:]  # an event right behind the HELLO is not lost
                return TrayConnected(self.device, msg.version, msg.board, proto)
        return None

    def restore_state(self) -> None:
        """Queue the latest command of every kind: the tray may have rebooted since."""
        link = self.link
        with link._lock:
            for key, cmd in link._desired.items():
                if key not in link._pending:
                    link._pending[key] = Pending(cmd)

    def serve(self) -> None:
        stop = self.link._stop
        now = time.monotonic()
        last_rx = now
        next_hb = now
        for msg in self.backlog:
            self.handle(msg)
        self.backlog = []
        while not stop.is_set():
            msgs = self.read()
            now = time.monotonic()
            if msgs:
                last_rx = now
                for msg in msgs:
                    self.handle(msg)
            if now - last_rx > self.silence:
                raise Gone("silent")
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
            link._emit(EVENT_OF[type(msg)](msg))
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
