"""``--tray auto`` on a Pi: the udev rule's /dev/companion-tray first, else the Pico by
vendor:product under its /dev/serial/by-id name; tested with a fake /dev folder."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge import ports
from firmware_bridge.emulator import TrayEmulator
from firmware_bridge.link import LinkSettings, TrayLink
from firmware_bridge.ports import PICO_USB_ID, by_id_names, find_usb_port

PICO_BY_ID = "usb-MicroPython_Board_in_FS_mode_e6613852a73b2d34-if00"


def _port(device: str, vid: int | None, pid: int | None) -> Any:
    return SimpleNamespace(device=device, vid=vid, pid=pid)


def _fake_dev(tmp_path: Path, devices: dict[str, str]) -> Path:
    """tmp/dev with the tty files and serial/by-id links (``{by-id name: tty}``), relative
    links as udev makes them."""
    dev = tmp_path / "dev"
    (dev / "serial" / "by-id").mkdir(parents=True)
    for name, tty in devices.items():
        (dev / tty).touch()
        os.symlink(f"../../{tty}", dev / "serial" / "by-id" / name)
    return dev


def test_the_pico_is_found_by_its_by_id_name(tmp_path: Path) -> None:
    dev = _fake_dev(tmp_path, {"usb-1a86_USB_Serial-if00-port0": "ttyUSB0", PICO_BY_ID: "ttyACM1"})
    listed = [_port("/dev/ttyUSB0", 0x1A86, 0x7523), _port("/dev/ttyACM1", *PICO_USB_ID), _port("/dev/ttyAMA0", None, None)]
    got = find_usb_port((PICO_USB_ID,), dev_dir=dev, comports=lambda: listed)
    assert got == str(dev / "serial" / "by-id" / PICO_BY_ID)
    # another vendor:product asked for: its own by-id name
    assert find_usb_port(((0x1A86, 0x7523),), dev_dir=dev, comports=lambda: listed) == \
        str(dev / "serial" / "by-id" / "usb-1a86_USB_Serial-if00-port0")


def test_the_udev_name_comes_first_and_only_for_the_pico(tmp_path: Path) -> None:
    dev = _fake_dev(tmp_path, {PICO_BY_ID: "ttyACM0"})
    os.symlink("ttyACM0", dev / "companion-tray")
    listed = [_port("/dev/ttyACM0", *PICO_USB_ID), _port("/dev/ttyUSB0", 0x1A86, 0x7523)]
    assert find_usb_port((PICO_USB_ID,), dev_dir=dev, comports=lambda: listed) == str(dev / "companion-tray")
    assert find_usb_port(((0x1A86, 0x7523),), dev_dir=dev, comports=lambda: listed) == "/dev/ttyUSB0"


def test_unplugged_means_none_even_with_stale_links(tmp_path: Path) -> None:
    dev = _fake_dev(tmp_path, {PICO_BY_ID: "ttyACM0"})
    os.symlink("ttyACM0", dev / "companion-tray")
    (dev / "ttyACM0").unlink()  # unplugged: the links dangle until udev removes them
    assert by_id_names(dev) == {}
    assert find_usb_port((PICO_USB_ID,), dev_dir=dev, comports=lambda: []) is None


def test_without_by_id_the_device_itself_and_a_broken_listing_is_none(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    assert find_usb_port((PICO_USB_ID,), dev_dir=dev, comports=lambda: [_port("/dev/ttyACM3", *PICO_USB_ID)]) \
        == "/dev/ttyACM3"

    def broken() -> list[Any]:
        raise OSError("sysfs went away")

    assert find_usb_port((PICO_USB_ID,), dev_dir=dev, comports=broken) is None


@pytest.mark.parametrize("how", ["udev", "by-id"])
def test_tray_auto_connects_through_the_name_it_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       how: str) -> None:
    """The real link, spec ``auto``, reaching the emulated tray through the fake names."""
    dev = tmp_path / "dev"
    (dev / "serial" / "by-id").mkdir(parents=True)
    monkeypatch.setattr(ports, "DEV_DIR", dev)
    with TrayEmulator() as emu:
        if how == "udev":
            os.symlink(emu.port, dev / "companion-tray")
            listed: list[Any] = []
            want = str(dev / "companion-tray")
        else:
            os.symlink(emu.port, dev / "serial" / "by-id" / PICO_BY_ID)
            listed = [_port(emu.port, *PICO_USB_ID)]
            want = str(dev / "serial" / "by-id" / PICO_BY_ID)
        monkeypatch.setattr("serial.tools.list_ports.comports", lambda: listed)
        link = TrayLink("auto", LinkSettings())
        try:
            link.start()
            assert link.wait_connected(20), link.stats.last_error
            assert link.info is not None and link.info.protocol >= 1
            assert link._device == want  # the name the link opened (no public accessor)
        finally:
            link.stop()
