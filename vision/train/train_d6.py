"""Train the d6 reader's two networks on labelled photos and export them to ONNX.

Reproducible (every random draw comes from ``--seed``; torch runs on one thread)::

    pip install '.[train]'          # torch (CPU) + onnx, for training only
    nice -n 10 python -m vision.train.train_d6 ../shared/data/tray-dice-photos \\
        --out vision/models

It trains, on the ``fit`` photos only (see :mod:`vision.labelled`; the ``calib`` photos
are kept out to tune the thresholds, the ``test`` photos are never seen) and their labels
with :data:`vision.labelled.LABEL_FIXES` applied (``--labels-as-given``: as in the files):

1. the die-centre detector (:class:`~vision.train.nets_torch.CentreNet`) on random
   256 x 256 patches of the photos scaled to the detector's input size, with rotation,
   flips, scale, colour jitter and blur; CenterNet focal loss on the centre heat, L1 on
   the log side and the sub-cell offset at the centres;
2. the crop classifier (:class:`~vision.train.nets_torch.CropNet`) on 48 x 48 crops
   around the labelled dice (jittered in centre, scale, rotation, flips, hue, contrast,
   blur, noise) and on "not a die" crops: random background, crops well off a die, and
   the detector's own false peaks on the fit photos (hard negatives); dice the
   classifier gets wrong are drawn more often (hard examples);

``--extra DIR`` adds every photo of another labelled folder (for instance synthetic
tray renders in the same YOLO format) to the fitting set. Then it exports ``d6_detector.onnx`` and ``d6_classifier.onnx``
(opset 11, read by ``cv2.dnn``) and writes ``d6.json`` (input size, crop factor, thresholds) — the
thresholds are tuned afterwards by :mod:`vision.train.tune` on the ``calib`` photos.

``--steps-det`` / ``--steps-cls`` set the length (defaults: about 13 + 6 minutes on one
core of a 2-core laptop CPU); ``--smoke`` runs one step of each on two photos.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import cv2
import numpy as np

from vision.labelled import Label, list_photos, load_labels
from vision.pips import to_blob

DET_SIZE = 320  # detector input for a 640 x 640 photo (scale 0.5)
STRIDE = 4
PATCH = 256  # training patch of the detector
CROP = 48  # classifier input
CROP_FACTOR = 1.3  # crop side / die side
NOT_A_DIE = 6


# -- data -----------------------------------------------------------------------------
def load_set(folder: Path, split: str, limit: int | None = None,
             fixes: bool = True) -> list[tuple[np.ndarray, list[Label]]]:
    """The photos of ``split`` and their labels, with :data:`vision.labelled.LABEL_FIXES`
    applied unless ``fixes`` is false: a die labelled 2 that shows three pips, drawn
    again and again as a "hard example", teaches the network that such threes are twos."""
    out = []
    for ph in list_photos(folder, split)[:limit]:
        img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        out.append((img, load_labels(ph.path, w, h, fixes=fixes)))
    return out


def render_set(n: int, seed: int) -> list[tuple[np.ndarray, list[Label]]]:
    """``n`` rendered trays of plain white d6 (:func:`vision.synth.render_tray`, no
    markers, on its dark felt under a random light; seeds ``seed``, ``seed + 1``...),
    labelled as the photos are (the box of each die as seen): dice for the classifiers
    to learn besides the photos'. Without them, clean white d6 on a dark felt were
    called "not a die" at 0.8-0.99: the dot negatives (``--dots``) look like them to a
    network that never saw a plain white die on a plain floor."""
    from vision.synth import SceneSpec, render_tray

    out = []
    for i in range(n):
        rng = np.random.default_rng(seed + i)
        size = ((1280, 960), (1280, 720), (960, 720))[int(rng.integers(3))]
        scene = render_tray(seed + i, kinds=["d6"], spec=SceneSpec(size=size, markers=False), with_background=False)
        out.append((scene.image, [Label(int(lab.value), tuple(float(v) for v in lab.box))  # type: ignore[arg-type]
                                  for lab in scene.labels]))
    return out


def colour_jitter(img: np.ndarray, rng: np.random.Generator, hue: bool = True) -> np.ndarray:
    """Hue shift, saturation, brightness, contrast, blur, noise (uint8 BGR in and out)."""
    if hue and rng.random() < 0.8:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + int(rng.integers(0, 180))) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.6, 1.4), 0, 255)
        img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    f = img.astype(np.float32)
    a = rng.uniform(0.65, 1.35)
    b = rng.uniform(-35, 35)
    mean = f.mean()
    f = (f - mean) * a + mean + b
    f *= rng.uniform(0.9, 1.1, size=3).astype(np.float32)  # white balance
    if rng.random() < 0.1:
        g = f.mean(axis=2, keepdims=True)
        f = np.repeat(g, 3, axis=2)
    if rng.random() < 0.3:
        k = float(rng.uniform(0.4, 1.3))
        f = np.asarray(cv2.GaussianBlur(f, (0, 0), k), np.float32)
    if rng.random() < 0.3:
        f += rng.normal(0, rng.uniform(2, 8), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def _affine(cx: float, cy: float, angle: float, scale: float, flip: bool, ox: float, oy: float) -> np.ndarray:
    """2x3 matrix: rotate/scale about (cx, cy), optional mirror, then put (cx, cy) at (ox, oy)."""
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    if flip:
        m = np.vstack([m, [0, 0, 1]])
        f = np.array([[-1, 0, 2 * cx], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
        m = (m @ f)[:2]
    m[0, 2] += ox - cx
    m[1, 2] += oy - cy
    return m


# -- detector -------------------------------------------------------------------------
def centre_target(points: list[tuple[float, float, float]], size: int = PATCH,
                  min_sigma: float = 0.7) -> np.ndarray:
    """The centre network's target for a ``size`` x ``size`` patch: 5 x size/4 x size/4
    (heat, log side, offset x, offset y, mask) for objects at ``(x, y, side)`` in patch
    pixels; those outside the patch are left out. Shared by every centre detector's
    training (dice, d10, gems)."""
    g = size // STRIDE
    tgt = np.zeros((5, g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for px, py, side in points:
        gx, gy = px / STRIDE, py / STRIDE
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        sigma = max(min_sigma, side / STRIDE / 5)
        tgt[0] = np.maximum(tgt[0], np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma**2)))
        ix, iy = int(gx), int(gy)
        tgt[0, iy, ix] = 1.0
        tgt[1, iy, ix] = math.log(side / STRIDE)
        tgt[2, iy, ix] = gx - ix
        tgt[3, iy, ix] = gy - iy
        tgt[4, iy, ix] = 1.0
    return tgt


def _in_patch(m: np.ndarray, labels: list[Any], scale: float) -> list[tuple[float, float, float]]:
    """The labels' centres and sides carried into the patch by the affine map ``m``."""
    out = []
    for lab in labels:
        px, py = m @ np.array([*lab.centre, 1.0])
        out.append((px, py, lab.side * scale))  # numpy scalars: the heat is computed in float64
    return out


