"""Which tray to use: a port specification, given by argument, else ``$COMPANION_TRAY``.

=====================  ================================================================
``auto`` (default)     ``/dev/companion-tray`` when the udev rule made it
                       (``deploy/99-companion-tray.rules``), else the first USB serial
                       port with a known vendor:product (a Pico running MicroPython is
                       ``2e8a:0005``), by its ``/dev/serial/by-id/...`` name when it has
                       one; looked up again on every reconnect
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
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import PortError

__all__ = ["ENV_VAR", "PICO_USB_ID", "UDEV_NAME", "DEV_DIR", "PortSpec", "parse_spec", "find_usb_port", "by_id_names"]

ENV_VAR = "COMPANION_TRAY"
#: USB vendor:product of a Raspberry Pi Pico running MicroPython.
PICO_USB_ID = (0x2E8A, 0x0005)
#: The stable name the udev rule gives the Pico (``/dev/companion-tray``).
UDEV_NAME = "companion-tray"
#: Where device names live (tests point it at a fake folder).
DEV_DIR = Path("/dev")


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


def by_id_names(dev_dir: Path | None = None) -> dict[str, str]:
    """``/dev/serial/by-id`` as ``{device name: by-id path}`` (e.g. ``ttyACM0`` ->
    ``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6613852-if00``); empty when the
    folder is absent (no USB serial device plugged in, or no udev)."""
    folder = (dev_dir if dev_dir is not None else DEV_DIR) / "serial" / "by-id"
    names: dict[str, str] = {}
    try:
        links = sorted(folder.iterdir())
    except OSError:
        return names
    for link in links:
        try:
            target = link.resolve(strict=True)
        except OSError:  # a link left dangling by an unplug
            continue
        names.setdefault(target.name, str(link))
    return names


def find_usb_port(usb_ids: tuple[tuple[int, int], ...], *, dev_dir: Path | None = None,
                  comports: Callable[[], Iterable[Any]] | None = None) -> str | None:
    """The tray's port for ``auto`` and ``usb:VID:PID``, or None when it is not plugged in.

    1. ``/dev/companion-tray``, the udev rule's name, when the Pico's id is wanted and the
       name leads to a device (udev removes it on unplug);
    2. else the first serial port with a wanted vendor:product (in the order of
       ``usb_ids``), by its ``/dev/serial/by-id`` name when it has one, which stays the
       same whatever USB socket the tray is in, else by its device (``/dev/ttyACM0``).

    ``dev_dir`` (default :data:`DEV_DIR`) and ``comports`` (default pyserial's
    ``list_ports.comports``) are for tests.
    """
    dev = dev_dir if dev_dir is not None else DEV_DIR
    if PICO_USB_ID in usb_ids:
        link = dev / UDEV_NAME
        if os.path.exists(link):
            return str(link)
    if comports is None:
        from serial.tools import list_ports

        comports = list_ports.comports
    try:
        ports = sorted(comports(), key=lambda p: p.device)
    except Exception:  # a broken sysfs entry must not stop the search
        return None
    by_id = by_id_names(dev)
    for want in usb_ids:
        for p in ports:
            if (p.vid, p.pid) == want:
                return by_id.get(os.path.basename(os.path.realpath(str(p.device))), str(p.device))
    return None
