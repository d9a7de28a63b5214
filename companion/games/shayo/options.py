"""Shayo's named options: the spec's decisions, with the spec's defaults (see docs/shayo.md).

:class:`Options` is the single source (see :mod:`companion.games.options`): each field is
one option, stated once with its default, the spec's decision, its allowed values and its
label in French and English. ``default_options()``, the check in ``new_state``, the
tablet's set-up form and the options table of ``docs/shayo.md`` all come from it. The rules
read the checked options as a mapping (``state.options["melee_difficulty"]``).

>>> default_options()["melee_difficulty"]
5
>>> parse_options({"mastery": {"mediocre": 2}})
Traceback (most recent call last):
...
companion.errors.EventError: l'option « mastery » doit donner chaque qualité : mediocre, normal, superior, exceptional / option 'mastery' must give every quality: mediocre, normal, superior, exceptional
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..options import OptionSpec, option, option_specs
from ..options import default_options as _defaults
from ..options import parse_options as _parse
from .odds import ONES_SCOPES, TENS_MODES

__all__ = ["Options", "OPTION_SPECS", "default_options", "parse_options", "check_options", "QUALITIES"]

QUALITIES = ("mediocre", "normal", "superior", "exceptional")


#: Why an option's value is refused, in French and in English.
Problem = tuple[str, str]


def _fields_problem(value: Any, types: Mapping[str, type], name: str) -> Problem | None:
    """Why ``value`` is not an object with exactly these fields, of these types (ints 0-100)."""
    if not isinstance(value, Mapping) or set(value) != set(types):
        return (f"l'option «\u202f{name}\u202f» doit être un objet avec {', '.join(types)}",
                f"option {name!r} must be an object with {', '.join(types)}")
    for key, typ in types.items():
        v = value[key]
        ok = isinstance(v, bool) if typ is bool else (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100)
        if not ok:
            fr, kind = ("true ou false", "true or false") if typ is bool else (
                "un nombre entier de 0 à 100", "a whole number from 0 to 100")
            return (f"l'option «\u202f{name}.{key}\u202f» doit être {fr}, pas {v!r}",
                    f"option '{name}.{key}' must be {kind}, not {v!r}")
    return None


def _object(name: str, types: Mapping[str, type]) -> Callable[[Any], Problem | None]:
    return lambda value: _fields_problem(value, types, name)


def _per_quality(name: str, check: Callable[[Any, str], Problem | None]) -> Callable[[Any], Problem | None]:
    def problem(table: Any) -> Problem | None:
        if not isinstance(table, Mapping) or set(table) != set(QUALITIES):
            return (f"l'option «\u202f{name}\u202f» doit donner chaque qualité\u202f: {', '.join(QUALITIES)}",
                    f"option {name!r} must give every quality: {', '.join(QUALITIES)}")
        for q in QUALITIES:
            why = check(table[q], f"{name}.{q}")
            if why:
                return why
        return None

    return problem


def _mastery_level(v: Any, name: str) -> Problem | None:
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 5:
        return None
    return f"l'option «\u202f{name}\u202f» doit être un niveau de 0 à 5, pas {v!r}", f"option '{name}' must be a level 0-5, not {v!r}"


def _check_initiative_attribute(v: Any) -> Problem | None:
    if v is None or isinstance(v, str):
        return None
    return ("l'option «\u202finitiative_attribute\u202f» doit être un nom d'attribut ou null",
            "option 'initiative_attribute' must be an attribute name or null")


def _check_life_lines(lines: Any) -> Problem | None:
    if not isinstance(lines, list) or not 1 <= len(lines) <= 20 or not all(
        isinstance(x, Mapping) and isinstance(x.get("boxes"), int) and not isinstance(x["boxes"], bool)
        and 1 <= x["boxes"] <= 100 for x in lines
    ):
        return ("l'option «\u202flife_lines\u202f» doit être une liste de 1 à 20 {fr, en, boxes de 1 à 100}",
                "option 'life_lines' must be a list of 1-20 {fr, en, boxes 1-100}")
    if not all(isinstance(x.get("fr"), str) and isinstance(x.get("en"), str) for x in lines):
        return ("chaque ligne de vie demande les libellés «\u202ffr\u202f» et «\u202fen\u202f»",
                "each life line needs 'fr' and 'en' labels")
    return None


@dataclass(frozen=True)
class Options:
    """Checked options, one field each (the rules read them as a mapping)."""

    ones_scope: str = option(
        "all_rolled", decision="A1", choices=ONES_SCOPES,
        fr="Quels 1 annulent des succès : tous les dés lancés, les dés gardés, ou les 1 gardés d'office",
        en="Which 1s cancel successes: every die rolled, the kept dice, or 1s that must be kept")
    required_successes: int = option(
        1, decision="A3", lo=1, hi=20,
        fr="Succès nets pour réussir un test simple", en="Net successes a simple test needs")
    auto_keep: bool = option(
        True, decision="R3.6", fr="Garder d'office les meilleurs dés (sinon attendre shayo.keep)",
        en="Keep the best dice automatically (else wait for shayo.keep)")
    tens_reroll: str = option(
        "explode", decision="A6", choices=TENS_MODES,
        fr="Signature « relancer les 10 » : 10 plus un nouveau dé, ou un dé en plus",
        en="The “re-roll 10s” signature: 10 plus a new die, or one extra die")
    surpass: str = option(
        "after_pools", decision="A8", choices=("after_pools", "only_when_empty"),
        fr="Se dépasser : vider les réserves puis payer le reste en santé, ou seulement réserves vides",
        en="Surpassing oneself: empty the pools then pay the rest in health, or only once they are empty")
    initiative_attribute: Any = option(
        None, decision="A9", kind="data", check=_check_initiative_attribute,
        fr="Attribut de l'initiative (null : donné pour chaque combattant)",
        en="Attribute of initiative (null: given per combatant)")
    melee_difficulty: int = option(
        5, decision="R13", lo=2, hi=10, fr="Difficulté d'une attaque au contact", en="Difficulty of a melee attack")
    defence_difficulty: int = option(
        5, decision="R14", lo=2, hi=10, fr="Difficulté d'un jet de défense", en="Difficulty of a defence roll")
    manoeuvre_difficulty: Any = option(
        {"mastered": 1, "unmastered": 2}, decision="R8/A13", kind="data",
        check=_object("manoeuvre_difficulty", {"mastered": int, "unmastered": int}),
        fr="Difficulté ajoutée par une manœuvre, maîtrisée ou non",
        en="Difficulty added by a manoeuvre, mastered or not")
    power_attack: Any = option(
        {"difficulty": 1, "damage_dice": 1}, decision="R12", kind="data",
        check=_object("power_attack", {"difficulty": int, "damage_dice": int}),
        fr="Attaque en puissance : difficulté en plus, dés de dégâts en plus",
        en="Power attack: extra difficulty, extra damage dice")
    finesse_attack: Any = option(
        {"difficulty": 1, "ignore_protection": True}, decision="R12", kind="data",
        check=_object("finesse_attack", {"difficulty": int, "ignore_protection": bool}),
        fr="Attaque en finesse : difficulté en plus, ignore la protection",
        en="Finesse attack: extra difficulty, ignores protection")
    margin: str = option(
        "remaining", decision="A10", choices=("remaining", "remaining_minus_one"),
        fr="Marge d'une attaque : les succès restants, ou les succès restants moins un",
        en="Margin of an attack: the successes left, or the successes left minus one")
    damage_ones_cancel: bool = option(
        True, decision="A11", fr="Les 1 annulent des succès sur un jet de dégâts",
        en="1s cancel successes on a damage roll")
    unarmoured_sd: int = option(
        5, decision="R16", lo=2, hi=10, fr="Difficulté des dégâts contre une cible sans armure",
        en="Damage difficulty against a target without armour")
    life_lines: Any = option(
        [
            {"fr": "Indemne", "en": "Unhurt", "boxes": 5},
            {"fr": "Blessé", "en": "Wounded", "boxes": 5},
            {"fr": "Grièvement blessé", "en": "Badly wounded", "boxes": 5},
            {"fr": "Mourant", "en": "Dying", "boxes": 5},
        ],
        decision="A12", kind="data", check=_check_life_lines,
        fr="Lignes de vie : libellés et cases par ligne", en="Life lines: labels and boxes per line")
    grave_wound_lines: int = option(
        2, decision="R16", lo=1, hi=20,
        fr="Lignes (plus une case) remplies d'un coup pour une blessure grave",
        en="Lines (plus one box) filled by one attack for a grave wound")
    solidity_loss: bool = option(
        True, decision="R17", fr="La solidité baisse de 1 quand les dégâts d'un coup la dépassent",
        en="Solidity drops by 1 when one blow's damage exceeds it")
    quality_table: Any = option(
        {
            "mediocre": {"successes": 3, "pc": 2},
            "normal": {"successes": 5, "pc": 4},
            "superior": {"successes": 8, "pc": 8},
            "exceptional": {"successes": 12, "pc": 12},
        },
        decision="R19/A14", kind="data",
        check=_per_quality("quality_table", lambda v, n: _fields_problem(v, {"successes": int, "pc": int}, n)),
        fr="Par qualité visée : succès à accumuler et points de création",
        en="Per target quality: successes to accumulate and creation points")
    mastery: Any = option(
        {"mediocre": 2, "normal": 2, "superior": 3, "exceptional": 4}, decision="R19.2", kind="data",
        check=_per_quality("mastery", _mastery_level),
        fr="Maîtrise minimale par qualité visée", en="Minimum mastery per target quality")
    improvement_slots: Any = option(
        {
            "mediocre": {"P": 0, "T": 1},
            "normal": {"P": 1, "T": 1},
            "superior": {"P": 2, "T": 2},
            "exceptional": {"P": 3, "T": 3},
        },
        decision="R20/A14", kind="data",
        check=_per_quality("improvement_slots", lambda v, n: _fields_problem(v, {"P": int, "T": int}, n)),
        fr="Emplacements d'amélioration (permanents P, temporaires T) par qualité",
        en="Improvement slots (permanent P, temporary T) per quality")
    improvement_successes_per_pc: int = option(
        1, decision="R20/A14", lo=1, hi=20,
        fr="Succès d'une amélioration par point de création de son coût",
        en="Successes of an improvement per creation point of its cost")
    below_mediocre: str = option(
        "clamp", decision="A14", choices=("clamp", "ruined"),
        fr="Qualité sous médiocre : rester médiocre (signalé), ou objet gâché",
        en="Quality below mediocre: stay mediocre (flagged), or the item is ruined")
    critical_failure: str = option(
        "more_ones_than_successes", decision="A14", choices=("more_ones_than_successes", "ones_and_no_success"),
        fr="Échec critique d'une période d'artisanat : plus de 1 que de succès, ou des 1 et aucun succès",
        en="Critical failure of a crafting period: more 1s than successes, or 1s and no success")


#: The options in order (derived from :class:`Options`).
OPTION_SPECS: tuple[OptionSpec, ...] = option_specs(Options)


def default_options() -> dict[str, Any]:
    """The defaults as JSON values (a fresh copy)."""
    return _defaults(Options)


def parse_options(raw: Mapping[str, Any]) -> Options:
    """The checked options; :class:`~companion.errors.EventError` names the bad one."""
    return _parse(Options, raw, "shayo")


def check_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The checked options as the mapping the rules read, in the order of the fields."""
    opts = parse_options(raw)
    return {f.name: getattr(opts, f.name) for f in fields(opts)}
