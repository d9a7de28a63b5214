# The tray protocol's framing, in the subset of Python that MicroPython runs.
#
# A frame is one line of printable ASCII:
#
#     $<seq> <TYPE> <arg> <arg>...*<CRC>\n
#
# CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of the bytes between "$" and "*",
# as four hexadecimal digits. A "\r" before the "\n" is allowed. A "$" always starts a
# new frame: whatever was being received is dropped. See hardware.md.
#
# This module is shared by the firmware (MicroPython on the Pico) and the CPython tests.
# The host uses firmware_bridge.protocol, a faster codec for the same format.

# Types are given in comments, which MicroPython ignores (it has no ``typing``); mypy
# checks them, and takes "if TYPE_CHECKING:" as true whatever the variable says.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence, Tuple, List

    Frame = Tuple[int, str, List[str]]  # (seq, NAME, args)

MAX_FRAME = 120  # bytes from "$" to "\n" inclusive

_TABLE = []  # type: list[int]
for _i in range(256):
    _c = _i << 8
    for _j in range(8):
        _c = ((_c << 1) ^ 0x1021) if (_c & 0x8000) else (_c << 1)
    _TABLE.append(_c & 0xFFFF)


def crc16(data, crc=0xFFFF):
    # type: (bytes, int) -> int
    """CRC-16/CCITT-FALSE of ``data`` (bytes)."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def frame(seq, name, args=()):
    # type: (int, str, Sequence[object]) -> bytes
    """The bytes of one frame."""
    body = str(seq) + " " + name
    for a in args:
        body += " " + str(a)
    raw = body.encode()
    return b"$" + raw + ("*%04X\n" % crc16(raw)).encode()


def parse(body):
    # type: (bytes) -> Frame | None
    """``(seq, NAME, [args])`` from the bytes between "$" and "\\n", or None if bad."""
    if body and body[-1] == 13:  # "\r"
        body = body[:-1]
    star = body.rfind(b"*")
    if star < 0 or len(body) - star != 5:
        return None
    payload = body[:star]
    try:
        crc = int(body[star + 1:].decode(), 16)
        text = payload.decode()
    except Exception:
        return None
    if crc16(payload) != crc:
        return None
    parts = text.split(" ")
    if len(parts) < 2 or not parts[0].isdigit() or len(parts[0]) > 5:
        return None
    seq = int(parts[0])
    if seq > 65535 or not parts[1]:
        return None
    for p in parts[1:]:
        if not p:
            return None
    return (seq, parts[1], parts[2:])


class LineReader:
    """Byte-by-byte frame decoder: small and obvious, for the microcontroller.

    ``feed(data)`` returns the good frames found so far as ``(seq, NAME, args)``;
    ``bad`` counts dropped frames (bad checksum, interrupted, too long, malformed).
    """

    def __init__(self):
        # type: () -> None
        self.buf = None  # type: bytearray | None
        self.bad = 0

    def feed(self, data):
        # type: (bytes) -> list[Frame]
        out = []  # type: list[Frame]
        for b in data:
            if b == 36:  # "$": a new frame starts, whatever was pending is dropped
                if self.buf is not None:
                    self.bad += 1
                self.buf = bytearray()
            elif self.buf is None:
                continue  # garbage between frames
            elif b == 10:  # "\n"
                msg = parse(bytes(self.buf))
                self.buf = None
                if msg is None:
                    self.bad += 1
                else:
                    out.append(msg)
            elif len(self.buf) >= MAX_FRAME - 2:
                self.buf = None
                self.bad += 1
            else:
                self.buf.append(b)
        return out
