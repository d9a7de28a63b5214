"""Demo tables that stop where the camera has something to read.

``demo_events(game)`` takes the game's demo log, shipped in the package as
``companion/data/demo/<game>.jsonl`` (``examples/`` links to them), and keeps its
events up to (not including) the first dice read (the event of the game's camera
plug-in, :attr:`companion.games.camera.Camera.event`): a turn waiting for its dice, a
test waiting for its pool, a draw waiting for its gems. The "roll" button then plays that step through the
camera path.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from .match import camera_of

__all__ = ["demo_events", "ROOT"]

ROOT = Path(str(resources.files("companion") / "data" / "demo"))


def demo_events(game: str, root: Path = ROOT) -> list[dict[str, Any]]:
    """The demo events of ``game`` before its first camera read (the event of its camera
    plug-in); [] when the game has no demo log or reads nothing by camera."""
    camera = camera_of(game)
    path = root / f"{game}.jsonl"
    if camera is None or not path.exists():
        return []
    out: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        obj = json.loads(line)
        if obj.get("type") == camera.event:
            break
        obj.pop("seq", None)
        obj.pop("at", None)
        out.append(obj)
    return out
