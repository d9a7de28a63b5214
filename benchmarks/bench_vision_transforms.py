"""The table's reader on the held-aside real photos, as taken and transformed.

    python benchmarks/bench_vision_transforms.py [PHOTOS_DIR] [--split test] [--limit N]

Each held-aside photo of ``shared/data/tray-dice-photos`` is read as it is, then rotated
by 30°, scaled to 0.5x, blurred (Gaussian σ 1.5), re-encoded as JPEG quality 30, and made
40 % darker and 40 % brighter; the labels follow the geometry. For each version it prints
found (recall), read right automatically, pending, silently wrong and false detections,
and the median ms per photo. The baseline, measured in the same run, is the photo as
taken: each transform's figures are also given as a difference from it.

The reader is the table's (``vision.table_setup.table_reader`` with no data folder: the
plain-photo path). Bars (issue "Vision at the table"): as taken, >= 99 % found, >= 97 %
right automatically, <= 0.3 % silently wrong; transformed: reported, no bar.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.eval import Tally  # noqa: E402
from vision.labelled import Label, list_photos, load_labels, shared_photos_dir  # noqa: E402

Transform = Callable[[np.ndarray, list[Label]], tuple[np.ndarray, list[Label]]]


def rotate(deg: float) -> Transform:
    def run(img: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
        cos, sin = abs(m[0, 0]), abs(m[0, 1])
        nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
        m[0, 2] += nw / 2 - w / 2
        m[1, 2] += nh / 2 - h / 2
        out = cv2.warpAffine(img, m, (nw, nh), borderMode=cv2.BORDER_REPLICATE)  # no mirrored dice
        labs = []
        for lab in labels:
            cx, cy = lab.centre
            x, y = m @ np.array([cx, cy, 1.0])
            side = lab.side
            labs.append(Label(lab.face, (x - side / 2, y - side / 2, side, side)))
        return out, labs
    return run


def scale(f: float) -> Transform:
    def run(img: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        out = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        return out, [Label(lab.face, tuple(v * f for v in lab.box)) for lab in labels]  # type: ignore[arg-type]
    return run


def blur(sigma: float) -> Transform:
    return lambda img, labels: (cv2.GaussianBlur(img, (0, 0), sigma), labels)


def jpeg(q: int) -> Transform:
    def run(img: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        return cv2.imdecode(data, cv2.IMREAD_COLOR), labels
    return run


def brightness(f: float) -> Transform:
    return lambda img, labels: (np.clip(img.astype(np.float32) * f, 0, 255).astype(np.uint8), labels)


TRANSFORMS: list[tuple[str, Transform | None]] = [
    ("as taken (baseline)", None), ("rotated 30°", rotate(30)), ("scale 0.5x", scale(0.5)),
    ("blur σ 1.5", blur(1.5)), ("JPEG 30", jpeg(30)), ("40 % darker", brightness(0.6)),
    ("40 % brighter", brightness(1.4)),
]


def main() -> int:
    from vision.table_setup import table_reader

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", nargs="?", type=Path, default=None)
    ap.add_argument("--split", default="test")
    ap.add_argument("--limit", type=int, default=50)
    args = ap.parse_args()
    folder = args.photos or shared_photos_dir(ROOT)
    if folder is None:
        print("shared photos not found: give the folder", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    photos = list_photos(folder, args.split)[: args.limit]
    reader = table_reader(None)
    originals = []
    for ph in photos:
        img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        originals.append((img, load_labels(ph.path, img.shape[1], img.shape[0])))
    print(f"{len(photos)} photos ({args.split} split of {folder}), "
          f"{sum(len(l) for _, l in originals)} dice; the table's reader, one thread")
    print(f"{'version':22s} {'found':>7s} {'auto':>7s} {'pending':>8s} {'silent':>7s} {'false':>6s} {'ms':>6s}")
    base: dict[str, float] = {}
    for name, tf in TRANSFORMS:
        tally = Tally()
        for img, labels in originals:
            frame, labs = (img, labels) if tf is None else tf(img, labels)
            tally.add(reader.read(frame, kinds={"d6"}), labs)
        s = tally.summary()
        row = {"found": s["recall"] * 100, "auto": s["auto_right"] * 100, "pending": s["pending"] * 100,
               "silent": s["silent_errors"] * 100, "ms": s["ms_median"]}
        if tf is None:
            base = row
        diff = "" if tf is None else "   vs baseline: " + ", ".join(
            f"{k} {row[k] - base[k]:+.1f}" for k in ("found", "auto", "silent"))
        print(f"{name:22s} {row['found']:6.1f}% {row['auto']:6.1f}% {row['pending']:7.1f}% "
              f"{row['silent']:6.2f}% {s['false_detection_count']:6d} {row['ms']:6.1f}"
              f"  ({s['silent_error_count']} silent){diff}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
