"""What the numeral classifiers cost: a pool of 15 crops read for a step expecting d10, d12,
or d10 and d12 (both networks), against the pip ensemble on the same crops.

    python benchmarks/bench_numerals.py [--repeat 200]

Single-threaded (``cv2.setNumThreads(1)``). Prints the median ms of each and its ratio to
the pip ensemble (:class:`vision.pips.PipClassifier`, the d6 reader, with its test-time
augmentation) measured in the same run, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    import cv2
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=200)
    a = ap.parse_args()
    cv2.setNumThreads(1)
    from vision.detect import Candidate
    from vision.numerals import NumeralClassifier
    from vision.pips import PipClassifier
    from vision.train.eval_numerals import held_out_faces

    xs, _ = held_out_faces("d12", 15, truetype=False)
    frame = np.zeros((240, 800, 3), np.uint8)
    cands = []
    for i, c in enumerate(xs):
        x, y = 8 + (i % 8) * 96, 8 + (i // 8) * 112
        frame[y:y + 48, x:x + 48] = c
        cands.append(Candidate(x + 24.0, y + 24.0, 48 / 1.3, 1.0))
    bodies = [(128.0, 128.0, 128.0)] * len(cands)
    clf = NumeralClassifier()
    runs: dict[str, Any] = {"pip ensemble (baseline)": PipClassifier(), "numerals, step d10": clf.for_kinds({"d10"}),
            "numerals, step d12": clf.for_kinds({"d12"}), "numerals, step d10 + d12": clf.for_kinds({"d10", "d12"})}
    ms: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(a.repeat):
        for name, c in runs.items():
            t0 = time.perf_counter()
            c.classify(frame, cands, bodies)
            ms[name].append((time.perf_counter() - t0) * 1000)
    base = statistics.median(ms["pip ensemble (baseline)"])
    for name, v in ms.items():
        m = statistics.median(v)
        print(f"{name:28s} {m:6.2f} ms for {len(cands)} crops (x {m / base:.2f} the baseline)")
    print(f"load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
