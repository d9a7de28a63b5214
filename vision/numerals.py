"""Read numeral dice (d10 first) with a small network trained on rendered numerals.

The crop around a candidate (the same cut as the pip reader's, :func:`vision.pips.crop`:
a square 1.3 times the die's side, 48 x 48) goes through ``numerals_d10.onnx`` (run by
``cv2.dnn``), which gives 11 probabilities: the digit on the top face, 0..9 (0 is the
d10's 10; a die printing "10" reads the same), and "other / not a numeral". It learnt
from rendered faces only (:mod:`vision.train.numeral_faces`: many fonts, colours,
materials, rotations, 6 and 9 underlined, blur, noise, JPEG) and from real crops of
things that are no numeral (pip dice, candies, tray floor).

Open-set honesty (thresholds in ``numerals.json``, tuned on a validation set the network
did not learn from, :mod:`vision.train.train_numerals`):

- "other" at least ``other``: the candidate is not claimed (``None``: not a numeral die);
- the best digit is ``read`` only if its probability is at least ``confidence`` (clear in
  absolute terms) AND beats the second digit by ``margin`` (far from the next); else
  ``pending`` with its best candidates, for the players to confirm.

No real photo of a d10 exists in the shared data: the figures in ``docs/vision.md`` are
on held-out renders in fonts of another family than the training ones. The players'
enrollment (:mod:`vision.faces`) stays the reader of d10 on a calibrated tray; this
network is a second opinion there (:func:`combine_numeral`: it can only stop a guess)
and the reader of the d10 candidates a detector gives on a plain photo. It runs on
request only (``on_request``): when the step expects d10.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .detect import Candidate
from .errors import VisionError
from .nets import MODELS_DIR, load_net, load_settings
from .result import STATUS_PENDING, STATUS_READ, ObjectRead

__all__ = ["NumeralClassifier", "decide_all", "combine_numeral", "available", "OTHER"]

OTHER = 10
SETTINGS = "numerals.json"


def available(models: Path = MODELS_DIR) -> bool:
    """True when the numeral network and its settings are installed."""
    return (models / SETTINGS).is_file() and (models / "numerals_d10.onnx").is_file()


def decide_all(p: np.ndarray, thr: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """For N x 11 probabilities: (read: bool N, best digit class 0..9: int N), by the rule
    of :meth:`NumeralClassifier.decide` (vectorised, for tuning)."""
    digits = p[:, :OTHER]
    order = np.argsort(-digits, axis=1)
    best = order[:, 0]
    top = digits[np.arange(len(p)), best]
    second = digits[np.arange(len(p)), order[:, 1]]
    read = (p[:, OTHER] < thr["other"]) & (top >= thr["confidence"]) & (top - second >= thr["margin"])
    return read, best


class NumeralClassifier:
    """d10 faces from rendered-numeral training; a plug-in of :class:`vision.reader.Reader`
    (``kinds`` d10: it runs when a step expects d10)."""

    kind = "d10"
    kinds = ("d10",)
    on_request = True

    def __init__(self, settings: dict[str, Any] | None = None, models: Path = MODELS_DIR,
                 sources: Sequence[str] | None = None) -> None:
        cfg = settings if settings is not None else load_settings(models / SETTINGS)
        self.classes: list[int | None] = list(cfg.get("classes", [10, 1, 2, 3, 4, 5, 6, 7, 8, 9, None]))
        if len(self.classes) != OTHER + 1:
            raise VisionError(f"{SETTINGS}: expected 11 classes, got {len(self.classes)}")
        self.net = load_net(models / str(cfg.get("model", "numerals_d10.onnx")))
        self.size = int(cfg.get("crop", 48))
        self.factor = float(cfg.get("crop_factor", 1.3))
        thr = cfg.get("thresholds", {})
        self.thresholds = {"other": float(thr.get("other", 0.5)), "confidence": float(thr.get("confidence", 0.95)),
                           "margin": float(thr.get("margin", 0.5))}
        #: Claim only candidates of these ``Candidate.source`` (None: every candidate).
        self.sources = None if sources is None else tuple(sources)

    def probabilities_of_crops(self, crops: np.ndarray) -> np.ndarray:
        """N x 11 probabilities of N x 48 x 48 x 3 uint8 BGR crops."""
        from .pips import to_blob

        if not len(crops):
            return np.zeros((0, OTHER + 1))
        logits = self.net(to_blob(crops)).astype(np.float64)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return np.asarray(e / e.sum(axis=1, keepdims=True), np.float64)

    def probabilities(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
        from .pips import crop

        if not candidates:
            return np.zeros((0, OTHER + 1))
        crops = np.stack([crop(frame, c.cx, c.cy, c.side, self.size, self.factor) for c in candidates])
        return self.probabilities_of_crops(crops)

    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]] = ()) -> list[ObjectRead | None]:
        """One :class:`ObjectRead` per candidate, or ``None`` when it is no numeral."""
        mine = [i for i, c in enumerate(candidates) if self.sources is None or c.source in self.sources]
        out: list[ObjectRead | None] = [None] * len(candidates)
        for i, p in zip(mine, self.probabilities(frame, [candidates[i] for i in mine])):
            out[i] = self.decide(candidates[i].box, p)
        return out

    def decide(self, box: tuple[int, int, int, int], p: np.ndarray) -> ObjectRead | None:
        """The read of one crop's probabilities (see the module docstring)."""
        if not np.isfinite(p).all() or float(p[OTHER]) >= self.thresholds["other"]:
            return None
        digits = p[:OTHER]
        order = np.argsort(-digits)
        conf = float(digits[order[0]])
        ok = conf >= self.thresholds["confidence"] and conf - float(digits[order[1]]) >= self.thresholds["margin"]
        value = self.classes[int(order[0])]
        if ok:
            return ObjectRead(self.kind, value, box, conf, STATUS_READ)
        cands = tuple((v, round(float(digits[k]), 4)) for k in order[:3]
                      if digits[k] >= 0.01 and (v := self.classes[int(k)]) is not None)
        return ObjectRead(self.kind, None, box, conf, STATUS_PENDING, cands)


