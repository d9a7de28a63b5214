"""The demo camera's phantom objects: rolls rendered by the demo camera, read by the
table's reader, counting objects the reader finds that are not in the tray.

Each render draws another felt shade, light and reflections; the reader compares every
frame with the empty tray it calibrated on. The demo now lays each roll's objects on its
own empty tray (``vision.demo_camera.on_same_tray``); the baseline, measured in the
same run, reads the raw renders.

    nice -n 10 python benchmarks/bench_demo_tray.py [ROLLS]
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def run(rolls: int, composite: bool) -> tuple[int, int, int, int]:
    import vision.demo_camera as democam
    from companion.app.wiring import _demo_reader
    from vision.catalog import FACES

    keep = democam.on_same_tray
    if not composite:
        democam.on_same_tray = lambda image, *a, **k: image  # type: ignore[assignment]
    try:
        cam = democam.DemoCamera(0)
        reader = _demo_reader(cam, Path(tempfile.mkdtemp()))
        rng = random.Random(5)
        extra = missing = pending = total = 0
        for seed in range(1, rolls + 1):
            objs = [(k, rng.choice(FACES[k])) for k in ("lieu", "adversaire", "epreuve", "recompense", "sentence")]
            objs += [("d10", rng.randint(1, 10)), ("d10", rng.randint(1, 10))]
            cam.prepare(objs, seed=seed)
            cam.wait_ready()
            read = reader(cam.read())
            got = [(o["kind"], str(o["value"])) for o in read["objects"]]
            want = [(k, str(v)) for k, v in objs]
            extra += max(0, len(got) - len(want))
            missing += sum(1 for x in want if x not in got)
            pending += sum(1 for o in read["objects"] if o["status"] == "pending")
            total += len(want)
        return extra, missing, pending, total
    finally:
        democam.on_same_tray = keep


def main() -> None:
    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    base = run(rolls, composite=False)
    now = run(rolls, composite=True)
    for name, (extra, missing, pending, total) in (("baseline (raw renders)", base), ("demo camera", now)):
        print(f"{name:24s} rolls {rolls}  dice {total}  phantom objects {extra}  missed/wrong {missing}  pending {pending}")
    print(f"phantom objects, ratio to baseline: {now[0] / base[0] if base[0] else float('nan'):.2f}")


if __name__ == "__main__":
    main()
