"""Train the gem detector (a round-object centre network) on the labelled candy photos.

Reproducible (every random draw comes from ``--seed``; torch runs on one thread)::

    pip install '.[train]'          # torch (CPU) + onnx, for training only
    nice -n 10 python -m vision.train.train_gems ../shared/data/colour-candies --out vision/models

It learns from the ``fit`` photos only (see :mod:`vision.gem_data`: the ``calib`` photos
tune nothing of the network, the ``test`` photos are never seen), class-agnostic: every
labelled candy is "a round object's centre", whatever its colour (orange included: the
detector finds objects, the colour reader says which are gems). The network is
:class:`~vision.train.nets_torch.CentreNet` (the d6 detector's architecture) trained on
random 256 x 256 patches of the photos scaled to the detector's input (longer side 640,
so a candy is about 15 px), with rotation, flips, scale 0.7..1.4, colour jitter (hue
shifts half the time: a gem of any colour is an object), blur, noise and JPEG 25..95;
CenterNet focal loss on the heat, L1 on the log side and the sub-cell offset. Then it
exports ``gem_detector.onnx`` (opset 11, read by ``cv2.dnn``, checked against torch).

``--negatives DIR`` (a labelled dice folder such as ``shared/data/tray-dice-photos``;
only its ``fit`` photos) adds gem-free images to ``--neg-frac`` of the patches (0.25),
so that dice, pips and tray walls are not taken for gems when the table reads dice and
gems with one reader. ``--steps`` sets the length (default 1800); ``--smoke`` runs two
steps on two photos (tests).

``--floors P`` paints the tray's white floor of that share of the candy patches as
another floor (:func:`vision.floors.random_floor`: any hue, dark mostly, felt, wood
or plain, the photo's shadows kept; :mod:`vision.floors`): the candy photos all show
a white tray, the companion's tray build a dark felt. ``--init`` fine-tunes an exported
``gem_detector.onnx`` instead of starting afresh (``--lr`` its peak learning rate).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.gem_data import GemLabel, list_gem_photos, load_gem_labels
from vision.train.train_d6 import _affine, _in_patch, centre_target, colour_jitter, export, fit_centre_net

DET_SIZE = 640  # detector input: longer side of the frame (1920 x 1080 -> 640 x 360)
STRIDE = 4
PATCH = 256


def load_set(folder: Path, split: str, limit: int | None = None) -> list[tuple[np.ndarray, list[GemLabel]]]:
    """The photos of ``split`` scaled to the detector's input size, labels in that scale."""
    out = []
    for ph in list_gem_photos(folder, split)[:limit]:
        img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        s = DET_SIZE / max(h, w)
        small = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        labels = [GemLabel(lab.colour, tuple(v * s for v in lab.box))
                  for lab in load_gem_labels(ph, w, h)]
        out.append((small, labels))
    return out


