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
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.eval import Tally  # noqa: E402
from vision.frame_transforms import TRANSFORMS, move, side  # noqa: E402
from vision.labelled import Label, list_photos, load_labels, shared_photos_dir  # noqa: E402


def moved(m: np.ndarray, labels: list[Label]) -> list[Label]:
    """The labelled boxes carried by a transform's matrix (square boxes about the moved centres)."""
    out = []
    for lab in labels:
        x, y = move(m, *lab.centre)
        s = side(m, lab.side)
        out.append(Label(lab.face, (x - s / 2, y - s / 2, s, s)))
    return out


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
            if tf is None:
                frame, labs = img, labels
            else:
                frame, m = tf(img)
                labs = moved(m, labels)
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
