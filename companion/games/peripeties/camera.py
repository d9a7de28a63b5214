"""Péripéties through the camera: a read of the tray becomes ``peripeties.dice``.

A step whose ``expects["event"]`` is ``peripeties.dice`` (the episode dice, the trial
die, taels, prison, re-rolls) takes ``{"dice": [{kind, value, box, confidence}]}``.
Every die of a kind the step expects *or has already entered* is sent (the rules take a
read of the whole tray: dice already entered with the same face are harmless, a
re-rolled reward/sentence die is the re-roll). Other objects (gems, a die kind the step
has no use for) are marked ``unexpected`` and left out; they do not block.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..base import text
from ..camera import DemoObj, Match, Obj, die_json, finish, idle, pending

__all__ = ["CAMERA", "PeripetiesCamera"]

_SYMBOLS = ("lieu", "adversaire", "epreuve", "recompense", "sentence")


class PeripetiesCamera:
    """The camera plug-in of Péripéties (see the module docstring)."""

    event = "peripeties.dice"

    def match(self, expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj],
              previous: Mapping[str, Any]) -> Match:
        if expects.get("event") != "peripeties.dice" or not expects.get("dice"):
            return idle(expects)
        kinds = {d.get("kind") for d in expects.get("dice", [])}
        have = expects.get("have") or {}
        kinds.update(role for role in _SYMBOLS if role in have)
        if "difficulty" in have:
            kinds.update({"d10", "d6"})
        m = Match("ready", "peripeties.dice")
        for i, o in enumerate(objects):
            (m.used if o.get("kind") in kinds else m.unexpected).append(i)
        if not m.used:
            m.status = "pending"
            m.message = text("Aucun des dés attendus n'a été vu : relancez ou saisissez-les.",
                              "None of the expected dice was seen: roll again or enter them.")
            return m
        m.data = {"dice": [die_json(objects[i]) for i in m.used if not pending(objects[i])]}
        return finish(m, objects)

    def ready_data(self, m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
        return {"dice": [die_json(objects[i]) for i in m.used]}

    def demo_objects(self, state: Mapping[str, Any], faces: Mapping[str, Sequence[int | str]],
                     rng: random.Random) -> list[DemoObj]:
        """The dice the step waits for: the trial die first (a random trial), then the
        others, leaving out the optional ones and those that depend on another die
        (the players roll those when asked), except the difficulty of the trial rolled."""
        expects = state.get("expects") or {}
        dice = list(expects.get("dice") or [])
        out: list[DemoObj] = []
        trial_kind = (expects.get("have") or {}).get("epreuve")
        for d in dice:
            if d.get("kind") == "epreuve":
                trial_kind = rng.choice(["combat", "combat", "combat", "esprit", "esprit", "magie"])
                out.append(("epreuve", trial_kind))
        for d in dice:
            if _rolled_now(d, trial_kind):
                kind = str(d.get("kind"))
                out += [(kind, rng.choice(faces[kind])) for _ in range(int(d.get("count", 1)))]
        return out


def _rolled_now(d: Mapping[str, Any], trial_kind: Any) -> bool:
    """Whether a demo roll shows the die ``d`` (the trial die is rolled first)."""
    cond = d.get("if") or {}
    if d.get("kind") == "epreuve" or d.get("optional"):
        return False
    if "epreuve" in cond:
        return trial_kind in cond["epreuve"]
    return not cond


CAMERA = PeripetiesCamera()
