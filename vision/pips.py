"""Read ordinary pip d6 dice: a small network classifies a crop around each candidate.

Each candidate from :mod:`vision.detect` is cut out of the full-resolution frame (a
square 1.3 times the die's side, scaled to 48 x 48) and ``d6_classifier.onnx`` gives
seven probabilities: faces 1..6 and "not a die". With ``tta`` (on by default) the crop
is also classified turned by 90 degrees and mirrored, and the probabilities averaged:
a die looks the same turned, so disagreement there lowers the confidence.

Honesty (thresholds tuned on the training photos only, see :mod:`vision.train.tune`):

- "not a die" at least ``not_a_die``: the candidate is dropped (a false detection);
- the die's confidence is the probability of its best face; it is ``read`` only if
  that is at least ``confidence`` AND beats the second face by ``margin``; otherwise
  ``pending`` with its two best candidates, for the players to confirm.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .detect import Candidate
from .nets import MODELS_DIR, load_net, load_settings
from .read import STATUS_PENDING, STATUS_READ, ObjectRead

__all__ = ["PipClassifier", "crop"]

NOT_A_DIE = 6


def crop(frame: np.ndarray, cx: float, cy: float, side: float, size: int = 48, factor: float = 1.3) -> np.ndarray:
    """The ``size`` x ``size`` patch centred on (cx, cy) covering ``factor * side`` pixels
    (edges replicated past the frame), as in training."""
    import cv2

    scale = size / (factor * max(side, 1.0))
    m = np.array([[scale, 0, size / 2 - scale * cx], [0, scale, size / 2 - scale * cy]], np.float64)
    return cv2.warpAffine(frame, m, (size, size), flags=cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


class PipClassifier:
    """d6 pip faces via ``d6_classifier.onnx``; a plug-in of :class:`vision.reader.Reader`."""

    kind = "d6"

    def __init__(self, model: Path | None = None, settings: dict[str, Any] | None = None,
                 tta: bool = True) -> None:
        cfg = settings if settings is not None else load_settings(MODELS_DIR / "d6.json")
        thr = cfg.get("thresholds", {})
        self.net = load_net(model or MODELS_DIR / "d6_classifier.onnx")
        self.size = int(cfg.get("crop", 48))
        self.factor = float(cfg.get("crop_factor", 1.3))
        self.not_a_die = float(thr.get("not_a_die", 0.5))
        self.confidence = float(thr.get("confidence", 0.9))
        self.margin = float(thr.get("margin", 0.5))
        self.tta = tta

    def probabilities(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
        """N x 7 probabilities (faces 1..6, not a die)."""
        if not candidates:
            return np.zeros((0, 7), np.float32)
        crops = np.stack([crop(frame, c.cx, c.cy, c.side, self.size, self.factor) for c in candidates])
        blob = crops.astype(np.float32).transpose(0, 3, 1, 2) * np.float32(1 / 255)
        if self.tta:
            blob = np.concatenate([blob, np.rot90(blob, 1, axes=(2, 3)), blob[:, :, :, ::-1]])
        logits = self.net(blob)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        if self.tta:
            p = p.reshape(3, len(candidates), -1).mean(axis=0)
        return p

    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]] = ()) -> list[ObjectRead | None]:
        """One :class:`ObjectRead` per candidate, or ``None`` for "not a die"."""
        probs = self.probabilities(frame, candidates)
        return [self.decide(c, p) for c, p in zip(candidates, probs)]

    def decide(self, cand: Candidate, p: np.ndarray) -> ObjectRead | None:
        if float(p[NOT_A_DIE]) >= self.not_a_die:
            return None
        faces = p[:6]
        order = np.argsort(-faces)
        best, second = int(order[0]), int(order[1])
        conf = float(faces[best])
        ok = conf >= self.confidence and conf - float(faces[second]) >= self.margin
        cands = tuple((int(k) + 1, round(float(faces[k]), 4)) for k in order[:3] if faces[k] >= 0.01)
        if not math.isfinite(conf):
            return None
        return ObjectRead(
            kind=self.kind, value=best + 1, box=cand.box, confidence=conf,
            status=STATUS_READ if ok else STATUS_PENDING,
            candidates=cands if not ok else (),
        )
