"""Events: the only way anything changes at the table.

An event is a plain value. Its JSON form (one line of a ``.jsonl`` log, one row of the
SQLite log, the body of ``POST /api/events``) is::

    {"type": "peripeties.episode", "data": {...}, "source": "manual",
     "seq": 12, "at": "2026-11-30T20:14:03Z", "by": "tablet"}

Only ``type`` is required; ``data`` defaults to ``{}``, ``source`` to ``"manual"``.
``seq`` and ``at`` are given by the log when the event is appended; the rules never read
``at`` (no clock in the rules). See ``docs/events.md`` for every type.

:func:`parse_event` is a pure function: it either returns an :class:`Event` or raises
:class:`~companion.errors.EventError` with a message saying what is wrong.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

from .errors import EventError, bilingual

__all__ = ["Event", "Source", "parse_event", "event_from_json_line", "TABLE_EVENT_TYPES"]


class Source(str, Enum):
    """Where an input came from; shown beside every outcome for audit."""

    MANUAL = "manual"  # typed or tapped by hand on the tablet
    CAMERA = "camera"  # read by the camera
    CORRECTION = "correction"  # a camera read corrected by hand
    TRAY = "tray"  # a tray button or sensor
    SYSTEM = "system"  # rolled by the software for a die nobody owns


#: Event types handled by the table itself rather than by a game.
TABLE_EVENT_TYPES = frozenset({"table.new_game", "undo"})

_TYPE_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")


@dataclass(frozen=True)
class Event:
    """One input at the table."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    source: Source = Source.MANUAL
    seq: int | None = None
    at: str | None = None
    by: str | None = None

    @property
    def game(self) -> str | None:
        """The game prefix of the type (``"peripeties"`` for ``"peripeties.episode"``)."""
        if self.type in TABLE_EVENT_TYPES or "." not in self.type:
            return None
        return self.type.split(".", 1)[0]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "data": dict(self.data), "source": self.source.value}
        if self.seq is not None:
            out["seq"] = self.seq
        if self.at is not None:
            out["at"] = self.at
        if self.by is not None:
            out["by"] = self.by
        return out

    def with_seq(self, seq: int, at: str | None = None) -> "Event":
        return Event(self.type, self.data, self.source, seq, at if at is not None else self.at, self.by)


def parse_event(obj: Any) -> Event:
    """Validate the envelope of an event given as a JSON-like object.

    The game-specific content of ``data`` is checked by the game's rules when the event
    is applied.
    """
    if not isinstance(obj, Mapping):
        raise bilingual(EventError, f"un événement est un objet JSON, pas un {type(obj).__name__}",
                        f"an event must be a JSON object, not {type(obj).__name__}")
    unknown = set(obj) - {"type", "data", "source", "seq", "at", "by"}
    if unknown:
        names = ", ".join(sorted(unknown))
        raise bilingual(EventError, f"champ(s) d'événement inconnu(s)\u202f: {names}", f"unknown event field(s): {names}")
    etype = obj.get("type")
    if not isinstance(etype, str) or not etype:
        raise bilingual(EventError, "un événement demande un «\u202ftype\u202f» (un texte comme «\u202fperipeties.episode\u202f»)",
                        "an event needs a 'type' (a string such as 'peripeties.episode')")
    if not _TYPE_RE.match(etype):
        raise bilingual(EventError, f"type d'événement mal formé {etype!r}\u202f: des mots en minuscules séparés par des points",
                        f"malformed event type {etype!r}: lower-case words separated by dots")
    data = obj.get("data", {})
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise bilingual(EventError, f"«\u202fdata\u202f» est un objet JSON, pas un {type(data).__name__}",
                        f"'data' must be a JSON object, not {type(data).__name__}")
    source_raw = obj.get("source", "manual")
    try:
        source = Source(source_raw)
    except ValueError:
        allowed = ", ".join(s.value for s in Source)
        raise bilingual(EventError, f"source inconnue {source_raw!r}\u202f; attendu\u202f: l'une de {allowed}",
                        f"unknown source {source_raw!r}; expected one of {allowed}") from None
    seq = obj.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool) or seq < 1):
        raise bilingual(EventError, "«\u202fseq\u202f» doit être un entier positif", "'seq' must be a positive integer")
    at = obj.get("at")
    if at is not None and not isinstance(at, str):
        raise bilingual(EventError, "«\u202fat\u202f» doit être un texte ISO 8601", "'at' must be an ISO 8601 string")
    by = obj.get("by")
    if by is not None and not isinstance(by, str):
        raise bilingual(EventError, "«\u202fby\u202f» doit être un texte", "'by' must be a string")
    return Event(etype, dict(data), source, seq, at, by)


def event_from_json_line(line: str, lineno: int | None = None) -> Event:
    """Parse one line of a JSON-lines log."""
    where = f"line {lineno}: " if lineno is not None else ""
    fr_where = f"ligne {lineno}\u202f: " if lineno is not None else ""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise bilingual(EventError, f"{fr_where}JSON invalide ({exc.msg}, colonne {exc.colno})",
                        f"{where}not valid JSON ({exc.msg} at column {exc.colno})") from None
    try:
        return parse_event(obj)
    except EventError as exc:
        said = getattr(exc, "text", None) or {"fr": str(exc), "en": str(exc)}
        raise bilingual(EventError, f"{fr_where}{said['fr']}", f"{where}{said['en']}") from None
