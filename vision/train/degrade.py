"""Photos as another camera would take them: the degradations the d6 thresholds are
tuned under (``python -m vision.train.cv --degraded``) and the benchmarks measure
(``benchmarks/bench_other_cameras.py``). OpenCV and numpy only.

>>> img = np.full((64, 64, 3), 200, np.uint8); img[20:40, 20:40] = 30
>>> jpeg(img, 30).shape, webcam(img, np.random.default_rng(0)).dtype
((64, 64, 3), dtype('uint8'))
>>> bool(np.array_equal(webcam(img, np.random.default_rng(1)), webcam(img, np.random.default_rng(1))))
True
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

__all__ = ["jpeg", "webcam", "DEGRADATIONS"]


def jpeg(img: np.ndarray, quality: int = 30) -> np.ndarray:
    """``img`` compressed as a JPEG of ``quality`` and decoded (:func:`vision.frame_transforms.jpeg`)."""
    from vision.frame_transforms import jpeg as as_jpeg

    return as_jpeg(int(quality))(img)[0]


def webcam(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A webcam's softness (Gaussian σ 0.6-1.4), white balance (each channel 0.85-1.15),
    sensor noise (σ 2-5) and JPEG 30-60."""
    out = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.6, 1.4))).astype(np.float32)
    out *= np.asarray(rng.uniform(0.85, 1.15, 3), np.float32)[None, None, :]
    out += np.asarray(rng.normal(0, rng.uniform(2, 5), out.shape), np.float32)
    return jpeg(np.clip(out, 0, 255).astype(np.uint8), int(rng.integers(30, 61)))


#: The degraded versions of a photo the thresholds are tuned on, beside the photo as taken.
DEGRADATIONS: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]] = {
    "JPEG 30": lambda img, rng: jpeg(img, 30),
    "webcam": webcam,
}
