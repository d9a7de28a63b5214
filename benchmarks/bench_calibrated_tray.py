"""Real d6 and gems on a calibrated tray, through the table's reader.

    python benchmarks/bench_calibrated_tray.py [PHOTOS_DIR] [--split test] [--limit N]
        [--floors "as taken,dark green felt,black felt,wood"] [--kinds d6] [--explain] [--no-reference]
    python benchmarks/bench_calibrated_tray.py --gems [--floors "as taken,dark green felt,wood"]
    python benchmarks/bench_calibrated_tray.py --upscale 2.67 [--gems]   # a Pi camera's frame size
    python benchmarks/bench_calibrated_tray.py --gain 1.4 [--gems]       # a lamp switched on after calibrating
    python benchmarks/bench_calibrated_tray.py --numerals d10 [--kinds d6,d10 | --kinds d6] [--limit 60]

The companion's tray build (``hardware.md``) has four markers and a calibration: the
table then reads each frame against the empty tray. No photo of such a tray is
labelled, so each held-aside photo of ``shared/data/tray-dice-photos`` is framed as one
(:func:`vision.floors.calibrated_tray`: a border of the same floor with the four
markers in its corners, the tray's empty picture beside it, its floor as taken or
painted as felt or wood), calibrated on its empty picture (``vision.calibration
.calibrate``) and read by the table's reader with that calibration, as ``companion
serve`` reads a roll.

For each floor: found, read right automatically, pending, silently wrong (of found),
false detections and the median ms per frame (one thread). Each frame has its own tray,
so the table's reader is given each calibration in turn, while the table reads a whole
evening with one and keeps what it derives from it (the empty tray and the markers'
mask warped into the frame's pixels: 10 ms a 2000 x 2000 frame): each frame is read
twice and the second read is timed, as the table's reads after its first (the figures
are the same); the baseline, measured in the
same run, is the same frame read as a plain photo (no calibration, no markers looked
for): its figures and the time ratio. Bars (issue "Vision at the table"): the pip d6 bars
of the held-aside photos (>= 99 % found, >= 97 % right automatically, <= 0.3 % silently
wrong) hold for the table's own reader, which on the build the companion asks for is
this one.

``--gems``: the held-aside candy photos of ``shared/data/colour-candies`` instead, each
cut to its white tray (:func:`vision.floors.white_tray_crop`: the candies 8 % of the
frame's side, as over the companion's tray) and framed so, read as ESPRI's gem step;
on a painted floor the markers' papers are the only white in view. Figures as
``bench_gems.py`` gives them (orange candies are no gem). Bar: coloured candies >= 97 %
found, >= 90 % right automatically, <= 0.5 % silently wrong, 0 orange read as a gem.

``--gain 1.4``: each frame 40 % brighter than the empty tray it was calibrated on
(clipped at 255), as when a lamp is switched on after the calibration: the tray's and
the markers' white clip.

``--no-reference``: the markers in view but no picture of the empty tray (a table that
never ran ``companion vision calibrate`` reads the markers of each frame so): the tray's
floor is then estimated from the frame itself.

``--numerals d10`` (``d12``, ``d4``): no real photo of a numeral die exists in our data,
so the held-out rendered pools of ``bench_d10_plain.py`` (render seeds never trained
on, on the render's felt or a held-aside real photo's floor, white d6 and gems about)
are framed so, their floor as rendered (the painted floors need a die's body to differ
from the floor: a rendered d10's grey body does not), and read as a step expecting the
kind (``--kinds d6,d10``: Péripéties' difficulty roll; ``--kinds d6``: a d10 left in the
tray of a d6 roll), scored as ``bench_d10_plain.py`` scores them (a read of another kind
over a die is silently wrong).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.eval import Tally, match  # noqa: E402
from vision.labelled import Label, list_photos, load_labels, shared_photos_dir  # noqa: E402


DEFAULT_FLOORS = "as taken,dark green felt,black felt,wood"


def tray_px_per_mm(frame: np.ndarray, tray_mm: tuple[float, float]) -> float:
    """The scale of the simulated tray's top-down image: no finer than the camera's own
    pixels, nor with more pixels than the real tray's (240 x 170 mm at the default
    4 px/mm: 960 x 680), whose cost it stands for."""
    from vision.calibration import DEFAULT_PX_PER_MM
    from vision.markers import DEFAULT_LAYOUT

    real = DEFAULT_LAYOUT.tray_mm[0] * DEFAULT_LAYOUT.tray_mm[1] * DEFAULT_PX_PER_MM ** 2
    return float(min(DEFAULT_PX_PER_MM, frame.shape[1] / tray_mm[0], (real / (tray_mm[0] * tray_mm[1])) ** 0.5))


def brighter(frame: np.ndarray, gain: float) -> np.ndarray:
    """``frame`` ``gain`` times brighter (clipped at 255: :func:`vision.frame_transforms.gain`)."""
    from vision.frame_transforms import gain as times

    return frame if gain == 1.0 else times(gain)(frame)[0]


def row(name: str, tally: Tally, base: Tally) -> None:
    def figures(t: Tally) -> str:
        found = max(t.found, 1)
        return (f"{100 * t.found / max(t.true, 1):6.1f} % {100 * t.auto_right / max(t.true, 1):6.1f} % "
                f"{100 * t.pending / found:6.1f} % {t.silent:3d} ({100 * t.silent / found:.2f} %) {t.false:4d}")

    ms, ms0 = float(np.median(tally.ms)), float(np.median(base.ms))
    print(f"{name:16s} tray  {figures(tally)} {ms:6.1f} ms (x{ms / max(ms0, 1e-6):.2f} the plain read)")
    print(f"{'':16s} plain {figures(base)} {ms0:6.1f} ms")


def main() -> int:
    from vision.calibration import calibrate
    from vision.floors import calibrated_tray
    from vision.markers import MarkerLayout
    from vision.table_setup import table_reader

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", nargs="?", type=Path, default=None)
    ap.add_argument("--split", default="test")
    ap.add_argument("--limit", type=int, default=None, help="at most this many photos (rendered pools: 60)")
    ap.add_argument("--floors", default=DEFAULT_FLOORS)
    ap.add_argument("--kinds", default=None,
                    help="the kinds the step expects, comma-separated (default: d6; with --numerals, the pool's kind)")
    ap.add_argument("--explain", action="store_true", help="list each silent error")
    ap.add_argument("--gems", action="store_true", help="the candy photos, read as a gem step")
    ap.add_argument("--no-reference", action="store_true",
                    help="the markers alone, no empty tray's picture (no saved calibration)")
    ap.add_argument("--numerals", choices=["d10", "d12", "d4"], default=None,
                    help="rendered pools of that numeral die instead (their floor as rendered)")
    ap.add_argument("--gain", type=float, default=1.0,
                    help="frames read this many times brighter than the empty tray they were calibrated on "
                         "(1.4: a lamp switched on after calibrating, the white clipped)")
    ap.add_argument("--upscale", type=float, default=1.0,
                    help="frames enlarged this many times (2.67: a 760-px frame as a 2028 x 2028 one)")
    args = ap.parse_args()
    from vision.floors import FLOORS
    unknown = [f.strip() for f in args.floors.split(",") if f.strip() and f.strip() not in (*FLOORS, "as taken")]
    if unknown:
        ap.error(f"unknown floor {', '.join(map(repr, unknown))}: choose among 'as taken', "
                 + ", ".join(map(repr, FLOORS)))
    if args.gems:
        return gems(args)
    if args.numerals:
        if args.floors != DEFAULT_FLOORS:
            ap.error("--numerals reads the pools on their floor as rendered: --floors does not apply")
        if args.gain != 1.0:
            ap.error("--gain applies to the photos (d6, --gems), not to --numerals")
        return numerals(args)
    folder = args.photos or shared_photos_dir(ROOT)
    if folder is None:
        print("shared photos not found: give the folder", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    kinds = {k.strip() for k in (args.kinds or "d6").split(",") if k.strip()}
    photos = list_photos(folder, args.split)[: args.limit]
    table = table_reader(None)
    plain = table_reader(None, look_for_markers=False)
    fixes = args.split != "test"  # a few plainly wrong labels of the training part
    print(f"{len(photos)} photos ({args.split} split of {folder}), each framed as a calibrated tray; the table's "
          f"reader, one thread, a step expecting {', '.join(sorted(kinds))}")
    print(f"{'floor':16s} {'read':5s} {'found':>8s} {'auto':>8s} {'pending':>8s} {'silent':>10s} {'false':>5s}")
    for floor in [f.strip() for f in args.floors.split(",") if f.strip()]:
        tally, base = Tally(), Tally()
        for k, ph in enumerate(photos):
            img = np.asarray(cv2.imread(str(ph.path), cv2.IMREAD_COLOR), np.uint8)
            labels = load_labels(ph.path, img.shape[1], img.shape[0], fixes=fixes)
            frame, empty, tray_mm, border = calibrated_tray(img, [lab.box for lab in labels],
                                                            None if floor == "as taken" else floor, seed=k)
            labs = [Label(lab.face, (lab.box[0] + border, lab.box[1] + border, lab.box[2], lab.box[3]))
                    for lab in labels]
            if args.upscale != 1.0:  # a larger camera's frame (no more detail)
                frame, empty = (cv2.resize(a, None, fx=args.upscale, fy=args.upscale) for a in (frame, empty))
                labs = [Label(lab.face, tuple(v * args.upscale for v in lab.box)) for lab in labs]
            ppm = tray_px_per_mm(frame, tray_mm)
            table.calibration = calibrate(empty, MarkerLayout(tray_mm=tray_mm), px_per_mm=ppm)
            if args.no_reference:  # the markers alone: no empty tray's picture
                table.calibration.background = None
            frame = brighter(frame, args.gain)
            table.read(frame, kinds=kinds)  # untimed: the first read of a calibration
            read = table.read(frame, kinds=kinds)
            tally.add(read, labs)
            base.add(plain.read(frame, kinds=kinds), labs)
            if args.explain:
                pairs, _, _ = match(read.objects, labs)
                for i, j in pairs:
                    o = read.objects[i]
                    if o.status == "read" and o.value != labs[j].face:
                        print(f"  silent: {floor}, {ph.path.name}: a {labs[j].face} at "
                              f"{[round(v) for v in labs[j].box]} read {o.kind} {o.value} at {o.confidence:.3f}")
        row(floor, tally, base)
    return 0


def gems(args: argparse.Namespace) -> int:
    from vision.calibration import calibrate
    from vision.floors import calibrated_tray, white_tray_crop
    from vision.gem_data import GemLabel, list_gem_photos, load_gem_labels, shared_candies_dir
    from vision.gem_eval import GemTally, score_read
    from vision.markers import MarkerLayout
    from vision.table_setup import table_reader

    folder = shared_candies_dir()
    if folder is None:
        print("shared candy photos not found (../shared or $COMPANION_SHARED)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    floors = "as taken,dark green felt,wood" if args.floors == DEFAULT_FLOORS else args.floors
    photos = list_gem_photos(folder, args.split)[: args.limit]
    table = table_reader(None)
    plain = table_reader(None, look_for_markers=False)
    print(f"{len(photos)} candy photos ({args.split} split), each cut to its white tray and framed as a calibrated "
          f"tray; the table's reader, one thread, a gem step")
    for floor in [f.strip() for f in floors.split(",") if f.strip()]:
        tally, base, ms, ms0 = GemTally(), GemTally(), [], []
        for k, ph in enumerate(photos):
            img = np.asarray(cv2.imread(str(ph.path), cv2.IMREAD_COLOR), np.uint8)
            img, labels = white_tray_crop(img, load_gem_labels(ph, img.shape[1], img.shape[0]))
            frame, empty, tray_mm, border = calibrated_tray(img, [g.box for g in labels],
                                                            None if floor == "as taken" else floor, seed=k)
            labs = [GemLabel(g.colour, (g.box[0] + border, g.box[1] + border, g.box[2], g.box[3])) for g in labels]
            if args.upscale != 1.0:  # a larger camera's frame (no more detail)
                frame, empty = (cv2.resize(a, None, fx=args.upscale, fy=args.upscale) for a in (frame, empty))
                labs = [GemLabel(g.colour, tuple(v * args.upscale for v in g.box)) for g in labs]
            ppm = tray_px_per_mm(frame, tray_mm)
            table.calibration = calibrate(empty, MarkerLayout(tray_mm=tray_mm), px_per_mm=ppm)
            if args.no_reference:
                table.calibration.background = None
            frame = brighter(frame, args.gain)
            table.read(frame, kinds={"gem"})  # untimed: the first read of a calibration
            read = table.read(frame, kinds={"gem"})
            tally.add(score_read(read.objects, labs))
            ms.append(read.ms)
            read0 = plain.read(frame, kinds={"gem"})
            base.add(score_read(read0.objects, labs))
            ms0.append(read0.ms)
        print(f"{floor}:\n  tray  {tally.summary()}; {np.median(ms):.1f} ms "
              f"(x{np.median(ms) / max(np.median(ms0), 1e-6):.2f} the plain read)")
        print(f"  plain {base.summary()}; {np.median(ms0):.1f} ms")
    return 0


def numerals(args: argparse.Namespace) -> int:
    """The held-out rendered pools of a numeral die (``bench_d10_plain.py``'s), framed as
    a calibrated tray and read as a step expecting ``--kinds`` (the pool's kind with
    them), against the same frames read as a plain photo."""
    from vision.calibration import calibrate
    from vision.floors import calibrated_tray
    from vision.markers import MarkerLayout
    from vision.table_setup import table_reader
    from vision.train.eval_d10_detector import load, score_trays, shared_data

    cv2.setNumThreads(1)
    kind = args.numerals
    # the pool's kind by default; --kinds d6: a d10 left in the tray of a d6 roll
    step = sorted({k.strip() for k in (args.kinds or kind).split(",") if k.strip()})
    trays, _ = load(shared_data(), args.limit or 60, kind)
    table, plain = table_reader(None), table_reader(None, look_for_markers=False)
    framed, calibrations = [], []
    for k, (img, dice) in enumerate(trays):
        frame, empty, tray_mm, border = calibrated_tray(img, [(cx - s / 2, cy - s / 2, s, s)
                                                              for cx, cy, s, _, _ in dice], None, seed=k)
        if args.upscale != 1.0:
            frame, empty = (cv2.resize(a, None, fx=args.upscale, fy=args.upscale) for a in (frame, empty))
        f = args.upscale
        framed.append((frame, [((cx + border) * f, (cy + border) * f, s * f, v, w) for cx, cy, s, v, w in dice]))
        calibrations.append(calibrate(empty, MarkerLayout(tray_mm=tray_mm), px_per_mm=tray_px_per_mm(frame, tray_mm)))
        if args.no_reference:
            calibrations[-1].background = None

    class Calibrated:  # the table's reader, each frame with its own tray's calibration
        def __init__(self) -> None:
            self.i = 0

        def read(self, frame: np.ndarray, kinds: set[str]) -> object:
            table.calibration = calibrations[self.i % len(calibrations)]
            self.i += 1
            table.read(frame, kinds=kinds)  # untimed: the first read of a calibration
            return table.read(frame, kinds=kinds)

    print(f"{len(framed)} held-out rendered {kind} pools framed as a calibrated tray ({framed[0][0].shape[1]} x "
          f"{framed[0][0].shape[0]}); the table's reader, one thread, a step expecting {', '.join(step)}")
    for name, reader in (("tray", Calibrated()), ("plain", plain)):
        s = score_trays(reader, framed, kind, step=step)
        d = s["dice"]
        print(f"  {name:5s} found {100 * s['found'] / d:.1f} %, right automatically {100 * s['right'] / d:.1f} %, "
              f"pending {100 * s['pending'] / d:.1f} %, silently wrong {s['wrong']}, {s['ms']:.1f} ms per frame "
              f"(median; {d} {kind})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
