"""d10 on a plain photo: the numeral-die detector + the numeral classifier, measured.

    COMPANION_SHARED=/work/shared python benchmarks/bench_d10_plain.py [--trays N] [--models DIR]

The reader is :class:`vision.reader.Reader` with the d10 plug-ins only (what a step
expecting d10 runs: :class:`vision.numeral_detect.NumeralDiceDetector` and
:class:`vision.numerals.NumeralClassifier`), single-threaded. It prints:

- on ``N`` held-out synthetic trays (render seeds never trained on, dice 3-12 % of the
  frame, on the render's felt or on a real photo of the ``test`` split, neither ever a
  training floor; JPEG 40-95): d10 found, read right automatically, pending, silently
  wrong, false detections (objects on no d10), ms per frame;
- on the held-aside real photos holding no d10 (``test`` split of the d6 tray photos and
  of the candy photos): objects reported (each a false detection), of them read
  confidently (must be 0), ms per frame;
- the baseline of the same run: decode-free ``cv2.resize`` of each frame to 320 px, and
  the ratio of the read's median to it.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def shared_data() -> Path | None:
    for p in (ROOT.parent / "shared" / "data", Path(os.environ.get("COMPANION_SHARED", "/nonexistent")) / "data"):
        if (p / "tray-dice-photos").is_dir():
            return p
    return None


def d10_reader(models: Path | None = None) -> Any:
    from vision.nets import MODELS_DIR
    from vision.numeral_detect import NumeralDiceDetector
    from vision.numerals import NumeralClassifier
    from vision.reader import Reader

    det = NumeralDiceDetector(models=models or MODELS_DIR)
    return Reader(detectors=[det], classifiers=[NumeralClassifier()], look_for_markers=False)


def score_trays(reader: Any, trays: list[tuple[Any, list[tuple[float, float, float, int]]]]) -> dict[str, Any]:
    """Counts over held-out trays (see the module doc)."""
    from vision.result import STATUS_READ

    n = found = right = pending = wrong = false = 0
    ms: list[float] = []
    for frame, dice in trays:
        t0 = time.perf_counter()
        objs = reader.read(frame, kinds={"d10"}).objects
        ms.append((time.perf_counter() - t0) * 1000)
        used = [False] * len(objs)
        n += len(dice)
        for cx, cy, side, value in dice:
            best = None
            for j, o in enumerate(objs):
                x, y, w, h = o.box
                if not used[j] and math.hypot(x + w / 2 - cx, y + h / 2 - cy) < 0.5 * side:
                    best = j
                    break
            if best is None:
                continue
            used[best] = True
            found += 1
            o = objs[best]
            if o.status != STATUS_READ:
                pending += 1
            elif o.value == value:
                right += 1
            else:
                wrong += 1
        false += used.count(False)
    return {"dice": n, "found": found, "right": right, "pending": pending, "wrong": wrong, "false": false,
            "frames": len(trays), "ms": statistics.median(ms) if ms else 0.0}


def score_negatives(reader: Any, frames: list[Any]) -> dict[str, Any]:
    """Objects reported on photos that hold no d10, and how many of them read."""
    from vision.result import STATUS_READ

    objs = confident = 0
    ms: list[float] = []
    for frame in frames:
        t0 = time.perf_counter()
        got = reader.read(frame, kinds={"d10"}).objects
        ms.append((time.perf_counter() - t0) * 1000)
        objs += len(got)
        confident += sum(o.status == STATUS_READ for o in got)
    return {"frames": len(frames), "objects": objs, "confident": confident,
            "ms": statistics.median(ms) if ms else 0.0}


def load(shared: Path | None, trays: int) -> tuple[list[Any], dict[str, list[Any]]]:
    import cv2

    from vision.train.train_d10_detector import held_out_tray, real_photos

    test = real_photos(shared, "test") if shared else []
    imgs = {p: cv2.imread(str(p)) for p in test}
    floors = [im for im in imgs.values() if im is not None]
    made = [t for t in (held_out_tray(i, floors) for i in range(trays)) if t is not None]
    negs = {"d6 tray photos": [im for p, im in imgs.items() if im is not None and "tray-dice" in str(p)],
            "candy photos": [im for p, im in imgs.items() if im is not None and "candies" in str(p)]}
    return made, negs


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "-"


def main() -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trays", type=int, default=60)
    ap.add_argument("--models", type=Path, default=None)
    a = ap.parse_args()
    cv2.setNumThreads(1)
    shared = shared_data()
    if shared is None:
        print("shared data not found: held-out trays on felt only, no real negatives")
    trays, negs = load(shared, a.trays)
    reader = d10_reader(a.models)
    s = score_trays(reader, trays)
    d = s["dice"]
    print(f"held-out synthetic trays: {s['frames']} frames, {d} d10")
    print(f"  found {pct(s['found'], d)}, read right automatically {pct(s['right'], d)}, "
          f"pending {pct(s['pending'], d)}, silently wrong {s['wrong']} ({pct(s['wrong'], d)}), "
          f"false detections {s['false']} ({s['false'] / max(1, s['frames']):.2f} per frame), "
          f"{s['ms']:.1f} ms per frame (median)")
    base = []
    for frame, _ in trays:
        t0 = time.perf_counter()
        cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
        base.append((time.perf_counter() - t0) * 1000)
    for name, frames in negs.items():
        n = score_negatives(reader, frames)
        print(f"real photos with no d10 ({name}, test split): {n['frames']} frames, "
              f"false detections {n['objects']}, of them read confidently {n['confident']}, "
              f"{n['ms']:.1f} ms per frame (median)")
    b = statistics.median(base) if base else 0.0
    print(f"baseline (cv2.resize of a held-out frame to 320 px): {b:.2f} ms; "
          f"read / baseline = {s['ms'] / b if b else 0:.1f}; load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
