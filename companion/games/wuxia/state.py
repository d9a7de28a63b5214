"""The Wuxia state: immutable values that share structure from one event to the next.

- ``characters``: the sheets (a tuple, in creation order);
- ``tests``: the pool(s) of the current action -- one for a plain test, one per
  participant for a competition, two for an attack, one per fighter for initiative;
- ``mode``: what the current action is (``"none"``, ``"test"``, ``"contest"``,
  ``"initiative"``, ``"attack"``);
- ``combat``: the fight in progress, if any (round, fighters, group reserves, attack);
- ``last``: the last outcome, explained (JSON, both languages).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, TypeVar

from .sheet import Character, fold_name

__all__ = ["PoolTest", "Fighter", "Attack", "Combat", "WuxiaState", "evolve"]

T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these plain frozen values, without its per-call
    introspection (it dominated a 10,000-event replay). The classes here have no
    ``__post_init__`` and no ``InitVar``, so copying the fields is the same thing."""
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    for k in changes:
        if k not in d:
            raise TypeError(f"{type(obj).__name__} has no field {k!r}")
    d.update(changes)
    return new


@dataclass(frozen=True)
class PoolTest:
    """One test's pool, from its start to its last re-roll."""

    who: str | None
    label: str
    attribute: str | None
    dice: int  # dice to roll at first
    competence: int
    sr: int
    how: str  # skill | hobby | specialisation | untrained | given
    skill: str | None = None
    rerolls: int = 0  # specialisation re-rolls granted (R9)
    faces: tuple[int, ...] | None = None
    rerolled: tuple[int, ...] = ()  # indices already re-rolled
    rerolls_used: int = 0
    destiny_rerolls_used: int = 0
    pending: tuple[int, ...] = ()  # indices chosen for a re-roll, new faces awaited
    extra_pending: int = 0  # extra dice awaited (Destiny Dice "extra_die")
    destiny_spent: int = 0
    destiny_rerolls: int = 0  # re-rolls granted by Destiny Dice ("reroll")
    closed: bool = False

    @property
    def threshold(self) -> int:
        return self.sr - self.competence

    @property
    def rolled(self) -> bool:
        return self.faces is not None

    @property
    def waiting_dice(self) -> int:
        """How many dice the next roll event must give (0 if none awaited)."""
        if self.faces is None:
            return self.dice
        if self.pending:
            return len(self.pending)
        return self.extra_pending

    @property
    def rerolls_left(self) -> int:
        return max(0, self.rerolls - self.rerolls_used) + max(0, self.destiny_rerolls - self.destiny_rerolls_used)


@dataclass(frozen=True)
class Fighter:
    """A character in a fight (R12-R15)."""

    name: str
    side: str
    competence: int
    skill: str | None
    how: str
    rerolls: int
    weapon_nd: int = 0
    weapon_soul: str | None = None
    armour: int = 0
    initiative: int = 0
    init_successes: int | None = None  # successes of this round's initiative test
    allocated: bool = False
    actions: int = 1
    actions_used: int = 0
    defence_dice: int = 0
    stun: int = 0  # Terre lost this round (Estourbir)
    stun_next: int = 0  # Terre lost next round


@dataclass(frozen=True)
class Attack:
    """The attack being resolved (R14, R15)."""

    attacker: str
    defender: str
    group_dice: int = 0  # group reserve dice added to the attack pool (W13)
    nd: int = 0
    armour: int = 0
    phase: str = "roll"  # roll | defend | invest
    defence_used: int = 0
    group_defence_used: int = 0
    extra: int = 0


@dataclass(frozen=True)
class Combat:
    round: int
    fighters: tuple[Fighter, ...]
    phase: str  # initiative | allocate | actions
    group: tuple[tuple[str, str], ...] = ()  # group reserve dice: (side, who added it)
    attack: Attack | None = None

    def fighter(self, name: str) -> Fighter | None:
        key = fold_name(name)
        for f in self.fighters:
            if fold_name(f.name) == key:
                return f
        return None

    def order(self) -> list[Fighter]:
        """Decreasing Initiative (R12); ties keep the order the fighters were listed."""
        return sorted(self.fighters, key=lambda f: -f.initiative)


@dataclass(frozen=True)
class WuxiaState:
    options: Mapping[str, Any]
    characters: tuple[Character, ...] = ()
    mode: str = "none"
    tests: tuple[PoolTest, ...] = ()
    combat: Combat | None = None
    last: Mapping[str, Any] | None = None
    result: Mapping[str, Any] | None = None  # the last settled pool, explained
    count: int = 0  # events applied (for numbering tests)
    extra: Mapping[str, Any] = field(default_factory=dict)  # mode-specific context (contest)

    def character(self, name: str) -> Character | None:
        key = fold_name(name)
        for c in self.characters:
            if fold_name(c.name) == key:
                return c
        return None
