"""What the ESPRI table waits for (``state_json()["expects"]``), one class per step.

Built by :func:`companion.games.espri.view.expects_of`; the module docstring of
:mod:`companion.games.espri.view` says when each step comes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

from ..expects import Label, Step, optional

__all__ = ["SetupKeep", "SetupDraw", "SetupGm", "Idle", "Draw", "Choose", "Extras", "KeepPrayer", "Cell",
           "RuptureRemoval", "Other", "EspriStep", "STEPS"]


@dataclass(frozen=True)
class SetupKeep(Step):
    """A character's set-up draw is in: they keep ``keep`` gems of ``hand``."""

    step: Literal["setup_keep"]
    who: str
    character: str
    hand: tuple[str, ...]
    keep: int


@dataclass(frozen=True)
class SetupDraw(Step):
    """A character draws ``gems`` gems at set-up (``espri.setup_draw``; the camera reads them)."""

    step: Literal["setup_draw"]
    who: str
    character: str
    gems: int


@dataclass(frozen=True)
class SetupGm(Step):
    """The GM places up to ``ruptures`` Rupture gems."""

    step: Literal["setup_gm"]
    who: Literal["gm"]
    ruptures: int


@dataclass(frozen=True)
class Idle(Step):
    """Idle: the GM may announce an Appel. When nobody can lead one (every character
    fallen, R34): ``fallen`` (their ids) and ``blocked`` (why, and the ways on)."""

    step: Literal["appel"]
    who: Literal["gm"]
    fallen: tuple[str, ...] | None = optional()
    blocked: Label | None = optional()


@dataclass(frozen=True)
class Draw(Step):
    """The leader draws ``gems`` gems (``espri.draw``; the camera reads them). ``N``: the
    signed gem count; ``temptation``: Temptation may still be taken."""

    step: Literal["draw"]
    who: Literal["leader"]
    gems: int
    N: int
    automatic: str | None
    temptation: bool


@dataclass(frozen=True)
class Choose(Step):
    """The ``chooser`` picks one of ``selections`` among the ``candidates`` gems (or a
    re-draw by ``redraw``, or a prayer of ``prayers``)."""

    step: Literal["choose"]
    chooser: str
    who: str
    selections: tuple[Mapping[str, Any], ...]
    candidates: tuple[str, ...]
    redraw: str | None
    prayers: tuple[str, ...]


@dataclass(frozen=True)
class Extras(Step):
    """The leader places ``count`` extra gems among ``gems``."""

    step: Literal["extras"]
    who: Literal["leader"]
    count: int
    gems: tuple[str, ...]


@dataclass(frozen=True)
class KeepPrayer(Step):
    """The leader keeps one prayer gem among ``gems``."""

    step: Literal["keep_prayer"]
    who: Literal["leader"]
    gems: tuple[str, ...]


@dataclass(frozen=True)
class Cell(Step):
    """A board cell: its quadrant's season and its number."""

    quadrant: str
    cell: int


@dataclass(frozen=True)
class RuptureRemoval(Step):
    """The leader removes a Rupture gem from one of ``cells``."""

    step: Literal["rupture_removal"]
    who: Literal["leader"]
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Other(Step):
    """An Appel step without its own class (none today)."""

    step: str


EspriStep = SetupKeep | SetupDraw | SetupGm | Idle | Draw | Choose | Extras | KeepPrayer | RuptureRemoval | Other
STEPS = (SetupKeep, SetupDraw, SetupGm, Idle, Draw, Choose, Extras, KeepPrayer, RuptureRemoval)
