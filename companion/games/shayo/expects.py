"""What the Shayo table waits for (``state_json()["expects"]``), one class per step.

Built by :func:`companion.games.shayo.view.expects_of`; the module docstring of
:mod:`companion.games.shayo.view` says when each step comes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

from ..expects import DiceWanted, Label, Step, optional

__all__ = ["Roll", "SignatureRef", "RerollDice", "Signatures", "Defence", "Idle", "ShayoStep", "STEPS"]


@dataclass(frozen=True)
class Roll(Step):
    """A test waits for its ``dice`` (``keep`` of them count). ``odds``: exact odds (None
    for a pool the odds do not cover); ``ki``: the Ki the roller may still add."""

    step: Literal["roll"]
    who: str | None
    kind: str
    dice: tuple[DiceWanted, ...]
    keep: int
    difficulty: int
    odds: Mapping[str, Any] | None
    ki: Mapping[str, Any] | None = optional()
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class SignatureRef(Step):
    """The signature a re-roll was declared with."""

    id: str
    fr: str
    en: str
    which: str | None


@dataclass(frozen=True)
class RerollDice(Step):
    """A declared re-roll waits for its new faces: the dice at ``indices`` rolled again
    (``mode`` ``replace`` / ``explode``) or new dice joining the pool (``extra_die``);
    ``faces``: the pool as it lies in the tray (an exploded 10 + x showing x)."""

    step: Literal["reroll_dice"]
    who: str | None
    kind: str
    signature: SignatureRef
    indices: tuple[int, ...]
    mode: str
    dice: tuple[DiceWanted, ...]
    faces: tuple[int, ...]
    keep: int
    difficulty: int
    text: Label
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Signatures(Step):
    """The roll is in (``dice``: its faces): ``signatures`` that could still change it,
    or (``keep``) only the dice to keep are left to choose."""

    step: Literal["signatures", "keep"]
    who: str | None
    kind: str
    dice: tuple[int, ...]
    keep: int
    difficulty: int
    signatures: tuple[Mapping[str, Any], ...]
    suggested_keep: tuple[int, ...]
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Defence(Step):
    """The target of an attack defends against ``attack_successes``."""

    step: Literal["defence"]
    who: str | None
    attack_successes: int
    difficulty: int
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Idle(Step):
    """Nothing is open: ``choices`` are the events that may start something."""

    step: Literal["idle"]
    choices: tuple[str, ...]


ShayoStep = Roll | RerollDice | Signatures | Defence | Idle
STEPS = (Roll, RerollDice, Signatures, Defence, Idle)
