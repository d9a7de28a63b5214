"""The tray protocol: messages as frozen values, a pure encoder and a decoder that never raises.

Wire format (full specification in ``hardware.md``): one line of printable
ASCII per message, readable in any serial terminal::

    $<seq> <TYPE> <arg>...*<CRC>\\n        e.g.  $12 SETTLED 48211 930*0F58

``CRC`` is CRC-16/CCITT-FALSE of the bytes between ``$`` and ``*`` (four hex digits).
A ``$`` always starts a new frame, so the decoder resynchronises on the next ``$`` after
any garbage; a frame longer than :data:`MAX_FRAME` bytes is dropped.

:func:`encode` raises :class:`~firmware_bridge.errors.ProtocolError` for a message that
cannot be sent (a field out of range); :class:`Decoder` never raises, whatever it is fed:
bad frames are counted in :attr:`Decoder.stats` and dropped. A frame whose checksum is
good but whose type or arguments are not understood is returned as :class:`Unknown`, so
the link can answer it with a ``NAK``.

>>> encode(Settled(48211, 930, seq=12))
b'$12 SETTLED 48211 930*0F58\\n'
>>> dec = Decoder()
>>> dec.feed(b"noise$12 SETTLED 48211 930*0F58\\n$13 SETTLED 1 2*0000\\n$3 HB 205")
[Settled(t_ms=48211, moving_ms=930, seq=12)]
>>> dec.feed(b"00 0 1*EC94\\n")  # the rest of the heartbeat
[Heartbeat(uptime_ms=20500, bad_frames=0, session=1, seq=3)]
>>> dec.stats.bad_crc, dec.stats.garbage_bytes  # the forged checksum; "noise"
(1, 5)
>>> dec.feed(b"$4 FLY 1*%04X\\n" % crc16(b"4 FLY 1"))
[Unknown(name='FLY', args=('1',), reason='unknown', seq=4)]
>>> encode(Light(300))
Traceback (most recent call last):
  ...
firmware_bridge.errors.ProtocolError: Light.level must be an integer from 0 to 255, not 300
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, fields
from typing import Any, Callable, ClassVar, Union

from .errors import ProtocolError

__all__ = [
    "PROTOCOL_MIN", "PROTOCOL_MAX", "MAX_FRAME", "PATTERNS", "SETTINGS",
    "Hello", "Heartbeat", "Ack", "Nak", "Motion", "Settled", "Press", "Release",
    "Light", "Status", "Setting", "Unknown", "Message", "Command", "TrayMessage",
    "RELIABLE", "COMMANDS", "EVENTS", "encode", "Decoder", "DecoderStats", "negotiate", "crc16",
]

#: Protocol versions this host speaks.
PROTOCOL_MIN = 1
PROTOCOL_MAX = 1
#: Longest frame, from ``$`` to ``\n`` inclusive.
MAX_FRAME = 120
#: Status LED patterns a host may ask for (the firmware adds ``nohost`` on its own).
PATTERNS = ("off", "on", "slow", "fast", "double")
#: ``SET`` keys the reference firmware accepts, with their allowed ranges.
SETTINGS = {"settle_ms": (20, 60000), "debounce_ms": (1, 1000)}

_U8 = (0, 255)
_U16 = (0, 0xFFFF)
_U32 = (0, 0xFFFFFFFF)
_TOKEN_RE = re.compile(r"[A-Za-z0-9._:+/-]{1,32}\Z")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), the frame checksum."""
    return binascii.crc_hqx(data, 0xFFFF)


def negotiate(a_min: int, a_max: int, b_min: int, b_max: int) -> int | None:
    """The protocol version two sides use: the highest both speak, or None.

    >>> negotiate(1, 2, 2, 3), negotiate(1, 1, 2, 3)
    (2, None)
    """
    best = min(a_max, b_max)
    return best if best >= max(a_min, b_min) else None


@dataclass(frozen=True)
class _Msg:
    """Base of every message. ``seq`` is given by the link when the frame is sent."""

    NAME: ClassVar[str] = ""
    #: per wire field: an (lo, hi) int range, a tuple of allowed words, or "token".
    SPEC: ClassVar[tuple[Any, ...]] = ()

    def wire_args(self) -> list[Any]:
        return [getattr(self, f.name) for f in fields(self) if f.name != "seq"]


