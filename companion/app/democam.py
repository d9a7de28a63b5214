"""What the demo camera shows for a roll: the faces the players would roll for the step the
game expects, as the game's camera plug-in says, drawn from the vision catalogue's faces.

The camera itself (a rendered tray) is :class:`vision.demo_camera.DemoCamera`.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from vision.catalog import FACES

from ..roll.match import camera_of

__all__ = ["demo_objects"]

Obj = tuple[str, "int | str"]


def demo_objects(game: str | None, state: Mapping[str, Any] | None, rng: random.Random) -> list[Obj]:
    """What a roll shows for the current step (random faces; what the players would roll),
    as the game's camera plug-in says (``demo_objects``; none for a game without one).
    For a pool, the step's d10 count: the whole pool, or for a re-roll only the dice
    rolled again, as players who take the kept dice out of the tray would."""
    camera = camera_of(game)
    if camera is None:
        return []
    return camera.demo_objects(state or {}, FACES, rng)
