"""Scoring of the d10 plain-photo path (used by benchmarks/bench_d10_plain.py and
tests/vision/test_d10_plain.py): held-out synthetic trays and real photos with no d10."""

from __future__ import annotations

import math
import os
import statistics
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

__all__ = ["shared_data", "d10_reader", "score_trays", "score_negatives", "load", "players_dice", "black_dice",
           "tune_players", "PLAYERS_TUNE_SEED"]

#: Scene seeds of the trays :func:`tune_players` reads (no benchmark or training draws them).
PLAYERS_TUNE_SEED = 600_000
#: The bars :func:`tune_players` tries, in order (``vision.numerals.players_pick``).
PLAYERS_FLOORS = (0.0, 0.5, 0.55, 0.6, 0.7, 0.8)
PLAYERS_MARGINS = (0.0, 0.01, 0.02, 0.03, 0.05)


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


def score_trays(reader: Any, trays: list[tuple[Any, list[tuple[float, float, float, int, bool]]]],
                kind: str = "d10", also: Sequence[str] = (), step: Sequence[str] | None = None) -> dict[str, Any]:
    """Counts over held-out trays: each whole d10 found (an object within half its side
    of its centre), read right, pending or read wrong; objects over a d10 the frame's edge
    cuts are counted apart (``edge``, and ``edge_wrong`` those read as another value),
    neither scored nor false; any other object is a false detection. The step expects
    ``kind`` (the trays' pool kind) and the kinds ``also`` (a read of another kind over
    a die is wrong, whatever its value); ``step``: the kinds it expects instead (``("d6",)``:
    a d10 left in the tray of a d6 roll, every read over it wrong)."""
    from vision.result import STATUS_READ

    n = found = right = pending = wrong = false = edge = edge_wrong = 0
    ms: list[float] = []
    for frame, dice in trays:
        read = reader.read(frame, kinds=set(step) if step is not None else {kind, *also})
        objs = read.objects
        ms.append(read.ms)  # the reader's own time for the read
        used = [False] * len(objs)
        n += sum(1 for *_, whole in dice if whole)
        for cx, cy, side, value, whole in sorted(dice, key=lambda d: not d[4]):  # whole dice first
            best = None
            for j, o in enumerate(objs):
                x, y, w, h = o.box
                if not used[j] and math.hypot(x + w / 2 - cx, y + h / 2 - cy) < 0.5 * side:
                    best = j
                    break
            if best is None:
                continue
            used[best] = True
            o = objs[best]
            if not whole:
                edge += 1
                edge_wrong += int(o.status == STATUS_READ and (o.kind, o.value) != (kind, value))
                continue
            found += 1
            if o.status != STATUS_READ:
                pending += 1
            elif (o.kind, o.value) == (kind, value):
                right += 1
            else:
                wrong += 1
        false += used.count(False)
    return {"dice": n, "found": found, "right": right, "pending": pending, "wrong": wrong, "false": false,
            "edge": edge, "edge_wrong": edge_wrong, "frames": len(trays),
            "ms": statistics.median(ms) if ms else 0.0}


def score_negatives(reader: Any, frames: list[Any], kinds: set[str] | None = None) -> dict[str, Any]:
    """Objects reported on photos that hold no d10 (no numeral die), for a step expecting
    ``kinds`` (default d10), and how many of them read."""
    from vision.result import STATUS_READ

    objs = confident = 0
    ms: list[float] = []
    for frame in frames:
        t0 = time.perf_counter()
        got = reader.read(frame, kinds=kinds or {"d10"}).objects
        ms.append((time.perf_counter() - t0) * 1000)
        objs += len(got)
        confident += sum(o.status == STATUS_READ for o in got)
    return {"frames": len(frames), "objects": objs, "confident": confident,
            "ms": statistics.median(ms) if ms else 0.0}


#: The floors ``load(floor=...)`` lays every pool on (:mod:`vision.train.scenes`, 2.5 px a
#: millimetre): the dark glittery floor of the issue, wood, cork, a printed mat; none of
#: them a floor the numeral-die detector learnt (the render's felt, real light photos).
FLOORS = ("glitter", "wood", "cork", "mat")


