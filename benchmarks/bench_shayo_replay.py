"""Replay speed of a long Shayo log (target: 10,000 events in under 1 s).

    python benchmarks/bench_shayo_replay.py

Prints the replay CPU time (process time: other programs on the Pi do not skew it) of 10,000 events (tests, rolls, attacks with defence and damage)
and, as a baseline measured in the same run, the time to parse the same events alone.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.events import parse_event  # noqa: E402
from companion.table import Table  # noqa: E402


def build(n: int = 10_000) -> list[dict]:
    rng = random.Random(1)
    evs: list[dict] = [
        {"type": "table.new_game", "data": {"game": "shayo", "seed": 1}},
        {"type": "shayo.character", "data": {"name": "Aiko", "attributes": {"INS": 3, "AGI": 4},
                                             "skills": {"Kenjutsu": 3, "Méditation": 1}, "aspect_value": 2,
                                             "weapons": {"katana": {"dice": 2, "fixed": 1}}}},
        {"type": "shayo.character", "data": {"name": "Ren", "attributes": {"INS": 2, "AGI": 3},
                                             "skills": {"Kenjutsu": 2}, "armour": {"sd": 6, "protection": 2},
                                             "life_boxes": [10000]}},
    ]
    while len(evs) < n:
        if rng.random() < 0.5:
            evs.append({"type": "shayo.test", "data": {"who": "Aiko", "attribute": "agi", "skill": "kenjutsu", "difficulty": 6}})
            evs.append({"type": "shayo.roll", "data": {"dice": [rng.randint(1, 10) for _ in range(4)]}})
        else:
            evs.append({"type": "shayo.attack", "data": {"who": "Aiko", "target": "Ren", "attribute": "agi",
                                                         "skill": "kenjutsu", "weapon": "katana"}})
            evs.append({"type": "shayo.roll", "data": {"dice": [9, 9, 3, 2]}})
            evs.append({"type": "shayo.no_defence", "data": {}})
            evs.append({"type": "shayo.roll", "data": {"dice": [rng.randint(1, 10) for _ in range(4)]}})
    return [{**e, "seq": i + 1} for i, e in enumerate(evs[:n])]


def main() -> None:
    raw = build()
    t0 = time.process_time()
    events = [parse_event(e) for e in raw]
    parse = time.process_time() - t0
    t0 = time.process_time()
    table = Table().replay(events, strict=True)
    replay = time.process_time() - t0
    print(f"events: {len(events)}, skipped: {len(table.skipped)}")
    print(f"parse only (baseline): {parse * 1000:.1f} ms")
    print(f"replay: {replay * 1000:.1f} ms  ({replay / parse:.1f}x parsing; target < 1000 ms)")


if __name__ == "__main__":
    main()
