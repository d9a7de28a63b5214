"""Find every kind of object on a plain photo: a class-agnostic centre network.

The d6 (:mod:`vision.detect`), gem (:mod:`vision.gem_detect`) and d10
(:mod:`vision.numeral_detect`) detectors each learnt one kind. ``object_detector.onnx``
learnt them all and the rest: the symbol dice (lieu, adversaire, epreuve, recompense,
sentence), d4, d12, drawn dice of other shapes (d8, d20, custom dice), gems in six
colours with the clear one. It is the same network (:class:`~vision.train.nets_torch.CentreNet`,
one "an object's centre is here" heat, read by :func:`vision.detect.centre_peaks`),
trained by :mod:`vision.train.train_objects` on domain-randomised renders
(:mod:`vision.train.scenes`: felt, wood, cork, paper, glitter and printed floors; pips,
blobs and tray walls as negatives; views up to 30° off vertical) and on the real photos'
``fit`` split.

It only proposes: each candidate (source ``"object"``) goes to the classifiers of the
kinds the step expects; one that no classifier claims is dropped, so nothing is read
silently. A pip is never a die: :func:`size_sane` drops candidates far smaller than the
others, or lying inside a larger one's box.

A Reader plug-in (``kinds``: what no specific detector covers; ``on_request``: only when
the step expects one of them; ``general``: it looks after the d6, gem and d10 detectors,
whose paths stay as they are, and its objects are added where they read nothing).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .detect import Candidate, DiceDetector
from .nets import MODELS_DIR, load_settings

__all__ = ["ObjectDetector", "available", "size_sane", "SOURCE", "KINDS"]

SOURCE = "object"  # Candidate.source of this detector's candidates
SETTINGS = "object_detector.json"
#: The kinds this detector is for: those no specific detector finds on a plain photo, and
#: the numeral dice beyond the d10, which the d10 detector proposes too but finds fewer of
#: (on held-out renders, d12 42 of 46 against 20, d4 25 of 43 against 16)
#: (``custom``: a player's own die; ``temps``: the clear gem, which the gem detector,
#: trained on coloured candies, misses; a step asks for it as ``kinds={"gem", "temps"}``).
KINDS = ("d4", "d8", "d12", "d20", "lieu", "adversaire", "epreuve", "recompense", "sentence", "custom", "temps")
#: A candidate smaller than this share of the candidates' median side is a pip, a crumb
#: or glitter (the smallest object, a gem of 15 mm, is 0.7 of a d20; a pip 0.2 of a d6).
MIN_SHARE = 0.45
#: Objects under this many pixels at the network's input are looked at again, larger
#: (the network learnt objects of 6 to 50 px; under 12 it finds fewer and guesses more).
SMALL_PX = 12.0
AIM_PX = 18.0
MAX_LOOK_PX = 640


def available(models: Path = MODELS_DIR) -> bool:
    """True when the object detector and its settings are installed."""
    return (models / SETTINGS).is_file() and (models / "object_detector.onnx").is_file()


def size_sane(cands: Sequence[Candidate], min_share: float = MIN_SHARE) -> list[Candidate]:
    """``cands`` without those far smaller than the others (under ``min_share`` of the
    median side, with at least three candidates) and those whose centre lies inside the
    box of a larger one (at most 0.7 of its side): a pip on a die, a blob beside dice.

    >>> c = [Candidate(100, 100, 40, 0.9), Candidate(200, 100, 38, 0.8), Candidate(300, 100, 42, 0.8)]
    >>> len(size_sane(c + [Candidate(400, 100, 9, 0.7)]))  # a lone pip-sized spot
    3
    >>> len(size_sane(c + [Candidate(108, 95, 20, 0.7)]))  # a spot on the first die
    3
    >>> len(size_sane([Candidate(100, 100, 40, 0.9), Candidate(140, 100, 38, 0.8)]))  # touching dice stay
    2
    """
    if not cands:
        return []
    med = float(np.median([c.side for c in cands]))
    out = []
    for c in cands:
        if len(cands) >= 3 and c.side < min_share * med:
            continue
        if any(o is not c and c.side <= 0.7 * o.side and abs(c.cx - o.cx) < o.side / 2 and abs(c.cy - o.cy) < o.side / 2
               for o in cands):
            continue
        out.append(c)
    return out


class ObjectDetector:
    """The class-agnostic centre detector, a plug-in of :class:`vision.reader.Reader`
    (run by ``cv2.dnn`` the way the d6 die-centre detector is: :class:`DiceDetector`)."""

    kinds: tuple[str, ...] = KINDS
    #: Runs only when the step expects one of :data:`KINDS` (``Reader.read(kinds=...)``).
    on_request = True
    #: The reader runs it after the specific detectors (d6, gems, d10), on its own, and
    #: keeps its objects only where those read nothing: their paths stay as they are.
    general = True

    def __init__(self, settings: dict[str, Any] | None = None, models: Path = MODELS_DIR,
                 threshold: float | None = None, det_size: int | None = None,
                 second_threshold: float | None = None, engine: str = "classic") -> None:
        cfg = settings if settings is not None else load_settings(models / SETTINGS)
        #: The least centre heat of a candidate at the first look, and at the second.
        self.threshold = float(cfg.get("threshold", 0.3) if threshold is None else threshold)
        self.second_threshold = float(cfg.get("second_threshold", self.threshold)
                                      if second_threshold is None else second_threshold)
        self.net = DiceDetector(model=models / str(cfg.get("model", "object_detector.onnx")),
                                det_size=int(cfg.get("det_size", 320) if det_size is None else det_size),
                                stride=int(cfg.get("stride", 4)),
                                threshold=min(self.threshold, self.second_threshold),
                                max_objects=int(cfg.get("max_objects", 96)), engine=engine)
        self.min_share = float(cfg.get("min_share", MIN_SHARE))
        self.small_px = float(cfg.get("small_px", SMALL_PX))
        self.aim_px = float(cfg.get("aim_px", AIM_PX))
        self.max_look = int(cfg.get("max_look_px", MAX_LOOK_PX))

    @property
    def det_size(self) -> int:
        return self.net.det_size

    def detect(self, frame: np.ndarray) -> list[Candidate]:
        """Candidates (source ``"object"``) in ``frame`` (H x W x 3 BGR uint8), strongest
        first, the size-insane ones dropped.

        A large frame whose objects come out small at the network's input (median side
        under :data:`SMALL_PX`: gems in a 1920 x 1080 photo are 7 px at 320) is looked at
        again, scaled so that they become :data:`AIM_PX` (the input at most
        :data:`MAX_LOOK_PX` on a side), and that look's candidates are kept, at the
        stricter threshold ``second_threshold``."""
        h, w = frame.shape[:2]
        found = self._look(frame, None, self.threshold)
        if found:
            first = self.det_size / max(h, w)
            side = float(np.median([c.side for c in found])) * first  # at the first look's input
            if side < self.small_px and max(h, w) > self.det_size:
                scale = min(self.max_look / max(h, w), first * self.aim_px / max(side, 1.0), 1.0)
                if scale > first * 1.2:
                    found = self._look(frame, scale, self.second_threshold)
        return size_sane(found, self.min_share)

    def _look(self, frame: np.ndarray, scale: float | None, threshold: float) -> list[Candidate]:
        h, w = frame.shape[:2]
        got = self.net.detect(frame, scale)
        # a candidate whose box is mostly outside the frame is a wall's corner or a cut object
        return [replace(c, source=SOURCE) for c in got if c.score >= threshold and _inside(c, w, h)]


def _inside(c: Candidate, w: int, h: int) -> bool:
    """At least half the candidate's box inside the frame (each way)."""
    half = c.side / 2
    fx = (min(w, c.cx + half) - max(0.0, c.cx - half)) / max(c.side, 1e-6)
    fy = (min(h, c.cy + half) - max(0.0, c.cy - half)) / max(c.side, 1e-6)
    return fx >= 0.5 and fy >= 0.5 and math.isfinite(c.side)
