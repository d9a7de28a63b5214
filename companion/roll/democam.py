"""The demo camera: a rendered tray that changes only when the dice are rolled.

A real camera sees the same tray until someone rolls; :class:`DemoCamera` does the same
with :mod:`vision.synth`: ``read()`` returns the current picture (the empty tray at
first), and ``prepare(objects)`` renders a new tray holding ``objects`` (in a thread:
about a quarter of a second) that ``read()`` returns once it is ready. The camera pose and
light are fixed, so the empty-tray frame (``background``) calibrates it once.

:func:`demo_objects` says what a roll should show for the step the game expects, so a
newcomer sees each game played through the camera path without any hardware.
"""

from __future__ import annotations

import random
import threading
from typing import Any, Mapping, Sequence

__all__ = ["DemoCamera", "demo_objects", "DEMO_SPEC", "DEMO_PX_PER_MM"]

Obj = tuple[str, "int | str"]


def _spec() -> Any:
    from vision.synth import SceneSpec

    return SceneSpec(size=(960, 720), perspective=0.0, rotation_deg=0.0, gain=(1.0, 1.0), tint=0.0)


DEMO_SPEC = _spec
#: Scale of the demo camera's top-down tray image (its frame shows ~3.4 px/mm).
DEMO_PX_PER_MM = 3.0


class DemoCamera:
    name = "demo"

    def __init__(self, seed: int = 0) -> None:
        from vision.synth import render_tray

        self.seed = seed
        self.spec = _spec()
        empty = render_tray(seed, objects=[], spec=self.spec)
        self.background = empty.background if empty.background is not None else empty.image
        self._frame = empty.image
        self.scene: Any = empty
        self._ready = threading.Event()
        self._ready.set()
        self._lock = threading.Lock()
        self.renders = 0

    def prepare(self, objects: Sequence[Obj], seed: int | None = None) -> None:
        """Render a tray with ``objects`` in the background; ``read()`` waits for it."""
        from vision.synth import render_tray

        self._ready.clear()
        self.seed = self.seed + 1 if seed is None else seed
        s = self.seed

        def run() -> None:
            try:
                scene = render_tray(s, objects=list(objects), spec=self.spec)
                with self._lock:
                    self.scene, self._frame = scene, scene.image
                    self.renders += 1
            finally:
                self._ready.set()

        threading.Thread(target=run, name="demo-render", daemon=True).start()

    def wait_ready(self, timeout: float = 10.0) -> bool:
        return self._ready.wait(timeout)

    def read(self) -> Any:
        self._ready.wait(10.0)
        with self._lock:
            return self._frame

    def lock_exposure(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        pass

    def __enter__(self) -> "DemoCamera":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def demo_objects(game: str | None, state: Mapping[str, Any] | None, rng: random.Random) -> list[Obj]:
    """What a roll shows for the current step (random faces; what the players would roll).

    For a pool the step's d10 count: the whole pool, or for a re-roll (Wuxia's chosen or
    extra dice, a Shayo re-roll signature) only the dice rolled again, as players who
    take the kept dice out of the tray would."""
    from vision.catalog import FACES

    expects = (state or {}).get("expects") or {}
    out: list[Obj] = []
    if game == "peripeties":
        have = expects.get("have") or {}
        trial_kind = have.get("epreuve")
        dice = list(expects.get("dice") or [])
        for d in dice:
            if d.get("kind") == "epreuve":
                trial_kind = rng.choice(["combat", "combat", "combat", "esprit", "esprit", "magie"])
                out.append(("epreuve", trial_kind))
        for d in dice:
            kind, cond = d.get("kind"), d.get("if") or {}
            if kind == "epreuve" or d.get("optional"):
                continue
            if "epreuve" in cond and trial_kind not in cond["epreuve"]:
                continue
            if cond and "epreuve" not in cond:
                continue  # depends on the trial die: the players roll it when asked
            for _ in range(int(d.get("count", 1))):
                out.append((kind, rng.choice(FACES[kind])))
        return out
    if game in ("wuxia", "shayo"):
        n = sum(int(d.get("count", 0)) for d in expects.get("dice", []) if d.get("kind") == "d10")
        return [("d10", rng.randint(1, 10)) for _ in range(n)]
    if game == "espri":
        n = int(expects.get("gems") or 0)
        pool = (state or {}).get("pool")
        bag: list[str] = []
        if isinstance(pool, Mapping):
            for g, c in pool.items():
                bag += [str(g)] * int(c)
        elif isinstance(pool, list) and len(pool) == len(FACES["gem"]):
            for g, c in zip(FACES["gem"], pool):
                bag += [str(g)] * int(c)
        if not bag:
            bag = [str(g) for g in FACES["gem"]]
        rng.shuffle(bag)
        return [("gem", g) for g in bag[:n]]
    return []
