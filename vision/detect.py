"""Find the dice in a frame: a small CenterNet-style network marks die centres.

The frame is scaled so its longer side is ``det_size`` pixels (320 by default: a
640 x 640 tray photo is halved; see :func:`shrink`), padded to a multiple of 32 px, and run through
``d6_detector.onnx``. The network outputs, on a grid 4 times coarser than its input, the
heat of "a die's centre is here" (0..1), the log of the die's side and the sub-cell
position of the centre. Local maxima of the heat above the candidate threshold are the
candidates; the classifiers decide afterwards what each one is (or that it is no die).

Trained on dice whose side is 3 to 11 % of the photo's longer side (a phone above a
tray); a camera much closer or farther needs another ``det_size``. Seen larger than it
learnt, the network also marks single pips: a candidate inside a much larger one, or much
smaller than the frame's other candidates, is dropped (:func:`drop_parts`: a pip is never
a die).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from .nets import MODELS_DIR, OnnxNet, load_net

__all__ = ["centre_medians", "centre_peaks", "Candidate", "DiceDetector", "drop_parts", "shrink", "PART_INSIDE",
           "PART_SMALLER"]

#: A candidate inside the box of one at least this many times its side is a part of that
#: die (a pip, a face's corner): dropped (see :func:`drop_parts`).
PART_INSIDE = 1.6
#: A candidate under this share of the frame's median candidate side is no die: a pip of a
#: die the network did not see whole. The labelled photos' smallest die is 0.64 of its
#: photo's median (1 % of photos under 0.65).
PART_SMALLER = 0.5


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

    @classmethod
    def around(cls, box: tuple[int, int, int, int], score: float = 1.0, source: str = "") -> "Candidate":
        """The candidate centred in ``box`` (x, y, w, h), its side the box's longer one:
        another reader asked about an object already found.

        >>> Candidate.around((10, 20, 30, 40))
        Candidate(cx=25.0, cy=40.0, side=40.0, score=1.0, source='')
        """
        x, y, w, h = box
        return cls(x + w / 2, y + h / 2, float(max(w, h)), score, source)

    @property
    def box(self) -> tuple[int, int, int, int]:
        half = self.side / 2
        return (round(self.cx - half), round(self.cy - half), round(self.side), round(self.side))

    def centred_in(self, boxes: Sequence[tuple[int, int, int, int]]) -> bool:
        """Whether its centre lies inside one of ``boxes`` (x, y, w, h).

        >>> Candidate(15.0, 15.0, 8.0, 0.9).centred_in([(0, 0, 5, 5), (10, 10, 10, 10)])
        True
        >>> Candidate(25.0, 15.0, 8.0, 0.9).centred_in([(10, 10, 10, 10)])
        False
        """
        return any(abs(self.cx - x - w / 2) < w / 2 and abs(self.cy - y - h / 2) < h / 2 for x, y, w, h in boxes)


def centre_medians(frame: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
    """N x 3 float32: the median BGR of each candidate's central square (half its side,
    cut at the frame's edges), NaN where that square lies outside the frame. The
    candidates whose squares have one shape are taken together (one median over a stack
    of patches: the same numbers as one median per patch, a tenth of the time for a
    tray of 200 candies).

    >>> f = np.zeros((20, 20, 3), np.uint8); f[:10] = 200
    >>> centre_medians(f, [Candidate(5.0, 4.0, 8.0, 1.0), Candidate(5.0, 15.0, 8.0, 1.0),
    ...                    Candidate(50.0, 5.0, 8.0, 1.0)]).tolist()
    [[200.0, 200.0, 200.0], [0.0, 0.0, 0.0], [nan, nan, nan]]
    """
    h, w = frame.shape[:2]
    out = np.full((len(candidates), 3), np.nan, np.float32)
    spans: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for i, c in enumerate(candidates):
        r = max(1, int(c.side / 4))
        x0, x1 = max(0, int(c.cx) - r), min(w, int(c.cx) + r + 1)
        y0, y1 = max(0, int(c.cy) - r), min(h, int(c.cy) + r + 1)
        if x1 > x0 and y1 > y0:
            spans.setdefault((y1 - y0, x1 - x0), []).append((i, y0, x0))
    for (ph, pw), members in spans.items():
        idx, y0s, x0s = (np.array(v) for v in zip(*members))
        rows = (y0s[:, None] + np.arange(ph))[:, :, None]
        cols = (x0s[:, None] + np.arange(pw))[:, None, :]
        patches = frame[rows, cols].reshape(len(idx), ph * pw, -1)
        out[idx] = np.median(patches, axis=1)
    return out


def centre_peaks(out: np.ndarray, scale: float, stride: int, threshold: float, max_objects: int,
                 size: tuple[int, int], source: str = "", apart: float = 0.45) -> list[Candidate]:
    """Candidates from a centre network's output (heat, log side, sub-cell x and y offsets
    on a grid of ``stride`` input pixels; the input was the frame times ``scale``): local
    maxima of the heat at least ``threshold``, strongest first, in frame pixels of a frame
    of ``size`` (w, h). A peak in the padding is dropped, and so is a weaker peak within
    ``apart`` sides of a stronger one (the same object)."""
    import cv2

    w, h = size
    heat = out[0]
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    iy, ix = np.nonzero(peaks)
    order = np.argsort(-heat[iy, ix])[:max_objects]
    found: list[Candidate] = []
    # the kept centres and sides as arrays too: a crowded frame has hundreds of peaks
    kept = np.empty((len(order), 3), np.float64)
    for k in order:
        y, x = int(iy[k]), int(ix[k])
        cx = (x + float(out[2, y, x])) * stride / scale
        cy = (y + float(out[3, y, x])) * stride / scale
        side = math.exp(min(float(out[1, y, x]), 6.0)) * stride / scale
        if not (0 <= cx < w and 0 <= cy < h):
            continue
        n = len(found)
        if n and bool(np.any(np.hypot(kept[:n, 0] - cx, kept[:n, 1] - cy) < apart * np.maximum(kept[:n, 2], side))):
            continue
        kept[n] = (cx, cy, side)
        found.append(Candidate(cx, cy, side, float(heat[y, x]), source=source))
    return found


def drop_parts(cands: list[Candidate]) -> list[Candidate]:
    """``cands`` without those that are parts of a die, not dice: a pip is never a die.

    Dropped: a candidate whose centre lies in the box (0.55 side around the centre) of
    another at least :data:`PART_INSIDE` times its side, and, with three candidates or
    more, one under :data:`PART_SMALLER` of their median side. The order is kept.

    >>> die, pip = Candidate(100.0, 100.0, 40.0, 0.9), Candidate(112.0, 90.0, 10.0, 0.5)
    >>> [c.side for c in drop_parts([die, pip])]
    [40.0]
    >>> far = Candidate(300.0, 100.0, 10.0, 0.5)  # alone, away from any die
    >>> [c.side for c in drop_parts([die, far, Candidate(200.0, 200.0, 38.0, 0.8)])]
    [40.0, 38.0]
    >>> [c.side for c in drop_parts([die, far])]  # two candidates: no median to judge by
    [40.0, 10.0]
    """
    inside = [c for c in cands if not any(
        o.side >= PART_INSIDE * c.side and abs(c.cx - o.cx) <= 0.55 * o.side and abs(c.cy - o.cy) <= 0.55 * o.side
        for o in cands)]
    if len(inside) < 3:
        return inside
    ref = float(np.median([c.side for c in inside]))
    return [c for c in inside if c.side >= PART_SMALLER * ref]


def shrink(frame: np.ndarray, scale: float) -> np.ndarray:
    """``frame`` scaled by ``scale`` (INTER_AREA down, bilinear up), each side rounded.

    OpenCV's area resize is fast only for a whole ratio: a 2028 x 1520 frame to 320 px
    (ratio 6.34) takes 6.9 ms, against 2.8 ms for a whole-ratio area shrink (by 6, the
    last rows that do not fill a 6-px cell dropped) followed by the small rest (measured
    on one thread; the two images differ by 0.35 of a level on average). A 12 Mpx frame:
    28 -> 11 ms."""
    import cv2

    h, w = frame.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if size == (w, h):
        return frame
    if scale >= 1:
        return cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)
    k = int(1 / scale)
    if k >= 2 and abs(1 / scale - k) > 1e-6:
        h, w = h // k * k, w // k * k
        frame = cv2.resize(frame[:h, :w], (w // k, h // k), interpolation=cv2.INTER_AREA)
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


class DiceDetector:
    """Die-centre detector (``d6_detector.onnx``) run by ``cv2.dnn``."""

    #: What it learnt to find: the reader runs it only when the step expects these.
    kinds = ("d6",)

    def __init__(self, model: Path | None = None, det_size: int = 320, stride: int = 4,
                 threshold: float = 0.2, max_objects: int = 64, engine: str = "classic",
                 keep_parts: bool = False) -> None:
        path = model or MODELS_DIR / "d6_detector.onnx"
        self.net = load_net(path, engine)
        # the reader's second look (``detect(..., scale=...)``) runs on its own copy of the
        # network: ``cv2.dnn`` re-plans a network at each change of input shape (1-3 ms),
        # and the first look's shape is fixed by the camera, the second's by the tray
        self._zoom_net: OnnxNet | None = None
        self._path, self._engine = Path(path), engine
        self.det_size = int(det_size)
        self.stride = int(stride)
        self.threshold = float(threshold)
        self.max_objects = int(max_objects)
        #: Keep the candidates :func:`drop_parts` would drop (training mines them as
        #: "not a die" crops).
        self.keep_parts = keep_parts

    def input_scale(self, frame: np.ndarray) -> float:
        """The first look's scale of ``frame``: its longer side to ``det_size``, never
        enlarged (a crop around a die or two, enlarged, made its dice far larger than
        learnt, and their pips were read as 1s)."""
        return min(1.0, float(self.det_size) / float(max(frame.shape[:2])))

    def detect(self, frame: np.ndarray, scale: float | None = None) -> list[Candidate]:
        """Candidates in ``frame`` (H x W x 3 BGR uint8), strongest first. ``scale``: the
        frame's scale at the network's input (default: its longer side to ``det_size``,
        or 1 for a smaller frame; the reader's second look sets it from the dice's size,
        at most 1)."""
        h, w = frame.shape[:2]
        s = self.input_scale(frame) if scale is None else float(scale)
        small = shrink(frame, s)
        nh, nw = small.shape[:2]
        # padded to a multiple of 32 px, not to a square: the network is fully
        # convolutional, and a 16:9 frame's 320 x 192 input costs half of 320 x 320
        if scale is None:
            ph, pw = -(-nh // 32) * 32, -(-nw // 32) * 32
            net = self.net
        else:  # multiples of 64 px: few shapes from frame to frame
            ph, pw = -(-nh // 64) * 64, -(-nw // 64) * 64
            if self._zoom_net is None:
                self._zoom_net = OnnxNet(self._path, self._engine)
            net = self._zoom_net
        canvas = np.full((ph, pw, 3), 127, np.uint8)
        canvas[:nh, :nw] = small
        blob = canvas.astype(np.float32).transpose(2, 0, 1)[None] * np.float32(1 / 255)
        out = net(blob)[0]
        found = centre_peaks(out, s, self.stride, self.threshold, self.max_objects, (w, h))
        return found if self.keep_parts else drop_parts(found)
