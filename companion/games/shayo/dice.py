"""The test on real dice: which dice are kept, successes, 1s that cancel (R2, R3, A1, A2, A5).

Pure functions over a tuple of die values (a d10's "0" face is 10; a die may read above
10 after an exploding 10 or a "+1") and a tuple of "cancelled" flags (1s neutralised by a
"cancel a 1" signature).

Scopes of the 1s (option ``ones_scope``, A1):

- ``all_rolled`` (default): the player keeps the best non-1 dice; **every** 1 rolled
  that is not cancelled cancels one success among the kept dice;
- ``kept_only``: only kept 1s cancel (the player keeps a 1 only when forced to);
- ``ones_forced_kept``: 1s must be kept first, take keep slots, and cancel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..refusal import refuse

__all__ = ["Count", "best_keep", "check_keep", "count", "is_active_one", "keep_size"]


@dataclass(frozen=True)
class Count:
    """The counted test."""

    kept: tuple[int, ...]  # indices of the kept dice
    successes: int  # kept dice at or above the difficulty
    ones: int  # 1s that cancel (per the scope)
    cancelled: int  # successes cancelled by those 1s
    net: int

    def to_json(self) -> dict[str, Any]:
        return {"kept": list(self.kept), "successes": self.successes, "ones": self.ones,
                "cancelled": self.cancelled, "net": self.net}


def is_active_one(values: Sequence[int], cancelled: Sequence[bool], i: int) -> bool:
    return values[i] == 1 and not cancelled[i]


def keep_size(rolled: int, kept: int) -> int:
    """A5: keep at most what was rolled; nothing when the keep is 0 or less."""
    return max(0, min(kept, rolled))


def best_keep(values: Sequence[int], cancelled: Sequence[bool], kept: int, scope: str) -> tuple[int, ...]:
    """The keep a player wants: highest dice, active 1s last (or first if forced, A1)."""
    n = keep_size(len(values), kept)
    idx = range(len(values))
    ones = [i for i in idx if is_active_one(values, cancelled, i)]
    rest = sorted((i for i in idx if not is_active_one(values, cancelled, i)), key=lambda i: (-values[i], i))
    order = ones + rest if scope == "ones_forced_kept" else rest + ones
    return tuple(sorted(order[:n]))


def check_keep(values: Sequence[int], cancelled: Sequence[bool], kept: int, scope: str, chosen: Sequence[int]) -> tuple[int, ...]:
    """Validate a player's keep (R3 step 6): exactly min(keep, rolled) distinct dice;
    with ``ones_forced_kept`` every active 1 (up to the keep) must be among them."""
    n = keep_size(len(values), kept)
    if any(not isinstance(i, int) or isinstance(i, bool) for i in chosen):
        raise refuse(
            "R3",
            "les dés gardés se donnent par leur position (0, 1, 2…) dans le jet",
            "kept dice are given by their position (0, 1, 2...) in the roll",
        )
    if len(set(chosen)) != len(chosen):
        raise refuse("R3", "un dé ne peut pas être gardé deux fois", "a die cannot be kept twice")
    bad = [i for i in chosen if not 0 <= i < len(values)]
    if bad:
        raise refuse(
            "R3",
            f"aucun dé en position(s) {bad} : le jet compte {len(values)} dés",
            f"no die at position(s) {bad}: the roll has {len(values)} dice",
        )
    if len(chosen) != n:
        raise refuse(
            "R3",
            f"gardez exactement {n} dés ({kept} gardés sur {len(values)} lancés), pas {len(chosen)}",
            f"keep exactly {n} dice (keep {kept} of {len(values)} rolled), not {len(chosen)}",
        )
    if scope == "ones_forced_kept":
        ones = [i for i in range(len(values)) if is_active_one(values, cancelled, i)]
        need = min(len(ones), n)
        if sum(1 for i in chosen if i in ones) < need:
            raise refuse(
                "A1",
                "les 1 doivent être gardés d'abord (option ones_forced_kept)",
                "the 1s must be kept first (option ones_forced_kept)",
            )
    return tuple(sorted(chosen))


def count(
    values: Sequence[int],
    cancelled: Sequence[bool],
    kept_idx: Sequence[int],
    difficulty: int,
    scope: str,
    ones_cancel: bool = True,
) -> Count:
    """R2/R3 step 7: successes among kept dice, minus the 1s that cancel, floored at 0."""
    kept_set = set(kept_idx)
    successes = sum(1 for i in kept_set if values[i] != 1 and values[i] >= difficulty)
    if not ones_cancel:
        ones = 0
    elif scope == "all_rolled":
        ones = sum(1 for i in range(len(values)) if is_active_one(values, cancelled, i))
    else:
        ones = sum(1 for i in kept_set if is_active_one(values, cancelled, i))
    net = max(0, successes - ones)
    return Count(tuple(sorted(kept_set)), successes, ones, successes - net, net)
