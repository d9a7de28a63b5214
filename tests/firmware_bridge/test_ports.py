"""Port specifications: argument, then $COMPANION_TRAY, then auto."""

from __future__ import annotations

import pytest

from firmware_bridge.errors import PortError
from firmware_bridge.ports import PICO_USB_ID, PortSpec, parse_spec


@pytest.mark.parametrize("spec,expected", [
    ("auto", PortSpec("auto", usb_ids=(PICO_USB_ID,))),
    (" AUTO ", PortSpec("auto", usb_ids=(PICO_USB_ID,))),
    ("usb:2e8a:0005", PortSpec("usb", usb_ids=((0x2E8A, 0x0005),))),
    ("USB:1A86:7523", PortSpec("usb", usb_ids=((0x1A86, 0x7523),))),
    ("/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6613852-if00",
     PortSpec("path", path="/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6613852-if00")),
    ("/dev/ttyACM0", PortSpec("path", path="/dev/ttyACM0")),
    ("socket://192.168.1.20:7000", PortSpec("url", path="socket://192.168.1.20:7000")),
    ("emulated", PortSpec("emulated")), ("fake", PortSpec("emulated")),
    ("none", PortSpec("none")), ("off", PortSpec("none")),
    ("gpio", PortSpec("gpio", gpio=(17, 27))), ("gpio:5", PortSpec("gpio", gpio=(5, 27))),
    ("gpio:5:6", PortSpec("gpio", gpio=(5, 6))),
])
def test_specs(spec: str, expected: PortSpec) -> None:
    assert parse_spec(spec) == expected


@pytest.mark.parametrize("spec", ["", "   ", "usb:2e8a", "usb:xyz:1", "gpio:a", "gpio:1:2:3", "gpio:40"])
def test_bad_specs_say_what_to_write(spec: str) -> None:
    with pytest.raises(PortError) as err:
        parse_spec(spec)
    assert isinstance(err.value, ValueError) and len(str(err.value)) > 20


def test_argument_then_environment_then_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_TRAY", raising=False)
    assert parse_spec(None).kind == "auto"
    monkeypatch.setenv("COMPANION_TRAY", "emulated")
    assert parse_spec(None).kind == "emulated"
    assert parse_spec("/dev/ttyACM1").kind == "path"
