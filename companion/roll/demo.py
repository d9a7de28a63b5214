"""Demo tables that stop where the camera has something to read.

``demo_events(game)`` takes the game's demo log, shipped in the package as
``companion/data/demo/<game>.jsonl`` (``examples/`` links to them), and keeps its
events up to (not including) the first dice read: a Péripéties turn waiting for the
episode dice, a Wuxia test waiting for its pool, a Shayo test waiting for its roll, an
ESPRI Appel waiting for the gems. The "roll" button then plays that step through the
camera path.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from .match import CAMERA_EVENTS

__all__ = ["demo_events", "EXAMPLES"]

EXAMPLES = {game: f"{game}.jsonl" for game in ("peripeties", "wuxia", "shayo", "espri")}
ROOT = Path(str(resources.files("companion") / "data" / "demo"))


def demo_events(game: str, root: Path = ROOT) -> list[dict[str, Any]]:
    """The demo events of ``game`` before its first camera read ([] if none)."""
    name = EXAMPLES.get(game)
    path = root / name if name else None
    if path is None or not path.exists():
        return []
    out: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        obj = json.loads(line)
        if obj.get("type") == CAMERA_EVENTS.get(game):
            break
        obj.pop("seq", None)
        obj.pop("at", None)
        out.append(obj)
    return out
