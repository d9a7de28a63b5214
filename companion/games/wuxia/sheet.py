"""Character sheets (R1-R6): values, creation checks, secondary characteristics.

A sheet is a frozen value kept in the game state (so in the table log). It is created by
``wuxia.character_new`` and changed by ``wuxia.character_edit`` (see
``docs/events-wuxia.md``); counters that move in play (wound level, panic, Chi spent,
Destiny Dice) have events of their own.

Creation rules checked while a sheet is ``checked`` (the default for a new sheet; an
edit with ``"check": false`` frees it, e.g. for experience or a ready-made archetype):

- R6 priorities: the five Characteristics (attributs, competences, pouvoirs, traits,
  experience) get priorities 1..5, each used once [Inferred];
- R6 attribute budget and cap for the priorities the source gives (5: 30 points, max 8;
  1: 18 points, max 5; option ``attribute_budgets``). Points are the sum of the values
  (option ``attribute_points = "values"``; ``"above_one"`` counts value - 1) [Decision,
  W14]. Unspent points are allowed and shown. Priorities 2-4: not given, not checked;
- R6 hero type from the priority of Pouvoirs (5: Sorcier, 1: Guerrier, 2-4: Moine,
  Chevalier or Assassin [Inferred]); a power the source lists for another type only is
  refused; power points are checked only when ``power_cost_per_level`` is set (W14);
- always: attributes 1..10 (R1), skill and power levels 1..10 (R2, R4), a narrow skill
  either has a level (a Hobby, used as Compétence) or its parent on the sheet (a
  Specialisation: no level needed, grants re-rolls) (R3).

Secondary characteristics (R5): death threshold (2 x Métal + Eau) x 3; Chi reserve =
sum of attributes / 2 rounded down (W8, option ``chi_rounding``); base Initiative =
Métal (R12). Other wound and panic thresholds are not given by the source: a sheet may
carry them (``wound_thresholds``, ``panic_thresholds``, copied from the rulebook) and the
rules then report each one reached.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Mapping

from ..refusal import malformed, refuse

__all__ = [
    "ATTRIBUTES",
    "ATTRIBUTE_LABELS",
    "CHARACTERISTICS",
    "HERO_TYPES",
    "POWERS_BY_TYPE",
    "GENERAL_POWERS",
    "Skill",
    "Character",
    "sheet_from_data",
    "fold_name",
    "resolve_skill",
    "secondary",
    "creation_report",
]

ATTRIBUTES = ("metal", "feu", "terre", "eau", "bois")
ATTRIBUTE_LABELS = {
    "metal": {"fr": "Métal", "en": "Metal"},
    "feu": {"fr": "Feu", "en": "Fire"},
    "terre": {"fr": "Terre", "en": "Earth"},
    "eau": {"fr": "Eau", "en": "Water"},
    "bois": {"fr": "Bois", "en": "Wood"},
}
CHARACTERISTICS = ("attributs", "competences", "pouvoirs", "traits", "experience")
HERO_TYPES = ("guerrier", "moine", "chevalier", "assassin", "sorcier")
POWERS_BY_TYPE = {
    "guerrier": ("Kiai", "Focus:Finesse", "Focus:Défense"),
    "moine": ("Armure de soie", "Aura resplendissante", "Focus:Défense", "Troisième Œil"),
    "chevalier": ("Armure de soie", "Danse des 1000 coups", "Paume des 108 bouddhas"),
    "assassin": ("Chant des 1000 lames", "Course du vent", "Technique de l'eau"),
    "sorcier": ("Armes secrètes", "Cage mystique", "Invocation de démons"),
}
GENERAL_POWERS = ("Bond du tigre", "Course du dragon", "Sixième sens")
SKILL_KINDS = ("metier", "profession", "narrow")
#: Sheet limits beyond the rules' 1-10 (no rule gives them; they keep a typo such as
#: 10**9 off the sheet): experience points, and a wound or panic threshold.
MAX_EXPERIENCE = 10_000
MAX_THRESHOLD = 1_000


@lru_cache(maxsize=4096)
def fold_name(name: str) -> str:
    """Case- and accent-insensitive key: ``"Métal"`` and ``"metal"`` match."""
    norm = unicodedata.normalize("NFKD", name.strip())
    return "".join(c for c in norm if not unicodedata.combining(c)).casefold().replace("œ", "oe")


@dataclass(frozen=True)
class Skill:
    """A skill line: a Métier or Profession with a level, or a narrow skill (R2, R3)."""

    name: str
    kind: str  # metier | profession | narrow
    level: int | None = None
    parent: str | None = None  # for a narrow skill: the Métier/Profession it belongs to

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "level": self.level}
        if self.parent is not None:
            out["parent"] = self.parent
        return out


@dataclass(frozen=True)
class Character:
    """One hero's sheet and play counters."""

    name: str
    attributes: tuple[int, int, int, int, int]  # in ATTRIBUTES order
    skills: tuple[Skill, ...] = ()
    priorities: tuple[tuple[str, int], ...] = ()
    hero_type: str | None = None
    powers: tuple[tuple[str, int], ...] = ()
    zodiac: str | None = None
    traits: tuple[str, ...] = ()
    dramas: tuple[str, ...] = ()
    experience: int = 0
    wound_thresholds: tuple[int, ...] = ()
    panic_thresholds: tuple[int, ...] = ()
    checked: bool = True
    # play counters
    wounds: int = 0
    panic: int = 0
    chi_spent: int = 0
    destiny: int = 0

    def attribute(self, key: str) -> int:
        return self.attributes[ATTRIBUTES.index(key)]

    def skill(self, name: str) -> Skill | None:
        key = fold_name(name)
        for s in self.skills:
            if fold_name(s.name) == key:
                return s
        return None

    def priority(self, characteristic: str) -> int | None:
        for k, v in self.priorities:
            if k == characteristic:
                return v
        return None

    def to_data(self) -> dict[str, Any]:
        """The editable fields, in the shape ``wuxia.character_new`` takes."""
        return {
            "name": self.name,
            "attributes": dict(zip(ATTRIBUTES, self.attributes)),
            "skills": [s.to_json() for s in self.skills],
            "priorities": dict(self.priorities),
            "hero_type": self.hero_type,
            "powers": [{"name": n, "level": lv} for n, lv in self.powers],
            "zodiac": self.zodiac,
            "traits": list(self.traits),
            "dramas": list(self.dramas),
            "experience": self.experience,
            "wound_thresholds": list(self.wound_thresholds),
            "panic_thresholds": list(self.panic_thresholds),
            "check": self.checked,
        }