def det_sample(img: np.ndarray, labels: list[Label], rng: np.random.Generator,
               base: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One training patch (3 x PATCH x PATCH float) and its target (5 x P/4 x P/4:
    heat, log side, off x, off y, mask). ``base``: the photo's scale before the random
    zoom (default: the photo's longer side to DET_SIZE, as the reader's first look)."""
    h, w = img.shape[:2]
    base = DET_SIZE / max(h, w) if base is None else base
    scale = base * math.exp(rng.uniform(math.log(0.7), math.log(1.4)))
    angle = float(rng.uniform(0, 360))
    flip = bool(rng.random() < 0.5)
    # centre the patch on a die half the time, anywhere else otherwise
    if labels and rng.random() < 0.6:
        cx, cy = labels[int(rng.integers(len(labels)))].centre
        cx += rng.uniform(-80, 80)
        cy += rng.uniform(-80, 80)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = _affine(cx, cy, angle, scale, flip, PATCH / 2, PATCH / 2)
    grey = int(rng.integers(60, 200))
    patch = cv2.warpAffine(img, m, (PATCH, PATCH), flags=cv2.INTER_AREA if scale < 0.6 else cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(grey, grey, grey))
    patch = colour_jitter(patch, rng, hue=rng.random() < 0.5)
    tgt = centre_target(_in_patch(m, labels, scale))
    x = patch.astype(np.float32).transpose(2, 0, 1) / 255.0
    return x, tgt


def det_loss(out: Any, tgt: Any) -> Any:
    import torch

    heat = out[:, 0].clamp(1e-4, 1 - 1e-4)
    gt = tgt[:, 0]
    pos = tgt[:, 4]
    pos_loss = -((1 - heat) ** 2) * torch.log(heat) * pos
    neg_loss = -((1 - gt) ** 4) * heat**2 * torch.log(1 - heat) * (1 - pos)
    n = pos.sum().clamp(min=1)
    focal = (pos_loss.sum() + neg_loss.sum()) / n
    size = (torch.abs(out[:, 1] - tgt[:, 1]) * pos).sum() / n
    off = (torch.abs(out[:, 2:4] - tgt[:, 2:4]) * pos[:, None]).sum() / n
    return focal + 0.5 * size + off


def fit_centre_net(next_batch: Callable[[np.random.Generator], tuple[np.ndarray, np.ndarray]], steps: int,
                   seed: int, width: tuple[int, int, int, int, int] | None = None, minutes: float | None = None,
                   log: Any = print, tag: str = "", init: Path | None = None, lr: float = 4e-3) -> tuple[Any, int]:
    """The training loop every centre network shares (the d6, gem, d10 and object
    detectors): a :class:`~vision.train.nets_torch.CentreNet` (``width``: its default
    if None; ``init``: an exported one to fine-tune, :func:`load_folded`) fitted by AdamW
    with a one-cycle schedule peaking at ``lr`` on ``next_batch(rng)`` (inputs, targets),
    :func:`det_loss`; stops after ``steps`` or ``minutes`` of wall time. Torch's and
    numpy's draws both come from ``seed``. Returns the network (eval mode) and the
    number of steps done."""
    import torch

    from vision.train.nets_torch import CentreNet

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = CentreNet() if width is None else CentreNet(width)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.1)
    if init is None:
        net.train()
    else:
        load_folded(net, init)
        freeze_norms(net)
    t0 = time.time()
    avg = None
    done = 0
    for step in range(steps):
        x, t = next_batch(rng)
        loss = det_loss(net(torch.from_numpy(x)), torch.from_numpy(t))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        done = step + 1
        lv = float(loss.detach())
        avg = lv if avg is None else 0.98 * avg + 0.02 * lv
        if step % 50 == 0 or step == steps - 1:
            log(f"{tag}step {step}/{steps} loss {avg:.3f} ({time.time() - t0:.0f} s)")
        if minutes is not None and time.time() - t0 > minutes * 60:
            log(f"time limit at step {step}")
            break
    net.eval()
    return net, done


def train_detector(data: list[tuple[np.ndarray, list[Label]]], steps: int, seed: int, batch: int = 12, log: Any = print,
                   empty: Sequence[tuple[np.ndarray, float]] = (), empty_share: float = 0.0,
                   init: Path | None = None, lr: float = 4e-3, floors: float = 0.0) -> Any:
    """The die-centre detector (from scratch, or fine-tuned from the exported ``init``).
    ``empty``: photos with no die (and the scale to show each at, see
    :func:`candy_scenes`), a share ``empty_share`` of the patches: whatever is in them is
    no die. ``floors``: the share of the photos' patches whose light floor is painted as
    a random other floor (:func:`vision.floors.dice_floor`, :func:`vision.floors.random_floor`)."""
    from vision.floors import dice_floor, paint_floor, random_floor

    masks = [dice_floor(img, [lab.box for lab in labels]) for img, labels in data] if floors > 0 else []

    def next_batch(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        xs, ts = [], []
        for _ in range(batch):
            if empty and rng.random() < empty_share:
                img, base = empty[int(rng.integers(len(empty)))]
                x, t = det_sample(img, [], rng, base=base)
            else:
                k = int(rng.integers(len(data)))
                img, labels = data[k]
                if masks and rng.random() < floors:
                    colour, texture = random_floor(rng)
                    img = paint_floor(img, masks[k], colour, texture, rng)
                x, t = det_sample(img, labels, rng)
            xs.append(x)
            ts.append(t)
        return np.stack(xs), np.stack(ts)

    return fit_centre_net(next_batch, steps, seed, log=log, tag="det ", init=init, lr=lr)[0]


def candy_scenes(folder: Path, die_px: float = 20.0) -> list[tuple[np.ndarray, float]]:
    """The ``fit`` photos of the colour-candies set (its ``test`` photos are never used),
    each with the scale that shows its candies at ``die_px``, a die's side at the
    detector's input in the reader's first look at a 640 px photo: trays with no die for
    :func:`train_detector`. In a d6 step the detector proposed some forty candies per
    photo, each then classified (and refused) by the pip networks."""
    return [(img, die_px / float(np.median([lab.side for lab in labels]))) for img, labels in _candy_photos(folder)]


def _candy_photos(folder: Path) -> list[tuple[np.ndarray, list[Any]]]:
    """The ``fit`` photos of the colour-candies set ``folder`` that hold a labelled candy,
    with their labels (:class:`vision.gem_data.GemLabel`); none: a clear error."""
    from vision.gem_data import list_gem_photos, load_gem_labels

    out = []
    for ph in list_gem_photos(folder, "fit"):
        img = cv2.imread(str(ph.path))
        if img is None:
            continue
        labels = load_gem_labels(ph, img.shape[1], img.shape[0])
        if labels:
            out.append((np.asarray(img), labels))
    if not out:
        raise SystemExit(f"no labelled candy in the fit photos of {folder}")
    return out


# -- classifier -----------------------------------------------------------------------
def crop_at(img: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0, flip: bool = False) -> np.ndarray:
    """The CROP x CROP patch centred on (cx, cy) covering CROP_FACTOR * side."""
    scale = CROP / (CROP_FACTOR * side)
    m = _affine(cx, cy, angle, scale, flip, CROP / 2, CROP / 2)
    return cv2.warpAffine(img, m, (CROP, CROP), flags=cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def negatives_for(img: np.ndarray, labels: list[Label], rng: np.random.Generator, n: int,
                  extra: Sequence[tuple[float, float, float]] = ()) -> list[tuple[float, float, float]]:
    """'Not a die' spots (cx, cy, side): the detector's false peaks, crops well off a die,
    random background."""
    h, w = img.shape[:2]
    sides = [lab.side for lab in labels] or [40.0]
    cents = np.array([lab.centre for lab in labels]) if labels else np.zeros((0, 2))

    def far(cx: float, cy: float) -> bool:
        if not len(cents):
            return True
        d = np.hypot(cents[:, 0] - cx, cents[:, 1] - cy)
        return bool((d > 0.75 * np.array(sides)).all())

    out = [e for e in extra if far(e[0], e[1])]
    tries = 0
    while len(out) < n + len(extra) and tries < 50 * n:
        tries += 1
        side = float(rng.choice(sides)) * rng.uniform(0.7, 1.4)
        if labels and rng.random() < 0.4:  # beside a die (half on it, half off)
            lab = labels[int(rng.integers(len(labels)))]
            a = rng.uniform(0, 2 * math.pi)
            r = lab.side * rng.uniform(0.8, 1.3)
            cx, cy = lab.centre[0] + r * math.cos(a), lab.centre[1] + r * math.sin(a)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if far(cx, cy):
            out.append((float(cx), float(cy), side))
    return out


def jpeg_blur(c: np.ndarray, rng: np.random.Generator, p_jpeg: float) -> np.ndarray:
    """With probability ``p_jpeg``: a Gaussian blur (σ 0.5-1.8, half the time) then a JPEG
    round trip at quality 30-95 (what a cheap camera or a compressed stream does)."""
    if p_jpeg <= 0 or rng.random() >= p_jpeg:
        return c
    if rng.random() < 0.5:
        c = cv2.GaussianBlur(c, (0, 0), float(rng.uniform(0.5, 1.8)))
    ok, data = cv2.imencode(".jpg", c, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8) if ok else c


def camera_jitter(c: np.ndarray, rng: np.random.Generator, p: float) -> np.ndarray:
    """With probability ``p``: another camera's view of the crop: seen obliquely (the
    corners moved by up to 9 % of the crop, a tilt of about 25°), small (down to 14-30 px
    across and back: a die of 11-23 px), soft (σ 0.4-1.2 at the small size) and with a
    white-balance shift (each channel x 0.85-1.15)."""
    if p <= 0 or rng.random() >= p:
        return c
    n = c.shape[0]
    src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    dst = (src + rng.uniform(-0.09, 0.09, (4, 2)) * n).astype(np.float32)
    c = np.asarray(cv2.warpPerspective(c, cv2.getPerspectiveTransform(src, dst), (n, n),
                                       borderMode=cv2.BORDER_REPLICATE), np.uint8)
    k = int(rng.integers(14, 31))
    small = cv2.resize(c, (k, k), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), float(rng.uniform(0.4, 1.2)))
    c = cv2.resize(small, (n, n), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    c *= rng.uniform(0.85, 1.15, 3).astype(np.float32)[None, None, :]
    return np.asarray(np.clip(c, 0, 255), np.uint8)


def cls_sample(img: np.ndarray, cx: float, cy: float, side: float, rng: np.random.Generator, jitter: bool = True,
               p_jpeg: float = 0.0, p_camera: float = 0.0) -> np.ndarray:
    if jitter:
        cx += rng.normal(0, 0.07) * side
        cy += rng.normal(0, 0.07) * side
        side *= math.exp(rng.normal(0, 0.1))
    c = crop_at(img, cx, cy, side, float(rng.uniform(0, 360)), bool(rng.random() < 0.5))
    c = camera_jitter(c, rng, p_camera)
    return jpeg_blur(colour_jitter(c, rng), rng, p_jpeg)


def part_spots(labels: list[Label], rng: np.random.Generator, per_die: float,
               wide: float = 0.0) -> list[tuple[float, float, float]]:
    """'Not a die' spots that are parts of dice or far too wide (cx, cy, side): about
    ``per_die`` per die inside its face (the centre within 0.3 side of the die's, the side
    0.2-0.4 of the die's: one pip or a few, as a detector sees them on dice larger than
    it learnt), and ``wide`` per die around it, 2.8-4 times too large (a die that small in
    its crop was sized wrong, and its neighbours are in the crop too)."""
    out = []
    for lab in labels:
        cx, cy = lab.centre
        for _ in range(int(per_die) + int(rng.random() < per_die % 1)):
            u, v = rng.uniform(-0.3, 0.3, 2) * lab.side
            out.append((float(cx + u), float(cy + v), float(lab.side * rng.uniform(0.2, 0.4))))
        for _ in range(int(wide) + int(rng.random() < wide % 1)):
            u, v = rng.uniform(-0.25, 0.25, 2) * lab.side
            out.append((float(cx + u), float(cy + v), float(lab.side * rng.uniform(2.8, 4.0))))
    return out


def other_dice(n: int, seed: int, backgrounds: Sequence[np.ndarray]) -> np.ndarray:
    """``n`` rendered crops of numeral dice of other kinds (d10 / d8 / d12 / d20, their
    outlines; :mod:`vision.train.numeral_faces`, training fonts) on patches of the
    photos: "not a die" for the pip reader. Square bodies with a symbol or a letter are
    left out: the real photos hold d6 with a logo in place of a face, which must stay d6
    (with them in, a first fine-tuning lost 0.3 points of dice found)."""
    from vision.train.numeral_faces import font_sets, render_crop

    fonts = font_sets()[0]
    rng = np.random.default_rng(seed)
    out = np.empty((n, CROP, CROP, 3), np.uint8)
    for i in range(n):
        kind = ("d10", "d8", "d12", "d20")[int(rng.integers(4))]
        out[i] = render_crop(rng, int(rng.integers(10)), fonts, backgrounds, kind=kind)
    return out


def candy_crops(n: int, seed: int, folder: Path) -> np.ndarray:
    """``n`` crops of the coloured candies of the ``fit`` photos of ``folder`` (the
    colour-candies set; its ``test`` photos are never used), cut as the reader cuts a die
    (:func:`vision.pips.crop`), centre moved up to 15 % and side 0.8-1.3 times the candy's:
    "not a die" for the pip reader. Round glossy candies in a d6 step were read as 2s and
    3s, their highlights taken for pips: the networks had never seen one."""
    from vision.pips import crop

    rng = np.random.default_rng(seed)
    spots = [(img, *lab.centre, lab.side) for img, labels in _candy_photos(folder) for lab in labels]
    out = np.empty((n, CROP, CROP, 3), np.uint8)
    for i in range(n):
        img, cx, cy, side = spots[int(rng.integers(len(spots)))]
        dx, dy = rng.uniform(-0.15, 0.15, 2) * side
        out[i] = crop(img, cx + dx, cy + dy, side * rng.uniform(0.8, 1.3), CROP)
        if rng.random() < 0.5:
            out[i] = out[i][:, ::-1]
    return out


#: Where a d6 face's pips sit, in steps from its centre (faces 1..6).
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def pattern_spots(rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """Centres and radii (crop pixels) of a whole face's pattern of two to six pips,
    laid out as on a d6 seen at the size the reader crops it, turned at any angle.

    >>> spots = pattern_spots(np.random.default_rng(0))
    >>> len(spots), len({r for _, _, r in spots})  # a face of four pips, all of one size
    (4, 1)
    >>> all(0 < x < CROP and 0 < y < CROP for x, y, _ in spots)
    True
    """
    side = CROP / CROP_FACTOR * float(rng.uniform(0.75, 1.2))
    step = side * float(rng.uniform(0.15, 0.3))
    r = step * float(rng.uniform(0.25, 0.45))  # pips apart, as on a die
    turn = float(rng.uniform(0, 2 * math.pi))
    c, s = math.cos(turn), math.sin(turn)
    ox, oy = CROP / 2 + rng.uniform(-0.06, 0.06, 2) * CROP
    face = int(rng.integers(2, 7))
    return [(ox + step * (c * u - s * v), oy + step * (s * u + c * v), r) for u, v in PIP_LAYOUTS[face]]


def _dot(patch: np.ndarray, dx: np.ndarray, dy: np.ndarray, r: float, ink: np.ndarray,
         rng: np.random.Generator) -> np.ndarray:
    """``patch`` with a soft-edged round dot of ``ink`` and radius ``r`` painted on it
    (``dx``, ``dy``: each pixel's offset from the dot's centre)."""
    alpha = np.clip((r - np.hypot(dx, dy)) / rng.uniform(0.7, 2.0) + 0.5, 0, 1)[..., None]
    return np.asarray(patch * (1 - alpha) + alpha * np.clip(ink, 0, 255).astype(np.float32)[None, None, :])


def dot_crops(n: int, seed: int, backgrounds: Sequence[np.ndarray], flat: float = 0.5,
              patterns: float = 0.0) -> np.ndarray:
    """``n`` crops of "not a die" that look like pips: one to four round dots (dark,
    light or coloured, radius 5-14 % of the crop, soft-edged) on a patch of tray floor or
    table with no die edge in view (a photo's patch blurred flat, or, for a share ``flat``
    of them, a plain level with a gradient and grain). A pip, or two spots side by side,
    is never a die. A share ``patterns`` of the crops holds a whole face's pattern of
    pips instead (:func:`pattern_spots`): a pattern with no die body is no die either."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, CROP, CROP, 3), np.uint8)
    yy, xx = np.mgrid[0:CROP, 0:CROP].astype(np.float32)
    for i in range(n):
        if backgrounds and rng.random() >= flat:
            bg = backgrounds[int(rng.integers(len(backgrounds)))]
            y, x = int(rng.integers(0, bg.shape[0] - CROP)), int(rng.integers(0, bg.shape[1] - CROP))
            patch = cv2.GaussianBlur(bg[y:y + CROP, x:x + CROP], (0, 0), 12.0).astype(np.float32)
        else:
            level = rng.uniform(30, 235, 3).astype(np.float32) if rng.random() < 0.4 else \
                np.full(3, rng.uniform(30, 235), np.float32)
            patch = np.broadcast_to(level, (CROP, CROP, 3)).astype(np.float32)
            patch = patch * (1 + 0.15 * ((xx - CROP / 2) * rng.uniform(-1, 1) + (yy - CROP / 2) * rng.uniform(-1, 1)) / CROP)[..., None]
        patch += np.asarray(rng.normal(0, rng.uniform(1, 6), patch.shape), np.float32)
        mean = float(np.mean(patch))
        if patterns > 0 and rng.random() < patterns:  # a face's pattern, its pips of one ink, in plain view
            kind = rng.random()
            if kind < 0.3:  # a colour
                ink = rng.uniform(0, 255, 3)
            elif kind < 0.65:  # black or white, far from the floor
                ink = np.full(3, rng.uniform(0, 60) if mean > 128 else rng.uniform(195, 255))
            else:  # a little darker or lighter than the floor (dark pips on felt)
                ink = np.full(3, mean + rng.choice((-1, 1)) * rng.uniform(25, 100))
            spots = pattern_spots(rng)
            if rng.random() < 0.4:  # and a loose dot or two beside or over it
                spots += [(*(rng.uniform(0.1, 0.9, 2) * CROP), spots[0][2] * float(rng.uniform(0.7, 1.5)))
                          for _ in range(int(rng.integers(1, 3)))]
            for cx, cy, r in spots:
                patch = _dot(patch, xx - cx, yy - cy, r, ink, rng)
        else:  # one to four loose dots
            for _ in range(int(rng.integers(1, 5))):
                r = float(rng.uniform(0.05, 0.14)) * CROP
                cx, cy = rng.uniform(0.2, 0.8, 2) * CROP
                ink = rng.uniform(0, 255, 3) if rng.random() < 0.3 else np.full(3, 255 - mean + rng.uniform(-30, 30))
                patch = _dot(patch, xx - cx, yy - cy, r, ink, rng)
        out[i] = np.clip(patch, 0, 255).astype(np.uint8)
    return out


