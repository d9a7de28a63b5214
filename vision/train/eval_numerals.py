"""Measure the d10 numeral classifier (run-time path: ``cv2.dnn``, no torch) on held-out
renders and on real crops that are no numeral::

    python -m vision.train.eval_numerals --shared ../shared/data [--models vision/models] [--n 2000]

No real photo of a d10 exists in the shared data. The digits are rendered in fonts of
another family than the training ones (:func:`vision.train.numeral_faces.font_sets`:
Liberation and three other Hershey faces; Pillow needed for the Liberation files, else
the Hershey ones only), with a seed the training never used, then read as rendered
and after each transform of ``benchmarks/bench_vision_transforms.py`` brought to the
crop (rotated 30°, the die at half the size, blur σ 1.5, JPEG 30, 40 % darker, 40 %
brighter). For each: read right automatically, pending, silently wrong (read and
wrong). Then the real "other" crops of the held-aside (``test``) photos: pip dice, candies,
tray floor; and held-out rendered "others": every one must be unclaimed or pending.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from vision.numerals import NumeralClassifier
from vision.result import STATUS_READ
from vision.train.numeral_faces import CROP, font_sets, render_crop

CropTransform = Callable[[np.ndarray], np.ndarray]


def _rotate(deg: float) -> CropTransform:
    def run(c: np.ndarray) -> np.ndarray:
        m = cv2.getRotationMatrix2D((CROP / 2, CROP / 2), deg, 1.0)
        return cv2.warpAffine(c, m, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE)
    return run


def _half(c: np.ndarray) -> np.ndarray:
    small = cv2.resize(c, (CROP // 2, CROP // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)


def _jpeg(q: int) -> CropTransform:
    def run(c: np.ndarray) -> np.ndarray:
        ok, data = cv2.imencode(".jpg", c, [cv2.IMWRITE_JPEG_QUALITY, q])
        return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return run


def _gain(f: float) -> CropTransform:
    return lambda c: np.clip(c.astype(np.float32) * f, 0, 255).astype(np.uint8)


TRANSFORMS: list[tuple[str, CropTransform | None]] = [
    ("as rendered", None), ("rotated 30°", _rotate(30)), ("scale 0.5x", _half),
    ("blur σ 1.5", lambda c: cv2.GaussianBlur(c, (0, 0), 1.5)), ("JPEG 30", _jpeg(30)),
    ("40 % darker", _gain(0.6)), ("40 % brighter", _gain(1.4)),
]


def held_out_digits(n: int, seed: int = 12345, truetype: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``n`` clean crops of d10 faces in the held-out fonts and their class (0..9)."""
    fonts = font_sets(truetype)[1]
    rng = np.random.default_rng(seed)
    ys = rng.integers(10, size=n)
    xs = np.stack([render_crop(rng, int(d), fonts, camera=False) for d in ys])
    return xs, ys


def held_out_others(n: int, seed: int = 54321, truetype: bool = True) -> np.ndarray:
    fonts = font_sets(truetype)[1]
    rng = np.random.default_rng(seed)
    return np.stack([render_crop(rng, None, fonts) for _ in range(n)])


def score(clf: NumeralClassifier, xs: np.ndarray, ys: np.ndarray) -> dict[str, float]:
    """Shares of read right automatically, pending (or unclaimed), silently wrong, and
    of best guesses right (the top digit, read or not)."""
    p = clf.probabilities_of_crops(xs)
    right = wrong = 0
    for pi, y in zip(p, ys):
        o = clf.decide((0, 0, CROP, CROP), pi)
        if o is not None and o.status == STATUS_READ:
            if o.value == clf.classes[int(y)]:
                right += 1
            else:
                wrong += 1
    n = max(1, len(ys))
    best = float((p[:, :10].argmax(axis=1) == ys).sum()) / n if len(p) else 0.0
    return {"auto": right / n, "pending": (n - right - wrong) / n, "silent": wrong / n, "wrong": wrong,
            "best": best}


def confident(clf: NumeralClassifier, xs: np.ndarray) -> int:
    """How many of ``xs`` (no numerals) are read confidently."""
    p = clf.probabilities_of_crops(xs)
    return sum(1 for pi in p if (o := clf.decide((0, 0, CROP, CROP), pi)) is not None and o.status == STATUS_READ)


def main(argv: list[str] | None = None) -> int:
    from vision.nets import MODELS_DIR
    from vision.train.train_numerals import real_others

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[3] / "shared" / "data")
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--n", type=int, default=2000)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    clf = NumeralClassifier(models=args.models)
    xs, ys = held_out_digits(args.n)
    print(f"{args.n} held-out d10 faces (fonts: {', '.join(f.name for f in font_sets()[1])})")
    print(f"{'version':16s} {'auto':>7s} {'pending':>8s} {'silent':>7s} {'best guess right':>17s}")
    for name, tf in TRANSFORMS:
        tx = xs if tf is None else np.stack([tf(c) for c in xs])
        s = score(clf, tx, ys)
        print(f"{name:16s} {s['auto'] * 100:6.1f}% {s['pending'] * 100:7.1f}% {s['silent'] * 100:6.2f}% ({s['wrong']:.0f})"
              f" {s['best'] * 100:12.1f}%")
    real, _ = real_others(args.shared, "test", 7, max_candy=20)
    others = held_out_others(args.n // 2)
    print(f"real others of the test photos (pip dice, candies, floor): {confident(clf, real)} of {len(real)} read")
    print(f"held-out rendered others: {confident(clf, others)} of {len(others)} read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
