"""The reader's result: what lies in the tray, how sure we are, and where.

A :class:`Read` is plain data (JSON via :meth:`Read.to_json`), the contract between the
vision pipeline, the table log (camera events carry it) and the tablet (which draws the
boxes on the photo and lets players correct a die).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ObjectRead", "Read", "KINDS", "STATUS_READ", "STATUS_PENDING"]

#: Object kinds a read may report. Symbol dice use the French names the tablet shows:
#: the three blue péripétie dice are ``lieu`` (location), ``adversaire`` and ``epreuve``
#: (trial); ``recompense`` is the yellow reward die, ``sentence`` the red one.
KINDS = ("d6", "d4", "d10", "d12", "lieu", "adversaire", "epreuve", "recompense", "sentence", "gem")

STATUS_READ = "read"
STATUS_PENDING = "pending"


@dataclass(frozen=True)
class ObjectRead:
    """One die or gem.

    ``value`` is the face (an int for numeric dice: d10's 0 face is 10; the face key for
    symbol dice, e.g. ``"montagne"``; the colour for gems: ``printemps``/``ete``/
    ``automne``/``hiver``/``temps``/``rupture``) or ``None`` when unknown. ``box`` is
    ``(x, y, w, h)`` in pixels of the input image. ``status`` is ``"pending"`` when the
    confidence is below the threshold or the two best candidates are close: the
    companion then asks the players instead of guessing. ``colour``: see below.
    """

    kind: str
    value: int | str | None
    box: tuple[int, int, int, int]
    confidence: float
    status: str = STATUS_READ
    candidates: tuple[tuple[int | str, float], ...] = ()
    #: The die's body colour, a word of :data:`vision.die_colour.PALETTE` or
    #: ``"unknown"``; ``None`` when not looked at (gems: their colour is their value).
    colour: str | None = None
    #: How sure the reader is that the object is of ``kind`` at all, apart from which
    #: face is up (the numeral networks: 1 - their "other" probability); ``None`` when
    #: the reader does not say. Used to weigh claims (:func:`vision.claims.best_claim`),
    #: not shown.
    kind_confidence: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "value": self.value,
            "box": [int(v) for v in self.box],
            "confidence": round(float(self.confidence), 4),
            "status": self.status,
        }
        if self.candidates:
            out["candidates"] = [[v, round(float(s), 4)] for v, s in self.candidates]
        if self.colour is not None:
            out["colour"] = self.colour
        return out


@dataclass(frozen=True)
class Read:
    """Everything read in one frame. ``error`` explains an empty read (unreadable file,
    black frame...): the reader never raises on a bad image."""

    objects: tuple[ObjectRead, ...] = ()
    image: str | None = None
    ms: float = 0.0
    size: tuple[int, int] | None = None  # (width, height) of the input image
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def pending(self) -> tuple[ObjectRead, ...]:
        return tuple(o for o in self.objects if o.status == STATUS_PENDING)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "image": self.image,
            "ms": round(self.ms, 2),
            "objects": [o.to_json() for o in self.objects],
        }
        if self.size is not None:
            out["size"] = list(self.size)
        if self.error is not None:
            out["error"] = self.error
        return out
