"""The host side of the tray protocol as a state machine that does no I/O.

:class:`Session` is told what the line brought (:meth:`Session.receive` for bytes,
:meth:`Session.handle` for one decoded message) and that time has passed
(:meth:`Session.tick`), always with ``now`` in seconds, and answers with the actions to
carry out:

- :class:`Send`: write a new frame (HELLO, heartbeat, ACK, NAK, a command);
- :class:`Resend`: write an unacknowledged command's frame again, byte for byte;
- :class:`Emit`: deliver an event to the subscribers;
- :class:`Done`: a queued command ended: ``acked``, ``refused`` (NAK) or ``dropped``
  (given up after :attr:`LinkSettings.max_retries` sends);
- :class:`Opened` / :class:`Closed`: the handshake succeeded / the session is over and
  the port should be closed (silence, no HELLO, incompatible firmware).

It reads no port, starts no thread and looks at no clock, so retries, duplicates and
reboots are tested by feeding it messages (``tests/firmware_bridge/test_session.py``);
:class:`~firmware_bridge.link.TrayLink` only moves the bytes. One session lives as long
as its link, across reconnects: the last event delivered (to drop the tray's resends) and
the latest command of each kind (to restore them after a reconnect or a reboot) survive
an unplug. It is not thread-safe: the link calls it under its lock.

>>> s = Session(LinkSettings(), "0.1.0")
>>> [a.message for a in s.open("/dev/ttyACM0", now=0.0)]
[Hello(proto_min=1, proto_max=1, version='0.1.0', board='companion', hb_ms=500, seq=0)]
>>> s.handle(p.Hello(1, 1, "0.2.0", "pico", 500, seq=1), now=0.01)[0]
Opened(info=TrayConnected(port='/dev/ttyACM0', firmware='0.2.0', board='pico', protocol=1))
>>> s.handle(p.Press(1, 4000, seq=2), now=0.02)
[Send(message=Ack(ref=2, seq=1)), Emit(event=ButtonPressed(button=1, tray_ms=4000))]
>>> s.handle(p.Press(1, 4000, seq=2), now=0.03)  # the tray missed our ACK and resent it
[Send(message=Ack(ref=2, seq=2))]
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import TypeVar, Union

from . import protocol as p
from .errors import TrayError
from .events import (ButtonPressed, ButtonReleased, DiceSettled, MotionStarted, TrayConnected, TrayDisconnected,
                     TrayEvent)
from .ports import PICO_USB_ID

__all__ = [
    "LinkSettings", "LinkStats", "Session", "command_key", "check_command",
    "Action", "Send", "Resend", "Emit", "Done", "Opened", "Closed",
]

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


# -- actions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Send:
    """Write this message's frame (its ``seq`` is already given)."""

    message: p.Message

    @property
    def frame(self) -> bytes:
        return p.encode(self.message)


@dataclass(frozen=True)
class Resend:
    """Write an unacknowledged command again, same number, same bytes (send number ``attempt``)."""

    message: p.Command
    attempt: int

    @property
    def frame(self) -> bytes:
        return p.encode(self.message)


@dataclass(frozen=True)
class Emit:
    """Deliver ``event`` to the subscribers."""

    event: TrayEvent


@dataclass(frozen=True)
class Done:
    """The command of kind ``key`` asked for by ``tickets`` ended: ``acked``, ``refused`` or ``dropped``."""

    key: str
    tickets: tuple[int, ...]
    outcome: str

    @property
    def ok(self) -> bool:
        return self.outcome == "acked"


@dataclass(frozen=True)
class Opened:
    """The handshake succeeded: the tray is connected."""

    info: TrayConnected


@dataclass(frozen=True)
class Closed:
    """The session is over (``silent``, ``no-hello``, ``incompatible``, or what the link said): close the port."""

    reason: str


Action = Union[Send, Resend, Emit, Done, Opened, Closed]