def other_floor(name: str, seed: int, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """One of :data:`FLOORS` (BGR uint8 of ``size``), drawn from ``seed``."""
    from vision.train import scenes

    rng = np.random.default_rng(seed)
    w, h = size
    made = {"glitter": lambda: scenes._glitter(rng, h, w), "wood": lambda: scenes._wood(rng, h, w, 2.5),
            "cork": lambda: scenes._cork(rng, h, w), "mat": lambda: scenes._mat(rng, h, w, 2.5)}[name]()
    return np.asarray(np.clip(made, 0, 255), np.uint8)


def load(shared: Path | None, trays: int, kind: str = "d10", floor: str | None = None, coloured: bool = False
         ) -> tuple[list[Any], dict[str, list[Any]]]:
    """The held-out rendered pools (and the real photos with no numeral die): on the
    render's felt or a held-aside real photo's floor, or all on ``floor`` (one of
    :data:`FLOORS`, a new draw of it for each pool); ``coloured``: each numeral die of a
    random colour with a contrasting ink (``SceneSpec.numeral_colours``)."""
    import cv2

    from vision.train.train_d10_detector import HELD_OUT_SEED, real_photos, tray_frame

    test = real_photos(shared, "test") if shared else []
    imgs = {p: cv2.imread(str(p)) for p in test}
    floors = [im for im in imgs.values() if im is not None]
    if floor is not None:
        made = [t for t in (tray_frame(HELD_OUT_SEED + i, [other_floor(floor, i)], kind=kind, always=True,
                                       coloured=coloured) for i in range(trays)) if t is not None]
    else:
        made = [t for t in (tray_frame(HELD_OUT_SEED + i, floors, kind=kind, coloured=coloured)
                            for i in range(trays)) if t is not None]
    negs = {"d6 tray photos": [im for p, im in imgs.items() if im is not None and "tray-dice" in str(p)],
            "candy photos": [im for p, im in imgs.items() if im is not None and "candies" in str(p)]}
    return made, negs


def black_dice(frame: Any) -> Any:
    """``frame`` with its colours inverted: the rendered white d10 with black numbers
    become black d10 with white numbers (on a light floor; the green d4 and the d12 turn
    too), a set of dice the numeral networks read worse."""
    return 255 - frame


def players_dice(kind: str = "d10", black: bool = False, views: int = 6) -> Any:
    """A players' enrollment (``source`` "user") of their own ``kind`` dice: ``views``
    photos of each face, alone on a plain tray, enrolled as ``companion vision enroll
    --kind KIND --face FACE PHOTO`` enrolls a photo (:func:`vision.enroll_photos.enroll_frame`:
    no empty-tray reference; a photo refused with a question about which object is meant
    is enrolled again with ``--pick largest``, as the command's message advises, and one
    still refused is left out). The dice of :mod:`vision.synth`; with ``black``, those photos inverted
    (:func:`black_dice`). Seeds of their own: no benchmark tray draws them."""
    from vision.catalog import FACES
    from vision.enroll import Enrollment
    from vision.enroll_photos import enroll_frame
    from vision.errors import EnrollmentError
    from vision.markers import MarkerLayout
    from vision.synth import SceneSpec, render_tray

    layout = MarkerLayout(tray_mm=(64.0, 64.0))
    spec = SceneSpec(size=(256, 256), markers=False, crop_to_tray=True, reflections=False)
    enr = Enrollment(source="user")
    for face in FACES[kind]:
        for v in range(views):
            image = render_tray(500_000 + 97 * int(face) + v, objects=[(kind, face)], spec=spec, layout=layout).image
            photo = black_dice(image) if black else image
            for pick in ("auto", "largest"):  # "found N objects; say which ...": the command's advice
                try:
                    enroll_frame(enr, photo, kind, face, pick=pick)
                    break
                except EnrollmentError:
                    continue
    return enr


def tune_players(shared: Path, trays: int = 120, log: Any = print) -> tuple[float, float]:
    """The bars of :func:`vision.numerals.players_pick`, tuned on ``trays`` rendered d10
    trays of their own (seeds from :data:`PLAYERS_TUNE_SEED`, floors from the real photos
    of the ``calib`` split), read by the table's reader of a data folder holding the
    players' d10 (:func:`players_dice`: white as rendered, and black with white numbers,
    the trays inverted). The network floor: the lowest of :data:`PLAYERS_FLOORS` that
    reads no die wrong in either set with no margin, one step up; the margin: the lowest
    of :data:`PLAYERS_MARGINS` that reads none wrong with no floor, one step up. Logs the
    dice read right and wrong at each setting."""
    import tempfile

    import cv2

    from vision.enroll import ENROLLMENT_FILE
    from vision.numerals import NumeralClassifier
    from vision.table_setup import table_reader
    from vision.train.train_d10_detector import real_photos, tray_frame

    floors = [im for im in (cv2.imread(str(p)) for p in real_photos(shared, "calib")) if im is not None]
    made = [t for t in (tray_frame(PLAYERS_TUNE_SEED + i, floors) for i in range(trays)) if t is not None]
    readers = []
    with tempfile.TemporaryDirectory() as tmp:
        for black in (False, True):
            folder = Path(tmp) / ("black" if black else "white")
            players_dice("d10", black).save(folder / ENROLLMENT_FILE)
            frames = [(black_dice(f), d) for f, d in made] if black else made
            readers.append((table_reader(folder), frames))

    def wrong_at(floor: float, margin: float) -> int:
        counts = []
        for reader, frames in readers:
            numerals = next(c for c in reader.classifiers if isinstance(c, NumeralClassifier))
            numerals.players_floor, numerals.players_margin = floor, margin
            m = score_trays(reader, frames)
            counts.append((m["right"], m["wrong"]))
        log(f"  floor {floor}, margin {margin}: read right {counts[0][0]} white, {counts[1][0]} black; "
            f"wrong {counts[0][1]} white, {counts[1][1]} black")
        return sum(w for _, w in counts)

    def one_up(bars: Sequence[float], wrong: Any) -> float:
        safe = next((k for k, b in enumerate(bars) if wrong(b) == 0), len(bars) - 1)
        return bars[min(safe + 1, len(bars) - 1)]

    log(f"{len(made)} trays; the networks alone (a floor no probability reaches):")
    wrong_at(1.01, 0.0)
    log("the network floor (no margin):")
    floor = one_up(PLAYERS_FLOORS, lambda f: wrong_at(f, 0.0))
    log("the margin (no floor):")
    margin = one_up(PLAYERS_MARGINS, lambda m: wrong_at(0.0, m))
    log(f"chosen: floor {floor}, margin {margin}")
    wrong_at(floor, margin)
    return floor, margin


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Tune the players' pick of the numeral path (vision.numerals.players_pick).")
    ap.add_argument("--tune-players", action="store_true", required=True)
    ap.add_argument("--trays", type=int, default=120)
    a = ap.parse_args(argv)
    shared = shared_data()
    if shared is None:
        ap.error("../shared/data not found (or set COMPANION_SHARED)")
    tune_players(shared, a.trays)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