_FR_WHAT = (("attribute ", "attribut "), ("level of ", "niveau de "), ("priority of ", "priorité de "),
            ("parent of ", "parent de "), ("experience", "expérience"), ("a skill's name", "nom d'une compétence"),
            ("a power's name", "nom d'un pouvoir"), ("the character's name", "nom du personnage"))


def _fr_what(what: str) -> str:
    """The French name of a sheet field named in an English message (``"level of X"``)."""
    for en, fr in _FR_WHAT:
        if what.startswith(en):
            return fr + what[len(en):]
    return what


def _fr_range(lo: int, hi: int | None) -> str:
    return f"entre {lo} et {hi}" if hi is not None else f"au moins {lo}"


def _int(v: Any, what: str, lo: int, hi: int | None = None) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise malformed(
            f"« {_fr_what(what)} » doit être un nombre entier, pas {v!r}",
            f"{what} must be an integer, not {v!r}",
        )
    if v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise refuse(
            "R1" if "attribute" in what else "R2",
            f"« {_fr_what(what)} » doit être {_fr_range(lo, hi)}, pas {v}",
            f"{what} must be {rng}, not {v}",
        )
    return v


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise malformed(f"« {_fr_what(what)} » doit être un texte non vide", f"{what} must be a non-empty string")
    return v.strip()


def _str_list(v: Any, what: str) -> tuple[str, ...]:
    if v is None:
        return ()
    if not isinstance(v, list):
        raise malformed(f"« {_fr_what(what)} » doit être une liste de textes", f"{what} must be a list of strings")
    return tuple(_str(x, what) for x in v)


def _int_list(v: Any, what: str) -> tuple[int, ...]:
    if v is None:
        return ()
    if not isinstance(v, list):
        raise malformed(
            f"« {_fr_what(what)} » doit être une liste de nombres entiers",
            f"{what} must be a list of integers",
        )
    return tuple(sorted(_int(x, what, 1, MAX_THRESHOLD) for x in v))


