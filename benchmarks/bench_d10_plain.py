"""d10 on a plain photo: the numeral-die detector + the numeral classifier, measured.

    COMPANION_SHARED=../shared python benchmarks/bench_d10_plain.py [--trays N] [--models DIR] [--kind d4|d12] [--floor F]
        [--coloured] [--players] [--transforms]

``--kind d4`` / ``d12``: pools of that kind instead (the renderer draws no d8 or d20).
``--floor glitter`` (``wood``, ``cork``, ``mat``): every pool laid on that floor
(:data:`vision.train.eval_d10_detector.FLOORS`, drawn by :mod:`vision.train.scenes`),
none of which the numeral-die detector learnt; a dark glittery floor is where the
issue's d10 were never found. ``--coloured``: every die of the pools of a random colour
with a contrasting ink (``vision.synth.SceneSpec.numeral_colours``: red, blue, green,
black, purple... dice with white, black, gold or silver numbers, as players' sets come)
instead of the renderer's white dice with black numbers; the same seeds, so the same
pools and places.

The reader is the table's own (:func:`vision.table_setup.table_reader` with no data
folder: a plain photo, the shipped enrollment), asked for the pool's kind as a step
expecting it asks (``kinds={KIND}``: the d10 and object detectors propose, the numeral
networks read), single-threaded. ``--models DIR`` measures a candidate d10 detector
instead, in a reader holding only the d10 plug-ins
(:func:`vision.train.eval_d10_detector.d10_reader`): not the table's figure. It prints:

- on ``N`` held-out synthetic trays (render seeds never trained on, dice 3-12 % of the
  frame, on the render's felt or on a real photo of the ``test`` split, neither ever a
  training floor; JPEG 40-95): d10 found, read right automatically, pending, silently
  wrong, false detections (objects on no d10), ms per frame; objects over a d10 the frame's
  edge cuts are counted apart (and how many of them are read wrong); for the d10, the
  same trays read as a step expecting d6 and d10 (Péripéties' difficulty roll before the
  trial is known), where a d6 read over a d10 is silently wrong; and as a step expecting
  d6 only (a d10 left in the tray), where every read over a d10 is;
- on the held-aside real photos holding no d10 (``test`` split of the d6 tray photos and
  of the candy photos): objects reported (each a false detection), of them read
  confidently (must be 0), ms per frame;
- with ``--players``: the same trays with the players' own dice of the kind enrolled (six photos of
  each face, saved in a data folder as ``companion vision enroll`` saves it, read by the
  table's reader of that folder) against the networks alone in the same run, for the
  dice as rendered and for black dice with white numbers (the trays inverted, the
  players' photos too); and the real photos with no d10 read with those views;
- with ``--transforms``: the same trays rotated 30°, scaled 0.5x, blurred σ 1.5, as JPEG 30,
  40 % darker and brighter (:data:`vision.frame_transforms.TRANSFORMS`, the dice's centres
  moved with the frame), each read in a step expecting the kind and, for the d10, in a
  step expecting d6 and d10, beside the trays as rendered (the baseline of the same run);
- the baseline of the same run: decode-free ``cv2.resize`` of each frame to 320 px, and
  the ratio of the read's median to it.
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


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "-"


def players(trays: list[Any], negs: dict[str, list[Any]], kind: str) -> None:
    """The same trays read by the table's reader with the players' own dice of the
    pool's kind enrolled (``vision.train.eval_d10_detector.players_dice``, saved in a
    data folder as ``companion vision enroll`` saves it), against the networks alone in
    the same run; then the dice black with white numbers (the trays inverted), enrolled
    the same way."""
    import tempfile

    from vision.enroll import ENROLLMENT_FILE
    from vision.table_setup import table_reader
    from vision.train.eval_d10_detector import black_dice, players_dice, score_negatives, score_trays

    alone = table_reader(None)
    for name, black in ((f"{kind} as rendered", False), (f"black {kind}, white numbers", True)):
        frames = [(black_dice(f), d) for f, d in trays] if black else trays
        with tempfile.TemporaryDirectory() as tmp:
            enr = players_dice(kind, black)
            enr.save(Path(tmp) / ENROLLMENT_FILE)
            taught = table_reader(Path(tmp))
            for who, reader in (("networks alone", alone), (f"players' {len(enr)} views", taught)):
                m = score_trays(reader, frames, kind)
                d = m["dice"]
                print(f"  {name}, {who}: found {pct(m['found'], d)}, read right automatically "
                      f"{m['right']} ({pct(m['right'], d)}), pending {m['pending']}, silently wrong {m['wrong']}, "
                      f"false detections {m['false']}, cut by the edge read wrong {m['edge_wrong']} of {m['edge']}, "
                      f"{m['ms']:.1f} ms per frame")
            for neg, imgs in negs.items():
                n = score_negatives(taught, imgs, {kind})
                print(f"  {name}, players' views, real photos with no {kind} ({neg}): false detections "
                      f"{n['objects']}, read confidently {n['confident']}")


def transformed(reader: Any, trays: list[Any], kind: str) -> None:
    """The trays under the issue's transforms, beside the trays as rendered: found, read
    right automatically, silently wrong (in a step expecting the kind, and for the d10
    in a step expecting d6 and d10 too) and the read's ms, each with its difference from
    the trays as rendered."""
    from vision.frame_transforms import TRANSFORMS, move, side
    from vision.train.eval_d10_detector import score_trays

    steps: list[tuple[str, tuple[str, ...]]] = [(f"{kind} step", ())]
    if kind == "d10":
        steps.append(("d6-or-d10 step", ("d6",)))
    base: dict[str, dict[str, Any]] = {}
    print(f"transforms ({len(trays)} trays; found / right automatically / silently wrong / ms):")
    for name, tf in TRANSFORMS:
        if tf is None:
            frames = trays
        else:
            frames = []
            for frame, dice in trays:
                out, m = tf(frame)
                frames.append((out, [(*move(m, cx, cy), side(m, s), v, whole) for cx, cy, s, v, whole in dice]))
        cells = []
        for step, also in steps:
            m = score_trays(reader, frames, kind, also=also)
            d = m["dice"]
            row = {"found": 100 * m["found"] / d, "right": 100 * m["right"] / d, "wrong": m["wrong"], "ms": m["ms"]}
            diff = ""
            if tf is None:
                base[step] = row
            else:
                b = base[step]
                diff = f" ({row['found'] - b['found']:+.1f}, {row['right'] - b['right']:+.1f}, {row['wrong'] - b['wrong']:+d})"
            cells.append(f"{step} {row['found']:.1f} / {row['right']:.1f} % / {row['wrong']} / {row['ms']:.1f} ms{diff}")
        print(f"  {name:20s} " + "; ".join(cells))


def main() -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trays", type=int, default=60)
    ap.add_argument("--models", type=Path, default=None,
                    help="a candidate d10 detector's folder, read with the d10 plug-ins only (not the table's reader)")
    ap.add_argument("--kind", default="d10", choices=["d10", "d4", "d12"], help="the pool's kind")
    ap.add_argument("--floor", default=None, help="every pool on this floor: glitter, wood, cork or mat "
                    "(vision.train.scenes; none of them learnt)")
    ap.add_argument("--coloured", action="store_true",
                    help="every die of the pools of a random colour with a contrasting ink (white, gold... numbers)")
    ap.add_argument("--players", action="store_true",
                    help="also with the players' own dice of the kind enrolled (as rendered, and black with white numbers)")
    ap.add_argument("--transforms", action="store_true",
                    help="also the trays rotated, scaled 0.5x, blurred, as JPEG 30, darker and brighter")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    from vision.train.eval_d10_detector import d10_reader, load, score_negatives, score_trays, shared_data

    shared = shared_data()
    if shared is None:
        print("shared data not found: held-out trays on felt only, no real negatives")
    from vision.train.eval_d10_detector import FLOORS

    if a.floor is not None and a.floor not in FLOORS:
        ap.error(f"unknown floor {a.floor!r}: choose among {', '.join(FLOORS)}")
    trays, negs = load(shared, a.trays, a.kind, a.floor, a.coloured)
    if a.floor is not None:
        print(f"every pool on a {a.floor} floor")
    if a.coloured:
        print("every die of the pools of a random colour, with white, black, gold or silver numbers")
    if a.models is not None:
        if a.kind != "d10":
            ap.error("--models measures a candidate d10 detector: only with --kind d10")
        reader = d10_reader(a.models)
        print(f"candidate d10 detector of {a.models}, d10 plug-ins only (not the table's reader)")
    else:
        from vision.table_setup import table_reader

        reader = table_reader(None)
    s = score_trays(reader, trays, a.kind)
    d = s["dice"]
    print(f"held-out synthetic trays: {s['frames']} frames, {d} {a.kind}")
    print(f"  found {pct(s['found'], d)}, read right automatically {pct(s['right'], d)}, "
          f"pending {pct(s['pending'], d)}, silently wrong {s['wrong']} ({pct(s['wrong'], d)}), "
          f"false detections {s['false']} ({s['false'] / max(1, s['frames']):.2f} per frame), "
          f"{s['ms']:.1f} ms per frame (median)")
    print(f"  {a.kind} cut by the frame's edge: {s['edge']} objects over them (not scored), "
          f"{s['edge_wrong']} of them read as another value")
    if a.models is None and a.kind == "d10":
        # Péripéties' difficulty roll before the trial is known: d10 or d6
        m = score_trays(reader, trays, a.kind, also=("d6",))
        print(f"  the same trays, a step expecting d6 and d10: found {pct(m['found'], d)}, read right "
              f"automatically {pct(m['right'], d)}, pending {pct(m['pending'], d)}, silently wrong "
              f"{m['wrong']} ({pct(m['wrong'], d)}; a d6 read over a d10 is wrong), {m['ms']:.1f} ms per frame")
    if a.models is None and a.kind == "d10":
        m = score_trays(reader, trays, a.kind, step=("d6",))
        print(f"  the same trays, a step expecting d6 only (a d10 left in the tray): d10 read as d6 faces "
              f"{m['wrong']} ({pct(m['wrong'], d)}), {m['ms']:.1f} ms per frame")
    base = []
    for frame, _ in trays:
        t0 = time.perf_counter()
        cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
        base.append((time.perf_counter() - t0) * 1000)
    for name, frames in negs.items():
        n = score_negatives(reader, frames, {a.kind})
        print(f"real photos with no d10 ({name}, test split): {n['frames']} frames, "
              f"false detections {n['objects']}, of them read confidently {n['confident']}, "
              f"{n['ms']:.1f} ms per frame (median)")
    if a.players:
        players(trays, negs, a.kind)
    if a.transforms:
        transformed(reader, trays, a.kind)
    b = statistics.median(base) if base else 0.0
    print(f"baseline (cv2.resize of a held-out frame to 320 px): {b:.2f} ms; "
          f"read / baseline = {s['ms'] / b if b else 0:.1f}; load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
