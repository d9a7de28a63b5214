"""Read ordinary pip d6 dice: a small network classifies a crop around each candidate.

Each candidate from :mod:`vision.detect` is cut out of the full-resolution frame (a
square 1.3 times the die's side, scaled to 48 x 48) and the classifiers listed in
``d6.json`` (``d6_classifier.onnx``, ``d6_classifier_2.onnx``: the same network trained
from two seeds, an ensemble) give seven probabilities, averaged: faces 1..6 and "not a
die". With ``tta`` (on by default) the crop
of a die the network is not sure of at once (best class under ``tta_below``, 0.93) is
also classified in its 7 other quarter turns and mirror images, and the eight answers
averaged: a die's face looks the same turned, so disagreement there lowers the
confidence (measured out of fold on 472 dice: 443 read right automatically with the
eight views against 435 with three, no silent error either way; with the committed
classifiers, over the whole training part out of fold: 1,058 of 1,108 read right
automatically with the second look below 0.93, as many as below 0.97, against 1,020
without it; it looks again at 11 % of the candidates instead of 16 %).

A die the first network alone reads at ``sure_alone`` (0.99, "not a die" under 0.05) or
more is not shown to the second: out of fold, on the 1,108 training dice as taken, under
JPEG 30 and under a webcam, that changed no decision and spared the second network half
of the crops (6 December 2026). Nor is a crop the first network calls "not a die" at
``sure_no_die`` (0.8) or more: again no decision changed out of fold, and a d6 step on a
1920 x 1080 photo of some forty candies (each proposed by the detector, each refused)
takes 69 ms instead of 77 (86 with neither; at 0.99 it took 78 ms against 86).

On a known tray the candidates come from the tray's own segmentation, sized in
millimetres (a pip is never one), and the reader asks :attr:`PipClassifier.tray` for its
opinion: the classifiers named in ``d6.json``'s ``"tray"`` entry, with their own
thresholds (the ensemble before the pip-part and dot negatives, which reads rendered
white d6 better: see ``docs/vision/d6-other-cameras.md``); without that entry, the same classifiers.

Honesty (thresholds tuned on the training photos only, never on the held-aside ones:
see :mod:`vision.train.cv` and :mod:`vision.train.tune`):

- "not a die" at least ``not_a_die``: the candidate is dropped (a false detection);
- the die's confidence is the probability of its best face; it is ``read`` only if
  that is at least ``confidence`` AND beats the second face by ``margin``; otherwise
  ``pending`` with its two best candidates, for the players to confirm;
- a candidate of the class-agnostic object detector (:data:`ASK_ONLY`: it runs only in
  a step that also expects other kinds, e.g. Péripéties' d6 and symbol dice) is at most
  ``pending``: there it finds the d6 the die-centre network missed (plain white d6
  renders: 43 of 61 found only that way), but a symbol die its reader does not claim can
  look like pips (7 December 2026). The reader reads such a d6 after all when its colour
  is one no enrolled symbol face has (:meth:`would_read`,
  :meth:`vision.reader.Reader._no_symbol_colour`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .detect import Candidate
from .nets import MODELS_DIR, load_net, load_settings
from .result import STATUS_PENDING, STATUS_READ, ObjectRead

__all__ = ["PipClassifier", "crop", "judge", "to_blob"]

NOT_A_DIE = 6
TTA_BELOW = 0.93  # a second look (eight views) at a die whose best class is under this
SURE_NOT_A_DIE = 0.05  # a crop read by the first network alone has "not a die" under this
#: Candidates of these sources are claimed but never read, only asked about: the
#: class-agnostic detector's (``vision.object_detect.SOURCE``), in a step expecting d6
#: and other kinds, where the die-centre detector missed a die (see :class:`PipClassifier`).
ASK_ONLY = ("object",)


def crop(frame: np.ndarray, cx: float, cy: float, side: float, size: int = 48, factor: float = 1.3) -> np.ndarray:
    """The ``size`` x ``size`` patch centred on (cx, cy) covering ``factor * side`` pixels
    (edges replicated past the frame), as in training."""
    import cv2

    scale = size / (factor * max(side, 1.0))
    m = np.array([[scale, 0, size / 2 - scale * cx], [0, scale, size / 2 - scale * cy]], np.float64)
    return cv2.warpAffine(frame, m, (size, size), flags=cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def to_blob(crops: np.ndarray, norm: str = "none") -> np.ndarray:
    """N x H x W x 3 uint8 crops to the networks' N x 3 x H x W float input (0..1).

    ``norm="crop"`` (a model trained with ``train_d6 --normalise``): each crop is
    stretched to a standard contrast (mean 0.5, standard deviation 0.25, the deviation
    floored at 0.05 so that a flat patch of tray is not blown up into noise): a dark
    translucent die with dark red pips looks to the network like a bright one."""
    blob = crops.astype(np.float32).transpose(0, 3, 1, 2) * np.float32(1 / 255)
    if norm == "crop":
        mean = blob.mean(axis=(1, 2, 3), keepdims=True)
        std = np.maximum(blob.std(axis=(1, 2, 3), keepdims=True), np.float32(0.05))
        blob = (blob - mean) * (np.float32(0.25) / std) + np.float32(0.5)
    elif norm != "none":
        raise ValueError(f"unknown input normalisation {norm!r} (none or crop)")
    return blob


class PipClassifier:
    """d6 pip faces via the ``d6_classifier*.onnx`` ensemble; a plug-in of
    :class:`vision.reader.Reader`. ``model``: one ONNX file or several (averaged);
    default: those named in ``settings["classifiers"]``."""

    kind = "d6"

    def __init__(self, model: Path | Sequence[Path] | None = None, settings: dict[str, Any] | None = None,
                 tta: bool = True, sources: Sequence[str] | None = ("",) + ASK_ONLY) -> None:
        cfg = settings if settings is not None else load_settings(MODELS_DIR / "d6.json")
        thr = cfg.get("thresholds", {})
        if model is None:
            paths = [MODELS_DIR / name for name in cfg.get("classifiers", ["d6_classifier.onnx"])]
        elif isinstance(model, (str, Path)):
            paths = [Path(model)]
        else:
            paths = [Path(m) for m in model]
        self.nets = [load_net(p) for p in paths]
        self.size = int(cfg.get("crop", 48))
        self.factor = float(cfg.get("crop_factor", 1.3))
        self.not_a_die = float(thr.get("not_a_die", 0.5))
        self.confidence = float(thr.get("confidence", 0.9))
        self.margin = float(thr.get("margin", 0.5))
        self.tta = tta
        self.norm = str(cfg.get("input_norm", "none"))
        self.tta_below = float(cfg.get("tta_below", TTA_BELOW))
        #: A crop the first network is this sure of (its best face, with "not a die" under
        #: :data:`SURE_NOT_A_DIE`; or "not a die") is not shown to the others (``None``: every network
        #: sees every crop); see :meth:`probabilities`.
        sure = cfg.get("sure_alone")
        self.sure_alone = None if sure is None else float(sure)
        #: A crop the first network calls "not a die" at this or more is not shown to the
        #: others either (``None``: at :attr:`sure_alone`); ``sure_no_die`` in ``d6.json``.
        no_die = cfg.get("sure_no_die")
        self.sure_no_die = None if no_die is None else float(no_die)
        #: Claim only candidates of these ``Candidate.source`` (default: the die-centre
        #: detector's, ``""``, and the object detector's); ``None``: every candidate. The
        #: networks never saw a candy: the gem detector's candidates are not theirs.
        #: Those of :data:`ASK_ONLY` are at most pending: the object detector finds the
        #: dice the die-centre network missed in a step that also expects symbol dice, but
        #: the pip networks also take a symbol die the symbol reader does not claim for a
        #: d6 (a yellow "gourde" read as a 3 at 0.97).
        self.sources = None if sources is None else tuple(sources)
        #: Boxes of dice that a reader of another kind claimed (:meth:`beside`).
        self.claimed_elsewhere: tuple[tuple[int, int, int, int], ...] = ()
        #: The classifiers that give the pip opinion on a known tray (see :attr:`tray`).
        self.tray: PipClassifier = self
        tray_cfg = cfg.get("tray")
        if model is None and isinstance(tray_cfg, dict):
            self.tray = PipClassifier([MODELS_DIR / n for n in tray_cfg["classifiers"]],
                                      settings={**cfg, "thresholds": tray_cfg["thresholds"], "tray": None,
                                                "sure_alone": tray_cfg.get("sure_alone"),
                                                "sure_no_die": tray_cfg.get("sure_no_die")},
                                      tta=tta, sources=sources)
            self.tray._run(np.zeros((1, self.size, self.size, 3), np.uint8))  # the first run is slow

    @staticmethod
    def _softmax(net: Any, blob: np.ndarray) -> np.ndarray:
        logits = net(blob).astype(np.float64)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return np.asarray(e / e.sum(axis=1, keepdims=True))

    def _run(self, crops: np.ndarray) -> np.ndarray:
        blob = to_blob(crops, self.norm)
        return np.asarray(sum(self._softmax(net, blob) for net in self.nets) / len(self.nets))

    def _first_look(self, crops: np.ndarray) -> np.ndarray:
        """The ensemble's probabilities, except that a crop the first network alone is
        :attr:`sure_alone` sure of (of its face), or calls "not a die" at
        :attr:`sure_no_die` (default: :attr:`sure_alone`), keeps that network's answer
        (the others are not run on it)."""
        if self.sure_alone is None or len(self.nets) < 2:
            return self._run(crops)
        blob = to_blob(crops, self.norm)
        p = self._softmax(self.nets[0], blob)
        sure_face = (p[:, :6].max(axis=1) >= self.sure_alone) & (p[:, NOT_A_DIE] < SURE_NOT_A_DIE)
        no_die = self.sure_alone if self.sure_no_die is None else self.sure_no_die
        rest = np.nonzero(~sure_face & (p[:, NOT_A_DIE] < no_die))[0]
        if len(rest):
            sub = blob[rest]
            p[rest] = (p[rest] + sum(self._softmax(net, sub) for net in self.nets[1:])) / len(self.nets)
        return p

    def probabilities(self, frame: np.ndarray, candidates: Sequence[Candidate],
                      once: Sequence[bool] = ()) -> np.ndarray:
        """N x 7 probabilities (faces 1..6, not a die). With ``tta``, the crops whose best
        class is below ``tta_below`` are classified again in the 7 other turns and mirror
        images of the square, and the eight answers averaged (most dice are sure at once:
        little extra time), except those marked in ``once`` (per candidate). With
        :attr:`sure_alone` set (``d6.json``), the second network is not run on the crops
        the first is that sure of (:meth:`_first_look`)."""
        if not candidates:
            return np.zeros((0, 7), np.float32)
        crops = np.stack([crop(frame, c.cx, c.cy, c.side, self.size, self.factor) for c in candidates])
        p = self._first_look(crops)
        if self.tta:
            # not sure of its face, and not already judged "not a die" (dropped anyway)
            second = (p.max(axis=1) < self.tta_below) & (p[:, NOT_A_DIE] < self.not_a_die)
            unsure = np.nonzero(second & ~np.asarray(once, bool) if len(once) else second)[0]
            if len(unsure):
                again = crops[unsure]
                mirrored = again[:, :, ::-1]
                views = [np.rot90(v, k, axes=(1, 2)) for v in (again, mirrored) for k in range(4)][1:]
                q = self._run(np.concatenate(views)).reshape(len(views), len(unsure), -1)
                p[unsure] = (p[unsure] + q.sum(axis=0)) / (len(views) + 1)
        return p

    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]] = ()) -> list[ObjectRead | None]:
        """One :class:`ObjectRead` per candidate, or ``None`` for "not a die" (or a
        candidate of another detector, see ``sources``; or one inside a box of
        :attr:`claimed_elsewhere` that the first look is unsure of, see :meth:`beside`)."""
        mine = [i for i, c in enumerate(candidates) if self.sources is None or c.source in self.sources]
        out: list[ObjectRead | None] = [None] * len(candidates)
        inside = [candidates[i].centred_in(self.claimed_elsewhere) for i in mine] if self.claimed_elsewhere else []
        probs = self.probabilities(frame, [candidates[i] for i in mine], inside)
        for k, (i, p) in enumerate(zip(mine, probs)):
            elsewhere = bool(inside) and inside[k]
            out[i] = None if elsewhere and p.max() < self.tta_below else self.decide(candidates[i], p)
        return out

    def beside(self, boxes: Sequence[tuple[int, int, int, int]]) -> "PipClassifier":
        """The same networks, told that a reader of another kind claimed the dice at
        ``boxes`` (frame pixels): a candidate whose centre lies in one of them and that
        the first look is unsure of (best class under :attr:`tta_below`) is not looked
        at again in eight views, and not claimed. In a step expecting d6 and d10 the
        reader tells them of the dice the numeral networks read, or found close to a
        face (pending at :data:`vision.reader.CONTEST` or more: such a die is pending
        whatever the pip networks say, :func:`vision.reader.best_claim`). The die-centre
        detector finds the d10 too, and the pip networks, unsure of each, looked at
        every one eight times (57 of 101 ms per 640 x 480 frame) to end mostly pending
        at 0.65 or more, which made the die pending against a numeral read. Measured
        on 30 rendered pools (254 d10, ``bench_d10_plain.py``): 61-62 ms per frame
        instead of 100-101, 191 d10 read right instead of 168, 0 silently wrong either
        way. The 200 real d6 tray photos read in such a step are unchanged, and so are
        they under simulated webcams (``bench_other_cameras.py --kinds d6,d10``); told
        of every numeral claim, pending ones below 0.65 too, 3 webcam d6 of 1,516 went
        from read to pending. A d6 the first look is sure of still contests a numeral
        claim (the die pending), as before (7 December 2026). The dice the numeral path
        *read* are not shown to the d6 path at all (:class:`vision.reader._Apart`)."""
        from copy import copy

        if not boxes and not self.claimed_elsewhere:
            return self  # told of nothing: reads as ever
        view = copy(self)
        view.claimed_elsewhere = tuple(boxes)
        return view

    def would_read(self, obj: ObjectRead) -> bool:
        """Whether the read rule reads the pending claim ``obj`` of an :data:`ASK_ONLY`
        candidate (kept pending by its source alone): its best face at ``confidence`` or
        more and ahead of the second by ``margin``."""
        faces = [c for _, c in obj.candidates] + [0.0, 0.0]
        return (obj.kind == self.kind and obj.status == STATUS_PENDING and isinstance(obj.value, int)
                and obj.confidence >= self.confidence and faces[0] - faces[1] >= self.margin)

    def decide(self, cand: Candidate, p: np.ndarray) -> ObjectRead | None:
        judged = judge(p, self.not_a_die, self.confidence, self.margin)
        if judged is None:
            return None
        face, ok = judged
        ok = ok and cand.source not in ASK_ONLY
        faces = p[:6]
        order = np.argsort(-faces)
        cands = tuple((int(k) + 1, round(float(faces[k]), 4)) for k in order[:3] if faces[k] >= 0.01)
        return ObjectRead(
            kind=self.kind, value=face, box=cand.box, confidence=float(faces[face - 1]),
            status=STATUS_READ if ok else STATUS_PENDING,
            candidates=cands if not ok else (),
        )


def judge(p: np.ndarray, not_a_die: float, confidence: float, margin: float) -> tuple[int, bool] | None:
    """The read rule on one crop's 7 probabilities (faces 1..6, not a die): ``None`` for
    "not a die" (or no number), else the best face and whether it is read (at least
    ``confidence``, and ahead of the second face by ``margin``), pending otherwise.

    >>> judge(np.array([.01, .01, .9, .02, .02, .02, .02]), 0.6, 0.76, 0.0)
    (3, True)
    >>> judge(np.array([.4, .3, .1, .1, .05, .03, .02]), 0.6, 0.76, 0.0)
    (1, False)
    >>> judge(np.array([.05, .05, .05, .05, .05, .05, .7]), 0.6, 0.76, 0.0) is None
    True
    """
    if float(p[NOT_A_DIE]) >= not_a_die:
        return None
    faces = p[:6]
    order = np.argsort(-faces)
    conf, second = float(faces[order[0]]), float(faces[order[1]])
    if not math.isfinite(conf):
        return None
    return int(order[0]) + 1, conf >= confidence and conf - second >= margin
