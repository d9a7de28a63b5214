"""The empty-tray reference, kept up to date as the light drifts.

Calibration photographs the empty tray once (:func:`vision.calibration.calibrate`); the
objects on a calibrated tray are then found by their difference from it. Daylight
through a window, a lamp switched on, the LED ring warming up: the tray itself changes
slowly, and an old reference turns shading into "objects" or hides faint ones.

So every frame the reader judges empty refreshes the reference: when a read of a
calibrated tray finds nothing, and the frame differs from the reference only by an
overall change of light (no patch stands out once the global gain is divided out), it
is blended into the reference. A frame with something the reader missed (a clear gem,
say) stands out and is never blended: the reference cannot swallow an object.

>>> import numpy as np
>>> bg = np.full((40, 60, 3), 120, np.uint8)
>>> brighter = np.full((40, 60, 3), 150, np.uint8)   # the whole tray lit up
>>> is_empty_like(brighter, bg)
True
>>> blend(bg, brighter, 0.25)[0, 0].tolist()
[128, 128, 128]
>>> with_object = brighter.copy(); with_object[10:20, 10:20] = (60, 200, 60)
>>> is_empty_like(with_object, bg)
False
"""

from __future__ import annotations

import numpy as np

__all__ = ["is_empty_like", "blend", "ALPHA", "MAX_CHANGED", "TOLERANCE"]

ALPHA = 0.25  # weight of the new frame: a quarter, so one odd frame moves little
TOLERANCE = 0.12  # per-pixel relative change (after the global gain) that "stands out"
MAX_CHANGED = 0.002  # share of the tray that may stand out (noise, a speck of dust)


def is_empty_like(frame: np.ndarray, background: np.ndarray, tolerance: float = TOLERANCE,
                  max_changed: float = MAX_CHANGED, exclude: np.ndarray | None = None) -> bool:
    """True when ``frame`` is ``background`` under other light: the ratio of the two
    (each averaged over 4 x 4 pixels, which takes the sensor noise out), divided by its
    median per channel, stays within ``tolerance`` on all but ``max_changed`` of the tray
    (``exclude``: a mask of what is no tray, e.g. the markers' papers)."""
    import cv2

    if frame.shape != background.shape or frame.ndim != 3:
        return False
    f = cv2.resize(frame, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32) + 6.0
    b = cv2.resize(background, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32) + 6.0
    keep = np.ones(f.shape[:2], bool)
    if exclude is not None and exclude.shape[:2] == frame.shape[:2]:
        keep = cv2.resize(exclude, (f.shape[1], f.shape[0]), interpolation=cv2.INTER_NEAREST) == 0
    if not keep.any():
        return False
    r = f / b
    med = np.median(r[keep].reshape(-1, 3), axis=0)
    d = np.abs(r / med[None, :] - 1.0).max(axis=2)
    return float((d[keep] > tolerance).mean()) <= max_changed


def blend(background: np.ndarray, frame: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """``(1 - alpha) * background + alpha * frame``, rounded, as uint8."""
    out = (1.0 - alpha) * background.astype(np.float32) + alpha * frame.astype(np.float32)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)
