"""A Péripéties step on plain photos: d6 and the five symbol dice, through the table's reader.

    python benchmarks/bench_peripeties_plain.py [--trays 60] [--seed 100]

Renders plain trays (:func:`vision.synth.render_tray`, no markers, cropped to the floor)
of six objects drawn from the d6 and the symbol dice, reads each with
``Reader.read(kinds={d6, lieu, adversaire, epreuve, recompense, sentence})`` as the
table does for such a step, and prints read right / pending / silently wrong / missed
per kind, with and without the rule that a confident claim of another kind contests a
read (:data:`vision.reader.CONTEST`; the baseline of the same run), and the time per frame.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

KINDS = ("d6", "lieu", "adversaire", "epreuve", "recompense", "sentence")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trays", type=int, default=60)
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args(argv)

    import vision.reader as reader_module
    from vision.reader import Reader
    from vision.synth import SceneSpec, render_tray

    reader = Reader()
    spec = SceneSpec(size=(800, 600), markers=False, crop_to_tray=True)
    scenes = [render_tray(args.seed + t, kinds=list(KINDS), n_objects=6, spec=spec, with_background=False)
              for t in range(args.trays)]
    contest = reader_module.CONTEST
    for name, value in (("without the contest (baseline)", 99.0), ("as the table reads", contest)):
        reader_module.CONTEST = value
        tally: Counter[tuple[str, str]] = Counter()
        ms = []
        for scene in scenes:
            read = reader.read(scene.image, kinds=set(KINDS))
            ms.append(read.ms)
            for lab in scene.labels:
                cx, cy = lab.center
                over = [o for o in read.objects
                        if o.box[0] <= cx <= o.box[0] + o.box[2] and o.box[1] <= cy <= o.box[1] + o.box[3]]
                kind = "d6" if lab.kind == "d6" else "symbol"
                tally[(kind, "n")] += 1
                if not over:
                    tally[(kind, "missed")] += 1
                elif any(o.status == "read" and (o.kind, o.value) != (lab.kind, lab.value) for o in over):
                    tally[(kind, "wrong")] += 1
                elif any(o.status == "read" for o in over):
                    tally[(kind, "right")] += 1
                else:
                    tally[(kind, "pending")] += 1
        print(f"{name}: {args.trays} trays, median {statistics.median(ms):.1f} ms per 800x600 frame")
        for kind in ("d6", "symbol"):
            n = max(tally[(kind, "n")], 1)
            print(f"  {kind:7s} {tally[(kind, 'n')]:4d}: right {tally[(kind, 'right')]} "
                  f"({100 * tally[(kind, 'right')] / n:.1f} %), pending {tally[(kind, 'pending')]}, "
                  f"silently wrong {tally[(kind, 'wrong')]} ({100 * tally[(kind, 'wrong')] / n:.2f} %), "
                  f"missed {tally[(kind, 'missed')]}")
    reader_module.CONTEST = contest
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