def _cls_batch(data: list[tuple[np.ndarray, list[Label]]], dice: list[tuple[int, Label]],
               neg: list[tuple[int, tuple[float, float, float]]], n_neg: int, others: np.ndarray | None,
               rng: np.random.Generator, p_jpeg: float, p_camera: float = 0.0,
               other_share: float = 0.5, candies: np.ndarray | None = None,
               candy_share: float = 0.0, patterns: np.ndarray | None = None,
               pattern_share: float = 0.0) -> tuple[list[np.ndarray], list[int]]:
    """One batch of the classifier: the drawn ``dice``, then ``n_neg`` "not a die" crops
    (a share ``other_share`` of them from ``others``, rendered dice of other kinds and
    dots, and a share ``candy_share`` from ``candies``, when given), then ``n_neg`` x
    ``pattern_share`` more from ``patterns`` (pips with no die), when given: on top of
    the others, so that no other negative is seen less often."""
    xs, ys = [], []
    for i, lab in dice:
        cx, cy = lab.centre
        xs.append(cls_sample(data[i][0], cx, cy, lab.side, rng, p_jpeg=p_jpeg, p_camera=p_camera))
        ys.append(lab.face - 1)
    n_other = 0 if others is None or not len(others) else int(round(n_neg * other_share))
    n_candy = 0 if candies is None or not len(candies) else int(round(n_neg * candy_share))
    for k in rng.integers(len(neg), size=n_neg - n_other - n_candy) if neg else []:
        i, (cx, cy, side) = neg[k]
        xs.append(cls_sample(data[i][0], cx, cy, side, rng, p_jpeg=p_jpeg, p_camera=p_camera))
        ys.append(NOT_A_DIE)
    n_pattern = 0 if patterns is None or not len(patterns) else int(round(n_neg * pattern_share))
    for pool, count in ((others, n_other), (candies, n_candy), (patterns, n_pattern)):
        if count and pool is not None:
            for k in rng.integers(len(pool), size=count):
                xs.append(np.ascontiguousarray(np.rot90(pool[k], int(rng.integers(4)))))
                ys.append(NOT_A_DIE)
    return xs, ys


