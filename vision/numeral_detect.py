"""Find numeral dice (d10 first) on a plain photo: a centre network trained on renders.

It is also the proposer of the other numeral dice (d4, d8, d12, d20) until a detector of
every kind does it: it learnt d10 only, and finds most of the d12 and d4 that
:mod:`vision.synth` draws on plain frames (``docs/vision/numerals.md``); what it proposes
the numeral classifier reads for the step's kind, or refuses.

The d6 die-centre detector (:mod:`vision.detect`) learnt pip d6 only, so without this
plug-in a d10 pool was found only on a calibrated tray. ``d10_detector.onnx`` is the
same kind of network (:class:`~vision.train.nets_torch.CentreNet`, read by
:func:`vision.detect.centre_peaks`), trained by :mod:`vision.train.train_d10_detector`
on synthetic trays (d10 pools of 5-15 touching dice laid on real and drawn floors, with
pip d6, gems and pips as things that are no target).

It only proposes: every candidate goes to the numeral classifier
(:class:`vision.numerals.NumeralClassifier`), which reads it, leaves it pending, or
refuses it as "not a numeral" (then the reader drops it). Candidates carry the source
``"d10"``, so the pip and gem classifiers never claim them. It runs on request only:
when the step expects d10 (``Reader.read(kinds={"d10"})``).

No real d10 photo exists in the shared data: the figures in ``docs/vision.md`` are on
held-out renders and on real photos holding no d10 (where nothing must come out).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from .detect import Candidate, DiceDetector
from .nets import MODELS_DIR, load_settings

__all__ = ["NumeralDiceDetector", "available", "SOURCE"]

SOURCE = "d10"
SETTINGS = "d10_detector.json"


def available(models: Path = MODELS_DIR) -> bool:
    """True when the numeral-die detector and its settings are installed."""
    return (models / SETTINGS).is_file() and (models / "d10_detector.onnx").is_file()


class NumeralDiceDetector(DiceDetector):
    """The d10 centre detector, a plug-in of :class:`vision.reader.Reader` (``kinds``
    the numeral dice but the d6, ``on_request``)."""

    # (DiceDetector says ``kinds = ("d6",)``, which mypy takes for a one-item tuple type)
    kinds: tuple[str, ...] = ("d4", "d8", "d10", "d12", "d20")  # type: ignore[assignment]
    on_request = True
    #: With other detectors (a step expecting d6 and d10), the reader runs this one
    #: apart: the d6 path stays as it is, numeral dice are added where it read nothing.
    apart = True

    def __init__(self, settings: dict[str, Any] | None = None, models: Path = MODELS_DIR,
                 threshold: float | None = None, engine: str = "classic") -> None:
        cfg = settings if settings is not None else load_settings(models / SETTINGS)
        super().__init__(model=models / str(cfg.get("model", "d10_detector.onnx")),
                         det_size=int(cfg.get("det_size", 320)), stride=int(cfg.get("stride", 4)),
                         threshold=float(cfg.get("threshold", 0.3) if threshold is None else threshold),
                         max_objects=int(cfg.get("max_objects", 64)), engine=engine)

    def detect(self, frame: np.ndarray, scale: float | None = None) -> list[Candidate]:
        """Candidates (source ``"d10"``) in ``frame``, strongest first."""
        return [replace(c, source=SOURCE) for c in super().detect(frame, scale)]
