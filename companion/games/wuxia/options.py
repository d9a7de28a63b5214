"""Wuxia's named options: every decision of the spec, with the spec's default.

:class:`Options` is the single source (see :mod:`companion.games.options`): each field is
one option, stated once with its default, the spec's decision (ids of
``/work/shared/rules/wuxia.md``), its allowed values and its label in French and English.
``default_options()``, the check in ``new_state``, the tablet's set-up form and the options
table of ``docs/wuxia.md`` all come from it. The rules read the checked options as a
mapping (``state.options["combat_sr"]``), in the order of the fields.

>>> default_options()["sr_min"], default_options()["reroll_levels"]
(8, [[1, 1], [4, 2], [7, 3]])
>>> parse_options({"sr_min": 12, "sr_max": 9})
Traceback (most recent call last):
...
companion.errors.EventError: l'option sr_min (R8) ne peut pas dépasser sr_max : 12 > 9 / option sr_min (R8) must not exceed sr_max: 12 > 9
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..options import OptionSpec, option, option_specs
from ..options import default_options as _defaults
from ..options import parse_options as _parse
from ..refusal import malformed

__all__ = ["Options", "OPTION_SPECS", "default_options", "parse_options", "check_options", "reroll_count"]

_PRIORITY_KEYS = ("1", "2", "3", "4", "5")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_reroll_levels(v: Any) -> tuple[str, str] | None:
    if isinstance(v, list) and all(
        isinstance(x, list) and len(x) == 2 and _is_int(x[0]) and _is_int(x[1]) and 0 <= x[1] <= 10 for x in v
    ):
        return None
    return ("l'option reroll_levels (W5) doit être une liste de paires d'entiers [niveau minimal, relances]"
            " (relances de 0 à 10)",
            "option reroll_levels (W5) must be a list of [min level, re-rolls] pairs of integers (re-rolls 0-10)")


def _check_attribute_budgets(v: Any) -> tuple[str, str] | None:
    if isinstance(v, Mapping) and all(
        k in _PRIORITY_KEYS and isinstance(b, Mapping) and _is_int(b.get("points")) and _is_int(b.get("max"))
        for k, b in v.items()
    ):
        return None
    return ('l\'option attribute_budgets (R6) a la forme {"5": {"points": 30, "max": 8}}',
            'option attribute_budgets (R6) must look like {"5": {"points": 30, "max": 8}}')


def _check_power_budgets(v: Any) -> tuple[str, str] | None:
    if isinstance(v, Mapping) and all(k in _PRIORITY_KEYS and _is_int(b) for k, b in v.items()):
        return None
    return ('l\'option power_budgets (R6) a la forme {"5": 60, "1": 20}',
            'option power_budgets (R6) must look like {"5": 60, "1": 20}')


def _check_power_cost(v: Any) -> tuple[str, str] | None:
    if v is None or (_is_int(v) and 1 <= v <= 100):
        return None
    return (f"l'option power_cost_per_level (W14) doit valoir null ou un nombre entier de 1 à 100, pas {v!r}",
            f"option power_cost_per_level (W14) must be null or a whole number from 1 to 100, not {v!r}")


def _check_hero_types(v: Any) -> tuple[str, str] | None:
    if isinstance(v, Mapping) and all(
        k in _PRIORITY_KEYS and isinstance(t, list) and all(isinstance(x, str) for x in t) for k, t in v.items()
    ):
        return None
    return ('l\'option hero_types (R6) a la forme {"5": ["sorcier"], ...}',
            'option hero_types (R6) must look like {"5": ["sorcier"], ...}')


_MOST = ["moine", "chevalier", "assassin"]


@dataclass(frozen=True)
class Options:
    """Checked options, one field each (the rules read them as a mapping)."""

    # -- the test --------------------------------------------------------------------------
    threshold_rule: str = option(
        "at_least", decision="W1", choices=("at_least", "above"),
        fr="Un dé réussit s'il atteint le seuil T, ou seulement s'il le dépasse",
        en="A die succeeds when it reaches the threshold T, or only when it exceeds it",
        choice_labels=(("S'il atteint le seuil T", "When it reaches the threshold T"),
                       ("S'il dépasse le seuil T", "When it exceeds the threshold T")))
    sr_min: int = option(
        8, decision="R8", lo=1, hi=30,
        fr="SR la plus basse acceptée (8 : routine)", en="Lowest SR accepted (8: routine)")
    sr_max: int = option(
        13, decision="R8", lo=1, hi=30,
        fr="SR la plus haute acceptée (13 : extrême)", en="Highest SR accepted (13: extreme)")
    quality: str = option(
        "successes", decision="W4", choices=("successes", "net"),
        fr="Qualité d'une réussite : les succès, ou succès moins les 1 (au moins 1)",
        en="Quality of a success: the successes, or successes minus the 1s (at least 1)")
    untrained_competence: int = option(
        0, decision="W18", lo=0, hi=10,
        fr="Compétence d'un personnage qui n'a pas la compétence", en="Compétence of a character who lacks the skill")
    # -- specialisation re-rolls (R9, W5) --------------------------------------------------
    reroll_levels: Any = option(
        [[1, 1], [4, 2], [7, 3]], decision="W5", kind="data", check=_check_reroll_levels,
        fr="Relances d'une spécialisation : [[niveau minimal, relances], …]",
        en="Re-rolls of a specialisation: [[min level, re-rolls], …]")
    reroll_ones: bool = option(
        True, decision="W5", fr="Un 1 peut être relancé", en="A 1 may be re-rolled")
    reroll_only_failed: bool = option(
        True, decision="R9", fr="Seuls les dés ratés peuvent être relancés", en="Only failed dice may be re-rolled")
    reroll_once: bool = option(
        True, decision="W5", fr="Chaque dé est relancé au plus une fois", en="Each die is re-rolled at most once")
    odds_reroll_policy: str = option(
        "failed", decision="R9", choices=("failed", "until_success"),
        fr="Relances supposées par les chances : tous les dés ratés, ou seulement jusqu'à un succès",
        en="Re-rolls the odds assume: every failed die, or only until a success")
    # -- Destiny Dice (R11, W6) ------------------------------------------------------------
    destiny_effect: str = option(
        "record", decision="W6", choices=("record", "extra_die", "reroll"),
        fr="Dé de Destinée : noté seulement (le MJ l'applique), +1 d10, ou relance d'un dé",
        en="Destiny Die: recorded only (the GM applies it), +1 d10, or one die re-rolled")
    # -- competition (R10, W7) -------------------------------------------------------------
    contest_score: str = option(
        "successes", decision="W7", choices=("successes", "net"),
        fr="Score d'une opposition : les succès, ou succès moins les 1",
        en="Score of a competition: the successes, or successes minus the 1s")
    contest_critical_loses: bool = option(
        True, decision="W7", fr="Un échec critique ne peut pas gagner une opposition",
        en="A critical failure cannot win a competition")
    # -- character (R5, R6, W8, W9, W14) ---------------------------------------------------
    chi_rounding: str = option(
        "down", decision="W8", choices=("down", "up"),
        fr="Chi = somme des attributs / 2, arrondi vers le bas ou vers le haut",
        en="Chi = sum of the attributes / 2, rounded down or up")
    death_when: str = option(
        "reach", decision="W9", choices=("reach", "exceed"),
        fr="Mort quand les blessures atteignent le seuil de mort, ou quand elles le dépassent",
        en="Dead when the wounds reach the death threshold, or when they exceed it")
    attribute_budgets: Any = option(
        {"5": {"points": 30, "max": 8}, "1": {"points": 18, "max": 5}}, decision="R6", kind="data",
        check=_check_attribute_budgets,
        fr="Points et maximum des attributs par priorité ; une priorité absente n'est pas vérifiée",
        en="Attribute points and maximum per priority; a priority not given is not checked")
    attribute_points: str = option(
        "values", decision="R6/W14", choices=("values", "above_one"),
        fr="Points d'attributs : somme des valeurs, ou somme de (valeur − 1)",
        en="Attribute points: sum of the values, or sum of (value − 1)")
    power_budgets: Any = option(
        {"5": 60, "1": 20}, decision="R6", kind="data", check=_check_power_budgets,
        fr="Points de pouvoirs par priorité", en="Power points per priority")
    power_cost_per_level: Any = option(
        None, decision="W14", kind="data", check=_check_power_cost,
        fr="Points par niveau de pouvoir (null : non vérifié)", en="Points per power level (null: not checked)")
    hero_types: Any = option(
        {"5": ["sorcier"], "1": ["guerrier"], "2": list(_MOST), "3": list(_MOST), "4": list(_MOST)}, decision="R6", kind="data",
        check=_check_hero_types,
        fr="Types de héros permis selon la priorité des Pouvoirs",
        en="Hero types allowed by the priority of Pouvoirs")
    # -- combat (R12-R15, W10-W13) ---------------------------------------------------------
    combat_sr: int = option(
        10, decision="R13/R14", lo=1, hi=30,
        fr="SR des tests d'initiative et d'attaque", en="SR of the initiative and attack tests")
    initiative_per_success: int = option(
        1, decision="W10", lo=0, hi=10,
        fr="Initiative gagnée par succès", en="Initiative gained per success")
    initiative_can_crit: bool = option(
        False, decision="W10", fr="Un test d'initiative peut être un échec critique",
        en="An initiative test may be a critical failure")
    attack_extra: str = option(
        "difference", decision="W11", choices=("difference", "difference_minus_one"),
        fr="Succès en plus d'une attaque : la différence, ou la différence moins un",
        en="Extra successes of an attack: the difference, or the difference minus one")
    damage_needs_extra: bool = option(
        False, decision="W11", fr="Les dommages demandent au moins un succès en plus",
        en="Damage needs at least one extra success")
    defence_dice_persist: bool = option(
        False, decision="Decision", fr="Les Dés de Défense non dépensés passent au round suivant",
        en="Unspent Defence Dice carry over to the next round")
    group_reserve_self_use: bool = option(
        False, decision="R14", fr="Un personnage peut utiliser les dés qu'il a mis dans la réserve de groupe",
        en="A character may use the dice they put in the group reserve")
    manoeuvre_cost: int = option(
        1, decision="Decision", lo=0, hi=10,
        fr="Succès pour activer une manœuvre", en="Successes to activate one manoeuvre")
    stun_terre: int = option(
        1, decision="Decision", lo=0, hi=10,
        fr="Terre perdue par succès investi dans Estourbir", en="Terre lost per success invested in Estourbir")
    intimidation_panic: int = option(
        1, decision="Decision", lo=0, hi=10,
        fr="Panique par succès investi dans Intimidation", en="Panic per success invested in Intimidation")
    critical_damage: int = option(
        1, decision="Decision", lo=0, hi=10,
        fr="Dommages en plus par succès investi dans Critique", en="Extra damage per success invested in Critique")


#: The options in order (derived from :class:`Options`).
OPTION_SPECS: tuple[OptionSpec, ...] = option_specs(Options)


def default_options() -> dict[str, Any]:
    """The defaults as JSON values (a fresh copy)."""
    return _defaults(Options)


def parse_options(raw: Mapping[str, Any]) -> Options:
    """The checked options; :class:`~companion.errors.EventError` names the bad one."""
    opts = _parse(Options, raw, "wuxia")
    if opts.sr_min > opts.sr_max:
        raise malformed(f"l'option sr_min (R8) ne peut pas dépasser sr_max : {opts.sr_min} > {opts.sr_max}",
                        f"option sr_min (R8) must not exceed sr_max: {opts.sr_min} > {opts.sr_max}")
    return opts


def check_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The checked options as the mapping the rules read, in the order of the fields."""
    opts = parse_options(raw)
    return {f.name: getattr(opts, f.name) for f in fields(opts)}


def reroll_count(level: int, options: Mapping[str, Any]) -> int:
    """Re-rolls a specialisation grants for its parent skill at ``level`` (R9, W5)."""
    best = 0
    for min_level, n in sorted(options["reroll_levels"]):
        if level >= min_level:
            best = n
    return best
