"""Character sheets and their creation rules (R1, R4, R5, A16, A17).

A sheet is an immutable :class:`Character`. It is built from JSON by
:func:`character_from_json`, which checks the rules the source gives:

- attributes and skills are rated 0–5 (R1, A16); keys are normalised (lower case, no
  accents, spaces as ``_``: ``"Méditation"`` is ``meditation``);
- the attribute ``ins`` is required (it caps Ki per action and feeds both Ki pools, R5/R6);
- signatures: one may be chosen at skill level 3 and one more at 5 (R4), plus any granted
  by object improvements (``bonus_signatures``, R21);
- the personal Ki pool is INS + (Terre or Ciel) + Méditation (R5); which of Terre/Ciel a
  character uses is sheet data (A17): ``"aspect": "terre"|"ciel"``, ``"aspect_value"`` 0–5.

Weapons ``{"dice", "fixed", "solidity"}`` and armour ``{"sd", "protection", "solidity"}``
are sheet data too (their numbers come from the rulebook's equipment lists).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..refusal import french_name, malformed, refuse
from .signatures import Signature, parse_signature

from .values import MAX_VALUE, evolve
__all__ = ["Character", "Weapon", "Armour", "norm_key", "character_from_json", "edit_character", "MAX_RATING"]

MAX_RATING = 5
ASPECTS = ("terre", "ciel")


def norm_key(name: str) -> str:
    """``"Méditation"`` -> ``"meditation"``: the key used for attributes and skills."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "_".join(plain.lower().split())


@dataclass(frozen=True)
class Weapon:
    dice: int = 1
    fixed: int = 0
    solidity: int = 5
    broken: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"dice": self.dice, "fixed": self.fixed, "solidity": self.solidity, "broken": self.broken}


@dataclass(frozen=True)
class Armour:
    sd: int = 5
    protection: int = 0
    solidity: int = 5
    broken: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"sd": self.sd, "protection": self.protection, "solidity": self.solidity, "broken": self.broken}


@dataclass(frozen=True)
class Character:
    name: str
    attributes: Mapping[str, int]
    skills: Mapping[str, int]
    signatures: Mapping[str, tuple[Signature, ...]] = field(default_factory=dict)
    bonus_signatures: Mapping[str, int] = field(default_factory=dict)
    aspect: str = "terre"
    aspect_value: int = 0
    pc: bool = True
    present: bool = True
    life_boxes: tuple[int, ...] = (5, 5, 5, 5)
    damage: int = 0
    grave_wounds: int = 0
    ki_spent: int = 0
    encumbrance: int = 0
    weapons: Mapping[str, Weapon] = field(default_factory=dict)
    armour: Armour | None = None
    #: key -> the name as the sheet gave it ("meditation" -> "Méditation"), for display
    names: Mapping[str, str] = field(default_factory=dict)

    def shown(self, key: str) -> str:
        """The name to show for an attribute or skill key: as written on the sheet;
        an attribute key the sheet did not name is shown in capitals (``"AGI"``)."""
        if key in self.names:
            return self.names[key]
        return key.upper() if key in self.attributes and len(key) <= 3 else key.replace("_", " ")

    @property
    def ins(self) -> int:
        return self.attributes.get("ins", 0)

    @property
    def personal_pool(self) -> int:
        """R5: INS + (Terre or Ciel) + Méditation."""
        return self.ins + self.aspect_value + self.skills.get("meditation", 0)

    @property
    def personal_left(self) -> int:
        return max(0, self.personal_pool - self.ki_spent)

    @property
    def health_boxes(self) -> int:
        return sum(self.life_boxes)

    def signatures_for(self, skill: str) -> tuple[Signature, ...]:
        return self.signatures.get(skill, ())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "attributes": dict(self.attributes),
            "skills": dict(self.skills),
            "signatures": {k: [s.to_json() for s in v] for k, v in self.signatures.items()},
            "bonus_signatures": dict(self.bonus_signatures),
            "aspect": self.aspect,
            "aspect_value": self.aspect_value,
            "pc": self.pc,
            "present": self.present,
            "life_boxes": list(self.life_boxes),
            "damage": self.damage,
            "grave_wounds": self.grave_wounds,
            "ki": {"personal_max": self.personal_pool, "personal_left": self.personal_left,
                   "spent": self.ki_spent},
            "encumbrance": self.encumbrance,
            "weapons": {k: w.to_json() for k, w in self.weapons.items()},
            "armour": self.armour.to_json() if self.armour else None,
            "names": {k: self.shown(k) for k in (*self.attributes, *self.skills)},
        }


