"""Find the dice in a frame: a small CenterNet-style network marks die centres.

The frame is scaled so its longer side is ``det_size`` pixels (320 by default: a
640 x 640 tray photo is halved), padded to a square, and run through
``d6_detector.onnx``. The network outputs, on a grid 4 times coarser than its input, the
heat of "a die's centre is here" (0..1), the log of the die's side and the sub-cell
position of the centre. Local maxima of the heat above the candidate threshold are the
candidates; the classifiers decide afterwards what each one is (or that it is no die).

Trained on dice whose side is 3 to 11 % of the photo's longer side (a phone above a
tray); a camera much closer or farther needs another ``det_size``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .nets import MODELS_DIR, load_net

__all__ = ["centre_peaks", "Candidate", "DiceDetector"]


@dataclass(frozen=True)
class Candidate:
    """A spot that may be a die: centre and side in pixels of the input frame, and the
    detector's score (0..1). ``source`` names the detector that found it (``""`` for the
    die-centre detector, ``"gem"`` for :class:`vision.gem_detect.GemDetector`), so that a
    classifier may claim only its own detector's candidates."""

    cx: float
    cy: float
    side: float
    score: float
    source: str = ""

    @property
    def box(self) -> tuple[int, int, int, int]:
        half = self.side / 2
        return (round(self.cx - half), round(self.cy - half), round(self.side), round(self.side))


def centre_peaks(out: np.ndarray, scale: float, stride: int, threshold: float, max_objects: int,
                 size: tuple[int, int], source: str = "") -> list[Candidate]:
    """Candidates from a centre network's output (heat, log side, sub-cell x and y offsets
    on a grid of ``stride`` input pixels; the input was the frame times ``scale``): local
    maxima of the heat at least ``threshold``, strongest first, in frame pixels of a frame
    of ``size`` (w, h). A peak in the padding is dropped, and so is a weaker peak within
    0.45 sides of a stronger one (the same object)."""
    import cv2

    w, h = size
    heat = out[0]
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    iy, ix = np.nonzero(peaks)
    order = np.argsort(-heat[iy, ix])[:max_objects]
    found: list[Candidate] = []
    for k in order:
        y, x = int(iy[k]), int(ix[k])
        cx = (x + float(out[2, y, x])) * stride / scale
        cy = (y + float(out[3, y, x])) * stride / scale
        side = math.exp(min(float(out[1, y, x]), 6.0)) * stride / scale
        if not (0 <= cx < w and 0 <= cy < h):
            continue
        if any(math.hypot(c.cx - cx, c.cy - cy) < 0.45 * max(c.side, side) for c in found):
            continue
        found.append(Candidate(cx, cy, side, float(heat[y, x]), source=source))
    return found


class DiceDetector:
    """Die-centre detector (``d6_detector.onnx``) run by ``cv2.dnn``."""

    #: What it learnt to find: the reader runs it only when the step expects these.
    kinds = ("d6",)

    def __init__(self, model: Path | None = None, det_size: int = 320, stride: int = 4,
                 threshold: float = 0.2, max_objects: int = 64, engine: str = "classic") -> None:
        self.net = load_net(model or MODELS_DIR / "d6_detector.onnx", engine)
        self.det_size = int(det_size)
        self.stride = int(stride)
        self.threshold = float(threshold)
        self.max_objects = int(max_objects)

    def detect(self, frame: np.ndarray) -> list[Candidate]:
        """Candidates in ``frame`` (H x W x 3 BGR uint8), strongest first."""
        import cv2

        h, w = frame.shape[:2]
        s = self.det_size / max(h, w)
        nw, nh = max(1, round(w * s)), max(1, round(h * s))
        small = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        canvas = np.full((self.det_size, self.det_size, 3), 127, np.uint8)
        canvas[:nh, :nw] = small
        blob = canvas.astype(np.float32).transpose(2, 0, 1)[None] * np.float32(1 / 255)
        out = self.net(blob)[0]
        return centre_peaks(out, s, self.stride, self.threshold, self.max_objects, (w, h))
