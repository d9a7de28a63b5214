"""Train a numeral classifier on rendered numerals and export it to ONNX: the d10's
(``--dice d10``, the default: ``numerals_d10.onnx``, 11 outputs) or the other numeral
dice's (``--dice poly``: d4, d6, d8, d12, d20, the numbers 1..20 and "other",
``numerals_poly.onnx``, 21 outputs).

Reproducible (every random draw comes from ``--seed``; torch on one thread)::

    pip install '.[train]'          # torch (CPU), onnx, Pillow (TrueType fonts)
    nice -n 10 python -m vision.train.train_numerals --shared ../shared/data --out vision/models
    nice -n 10 python -m vision.train.train_numerals --dice poly --init vision/models/numerals_d10.onnx ...

The poly network starts from the d10 network's convolutions (``--init``: a network
that reads digits already; its output layer is new) when given one.

1. renders ``--renders`` crops (:mod:`vision.train.numeral_faces`, the *training* fonts
   only: DejaVu and three Hershey faces) of d10 top faces 0..9 and of "other" objects
   (pip faces, symbol dice, letters, two-digit numbers, gems, bare floor), on patches of
   the real tray and candy photos of the *training* splits;
2. cuts real "other" crops from the same training photos: every pip d6, every candy, and
   spots of tray away from them (the reader's crop: 1.3 x the object's side, 48 x 48);
3. trains :class:`~vision.train.nets_torch.CropNet` with 11 outputs (digits 0..9, other)
   on them (random quarter turns; no mirror: a mirrored 2 is no 2);
4. tunes the honesty thresholds on a separate validation set (renders of another seed,
   training fonts, and real "other" crops of the ``calib`` photos, which the network
   did not learn from): the lowest ``confidence`` (with a ``margin`` over the second
   digit) that leaves at most 0.2 % of the digits silently wrong and at most 0.3 % of
   the "other" crops read, plus a safety step;
5. exports ``numerals_d10.onnx`` (opset 11, checked against torch under ``cv2.dnn``) and
   ``numerals.json`` (classes, thresholds, how it was trained).

Measured afterwards on held-out renders (fonts of another family: Liberation and three
other Hershey faces) by ``python -m vision.train.eval_numerals``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from vision.train.numeral_faces import (CROP, CROP_FACTOR, POLY_FACES, POLY_KINDS, POLY_NUMBERS, Font, font_sets,
                                         render_crop)

OTHER = 10
#: Scene seeds of the tray frames the d10 network learns from (:func:`tray_crops`) and is
#: tuned on; the d10 detector trained on 0 .. 399, the benchmarks read 100_000 on.
TRAY_SEED = 200_000
TRAY_VAL_SEED = 300_000
#: Seeds of the webcam-like white d6 frames :func:`webcam_d6_crops` learns from (and
#: validates on, from :data:`WEBCAM_D6_VAL_SEED`): far from the benchmark's (0-39) and
#: the tests'.
WEBCAM_D6_SEED = 50_000
WEBCAM_D6_VAL_SEED = 60_000
CLASSES: list[int | None] = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9, None]  # the value each output stands for
#: The poly network's outputs: the numbers 1..20, then "other".
POLY_CLASSES: list[int | None] = [*range(1, 21), None]
POLY_OTHER = 20


def _crop(img: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    from vision.pips import crop

    return crop(img, cx, cy, side, CROP, CROP_FACTOR)


def real_others(shared: Path, split: str, seed: int, per_photo: int = 4,
                max_candy: int = 8) -> tuple[np.ndarray, list[np.ndarray]]:
    """Real "other" crops of ``split`` (pip dice, candies, tray floor) and the photos
    (as backgrounds for the renders)."""
    from vision.gem_data import list_gem_photos, load_gem_labels
    from vision.labelled import list_photos, load_labels

    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    backgrounds: list[np.ndarray] = []
    tray = shared / "tray-dice-photos"
    for ph in list_photos(tray, split) if tray.is_dir() else []:
        img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        labels = load_labels(ph.path, img.shape[1], img.shape[0])
        backgrounds.append(img)
        for lab in labels:
            jit = rng.normal(0, 0.05, 3)
            crops.append(_crop(img, lab.centre[0] + jit[0] * lab.side, lab.centre[1] + jit[1] * lab.side,
                               lab.side * math.exp(jit[2])))
        sides = [lab.side for lab in labels] or [40.0]
        cents = np.array([lab.centre for lab in labels]) if labels else np.zeros((0, 2))
        got, tries = 0, 0
        while got < per_photo and tries < 100:
            tries += 1
            side = float(rng.choice(sides)) * rng.uniform(0.7, 1.4)
            cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
            if len(cents) and (np.hypot(cents[:, 0] - cx, cents[:, 1] - cy) < 0.9 * np.array(sides)).any():
                continue
            crops.append(_crop(img, cx, cy, side))
            got += 1
    candies = shared / "colour-candies"
    for gp in list_gem_photos(candies, split) if (candies / "images").is_dir() else []:
        img = cv2.imread(str(gp.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        gems = load_gem_labels(gp, img.shape[1], img.shape[0])
        backgrounds.append(cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        for k in rng.permutation(len(gems))[:max_candy]:
            gem = gems[int(k)]
            crops.append(_crop(img, gem.centre[0], gem.centre[1], gem.side * rng.uniform(0.9, 1.3)))
    arr = np.stack(crops) if crops else np.zeros((0, CROP, CROP, 3), np.uint8)
    return arr, backgrounds


def tray_crops(frames: int, base_seed: int, floors: list[np.ndarray], seed: int, log: Any = print,
               detector: Any = None, dice: str = "d10", coloured: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """d10 crops as the table cuts them on a plain photo: ``frames`` tray frames of
    :func:`vision.train.train_d10_detector.tray_frame` (scene seeds ``base_seed`` on),
    on ``floors`` or the render's felt, seen by the committed d10 detector
    (:class:`vision.numeral_detect.NumeralDiceDetector`). Each candidate on a whole d10
    is a crop of its digit (class as :data:`CLASSES`), cut where the detector put it (its
    centre and size, not the render's); each candidate on nothing (a d6, a gem, the
    floor) is "other"; candidates on a d10 cut by the frame's edge are left out. The
    numeral renders (:func:`render_set`) are faces cut exactly; a detector's crop is a
    little off centre and off size, and the network learnt to call those "other".
    ``dice="poly"``: pools of d4 and d12 (the numeral kinds the renderer draws besides
    the d10) in turn, classes as :data:`POLY_CLASSES`. ``coloured``: the share of frames,
    spread evenly, whose numeral dice are each of a random colour with a contrasting ink
    (``SceneSpec.numeral_colours``: red, blue, black... dice with white or gold numbers),
    the others the renderer's white dice with black numbers."""
    from vision.numeral_detect import NumeralDiceDetector
    from vision.pips import crop
    from vision.train.train_d10_detector import evenly, tray_frame

    det = detector or NumeralDiceDetector()
    xs: list[np.ndarray] = []
    ys: list[int] = []
    t0 = time.time()
    classes, other = (POLY_CLASSES, POLY_OTHER) if dice == "poly" else (CLASSES, OTHER)
    for i in range(frames):
        made = tray_frame(base_seed + i, floors, kind=("d4", "d12")[i % 2] if dice == "poly" else "d10",
                          coloured=evenly(i, coloured))
        if made is None:
            continue
        frame, laid = made
        for c in det.detect(frame):
            near = sorted((math.hypot(c.cx - cx, c.cy - cy), v, whole) for cx, cy, sd, v, whole in laid
                          if math.hypot(c.cx - cx, c.cy - cy) < 0.75 * sd)
            if near and (not near[0][2] or near[0][0] >= 0.5 * c.side):
                continue  # a die cut by the edge, or a peak beside a die: neither digit nor "other"
            xs.append(crop(frame, c.cx, c.cy, c.side, CROP, CROP_FACTOR))
            ys.append(classes.index(near[0][1]) if near else other)
        if i and i % 200 == 0:
            log(f"tray frames {i}/{frames}: {len(xs)} crops ({time.time() - t0:.0f} s)")
    if not xs:
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs), np.array(ys, np.int64)