@dataclass(frozen=True)
class Hello(_Msg):
    """Both ways: the versions a side speaks, its software version, its name, its heartbeat period.

    The host sends it to open a session; the tray answers with its own, and also sends
    one unprompted when it boots. Both sides then use :func:`negotiate`.
    """

    proto_min: int
    proto_max: int
    version: str
    board: str
    hb_ms: int
    seq: int = 0
    NAME: ClassVar[str] = "HELLO"
    SPEC: ClassVar[tuple[Any, ...]] = (_U16, _U16, "token", "token", _U16)


@dataclass(frozen=True)
class Heartbeat(_Msg):
    """Both ways, every ``hb_ms``: uptime, bad frames received so far, and 1 if the sender
    has a session with the other side (the tray got the host's HELLO), else 0."""

    uptime_ms: int
    bad_frames: int
    session: int = 1
    seq: int = 0
    NAME: ClassVar[str] = "HB"
    SPEC: ClassVar[tuple[Any, ...]] = (_U32, _U32, (0, 1))


@dataclass(frozen=True)
class Ack(_Msg):
    """Both ways: the reliable frame numbered ``ref`` was received (sent for every copy)."""

    ref: int
    seq: int = 0
    NAME: ClassVar[str] = "ACK"
    SPEC: ClassVar[tuple[Any, ...]] = (_U16,)


@dataclass(frozen=True)
class Nak(_Msg):
    """Both ways: frame ``ref`` had a good checksum but cannot be acted on; do not resend."""

    ref: int
    reason: str
    seq: int = 0
    NAME: ClassVar[str] = "NAK"
    SPEC: ClassVar[tuple[Any, ...]] = (_U16, "token")


@dataclass(frozen=True)
class Motion(_Msg):
    """Tray: the dice started moving (tray clock ``t_ms``)."""

    t_ms: int
    seq: int = 0
    NAME: ClassVar[str] = "MOTION"
    SPEC: ClassVar[tuple[Any, ...]] = (_U32,)


@dataclass(frozen=True)
class Settled(_Msg):
    """Tray: no motion for the settle time; the roll had lasted ``moving_ms``."""

    t_ms: int
    moving_ms: int
    seq: int = 0
    NAME: ClassVar[str] = "SETTLED"
    SPEC: ClassVar[tuple[Any, ...]] = (_U32, _U32)


@dataclass(frozen=True)
class Press(_Msg):
    """Tray: button ``button`` (1, 2, ...) went down (after debouncing)."""

    button: int
    t_ms: int
    seq: int = 0
    NAME: ClassVar[str] = "PRESS"
    SPEC: ClassVar[tuple[Any, ...]] = ((1, 16), _U32)


@dataclass(frozen=True)
class Release(_Msg):
    """Tray: button ``button`` came back up after ``held_ms``."""

    button: int
    t_ms: int
    held_ms: int
    seq: int = 0
    NAME: ClassVar[str] = "RELEASE"
    SPEC: ClassVar[tuple[Any, ...]] = ((1, 16), _U32, _U32)


@dataclass(frozen=True)
class Light(_Msg):
    """Host: light the tray's LED ring, brightness ``level`` 0-255, colour ``r g b`` 0-255."""

    level: int
    r: int = 255
    g: int = 255
    b: int = 255
    seq: int = 0
    NAME: ClassVar[str] = "LIGHT"
    SPEC: ClassVar[tuple[Any, ...]] = (_U8, _U8, _U8, _U8)


@dataclass(frozen=True)
class Status(_Msg):
    """Host: show a pattern on the status LED (one of :data:`PATTERNS`)."""

    pattern: str
    seq: int = 0
    NAME: ClassVar[str] = "STATUS"
    SPEC: ClassVar[tuple[Any, ...]] = (PATTERNS,)


@dataclass(frozen=True)
class Setting(_Msg):
    """Host: change a firmware setting (``SET settle_ms 800``); see :data:`SETTINGS`."""

    key: str
    value: int
    seq: int = 0
    NAME: ClassVar[str] = "SET"
    SPEC: ClassVar[tuple[Any, ...]] = ("token", _U32)


