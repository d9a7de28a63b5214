"""Parsing the dice of a ``peripeties.dice`` event.

Two forms, which may be mixed in one event:

- the list a camera read gives: ``{"dice": [{"kind": "lieu", "value": "montagne"},
  {"kind": "d10", "value": 7}, {"kind": "d6", "value": 3, "role": "detail"}, ...]}``;
  ``role`` (one of :data:`SLOTS`) is optional and inferred from the step when absent;
- keyed by role, handy by hand: ``{"lieu": "montagne", "adversaire": "animal",
  "epreuve": "combat", "recompense": "banquet", "sentence": "blessure",
  "difficulty": [7, 8], "detail": 3, "trial": 9, "taels": 6, "prison": 3}``.

Symbol values are face keys (labels and accents accepted: ``"Forêt"``); numeric values
are ints (a d10's ``0`` is 10).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...dice import DiceError, DiceSet
from ..refusal import malformed, rewrap

__all__ = ["DieIn", "SLOTS", "SYMBOL_SLOTS", "parse_dice_event", "make_die"]

SYMBOL_SLOTS = ("lieu", "adversaire", "epreuve", "recompense", "sentence")
#: Roles a die can play: its slot in the current step.
SLOTS = (*SYMBOL_SLOTS, "difficulty", "detail", "trial", "taels", "prison")
_NUMERIC_SLOT_KIND = {"detail": "d6", "taels": "d10", "prison": "d4"}
CHOICE_KEYS = ("gourd", "brother", "replace")
_EVENT_FIELDS = frozenset({*SLOTS, "dice", "character", *CHOICE_KEYS})
_DIE_FIELDS = frozenset({"kind", "value", "role", "confidence", "box", "status", "candidates"})


class DieIn(NamedTuple):
    """One die of an input: its kind, its value (a face key, or a raw int when the kind
    is only known later: ``difficulty``/``trial`` in keyed form), its role if given."""

    kind: str | None
    value: Any
    slot: str | None


def _die(kind: str | None, value: Any, slot: str | None) -> DieIn:
    """``DieIn(kind, value, slot)`` without the Python-level ``__new__`` of a NamedTuple
    (this runs for every die of every event of a replay)."""
    return _tuple_new(DieIn, (kind, value, slot))


_tuple_new = tuple.__new__
_SYMBOL_SET = frozenset(SYMBOL_SLOTS)
_NUMERIC_SLOTS = frozenset({"difficulty", "detail", "trial", "taels", "prison"})
_ONE_DIE = frozenset({"trial", "taels", "prison"})


def _numbers(v: Any, key: str) -> list[Any]:
    if isinstance(v, list):
        if not v:
            raise malformed(f"«\u202f{key}\u202f» est une liste vide", f"'{key}' is an empty list")
        return v
    return [v]


def _check_fields(data: Mapping[str, Any]) -> None:
    unknown = data.keys() - _EVENT_FIELDS
    if unknown:
        names, roles = ", ".join(sorted(unknown)), ", ".join(SLOTS)
        raise malformed(
            f"champ(s) inconnu(s) dans peripeties.dice\u202f: {names}\u202f;"
            f" utilisez «\u202fdice\u202f» (une liste de {{kind, value, role}}) ou les rôles {roles}",
            f"unknown field(s) in peripeties.dice: {names};"
            f" use 'dice' (a list of {{kind, value, role}}) or the roles {roles}")


def _check_role(i: int, kind: str, role: Any) -> None:
    if role is not None and role not in SLOTS:
        raise malformed(f"dé {i}\u202f: rôle inconnu {role!r}\u202f; rôles\u202f: {', '.join(SLOTS)}",
                        f"die {i}: unknown role {role!r}; roles: {', '.join(SLOTS)}")
    if role in SYMBOL_SLOTS and role != kind:
        raise malformed(f"dé {i}\u202f: un dé {kind} ne peut pas tenir le rôle {role}", f"die {i}: a {kind} die cannot play the role {role}")


def _listed_die(i: int, d: Any, dice: DiceSet) -> DieIn:
    """Die number ``i`` of the ``dice`` list (a camera read): kind, face, optional role."""
    if not (type(d) is dict or isinstance(d, Mapping)) or "kind" not in d or "value" not in d:
        raise malformed(f"dé {i}\u202f: «\u202fkind\u202f» et «\u202fvalue\u202f» sont requis", f"die {i}: needs 'kind' and 'value'")
    extra = d.keys() - _DIE_FIELDS
    if extra:
        raise malformed(f"dé {i}\u202f: champ(s) inconnu(s) {', '.join(sorted(extra))}", f"die {i}: unknown field(s) {', '.join(sorted(extra))}")
    kind = d["kind"]
    die_kind = dice.kinds.get(kind) if isinstance(kind, str) else None
    if die_kind is None:
        raise malformed(f"dé {i}\u202f: sorte inconnue {kind!r}\u202f; sortes\u202f: {', '.join(dice)}",
                        f"die {i}: unknown kind {kind!r}; kinds: {', '.join(dice)}")
    if d.get("status") == "pending" or d["value"] is None:
        raise malformed(f"le dé {i} ({kind}) n'a pas été lu avec assurance\u202f: saisissez sa face à la main",
                        f"die {i} ({kind}) was not read with confidence: enter its face by hand")
    role = d.get("role")
    _check_role(i, kind, role)
    return _die(kind, die_kind.parse(d["value"]), role)


def _listed_dice(raw: Any, dice: DiceSet) -> list[DieIn]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise malformed("«\u202fdice\u202f» doit être une liste de {\"kind\", \"value\", \"role\"?}",
                        "'dice' must be a list of {\"kind\", \"value\", \"role\"?}")
    return [_listed_die(i, d, dice) for i, d in enumerate(raw, 1)]


#: The faces a die of a role shows when its kind is known only later: a difficulty die is
#: a D10 or a D6, a trial die a D10 or a D12 (``0`` is a D10's 10).
_FACE_RANGE = {"difficulty": (0, 10), "trial": (0, 12)}


def _face(slot: str, v: Any) -> int:
    """A face whose die kind is known only later (difficulty: d10 or d6; trial: d10 or
    d12): an integer within the widest of those dice, checked against its own die when
    the kind is known.

    >>> _face("trial", 7)
    7
    >>> _face("trial", True)
    Traceback (most recent call last):
    ...
    companion.errors.EventError: les valeurs de « trial » sont des faces de dé (des entiers), pas True / 'trial' values are die faces (integers), not True
    >>> _face("difficulty", 11)
    Traceback (most recent call last):
    ...
    companion.errors.EventError: « difficulty » est une face d'un D10 ou d'un D6 (1 à 10, 0 = 10), pas 11 / 'difficulty' is a face of a D10 or a D6 (1-10, 0 = 10), not 11
    """
    if isinstance(v, bool) or not isinstance(v, int):
        raise malformed(f"les valeurs de «\u202f{slot}\u202f» sont des faces de dé (des entiers), pas {v!r}",
                        f"'{slot}' values are die faces (integers), not {v!r}")
    lo, hi = _FACE_RANGE[slot]
    if not lo <= v <= hi:
        fr, dice = ("d'un D10 ou d'un D6", "a D10 or a D6") if slot == "difficulty" else ("d'un D10 ou d'un D12", "a D10 or a D12")
        raise malformed(f"«\u202f{slot}\u202f» est une face {fr} (1 à {hi}, 0 = 10), pas {v}",
                        f"'{slot}' is a face of {dice} (1-{hi}, 0 = 10), not {v}")
    return v


def _keyed_numbers(slot: str, raw: Any, dice: DiceSet) -> list[DieIn]:
    """A numeric role of the keyed form: one die (trial, taels, prison) or a list."""
    values = _numbers(raw, slot)
    if slot in _ONE_DIE and len(values) != 1:
        raise malformed(f"«\u202f{slot}\u202f» est un seul dé", f"'{slot}' is one die")
    kind = _NUMERIC_SLOT_KIND.get(slot)
    if kind is None:
        return [_die(None, _face(slot, v), slot) for v in values]
    die_kind = dice[kind]
    return [_die(kind, die_kind.parse(v), slot) for v in values]


def _keyed_dice(data: Mapping[str, Any], dice: DiceSet) -> list[DieIn]:
    """The dice given by role (``{"lieu": "montagne", "difficulty": [7, 8], ...}``)."""
    items: list[DieIn] = []
    for slot in data:
        if slot in _SYMBOL_SET:
            items.append(_die(slot, dice[slot].parse(data[slot]), slot))
        elif slot in _NUMERIC_SLOTS:
            items.extend(_keyed_numbers(slot, data[slot], dice))
    return items


def parse_dice_event(data: Mapping[str, Any], dice: DiceSet) -> list[DieIn]:
    """The dice of an event, validated against their kinds; :class:`EventError` if bad
    (a face out of its die's range included: a D10 shows 1-10, ``0`` being its 10)."""
    _check_fields(data)
    try:
        items = _listed_dice(data.get("dice"), dice) + _keyed_dice(data, dice)
    except DiceError as exc:
        raise rewrap(exc) from None
    if not items and not any(k in data for k in CHOICE_KEYS):
        raise malformed("aucun dé dans cet événement\u202f: donnez «\u202fdice\u202f» ou les rôles (lieu, difficulty, trial…)",
                        "no die in this event: give 'dice' or the roles (lieu, difficulty, trial...)")
    return items


make_die = _die