def webcam_d6_crops(frames: int, base_seed: int, detector: Any = None) -> np.ndarray:
    """What the d10 detector proposes on ``frames`` rendered trays of plain white d6 seen
    by a webcam (:func:`vision.train.cameras.white_d6`: 25-35 px dice, tilted 15-30°,
    blurred, noisy, compressed; 1280 x 720, 1920 x 1080 and 640 x 480 in turn): no d10
    lies there, so every crop is "other". Without them a network fine-tuned on coloured
    d10 read such d6 as d10 numbers in a step expecting d6 and d10."""
    from vision.numeral_detect import NumeralDiceDetector
    from vision.pips import crop
    from vision.train.cameras import white_d6

    det = detector or NumeralDiceDetector()
    xs: list[np.ndarray] = []
    for i in range(frames):
        size = ((1280, 720), (1920, 1080), (640, 480))[i % 3]
        frame, _ = white_d6(base_seed + i, True, size)
        xs += [crop(frame, c.cx, c.cy, c.side, CROP, CROP_FACTOR) for c in det.detect(frame)]
    return np.stack(xs) if xs else np.zeros((0, CROP, CROP, 3), np.uint8)


def poly_crop(rng: np.random.Generator, fonts: Sequence[Font], backgrounds: Sequence[np.ndarray],
              other: bool, camera: bool = True) -> tuple[np.ndarray, int]:
    """One rendered crop of a d4 / d6 / d8 / d12 / d20 (the number uniform over 1..20,
    the kind uniform over those that show it) or, ``other``, a thing that is no face of
    theirs; and its class (number - 1, or :data:`POLY_OTHER`)."""
    if other:
        kind = POLY_KINDS[int(rng.integers(len(POLY_KINDS)))]
        return render_crop(rng, None, fonts, backgrounds, kind=kind, numbers=POLY_NUMBERS,
                           camera=camera), POLY_OTHER
    v = int(rng.integers(1, 21))
    kinds = [k for k in POLY_KINDS if POLY_FACES[k] >= v]
    kind = kinds[int(rng.integers(len(kinds)))]
    return render_crop(rng, None, fonts, backgrounds, kind=kind, face=v, camera=camera), v - 1