def combine_numeral(enrolled: ObjectRead, net: ObjectRead | None) -> ObjectRead:
    """The read of a numeral die of a calibrated tray, from the players' enrolled faces
    (``enrolled``) and the network's read of the same crop (``net``).

    The enrollment learnt the players' own dice; the network learnt rendered ones and
    has never seen a real d10 photo. So the network does not overrule the enrollment
    except to stop a guess: when it reads (surely) another face than the enrollment's,
    the die is pending with both faces as candidates. Otherwise the enrollment's read
    stands (the network unsure, or seeing no numeral, says nothing).

    >>> a = ObjectRead("d10", 7, (0, 0, 9, 9), 0.9)
    >>> combine_numeral(a, ObjectRead("d10", 7, (0, 0, 9, 9), 0.97)).status
    'read'
    >>> b = combine_numeral(a, ObjectRead("d10", 1, (0, 0, 9, 9), 0.97))
    >>> b.status, b.value, [v for v, _ in b.candidates]
    ('pending', None, [1, 7])
    >>> combine_numeral(a, None) == a
    True
    """
    if net is None or net.status != STATUS_READ or enrolled.value is None or net.value == enrolled.value:
        return enrolled
    cands: dict[int | str, float] = {}
    for o in (net, enrolled):
        for v, c in (o.candidates or ((o.value, o.confidence),)):
            if v is not None:
                cands[v] = max(cands.get(v, 0.0), float(c))
    ranked = tuple(sorted(cands.items(), key=lambda kv: -kv[1])[:3])
    return ObjectRead(enrolled.kind, None, enrolled.box, min(enrolled.confidence, net.confidence),
                      STATUS_PENDING, ranked)
