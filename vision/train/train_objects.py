"""Train the class-agnostic object detector (every die and gem kind); export to ONNX.

Reproducible (every random draw comes from ``--seed``)::

    pip install '.[train]'
    nice -n 10 python -m vision.train.train_objects --shared ../shared/data --out vision/models

The network is the d6 detector's (:class:`~vision.train.nets_torch.CentreNet`: CenterNet
focal loss on one "an object's centre is here" heat, L1 on the log side and the sub-cell
offset; read at run time by :func:`vision.detect.centre_peaks`), at the same run-time
scale (the frame's longer side to 320 px). Each batch mixes:

- domain-randomised scenes of :mod:`vision.train.scenes` (seeds ``0 .. --scenes``; every
  die kind, gems in six colours, custom dice; pips, blobs, walls and printed mats as
  negatives), a 256-px crop of a 320-px scene, turned and mirrored;
- the ``fit`` split of ``tray-dice-photos`` (:mod:`vision.labelled`) with its boxes,
  scaled as at run time, 0.7-1.4 times, any angle;
- the ``fit`` split of ``colour-candies`` (:mod:`vision.gem_data`) with its boxes (every
  candy, orange included, is an object: saying it is no gem is the colour reader's job).

The held-aside (``test``) photos are never read here. ``--smoke``: a few steps on a few
scenes (the tests' check that the pipeline runs). Writes ``object_detector.onnx``
(opset 11, read by ``cv2.dnn``) and ``object_detector.json`` (how it was trained).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.train.train_d6 import STRIDE, _affine, centre_target, colour_jitter, export, fit_centre_net, jpeg_blur

DET_SIZE = 320  # run-time input: the frame's longer side
PATCH = 256
NAME = "object_detector"

Points = list[tuple[float, float, float]]  # (cx, cy, side) in image pixels
Item = tuple[np.ndarray, Points]


def synthetic(first: int, count: int, log: Any = print) -> list[Item]:
    """Scenes ``first .. first + count - 1`` of :func:`vision.train.scenes.render_scene`."""
    from vision.train.scenes import render_scene

    out: list[Item] = []
    t0 = time.time()
    for seed in range(first, first + count):
        sc = render_scene(seed, DET_SIZE)
        out.append((sc.image, [(o.cx, o.cy, o.side) for o in sc.objects]))
        if (seed - first) % 500 == 499:
            log(f"  {seed - first + 1} scenes ({time.time() - t0:.0f} s)")
    return out


def _scaled(img: np.ndarray, points: Points) -> Item:
    h, w = img.shape[:2]
    s = DET_SIZE / max(h, w)
    small = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    return small, [(x * s, y * s, d * s) for x, y, d in points]


def real_fit(shared: Path) -> tuple[list[Item], list[Item]]:
    """The ``fit`` photos (never ``test``) of the dice and candy folders, scaled to the
    run-time input, with their objects."""
    from vision.gem_data import list_gem_photos, load_gem_labels
    from vision.labelled import list_photos, load_labels

    dice: list[Item] = []
    folder = shared / "tray-dice-photos"
    if folder.is_dir():
        for ph in list_photos(folder, "fit"):
            img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
            if img is not None:
                h, w = img.shape[:2]
                dice.append(_scaled(img, [(*lab.centre, lab.side) for lab in load_labels(ph.path, w, h)]))
    candies: list[Item] = []
    folder = shared / "colour-candies"
    if folder.is_dir():
        for gp in list_gem_photos(folder, "fit"):
            img = cv2.imread(str(gp.path), cv2.IMREAD_COLOR)
            if img is not None:
                h, w = img.shape[:2]
                candies.append(_scaled(img, [(*lab.centre, lab.side) for lab in load_gem_labels(gp, w, h)]))
    return dice, candies


def scene_sample(item: Item, rng: np.random.Generator) -> tuple[np.ndarray, Points]:
    """A PATCH crop of a synthetic scene, turned by a quarter turn and mirrored at random."""
    img, pts = item
    h, w = img.shape[:2]
    x0, y0 = int(rng.integers(0, w - PATCH + 1)), int(rng.integers(0, h - PATCH + 1))
    patch = img[y0:y0 + PATCH, x0:x0 + PATCH]
    p = [(x - x0, y - y0, d) for x, y, d in pts]
    k = int(rng.integers(4))
    for _ in range(k):  # 90° counter-clockwise: (x, y) -> (y, P - 1 - x)
        patch = np.rot90(patch)
        p = [(y, PATCH - 1 - x, d) for x, y, d in p]
    if rng.random() < 0.5:
        patch = patch[:, ::-1]
        p = [(PATCH - 1 - x, y, d) for x, y, d in p]
    patch = np.ascontiguousarray(patch)
    if rng.random() < 0.5:
        patch = colour_jitter(patch, rng, hue=rng.random() < 0.5)
    return patch, p


def photo_sample(item: Item, rng: np.random.Generator, scale: tuple[float, float] = (0.7, 1.4)) -> tuple[np.ndarray, Points]:
    """A PATCH view of a real photo: any angle, mirrored, scaled, colours jittered."""
    img, pts = item
    h, w = img.shape[:2]
    s = math.exp(rng.uniform(math.log(scale[0]), math.log(scale[1])))
    if pts and rng.random() < 0.7:
        cx, cy = pts[int(rng.integers(len(pts)))][:2]
        cx, cy = cx + rng.uniform(-40, 40), cy + rng.uniform(-40, 40)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = _affine(cx, cy, float(rng.uniform(0, 360)), s, bool(rng.random() < 0.5), PATCH / 2, PATCH / 2)
    grey = int(rng.integers(30, 200))
    patch = cv2.warpAffine(img, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                           borderValue=(grey, grey, grey))
    out = [(float(q[0]), float(q[1]), d * s) for x, y, d in pts for q in [m @ np.array([x, y, 1.0])]]
    patch = jpeg_blur(colour_jitter(patch, rng, hue=rng.random() < 0.5), rng, 0.4)
    return patch, out


def batch_of(scenes: list[Item], dice: list[Item], candies: list[Item], rng: np.random.Generator, n: int,
             mix: tuple[float, float] = (0.2, 0.15)) -> tuple[np.ndarray, np.ndarray]:
    """``n`` patches (N x 3 x P x P, 0..1) and their targets (N x 5 x P/4 x P/4)."""
    xs, ts = [], []
    for _ in range(n):
        r = rng.random()
        if dice and r < mix[0]:
            patch, pts = photo_sample(dice[int(rng.integers(len(dice)))], rng)
        elif candies and r < mix[0] + mix[1]:
            patch, pts = photo_sample(candies[int(rng.integers(len(candies)))], rng, (0.8, 2.2))
        else:
            patch, pts = scene_sample(scenes[int(rng.integers(len(scenes)))], rng)
        xs.append(patch.astype(np.float32).transpose(2, 0, 1) / 255.0)
        ts.append(centre_target(pts, PATCH, min_sigma=0.6))
    return np.stack(xs), np.stack(ts)


def train(scenes: list[Item], dice: list[Item], candies: list[Item], steps: int, seed: int, batch: int,
          minutes: float, width: tuple[int, int, int, int, int], log: Any = print) -> tuple[Any, int]:
    """The trained network (eval mode) and the number of steps done."""
    return fit_centre_net(lambda rng: batch_of(scenes, dice, candies, rng, batch), steps, seed,
                          width=width, minutes=minutes, log=log)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("vision/models"))
    ap.add_argument("--scenes", type=int, default=5000)
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--minutes", type=float, default=120.0, help="wall-time limit of the training loop")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--width", type=str, default="24,48,80,112,40", help="CentreNet widths (5 ints)")
    ap.add_argument("--threshold", type=float, default=0.55,
                    help="candidate threshold written to the settings (chosen by eval_objects --tune)")
    ap.add_argument("--second-threshold", type=float, default=0.65,
                    help="the same at the second, larger look (chosen by eval_objects --tune)")
    ap.add_argument("--smoke", action="store_true", help="a few steps on a few scenes (pipeline check)")
    a = ap.parse_args(argv)
    import torch

    torch.set_num_threads(a.threads)
    if a.smoke:
        a.scenes, a.steps, a.batch = 6, 3, 2
    w = [int(v) for v in a.width.split(",")]
    if len(w) != 5:
        ap.error("--width needs 5 integers")
    width = (w[0], w[1], w[2], w[3], w[4])
    t0 = time.time()

    def log(s: str) -> None:
        print(s, flush=True)

    scenes = synthetic(0, a.scenes, log)
    dice, candies = ([], []) if a.smoke else real_fit(a.shared)
    log(f"{len(scenes)} scenes, {len(dice)} dice photos, {len(candies)} candy photos ({time.time() - t0:.0f} s)")
    net, done = train(scenes, dice, candies, a.steps, a.seed, a.batch, a.minutes, width, log)
    a.out.mkdir(parents=True, exist_ok=True)
    export(net, (1, 3, DET_SIZE, DET_SIZE), a.out / f"{NAME}.onnx")
    cfg = {"model": f"{NAME}.onnx", "det_size": DET_SIZE, "stride": STRIDE, "threshold": a.threshold,
           "second_threshold": a.second_threshold,
           "trained": {"seed": a.seed, "scene_seeds": [0, a.scenes], "dice_photos_fit": len(dice),
                       "candy_photos_fit": len(candies), "steps": done, "steps_planned": a.steps, "batch": a.batch,
                       "width": list(width), "threads": a.threads, "torch": torch.__version__,
                       "opencv": cv2.__version__, "seconds": round(time.time() - t0),
                       "command": "nice -n 10 python -m vision.train.train_objects --shared ../shared/data "
                                  f"--scenes {a.scenes} --steps {a.steps} --minutes {a.minutes} --seed {a.seed} "
                                  f"--width {a.width} --threshold {a.threshold} "
                                  f"--second-threshold {a.second_threshold}"}}
    (a.out / f"{NAME}.json").write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    log(f"wrote {a.out / (NAME + '.onnx')} ({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
