"""The tray package's exceptions: every one is a :class:`~companion.errors.CompanionError`
(a ``ValueError``), so the command line shows its message and changes nothing."""

from __future__ import annotations

from companion.errors import CompanionError

__all__ = ["TrayError", "ProtocolError", "PortError"]


class TrayError(CompanionError):
    """Something about the tray is wrong: a bad command, an unknown port spec."""


class ProtocolError(TrayError):
    """A message cannot be encoded: a field out of range, a token with a space in it."""


class PortError(TrayError):
    """A port specification cannot be understood (``COMPANION_TRAY`` or ``--port``)."""
