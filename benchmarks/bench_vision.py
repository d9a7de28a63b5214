"""Benchmark of the table's reader on the shared 640 x 640 tray photos, single-threaded.

    python benchmarks/bench_vision.py [PHOTOS_DIR] [--limit N] [--no-tta]

Prints the median time per photo of a full read (file read + JPEG decode + detector +
classifier), the median of a baseline measured in the same run (file read + JPEG decode +
one cv2.resize to the detector's 320 x 320), their ratio, and the process's peak
memory (ru_maxrss). The reader is the one the table builds
(``vision.table_setup.table_reader``, here with no data folder: these are plain photos).
Targets: median <= 30 ms, peak <= 300 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    import cv2
    import numpy as np

    from vision.labelled import IMAGE_SUFFIXES, shared_photos_dir
    from vision.table_setup import table_reader

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", nargs="?", type=Path, default=None)
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--no-tta", action="store_true")
    args = ap.parse_args()
    folder = args.photos or shared_photos_dir(ROOT)
    if folder is None:
        print("shared photos not found: give the folder", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)[: args.limit]
    reader = table_reader(None, tta=not args.no_tta)
    reader.read(paths[0], kinds={"d6"})  # warm-up (model load, first allocation)

    base, full, dice, cpu_base, cpu_full = [], [], [], [], []
    for p in paths:
        t, c = time.perf_counter(), time.thread_time()
        img = cv2.imdecode(np.frombuffer(p.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
        cv2.resize(img, (320, 320), interpolation=cv2.INTER_AREA)
        base.append((time.perf_counter() - t) * 1000)
        cpu_base.append((time.thread_time() - c) * 1000)
        t, c = time.perf_counter(), time.thread_time()
        read = reader.read(p, kinds={"d6"})  # as the table reads a step that expects d6
        full.append((time.perf_counter() - t) * 1000)
        cpu_full.append((time.thread_time() - c) * 1000)
        dice.append(len(read.objects))
    mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    b, f = statistics.median(base), statistics.median(full)
    print(f"photos: {len(paths)} ({folder}), dice per photo: median {statistics.median(dice):.0f}, max {max(dice)}")
    print(f"baseline (read + decode + resize): median {b:.2f} ms")
    print(f"full read (tta={'off' if args.no_tta else 'on'}):   median {f:.2f} ms, p90 "
          f"{sorted(full)[int(0.9 * len(full))]:.2f} ms, max {max(full):.2f} ms")
    print(f"ratio full / baseline: {f / b:.1f}x")
    cb, cf = statistics.median(cpu_base), statistics.median(cpu_full)
    print(f"CPU time of this thread (what a busy machine does not inflate): baseline median {cb:.2f} ms, "
          f"full read median {cf:.2f} ms, ratio {cf / max(cb, 1e-6):.1f}x")
    print(f"peak memory (max RSS): {mb:.0f} MB")
    print(f"machine load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(other processes slow every figure alike; the ratio stays fair)")
    print(f"targets: median <= 30 ms {'OK' if f <= 30 else 'MISSED'} (CPU {'OK' if cf <= 30 else 'MISSED'}); "
          f"peak <= 300 MB {'OK' if mb <= 300 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