# -- parsing ------------------------------------------------------------------------------
#: French names of the sheet's fields named in the refusals.
_FR_NAMES = (
    (r"attribute", "attributs"), (r"skill", "compétences"),
    (r"attribute (.+)", r"attribut \1"), (r"skill (.+)", r"compétence \1"),
    (r"weapon (.+) dice", r"dés de l'arme \1"), (r"weapon (.+) fixed damage", r"dégâts fixes de l'arme \1"),
    (r"weapon (.+) solidity", r"solidité de l'arme \1"), (r"armour SD", "SD de l'armure"),
    (r"armour fixed protection", "protection fixe de l'armure"), (r"armour solidity", "solidité de l'armure"),
    (r"aspect value \(Terre or Ciel\)", "valeur d'aspect (Terre ou Ciel)"), (r"aspect value", "valeur d'aspect"),
    (r"bonus signatures", "signatures en plus"), (r"damage", "dégâts"), (r"encumbrance", "encombrement"),
    (r"life line boxes", "cases d'une ligne de vie"),
)


def _fr(what: str) -> str:
    return french_name(what, _FR_NAMES)


def _int(value: Any, what: str, lo: int | None = 0, hi: int | None = MAX_VALUE) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise malformed(
            f"« {_fr(what)} » doit être un nombre entier, pas {value!r}",
            f"{what} must be an integer, not {value!r}",
        )
    if lo is not None and value < lo:
        raise refuse(
            "R1",
            f"« {_fr(what)} » doit valoir au moins {lo} (reçu : {value})",
            f"{what} must be at least {lo} (got {value})",
        )
    if hi is not None and value > hi:
        raise refuse(
            "R1",
            f"« {_fr(what)} » doit valoir au plus {hi} (reçu : {value})",
            f"{what} must be at most {hi} (got {value})",
        )
    return value


def _names(*raws: Any) -> dict[str, str]:
    """key -> name as written, for the ratings objects given (skipping what is not one)."""
    out: dict[str, str] = {}
    for raw in raws:
        if isinstance(raw, Mapping):
            for name in raw:
                key = norm_key(str(name))
                if key and str(name).strip() and str(name).strip() != key:
                    out[key] = str(name).strip()
    return out


def _ratings(raw: Any, what: str) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise malformed(
            f"« {_fr(what)} » doit être un objet {{nom : valeur}}",
            f"'{what}' must be an object {{name: rating}}",
        )
    out: dict[str, int] = {}
    for name, value in raw.items():
        key = norm_key(str(name))
        if not key:
            raise malformed(f"un nom vide dans « {_fr(what)} »", f"an empty name in '{what}'")
        out[key] = _int(value, f"{what} {name!r}", 0, MAX_RATING)
    return out


def _weapon(raw: Any, name: str) -> Weapon:
    if not isinstance(raw, Mapping):
        raise malformed(
            f"l'arme {name!r} doit être un objet {{dice, fixed, solidity}}",
            f"weapon {name!r} must be an object {{dice, fixed, solidity}}",
        )
    return Weapon(
        _int(raw.get("dice", 1), f"weapon {name!r} dice"),
        _int(raw.get("fixed", 0), f"weapon {name!r} fixed damage"),
        _int(raw.get("solidity", 5), f"weapon {name!r} solidity"),
        bool(raw.get("broken", False)),
    )


def _armour(raw: Any) -> Armour | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise malformed(
            "« armour » doit être un objet {sd, protection, solidity} ou null",
            "'armour' must be an object {sd, protection, solidity} or null",
        )
    return Armour(
        _int(raw.get("sd", 5), "armour SD", 2),
        _int(raw.get("protection", 0), "armour fixed protection"),
        _int(raw.get("solidity", 5), "armour solidity"),
        bool(raw.get("broken", False)),
    )


def signature_allowance(level: int, bonus: int = 0) -> int:
    """R4: one signature at level 3, a second at level 5, plus object bonuses."""
    return (1 if level >= 3 else 0) + (1 if level >= 5 else 0) + bonus


