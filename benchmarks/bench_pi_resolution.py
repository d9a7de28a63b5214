"""The d6 reader on Pi camera-sized frames: 2028 x 1520 (picamera2) and 1920 x 1080 (USB).

    python benchmarks/bench_pi_resolution.py [PHOTOS_DIR] [--limit N] [--split test]

No Pi camera photo of the tray exists yet, so each shared 640 x 640 tray photo stands for
the tray and is upscaled into a camera frame: to the frame's height (``fill 1.0``: the
tray as large as the frame allows) or to 70 % of it (``fill 0.7``: the reference mount,
Camera Module 3 at 35 cm), centred on the photo's own edge colour. Dice then have the
pixel size a real camera would give them (a 16 mm die is ~70 px at 2028 px across the
reference field), and their labels follow. Each frame is read three ways:

* ``full``: the frame as the camera gives it, straight into ``vision.reader.read_image``
  (what the reader on this branch does with a camera frame);
* ``work640``: the frame scaled down (INTER_AREA) so the tray is 640 px across, the
  scale the networks learnt, then read;
* ``tray640``: the tray's rectangle cut out and scaled to 640 px (INTER_AREA), then read;
* ``warp640``: the same rectangle brought to 640 x 640 by ``cv2.warpPerspective``
  (bilinear), as a calibration's homography would, then read.

Times are per read of an in-memory frame (no JPEG decode), scaling and cutting included,
one thread, the fastest of ``--repeat`` runs, wall clock and this thread's CPU time (what
a busy machine inflates least). The baseline is the read of the 640 x 640 photo itself (decoded beforehand),
measured again beside every frame of every case (the machine's load drifts); the ratio is
each case's median over the median of its own baseline reads.
Prints one line per case and a JSON summary at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FRAMES = {"2028x1520": (2028, 1520), "1920x1080": (1920, 1080)}
FULL_RES = {"4056x3040": (4056, 3040)}  # the HQ camera's full sensor (--full-res); the companion configures 2028 x 1520
FILLS = (1.0, 0.7)
WORK = 640


def main() -> int:
    import cv2
    import numpy as np

    from vision.eval import Tally
    from vision.labelled import Label, list_photos, load_labels, shared_photos_dir
    from vision.result import Read
    from vision.reader import Reader

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", nargs="?", type=Path, default=None)
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--split", default="test")
    ap.add_argument("--repeat", type=int, default=3, help="time each read this many times, keep the fastest")
    ap.add_argument("--full-res", action="store_true", help="also 4056 x 3040 (the HQ camera's full sensor)")
    ap.add_argument("--only", default="", help="comma-separated variants to run (default all: full,work640,tray640,warp640)")
    args = ap.parse_args()
    folder = args.photos or shared_photos_dir(ROOT)
    if folder is None:
        print("shared photos not found: give the folder or set COMPANION_SHARED", file=sys.stderr)
        return 2
    photos = list_photos(folder, args.split)[: args.limit]
    reader = Reader()
    cv2.setNumThreads(1)

    cpu: dict[int, float] = {}

    def timed(fn: Any) -> tuple[Read, float]:
        best, best_cpu = math.inf, math.inf
        for _ in range(max(1, args.repeat)):  # the fastest of a few: the machine is shared
            t0, c0 = time.perf_counter(), time.thread_time()
            read = fn()
            best = min(best, (time.perf_counter() - t0) * 1000)
            best_cpu = min(best_cpu, (time.thread_time() - c0) * 1000)
        cpu[0] = best_cpu  # this thread's CPU time: what other processes inflate least
        return read, best

    def shifted(labels: list[Label], s: float, dx: float, dy: float) -> list[Label]:
        return [Label(lab.face, (lab.box[0] * s + dx, lab.box[1] * s + dy, lab.box[2] * s, lab.box[3] * s))
                for lab in labels]

    images = [(p.path, cv2.imread(str(p.path), cv2.IMREAD_COLOR)) for p in photos]
    results: dict[str, Any] = {}
    base = Tally()
    base_ms = []
    base_cpu = []
    for path, img in images:
        read, ms = timed(lambda: reader.read(img))
        base.add(read, load_labels(path, 640, 640))
        base_ms.append(ms)
        base_cpu.append(cpu[0])
    base_med = statistics.median(base_ms)
    sides = [lab.box[2] for path, _ in images for lab in load_labels(path, 640, 640)]
    med_side = statistics.median(sides)
    results["baseline 640x640"] = _row(base, base_med, 1.0, med_side, 640, statistics.median(base_cpu), 1.0)
    print(_line("baseline 640x640", results["baseline 640x640"]))

    only = {v for v in args.only.split(",") if v}
    frames = {**FRAMES, **(FULL_RES if args.full_res else {})}
    for fname, (W, H) in frames.items():
        for fill in FILLS:
            k = H * fill / 640
            S = round(640 * k)
            x0, y0 = (W - S) // 2, (H - S) // 2
            tallies = {"full": Tally(), "work640": Tally(), "tray640": Tally(), "warp640": Tally()}
            corners = np.float32([[x0, y0], [x0 + S, y0], [x0 + S, y0 + S], [x0, y0 + S]])
            square = np.float32([[0, 0], [WORK, 0], [WORK, WORK], [0, WORK]])
            homography = cv2.getPerspectiveTransform(corners, square)
            if only:
                tallies = {v: t for v, t in tallies.items() if v in only}
            times: dict[str, list[float]] = {v: [] for v in tallies}
            cpus: dict[str, list[float]] = {v: [] for v in tallies}
            own_base: list[float] = []
            own_cpu: list[float] = []
            for path, img in images:
                own_base.append(timed(lambda: reader.read(img))[1])
                own_cpu.append(cpu[0])
                edge = np.median(np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]), axis=0)
                frame = np.empty((H, W, 3), np.uint8)
                frame[:] = edge.astype(np.uint8)
                frame[y0:y0 + S, x0:x0 + S] = cv2.resize(img, (S, S), interpolation=cv2.INTER_CUBIC)
                labels = load_labels(path, 640, 640)
                ws = WORK / S  # frame scale that makes the tray WORK px across
                wW, wH = round(W * ws), round(H * ws)
                cases = {
                    "full": (lambda: reader.read(frame), shifted(labels, k, x0, y0)),
                    "work640": (lambda: reader.read(cv2.resize(frame, (wW, wH), interpolation=cv2.INTER_AREA)),
                                shifted(labels, 1.0, x0 * ws, y0 * ws)),
                    "tray640": (lambda: reader.read(cv2.resize(frame[y0:y0 + S, x0:x0 + S], (WORK, WORK),
                                                               interpolation=cv2.INTER_AREA)), labels),
                    "warp640": (lambda: reader.read(cv2.warpPerspective(frame, homography, (WORK, WORK),
                                                                        flags=cv2.INTER_LINEAR)), labels),
                }
                for variant in tallies:
                    fn, labs = cases[variant]
                    read, ms = timed(fn)
                    tallies[variant].add(read, labs)
                    times[variant].append(ms)
                    cpus[variant].append(cpu[0])
            for variant, tally in tallies.items():
                side_px = med_side * k if variant == "full" else med_side
                longer = {"full": W, "work640": round(W * WORK / S)}.get(variant, WORK)
                key = f"{fname} fill {fill:.1f} {variant}"
                med = statistics.median(times[variant])
                c = statistics.median(cpus[variant])
                results[key] = _row(tally, med, med / statistics.median(own_base), side_px, longer,
                                    c, c / statistics.median(own_cpu))
                print(_line(key, results[key]))
    print(json.dumps({"photos": len(images), "split": args.split, "baseline_ms": round(base_med, 2),
                      "load_average": [round(v, 1) for v in os.getloadavg()], "cores": os.cpu_count(),
                      "results": results}, indent=1))
    return 0


def _row(tally: Any, ms: float, ratio: float, side_px: float, longer: int, cpu_ms: float,
         cpu_ratio: float) -> dict[str, Any]:
    s = tally.summary()
    return {"recall": s["recall"], "right_face": s["right_face"], "auto_right": s["auto_right"],
            "silent": s["silent_error_count"], "false": s["false_detection_count"], "true_dice": s["true_dice"],
            "median_ms": round(ms, 2), "ratio_to_baseline": round(ratio, 2),
            "median_cpu_ms": round(cpu_ms, 2), "cpu_ratio_to_baseline": round(cpu_ratio, 2),
            "median_die_px": round(side_px, 1), "die_pct_of_longer_side": round(100 * side_px / longer, 2)}


def _line(key: str, r: dict[str, Any]) -> str:
    return (f"{key:32} recall {r['recall']:.3f}  right {r['right_face']:.3f}  auto {r['auto_right']:.3f}  "
            f"silent {r['silent']}  false {r['false']}  die {r['median_die_px']:.0f} px "
            f"({r['die_pct_of_longer_side']:.1f} %)  {r['median_ms']:.1f} ms  x{r['ratio_to_baseline']:.2f}  "
            f"cpu {r['median_cpu_ms']:.1f} ms x{r['cpu_ratio_to_baseline']:.2f}")


if __name__ == "__main__":
    sys.exit(main())
