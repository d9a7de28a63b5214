"""The core's exception hierarchy.

Every error a user can cause (a malformed event, a move the rules forbid, a corrupt log
line) is a :class:`CompanionError`, a ``ValueError``: callers catch it, show its message
and change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar


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


E = TypeVar("E", bound=CompanionError)


def bilingual(cls: type[E], fr: str, en: str, **kwargs: Any) -> E:
    """A user-facing error in both languages: its message is ``"fr / en"`` (French first,
    for a caller that shows ``str(error)``), ``error.text`` holds ``{"fr", "en"}`` apart for
    a page that shows one language (``web/api.py`` sends both; the tablet shows its own).
    The one place such an error is built: :mod:`companion.games.refusal` wraps it for the
    games, the table and the events use it directly."""
    err = cls(f"{fr} / {en}", **kwargs)
    setattr(err, "text", {"fr": fr, "en": en})
    return err


def texts(err: BaseException) -> dict[str, str]:
    """An error's French and English texts, as :func:`bilingual` keeps them (its message
    twice when it carries none)."""
    said = getattr(err, "text", None)
    if isinstance(said, Mapping) and said.get("fr") and said.get("en"):
        return {"fr": str(said["fr"]), "en": str(said["en"])}
    return {"fr": str(err), "en": str(err)}


class LogError(CompanionError):
    """The table log cannot be read or written (corrupt line, wrong file)."""


class InvariantError(RuntimeError):
    """The program broke one of its own invariants (a bug, never the user's input): raised
    where an ``assert`` would vanish under ``python -O``. Not a :class:`CompanionError`, so
    it is never shown to the players as a refused move."""


class CameraGone(RuntimeError):
    """No frame: the camera is unplugged, busy or missing (the roll service and the
    calibration pages wait for it to come back; manual entry keeps working)."""