def sample(img: np.ndarray, labels: list[GemLabel], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One training patch (3 x PATCH x PATCH float 0..1) and its target (5 x P/4 x P/4:
    heat, log side, offset x, offset y, mask of the centres)."""
    h, w = img.shape[:2]
    scale = math.exp(rng.uniform(math.log(0.7), math.log(1.4)))
    angle = float(rng.uniform(0, 360))
    flip = bool(rng.random() < 0.5)
    if labels and rng.random() < 0.6:
        cx, cy = labels[int(rng.integers(len(labels)))].centre
        cx += rng.uniform(-60, 60)
        cy += rng.uniform(-60, 60)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = _affine(cx, cy, angle, scale, flip, PATCH / 2, PATCH / 2)
    grey = int(rng.integers(30, 200))
    patch = cv2.warpAffine(img, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(grey, grey, grey))
    patch = colour_jitter(patch, rng, hue=rng.random() < 0.5)
    if rng.random() < 0.3:
        q = int(rng.integers(25, 96))
        ok, enc = cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, q])
        dec = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
        if dec is not None:
            patch = np.asarray(dec)
    tgt = centre_target(_in_patch(m, labels, scale), PATCH, min_sigma=0.6)
    return patch.astype(np.float32).transpose(2, 0, 1) / 255.0, tgt


def load_negatives(folder: Path, limit: int | None = None) -> list[tuple[np.ndarray, list[GemLabel]]]:
    """The ``fit`` photos of a labelled dice folder (:mod:`vision.labelled`: its held-aside
    ``test`` photos are never used) as gem-free images: dice, pips and tray walls are no
    gems. Scaled so that the longer side is ``DET_SIZE``, as at run time."""
    from vision.labelled import list_photos

    out: list[tuple[np.ndarray, list[GemLabel]]] = []
    for ph in list_photos(folder, "fit")[:limit]:
        img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        s = DET_SIZE / max(h, w)
        out.append((cv2.resize(img, (round(w * s), round(h * s)),
                               interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR), []))
    return out


def train(data: list[Any], steps: int, seed: int, batch: int = 12, log: Any = print,
          negatives: list[Any] | None = None, neg_frac: float = 0.25, floors: float = 0.0,
          init: Path | None = None, lr: float = 4e-3) -> Any:
    """The fitted network. ``floors``: the share of candy patches whose tray floor is
    painted as a random other floor (:mod:`vision.floors`)."""
    from vision.floors import paint_floor, random_floor, tray_floor

    masks = [tray_floor(img, labels) for img, labels in data] if floors > 0 else []

    def next_batch(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        items = []
        for _ in range(batch):
            if negatives and rng.random() < neg_frac:
                img, labels = negatives[int(rng.integers(len(negatives)))]
            else:
                k = int(rng.integers(len(data)))
                img, labels = data[k]
                if masks and rng.random() < floors:
                    colour, texture = random_floor(rng)
                    img = paint_floor(img, masks[k], colour, texture, rng)
            items.append(sample(img, labels, rng))
        xs, ts = zip(*items)
        return np.stack(xs), np.stack(ts)

    return fit_centre_net(next_batch, steps, seed, log=log, tag="gem det ", init=init, lr=lr)[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train.train_gems", description=__doc__.split("\n")[0])
    ap.add_argument("photos", type=Path, help="the candy folder (images/ and labels/)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "models")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=1800)
    ap.add_argument("--negatives", type=Path, action="append", default=[],
                    help="a labelled dice folder whose fit photos are gem-free images (repeatable)")
    ap.add_argument("--neg-frac", type=float, default=0.25, help="share of patches from --negatives")
    ap.add_argument("--floors", type=float, default=0.0,
                    help="share of candy patches whose white tray floor is painted as another floor")
    ap.add_argument("--init", type=Path, default=None, help="an exported gem_detector.onnx to fine-tune")
    ap.add_argument("--lr", type=float, default=4e-3, help="peak learning rate")
    ap.add_argument("--smoke", action="store_true", help="two steps on two photos (tests)")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    random.seed(args.seed)
    data = load_set(args.photos, "fit", limit=2 if args.smoke else None)
    if not data:
        print(f"no labelled candy photos in {args.photos}", file=sys.stderr)
        return 2
    negatives = [n for folder in args.negatives for n in load_negatives(folder, limit=2 if args.smoke else None)]
    steps = 2 if args.smoke else args.steps
    net = train(data, steps, args.seed, batch=2 if args.smoke else 12, negatives=negatives, neg_frac=args.neg_frac,
                floors=args.floors, init=args.init, lr=args.lr)
    args.out.mkdir(parents=True, exist_ok=True)
    export(net, (1, 3, 368, DET_SIZE), args.out / "gem_detector.onnx")
    torch.save(net.state_dict(), args.out / "gem_detector.pt")  # for fine-tuning; not needed at run time
    meta = {"det_size": DET_SIZE, "stride": STRIDE, "seed": args.seed, "steps": steps,
            "trained_on": f"colour-candies fit split ({len(data)} photos)"}
    if args.floors:
        meta["floors"] = f"{args.floors:g} of the candy patches with the tray floor painted (vision.floors)"
    if args.init is not None:
        meta["fine_tuned_from"] = str(args.init.name)
        meta["lr"] = args.lr
    if negatives:
        meta["negatives"] = (f"{len(negatives)} gem-free photos ({', '.join(str(f.name) for f in args.negatives)}"
                             f" fit split), {args.neg_frac:g} of the patches")
    (args.out / "gem_detector.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out / 'gem_detector.onnx'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
