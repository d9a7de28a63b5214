"""Tune the d6 reader's thresholds on the ``calib`` photos (part of the training part;
the held-aside ``test`` photos are never looked at). Runs with OpenCV only::

    python -m vision.train.tune ../shared/data/tray-dice-photos --models vision/models

1. Detection: the candidate threshold ``det`` and the "not a die" threshold
   ``not_a_die`` maximise ``recall - 2 * false detections`` (both per true die).
2. Honesty: the (``confidence``, ``margin``) pair maximising ``dice read right
   automatically - COST * silent errors`` on the calib photos, every probability being
   raised by ``--safety`` first (default 0.02: a wrong face must stay pending even a
   little surer than any seen, room for unseen dice). ``--cost``
   (default 25): one silent error weighs as much as 25 dice the players must confirm.
   The labels are taken with :data:`vision.labelled.LABEL_FIXES` applied (a few dice
   labelled 2 that plainly show 3): no threshold can avoid those, and left as they are
   they would push the thresholds up for nothing.

Writes the thresholds into ``d6.json`` beside the models.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from vision.detect import DiceDetector
from vision.eval import match
from vision.labelled import list_photos, load_labels
from vision.nets import load_settings
from vision.pips import PipClassifier, judge
from vision.result import ObjectRead


def records(folder: Path, split: str, models: Path, detector: Path | None = None,
            det_settings: Path | None = None,
            transform: Callable[[np.ndarray, np.random.Generator], np.ndarray] | None = None,
            sure_alone: float | None = None, sure_no_die: float | None = None) -> tuple[list[dict[str, Any]], int]:
    """Per candidate (detector threshold 0.05): score, 7 probabilities, true face or 0.
    The classifiers are those of ``models``; the detector is ``detector`` (default: the
    one in ``models``) with the input size of ``det_settings`` (default: ``models``).
    ``transform(photo, rng)``: each photo as another camera takes it
    (:mod:`vision.train.degrade`; ``rng`` seeded by the photo's place in the split).
    ``sure_alone``: the classifiers' first network alone reads the crops it is that sure
    of (:attr:`vision.pips.PipClassifier.sure_alone`), and the crops it calls "not a die"
    at ``sure_no_die`` (default: ``sure_alone``); default: every network on every crop."""
    import cv2

    cfg = load_settings(models / "d6.json")
    dcfg = load_settings(det_settings) if det_settings else cfg
    det = DiceDetector(detector or models / "d6_detector.onnx", det_size=dcfg["det_size"], stride=dcfg["stride"],
                       threshold=0.05)
    clf = PipClassifier([models / n for n in cfg.get("classifiers", ["d6_classifier.onnx"])], settings=cfg)
    clf.sure_alone, clf.sure_no_die = sure_alone, sure_no_die
    recs: list[dict[str, Any]] = []
    n_true = 0
    for i, ph in enumerate(list_photos(folder, split)):
        img = cv2.imread(str(ph.path))
        if img is None:
            continue
        labels = load_labels(ph.path, img.shape[1], img.shape[0], fixes=True)
        if transform is not None:
            img = transform(img, np.random.default_rng(1000 + i))
        n_true += len(labels)
        cands = det.detect(img)
        probs = clf.probabilities(img, cands)
        objs = [ObjectRead("d6", None, c.box, c.score) for c in cands]
        pairs, _, _ = match(objs, labels)
        face = {i: labels[j].face for i, j in pairs}
        for i, (c, p) in enumerate(zip(cands, probs)):
            recs.append({"score": c.score, "p": p, "face": face.get(i, 0)})
    return recs, n_true


def tune(recs: list[dict[str, Any]], n_true: int, safety: float, cost: float = 25.0,
         t_det: float | None = None) -> dict[str, float]:
    """The thresholds (see the module doc); ``t_det`` fixes the detector threshold
    instead of tuning it."""
    score = np.array([r["score"] for r in recs])
    p = np.array([r["p"] for r in recs])
    face = np.array([r["face"] for r in recs])
    grid = []
    for td in [t_det] if t_det is not None else np.arange(0.05, 0.61, 0.05):
        for t_nd in np.arange(0.2, 0.96, 0.05):
            keep = (score >= td) & (p[:, 6] < t_nd)
            tp = int((keep & (face > 0)).sum())
            fp = int((keep & (face == 0)).sum())  # duplicates of a die count as false too
            grid.append((round(tp / n_true - 2 * fp / n_true, 6), float(td), float(t_nd)))
    top_obj = max(g[0] for g in grid)
    # the middle of the best plateau: as far as the grid allows from its edges
    dets = sorted({g[1] for g in grid if g[0] == top_obj})
    t_det = dets[len(dets) // 2]
    nds = sorted(g[2] for g in grid if g[0] == top_obj and g[1] == t_det)
    t_nd = nds[len(nds) // 2]
    keep = (score >= t_det) & (p[:, 6] < t_nd) & (face > 0)
    pf = p[keep, :6]
    truth = face[keep] - 1
    order = np.argsort(-pf, axis=1)
    top = pf[np.arange(len(pf)), order[:, 0]]
    second = pf[np.arange(len(pf)), order[:, 1]]
    wrong = order[:, 0] != truth
    choice = (0.0, 0.99, 0.9, 0)
    for conf in np.arange(0.5, 0.995, 0.01):
        for margin in np.arange(0.0, 0.91, 0.05):
            read = (top + safety >= conf) & (top - second + safety >= margin)
            auto = int((read & ~wrong).sum())
            silent = int((read & wrong).sum())
            if auto - cost * silent > choice[0] - cost * choice[3]:
                choice = (auto, float(conf), float(margin), silent)
    n_found = int(keep.sum())
    return {"det": round(t_det, 3), "not_a_die": round(t_nd, 3), "confidence": round(choice[1], 3),
            "margin": round(choice[2], 3), "_calib_found": n_found, "_calib_true": n_true,
            "_calib_auto": int(choice[0]), "_calib_silent": int(choice[3]),
            "_calib_wrong_best": int(wrong.sum())}


def decisions(recs: list[dict[str, Any]], thr: dict[str, float]) -> np.ndarray:
    """Per record, what the rule ``thr`` makes of it (the run-time rule,
    :func:`vision.pips.judge`): -1 dropped (detector or "not a die"), 0 pending, else
    the face read.

    >>> r = [{"score": 0.9, "p": np.array([.01, .01, .9, .02, .02, .02, .02]), "face": 3},
    ...      {"score": 0.9, "p": np.array([.3, .3, .1, .1, .1, .05, .05]), "face": 1},
    ...      {"score": 0.1, "p": np.array([.9, .02, .02, .02, .02, .01, .01]), "face": 0}]
    >>> decisions(r, {"det": 0.35, "not_a_die": 0.6, "confidence": 0.76, "margin": 0.0}).tolist()
    [3, 0, -1]
    """
    out = []
    for r in recs:
        judged = None if r["score"] < thr["det"] else judge(r["p"], thr["not_a_die"], thr["confidence"], thr["margin"])
        out.append(-1 if judged is None else judged[0] if judged[1] else 0)
    return np.array(out, np.int64)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", type=Path)
    ap.add_argument("--models", type=Path, default=Path(__file__).resolve().parent.parent / "models")
    ap.add_argument("--split", default="calib")
    ap.add_argument("--safety", type=float, default=0.02)
    ap.add_argument("--cost", type=float, default=25.0)
    ap.add_argument("--dry-run", action="store_true", help="print, do not write d6.json")
    args = ap.parse_args(argv)
    import cv2

    cv2.setNumThreads(1)
    recs, n_true = records(args.photos, args.split, args.models)
    thr = tune(recs, n_true, args.safety, args.cost)
    print(json.dumps(thr))
    if not args.dry_run:
        path = args.models / "d6.json"
        meta = json.loads(path.read_text())
        meta["thresholds"] = {k: v for k, v in thr.items() if not k.startswith("_")}
        meta["tuned"] = {"split": args.split, "safety": args.safety, "cost": args.cost,
                         **{k[1:]: v for k, v in thr.items() if k.startswith("_")}}
        path.write_text(json.dumps(meta, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
