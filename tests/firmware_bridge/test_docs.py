"""The protocol specification's example frames must stay true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge import protocol as p

ROOT = Path(__file__).resolve().parents[2]


def _spec() -> str:
    for path in (ROOT / "docs" / "hardware-tray.md", ROOT / "hardware.md", ROOT / "docs" / "hardware.md"):
        if path.exists() and "## The tray protocol" in path.read_text(encoding="utf-8"):
            return path.read_text(encoding="utf-8")
    pytest.skip("no tray protocol section found")


def test_every_example_frame_in_the_spec_decodes() -> None:
    frames = re.findall(r"\$\d+ [A-Z]+[^*\n`]*\*[0-9A-F]{4}", _spec())
    assert len(frames) >= 6
    dec = p.Decoder()
    for frame in frames:
        out = dec.feed(frame.encode() + b"\n")
        assert len(out) == 1 and not isinstance(out[0], p.Unknown), frame
        assert p.encode(out[0]).decode().strip() == frame


def test_the_spec_lists_every_message_type_and_pattern() -> None:
    spec = _spec()
    for name in ("HELLO", "HB", "ACK", "NAK", "MOTION", "SETTLED", "PRESS", "RELEASE", "LIGHT", "STATUS", "SET"):
        assert f"| `{name}` |" in spec, name
    for pattern in p.PATTERNS:
        assert f"`{pattern}`" in spec
    for key, (lo, hi) in p.SETTINGS.items():
        assert f"`{key}` ({lo}–{hi}" in spec


def test_the_example_frame_in_the_protocol_docstring_decodes() -> None:
    (frame,) = re.findall(r"e\.g\.\s+(\$[^\n]*\*[0-9A-F]{4})", p.__doc__ or "")
    (msg,) = p.Decoder().feed(frame.encode() + b"\n")
    assert not isinstance(msg, p.Unknown) and p.encode(msg).decode().strip() == frame
