"""Shayo through the camera: a read of the tray becomes ``shayo.roll {"dice"}`` (step
``roll``) or, for a declared re-roll signature (step ``reroll_dice``),
``shayo.signature {"signature", "dice", "values"}``: its dice rolled again (or, for an
``extra_die`` 10, new dice). The number of d10 read must be the number the step waits
for; a re-roll may leave the kept dice in place (:func:`companion.games.camera.rerolled`).
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..camera import DemoObj, Match, Obj, d10_demo, d10_wanted, idle, pool, pool_values, rerolled

__all__ = ["CAMERA", "ShayoCamera"]


class ShayoCamera:
    """The camera plug-in of Shayo (see the module docstring)."""

    event = "shayo.roll"

    def match(self, expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj],
              previous: Mapping[str, Any]) -> Match:
        step = expects.get("step")
        if step not in ("roll", "reroll_dice"):
            return idle(expects)
        want = d10_wanted(expects)
        used, other = pool(objects, "d10")
        if step == "roll":
            m = Match("ready", "shayo.roll", unexpected=other, positions=list(range(len(used))))
            return pool_values(m, objects, used, want)
        faces = list(expects.get("faces") or [])
        indices = list(expects.get("indices") or [])
        sig = (expects.get("signature") or {}).get("id")
        m = Match("ready", "shayo.signature", unexpected=other, data={"signature": sig, "dice": indices})
        if expects.get("mode") == "extra_die":
            used = rerolled(m, objects, used, previous, faces, [], list(range(len(faces), len(faces) + want)))
        else:
            used = rerolled(m, objects, used, previous, faces, indices, indices)
        return pool_values(m, objects, used, want, "values")

    def ready_data(self, m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
        key = "values" if m.type == "shayo.signature" else "dice"
        return {**m.data, key: [int(objects[i]["value"]) for i in m.used]}

    def demo_objects(self, state: Mapping[str, Any], faces: Mapping[str, Sequence[int | str]],
                     rng: random.Random) -> list[DemoObj]:
        return d10_demo(state.get("expects") or {}, rng)


CAMERA = ShayoCamera()
