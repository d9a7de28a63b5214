"""Find gems (small round coloured objects, touching or not) in a frame.

A plug-in detector of :class:`vision.reader.Reader`: ``detect(frame) -> list[Candidate]``.
The frame is scaled so its longer side is ``det_size`` pixels (544: a 1920 x 1080 photo
becomes 544 x 306, a gem about 13 px; the network learnt at 640, gems 0.7..1.4 times
15 px; on the 850 ``calib`` candies it finds 844 at 544, 847 at 640 for a third more
time, 835 at 480), padded to a multiple of 16 (not to a square: that
would cost 1.7 times as much) and run through ``gem_detector.onnx``, a CenterNet-style
network of the d6 detector's architecture (:class:`vision.train.nets_torch.CentreNet`,
63 k parameters) trained by :mod:`vision.train.train_gems` on the ``fit`` photos of
``shared/data/colour-candies``, with the dice photos' ``fit`` part as gem-free images
(dice and pips are not gems). It marks the centre of every round object whatever its
colour (orange candies included): saying which objects are gems, and which colour, is
the colour reader's job (:class:`vision.gem_colour.GemClassifier`).

Trained on objects whose side is about 2.3 % of the frame's longer side (0.7..1.4 times
that); a camera much closer or farther needs another ``det_size`` (proportionally).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .detect import Candidate, centre_peaks
from .nets import MODELS_DIR, load_net

__all__ = ["GemDetector", "GEM_SOURCE"]

GEM_SOURCE = "gem"  # Candidate.source of this detector's candidates


class GemDetector:
    """Round-object centre detector (``gem_detector.onnx``) run by ``cv2.dnn``.

    ``threshold``: the least centre heat of a candidate (0.5: chosen on the ``calib``
    photos, see ``docs/vision.md``, Gems)."""

    #: What it finds: the reader runs it only when the step expects gems (or anything).
    kinds = ("gem",)
    #: Runs only when the step asks for gems (``Reader.read(kinds=...)``).
    on_request = True

    def __init__(self, model: Path | None = None, det_size: int = 544, stride: int = 4,
                 threshold: float = 0.5, max_objects: int = 256, engine: str = "classic") -> None:
        self.net = load_net(Path(model) if model else MODELS_DIR / "gem_detector.onnx", engine)
        self.det_size = int(det_size)
        self.stride = int(stride)
        self.threshold = float(threshold)
        self.max_objects = int(max_objects)

    def heat(self, frame: np.ndarray) -> tuple[np.ndarray, float]:
        """The network's 4 x H/4 x W/4 output for ``frame`` and the frame-to-input scale."""
        import cv2

        h, w = frame.shape[:2]
        s = self.det_size / max(h, w)
        nw, nh = max(1, round(w * s)), max(1, round(h * s))
        small = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        ph, pw = -(-nh // 16) * 16, -(-nw // 16) * 16
        canvas = np.full((ph, pw, 3), 127, np.uint8)
        canvas[:nh, :nw] = small
        blob = canvas.transpose(2, 0, 1)[None].astype(np.float32) * np.float32(1 / 255)
        return self.net(blob)[0], s

    def detect(self, frame: np.ndarray) -> list[Candidate]:
        """Candidates in ``frame`` (H x W x 3 BGR uint8), strongest first."""
        h, w = frame.shape[:2]
        out, s = self.heat(frame)
        return centre_peaks(out, s, self.stride, self.threshold, self.max_objects, (w, h), source=GEM_SOURCE)