def load_folded(net: Any, path: Path) -> Any:
    """Load into ``net`` (a :class:`~vision.train.nets_torch.CropNet` or ``CentreNet``)
    the weights of its exported ONNX file. The export folds each BatchNorm into its
    convolution, so each BatchNorm is set to the identity plus the folded bias and must
    stay in eval mode while fine-tuning (see :func:`freeze_norms`). The ONNX convolutions
    are taken in graph order, the network's in the order of its modules (the same for
    these networks); a linear layer is taken by name. Returns ``net``."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    mods = list(net.modules())
    pairs = [(m, mods[i + 1] if i + 1 < len(mods) and isinstance(mods[i + 1], torch.nn.BatchNorm2d) else None)
             for i, m in enumerate(mods) if isinstance(m, torch.nn.Conv2d)]
    if len(pairs) != len(convs):
        raise ValueError(f"{path}: {len(convs)} convolutions, {type(net).__name__} has {len(pairs)}")

    def put(param: Any, name: str) -> None:
        value = torch.from_numpy(weights[name].copy())
        if tuple(param.shape) != tuple(value.shape):
            raise ValueError(f"{path}: {name} is {tuple(value.shape)}, the network wants {tuple(param.shape)}")
        param.copy_(value)

    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs):
            put(conv.weight, node.input[1])
            if bn is None:
                put(conv.bias, node.input[2])
                continue
            bn.weight.fill_(1.0)
            put(bn.bias, node.input[2])
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for name, mod in net.named_modules():
            if isinstance(mod, torch.nn.Linear):
                put(mod.weight, f"{name}.weight")
                put(mod.bias, f"{name}.bias")
    return net


def freeze_norms(net: Any) -> None:
    """Training mode with every BatchNorm in eval mode (a network from :func:`load_folded`)."""
    import torch

    net.train()
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


def crop_net_from_onnx(path: Path, n_classes: int = 7) -> Any:
    """A :class:`~vision.train.nets_torch.CropNet` holding the weights of an exported
    classifier (:func:`load_folded`)."""
    from vision.train.nets_torch import CropNet

    return load_folded(CropNet(n_classes), path)


def train_classifier(data: list[tuple[np.ndarray, list[Label]]], negs: list[list[tuple[float, float, float]]], steps: int, seed: int,
                     batch: int = 64, log: Any = print, norm: str = "none", p_jpeg: float = 0.0,
                     others: np.ndarray | None = None, init: Path | None = None, lr: float = 3e-3,
                     p_camera: float = 0.0, other_share: float = 0.5, candies: np.ndarray | None = None,
                     candy_share: float = 0.0, patterns: np.ndarray | None = None,
                     pattern_share: float = 0.0) -> Any:
    """Train one crop classifier (from scratch, or fine-tune the exported ``init`` with
    its BatchNorms frozen in eval mode)."""
    import torch
    import torch.nn.functional as F

    from vision.train.nets_torch import CropNet

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    dice = [(i, lab) for i, (_, labels) in enumerate(data) for lab in labels]
    hard = np.ones(len(dice), np.float64)  # running loss per die: hard dice are drawn more
    neg = [(i, n) for i, ns in enumerate(negs) for n in ns]
    net = CropNet() if init is None else crop_net_from_onnx(init)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=2e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.1)
    if init is not None:
        freeze_norms(net)
    n_neg = batch // 5
    t0 = time.time()
    avg = None
    for step in range(steps):
        p = 0.5 / len(dice) + 0.5 * hard / hard.sum()
        idx = rng.choice(len(dice), size=batch - n_neg, p=p / p.sum())
        xs, ys = _cls_batch(data, [dice[k] for k in idx], neg, n_neg, others, rng, p_jpeg, p_camera, other_share,
                            candies, candy_share, patterns, pattern_share)
        x = torch.from_numpy(to_blob(np.stack(xs), norm))  # as at run time
        y = torch.tensor(ys)
        out = net(x)
        losses = F.cross_entropy(out, y, reduction="none", label_smoothing=0.02)
        loss = losses.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        lv = losses.detach().numpy()
        for j, k in enumerate(idx):
            hard[k] = 0.7 * hard[k] + 0.3 * float(lv[j])
        lv0 = float(loss.detach())
        avg = lv0 if avg is None else 0.98 * avg + 0.02 * lv0
        if step % 50 == 0 or step == steps - 1:
            log(f"cls step {step}/{steps} loss {avg:.3f} ({time.time() - t0:.0f} s)")
    net.eval()
    return net


# -- export ---------------------------------------------------------------------------
def export(net: Any, shape: tuple[int, int, int, int], path: Path) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (torch.zeros(shape),), str(path), opset_version=11,
                      input_names=["input"], output_names=["output"], dynamo=False)
    # check that cv2.dnn reads it and agrees with torch
    x = np.random.default_rng(0).random(shape, dtype=np.float32)
    cvnet = cv2.dnn.readNetFromONNX(str(path))
    cvnet.setInput(x)
    got = cvnet.forward()
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    err = float(np.abs(got - want).max())
    if err > 1e-3:
        raise RuntimeError(f"{path}: cv2.dnn differs from torch by {err}")


def cls_name(k: int) -> str:
    """File of the k-th (0-based) classifier of the ensemble."""
    return "d6_classifier.onnx" if k == 0 else f"d6_classifier_{k + 1}.onnx"


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", type=Path, help="labelled photo folder (YOLO labels)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "models")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--split", default="fit", help="photos to learn from (default: fit)")
    ap.add_argument("--steps-det", type=int, default=2400)
    ap.add_argument("--steps-cls", type=int, default=5000)
    ap.add_argument("--extra", type=Path, action="append", default=[],
                    help="another labelled folder to learn from, every photo of it (e.g. synthetic "
                         "renders of vision.synth in the same YOLO format); repeatable")
    ap.add_argument("--skip-det", action="store_true",
                    help="keep the detector already in --out; train the classifier only")
    ap.add_argument("--detector", type=Path, default=None,
                    help="use this trained detector (ONNX) and train the classifiers only "
                         "(cross-validation folds, see vision.train.cv)")
    ap.add_argument("--classifiers", type=int, default=2,
                    help="classifiers in the ensemble (seeds SEED, SEED+1, ...; default 2)")
    ap.add_argument("--only-cls", type=int, default=0, metavar="K",
                    help="train only the K-th classifier (1-based), keep the others")
    ap.add_argument("--normalise", action="store_true",
                    help="stretch each crop to a standard contrast before the classifier "
                         "(vision.pips.to_blob; recorded as input_norm in d6.json)")
    ap.add_argument("--labels-as-given", action="store_true",
                    help="learn from the label files as they are, without vision.labelled.LABEL_FIXES")
    ap.add_argument("--jpeg", type=float, default=0.0, metavar="P",
                    help="share of the crops blurred (half of them) and JPEG-compressed at quality 30-95 "
                         "(default 0: as the committed models before the JPEG retraining)")
    ap.add_argument("--other-dice", type=int, default=0, metavar="N",
                    help="render N crops of dice of other kinds (vision.train.numeral_faces) as "
                         "'not a die' (half of the not-a-die share of each batch)")
    ap.add_argument("--finetune", type=Path, default=None, metavar="DIR",
                    help="start each classifier (and the detector, when it is trained here) from the one of "
                         "the same name in DIR (e.g. vision/models) instead of from scratch")
    ap.add_argument("--renders", type=int, default=0, metavar="N",
                    help="learn also from N rendered trays of plain white d6 (train_d6.render_set; default 0)")
    ap.add_argument("--only-det", action="store_true", help="train (or fine-tune) the detector only")
    ap.add_argument("--floors", type=float, default=0.0,
                    help="share of the detector's photo patches whose light floor is painted as another floor "
                         "(vision.floors; default 0)")
    ap.add_argument("--lr-det", type=float, default=None,
                    help="peak learning rate of the detector (default 4e-3; 1e-3 with --finetune)")
    ap.add_argument("--lr", type=float, default=None,
                    help="peak learning rate of the classifiers (default 3e-3; 6e-4 with --finetune)")
    ap.add_argument("--parts", type=float, default=0.0, metavar="N",
                    help="'not a die' crops of parts of dice (pips, a face's corner: N per die) and the "
                         "detector's peaks on pips of dice seen larger than it learnt (default 0)")
    ap.add_argument("--wide", type=float, default=0.0, metavar="N",
                    help="'not a die' crops 2.8-4 times a die's side around it, N per die (default 0)")
    ap.add_argument("--dots", type=int, default=0, metavar="N",
                    help="draw N crops of one to four pip-like dots on flat tray or table as 'not a die' "
                         "(with --other-dice, they share half of the not-a-die share of each batch)")
    ap.add_argument("--dots-flat", type=float, default=0.5, metavar="P",
                    help="share of the dot crops on a plain level instead of a blurred patch of a photo")
    ap.add_argument("--patterns", type=int, default=0, metavar="N",
                    help="draw N crops of a whole d6 face's pattern of two to six pips with no die around it "
                         "(a printed face, a card; train_d6.pattern_spots) as 'not a die', added to each "
                         "batch on top of the other negatives (--pattern-share; default 0)")
    ap.add_argument("--pattern-share", type=float, default=0.5, metavar="P",
                    help="pattern crops added to each batch, as a share of its not-a-die crops (default 0.5, "
                         "as the committed classifiers)")
    ap.add_argument("--pattern-flat", type=float, default=0.5, metavar="P",
                    help="share of the pattern crops on a plain level (a felt, a printed mat) instead of a "
                         "blurred patch of a photo (default 0.5)")
    ap.add_argument("--other-share", type=float, default=0.5, metavar="P",
                    help="share of each batch's not-a-die crops taken from the rendered ones "
                         "(--other-dice, --dots; default 0.5)")
    ap.add_argument("--candies", type=Path, default=None, metavar="DIR",
                    help="the colour-candies folder: crops of its fit photos' candies as 'not a die' "
                         "(train_d6.candy_crops); and, when the detector is trained here, its fit photos as "
                         "trays with no die (train_d6.candy_scenes)")
    ap.add_argument("--candy-crops", type=int, default=3000, metavar="N",
                    help="how many candy crops to cut (default 3000)")
    ap.add_argument("--candy-share", type=float, default=0.25, metavar="P",
                    help="share of each batch's not-a-die crops taken from the candy crops, and of the "
                         "detector's patches taken from the candy photos (default 0.25)")
    ap.add_argument("--camera", type=float, default=0.0, metavar="P",
                    help="share of the crops seen as by another camera: oblique, small, soft, another "
                         "white balance (train_d6.camera_jitter; default 0)")
    ap.add_argument("--smoke", action="store_true", help="one step of each on two photos (tests)")
    return ap


def zoomed_parts(detector: Any, img: np.ndarray, labels: list[Label]) -> list[tuple[float, float, float]]:
    """The detector's peaks on ``img`` scaled so that its dice are 40 and 55 px at the
    network's input (larger than it learnt: it marks pips) that are no die: under 0.6 of
    the nearest die's side, or away from every die."""
    if not labels:
        return []
    med = float(np.median([lab.side for lab in labels]))
    cents = np.array([lab.centre for lab in labels])
    sides = np.array([lab.side for lab in labels])
    out = []
    for px in (40.0, 55.0):
        for c in detector.detect(img, scale=px / med):
            d = np.hypot(cents[:, 0] - c.cx, cents[:, 1] - c.cy)
            j = int(np.argmin(d))
            if c.side < 0.6 * sides[j] or d[j] > 0.75 * sides[j]:
                out.append((c.cx, c.cy, c.side))
    return out