@dataclass(frozen=True)
class Unknown:
    """A frame with a good checksum whose type or arguments are not understood."""

    name: str
    args: tuple[str, ...]
    reason: str
    seq: int = 0


Message = Union[Hello, Heartbeat, Ack, Nak, Motion, Settled, Press, Release, Light, Status, Setting]
Command = Union[Light, Status, Setting]
TrayMessage = Union[Message, Unknown]

#: Frames the receiver must ACK and the sender resends until it does.
RELIABLE: tuple[type, ...] = (Motion, Settled, Press, Release, Light, Status, Setting)
#: Host to tray.
COMMANDS: tuple[type, ...] = (Light, Status, Setting)
#: Tray to host, delivered to subscribers.
EVENTS: tuple[type, ...] = (Motion, Settled, Press, Release)

_TYPES: dict[bytes, type[_Msg]] = {
    cls.NAME.encode(): cls
    for cls in (Hello, Heartbeat, Ack, Nak, Motion, Settled, Press, Release, Light, Status, Setting)
}


def _check(cls: type, name: str, value: Any, spec: Any) -> None:
    if spec == "token":
        if not isinstance(value, str) or not _TOKEN_RE.match(value):
            raise ProtocolError(f"{cls.__name__}.{name} must be a word of letters, digits or ._:+/- (1-32), not {value!r}")
    elif isinstance(spec, tuple) and spec and isinstance(spec[0], str):
        if value not in spec:
            raise ProtocolError(f"{cls.__name__}.{name} must be one of {', '.join(spec)}, not {value!r}")
    else:
        lo, hi = spec
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ProtocolError(f"{cls.__name__}.{name} must be an integer from {lo} to {hi}, not {value!r}")


def encode(message: Message) -> bytes:
    """The frame for ``message``; :class:`ProtocolError` if a field is out of range."""
    cls = type(message)
    if _TYPES.get(getattr(cls, "NAME", "").encode()) is not cls:
        raise ProtocolError(f"not a tray protocol message: {message!r}")
    args = message.wire_args()
    names = [f.name for f in fields(message) if f.name != "seq"]
    for name, value, spec in zip(names, args, cls.SPEC):
        _check(cls, name, value, spec)
    _check(cls, "seq", message.seq, _U16)
    body = " ".join([str(message.seq), cls.NAME, *map(str, args)]).encode("ascii")
    return b"$%s*%04X\n" % (body, crc16(body))


@dataclass
class DecoderStats:
    """What the decoder has seen. ``bad_frames`` is everything dropped as a frame."""

    frames: int = 0  # good frames returned (including Unknown)
    bad_crc: int = 0  # complete frames whose checksum did not match
    malformed: int = 0  # good checksum, but no sequence number or type
    dropped: int = 0  # frame starts never completed: interrupted by "$", too long, no checksum
    unknown: int = 0  # good frames of an unknown type or with bad arguments
    garbage_bytes: int = 0  # bytes outside any frame

    @property
    def bad_frames(self) -> int:
        return self.bad_crc + self.malformed + self.dropped + self.unknown


# "*" cannot occur in a body (no token holds one), so the body never needs backtracking.
_FRAME_RE = re.compile(rb"\$([^$\n*]{0,%d})\*([0-9A-Fa-f]{4})(\r?)\n" % (MAX_FRAME - 8))


