"""The demo camera: a rendered tray that changes only when the dice are rolled.

A real camera sees the same tray until someone rolls; :class:`DemoCamera` does the same
with :mod:`vision.synth`: ``read()`` returns the current picture (the empty tray at
first), and ``prepare(objects)`` renders a new tray holding ``objects`` (in a thread:
about a quarter of a second) that ``read()`` returns once it is ready. The camera pose and
light are fixed, so the empty-tray frame (``background``) calibrates it once.

What a roll shows for the step the game expects (``demo_objects``) is the game's camera
plug-in's to say; :mod:`companion.app.democam` asks it, so a newcomer sees each game played
through the camera path without any hardware.
"""

from __future__ import annotations

import random
import threading
from typing import Any, Sequence

import cv2
import numpy as np

from .synth import SceneSpec, render_tray

__all__ = ["DemoCamera", "on_same_tray", "DEMO_SPEC", "DEMO_PX_PER_MM"]

Obj = tuple[str, "int | str"]


def _spec() -> Any:
    return SceneSpec(size=(960, 720), perspective=0.0, rotation_deg=0.0, gain=(1.0, 1.0), tint=0.0)


DEMO_SPEC = _spec
#: Scale of the demo camera's top-down tray image (its frame shows ~3.4 px/mm).
DEMO_PX_PER_MM = 3.0
#: The render seeds of the demo's gem colours (:meth:`DemoCamera.gem_colours`).
GEM_VIEWS_SEED = 9000


class DemoCamera:
    name = "demo"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.spec = _spec()
        empty = render_tray(seed, objects=[], spec=self.spec)
        self.background = empty.background if empty.background is not None else empty.image
        self._empty = empty.image
        self._frame = empty.image
        self.scene: Any = empty
        self._ready = threading.Event()
        self._ready.set()
        self._lock = threading.Lock()
        self.renders = 0
        #: Frames showing a hand over the tray after each roll (before the dice lie still).
        #: Without a tray, the stillness detector needs that motion, as with a real camera;
        #: with a tray (the tray says when the dice settled) it stays 0.
        self.hand_frames = 0
        self._hand_left = 0

    def prepare(self, objects: Sequence[Obj], seed: int | None = None) -> None:
        """Render a tray with ``objects`` in the background; ``read()`` waits for it."""
        self._ready.clear()
        self._hand_left = self.hand_frames
        self.seed = self.seed + 1 if seed is None else seed
        s = self.seed

        def run() -> None:
            try:
                scene = render_tray(s, objects=list(objects), spec=self.spec)
                frame = on_same_tray(scene.image, scene.background, self._empty)
                with self._lock:
                    self.scene, self._frame = scene, frame
                    self.renders += 1
            finally:
                self._ready.set()

        threading.Thread(target=run, name="demo-render", daemon=True).start()

    def wait_ready(self, timeout: float = 10.0) -> bool:
        return self._ready.wait(timeout)

    def read(self) -> Any:
        self._ready.wait(10.0)
        with self._lock:
            if self._hand_left > 0:
                self._hand_left -= 1
                return _hand_over(self._frame)
            return self._frame

    def lock_exposure(self) -> dict[str, Any]:
        return {}

    def gem_colours(self, views: int = 3) -> dict[str, np.ndarray]:
        """The demo's own gem colours, as the players teach theirs in the calibration
        wizard: ``views`` photos of each colour in the tray (here ``views`` rendered trays
        holding one gem of every colour, each gem enrolled by its box,
        :func:`vision.enroll_photos.enroll_frame`; 1 s), as
        :meth:`vision.enroll.Enrollment.players_gem_colours` gives them. The shipped gem
        colours come from real candies: the rendered green gem lies 2.4-2.9 accept radii
        from their printemps, so the gem reader refused it and the demo's gem draws
        missed it in 14 of 40 rolls; read with these colours (the demo reader's
        ``house_gems``), 37 of 40 rolls read every gem automatically (18 before), and
        40 since a calibrated tray's white holds at the one-gem line
        (:meth:`vision.gem_colour.GemClassifier.measure`: the rendered yellow gem is
        brighter than the rendered markers' paper)."""
        from .catalog import FACES
        from .enroll import Enrollment
        from .enroll_photos import enroll_frame

        store = Enrollment()
        gems = [("gem", colour) for colour in FACES["gem"]]
        for k in range(views):
            scene = render_tray(GEM_VIEWS_SEED + k, objects=gems, spec=self.spec)
            frame = on_same_tray(scene.image, scene.background, self._empty)
            for lab in scene.labels:
                x, y, w, h = (int(round(v)) for v in lab.box)
                enroll_frame(store, frame, lab.kind, lab.value, box=(x, y, w, h))
        return dict(store.players_gem_colours())

    def close(self) -> None:
        pass

    def __enter__(self) -> "DemoCamera":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _hand_over(frame: Any) -> Any:
    """``frame`` with a hand's dark shape over the middle of the tray."""
    out = frame.copy()
    h, w = out.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, (w // 2, h // 2), (w // 4, h // 3), 20, 0, 360, 255, -1)
    out[mask > 0] = (out[mask > 0] * 0.35).astype(out.dtype)
    return out


def on_same_tray(image: Any, own_empty: Any, empty: Any, low: float = 8.0, high: float = 28.0) -> Any:
    """The objects (and their shadows) of a rendered tray, laid on the demo's own empty tray.

    Each render draws a new tray: another shade of felt, other reflections, another light.
    The reader compares every frame with the empty tray it was calibrated on, as it would
    a real camera's, and took those differences for objects: grey "gem ?" boxes on empty
    felt. A real camera sees the same tray from roll to roll, so the demo keeps its tray:
    where the render differs from its own empty tray (an object, a shadow) it is kept,
    with a soft edge; everywhere else the pixels are the demo's empty tray."""
    if own_empty is None or getattr(image, "shape", None) != getattr(empty, "shape", None):
        return image
    diff = np.abs(image.astype(np.int16) - own_empty.astype(np.int16)).max(axis=2).astype(np.float32)
    diff = cv2.GaussianBlur(diff, (0, 0), 1.5)
    alpha = np.clip((diff - low) / (high - low), 0.0, 1.0)
    alpha = cv2.dilate(alpha, np.ones((5, 5), np.uint8))
    alpha = cv2.GaussianBlur(alpha, (0, 0), 1.5)[..., None]
    out = image.astype(np.float32) * alpha + empty.astype(np.float32) * (1.0 - alpha)
    return np.clip(out + 0.5, 0, 255).astype(image.dtype)
