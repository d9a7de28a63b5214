"""A Péripéties step on plain photos: d6 and the five symbol dice, through the table's reader.

    python benchmarks/bench_peripeties_plain.py [--trays 60] [--seed 100] [--transforms]

Renders plain trays (:func:`vision.synth.render_tray`, no markers, cropped to the floor)
of six objects drawn from the d6 and the symbol dice, reads each with
``Reader.read(kinds={d6, lieu, adversaire, epreuve, recompense, sentence})`` as the
table does for such a step, and prints read right / pending / silently wrong / missed
per kind, with and without the rule that a confident claim of another kind contests a
read (:data:`vision.claims.CONTEST`; the baseline of the same run). ``--transforms``:
the same trays also rotated 30°, scaled 0.5x, blurred σ 1.5, as JPEG 30, 40 % darker and
brighter (:data:`vision.frame_transforms.TRANSFORMS`), as the table reads them.

Then the time, on one thread as the bars ask (``cv2.setNumThreads(1)``): the median CPU
time of this thread per frame for the Péripéties step, and for the same frames read as a
step expecting only d6 (the baseline measured in the same run, the path whose 640² bar
is 30 ms), with their ratio; on the renders and on the held-aside real 640 x 640 d6 photos
(``../shared``, when found), where it also counts the real d6 read right, pending and
silently wrong as the Péripéties step reads them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KINDS = ("d6", "lieu", "adversaire", "epreuve", "recompense", "sentence")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trays", type=int, default=60)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--transforms", action="store_true",
                    help="also the trays rotated, scaled 0.5x, blurred, as JPEG 30, darker and brighter")
    args = ap.parse_args(argv)

    import cv2

    import vision.claims as claims_module
    import vision.reader as reader_module
    from vision.synth import SceneSpec, render_tray
    from vision.table_setup import table_reader

    cv2.setNumThreads(1)
    reader = table_reader(None)  # the table's reader on a plain photo
    spec = SceneSpec(size=(800, 600), markers=False, crop_to_tray=True)
    scenes = [render_tray(args.seed + t, kinds=list(KINDS), n_objects=6, spec=spec, with_background=False)
              for t in range(args.trays)]
    contest = claims_module.CONTEST
    frames = [(scene.image, [(lab.kind, lab.value, *lab.center) for lab in scene.labels]) for scene in scenes]
    for name, value in (("without the contest (baseline)", 99.0), ("as the table reads", contest)):
        # best_claim weighs by vision.claims.CONTEST, the reader tells the pip networks by its own
        claims_module.CONTEST = reader_module.CONTEST = value
        print(f"{name}: {args.trays} trays")
        print_tally(tally(reader, frames))
    claims_module.CONTEST = reader_module.CONTEST = contest
    if args.transforms:
        from vision.frame_transforms import TRANSFORMS, move

        print("the same trays transformed, as the table reads:")
        for tname, tf in TRANSFORMS[1:]:
            moved = []
            for image, labels in frames:
                out, m = tf(image)
                moved.append((out, [(k, v, *move(m, cx, cy)) for k, v, cx, cy in labels]))
            print(f"  {tname}")
            print_tally(tally(reader, moved), "    ")
    print_times("renders, 800 x 600", reader, [scene.image for scene in scenes])
    real_photos(reader)
    return 0


Labels = list[tuple[str, Any, float, float]]  # kind, value, centre x, centre y


def tally(reader: Any, frames: Sequence[tuple[Any, Labels]]) -> Counter[tuple[str, str]]:
    """Per kind (d6, symbol): dice, read right, pending, silently wrong, missed (no object
    over the die's centre)."""
    out: Counter[tuple[str, str]] = Counter()
    for image, labels in frames:
        read = reader.read(image, kinds=set(KINDS))
        for lab_kind, lab_value, cx, cy in labels:
            over = [o for o in read.objects
                    if o.box[0] <= cx <= o.box[0] + o.box[2] and o.box[1] <= cy <= o.box[1] + o.box[3]]
            kind = "d6" if lab_kind == "d6" else "symbol"
            out[(kind, "n")] += 1
            if not over:
                out[(kind, "missed")] += 1
            elif any(o.status == "read" and (o.kind, o.value) != (lab_kind, lab_value) for o in over):
                out[(kind, "wrong")] += 1
            elif any(o.status == "read" for o in over):
                out[(kind, "right")] += 1
            else:
                out[(kind, "pending")] += 1
    return out


def print_tally(t: Counter[tuple[str, str]], indent: str = "  ") -> None:
    for kind in ("d6", "symbol"):
        n = max(t[(kind, "n")], 1)
        print(f"{indent}{kind:7s} {t[(kind, 'n')]:4d}: right {t[(kind, 'right')]} "
              f"({100 * t[(kind, 'right')] / n:.1f} %), pending {t[(kind, 'pending')]}, "
              f"silently wrong {t[(kind, 'wrong')]} ({100 * t[(kind, 'wrong')] / n:.2f} %), "
              f"missed {t[(kind, 'missed')]}")


def cpu_ms(reader: Any, frames: Sequence[Any], kinds: set[str]) -> float:
    """Median CPU time of this thread per read, in ms (after one read to warm up)."""
    reader.read(frames[0], kinds=kinds)
    ms = []
    for frame in frames:
        t = time.thread_time()
        reader.read(frame, kinds=kinds)
        ms.append((time.thread_time() - t) * 1000)
    return statistics.median(ms)


def print_times(name: str, reader: Any, frames: Sequence[Any]) -> None:
    step = cpu_ms(reader, frames, set(KINDS))
    base = cpu_ms(reader, frames, {"d6"})
    print(f"time, one thread, {name} ({len(frames)} frames): Péripéties step {step:.1f} ms CPU per frame; "
          f"baseline, the same frames as a d6 step {base:.1f} ms; ratio {step / base:.2f}")


def real_photos(reader: Any) -> None:
    """The held-aside real d6 photos read as a Péripéties step: time, and the d6 read."""
    import cv2

    from vision.eval import Tally
    from vision.labelled import list_photos, load_labels, shared_photos_dir

    folder = shared_photos_dir(ROOT)
    if folder is None:
        print("real photos: ../shared not found, skipped")
        return
    pairs_read = [(ph, cv2.imread(str(ph.path))) for ph in list_photos(folder, "test")]
    photos = [(ph, frame) for ph, frame in pairs_read if frame is not None]
    frames = [frame for _, frame in photos]
    tally = Tally()  # a symbol read over a d6 is a wrong value: silently wrong
    for ph, frame in photos:
        tally.add(reader.read(frame, kinds=set(KINDS)), load_labels(ph.path, frame.shape[1], frame.shape[0]))
    print(f"real d6, held-aside photos read as a Péripéties step: {tally.true} dice, right "
          f"{tally.auto_right}, pending {tally.pending}, silently wrong {tally.silent}, "
          f"missed {tally.true - tally.found}")
    print_times("real 640 x 640 d6 photos", reader, frames)


if __name__ == "__main__":
    raise SystemExit(main())