class Decoder:
    """Incremental frame decoder: ``feed(bytes)`` returns the complete messages found so far.

    Keeps at most one incomplete frame between calls (< :data:`MAX_FRAME` bytes). Never
    raises: anything that is not a good frame is counted in :attr:`stats` and dropped, and
    every good frame after garbage is recovered.
    """

    def __init__(self) -> None:
        self.stats = DecoderStats()
        self._buf = b""

    def reset(self) -> None:
        """Forget a partial frame (e.g. after reopening the port)."""
        self._buf = b""

    def feed(self, data: bytes | bytearray | memoryview) -> list[TrayMessage]:
        try:
            chunk = bytes(data)
        except (TypeError, ValueError):
            return []
        buf = self._buf + chunk if self._buf else chunk
        stats = self.stats
        # No frame spans a newline: everything up to the last one can be settled now.
        cut = buf.rfind(b"\n") + 1
        out: list[TrayMessage] = []
        if cut:
            head = buf[:cut]
            found = _FRAME_RE.findall(head)
            frame_bytes = 0
            frame = self._frame
            for body, crc, cr in found:
                frame_bytes += len(body) + len(cr) + 7
                msg = frame(body, crc)
                if msg is not None:
                    out.append(msg)
            stats.garbage_bytes += cut - frame_bytes
            stats.dropped += head.count(b"$") - len(found)
        tail = buf[cut:]
        start = tail.rfind(b"$")
        if start < 0:
            stats.garbage_bytes += len(tail)
            self._buf = b""
        else:
            stats.garbage_bytes += start
            stats.dropped += tail.count(b"$", 0, start)
            if len(tail) - start >= MAX_FRAME:
                stats.garbage_bytes += len(tail) - start
                stats.dropped += 1
                self._buf = b""
            else:
                self._buf = tail[start:]
        return out

    def _frame(self, payload: bytes, crc_hex: bytes) -> TrayMessage | None:
        stats = self.stats
        if binascii.crc_hqx(payload, 0xFFFF) != int(crc_hex, 16):
            stats.bad_crc += 1
            return None
        parts = payload.split(b" ", 2)
        seq_b = parts[0]
        if len(parts) < 2 or not seq_b.isdigit() or len(seq_b) > 5 or int(seq_b) > 0xFFFF:
            stats.malformed += 1
            return None
        seq = int(seq_b)
        name_b = parts[1]
        rest = parts[2] if len(parts) > 2 else b""
        entry = _PARSERS.get(name_b)
        if entry is not None:
            m = entry[1].fullmatch(rest)
            if m is not None:
                values = entry[2](m.groups())
                if values is not None:
                    stats.frames += 1
                    # The values are checked; build the frozen instance without its __init__
                    # (one object.__setattr__ per field): the same object, in a third of the time.
                    obj: Any = object.__new__(entry[0])
                    d = obj.__dict__
                    d.update(zip(entry[3], values))
                    d["seq"] = seq
                    return obj  # type: ignore[no-any-return]
        elif not (name_b.isalpha() and name_b.isupper() and len(name_b) <= 12):
            stats.malformed += 1
            return None
        stats.frames += 1
        stats.unknown += 1
        name = name_b.decode("ascii")
        try:
            args = tuple(rest.decode("ascii").split(" ")) if rest else ()
        except UnicodeDecodeError:
            return Unknown(name, (), "non-ascii", seq)
        return Unknown(name, args, "unknown" if entry is None else "args", seq)


def _parser(cls: type[_Msg]) -> tuple[type, re.Pattern[bytes], Callable[[tuple[bytes, ...]], list[Any] | None],
                                tuple[str, ...]]:
    """A regex for the arguments of ``cls`` and a function turning its groups into field values."""
    pieces = []
    for kind in cls.SPEC:
        if kind == "token":
            pieces.append(rb"([A-Za-z0-9._:+/-]{1,32})")
        elif isinstance(kind[0], str):
            pieces.append(b"(" + b"|".join(w.encode() for w in kind) + b")")
        else:
            pieces.append(rb"(\d{1,10})")
    rx = re.compile(b" ".join(pieces) + rb"(?: [!-~]*)*")  # extra trailing arguments are ignored
    ranges = tuple(None if kind == "token" or isinstance(kind[0], str) else kind for kind in cls.SPEC)

    def convert(groups: tuple[bytes, ...]) -> list[Any] | None:
        out: list[Any] = []
        for g, rng in zip(groups, ranges):
            if rng is None:
                out.append(g.decode("ascii"))
            else:
                v = int(g)
                if v > rng[1] or v < rng[0]:
                    return None
                out.append(v)
        return out

    names = tuple(f.name for f in fields(cls) if f.name != "seq")
    return cls, rx, convert, names


_PARSERS = {name: _parser(cls) for name, cls in _TYPES.items()}