def _attributes(raw: Any) -> tuple[int, int, int, int, int]:
    if not isinstance(raw, Mapping):
        raise malformed(
            "« attributes » doit être un objet comme {\"metal\": 4, \"feu\": 3, ...}",
            "attributes must be an object such as {\"metal\": 4, \"feu\": 3, ...}",
        )
    vals: dict[str, int] = {}
    for k, v in raw.items():
        key = fold_name(str(k))
        if key not in ATTRIBUTES:
            raise malformed(
                f"attribut inconnu {k!r} ; attendu : {', '.join(ATTRIBUTES)}",
                f"unknown attribute {k!r}; expected {', '.join(ATTRIBUTES)}",
            )
        vals[key] = _int(v, f"attribute {key}", 1, 10)
    missing = [a for a in ATTRIBUTES if a not in vals]
    if missing:
        raise malformed(
            f"attribut(s) manquant(s) : {', '.join(missing)}",
            f"missing attribute(s): {', '.join(missing)}",
        )
    return tuple(vals[a] for a in ATTRIBUTES)  # type: ignore[return-value]


def _skills(raw: Any) -> tuple[Skill, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise malformed(
            "« skills » doit être une liste de {name, kind, level, parent}",
            "skills must be a list of {name, kind, level, parent}",
        )
    out: list[Skill] = []
    seen: set[str] = set()
    for item in raw:
        if not isinstance(item, Mapping):
            raise malformed(
                "chaque compétence est un objet {name, kind, level, parent}",
                "each skill must be an object {name, kind, level, parent}",
            )
        name = _str(item.get("name"), "a skill's name")
        if fold_name(name) in seen:
            raise malformed(f"la compétence {name!r} est nommée deux fois", f"skill {name!r} is listed twice")
        seen.add(fold_name(name))
        out.append(_skill(item, name))
    _check_narrow_skills(out)
    return tuple(out)


def _skill(item: Mapping[str, Any], name: str) -> Skill:
    """One skill of the sheet: its kind, level and parent (R2)."""
    parent = item.get("parent")
    kind = item.get("kind") or ("narrow" if parent else "metier")
    kind = fold_name(str(kind))
    if kind in ("hobby", "specialisation", "specialization"):
        kind = "narrow"
    if kind not in SKILL_KINDS:
        raise malformed(
            f"le type de compétence est metier, profession ou narrow, pas {item.get('kind')!r}",
            f"skill kind must be metier, profession or narrow, not {item.get('kind')!r}",
        )
    level = item.get("level")
    if level is not None:
        level = _int(level, f"level of {name}", 1, 10)
    if kind != "narrow":
        if parent is not None:
            raise malformed(
                f"{name} : seule une compétence étroite (hobby ou spécialisation) a une compétence parente",
                f"{name}: only a narrow skill (hobby/specialisation) has a parent",
            )
        if level is None:
            raise refuse(
                "R2",
                f"{name} : un Métier ou une Profession demande un niveau de 1 à 10",
                f"{name}: a Métier or Profession needs a level 1..10",
            )
    elif parent is not None:
        parent = _str(parent, f"parent of {name}")
    return Skill(name, kind, level, parent)


def _check_narrow_skills(out: list[Skill]) -> None:
    """R3: a narrow skill without its parent on the sheet is a hobby and needs a level."""
    by_name = {fold_name(s.name): s for s in out}
    for s in out:
        if s.kind == "narrow":
            p = by_name.get(fold_name(s.parent)) if s.parent else None
            if p is not None and p.kind == "narrow":
                raise malformed(
                    f"{s.name} : sa compétence parente {p.name} doit être un Métier ou une Profession",
                    f"{s.name}: its parent {p.name} must be a Métier or Profession",
                )
            if p is None and s.level is None:
                raise refuse(
                    "R3",
                    f"{s.name} est un Hobby (sa compétence parente n'est pas sur la fiche) : il lui faut un niveau de 1 à 10",
                    f"{s.name} is a Hobby (its parent skill is not on the sheet): it needs a level 1..10",
                )


def _powers(raw: Any) -> tuple[tuple[str, int], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise malformed("« powers » doit être une liste de {name, level}", "powers must be a list of {name, level}")
    out = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise malformed("chaque pouvoir est un objet {name, level}", "each power must be an object {name, level}")
        name = _str(item.get("name"), "a power's name")
        out.append((name, _int(item.get("level", 1), f"level of {name}", 1, 10)))
    return tuple(out)


def _priorities(raw: Any) -> tuple[tuple[str, int], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise malformed(
            "« priorities » doit être un objet {caractéristique : 1 à 5}",
            "priorities must be an object {characteristic: 1..5}",
        )
    out = []
    for k, v in raw.items():
        key = fold_name(str(k))
        if key in ("competence", "skills"):
            key = "competences"
        if key in ("attributes", "attribut"):
            key = "attributs"
        if key in ("powers", "pouvoir"):
            key = "pouvoirs"
        if key in ("traits et drames", "traits_drames", "drames"):
            key = "traits"
        if key not in CHARACTERISTICS:
            raise malformed(
                f"caractéristique inconnue {k!r} ; attendu : {', '.join(CHARACTERISTICS)}",
                f"unknown characteristic {k!r}; expected {', '.join(CHARACTERISTICS)}",
            )
        out.append((key, _int(v, f"priority of {key}", 1, 5)))
    return tuple(sorted(out, key=lambda kv: CHARACTERISTICS.index(kv[0])))


def sheet_from_data(data: Mapping[str, Any], options: Mapping[str, Any],
                    base: Character | None = None) -> Character:
    """Build (or, with ``base``, edit) a sheet from event data; check it (R1-R6).

    Raises :class:`EventError` for a malformed field, :class:`RuleError` for a sheet the
    creation rules forbid; nothing is changed then.
    """
    known = {"name", "attributes", "skills", "priorities", "hero_type", "powers", "zodiac", "traits",
             "dramas", "experience", "wound_thresholds", "panic_thresholds", "check", "rename"}
    unknown = set(data) - known
    if unknown:
        raise malformed(
            f"champ(s) de fiche inconnu(s) : {', '.join(sorted(unknown))}",
            f"unknown sheet field(s): {', '.join(sorted(unknown))}",
        )
    merged: dict[str, Any] = base.to_data() if base else {}
    for k, v in data.items():
        if k == "attributes" and base is not None and isinstance(v, Mapping):
            merged["attributes"] = {**merged["attributes"], **{fold_name(str(a)): x for a, x in v.items()}}
        elif k != "rename":
            merged[k] = v
    if "rename" in data:
        merged["name"] = data["rename"]
    name = _str(merged.get("name"), "the character's name")
    if "attributes" not in merged:
        raise malformed(
            "un nouveau personnage a besoin de ses cinq attributs",
            "a new character needs its five attributes",
        )
    hero_type = merged.get("hero_type")
    if hero_type is not None:
        hero_type = fold_name(_str(hero_type, "hero_type"))
        if hero_type not in HERO_TYPES:
            raise malformed(
                f"type de héros inconnu {merged['hero_type']!r} ; attendu : {', '.join(HERO_TYPES)}",
                f"unknown hero type {merged['hero_type']!r}; expected {', '.join(HERO_TYPES)}",
            )
    zodiac = merged.get("zodiac")
    check = merged.get("check", True)
    if not isinstance(check, bool):
        raise malformed("« check » doit valoir true ou false", "check must be true or false")
    char = Character(
        name=name,
        attributes=_attributes(merged["attributes"]),
        skills=_skills(merged.get("skills")),
        priorities=_priorities(merged.get("priorities")),
        hero_type=hero_type,
        powers=_powers(merged.get("powers")),
        zodiac=_str(zodiac, "zodiac") if zodiac is not None else None,
        traits=_str_list(merged.get("traits"), "traits"),
        dramas=_str_list(merged.get("dramas"), "dramas"),
        experience=_int(merged.get("experience", 0), "experience", 0, MAX_EXPERIENCE),
        wound_thresholds=_int_list(merged.get("wound_thresholds"), "wound_thresholds"),
        panic_thresholds=_int_list(merged.get("panic_thresholds"), "panic_thresholds"),
        checked=check,
    )
    if base is not None:
        char = replace(char, wounds=base.wounds, panic=base.panic, chi_spent=base.chi_spent, destiny=base.destiny)
    if char.checked:
        char = _check_creation(char, options)
    return char


def _type_choices(char: Character, options: Mapping[str, Any]) -> list[str] | None:
    p = char.priority("pouvoirs")
    if p is None:
        return None
    return list(options["hero_types"].get(str(p), HERO_TYPES))


def _attr_points(char: Character, options: Mapping[str, Any]) -> int:
    if options["attribute_points"] == "above_one":
        return sum(v - 1 for v in char.attributes)
    return sum(char.attributes)


def _check_creation(char: Character, options: Mapping[str, Any]) -> Character:
    """R6: priorities, budgets and caps; fills the hero type when only one fits."""
    prios = _creation_priorities(char)
    _check_attribute_budget(char, prios, options)
    char = _check_hero_type(char, prios, options)
    _check_powers(char, prios, options)
    return char


def _creation_priorities(char: Character) -> dict[str, int]:
    """R6: the five Characteristics, each at a different priority 1-5."""
    prios = dict(char.priorities)
    if set(prios) != set(CHARACTERISTICS) or sorted(prios.values()) != [1, 2, 3, 4, 5]:
        raise refuse(
            "R6",
            "création : donnez à chacune des cinq Caractéristiques (attributs, competences, pouvoirs, traits,"
            " experience) une priorité différente de 1 à 5 (ou créez avec \"check\": false)",
            "creation: give each of the five Characteristics (attributs, competences, pouvoirs, traits,"
            " experience) a different priority 1..5 (or create with \"check\": false)",
        )
    return prios


def _check_attribute_budget(char: Character, prios: Mapping[str, int], options: Mapping[str, Any]) -> None:
    """R6: the attributes' cap and points at their priority."""
    budget = options["attribute_budgets"].get(str(prios["attributs"]))
    if budget is not None:
        cap = budget["max"]
        over = [f"{a} {v}" for a, v in zip(ATTRIBUTES, char.attributes) if v > cap]
        if over:
            raise refuse(
                "R6",
                f"création : avec les Attributs en priorité {prios['attributs']}, aucun attribut ne peut dépasser {cap}"
                f" ({', '.join(over)})",
                f"creation: with Attributs at priority {prios['attributs']} no attribute may exceed {cap}"
                f" ({', '.join(over)})",
            )
        pts = _attr_points(char, options)
        if pts > budget["points"]:
            raise refuse(
                "R6",
                f"création : les attributs coûtent {pts} points ; la priorité {prios['attributs']} en donne {budget['points']}",
                f"creation: the attributes cost {pts} points; priority {prios['attributs']} gives {budget['points']}",
            )


def _check_hero_type(char: Character, prios: Mapping[str, int], options: Mapping[str, Any]) -> Character:
    """R6: the hero type the priority of Pouvoirs allows (filled in when only one fits)."""
    choices = _type_choices(char, options)
    if choices is not None:
        if char.hero_type is None and len(choices) == 1:
            char = replace(char, hero_type=choices[0])
        if char.hero_type is not None and char.hero_type not in choices:
            raise refuse(
                "R6",
                f"création : avec les Pouvoirs en priorité {prios['pouvoirs']}, le type de héros est"
                f" {' ou '.join(choices)}, pas {char.hero_type}",
                f"creation: with Pouvoirs at priority {prios['pouvoirs']} the hero type is"
                f" {' or '.join(choices)}, not {char.hero_type}",
            )
    return char


def _check_powers(char: Character, prios: Mapping[str, int], options: Mapping[str, Any]) -> None:
    """R6, W14: the powers fit the hero type, and their points the priority's budget."""
    if char.hero_type is not None:
        own = {fold_name(p) for p in POWERS_BY_TYPE[char.hero_type]} | {fold_name(p) for p in GENERAL_POWERS}
        listed = {fold_name(p): t for t, ps in POWERS_BY_TYPE.items() for p in ps}
        for name, _lv in char.powers:
            key = fold_name(name)
            if key in listed and key not in own:
                raise refuse(
                    "R6",
                    f"création : {name} n'est ni un pouvoir du type {char.hero_type} ni un pouvoir général",
                    f"creation: {name} is not a power of the {char.hero_type} type nor a general power",
                )
    cost = options["power_cost_per_level"]
    pbudget = options["power_budgets"].get(str(prios["pouvoirs"]))
    if cost is not None and pbudget is not None:
        spent = cost * sum(lv for _n, lv in char.powers)
        if spent > pbudget:
            raise refuse(
                "R6",
                f"création : les pouvoirs coûtent {spent} points ; la priorité {prios['pouvoirs']} en donne {pbudget}",
                f"creation: powers cost {spent} points; priority {prios['pouvoirs']} gives {pbudget}",
            )


def creation_report(char: Character, options: Mapping[str, Any]) -> dict[str, Any]:
    """What the creation budgets say about a sheet (shown on the tablet)."""
    prios = dict(char.priorities)
    out: dict[str, Any] = {"checked": char.checked}
    pa = prios.get("attributs")
    budget = options["attribute_budgets"].get(str(pa)) if pa is not None else None
    out["attributes"] = {
        "priority": pa,
        "points": _attr_points(char, options),
        "budget": budget["points"] if budget else None,
        "max": budget["max"] if budget else None,
    }
    pp = prios.get("pouvoirs")
    cost = options["power_cost_per_level"]
    out["powers"] = {
        "priority": pp,
        "levels": sum(lv for _n, lv in char.powers),
        "points": cost * sum(lv for _n, lv in char.powers) if cost is not None else None,
        "budget": options["power_budgets"].get(str(pp)) if pp is not None else None,
        "types": _type_choices(char, options),
    }
    return out


def resolve_skill(char: Character | None, skill: str | None, options: Mapping[str, Any]) -> tuple[int, int, str, str | None]:
    """``(Compétence, re-rolls, how, skill used)`` for a test with ``skill`` (R3, R9, W18).

    ``how`` is ``"skill"`` (Métier/Profession), ``"hobby"`` (narrow skill without its
    parent: its own level), ``"specialisation"`` (narrow skill with its parent: the
    parent's level, plus re-rolls by that level) or ``"untrained"``.
    """
    from .options import reroll_count

    untrained = int(options["untrained_competence"])
    if char is None or skill is None:
        return untrained, 0, "untrained", None
    s = char.skill(skill)
    if s is None:
        return untrained, 0, "untrained", None
    if s.kind != "narrow":
        return int(s.level or 0), 0, "skill", s.name
    parent = char.skill(s.parent) if s.parent else None
    if parent is not None:
        lv = int(parent.level or 0)
        return lv, reroll_count(lv, options), "specialisation", parent.name
    return int(s.level or 0), 0, "hobby", s.name


def secondary(char: Character, options: Mapping[str, Any]) -> dict[str, Any]:
    """R5: death threshold, Chi reserve, base Initiative, thresholds reached."""
    metal, _feu, _terre, eau, _bois = char.attributes
    death = (2 * metal + eau) * 3
    total = sum(char.attributes)
    chi = total // 2 if options["chi_rounding"] == "down" else -(-total // 2)
    dead = char.wounds >= death if options["death_when"] == "reach" else char.wounds > death
    return {
        "death_threshold": death,
        "chi": chi,
        "chi_left": max(0, chi - char.chi_spent),
        "initiative_base": metal,
        "dead": dead,
        "wound_thresholds_reached": [t for t in char.wound_thresholds if char.wounds >= t],
        "panic_thresholds_reached": [t for t in char.panic_thresholds if char.panic >= t],
    }


def sheet_json(char: Character, options: Mapping[str, Any]) -> dict[str, Any]:
    out = char.to_data()
    out["skills"] = [
        {**s.to_json(), "role": _role(char, s)} for s in char.skills
    ]
    out.update({"wounds": char.wounds, "panic": char.panic, "chi_spent": char.chi_spent, "destiny": char.destiny})
    out["secondary"] = secondary(char, options)
    out["creation"] = creation_report(char, options)
    return out


def _role(char: Character, s: Skill) -> str:
    if s.kind != "narrow":
        return s.kind
    return "specialisation" if (s.parent and char.skill(s.parent) is not None) else "hobby"
