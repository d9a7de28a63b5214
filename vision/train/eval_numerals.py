"""Measure the numeral classifiers (run-time path: ``cv2.dnn``, no torch) on held-out
renders and on real crops that are no numeral::

    python -m vision.train.eval_numerals --shared ../shared/data [--models vision/models] [--n 2000]
        [--kinds d10,d4,d6,d8,d12,d20]

Per kind (the d10 through its own network, the others through ``numerals_poly.onnx``),
read as a step expecting that kind alone would (:meth:`NumeralClassifier.for_kinds`).

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

import cv2
import numpy as np

from vision.numerals import NumeralClassifier
from vision.result import STATUS_READ
from vision.train.numeral_faces import CROP, POLY_FACES, POLY_NUMBERS, font_sets, render_crop
from vision.train.numeral_faces import TRANSFORMS as TRANSFORMS  # re-exported: the tests measure with them


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


def held_out_faces(kind: str, n: int, seed: int = 23456, truetype: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``n`` clean crops of ``kind`` dice (d4, d6, d8, d12, d20) in the held-out fonts and
    the number each shows (uniform over the kind's faces)."""
    fonts = font_sets(truetype)[1]
    rng = np.random.default_rng(seed + POLY_FACES[kind])
    ys = rng.integers(1, POLY_FACES[kind] + 1, size=n)
    xs = np.stack([render_crop(rng, None, fonts, kind=kind, face=int(v), camera=False) for v in ys])
    return xs, ys


def held_out_poly_others(n: int, seed: int = 65432, truetype: bool = True) -> np.ndarray:
    """``n`` held-out "other" crops on the bodies of the d4..d20 (letters, numbers 21..99,
    symbols, pips, blank faces, gems, floor)."""
    fonts = font_sets(truetype)[1]
    rng = np.random.default_rng(seed)
    kinds = list(POLY_FACES)
    return np.stack([render_crop(rng, None, fonts, kind=kinds[int(rng.integers(len(kinds)))], numbers=POLY_NUMBERS)
                     for _ in range(n)])


def score_kind(clf: NumeralClassifier, kind: str, xs: np.ndarray, ys: np.ndarray) -> dict[str, float]:
    """As :func:`score`, for a step expecting ``kind`` alone (``ys``: the numbers shown);
    "best guess" is the poly network's top number among the kind's faces."""
    view = clf.for_kinds({kind})
    got = view.classify_crops(xs, [(0, 0, CROP, CROP)] * len(xs))
    right = sum(1 for o, y in zip(got, ys) if o is not None and o.status == STATUS_READ and o.value == int(y))
    wrong = sum(1 for o, y in zip(got, ys) if o is not None and o.status == STATUS_READ and o.value != int(y))
    n = max(1, len(ys))
    best = 0.0
    if clf.poly is not None and len(xs):
        p = clf.poly.probabilities_of_crops(xs)[:, :POLY_FACES[kind]]
        best = float((p.argmax(axis=1) + 1 == ys).sum()) / n
    return {"auto": right / n, "pending": (n - right - wrong) / n, "silent": wrong / n, "wrong": wrong,
            "best": best}


def confident_as(clf: NumeralClassifier, kinds: set[str], xs: np.ndarray) -> int:
    """How many of ``xs`` a step expecting ``kinds`` reads confidently."""
    got = clf.for_kinds(kinds).classify_crops(xs, [(0, 0, CROP, CROP)] * len(xs))
    return sum(1 for o in got if o is not None and o.status == STATUS_READ)


def plain_trays(kind: str, n: int, seed: int = 7000) -> list[tuple[np.ndarray, list[tuple[float, float, float, int]]]]:
    """``n`` plain 640 x 480 frames (no markers, the tray floor only) of 4-8 ``kind`` dice
    drawn by :mod:`vision.synth` (its own numerals, never used in training; d4 and d12
    only: it draws no d8 or d20), and the dice (cx, cy, side, face)."""
    from vision.catalog import FACES
    from vision.synth import SceneSpec, render_tray

    out = []
    for i in range(n):
        rng = np.random.default_rng(seed + i)
        count = int(rng.integers(4, 9))
        objs: list[tuple[str, int | str]] = [(kind, int(rng.choice(FACES[kind]))) for _ in range(count)]
        try:
            sc = render_tray(seed + 2000 + i, objects=objs, spec=SceneSpec(size=(640, 480), markers=False,
                                                                            crop_to_tray=True))
        except ValueError:
            continue
        out.append((sc.image, [(lab.center[0], lab.center[1], float((lab.box[2] * lab.box[3]) ** 0.5),
                                int(lab.value)) for lab in sc.labels]))
    return out