def command_key(cmd: p.Command) -> str:
    """Commands of one kind replace each other: ``LIGHT``, ``STATUS``, ``SET settle_ms``..."""
    return f"SET {cmd.key}" if isinstance(cmd, p.Setting) else cmd.NAME


def check_command(command: object) -> p.Command:
    """``command`` if the tray would understand it, else :class:`TrayError` (or its :class:`ProtocolError`)."""
    if not isinstance(command, (p.Light, p.Status, p.Setting)):
        raise TrayError(f"not a tray command: {command!r} (send Light, Status or Setting)")
    cmd: p.Command = command
    p.encode(cmd)  # raises ProtocolError with a clear message for a bad field
    if isinstance(cmd, p.Setting) and cmd.key not in p.SETTINGS:
        raise TrayError(f"unknown tray setting {cmd.key!r}; known: {', '.join(p.SETTINGS)}")
    return cmd


TrayEventMessage = Union[p.Motion, p.Settled, p.Press, p.Release]
M = TypeVar("M", bound=p.Message)


def tray_event(msg: TrayEventMessage) -> TrayEvent:
    """What the subscribers hear for an event frame."""
    if isinstance(msg, p.Motion):
        return MotionStarted(msg.t_ms)
    if isinstance(msg, p.Settled):
        return DiceSettled(msg.t_ms, msg.moving_ms)
    if isinstance(msg, p.Press):
        return ButtonPressed(msg.button, msg.t_ms)
    return ButtonReleased(msg.button, msg.t_ms, msg.held_ms)


@dataclass
class _Pending:
    command: p.Command
    tickets: list[int] = field(default_factory=list)


@dataclass
class _Inflight:
    key: str
    message: p.Command  # numbered
    pending: _Pending
    sent_at: float
    tries: int = 1