def _check(ch: Character) -> Character:
    if "ins" not in ch.attributes:
        raise refuse(
            "R5",
            f"{ch.name} : l'attribut INS est obligatoire (il alimente et plafonne le Ki)",
            f"{ch.name}: the attribute INS is required (it feeds and caps Ki)",
        )
    if ch.aspect not in ASPECTS:
        raise malformed(
            f"{ch.name} : « aspect » doit valoir « terre » ou « ciel »",
            f"{ch.name}: 'aspect' must be 'terre' or 'ciel'",
        )
    for skill, sigs in ch.signatures.items():
        level = ch.skills.get(skill, 0)
        allowed = signature_allowance(level, ch.bonus_signatures.get(skill, 0))
        if len(sigs) > allowed:
            raise refuse(
                "R4",
                f"{ch.name} : {len(sigs)} signature(s) en {skill} (niveau {level}), mais {allowed} seulement"
                " permise(s) (une au niveau 3, une de plus au 5, plus les améliorations d'objets)",
                f"{ch.name}: {len(sigs)} signature(s) on {skill} (level {level}) but only {allowed}"
                " allowed (one at level 3, one more at 5, plus object improvements)",
            )
        ids = [s.id for s in sigs]
        if len(set(ids)) != len(ids):
            raise refuse(
                "R4",
                f"{ch.name} : la même signature deux fois en {skill}",
                f"{ch.name}: the same signature twice on {skill}",
            )
    if ch.damage > ch.health_boxes:
        raise refuse(
            "R16",
            f"{ch.name} : {ch.damage} cases cochées, mais seulement {ch.health_boxes}",
            f"{ch.name}: {ch.damage} boxes ticked but only {ch.health_boxes}",
        )
    return ch


