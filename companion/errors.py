"""The core's exception hierarchy.

Every error a user can cause (a malformed event, a move the rules forbid, a corrupt log
line) is a :class:`CompanionError`, a ``ValueError``: callers catch it, show its message
and change nothing.
"""

from __future__ import annotations


class CompanionError(ValueError):
    """Base class of every user-facing error of the core."""


class EventError(CompanionError):
    """An event is malformed: unknown type, missing or wrongly typed field."""


class RuleError(CompanionError):
    """An event is well formed but the rules forbid it now.

    ``rule`` names the rule of the spec that forbids it (``"R21"``, ``"D7"``...), so the
    tablet can say why.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base} [{self.rule}]" if self.rule else base


class LogError(CompanionError):
    """The table log cannot be read or written (corrupt line, wrong file)."""


class InvariantError(RuntimeError):
    """The program broke one of its own invariants (a bug, never the user's input): raised
    where an ``assert`` would vanish under ``python -O``. Not a :class:`CompanionError`, so
    it is never shown to the players as a refused move."""


class CameraGone(RuntimeError):
    """No frame: the camera is unplugged, busy or missing (the roll service and the
    calibration pages wait for it to come back; manual entry keeps working)."""