class Session:
    """The host's side of the protocol with one tray, across reconnects. See the module's docstring.

    ``version`` is the host software's version, sent in HELLO; ``stats`` (a new
    :class:`LinkStats` by default) is updated in place.
    """

    def __init__(self, settings: LinkSettings, version: str, stats: LinkStats | None = None) -> None:
        self.cfg = settings
        self.version = version
        self.stats = stats if stats is not None else LinkStats()
        self.phase = "closed"  # "closed", "handshake" or "open"
        self.device = ""
        self.info: TrayConnected | None = None
        # kept across connections
        self.desired: dict[str, p.Command] = {}
        self.pending: dict[str, _Pending] = {}
        # The last event delivered, whole: a resend is identical (same number, same tray
        # time), so this catches duplicates even across reconnects and reboots.
        self.rx_last: p.Message | None = None
        self._tickets = 0
        # one connection
        self.decoder = p.Decoder()
        self.opened = False  # the handshake of the current (or last) connection succeeded
        self.tx_seq = 0
        self.last_hello = 0.0
        self.next_hello = 0.0
        self.deadline = 0.0
        self.silence = settings.silence_timeout
        self.last_rx = 0.0
        self.next_hb = 0.0
        self.inflight: _Inflight | None = None

    # -- commands from the application -------------------------------------------------------
    def submit(self, command: p.Command) -> int:
        """Queue ``command`` (checked with :func:`check_command`); returns the ticket a :class:`Done` will name.

        The latest command of each kind is remembered and sent again after every
        reconnect; a queued command of the same kind is replaced (its tickets follow).
        """
        check_command(command)
        self._tickets += 1
        ticket = self._tickets
        key = command_key(command)
        self.desired[key] = command
        pend = self.pending.get(key)
        if pend is None:
            self.pending[key] = _Pending(command, [ticket])
        else:
            pend.command = command
            pend.tickets.append(ticket)
        return ticket

    def queued(self) -> list[p.Command]:
        """The commands waiting to be sent, oldest first (not the one in flight)."""
        return [pend.command for pend in self.pending.values()]

    # -- the connection ------------------------------------------------------------------------
    def open(self, device: str, now: float) -> list[Action]:
        """A port was opened: start the handshake (say HELLO)."""
        self.phase = "handshake"
        self.device = device
        self.decoder = p.Decoder()
        self.opened = False
        self.tx_seq = 0
        self.inflight = None
        self.deadline = now + self.cfg.handshake_timeout
        return [self._hello(now)]

    def close(self, reason: str) -> list[Action]:
        """The port is gone (``unplugged``) or the link stops (``stopped``). Does nothing if already closed."""
        if self.phase == "closed":
            return []
        was_open = self.phase == "open"
        self.phase = "closed"
        self.stats.bad_frames += self.decoder.stats.bad_frames
        self.decoder = p.Decoder()
        self._abandon_inflight()
        if not was_open:
            return []
        self.stats.disconnects += 1
        log.info("tray disconnected (%s)", reason)
        return [Emit(TrayDisconnected(reason))]

    def receive(self, data: bytes, now: float) -> list[Action]:
        """Bytes from the line: decode them (bad frames are counted and dropped) and :meth:`handle` each message."""
        out: list[Action] = []
        for msg in self.decoder.feed(data):
            out += self.handle(msg, now)
            if self.phase == "closed":
                break
        return out

    def handle(self, msg: p.TrayMessage, now: float) -> list[Action]:
        """One message from the tray."""
        if self.phase == "handshake":
            return self._handshake(msg, now)
        if self.phase == "open":
            self.last_rx = now
            return self._serve(msg, now)
        return []

    def tick(self, now: float) -> list[Action]:
        """Time has passed: resend HELLO, give the handshake up, notice silence, say HB, send or resend a command."""
        if self.phase == "handshake":
            if now >= self.deadline:
                log.debug("tray link: no HELLO from %s", self.device)
                return self._end("no-hello")
            return [self._hello(now)] if now >= self.next_hello else []
        if self.phase != "open":
            return []
        if now - self.last_rx > self.silence:
            return self._end("silent")
        out: list[Action] = []
        if now >= self.next_hb:
            out.append(self._send(p.Heartbeat(int(now * 1000) & 0xFFFFFFFF, self.decoder.stats.bad_frames, 1)))
            self.next_hb = now + self.cfg.heartbeat_interval
        out += self._commands(now)
        return out

    # -- internals -------------------------------------------------------------------------------
    def _number(self, msg: M) -> M:
        seq = self.tx_seq
        self.tx_seq = seq + 1 if seq < 0xFFFF else 1
        return replace(msg, seq=seq)

    def _send(self, msg: p.Message) -> Send:
        return Send(self._number(msg))

    def _hello(self, now: float) -> Send:
        self.last_hello = now
        self.next_hello = now + self.cfg.hello_interval
        return self._send(p.Hello(p.PROTOCOL_MIN, p.PROTOCOL_MAX, self.version, "companion",
                                  int(self.cfg.heartbeat_interval * 1000)))

    def _end(self, reason: str) -> list[Action]:
        out: list[Action] = [Closed(reason)]
        return out + self.close(reason)

    def _handshake(self, msg: p.TrayMessage, now: float) -> list[Action]:
        if not isinstance(msg, p.Hello):
            return []  # from before the tray heard us: it drops them on our HELLO
        if msg.seq == 0:
            self.next_hello = now  # it has just booted and not heard our HELLO: say it again now
            return []
        proto = p.negotiate(p.PROTOCOL_MIN, p.PROTOCOL_MAX, msg.proto_min, msg.proto_max)
        if proto is None:
            err = (f"tray firmware {msg.version} speaks protocol {msg.proto_min}-{msg.proto_max}, "
                   f"this companion {p.PROTOCOL_MIN}-{p.PROTOCOL_MAX}: update one of them")
            if self.stats.last_error != err:
                log.error("%s", err)
            self.stats.last_error = err
            return self._end("incompatible")
        self.phase = "open"
        self.opened = True
        self.silence = max(self.cfg.silence_timeout, 3 * msg.hb_ms / 1000)
        self.last_rx = now
        self.next_hb = now
        self.stats.connects += 1
        self.info = TrayConnected(self.device, msg.version, msg.board, proto)
        log.info("tray connected on %s: %s firmware %s, protocol %d", self.device, msg.board, msg.version, proto)
        self._restore_state()
        return [Opened(self.info), Emit(self.info)]

    def _serve(self, msg: p.TrayMessage, now: float) -> list[Action]:
        if isinstance(msg, (p.Motion, p.Settled, p.Press, p.Release)):
            event: TrayEventMessage = msg
            ack = self._send(p.Ack(event.seq))  # every copy: our previous ACK may have been lost
            if event == self.rx_last:
                self.stats.duplicates += 1
                return [ack]
            self.rx_last = event
            self.stats.events += 1
            return [ack, Emit(tray_event(event))]
        if isinstance(msg, p.Heartbeat):
            self.stats.tray_bad_frames = msg.bad_frames
            if not msg.session and now - self.last_hello > max(1.0, 2 * self.silence / 3):
                # the tray has no session with us: it rebooted and we missed its boot HELLO,
                # or it gave us up; say HELLO again (not more than once a second)
                log.info("tray says it has no session; saying hello again")
                return self._rehello(now)
            return []
        if isinstance(msg, (p.Ack, p.Nak)):
            fl = self.inflight
            if fl is None or msg.ref != fl.message.seq:
                return []
            if isinstance(msg, p.Ack):
                self.stats.commands_acked += 1
                return [self._finish("acked")]
            self.stats.commands_refused += 1
            log.warning("tray refused %s: %s", fl.key, msg.reason)
            return [self._finish("refused")]
        if isinstance(msg, p.Hello):
            if msg.seq == 0:  # the tray rebooted (watchdog, reset button, brown-out)
                log.info("tray rebooted; saying hello again")
                return self._rehello(now)
            return []
        if isinstance(msg, p.Unknown):
            reason = msg.reason if msg.reason in ("unknown", "args") else "bad"
            return [self._send(p.Nak(msg.seq, reason))]
        return [self._send(p.Nak(msg.seq, "unexpected"))]  # a command sent to us

    def _rehello(self, now: float) -> list[Action]:
        """Open the session again and restore light, status and settings."""
        out: list[Action] = [self._hello(now)]
        self._abandon_inflight()
        self._restore_state()
        return out

    def _restore_state(self) -> None:
        """Queue the latest command of every kind: the tray may have rebooted since."""
        for key, cmd in self.desired.items():
            if key not in self.pending:
                self.pending[key] = _Pending(cmd)

    def _finish(self, outcome: str) -> Done:
        fl = self.inflight
        if fl is None:
            raise TrayError("no command in flight to finish")
        self.inflight = None
        return Done(fl.key, tuple(fl.pending.tickets), outcome)

    def _abandon_inflight(self) -> None:
        """Put the command in flight back in the queue (unless a newer one replaced it)."""
        fl = self.inflight
        if fl is None:
            return
        self.inflight = None
        newer = self.pending.get(fl.key)
        if newer is None:
            self.pending[fl.key] = fl.pending
        else:
            newer.tickets.extend(fl.pending.tickets)

    def _commands(self, now: float) -> list[Action]:
        out: list[Action] = []
        fl = self.inflight
        if fl is not None:
            if now - fl.sent_at < self.cfg.ack_timeout:
                return out
            if fl.tries >= self.cfg.max_retries:
                log.warning("tray did not acknowledge %s; giving up", fl.key)
                self.stats.commands_dropped += 1
                out.append(self._finish("dropped"))
            else:
                fl.sent_at = now
                fl.tries += 1
                out.append(Resend(fl.message, fl.tries))
                return out
        if not self.pending:
            return out
        key = next(iter(self.pending))
        pend = self.pending.pop(key)
        numbered = self._number(pend.command)
        self.inflight = _Inflight(key, numbered, pend, now)
        out.append(Send(numbered))
        return out