def _signatures(raw: Any) -> dict[str, tuple[Signature, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise malformed(
            "« signatures » doit être un objet {compétence : [signature, ...]}",
            "'signatures' must be an object {skill: [signature, ...]}",
        )
    out: dict[str, tuple[Signature, ...]] = {}
    for skill, items in raw.items():
        if not isinstance(items, list):
            raise malformed(
                f"les signatures de {skill!r} doivent être une liste",
                f"signatures of {skill!r} must be a list",
            )
        if items:
            out[norm_key(str(skill))] = tuple(parse_signature(i) for i in items)
    return out


_FIELDS = {
    "name", "attributes", "skills", "signatures", "bonus_signatures", "aspect", "aspect_value",
    "pc", "present", "life_boxes", "damage", "encumbrance", "weapons", "armour",
}


def character_from_json(raw: Mapping[str, Any], default_boxes: tuple[int, ...]) -> Character:
    """Build and check a sheet (creation rules R1, R4, R5)."""
    unknown = set(raw) - _FIELDS
    if unknown:
        raise malformed(
            f"champ(s) de personnage inconnu(s) : {', '.join(sorted(unknown))}",
            f"unknown character field(s): {', '.join(sorted(unknown))}",
        )
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise malformed("un personnage a besoin d'un « name »", "a character needs a 'name'")
    boxes_raw = raw.get("life_boxes", list(default_boxes))
    if not isinstance(boxes_raw, list) or not boxes_raw:
        raise malformed(
            "« life_boxes » doit être une liste non vide de nombres de cases, un par ligne de vie",
            "'life_boxes' must be a non-empty list of box counts, one per life line",
        )
    boxes = tuple(_int(b, "life line boxes", 1) for b in boxes_raw)
    weapons_raw = raw.get("weapons", {}) or {}
    if not isinstance(weapons_raw, Mapping):
        raise malformed(
            "« weapons » doit être un objet {nom : {dice, fixed, solidity}}",
            "'weapons' must be an object {name: {dice, fixed, solidity}}",
        )
    aspect = raw.get("aspect", "terre")
    aspect = norm_key(aspect) if isinstance(aspect, str) else aspect
    ch = Character(
        name=name.strip(),
        attributes=_ratings(raw.get("attributes"), "attribute"),
        skills=_ratings(raw.get("skills"), "skill"),
        signatures=_signatures(raw.get("signatures")),
        bonus_signatures={norm_key(str(k)): _int(v, "bonus signatures")
                          for k, v in (raw.get("bonus_signatures") or {}).items()},
        aspect=aspect,
        aspect_value=_int(raw.get("aspect_value", 0), "aspect value (Terre or Ciel)", 0, MAX_RATING),
        pc=bool(raw.get("pc", True)),
        present=bool(raw.get("present", True)),
        life_boxes=boxes,
        damage=_int(raw.get("damage", 0), "damage"),
        encumbrance=_int(raw.get("encumbrance", 0), "encumbrance"),
        weapons={str(k): _weapon(v, str(k)) for k, v in weapons_raw.items()},
        armour=_armour(raw.get("armour")),
        names=_names(raw.get("attributes"), raw.get("skills")),
    )
    return _check(ch)


def edit_character(ch: Character, changes: Mapping[str, Any]) -> Character:
    """Apply a partial edit (objects are merged key by key) and check the result again."""
    unknown = set(changes) - (_FIELDS - {"name"})
    if unknown:
        raise malformed(
            f"champ(s) de personnage inconnu(s) : {', '.join(sorted(unknown))}",
            f"unknown character field(s): {', '.join(sorted(unknown))}",
        )
    new = ch
    for step in (_edit_ratings, _edit_signatures, _edit_aspect, _edit_health, _edit_gear):
        new = step(new, changes)
    return _check(new)


def _edit_ratings(new: Character, changes: Mapping[str, Any]) -> Character:
    """Attributes and skills, merged by key (R1)."""
    if "attributes" in changes:
        new = evolve(new, attributes={**new.attributes, **_ratings(changes["attributes"], "attribute")})
    if "skills" in changes:
        new = evolve(new, skills={**new.skills, **_ratings(changes["skills"], "skill")})
    if "attributes" in changes or "skills" in changes:
        new = evolve(new, names={**new.names, **_names(changes.get("attributes"), changes.get("skills"))})
    return new


def _edit_signatures(new: Character, changes: Mapping[str, Any]) -> Character:
    """Signatures per skill (an empty list removes them) and bonus signatures (R4)."""
    if "signatures" in changes:
        merged = {**new.signatures, **_signatures(changes["signatures"])}
        raw_sig = changes["signatures"] or {}
        for skill, items in raw_sig.items():
            if items == []:
                merged.pop(norm_key(str(skill)), None)
        new = evolve(new, signatures=merged)
    if "bonus_signatures" in changes:
        bonus = {norm_key(str(k)): _int(v, "bonus signatures") for k, v in (changes["bonus_signatures"] or {}).items()}
        new = evolve(new, bonus_signatures={**new.bonus_signatures, **bonus})
    return new


def _edit_aspect(new: Character, changes: Mapping[str, Any]) -> Character:
    """Aspect, its value and the flags."""
    if "aspect" in changes:
        a = changes["aspect"]
        new = evolve(new, aspect=norm_key(a) if isinstance(a, str) else a)
    if "aspect_value" in changes:
        new = evolve(new, aspect_value=_int(changes["aspect_value"], "aspect value", 0, MAX_RATING))
    for flag in ("pc", "present"):
        if flag in changes:
            new = evolve(new, **{flag: bool(changes[flag])})
    return new


def _edit_health(new: Character, changes: Mapping[str, Any]) -> Character:
    """Life lines, damage and encumbrance (R16)."""
    if "life_boxes" in changes:
        b = changes["life_boxes"]
        if not isinstance(b, list) or not b:
            raise malformed("« life_boxes » doit être une liste non vide", "'life_boxes' must be a non-empty list")
        new = evolve(new, life_boxes=tuple(_int(x, "life line boxes", 1) for x in b))
    if "damage" in changes:
        new = evolve(new, damage=_int(changes["damage"], "damage"))
    if "encumbrance" in changes:
        new = evolve(new, encumbrance=_int(changes["encumbrance"], "encumbrance"))
    return new


def _edit_gear(new: Character, changes: Mapping[str, Any]) -> Character:
    """Weapons (null removes one) and armour (R16, R17)."""
    if "weapons" in changes:
        w = changes["weapons"] or {}
        if not isinstance(w, Mapping):
            raise malformed("« weapons » doit être un objet", "'weapons' must be an object")
        weapons = dict(new.weapons)
        for k, v in w.items():
            if v is None:
                weapons.pop(str(k), None)
            else:
                weapons[str(k)] = _weapon(v, str(k))
        new = evolve(new, weapons=weapons)
    if "armour" in changes:
        new = evolve(new, armour=_armour(changes["armour"]))
    return new
