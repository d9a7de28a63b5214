"""Which tray to use: a port specification, given by argument, else ``$COMPANION_TRAY``.

=====================  ================================================================
``auto`` (default)     the first USB serial port with a known vendor:product (a Pico
                       running MicroPython is ``2e8a:0005``), looked up again on every
                       reconnect
``usb:2e8a:0005``      the first port with that vendor:product
``/dev/ttyACM0``       a path; best a stable one, ``/dev/serial/by-id/usb-...``, that
                       follows the tray when it is plugged into another USB socket
``socket://host:port`` any pyserial URL (a tray on another machine)
``emulated``/``fake``  an in-process :class:`~firmware_bridge.emulator.TrayEmulator`
``gpio[:BTN[:LED]]``   no microcontroller: a button and LED wired to the Pi's GPIO
``none``/``off``       no tray at all
=====================  ================================================================
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import PortError

__all__ = ["ENV_VAR", "PICO_USB_ID", "PortSpec", "parse_spec", "find_usb_port"]

ENV_VAR = "COMPANION_TRAY"
#: USB vendor:product of a Raspberry Pi Pico running MicroPython.
PICO_USB_ID = (0x2E8A, 0x0005)


@dataclass(frozen=True)
class PortSpec:
    """A parsed specification. ``kind`` is auto, usb, path, url, emulated, gpio or none."""

    kind: str
    path: str = ""
    usb_ids: tuple[tuple[int, int], ...] = ()
    gpio: tuple[int, int] = (17, 27)


def parse_spec(spec: str | None = None, usb_ids: tuple[tuple[int, int], ...] = (PICO_USB_ID,)) -> PortSpec:
    """Parse ``spec``, or ``$COMPANION_TRAY`` when it is None, or ``auto``."""
    raw = spec if spec is not None else os.environ.get(ENV_VAR, "auto")
    text = raw.strip()
    low = text.lower()
    if not text:
        raise PortError("empty tray port; use a path, 'auto', 'emulated', 'gpio' or 'none'")
    if low == "auto":
        return PortSpec("auto", usb_ids=usb_ids)
    if low in ("emulated", "emulator", "fake"):
        return PortSpec("emulated")
    if low in ("none", "off", "no"):
        return PortSpec("none")
    if low.startswith("usb:"):
        parts = low.split(":")
        try:
            if len(parts) != 3:
                raise ValueError
            vid, pid = int(parts[1], 16), int(parts[2], 16)
        except ValueError:
            raise PortError(f"bad USB id {text!r}: write usb:VENDOR:PRODUCT in hexadecimal, e.g. usb:2e8a:0005") from None
        return PortSpec("usb", usb_ids=((vid, pid),))
    if low == "gpio" or low.startswith("gpio:"):
        parts = low.split(":")[1:]
        try:
            pins = [int(p) for p in parts]
        except ValueError:
            raise PortError(f"bad GPIO spec {text!r}: write gpio, gpio:BUTTON or gpio:BUTTON:LED (BCM numbers)") from None
        if len(pins) > 2 or any(not 0 <= p <= 27 for p in pins):
            raise PortError(f"bad GPIO spec {text!r}: at most two BCM pin numbers from 0 to 27")
        defaults = [17, 27]
        pins = pins + defaults[len(pins):]
        return PortSpec("gpio", gpio=(pins[0], pins[1]))
    if "://" in text:
        return PortSpec("url", path=text)
    return PortSpec("path", path=text)


def find_usb_port(usb_ids: tuple[tuple[int, int], ...]) -> str | None:
    """The device of the first serial port whose USB vendor:product is in ``usb_ids``."""
    from serial.tools import list_ports

    try:
        ports = sorted(list_ports.comports(), key=lambda p: p.device)
    except Exception:  # a broken sysfs entry must not stop the search
        return None
    for want in usb_ids:
        for p in ports:
            if (p.vid, p.pid) == want:
                return str(p.device)
    return None
