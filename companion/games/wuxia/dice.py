"""Reading a Wuxia pool: the threshold, each die's class, the test's outcome (R7).

Pure functions on plain values, shared by the rules (:mod:`.game`) and the odds
(:mod:`.odds`).

- Threshold T = SR - Compétence (R7.2). It may be below 2 or above 10: a 1 always fails
  and a 10 always succeeds (R7.4), so T <= 2 behaves as 2 and T >= 10 as 10.
- A die succeeds iff it is not a 1 and (face >= T or face = 10) -- W1 settles ">=";
  the option ``threshold_rule = "above"`` gives the source's other wording (face > T).
- Outcome (R7.6, W3): more 1s than successes is a critical failure, even with successes;
  else at least one success is a success; else a plain failure.
- Quality (W4): the number of successes by default (``quality = "successes"``), or
  successes - 1s, at least 1 (``quality = "net"``). One success is quality 1; each success beyond the
  first improves it (the effect of a quality is the GM's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ...odds.d10 import DieClasses

__all__ = [
    "FACES",
    "THRESHOLD_RULES",
    "QUALITY_MODES",
    "threshold",
    "die_classes",
    "classify",
    "PoolResult",
    "evaluate",
    "outcome_of",
]

#: The faces of a Wuxia die (a d10 whose "0" face counts 10).
FACES = tuple(range(1, 11))
THRESHOLD_RULES = ("at_least", "above")
QUALITY_MODES = ("successes", "net")


def threshold(sr: int, competence: int) -> int:
    """T = SR - Compétence (R7.2)."""
    return sr - competence


def is_success(face: int, t: int, rule: str = "at_least") -> bool:
    if face == 1:
        return False
    if face == 10:
        return True
    return face >= t if rule == "at_least" else face > t


def classify(face: int, t: int, rule: str = "at_least") -> str:
    """``"one"``, ``"success"`` or ``"failure"`` for one die against threshold ``t``."""
    if face == 1:
        return "one"
    return "success" if is_success(face, t, rule) else "failure"


def die_classes(t: int, rule: str = "at_least") -> DieClasses:
    """How the ten faces split against threshold ``t`` (R16)."""
    ok = sum(1 for f in FACES if is_success(f, t, rule))
    return DieClasses(success=ok, one=1, other=9 - ok)


def outcome_of(successes: int, ones: int) -> str:
    """``"critical"``, ``"success"`` or ``"failure"`` from the counts (R7.6, W3)."""
    if ones > successes:
        return "critical"
    if successes >= 1:
        return "success"
    return "failure"


@dataclass(frozen=True)
class PoolResult:
    """What a rolled pool means."""

    faces: tuple[int, ...]
    threshold: int
    classes: tuple[str, ...]
    successes: int
    ones: int
    outcome: str  # "success" | "failure" | "critical"
    quality: int  # 0 unless a success

    @property
    def failed_indices(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.classes) if c != "success")

    def to_json(self) -> dict[str, object]:
        return {
            "dice": list(self.faces),
            "threshold": self.threshold,
            "classes": list(self.classes),
            "successes": self.successes,
            "ones": self.ones,
            "outcome": self.outcome,
            "critical_failure": self.outcome == "critical",
            "quality": self.quality,
        }


def evaluate(faces: Sequence[int] | Iterable[int], t: int, rule: str = "at_least",
             quality: str = "successes") -> PoolResult:
    """Classify every die and the whole pool (R7.4 to R7.6)."""
    faces = tuple(faces)
    classes = tuple(classify(f, t, rule) for f in faces)
    s = classes.count("success")
    u = classes.count("one")
    out = outcome_of(s, u)
    q = 0
    if out == "success":
        q = s if quality == "successes" else max(1, s - u)
    return PoolResult(faces, t, classes, s, u, out, q)
