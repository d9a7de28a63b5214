"""The whole-frame transforms the issue measures the reader under, for every kind of die.

Rotation 30°, scale 0.5x, blur σ 1.5, JPEG quality 30, 40 % darker and 40 % brighter:
each takes a BGR frame and gives the transformed frame with the 2 x 3 affine matrix
that carries a point of the old frame to the new one (the identity for the photometric
ones), so that any benchmark can move its own labels (pip d6 boxes, d10 centres) the
same way. ``bench_vision_transforms.py`` (real pip d6), ``bench_d10_plain.py
--transforms`` (rendered d10 pools) and ``bench_peripeties_plain.py --transforms``
measure with :data:`TRANSFORMS`; the gems' (:data:`vision.gem_eval.TRANSFORMS`), the
numeral crops' (:data:`vision.train.numeral_faces.TRANSFORMS`) and the simulated webcam
(:func:`vision.train.degrade.jpeg`) use its photometric ones.

A rotation widens the canvas to hold the whole frame and fills the corners with the
frame's edge pixels (replicated, never mirrored: a mirror would add dice):

>>> import numpy as np
>>> frame = np.zeros((100, 200, 3), np.uint8)
>>> out, m = rotate(90)(frame)
>>> out.shape[:2]
(200, 100)
>>> [round(v) for v in move(m, 0, 0)]    # the top-left corner goes to the bottom-left
[0, 200]
>>> out, m = scale(0.5)(frame)
>>> out.shape[:2], move(m, 100, 50), side(m, 40)
((50, 100), (50.0, 25.0), 20.0)
>>> out, m = jpeg(30)(frame)
>>> out.shape == frame.shape and side(m, 40) == 40
True
"""

from __future__ import annotations

import math
from typing import Callable

import cv2
import numpy as np

__all__ = ["FrameTransform", "TRANSFORMS", "rotate", "scale", "blur", "jpeg", "gain", "move", "side"]

#: frame -> (transformed frame, 2 x 3 affine matrix from the old frame's points to the new's)
FrameTransform = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]

def _same() -> np.ndarray:
    """The identity, a new array each time (a caller may move it in place)."""
    return np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def rotate(degrees: float) -> FrameTransform:
    """Turned ``degrees`` counter-clockwise about the centre, on a canvas that holds it all."""
    def run(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        cos, sin = abs(m[0, 0]), abs(m[0, 1])
        nw, nh = int(round(h * sin + w * cos)), int(round(h * cos + w * sin))
        m[0, 2] += nw / 2 - w / 2
        m[1, 2] += nh / 2 - h / 2
        return cv2.warpAffine(img, m, (nw, nh), borderMode=cv2.BORDER_REPLICATE), m
    return run


def scale(f: float) -> FrameTransform:
    """Resized by ``f`` (area interpolation when shrinking: a camera farther away)."""
    def run(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        return out, np.array([[f, 0.0, 0.0], [0.0, f, 0.0]])
    return run


def blur(sigma: float) -> FrameTransform:
    """A Gaussian blur of ``sigma`` pixels (a camera out of focus, or a die moving)."""
    return lambda img: (cv2.GaussianBlur(img, (0, 0), sigma), _same())


def jpeg(quality: int) -> FrameTransform:
    """Encoded and decoded as JPEG of that quality (a cheap webcam's stream)."""
    def run(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        return (img if out is None else np.asarray(out)), _same()
    return run


def gain(f: float) -> FrameTransform:
    """Every channel times ``f``, clipped (a darker or brighter room)."""
    return lambda img: (np.clip(img.astype(np.float32) * f, 0, 255).astype(np.uint8), _same())


def move(m: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """Where the point (x, y) of the old frame lies in the new one."""
    nx, ny = m @ np.array([x, y, 1.0])
    return float(nx), float(ny)


def side(m: np.ndarray, length: float) -> float:
    """A die's side ``length`` after the transform (its scale; a rotation keeps it)."""
    return float(length * math.sqrt(abs(np.linalg.det(m[:, :2]))))


#: the issue's transforms, after the frame as taken (None: the baseline of the same run)
TRANSFORMS: list[tuple[str, FrameTransform | None]] = [
    ("as taken (baseline)", None), ("rotated 30°", rotate(30)), ("scale 0.5x", scale(0.5)),
    ("blur σ 1.5", blur(1.5)), ("JPEG 30", jpeg(30)), ("40 % darker", gain(0.6)),
    ("40 % brighter", gain(1.4)),
]