def render_set(n: int, seed: int, fonts: Sequence[Font], backgrounds: Sequence[np.ndarray],
               p_other: float = 0.25, log: Any = print, dice: str = "d10") -> tuple[np.ndarray, np.ndarray]:
    """``n`` rendered crops and their class (d10: 0..9, :data:`OTHER`; poly: see
    :func:`poly_crop`)."""
    rng = np.random.default_rng(seed)
    xs = np.empty((n, CROP, CROP, 3), np.uint8)
    ys = np.empty(n, np.int64)
    t0 = time.time()
    for i in range(n):
        if dice == "poly":
            xs[i], ys[i] = poly_crop(rng, fonts, backgrounds, bool(rng.random() < p_other))
        elif rng.random() < p_other:
            xs[i], ys[i] = render_crop(rng, None, fonts, backgrounds), OTHER
        else:
            d = int(rng.integers(10))
            xs[i], ys[i] = render_crop(rng, d, fonts, backgrounds), d
        if i and i % 5000 == 0:
            log(f"rendered {i}/{n} ({time.time() - t0:.0f} s)")
    return xs, ys


def train(xs: np.ndarray, ys: np.ndarray, steps: int, seed: int, batch: int = 64, log: Any = print,
          init: Path | None = None, lr: float = 3e-3, n_classes: int = 11) -> Any:
    """Train the ``n_classes`` CropNet (from scratch, or on from the exported ``init`` with
    its folded BatchNorms frozen; an ``init`` of another number of outputs gives its
    convolutions, the output layer starts anew)."""
    import torch
    import torch.nn.functional as F

    from vision.pips import to_blob
    from vision.train.nets_torch import CropNet

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    from vision.train.train_d6 import crop_net_from_onnx, freeze_norms

    if init is None:
        net = CropNet(n_classes=n_classes)
    else:
        net = crop_net_from_onnx(init, _outputs(init))
        if _outputs(init) != n_classes:
            net.fc = torch.nn.Linear(128, n_classes)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=2e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.1)
    t0 = time.time()
    avg = None
    if init is None:
        net.train()
    else:
        freeze_norms(net)
    for step in range(steps):
        idx = rng.integers(len(xs), size=batch)
        b = np.stack([np.rot90(xs[k], int(rng.integers(4))) for k in idx])
        out = net(torch.from_numpy(to_blob(np.ascontiguousarray(b))))
        loss = F.cross_entropy(out, torch.from_numpy(ys[idx]), label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        lv = float(loss.detach())
        avg = lv if avg is None else 0.98 * avg + 0.02 * lv
        if step % 100 == 0 or step == steps - 1:
            log(f"step {step}/{steps} loss {avg:.3f} ({time.time() - t0:.0f} s)")
    net.eval()
    return net


def _outputs(path: Path) -> int:
    """How many outputs the exported classifier ``path`` has."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    return int(next(numpy_helper.to_array(i) for i in model.graph.initializer if i.name == "fc.bias").shape[0])


def probabilities(net: Any, xs: np.ndarray) -> np.ndarray:
    import torch

    from vision.pips import to_blob

    out = []
    with torch.no_grad():
        for i in range(0, len(xs), 256):
            logits = net(torch.from_numpy(to_blob(xs[i:i + 256]))).numpy().astype(np.float64)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            out.append(e / e.sum(axis=1, keepdims=True))
    return np.concatenate(out) if out else np.zeros((0, 11))


def tune(p: np.ndarray, ys: np.ndarray, max_silent: float = 0.002, safety: float = 0.02) -> dict[str, float]:
    """The thresholds (see :class:`vision.numerals.NumeralClassifier`) that read the most
    digits right with at most ``max_silent`` of them wrong and at most 0.3 % of the
    "other" crops read (rendered letters and two-digit numbers can look like a digit)."""
    from vision.numerals import decide_all

    best: tuple[float, dict[str, float]] | None = None
    digits = ys != p.shape[1] - 1
    for other in (0.3, 0.4, 0.5, 0.6):
        for margin in (0.0, 0.2, 0.4, 0.6):
            for conf in np.arange(0.5, 0.996, 0.01):
                thr = {"other": other, "confidence": float(conf), "margin": margin}
                read, value = decide_all(p, thr)
                silent = float((read & digits & (value != ys)).sum()) / max(1, int(digits.sum()))
                false = int((read & ~digits).sum())
                if silent <= max_silent and false <= int(0.003 * int((~digits).sum())):
                    right = float((read & digits & (value == ys)).sum()) / max(1, int(digits.sum()))
                    if best is None or right > best[0]:
                        best = (right, thr)
                    break
    if best is None:
        return {"other": 0.3, "confidence": 0.995, "margin": 0.6}
    thr = dict(best[1])
    thr["confidence"] = round(min(0.995, thr["confidence"] + safety), 3)
    return thr


def with_transforms(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``xs`` as they are and after each transform of ``benchmarks/bench_vision_transforms.py``
    brought to the crop (:data:`vision.train.numeral_faces.TRANSFORMS`): the poly
    network's thresholds are tuned on all of them, so that a turned, small, blurred,
    JPEG or darker / brighter die stays as honest as a clean one."""
    from vision.train.numeral_faces import TRANSFORMS

    outs, labels = [xs], [ys]
    for _, tf in TRANSFORMS:
        if tf is not None:
            outs.append(np.stack([tf(c) for c in xs]))
            labels.append(ys)
    return np.concatenate(outs), np.concatenate(labels)


def validation_set(shared: Path, seed: int, n: int, dice: str, tray_frames: int = 0,
                   backgrounds: Sequence[np.ndarray] | None = None, smoke: bool = False,
                   coloured: float = 0.0, webcam_d6: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The crops the thresholds are tuned on, as the network will be used: renders of
    seed ``seed + 100`` (training fonts; ``n // 8``, at least 2,000) and, for the d10 with
    ``tray_frames``, the detector's crops of ``tray_frames // 4`` tray frames on the
    ``calib`` photos (:func:`tray_crops`), all of them as they are and after every
    transform (:func:`with_transforms`); then the real "other" crops of the ``calib``
    photos, which no network learnt from. ``coloured``: the share of those tray frames
    whose dice are coloured (:func:`tray_crops`); ``webcam_d6``: the "other" crops of
    ``webcam_d6 // 4`` webcam white-d6 frames of their own seeds (:func:`webcam_d6_crops`)."""
    fonts = font_sets()[0]
    val_real, _ = real_others(shared, "calib", seed + 10)
    if backgrounds is None:
        _, backgrounds = real_others(shared, "fit", seed)
    vx, vy = render_set(16 if smoke else max(2000, n // 8), seed + 100, fonts, backgrounds, dice=dice)
    if tray_frames:
        wx, wy = tray_crops(2 if smoke else max(1, tray_frames // 4), TRAY_VAL_SEED,
                            real_others(shared, "calib", seed)[1], seed + 1, dice=dice, coloured=coloured)
        vx, vy = np.concatenate([vx, wx]), np.concatenate([vy, wy])
    vx, vy = with_transforms(vx, vy)
    other = POLY_OTHER if dice == "poly" else OTHER
    if webcam_d6:
        wd = webcam_d6_crops(1 if smoke else max(1, webcam_d6 // 4), WEBCAM_D6_VAL_SEED)
        vx, vy = np.concatenate([vx, wd]), np.concatenate([vy, np.full(len(wd), other)])
    return np.concatenate([vx, val_real]), np.concatenate([vy, np.full(len(val_real), other)])


def retune(folder: Path, shared: Path, seed: int, n: int, log: Any = print, max_silent: float = 0.002,
           dice: str = "poly", tray_frames: int = 0, coloured: float = 0.0, webcam_d6: int = 0) -> dict[str, float]:
    """The thresholds of the ``dice`` network exported in ``folder``, tuned again (run
    through ``cv2.dnn``, as at run time) on :func:`validation_set` of a ``--seed`` run of
    ``--renders`` ``n`` (and ``--tray-frames``); written into its ``.json``."""
    from vision.numerals import NumeralClassifier, PolyNumerals

    vx, vy = validation_set(shared, seed, n, dice, tray_frames, coloured=coloured, webcam_d6=webcam_d6)
    settings = folder / ("numerals_poly.json" if dice == "poly" else "numerals.json")
    meta = json.loads(settings.read_text())
    net = PolyNumerals(models=folder) if dice == "poly" else NumeralClassifier(models=folder, poly=False)
    thr = tune(net.probabilities_of_crops(vx), vy, max_silent=max_silent)
    log(f"thresholds {meta['thresholds']} -> {thr} ({len(vx)} validation crops)")
    meta["thresholds"] = thr
    meta["trained"]["retuned"] = (f"python -m vision.train.train_numerals --dice {dice} --retune {folder.name} "
                                  f"--seed {seed} --renders {n} --tray-frames {tray_frames} --tray-coloured {coloured} "
                                  f"--webcam-d6 {webcam_d6} "
                                  f"--max-silent {max_silent}:"
                                  " on the validation renders (and tray crops) with every transform")
    settings.write_text(json.dumps(meta, indent=2) + "\n")
    return thr


def export(net: Any, path: Path) -> None:
    from vision.train.train_d6 import export as export_onnx

    export_onnx(net, (1, 3, CROP, CROP), path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[3] / "shared" / "data",
                    help="the shared data folder (tray-dice-photos, colour-candies)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "models")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--renders", type=int, default=24000)
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--init", type=Path, default=None,
                    help="go on training this exported numerals_d10.onnx (new renders of --seed)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--dice", choices=["d10", "poly"], default="d10",
                    help="d10: numerals_d10.onnx; poly: numerals_poly.onnx (d4, d6, d8, d12, d20)")
    ap.add_argument("--retune", type=Path, default=None, metavar="DIR",
                    help="poly: tune again the thresholds of the network exported in DIR (no training), on the "
                         "validation set of --seed and --renders with every transform")
    ap.add_argument("--max-silent", type=float, default=0.002,
                    help="the share of validation numbers read wrong the thresholds allow")
    ap.add_argument("--tray-frames", type=int, default=0, metavar="N",
                    help="also learn from the d10 detector's crops of N rendered tray frames (d10 pools, "
                         "or d4 and d12 pools for poly) on the fit photos (tray_crops), and tune on N/4 more on "
                         "the calib photos")
    ap.add_argument("--tray-coloured", type=float, default=0.0, metavar="SHARE",
                    help="the share of those tray frames whose numeral dice are each of a random colour with a "
                         "contrasting ink (red, blue, black... dice with white or gold numbers)")
    ap.add_argument("--webcam-d6", type=int, default=0, metavar="N",
                    help="also learn as 'other' what the d10 detector proposes on N rendered white-d6 trays seen "
                         "by a webcam (webcam_d6_crops), and tune on N/4 more")
    ap.add_argument("--smoke", action="store_true", help="a few renders and steps (tests)")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    if args.retune is not None:
        retune(args.retune, args.shared, args.seed, args.renders, max_silent=args.max_silent, dice=args.dice,
               tray_frames=args.tray_frames, coloured=args.tray_coloured, webcam_d6=args.webcam_d6)
        return 0
    t0 = time.time()
    fonts = font_sets()[0]
    real, backgrounds = real_others(args.shared, "fit", args.seed)
    n = 64 if args.smoke else args.renders
    poly = args.dice == "poly"
    other, classes = (POLY_OTHER, POLY_CLASSES) if poly else (OTHER, CLASSES)
    name, settings = ("numerals_poly.onnx", "numerals_poly.json") if poly else ("numerals_d10.onnx", "numerals.json")
    xs, ys = render_set(n, args.seed, fonts, backgrounds, dice=args.dice)
    n_tray = 0
    if args.tray_frames:
        tx, ty = tray_crops(2 if args.smoke else args.tray_frames, TRAY_SEED, backgrounds, args.seed,
                            dice=args.dice, coloured=args.tray_coloured)
        n_tray = len(tx)
        print(f"{len(tx)} detector crops of tray frames ({int((ty != other).sum())} dice, "
              f"{time.time() - t0:.0f} s)", flush=True)
        xs, ys = np.concatenate([xs, tx]), np.concatenate([ys, ty])
    if args.webcam_d6:
        wd = webcam_d6_crops(1 if args.smoke else args.webcam_d6, WEBCAM_D6_SEED)
        print(f"{len(wd)} detector crops of webcam white-d6 frames ({time.time() - t0:.0f} s)", flush=True)
        real = np.concatenate([real, wd])
    xs = np.concatenate([xs, real])
    ys = np.concatenate([ys, np.full(len(real), other)])
    # tuned as it will be used: on clean and transformed crops alike
    vx, vy = validation_set(args.shared, args.seed, n, args.dice, args.tray_frames, backgrounds, args.smoke,
                            coloured=args.tray_coloured, webcam_d6=args.webcam_d6)
    print(f"{len(xs)} training crops ({len(real)} real others), {len(vx)} validation ({time.time() - t0:.0f} s)",
          flush=True)
    net = train(xs, ys, 2 if args.smoke else args.steps, args.seed, batch=8 if args.smoke else 64,
                init=args.init, lr=args.lr, n_classes=len(classes))
    thr = tune(probabilities(net, vx), vy, max_silent=args.max_silent)
    print(f"thresholds {thr}", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    export(net, args.out / name)
    meta = {
        "kinds": list(POLY_KINDS) if poly else ["d10"], "model": name, "crop": CROP, "crop_factor": CROP_FACTOR,
        "classes": classes, "thresholds": thr, "input_norm": "none",
        "trained": {"seed": args.seed, "renders": n, "real_others": int(len(real)), "steps": args.steps,
                    "tray_frames": args.tray_frames, "tray_coloured": args.tray_coloured, "webcam_d6": args.webcam_d6, "tray_crops": n_tray,
                    "init": None if args.init is None else str(args.init), "lr": args.lr,
                    "fonts": sorted(f.name for f in fonts), "torch": torch.__version__, "opencv": cv2.__version__,
                    "seconds": round(time.time() - t0),
                    "command": "python -m vision.train.train_numerals " + " ".join(argv if argv is not None
                                                                                    else sys.argv[1:])},
    }
    (args.out / settings).write_text(json.dumps(meta, indent=2) + "\n")
    print(f"done in {time.time() - t0:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
