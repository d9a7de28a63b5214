"""The codec: encode, and a decoder that never raises and recovers every good frame."""

from __future__ import annotations

import binascii
import random

import pytest
from hypothesis import given, strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.errors import ProtocolError
from firmware_bridge.firmware import wire

EXAMPLES: list[p.Message] = [
    p.Hello(1, 1, "0.1.0", "pico", 500, seq=0),
    p.Heartbeat(123456, 3, 0, seq=7),
    p.Ack(65535, seq=8),
    p.Nak(12, "range", seq=9),
    p.Motion(4294967295, seq=10),
    p.Settled(48211, 930, seq=11),
    p.Press(2, 5, seq=12),
    p.Release(1, 6, 80, seq=13),
    p.Light(200, 255, 240, 220, seq=14),
    p.Status("double", seq=15),
    p.Setting("settle_ms", 800, seq=16),
]


def test_crc_is_ccitt_false() -> None:
    assert p.crc16(b"123456789") == 0x29B1  # the catalogue check value
    assert wire.crc16(b"123456789") == 0x29B1


def test_a_frame_is_a_readable_line() -> None:
    assert p.encode(p.Settled(1234, 800, seq=12)) == b"$12 SETTLED 1234 800*BDA9\n"


@pytest.mark.parametrize("msg", EXAMPLES, ids=lambda m: type(m).__name__)
def test_round_trip_and_firmware_agrees(msg: p.Message) -> None:
    frame = p.encode(msg)
    assert p.Decoder().feed(frame) == [msg]
    # the firmware's own framing produces the very same bytes, and parses them back
    assert wire.frame(msg.seq, msg.NAME, msg.wire_args()) == frame
    assert wire.parse(frame[1:-1]) == (msg.seq, msg.NAME, [str(a) for a in msg.wire_args()])


@pytest.mark.parametrize("bad", [
    p.Light(256), p.Light(-1), p.Status("blink"), p.Press(0, 1), p.Setting("has space", 1),
    p.Hello(1, 1, "", "pico", 500), p.Motion(1, seq=70000), p.Heartbeat(2**32, 0), p.Heartbeat(1, 0, 2), p.Light(True),
])
def test_encode_refuses_what_cannot_be_sent(bad: p.Message) -> None:
    with pytest.raises(ProtocolError) as err:
        p.encode(bad)
    assert isinstance(err.value, ValueError)
    assert type(bad).__name__ in str(err.value)


def test_encode_refuses_non_messages() -> None:
    with pytest.raises(ProtocolError):
        p.encode("LIGHT 1 2 3 4")  # type: ignore[arg-type]


def test_negotiate() -> None:
    assert p.negotiate(1, 3, 2, 5) == 3
    assert p.negotiate(1, 1, 1, 1) == 1
    assert p.negotiate(1, 1, 2, 3) is None


F1 = p.encode(p.Press(1, 100, seq=1))
F2 = p.encode(p.Release(1, 180, 80, seq=2))
M1, M2 = p.Press(1, 100, seq=1), p.Release(1, 180, 80, seq=2)
BANNER = b"MicroPython v1.22.2 on 2024-02-22; Raspberry Pi Pico with RP2040\r\n>>> "

# (description, bytes, expected messages, expected non-zero stats)
QUIRKS = [
    ("clean", F1 + F2, [M1, M2], {}),
    ("CRLF from a terminal or MicroPython's print", F1[:-1] + b"\r\n" + F2, [M1, M2], {}),
    ("lower-case checksum", F1[:-5] + F1[-5:-1].lower() + b"\n", [M1], {}),
    ("doubled start", b"$" + F1, [M1], {"dropped": 1, "garbage_bytes": 1}),
    ("doubled end", F1 + b"\n" + F2, [M1, M2], {"garbage_bytes": 1}),
    ("empty lines", b"\n\n" + F1 + b"\r\n\r\n" + F2, [M1, M2], {"garbage_bytes": 6}),
    ("reset mid-frame: the rest of the line never comes", F1[:9] + F2, [M2], {"dropped": 1, "garbage_bytes": 9}),
    ("REPL banner before the firmware starts",
     BANNER + F1, [M1], {"garbage_bytes": len(BANNER)}),
    ("bit flip in the body", F1.replace(b"100", b"101") + F2, [M2], {"bad_crc": 1}),
    ("bit flip in the checksum", F1[:-2] + b"0\n" if F1[-2:-1] != b"0" else F1[:-2] + b"1\n", [], {"bad_crc": 1}),
    ("lost newline: two frames run together", F1[:-1] + F2, [M2], {"dropped": 1}),
    ("lost start", F1[1:] + F2, [M2], {}),
    ("no checksum", b"$1 PRESS 1 100\n" + F2, [M2], {"dropped": 1}),
    ("NUL and 0xFF noise", b"\x00\xff\x00" + F1 + b"\xff\xfe" + F2, [M1, M2], {"garbage_bytes": 5}),
    ("frame too long", b"$1 HB " + b"9" * 200 + b"*0000\n" + F1, [M1], {"dropped": 1}),
]


@pytest.mark.parametrize("data,expected,counts", [q[1:] for q in QUIRKS], ids=[q[0] for q in QUIRKS])
def test_real_world_quirks(data: bytes, expected: list[p.Message], counts: dict[str, int]) -> None:
    dec = p.Decoder()
    assert dec.feed(data) == expected
    for name in ("bad_crc", "malformed", "dropped", "unknown"):
        assert getattr(dec.stats, name) == counts.get(name, 0), name
    if "garbage_bytes" in counts:
        assert dec.stats.garbage_bytes == counts["garbage_bytes"]
    assert dec.stats.frames == len(expected)


