"""ESPRI through the camera: a read of the drawn gems becomes ``espri.draw {"gems"}``
(step ``draw``) or ``espri.setup_draw {"gems", "character"}`` (step ``setup_draw``).
The number of gems read must be the number the step draws.

A gem pending with no colour at all (``value`` None) is one the reader could not
measure: on a plain photo with nothing white in view (a dark felt), every gem comes so
(``vision.gem_colour.white_holds``). The message then says so first, and what to do: a
white card in the tray.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..base import text
from ..camera import DemoObj, Match, Obj, count_msg, finish, idle, pool

__all__ = ["CAMERA", "EspriCamera"]


class EspriCamera:
    """The camera plug-in of ESPRI (see the module docstring)."""

    event = "espri.draw"

    def match(self, expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj],
              previous: Mapping[str, Any]) -> Match:
        step = expects.get("step")
        if step not in ("draw", "setup_draw"):
            return idle(expects)
        want = int(expects.get("gems") or 0)
        used, other = pool(objects, "gem")
        etype = "espri.draw" if step == "draw" else "espri.setup_draw"
        m = Match("ready", etype, used=used, unexpected=other, positions=list(range(len(used))))
        if len(used) != want:
            m.status = "pending"
            m.message = count_msg(want, len(used), ("gemme(s)", "gem(s)"))
            return _unmeasured(m, [objects[i] for i in used])
        m.data = {"gems": [objects[i]["value"] for i in used]}
        if step == "setup_draw":
            m.data["character"] = expects.get("character")
        return _unmeasured(finish(m, objects), [objects[i] for i in used])

    def ready_data(self, m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
        out: dict[str, Any] = {"gems": [objects[i]["value"] for i in m.used]}
        if m.type == "espri.setup_draw":
            out["character"] = m.data.get("character")
        return out

    def demo_objects(self, state: Mapping[str, Any], faces: Mapping[str, Sequence[int | str]],
                     rng: random.Random) -> list[DemoObj]:
        """The step's gem count, drawn from the bag (``state["pool"]``: counts by gem, as
        a mapping or in the order of ``faces["gem"]``; every gem once when it is empty)."""
        n = int((state.get("expects") or {}).get("gems") or 0)
        pool_ = state.get("pool")
        bag: list[str] = []
        if isinstance(pool_, Mapping):
            for g, c in pool_.items():
                bag += [str(g)] * int(c)
        elif isinstance(pool_, list) and len(pool_) == len(faces["gem"]):
            for g, c in zip(faces["gem"], pool_):
                bag += [str(g)] * int(c)
        if not bag:
            bag = [str(g) for g in faces["gem"]]
        rng.shuffle(bag)
        return [("gem", g) for g in bag[:n]]


CAMERA = EspriCamera()


def _unmeasured(m: Match, gems: Sequence[Obj]) -> Match:
    """``m`` with its message led by "colours unreadable" when a gem came with no colour
    at all (pending, ``value`` None: nothing white in view to measure it against)."""
    if not any(o.get("status") == "pending" and o.get("value") is None for o in gems):
        return m
    lead = text("Couleurs illisibles : rien de blanc en vue. Posez une carte blanche dans le plateau, "
                "ou touchez chaque gemme pour choisir sa couleur.",
                "Colours unreadable: nothing white in view. Lay a white card in the tray, or tap each gem "
                "to pick its colour.")
    old = m.message or {}
    m.message = {k: lead[k] + (" " + old[k] if old.get(k) else "") for k in lead}
    return m