def score_plain(reader: object, kind: str, trays: list[tuple[np.ndarray, list[tuple[float, float, float, int]]]]
                ) -> dict[str, int]:
    """What ``reader`` reads on ``trays`` for a step expecting ``kind``: dice, found, right
    automatically, pending, silently wrong (a wrong number or kind read), false detections."""
    import math

    c = {"dice": 0, "found": 0, "right": 0, "pending": 0, "wrong": 0, "false": 0}
    for frame, dice in trays:
        got = list(reader.read(frame, kinds={kind}).objects)  # type: ignore[attr-defined]
        used = [False] * len(got)
        for cx, cy, side, value in dice:
            c["dice"] += 1
            j = next((j for j, o in enumerate(got) if not used[j]
                      and math.hypot(o.box[0] + o.box[2] / 2 - cx, o.box[1] + o.box[3] / 2 - cy) < 0.5 * side), None)
            if j is None:
                continue
            used[j] = True
            c["found"] += 1
            o = got[j]
            key = "pending" if o.status != STATUS_READ else "right" if (o.kind, o.value) == (kind, value) else "wrong"
            c[key] += 1
        c["false"] += used.count(False)
    return c


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
    ap.add_argument("--kinds", default="d10,d4,d6,d8,d12,d20", help="the kinds to measure, comma-separated")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    clf = NumeralClassifier(models=args.models, kinds=("d4", "d6", "d8", "d10", "d12", "d20"))
    real, _ = real_others(args.shared, "test", 7, max_candy=20)
    poly = [k for k in kinds if k != "d10"]
    if poly and clf.poly is None:
        print("numerals_poly.onnx is not installed: the d10 only")
        poly = []
    for kind in poly:
        xs, ys = held_out_faces(kind, args.n)
        print(f"{args.n} held-out {kind} faces (fonts: {', '.join(f.name for f in font_sets()[1])})")
        print(f"{'version':16s} {'auto':>7s} {'pending':>8s} {'silent':>7s} {'best guess right':>17s}")
        for name, tf in TRANSFORMS:
            tx = xs if tf is None else np.stack([tf(c) for c in xs])
            s = score_kind(clf, kind, tx, ys)
            print(f"{name:16s} {s['auto'] * 100:6.1f}% {s['pending'] * 100:7.1f}% {s['silent'] * 100:6.2f}% "
                  f"({s['wrong']:.0f}) {s['best'] * 100:12.1f}%")
        print(f"real others of the test photos read as {kind}: {confident_as(clf, {kind}, real)} of {len(real)}")
    if poly:
        po = held_out_poly_others(args.n // 2)
        every = set(clf.kinds)
        print(f"held-out rendered others on d4..d20 bodies read (a step expecting {','.join(sorted(every))}): "
              f"{confident_as(clf, every, po)} of {len(po)}")
        print(f"real others of the test photos read (a step expecting every numeral kind): "
              f"{confident_as(clf, every, real)} of {len(real)}")
        # another die than the step expects: d20 faces 13..20 for a step expecting d12
        xs, ys = held_out_faces("d20", args.n)
        big = xs[ys > 12]
        print(f"d20 faces 13..20 read by a step expecting d12: {confident_as(clf, {'d12'}, big)} of {len(big)}")
    if poly:
        from vision.reader import Reader

        reader = Reader(classifiers=[clf], look_for_markers=False)  # the default detectors
        for kind in ("d12", "d4"):
            if kind in poly:
                c = score_plain(reader, kind, plain_trays(kind, max(10, args.n // 40)))
                print(f"plain frames of {kind} drawn by vision.synth, the default detectors: " +
                      ", ".join(f"{k} {v}" for k, v in c.items()))
    if "d10" not in kinds:
        return 0
    xs, ys = held_out_digits(args.n)
    print(f"{args.n} held-out d10 faces (fonts: {', '.join(f.name for f in font_sets()[1])})")
    print(f"{'version':16s} {'auto':>7s} {'pending':>8s} {'silent':>7s} {'best guess right':>17s}")
    for name, tf in TRANSFORMS:
        tx = xs if tf is None else np.stack([tf(c) for c in xs])
        s = score(clf, tx, ys)
        print(f"{name:16s} {s['auto'] * 100:6.1f}% {s['pending'] * 100:7.1f}% {s['silent'] * 100:6.2f}% ({s['wrong']:.0f})"
              f" {s['best'] * 100:12.1f}%")
    others = held_out_others(args.n // 2)
    print(f"real others of the test photos (pip dice, candies, floor): {confident(clf, real)} of {len(real)} read")
    print(f"held-out rendered others: {confident(clf, others)} of {len(others)} read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
