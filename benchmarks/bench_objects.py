"""The class-agnostic object detector: found, false detections, ms per frame.

    COMPANION_SHARED=../shared python benchmarks/bench_objects.py [--renders N] [--models DIR]

Single-threaded (``cv2.setNumThreads(1)``). It prints:

- on ``N`` held-out randomised renders (:mod:`vision.train.scenes`, seeds never trained
  on, 640 x 640): objects found per kind, false detections;
- on the held-aside real d6 photos and the candies' ``test`` split: found (class-agnostic),
  false detections;
- ms per 640 x 640 and per 1920 x 1080 frame of :class:`vision.object_detect.ObjectDetector`,
  and the same for the d6 die-centre detector alone (:class:`vision.detect.DiceDetector`)
  measured in the same run: the ratio is the figure to compare across machines;
- the whole Reader on held-out renders for a step expecting symbol dice, d12, d4: found,
  right, pending, wrong, other objects reported (and of them confident);
- the Reader's time on a d6 photo for a step expecting d6, d6 + lieu without the object
  detector, d6 + lieu (the object detector's share is the difference of the last two).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def median_ms(fn: Callable[[], Any], repeat: int = 15) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> int:
    import cv2
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--renders", type=int, default=200)
    ap.add_argument("--models", type=Path, default=None)
    a = ap.parse_args()
    cv2.setNumThreads(1)
    from vision.detect import DiceDetector
    from vision.nets import MODELS_DIR
    from vision.object_detect import ObjectDetector
    from vision.train.eval_objects import held_out, real_candies, real_dice

    det = ObjectDetector(models=a.models or MODELS_DIR)
    shared = Path(os.environ.get("COMPANION_SHARED", ROOT.parent / "shared")) / "data"
    sets: list[tuple[str, Callable[[], Any]]] = [("held-out renders", lambda: held_out(det, a.renders))]
    if (shared / "tray-dice-photos").is_dir():
        sets.append(("real d6 photos (test split)", lambda: real_dice(det, shared)))
    if (shared / "colour-candies").is_dir():
        sets.append(("candies (test split)", lambda: real_candies(det, shared)))
    for name, run in sets:
        r = run().as_json()
        print(f"{name}: {r['frames']} frames, found {r['found']}/{r['objects']} ({100 * r['found_rate']:.1f} %), "
              f"false detections {r['false']} ({r['false_per_frame']:.2f} per frame)")
        print("    " + "  ".join(f"{k} {v['found']}/{v['total']}" for k, v in r["per_kind"].items()))

    from vision.train.scenes import render_scene

    d6 = DiceDetector()
    frames = {"640x640": render_scene(1_000_000, 640).image,
              "1920x1080": cv2.resize(render_scene(1_000_001, 1080).image, (1920, 1080))}
    if (shared / "tray-dice-photos").is_dir() and (shared / "colour-candies").is_dir():
        from vision.gem_data import list_gem_photos
        from vision.labelled import list_photos

        frames = {"640x640 (a held-aside d6 photo)": np.asarray(cv2.imread(str(
                      list_photos(shared / "tray-dice-photos", "test")[0].path)), np.uint8),
                  "1920x1080 (a candy test photo)": np.asarray(cv2.imread(str(
                      list_gem_photos(shared / "colour-candies", "test")[0].path)), np.uint8)}
    for name, frame in frames.items():
        ours = median_ms(lambda: det.detect(frame))
        base = median_ms(lambda: d6.detect(frame))
        print(f"{name}: object detector {ours:.1f} ms, d6 detector alone {base:.1f} ms, ratio {ours / base:.2f}")
    from vision.reader import Reader
    from vision.train.eval_objects import reader_reads

    reader = Reader()
    for kinds in (("lieu", "adversaire", "epreuve", "recompense", "sentence"), ("d12",), ("d4",)):
        r = reader_reads(reader, min(a.renders, 150), kinds)
        print(f"Reader, step expecting {'+'.join(kinds)}, {min(a.renders, 150)} held-out renders: "
              f"{r['found']}/{r['objects']} found, {r['right']} right, {r['pending']} pending, {r['wrong']} wrong; "
              f"other objects reported {r['other']}, of them confident {r['other_confident']}")
    photo = next(iter(frames.values()))
    without = Reader(detectors=[d for d in reader.detectors if not isinstance(d, ObjectDetector)],
                     classifiers=reader.classifiers)
    runs = {"kinds d6": (reader, {"d6"}), "kinds d6+lieu without the object detector": (without, {"d6", "lieu"}),
            "kinds d6+lieu": (reader, {"d6", "lieu"})}
    ms: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(9):  # interleaved: the load of the machine weighs on all alike
        for name, (rd, wanted) in runs.items():
            ms[name].append(median_ms(lambda: rd.read(photo, kinds=wanted), 1))
    base6 = statistics.median(ms["kinds d6"])
    print("Reader on the 640x640 frame: " + ", ".join(
        f"{k} {statistics.median(v):.1f} ms (x {statistics.median(v) / base6:.2f})" for k, v in ms.items()))
    print(f"load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
