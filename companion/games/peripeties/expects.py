"""What the Péripéties table waits for (``state_json()["expects"]``), one class per step.

Built by :func:`companion.games.peripeties.view.expects_of`; the module docstring of
:mod:`companion.games.peripeties.view` shows an example and lists the steps. Every step
of a turn starts with the same fields (:class:`TurnHead`: the turn, the character, its
player and the next player, the dice already entered in ``have``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

from ..expects import DiceWanted, Step, Unset, _omit, absent, optional

__all__ = ["Choice", "Setup", "Travel", "TurnHead", "Episode", "Trial", "Fine", "TurnStep", "TurnSteps", "Unknown",
           "PeripetiesStep", "STEPS"]


@dataclass(frozen=True)
class Choice(Step):
    """Something a player chooses: the event to send (with ``field`` set to one of
    ``values``; ``labels`` say them in words), who chooses (``by``) and the rule."""

    name: str
    event: str
    field: str | None = optional()
    optional: bool | None = _omit()
    values: tuple[Any, ...] | None = _omit()
    labels: tuple[str | None, ...] | None = _omit()
    selected: int | str | None | Unset = absent()
    cost_per_turn: int | None = _omit()
    by: str | None = _omit()
    rule: str | None = _omit()
    payers: tuple[str, ...] | None = _omit()
    enabled: bool | None = _omit()


@dataclass(frozen=True)
class Setup(Step):
    """Characters are added; then the first turn starts."""

    turn: int
    step: Literal["setup"]
    event: str
    dice: tuple[DiceWanted, ...]
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Travel(Step):
    """Between episodes: who may travel, and how far (``travel``)."""

    turn: int
    step: Literal["travel"]
    event: str
    dice: tuple[DiceWanted, ...]
    choices: tuple[Choice, ...]
    travel: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class TurnHead(Step):
    """The fields every step of an episode starts with."""

    turn: int
    character: str
    name: str
    player: str
    next_player: str
    have: Mapping[str, Any]


@dataclass(frozen=True)
class Episode(TurnHead):
    """The episode dice (``dice``: each kind still missing, who rolls it)."""

    step: Literal["episode"]
    event: str
    dice: tuple[DiceWanted, ...]
    choices: tuple[Choice, ...]
    correctable: bool


@dataclass(frozen=True)
class Trial(TurnHead):
    """The trial die, against ``difficulty`` with its ``modifiers`` and the ``odds``."""

    step: Literal["trial"]
    event: str
    dice: tuple[DiceWanted, ...]
    choices: tuple[Choice, ...]
    difficulty: int | None
    modifiers: tuple[Mapping[str, Any], ...]
    modifier: int
    odds: Any
    correctable: bool


@dataclass(frozen=True)
class Fine(TurnHead):
    """A fine in taels: the die, and the ``taels`` the character holds."""

    step: Literal["fine"]
    event: str
    dice: tuple[DiceWanted, ...]
    choices: tuple[Choice, ...]
    taels: int


TurnSteps = Literal["gourd", "reward_taels", "reward_reroll", "brother_card", "sentence_reroll", "prison", "bribe"]


@dataclass(frozen=True)
class TurnStep(TurnHead):
    """The other steps of an episode: a die (``dice``) or a choice (``choices``)."""

    step: TurnSteps
    event: str
    dice: tuple[DiceWanted, ...]
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Unknown(TurnHead):
    """An episode step without its own class (none today)."""

    step: str
    dice: tuple[DiceWanted, ...]
    choices: tuple[Choice, ...]


PeripetiesStep = Setup | Travel | Episode | Trial | Fine | TurnStep | Unknown
STEPS = (Setup, Travel, Episode, Trial, Fine, TurnStep)
