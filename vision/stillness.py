"""Stillness from the camera frames, for a table without a tray.

:class:`StillnessDetector` is fed frames (a few per second) and says ``"motion"`` when
the picture changes and ``"settled"`` once it has stayed the same for ``settle_s``
after a motion. Frames are shrunk to 64 px wide greyscale and blurred, so camera noise
and small light flicker are not motion; a hand over the tray or rolling dice are.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

__all__ = ["StillnessDetector"]


class StillnessDetector:
    def __init__(self, settle_s: float = 0.6, threshold: float = 6.0, width: int = 64) -> None:
        self.settle_s = settle_s
        self.threshold = threshold
        self.width = width
        self._prev: Any = None
        self._moving = False
        self._still_since: float | None = None
        self.last_diff = 0.0

    def _small(self, frame: Any) -> Any:
        h, w = frame.shape[:2]
        g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        g = cv2.resize(g, (self.width, max(1, round(h * self.width / w))), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(g, (3, 3), 0).astype("float32")

    def feed(self, frame: Any, now: float) -> str | None:
        """Feed one frame taken at ``now`` (seconds); returns "motion", "settled" or None."""
        small = self._small(frame)
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            return None
        self.last_diff = float(np.abs(small - prev).mean())
        if self.last_diff > self.threshold:
            self._still_since = None
            if not self._moving:
                self._moving = True
                return "motion"
            return None
        if not self._moving:
            return None
        if self._still_since is None:
            self._still_since = now
        if now - self._still_since >= self.settle_s:
            self._moving = False
            self._still_since = None
            return "settled"
        return None