@pytest.mark.parametrize("data", QUIRKS[0:1] + QUIRKS[6:7] + QUIRKS[10:11], ids=lambda q: q[0] if isinstance(q, tuple) else "")
def test_every_split_point_gives_the_same_result(data: tuple) -> None:
    _, raw, expected, _ = data
    for cut in range(len(raw) + 1):
        dec = p.Decoder()
        assert dec.feed(raw[:cut]) + dec.feed(raw[cut:]) == expected, cut
    dec = p.Decoder()  # one byte at a time, as a slow UART delivers them
    assert [m for i in range(len(raw)) for m in dec.feed(raw[i:i + 1])] == expected


def _checksummed(body: bytes) -> bytes:
    return b"$" + body + b"*%04X\n" % binascii.crc_hqx(body, 0xFFFF)


def test_good_checksum_but_not_understood() -> None:
    dec = p.Decoder()
    out = dec.feed(
        _checksummed(b"5 WOBBLE 1")  # a type from a newer firmware
        + _checksummed(b"6 LIGHT 300 0 0 0")  # out of range
        + _checksummed(b"7 PRESS 1")  # too few arguments
        + _checksummed(b"8 LIGHT 10 1 2 3 extra")  # extra trailing arguments: ignored
        + _checksummed(b"9 STATUS \xc3\xa9")  # not ASCII
        + _checksummed(b"x PRESS 1 2")  # no sequence number: nothing to answer
        + _checksummed(b"70000 PRESS 1 2")  # sequence number out of range
        + _checksummed(b"1 press 1 2")  # type not upper-case
    )
    assert out == [
        p.Unknown("WOBBLE", ("1",), "unknown", 5),
        p.Unknown("LIGHT", ("300", "0", "0", "0"), "args", 6),
        p.Unknown("PRESS", ("1",), "args", 7),
        p.Light(10, 1, 2, 3, seq=8),
        p.Unknown("STATUS", (), "non-ascii", 9),
    ]
    assert (dec.stats.unknown, dec.stats.malformed) == (4, 3)


def test_partial_frame_is_kept_between_feeds_but_bounded() -> None:
    dec = p.Decoder()
    assert dec.feed(b"$1 HB 1") == []
    assert dec.feed(b"2" * 500) == []  # too long to be a frame any more: given up
    assert len(dec._buf) == 0 and dec.stats.dropped == 1
    assert dec.feed(F1) == [M1]


def test_feed_accepts_bytearray_and_memoryview_and_ignores_nonsense() -> None:
    dec = p.Decoder()
    assert dec.feed(bytearray(F1)) == [M1]
    assert dec.feed(memoryview(F2)) == [M2]
    assert dec.feed("not bytes") == []  # type: ignore[arg-type]
    assert dec.feed(None) == []  # type: ignore[arg-type]


messages = st.one_of(
    st.builds(p.Motion, st.integers(0, 2**32 - 1), seq=st.integers(0, 65535)),
    st.builds(p.Settled, st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), seq=st.integers(0, 65535)),
    st.builds(p.Press, st.integers(1, 16), st.integers(0, 2**32 - 1), seq=st.integers(0, 65535)),
    st.builds(p.Light, st.integers(0, 255), st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
              seq=st.integers(0, 65535)),
    st.builds(p.Status, st.sampled_from(p.PATTERNS), seq=st.integers(0, 65535)),
    st.builds(p.Hello, st.integers(0, 9), st.integers(0, 9), st.from_regex(r"[a-z0-9.]{1,12}", fullmatch=True),
              st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True), st.integers(0, 65535), seq=st.integers(0, 65535)),
)


@given(st.lists(st.tuples(st.binary(max_size=40), messages), max_size=12), st.binary(max_size=40),
       st.lists(st.integers(1, 64), min_size=1, max_size=8))
def test_every_good_frame_after_any_garbage_is_recovered(pairs: list, tail: bytes, chunks: list[int]) -> None:
    stream = b"".join(g + p.encode(m) for g, m in pairs) + tail
    dec = p.Decoder()
    out: list = []
    i = k = 0
    while i < len(stream):  # arbitrary read sizes
        n = chunks[k % len(chunks)]
        out += dec.feed(stream[i:i + n])
        i += n
        k += 1
    assert out == [m for _, m in pairs]


@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    dec = p.Decoder()
    dec.feed(data)
    dec.feed(data[::-1])
    assert len(dec._buf) < p.MAX_FRAME
    reader = wire.LineReader()
    for msg in reader.feed(data):
        assert isinstance(msg, tuple)


@given(st.binary(max_size=200))
def test_firmware_crc_matches_the_host(data: bytes) -> None:
    assert wire.crc16(data) == p.crc16(data)


def test_a_million_random_bytes() -> None:
    rng = random.Random(20261130)
    data = rng.randbytes(1_000_000)
    dec = p.Decoder()
    pos = 0
    found = []
    while pos < len(data):
        n = rng.randint(1, 4096)
        found += dec.feed(data[pos:pos + n])
        pos += n
    s = dec.stats
    assert s.garbage_bytes + len(dec._buf) >= 1_000_000 - 200 * len(found)
    assert dec.stats.dropped > 1000  # random data holds about 4,000 "$"
    # and the decoder still works afterwards
    assert dec.feed(b"\n" + F1) == [M1]