def mine_negatives(det_path: Path, data: list[tuple[np.ndarray, list[Label]]],
                   seed: int, parts: float = 0.0, wide: float = 0.0) -> list[list[tuple[float, float, float]]]:
    """'Not a die' spots of each photo: the exported detector's own false peaks (cv2.dnn,
    as at run time), beside dice and random background (:func:`negatives_for`); with
    ``parts``, also parts of dice (:func:`part_spots`, ``parts`` per die, and ``wide``
    far too wide crops) and the peaks the detector gives on pips of dice larger than it
    learnt (:func:`zoomed_parts`)."""
    from vision.detect import DiceDetector

    detector = DiceDetector(det_path, det_size=DET_SIZE, stride=STRIDE, threshold=0.1, engine="default",
                            keep_parts=True)
    rng = np.random.default_rng(seed)
    negs = []
    for img, labels in data:
        peaks = sorted(detector.detect(img), key=lambda c: -c.score)
        false = [(c.cx, c.cy, c.side) for c in peaks[: 3 * len(labels) + 12]]  # far() drops the dice
        negs.append(negatives_for(img, labels, rng, n=max(8, 2 * len(labels)), extra=false))
        if parts > 0 or wide > 0:
            negs[-1] += part_spots(labels, rng, parts, wide)
        if parts > 0:
            negs[-1] += zoomed_parts(detector, img, labels)
    return negs


