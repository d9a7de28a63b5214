"""The Shayo table state: immutable values that share structure between events.

:class:`ShayoState` holds the character sheets, the group Ki spent, the open test (at
most one: the tray holds one pool at a time), the attack exchange or crafting project
that test belongs to, the initiative order, the crafted objects and the explanation of
the last outcome. It also remembers the state just before the last roll (``base``) and
the events applied since (``chain``), so a correction of that roll re-folds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ...events import Event
from ..refusal import malformed, refuse
from .sheet import Character
from .signatures import Signature

from .values import evolve
__all__ = ["Declared", "Test", "Exchange", "Project", "CraftedObject", "Turn", "ShayoState", "pay_ki", "group_pool", "character"]


@dataclass(frozen=True)
class Declared:
    """A re-roll signature declared on some dice of the open test, waiting for their new
    faces (read by the camera from the tray, or typed): ``shayo.signature_declare``."""

    signature: Signature
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Test:
    """One roll of the sequence R3, from its declaration to its count."""

    kind: str  # test | attack | defence | damage | craft | improve
    who: str | None
    attribute_name: str | None
    skill_name: str | None
    attribute: int
    skill: int
    difficulty: int
    difficulty_notes: tuple[str, ...] = ()
    ki_rolled: int = 0
    ki_kept: int = 0
    ki_extra: int = 0  # Ki for a manoeuvre declared with the test (uncapped)
    ki_paid: Mapping[str, int] = field(default_factory=dict)
    mod_rolled: int = 0
    mod_kept: int = 0
    signatures: tuple[Signature, ...] = ()
    required: int = 1
    keep_all: bool = False  # damage rolls: every die counts (A11)
    ones_cancel: bool = True
    label: str = ""
    label_en: str = ""  # the English label when the software wrote ``label``
    dice: tuple[int, ...] | None = None
    entered: tuple[int, ...] | None = None  # the dice as entered (before signatures)
    cancelled: tuple[bool, ...] = ()
    used: tuple[str, ...] = ()
    #: the attribute and skill as the sheet names them ("Méditation"), for display
    attribute_shown: str | None = None
    skill_shown: str | None = None
    adjusted: bool = False  # a cancel / +1 was used: no more re-rolls (A6 order)
    notes: tuple[Mapping[str, Any], ...] = ()
    awaiting: Declared | None = None  # a declared re-roll waiting for its dice

    @property
    def rolled(self) -> int:
        """R3 step 3: dice to roll after Ki and modifiers (0 or more, A5)."""
        return max(0, self.attribute + self.ki_rolled + self.mod_rolled)

    @property
    def keep(self) -> int:
        """R3 step 6: dice to keep after Ki and modifiers."""
        if self.keep_all:
            return len(self.dice) if self.dice is not None else self.rolled
        return max(0, self.skill + self.ki_kept + self.mod_kept)

    @property
    def step(self) -> str:
        return "roll" if self.dice is None else "signatures"


@dataclass(frozen=True)
class Exchange:
    """An attack being resolved (R12–R17)."""

    attacker: str | None
    target: str | None
    option: str  # normal | force | finesse
    weapon: str | None
    weapon_dice: int
    weapon_fixed: int
    bonus_dice: int  # power attack
    ignore_protection: bool  # finesse attack
    step: str  # attack | defence | damage
    attack_net: int = 0
    defence_net: int | None = None
    target_armour: tuple[int, int] | None = None  # (SD, fixed protection) of a target without a sheet

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker, "target": self.target, "option": self.option,
            "weapon": self.weapon, "weapon_dice": self.weapon_dice, "weapon_fixed": self.weapon_fixed,
            "bonus_dice": self.bonus_dice, "ignore_protection": self.ignore_protection,
            "step": self.step, "attack_net": self.attack_net, "defence_net": self.defence_net,
            "target_armour": list(self.target_armour) if self.target_armour else None,
        }


@dataclass(frozen=True)
class Project:
    """An extended crafting test: creation (R19) or improvement (R20)."""

    kind: str  # craft | improve
    crafter: str
    object: str
    target_quality: str
    quality: str  # current final quality (drops on zero-success periods)
    required: int
    difficulty: int
    period_hours: float
    attribute_name: str | None
    skill_name: str | None
    attribute: int
    skill: int
    accumulated: int = 0
    periods: tuple[int, ...] = ()
    improvement: str | None = None
    duration: str | None = None
    cost: int = 0
    object_kind: str = "other"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "crafter": self.crafter, "object": self.object,
            "target_quality": self.target_quality, "quality": self.quality,
            "required": self.required, "accumulated": self.accumulated,
            "periods": list(self.periods), "hours": self.period_hours * len(self.periods),
            "difficulty": self.difficulty, "improvement": self.improvement,
            "duration": self.duration, "cost": self.cost,
        }


@dataclass(frozen=True)
class CraftedObject:
    name: str
    kind: str
    quality: str
    owner: str | None
    pc: int  # creation points still available for improvements
    improvements: tuple[tuple[str, str], ...] = ()  # (improvement key, duration)
    broken: bool = False
    flagged: bool = False  # quality would have gone below mediocre (A14)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "quality": self.quality, "owner": self.owner,
                "pc": self.pc, "improvements": [{"improvement": k, "duration": d} for k, d in self.improvements],
                "broken": self.broken, "flagged": self.flagged}


@dataclass(frozen=True)
class Turn:
    """Initiative order and action passes (R10, R11)."""

    order: tuple[str, ...]
    scores: Mapping[str, int]
    actions: Mapping[str, int]
    turn: int = 1
    pass_no: int = 1
    index: int = 0
    natural: Mapping[str, int] = field(default_factory=dict)  # actions before any bought with Ki

    @property
    def current(self) -> str | None:
        acting = [n for n in self.order if self.actions.get(n, 1) >= self.pass_no]
        return acting[self.index] if self.index < len(acting) else None

    def in_bought_action(self, name: str | None) -> bool:
        """Is ``name`` acting now in an extra action bought with Ki (R6.4)?"""
        return name is not None and self.current == name and self.pass_no > self.natural.get(name, 1)

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "scores": dict(self.scores), "actions": dict(self.actions),
                "natural": dict(self.natural), "turn": self.turn, "pass": self.pass_no, "current": self.current,
                "bought_action": self.in_bought_action(self.current)}


@dataclass(frozen=True)
class ShayoState:
    options: Mapping[str, Any]
    characters: Mapping[str, Character] = field(default_factory=dict)
    group_spent: int = 0
    test: Test | None = None
    exchange: Exchange | None = None
    project: Project | None = None
    objects: Mapping[str, CraftedObject] = field(default_factory=dict)
    turn: Turn | None = None
    last: Mapping[str, Any] | None = None
    base: "ShayoState | None" = None
    chain: tuple[Event, ...] = ()

    def with_character(self, ch: Character) -> "ShayoState":
        return evolve(self, characters={**self.characters, ch.name: ch})


def forbid_in_bought_action(state: "ShayoState", who: str | None, what: str) -> None:
    """R6.4: no manoeuvre and no spell in an action bought with Ki."""
    if state.turn is not None and state.turn.in_bought_action(who):
        raise refuse(
            "R6",
            f"{who} est dans une action en plus achetée avec du Ki : " + ("aucune manœuvre permise" if what == "manoeuvre" else "aucun sortilège permis"),
            f"{who} is in an extra action bought with Ki: no {what} allowed",
        )


# -- Ki ------------------------------------------------------------------------------------
def character(state: ShayoState, name: Any, rule: str = "R5") -> Character:
    if not isinstance(name, str):
        raise malformed("donnez le nom du personnage (« who »)", "give the character's 'who' (a name)")
    ch = state.characters.get(name)
    if ch is None:
        known = ", ".join(state.characters) or "none yet"
        raise refuse(
            rule,
            f"aucun personnage nommé {name!r} (connus : {known})",
            f"no character named {name!r} (known: {known})",
        )
    return ch


def group_pool(state: ShayoState) -> int:
    """R5: the sum of the INS of the player characters present."""
    return sum(c.ins for c in state.characters.values() if c.pc and c.present)


def group_left(state: ShayoState) -> int:
    return max(0, group_pool(state) - state.group_spent)


def _nonneg(raw: Mapping[str, Any], key: str) -> int:
    v = raw.get(key, 0)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise malformed(
            f"le Ki tiré de {key!r} doit être un entier positif ou nul",
            f"Ki drawn from {key!r} must be a non-negative integer",
        )
    return v


def pay_ki(
    state: ShayoState, who: str, amount: int, source: Any = None, surpass: bool = False
) -> tuple[ShayoState, dict[str, int]]:
    """Pay ``amount`` Ki for ``who`` (R5, R7, A8).

    ``source`` ``{"personal": a, "group": b, "health": h}`` says where each point comes
    from (the player's choice, recorded in the log); without it the personal pool is
    used first, then the group pool, then (only if ``surpass``) health boxes.
    """
    if amount == 0:
        return state, {}
    ch = character(state, who)
    p_left, g_left = ch.personal_left, group_left(state)
    if source is not None:
        if not isinstance(source, Mapping) or set(source) - {"personal", "group", "health"}:
            raise malformed(
                "« from » doit être un objet avec « personal », « group » et/ou « health »",
                "'from' must be an object with 'personal', 'group' and/or 'health'",
            )
        p, g, h = _nonneg(source, "personal"), _nonneg(source, "group"), _nonneg(source, "health")
        if p + g + h != amount:
            raise refuse(
                "R5",
                f"le Ki tiré ({p}+{g}+{h}) doit égaler le Ki dépensé ({amount})",
                f"the Ki drawn ({p}+{g}+{h}) must equal the Ki spent ({amount})",
            )
        if p > p_left:
            raise refuse(
                "R5",
                f"la réserve personnelle de {who} n'a plus que {p_left} Ki",
                f"{who}'s personal pool has only {p_left} Ki left",
            )
        if g > g_left:
            raise refuse(
                "R5",
                f"la réserve de groupe n'a plus que {g_left} Ki",
                f"the group pool has only {g_left} Ki left",
            )
    else:
        p = min(amount, p_left)
        g = min(amount - p, g_left)
        h = amount - p - g
        if h and not surpass:
            raise refuse(
                "R7",
                f"pas assez de Ki : {who} a {p_left} personnel + {g_left} de groupe < {amount} ;"
                " pour se dépasser, cochez plutôt des cases de santé ('surpass' : true)",
                f"not enough Ki: {who} has {p_left} personal + {g_left} group < {amount};"
                " to surpass oneself, tick health boxes instead ('surpass': true)",
            )
    if h:
        if state.options["surpass"] == "only_when_empty":
            if p_left or g_left:
                raise refuse(
                    "A8",
                    "se dépasser n'est permis que quand les deux réserves de Ki sont déjà vides"
                    " (option surpass=only_when_empty)",
                    "surpassing oneself is only allowed when both Ki pools are already empty"
                    " (option surpass=only_when_empty)",
                )
        elif p != p_left or g != g_left:
            raise refuse(
                "A8",
                "videz les deux réserves de Ki avant de payer du Ki en cases de santé",
                "empty both Ki pools before paying Ki with health boxes",
            )
        if ch.damage + h > ch.health_boxes:
            raise refuse(
                "R7",
                f"il ne reste à {who} que {ch.health_boxes - ch.damage} case(s) de santé",
                f"{who} has only {ch.health_boxes - ch.damage} health boxes left",
            )
    ch = evolve(ch, ki_spent=ch.ki_spent + p, damage=ch.damage + h)
    new = evolve(state.with_character(ch), group_spent=state.group_spent + g)
    paid = {k: v for k, v in (("personal", p), ("group", g), ("health", h)) if v}
    return new, paid


def refund_ki(state: ShayoState, who: str, paid: Mapping[str, int]) -> ShayoState:
    """Undo a payment (a Ki declaration replaced before the roll)."""
    if not paid:
        return state
    ch = character(state, who)
    ch = evolve(ch, ki_spent=ch.ki_spent - paid.get("personal", 0), damage=ch.damage - paid.get("health", 0))
    return evolve(state.with_character(ch), group_spent=state.group_spent - paid.get("group", 0))
