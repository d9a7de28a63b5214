"""The spec's decisions as named options, with the spec's defaults (see docs/shayo.md)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from ...errors import EventError
from .odds import ONES_SCOPES, TENS_MODES

__all__ = ["DEFAULTS", "default_options", "check_options", "QUALITIES"]

QUALITIES = ("mediocre", "normal", "superior", "exceptional")

DEFAULTS: dict[str, Any] = {
    # A1: which 1s cancel successes.
    "ones_scope": "all_rolled",
    # A3: net successes needed for a simple test to succeed.
    "required_successes": 1,
    # R3 step 6: keep the best dice automatically (the player may still send shayo.keep
    # while signatures are pending); False: always wait for shayo.keep.
    "auto_keep": True,
    # A6: meaning of the "re-roll 10s" signature: "explode" (10 + a new die) or "extra_die".
    "tens_reroll": "explode",
    # A8: "after_pools" (empty the pools, pay the rest in health) or "only_when_empty".
    "surpass": "after_pools",
    # A9: attribute used for initiative (null: given per combatant in the event).
    "initiative_attribute": None,
    # R13: melee attack difficulty.
    "melee_difficulty": 5,
    # R14 [Decision]: defence roll difficulty (not in the source).
    "defence_difficulty": 5,
    # R8/A13: difficulty added by a manoeuvre.
    "manoeuvre_difficulty": {"mastered": 1, "unmastered": 2},
    # R12 [Inferred amounts]: power = more damage, finesse = ignores armour.
    "power_attack": {"difficulty": 1, "damage_dice": 1},
    "finesse_attack": {"difficulty": 1, "ignore_protection": True},
    # A10: "remaining" or "remaining_minus_one".
    "margin": "remaining",
    # A11: do 1s cancel successes on a damage roll?
    "damage_ones_cancel": True,
    # R16 [Decision]: damage difficulty against a target without armour.
    "unarmoured_sd": 5,
    # A12: life lines (labels and default boxes per line).
    "life_lines": [
        {"fr": "Indemne", "en": "Unhurt", "boxes": 5},
        {"fr": "Blessé", "en": "Wounded", "boxes": 5},
        {"fr": "Grièvement blessé", "en": "Badly wounded", "boxes": 5},
        {"fr": "Mourant", "en": "Dying", "boxes": 5},
    ],
    # R16: lines + 1 box filled by one attack for a grave wound.
    "grave_wound_lines": 2,
    # R17 [Decision]: solidity drops by 1 when one blow's damage exceeds it; 0 = broken.
    "solidity_loss": True,
    # R19/A14 [Decision, placeholders until the rulebook's table]: per target quality,
    # successes to accumulate and potential creation points.
    "quality_table": {
        "mediocre": {"successes": 3, "pc": 2},
        "normal": {"successes": 5, "pc": 4},
        "superior": {"successes": 8, "pc": 8},
        "exceptional": {"successes": 12, "pc": 12},
    },
    # R19.2: minimum mastery per target quality (from the source).
    "mastery": {"mediocre": 2, "normal": 2, "superior": 3, "exceptional": 4},
    # R20/A14 [Decision]: improvement slots (permanent P, temporary T) per quality.
    "improvement_slots": {
        "mediocre": {"P": 0, "T": 1},
        "normal": {"P": 1, "T": 1},
        "superior": {"P": 2, "T": 2},
        "exceptional": {"P": 3, "T": 3},
    },
    # R20/A14 [Decision]: successes an improvement needs = its PC cost (times this factor).
    "improvement_successes_per_pc": 1,
    # A14: "clamp" at mediocre (and flag) or "ruined".
    "below_mediocre": "clamp",
    # A14: critical failure of a crafting period: "more_ones_than_successes" or
    # "ones_and_no_success".
    "critical_failure": "more_ones_than_successes",
}


def default_options() -> dict[str, Any]:
    return copy.deepcopy(DEFAULTS)


def _choice(options: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> None:
    if options[key] not in allowed:
        raise EventError(f"option {key!r} must be one of {', '.join(allowed)}, not {options[key]!r}")


def _int(options: Mapping[str, Any], key: str, lo: int) -> None:
    v = options[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        raise EventError(f"option {key!r} must be an integer >= {lo}, not {v!r}")


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Merge with the defaults and check every option; EventError on a bad one."""
    unknown = set(options) - set(DEFAULTS)
    if unknown:
        raise EventError(f"unknown option(s): {', '.join(sorted(unknown))}")
    out = {**default_options(), **dict(options)}
    _choice(out, "ones_scope", ONES_SCOPES)
    _choice(out, "tens_reroll", TENS_MODES)
    _choice(out, "surpass", ("after_pools", "only_when_empty"))
    _choice(out, "margin", ("remaining", "remaining_minus_one"))
    _choice(out, "below_mediocre", ("clamp", "ruined"))
    _choice(out, "critical_failure", ("more_ones_than_successes", "ones_and_no_success"))
    for key in ("required_successes", "grave_wound_lines", "improvement_successes_per_pc"):
        _int(out, key, 1)
    for key in ("melee_difficulty", "defence_difficulty", "unarmoured_sd"):
        _int(out, key, 2)
    for key in ("auto_keep", "damage_ones_cancel", "solidity_loss"):
        if not isinstance(out[key], bool):
            raise EventError(f"option {key!r} must be true or false")
    ia = out["initiative_attribute"]
    if ia is not None and not isinstance(ia, str):
        raise EventError("option 'initiative_attribute' must be an attribute name or null")
    lines = out["life_lines"]
    if not isinstance(lines, list) or not lines or not all(
        isinstance(x, Mapping) and isinstance(x.get("boxes"), int) and x["boxes"] >= 1 for x in lines
    ):
        raise EventError("option 'life_lines' must be a list of {fr, en, boxes >= 1}")
    for key in ("quality_table", "mastery", "improvement_slots"):
        table = out[key]
        if not isinstance(table, Mapping) or set(table) != set(QUALITIES):
            raise EventError(f"option {key!r} must give every quality: {', '.join(QUALITIES)}")
    for key in ("manoeuvre_difficulty", "power_attack", "finesse_attack"):
        if not isinstance(out[key], Mapping):
            raise EventError(f"option {key!r} must be an object")
    return out