def _write_meta(args: argparse.Namespace, names: list[str], photos: int, steps_det: int, steps_cls: int,
                seconds: float) -> None:
    meta_path = args.out / "d6.json"
    meta: dict[str, Any] = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    kept_det = args.skip_det or args.detector
    meta.update({
        "det_size": DET_SIZE, "stride": STRIDE, "crop": CROP, "crop_factor": CROP_FACTOR,
        "classes": [1, 2, 3, 4, 5, 6, None],
        "classifiers": names, "input_norm": "crop" if args.normalise else "none",
        "trained": {"split": args.split, "seed": args.seed,
                    "steps_det": meta.get("trained", {}).get("steps_det") if kept_det else steps_det,
                    "steps_cls": steps_cls, "classifiers": args.classifiers, "photos": photos,
                    "extra": [str(e) for e in args.extra], "jpeg": args.jpeg, "other_dice": args.other_dice,
                    "parts": args.parts, "wide": args.wide, "camera": args.camera,
                    "dots": args.dots, "dots_flat": args.dots_flat, "patterns": args.patterns,
                    "pattern_share": args.pattern_share, "pattern_flat": args.pattern_flat, "other_share": args.other_share,
                    "candies": None if args.candies is None else {"folder": args.candies.name, "crops": args.candy_crops,
                                                                  "share": args.candy_share},
                    "finetune": None if args.finetune is None else str(args.finetune), "lr": args.lr,
                    "lr_det": args.lr_det, "renders": args.renders, "floors": args.floors,
                    "label_fixes": not args.labels_as_given, "seconds": round(seconds)},
    })
    meta.setdefault("thresholds", {"det": 0.3, "not_a_die": 0.5, "confidence": 0.9, "margin": 0.5})
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")


