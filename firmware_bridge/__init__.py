"""The dice tray: serial protocol, a link that survives unplugging, emulator, firmware, Pi GPIO.

The server asks :func:`open_tray` for its tray; everything else is imported lazily, so
importing this package costs nothing (``companion odds`` imports the CLI modules).

- :mod:`firmware_bridge.protocol`: messages, ``encode``, ``Decoder`` (pure)
- :mod:`firmware_bridge.session`: :class:`~firmware_bridge.session.Session`, the host side of the protocol, no I/O
- :mod:`firmware_bridge.link`: :class:`~firmware_bridge.link.TrayLink`, the port and threads around a session
- :mod:`firmware_bridge.fake`: :class:`~firmware_bridge.fake.FakeTray`, a tray for tests (records, emits on demand)
- :mod:`firmware_bridge.emulator`: :class:`~firmware_bridge.emulator.TrayEmulator` on a pseudo-terminal
- :mod:`firmware_bridge.firmware`: the reference MicroPython firmware for a Pico
- :mod:`firmware_bridge.gpio`: :class:`~firmware_bridge.gpio.GpioTray`, a button and LED on the Pi
- :mod:`firmware_bridge.events`: what subscribers receive
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .events import TraySource
    from .link import LinkSettings

__all__ = ["open_tray"]


def open_tray(spec: str | None = None, settings: "LinkSettings | None" = None, *,
              pin_factory: Any = None, emulator_options: dict[str, Any] | None = None) -> "TraySource | None":
    """The tray named by ``spec``, else ``$COMPANION_TRAY``, else ``auto`` (not started).

    Returns a :class:`~firmware_bridge.link.TrayLink` for a serial port, ``auto`` or
    ``emulated``; a :class:`~firmware_bridge.gpio.GpioTray` for ``gpio[:BUTTON[:LED]]``;
    None for ``none``. Raises :class:`~firmware_bridge.errors.PortError` for a spec it
    cannot understand. See :mod:`firmware_bridge.ports`.
    """
    import os

    from .ports import ENV_VAR, parse_spec

    raw = spec if spec is not None else os.environ.get(ENV_VAR, "auto")
    parsed = parse_spec(raw)
    if parsed.kind == "none":
        return None
    if parsed.kind == "gpio":
        from .gpio import GpioTray

        return GpioTray(parsed.gpio[0], parsed.gpio[1], pin_factory=pin_factory)
    from .link import TrayLink

    return TrayLink(raw, settings, emulator_options=emulator_options)
