"""Demo tables: packaged logs that start a game at an interesting moment.

``companion serve --demo`` folds ``companion/data/demo/<game>.jsonl`` into a fresh table
so a newcomer sees a game in progress (characters, an episode, odds) at once.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["demo_events"]


def demo_events(game: str) -> list[dict[str, Any]]:
    """The demo log of ``game`` as event objects, without its ``table.new_game`` (the
    server starts the game itself); empty when the game ships no demo."""
    try:
        text = (resources.files("companion") / "data" / "demo" / f"{game}.jsonl").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return []
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        obj = json.loads(line)
        if obj.get("type") != "table.new_game":
            out.append(obj)
    return out
