"""Measure the object detector: found and false detections, per kind.

::

    python -m vision.train.eval_objects --shared ../shared/data --renders 300
    python -m vision.train.eval_objects --shared ../shared/data --tune --renders 80   # thresholds

Three sets, none trained on:

- held-out randomised renders (:func:`vision.train.scenes.render_scene`, seeds from
  :data:`HELD_OUT_SEED` on; training uses ``0 .. --scenes``), 640 x 640 frames;
- the held-aside (``test``) split of ``tray-dice-photos`` (real d6);
- the ``test`` split of ``colour-candies`` (real candies, 1920 x 1080).

An object is found when a candidate's centre lies within half its side of the object's
centre and the two sides are within a factor 2 (each candidate finds at most one
object); a candidate that finds none is a false detection. No torch: this runs what the
reader runs (:class:`vision.object_detect.ObjectDetector`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from vision.detect import Candidate

HELD_OUT_SEED = 1_000_000
Truth = tuple[float, float, float, str]  # cx, cy, side, kind


def match(cands: Sequence[Candidate], truth: Sequence[Truth]) -> tuple[list[bool], int]:
    """Which objects of ``truth`` a candidate found, and how many candidates found none.

    >>> match([Candidate(10, 10, 8, 0.9), Candidate(50, 50, 8, 0.8)], [(11, 9, 9, "d6")])
    ([True], 1)
    >>> match([Candidate(10, 10, 30, 0.9)], [(10, 10, 9, "d6")])  # three times too big
    ([False], 1)
    """
    found = [False] * len(truth)
    false = 0
    for c in sorted(cands, key=lambda c: -c.score):
        best, best_d = -1, math.inf
        for i, (x, y, s, _) in enumerate(truth):
            d = math.hypot(c.cx - x, c.cy - y)
            if not found[i] and d < 0.5 * s and 0.5 <= c.side / max(s, 1e-6) <= 2.0 and d < best_d:
                best, best_d = i, d
        if best >= 0:
            found[best] = True
        else:
            false += 1
    return found, false


class Tally:
    """Found / total per kind and false detections over frames."""

    def __init__(self) -> None:
        self.found: dict[str, int] = defaultdict(int)
        self.total: dict[str, int] = defaultdict(int)
        self.false = 0
        self.frames = 0

    def add(self, cands: Sequence[Candidate], truth: Sequence[Truth]) -> None:
        hit, false = match(cands, truth)
        for ok, t in zip(hit, truth):
            self.total[t[3]] += 1
            self.found[t[3]] += int(ok)
        self.false += false
        self.frames += 1

    def as_json(self) -> dict[str, Any]:
        n, f = sum(self.total.values()), sum(self.found.values())
        return {"frames": self.frames, "objects": n, "found": f, "found_rate": round(f / max(n, 1), 4),
                "false": self.false, "false_per_frame": round(self.false / max(self.frames, 1), 3),
                "per_kind": {k: {"found": self.found[k], "total": self.total[k],
                                 "rate": round(self.found[k] / max(self.total[k], 1), 3)}
                             for k in sorted(self.total)}}


def held_out(detector: Any, n: int, size: int = 640, first: int = HELD_OUT_SEED) -> Tally:
    """The detector on ``n`` held-out renders of ``size`` px (kinds as
    :mod:`vision.train.scenes` names them, gems split by colour)."""
    from vision.train.scenes import render_scene

    tally = Tally()
    for i in range(n):
        sc = render_scene(first + i, size)
        truth = [(o.cx, o.cy, o.side, f"gem:{o.value}" if o.kind == "gem" else o.kind) for o in sc.objects]
        tally.add(detector.detect(sc.image), truth)
    return tally


def real_dice(detector: Any, shared: Path, split: str = "test") -> Tally:
    """The detector on the ``split`` photos of ``tray-dice-photos`` (every die is a d6)."""
    import cv2

    from vision.labelled import list_photos, load_labels

    tally = Tally()
    for ph in list_photos(shared / "tray-dice-photos", split):
        img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        tally.add(detector.detect(img), [(*lab.centre, lab.side, "d6") for lab in load_labels(ph.path, w, h)])
    return tally


def real_candies(detector: Any, shared: Path, split: str = "test") -> Tally:
    """The detector on the ``split`` photos of ``colour-candies`` (kinds: candy colours)."""
    import cv2

    from vision.gem_data import list_gem_photos, load_gem_labels

    tally = Tally()
    for gp in list_gem_photos(shared / "colour-candies", split):
        img = cv2.imread(str(gp.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        tally.add(detector.detect(img), [(*lab.centre, lab.side, lab.colour) for lab in load_gem_labels(gp, w, h)])
    return tally


def reader_reads(reader: Any, n: int, kinds: Sequence[str], size: int = 640,
                 first: int = HELD_OUT_SEED) -> dict[str, int]:
    """What the whole reader returns for a step expecting ``kinds`` on ``n`` held-out
    renders: of the objects of those kinds, found (a read on its box), read right
    automatically, pending, read wrong (confident, another face or kind); and the reads on
    anything else (other kinds, floor), of them confident (silent false detections)."""
    from vision.result import STATUS_READ
    from vision.train.scenes import render_scene

    out = {"objects": 0, "found": 0, "right": 0, "pending": 0, "wrong": 0, "other": 0, "other_confident": 0}
    for i in range(n):
        sc = render_scene(first + i, size)
        objs = list(reader.read(sc.image, kinds=set(kinds)).objects)
        targets = [o for o in sc.objects if o.kind in kinds]
        used: set[int] = set()
        for t in targets:
            out["objects"] += 1
            near = [j for j, r in enumerate(objs) if j not in used
                    and math.hypot(r.box[0] + r.box[2] / 2 - t.cx, r.box[1] + r.box[3] / 2 - t.cy) < 0.5 * t.side]
            if not near:
                continue
            used.add(near[0])
            r = objs[near[0]]
            out["found"] += 1
            if r.status != STATUS_READ:
                out["pending"] += 1
            elif r.kind == t.kind and r.value == t.value:
                out["right"] += 1
            else:
                out["wrong"] += 1
        for j, r in enumerate(objs):
            if j not in used:
                out["other"] += 1
                out["other_confident"] += int(r.status == STATUS_READ)
    return out


TUNE_SEED = HELD_OUT_SEED + 500_000  # the renders the thresholds are chosen on (never the reported ones)


def tune(models: Path, shared: Path, renders: int = 80,
         firsts: Sequence[float] = (0.4, 0.45, 0.5, 0.55, 0.6),
         seconds: Sequence[float] = (0.5, 0.55, 0.6, 0.65, 0.7)) -> list[dict[str, Any]]:
    """Found rate and false detections per frame of every (threshold, second threshold)
    pair, on ``renders`` renders from :data:`TUNE_SEED` and the ``calib`` photos (never
    the ``test`` ones): how the committed thresholds were chosen."""
    import cv2

    from vision.gem_data import list_gem_photos, load_gem_labels
    from vision.labelled import list_photos, load_labels
    from vision.object_detect import ObjectDetector
    from vision.train.scenes import render_scene

    frames: dict[str, list[tuple[np.ndarray, list[Truth]]]] = {"renders": [], "dice": [], "candies": []}
    for i in range(renders):
        sc = render_scene(TUNE_SEED + i, 640)
        frames["renders"].append((sc.image, [(o.cx, o.cy, o.side, o.kind) for o in sc.objects]))
    for ph in list_photos(shared / "tray-dice-photos", "calib"):
        im = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if im is not None:
            truth = [(*lab.centre, lab.side, "d6") for lab in load_labels(ph.path, im.shape[1], im.shape[0])]
            frames["dice"].append((np.asarray(im, np.uint8), truth))
    for gp in list_gem_photos(shared / "colour-candies", "calib"):
        im = cv2.imread(str(gp.path), cv2.IMREAD_COLOR)
        if im is not None:
            truth = [(*lab.centre, lab.side, lab.colour) for lab in load_gem_labels(gp, im.shape[1], im.shape[0])]
            frames["candies"].append((np.asarray(im, np.uint8), truth))
    det = ObjectDetector(models=models, threshold=min(firsts), second_threshold=min(seconds))
    raw = det.net.detect
    cache: dict[tuple[int, float | None], list[Candidate]] = {}

    def cached(frame: np.ndarray, scale: float | None = None) -> list[Candidate]:
        key = (id(frame), None if scale is None else round(scale, 4))
        if key not in cache:
            cache[key] = raw(frame, scale)
        return cache[key]

    det.net.detect = cached  # type: ignore[method-assign]
    rows = []
    for t1 in firsts:
        for t2 in seconds:
            det.threshold, det.second_threshold = t1, t2
            row: dict[str, Any] = {"threshold": t1, "second_threshold": t2}
            for name, items in frames.items():
                tally = Tally()
                for im, truth in items:
                    tally.add(det.detect(im), truth)
                row[name] = (tally.as_json()["found_rate"], tally.as_json()["false_per_frame"])
            rows.append(row)
    return rows


MAX_FALSE = 0.25  # false detections per frame the chosen thresholds allow, on the renders and on the candies


def choose(rows: Sequence[dict[str, Any]], max_false: float = MAX_FALSE) -> dict[str, Any] | None:
    """The row of :func:`tune` with the most renders found among those with at most
    ``max_false`` false detections per frame on the renders and on the candies (the
    rule the committed thresholds follow); ``None`` when no row qualifies.

    >>> rows = [{"threshold": 0.5, "renders": (0.90, 0.43), "candies": (0.99, 0.83)},
    ...         {"threshold": 0.55, "renders": (0.86, 0.20), "candies": (0.98, 0.22)},
    ...         {"threshold": 0.6, "renders": (0.78, 0.14), "candies": (0.98, 0.22)}]
    >>> choose(rows)["threshold"]
    0.55
    >>> choose(rows, max_false=0.1) is None
    True
    """
    ok = [r for r in rows if all(r[k][1] <= max_false for k in ("renders", "candies") if k in r)]
    return max(ok, key=lambda r: r["renders"][0]) if ok else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=Path("../shared/data"))
    ap.add_argument("--models", type=Path, default=None)
    ap.add_argument("--renders", type=int, default=300)
    ap.add_argument("--threshold", type=float, default=None)
    ap.add_argument("--second-threshold", type=float, default=None)
    ap.add_argument("--det-size", type=int, default=None)
    ap.add_argument("--split", default="test", help="real photos' split: test (report) or calib (tuning)")
    ap.add_argument("--first-seed", type=int, default=HELD_OUT_SEED,
                    help="first render seed (tuning: HELD_OUT_SEED + 500000; report: HELD_OUT_SEED)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--tune", action="store_true", help="the threshold grid on the calib photos and tuning renders")
    a = ap.parse_args(argv)
    from vision.nets import MODELS_DIR
    from vision.object_detect import ObjectDetector

    if a.tune:
        rows = tune(a.models or MODELS_DIR, a.shared, a.renders)
        for row in rows:
            print(f"threshold {row['threshold']:.2f} second {row['second_threshold']:.2f}: " + " | ".join(
                f"{k} {100 * row[k][0]:.1f} % found, {row[k][1]:.2f} false/frame" for k in ("renders", "dice", "candies")))
        best = choose(rows)
        print("chosen (most renders found with at most "
              f"{MAX_FALSE} false per frame on the renders and the candies): " +
              ("none" if best is None else f"threshold {best['threshold']:.2f} second {best['second_threshold']:.2f}"))
        return 0

    det = ObjectDetector(models=a.models or MODELS_DIR, threshold=a.threshold, det_size=a.det_size,
                         second_threshold=a.second_threshold)
    out: dict[str, Any] = {"threshold": det.threshold, "second_threshold": det.second_threshold,
                           "det_size": det.det_size, "split": a.split, "first_seed": a.first_seed}
    for name in ("renders", "dice", "candies"):
        if name != "renders" and not (a.shared / ("tray-dice-photos" if name == "dice" else "colour-candies")).is_dir():
            continue
        tally = (held_out(det, a.renders, first=a.first_seed) if name == "renders" else
                 real_dice(det, a.shared, a.split) if name == "dice" else real_candies(det, a.shared, a.split))
        res = tally.as_json()
        out[name] = res
        kinds = "  ".join(f"{k} {v['found']}/{v['total']}" for k, v in res["per_kind"].items())
        print(f"{name}: found {res['found']}/{res['objects']} ({100 * res['found_rate']:.1f} %), "
              f"false {res['false']} in {res['frames']} frames\n    {kinds}", flush=True)
    if a.json:
        a.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
