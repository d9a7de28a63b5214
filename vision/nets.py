"""Small ONNX networks run by ``cv2.dnn`` (no PyTorch at run time).

The committed models live in ``vision/models/`` beside a JSON file of settings
(input sizes, thresholds). :func:`load_net` reads a model once per process and path.
``cv2.dnn`` nets are not thread-safe: :class:`OnnxNet` serialises calls with a lock.
"""

from __future__ import annotations

import functools
import json
import threading
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["MODELS_DIR", "ModelError", "OnnxNet", "load_net", "load_settings"]

MODELS_DIR = Path(__file__).resolve().parent / "models"


class ModelError(ValueError):
    """A model file is missing or unreadable."""


class OnnxNet:
    """One ONNX network on the OpenCV CPU backend."""

    def __init__(self, path: Path, engine: str = "classic") -> None:
        import cv2

        if not path.is_file():
            raise ModelError(f"model file not found: {path}")
        try:
            # OpenCV 5.0's classic engine runs these small nets ~20 % faster than its
            # new one; OpenCV 5.1 has no ENGINE_CLASSIC and its one engine is as fast
            # as 5.0's classic (7 December 2026: the pip classifier 2.9 ms per 8 crops
            # against 3.7, the glyph embedding 5.8 against 7.5), so there ``None``
            # takes the default. Training mines hard negatives with the default engine
            # (``engine="default"``), as when the committed models were made
            code = getattr(cv2.dnn, "ENGINE_CLASSIC", None) if engine == "classic" else None
            if code is not None:
                self._net = cv2.dnn.readNetFromONNX(str(path), engine=code)
            else:  # the default engine, or OpenCV 4.x
                self._net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as exc:
            raise ModelError(f"cannot read model {path}: {exc}") from None
        self._lock = threading.Lock()
        self.path = path

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        """Run on an N x C x H x W float32 blob; the first output."""
        with self._lock:
            self._net.setInput(np.ascontiguousarray(blob, dtype=np.float32))
            return np.asarray(self._net.forward())


@functools.lru_cache(maxsize=16)
def load_net(path: Path, engine: str = "classic") -> OnnxNet:
    return OnnxNet(Path(path), engine)


@functools.lru_cache(maxsize=16)
def _settings(path: Path) -> str:
    if not path.is_file():
        raise ModelError(f"model settings not found: {path}")
    return path.read_text(encoding="utf-8")


def load_settings(path: Path) -> dict[str, Any]:
    """The JSON settings of a model (a fresh dict each call)."""
    try:
        out = json.loads(_settings(Path(path)))
    except json.JSONDecodeError as exc:
        raise ModelError(f"bad model settings {path}: {exc}") from None
    if not isinstance(out, dict):
        raise ModelError(f"bad model settings {path}: not an object")
    return out
