"""Wuxia's named options: every decision of the spec, with the spec's default.

The ids in brackets are the spec's (``/work/shared/rules/wuxia.md``). Values are JSON.
:func:`check_options` refuses an ill-typed value with a clear message.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...errors import EventError

__all__ = ["DEFAULT_OPTIONS", "OPTION_DOCS", "check_options", "reroll_count"]

DEFAULT_OPTIONS: dict[str, Any] = {
    # -- the test ------------------------------------------------------------------
    "threshold_rule": "at_least",  # W1: a die >= T succeeds ("above": > T)
    "sr_min": 8,  # R7/R8: SR from 8 (routine)...
    "sr_max": 13,  # ...to 13 (extreme)
    "quality": "successes",  # W4: quality = successes ("net": successes - 1s, at least 1)
    "untrained_competence": 0,  # W18: no skill -> Compétence 0 (T = SR)
    # -- specialisation re-rolls (R9, W5) --------------------------------------------
    "reroll_levels": [[1, 1], [4, 2], [7, 3]],  # W5: skill level >= 1: 1 re-roll, >= 4: 2, >= 7: 3
    "reroll_ones": True,  # W5: a 1 is a failed die and may be re-rolled
    "reroll_only_failed": True,  # R9 decision: only failed dice may be re-rolled
    "reroll_once": True,  # W5: each die at most once
    "odds_reroll_policy": "failed",  # how the odds assume re-rolls are used ("until_success")
    # -- Destiny Dice (R11, W6) ----------------------------------------------------
    "destiny_effect": "record",  # W6: recorded only ("extra_die": +1 d10; "reroll": re-roll any one die)
    # -- competition (R10, W7) -----------------------------------------------------
    "contest_score": "successes",  # W7: compare raw successes ("net": successes - 1s)
    "contest_critical_loses": True,  # W7: a critically failing side cannot win
    # -- character (R5, R6, W8, W9, W14) -------------------------------------------
    "chi_rounding": "down",  # W8: Chi = sum of attributes / 2 rounded down ("up")
    "death_when": "reach",  # W9: dead when NB >= death threshold ("exceed": NB > threshold)
    "attribute_budgets": {"5": {"points": 30, "max": 8}, "1": {"points": 18, "max": 5}},  # R6
    "attribute_points": "values",  # R6/W14: points = sum of the values ("above_one": sum of value - 1)
    "power_budgets": {"5": 60, "1": 20},  # R6
    "power_cost_per_level": None,  # W14: not given -> power points not checked (e.g. 1 to check)
    "hero_types": {"5": ["sorcier"], "1": ["guerrier"], "2": ["moine", "chevalier", "assassin"],
                   "3": ["moine", "chevalier", "assassin"], "4": ["moine", "chevalier", "assassin"]},  # R6 [Inferred]
    # -- combat (R12-R15, W10-W13) -------------------------------------------------
    "combat_sr": 10,  # R13/R14: initiative and attack tests at SR 10
    "initiative_per_success": 1,  # W10: +1 Initiative per success
    "initiative_can_crit": False,  # W10: an initiative test only yields 0 successes
    "attack_extra": "difference",  # W11: extra = attacker S - defender S ("difference_minus_one")
    "damage_needs_extra": False,  # W11: a won attack deals damage even with no extra success left
    "defence_dice_persist": False,  # [Decision] unspent Defence Dice are lost at the next round
    "group_reserve_self_use": False,  # R14: the group reserve serves *other* characters
    "manoeuvre_cost": 1,  # [Decision] successes to activate one manoeuvre (costs not given)
    "stun_terre": 1,  # [Decision] Estourbir: -1 Terre per success invested, next round
    "intimidation_panic": 1,  # [Decision] Intimidation: +1 Panic per success invested
    "critical_damage": 1,  # [Decision] Critique: +1 damage per success invested
}

OPTION_DOCS: dict[str, str] = {
    "threshold_rule": "W1 — at_least: d >= T succeeds; above: d > T",
    "sr_min": "R8 — lowest SR accepted",
    "sr_max": "R8 — highest SR accepted",
    "quality": "W4 — successes | net (successes - 1s, at least 1)",
    "untrained_competence": "W18 — Compétence when the character lacks the skill",
    "reroll_levels": "W5 — [[min level, re-rolls], ...] for a specialisation",
    "reroll_ones": "W5 — 1s may be re-rolled",
    "reroll_only_failed": "R9 — only failed dice may be re-rolled",
    "reroll_once": "W5 — each die re-rolled at most once",
    "odds_reroll_policy": "R9 — failed | until_success: how the odds assume re-rolls are used",
    "destiny_effect": "W6 — record | extra_die | reroll",
    "contest_score": "W7 — successes | net",
    "contest_critical_loses": "W7 — a critical failure cannot win a competition",
    "chi_rounding": "W8 — down | up",
    "death_when": "W9 — reach (NB >= threshold) | exceed (NB > threshold)",
    "attribute_budgets": "R6 — {priority: {points, max}} for the attributes; priorities absent are not checked",
    "attribute_points": "R6/W14 — values | above_one",
    "power_budgets": "R6 — {priority: points} for powers",
    "power_cost_per_level": "W14 — points per power level (null: not checked)",
    "hero_types": "R6 — {priority of Pouvoirs: [allowed hero types]}",
    "combat_sr": "R13/R14 — SR of initiative and attack tests",
    "initiative_per_success": "W10 — Initiative gained per success",
    "initiative_can_crit": "W10 — an initiative test may be a critical failure",
    "attack_extra": "W11 — difference | difference_minus_one",
    "damage_needs_extra": "W11 — damage only with at least one extra success",
    "defence_dice_persist": "Decision — unspent Defence Dice carry over to the next round",
    "group_reserve_self_use": "R14 — a character may use group dice they added",
    "manoeuvre_cost": "Decision — successes per manoeuvre",
    "stun_terre": "Decision — Terre lost per success in Estourbir",
    "intimidation_panic": "Decision — Panic per success in Intimidation",
    "critical_damage": "Decision — extra damage per success in Critique",
}

_CHOICES = {
    "threshold_rule": ("at_least", "above"),
    "quality": ("successes", "net"),
    "odds_reroll_policy": ("failed", "until_success"),
    "destiny_effect": ("record", "extra_die", "reroll"),
    "contest_score": ("successes", "net"),
    "chi_rounding": ("down", "up"),
    "death_when": ("reach", "exceed"),
    "attribute_points": ("values", "above_one"),
    "attack_extra": ("difference", "difference_minus_one"),
}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Merge with defaults and check every value; :class:`EventError` when wrong."""
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise EventError(f"unknown Wuxia option(s): {', '.join(sorted(unknown))}")
    opts = {**DEFAULT_OPTIONS, **options}
    for key, default in DEFAULT_OPTIONS.items():
        v = opts[key]
        if key in _CHOICES:
            if v not in _CHOICES[key]:
                raise EventError(f"option {key} must be one of {', '.join(_CHOICES[key])}, not {v!r}")
        elif isinstance(default, bool):
            if not isinstance(v, bool):
                raise EventError(f"option {key} must be true or false, not {v!r}")
        elif _is_int(default):
            if not _is_int(v) or v < 0:
                raise EventError(f"option {key} must be a non-negative integer, not {v!r}")
    if not opts["sr_min"] <= opts["sr_max"]:
        raise EventError("option sr_min must not exceed sr_max")
    levels = opts["reroll_levels"]
    if not isinstance(levels, list) or not all(
        isinstance(x, list) and len(x) == 2 and _is_int(x[0]) and _is_int(x[1]) and x[1] >= 0 for x in levels
    ):
        raise EventError("option reroll_levels must be a list of [min level, re-rolls] pairs of integers")
    pc = opts["power_cost_per_level"]
    if pc is not None and (not _is_int(pc) or pc < 1):
        raise EventError("option power_cost_per_level must be null or a positive integer")
    ab = opts["attribute_budgets"]
    if not isinstance(ab, Mapping) or not all(
        k in "12345" and len(k) == 1 and isinstance(v, Mapping) and _is_int(v.get("points")) and _is_int(v.get("max"))
        for k, v in ab.items()
    ):
        raise EventError('option attribute_budgets must look like {"5": {"points": 30, "max": 8}}')
    pb = opts["power_budgets"]
    if not isinstance(pb, Mapping) or not all(len(k) == 1 and k in "12345" and _is_int(v) for k, v in pb.items()):
        raise EventError('option power_budgets must look like {"5": 60, "1": 20}')
    ht = opts["hero_types"]
    if not isinstance(ht, Mapping) or not all(
        len(k) == 1 and k in "12345" and isinstance(v, list) and all(isinstance(t, str) for t in v) for k, v in ht.items()
    ):
        raise EventError('option hero_types must look like {"5": ["sorcier"], ...}')
    return opts


def reroll_count(level: int, options: Mapping[str, Any]) -> int:
    """Re-rolls a specialisation grants for its parent skill at ``level`` (R9, W5)."""
    best = 0
    for min_level, n in sorted(options["reroll_levels"]):
        if level >= min_level:
            best = n
    return best