def _detector(args: argparse.Namespace, data: list[tuple[np.ndarray, list[Label]]], steps: int) -> Path | None:
    """The detector to mine hard negatives with: trained and exported now, or the one
    given (None, with a message, when it is missing)."""
    det_path: Path = args.detector or args.out / "d6_detector.onnx"
    if args.skip_det or args.detector:
        if not det_path.exists():
            print(f"--skip-det: no {det_path}", file=sys.stderr)
            return None
        return det_path
    empty = [] if args.candies is None else candy_scenes(args.candies)
    init = None if args.finetune is None else args.finetune / "d6_detector.onnx"
    det = train_detector(data, steps, args.seed, batch=2 if args.smoke else 12, empty=empty,
                         empty_share=args.candy_share if empty else 0.0, init=init,
                         lr=args.lr_det or (1e-3 if init is not None else 4e-3), floors=args.floors)
    export(det, (1, 3, DET_SIZE, DET_SIZE), det_path)
    return det_path


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)

    import torch

    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    random.seed(args.seed)
    np.random.seed(args.seed)
    t0 = time.time()
    data = load_set(args.photos, args.split, limit=2 if args.smoke else None, fixes=not args.labels_as_given)
    for folder in args.extra:
        data += load_set(folder, "all", fixes=not args.labels_as_given)
    if args.renders:
        data += render_set(2 if args.smoke else args.renders, 700_000 + 1000 * args.seed)
    if not data:
        print(f"no labelled photos in {args.photos}", file=sys.stderr)
        return 1
    steps_det, steps_cls = (1, 1) if args.smoke else (args.steps_det, args.steps_cls)
    print(f"{len(data)} photos, {sum(len(l) for _, l in data)} dice", flush=True)

    det_path = _detector(args, data, steps_det)
    if det_path is None:
        return 1
    if args.only_det:
        _write_meta(args, [], len(data), steps_det, 0, time.time() - t0)
        print(f"detector done in {time.time() - t0:.0f} s -> {det_path}")
        return 0
    negs = mine_negatives(det_path, data, args.seed + 2, parts=args.parts, wide=args.wide)
    print(f"{sum(len(n) for n in negs)} not-a-die spots ({time.time() - t0:.0f} s)", flush=True)
    floors = [img for img, _ in data[:: max(1, len(data) // 40)]]  # about 40 photos: the drawn crops' floors
    others = None
    if args.other_dice:
        others = other_dice(8 if args.smoke else args.other_dice, args.seed + 3, floors)
        print(f"{len(others)} other-kind dice rendered ({time.time() - t0:.0f} s)", flush=True)
    if args.dots:
        dots = dot_crops(8 if args.smoke else args.dots, args.seed + 4, floors, flat=args.dots_flat)
        others = dots if others is None else np.concatenate([others, dots])
        print(f"{len(dots)} dot crops drawn ({time.time() - t0:.0f} s)", flush=True)
    patterns = None
    if args.patterns:
        patterns = dot_crops(8 if args.smoke else args.patterns, args.seed + 6, floors, flat=args.pattern_flat,
                             patterns=1.0)
        print(f"{len(patterns)} pip patterns drawn ({time.time() - t0:.0f} s)", flush=True)
    candies = None
    if args.candies is not None:
        candies = candy_crops(8 if args.smoke else args.candy_crops, args.seed + 5, args.candies)
        print(f"{len(candies)} candy crops cut ({time.time() - t0:.0f} s)", flush=True)
    names = [cls_name(k) for k in range(args.classifiers)]
    for k, name in enumerate(names):
        if args.only_cls and k + 1 != args.only_cls:
            continue
        cls = train_classifier(data, negs, steps_cls, args.seed + k, batch=8 if args.smoke else 64,
                               norm="crop" if args.normalise else "none", p_jpeg=args.jpeg, others=others,
                               init=None if args.finetune is None else args.finetune / name,
                               lr=args.lr or (6e-4 if args.finetune else 3e-3), p_camera=args.camera,
                               other_share=args.other_share, candies=candies,
                               candy_share=args.candy_share if candies is not None else 0.0,
                               patterns=patterns, pattern_share=args.pattern_share)
        export(cls, (1, 3, CROP, CROP), args.out / name)
    _write_meta(args, names, len(data), steps_det, steps_cls, time.time() - t0)
    print(f"done in {time.time() - t0:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
