"""Wuxia through the camera: a read of the tray becomes ``wuxia.roll {"who", "dice"}``.

Steps ``roll`` (the whole pool), ``reroll_dice`` (the dice chosen for a re-roll) and
``extra_dice`` (Destiny Dice added to the pool): the number of d10 read must be the
number the step waits for; a re-roll may leave the kept dice in place
(:func:`companion.games.camera.rerolled`).
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..camera import DemoObj, Match, Obj, d10_demo, d10_wanted, idle, pool, pool_values, rerolled

__all__ = ["CAMERA", "WuxiaCamera"]


class WuxiaCamera:
    """The camera plug-in of Wuxia (see the module docstring)."""

    event = "wuxia.roll"

    def match(self, expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj],
              previous: Mapping[str, Any]) -> Match:
        step = expects.get("step")
        if step not in ("roll", "reroll_dice", "extra_dice"):
            return idle(expects)
        want = d10_wanted(expects)
        used, other = pool(objects, "d10")
        m = Match("ready", "wuxia.roll", unexpected=other)
        if expects.get("who"):
            m.data["who"] = expects["who"]
        test_i = expects.get("test")
        tests = state.get("tests") or []
        test = tests[test_i] if isinstance(test_i, int) and 0 <= test_i < len(tests) else {}
        faces = list((test.get("faces") if isinstance(test, dict) else None) or [])
        if step == "roll":
            m.positions = list(range(len(used)))
        elif step == "reroll_dice":
            indices = list(expects.get("indices") or [])
            used = rerolled(m, objects, used, previous, faces, indices, indices)
        else:
            used = rerolled(m, objects, used, previous, faces, [], list(range(len(faces), len(faces) + want)))
        return pool_values(m, objects, used, want)

    def ready_data(self, m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
        return {**m.data, "dice": [int(objects[i]["value"]) for i in m.used]}

    def demo_objects(self, state: Mapping[str, Any], faces: Mapping[str, Sequence[int | str]],
                     rng: random.Random) -> list[DemoObj]:
        return d10_demo(state.get("expects") or {}, rng)


CAMERA = WuxiaCamera()
