"""Train the numeral-die centre detector (d10 first) on synthetic trays; export to ONNX.

Reproducible (every random draw comes from ``--seed``)::

    pip install '.[train]'
    nice -n 10 python -m vision.train.train_d10_detector --shared ../shared/data --out vision/models

Same pipeline as the d6 die-centre detector (:mod:`vision.train.train_d6`:
:class:`~vision.train.nets_torch.CentreNet`, CenterNet focal loss on the centre heat, L1
on the log side and the sub-cell offset, read at run time by
:func:`vision.detect.centre_peaks`), but on renders only, since no real d10 photo exists:

- scenes of :func:`vision.synth.render_tray` (seeds ``0 .. --scenes``) holding a pool of
  5-15 d10, half of them touching, plus 0-6 pip d6 and 0-5 gems that are *not* targets;
- the objects are cut out of the render by its empty-tray frame (the difference, shadows
  included) and laid on another floor: a patch of a real photo of the ``fit`` split
  (the d6 tray photos: their real d6 are negatives; the candy photos) or a drawn one
  (plain, noise, wood-like stripes, glitter); the synthetic felt itself is never a
  training floor (it is held out for the benchmark);
- per sample: scale so the dice are 2-15 % of the detector's input, any rotation,
  flips, recoloured dice (inverted, tinted), light and white balance, blur, noise,
  JPEG 30-95;
- a quarter of the samples are real photos with no d10 at all (empty heat).

It writes ``d10_detector.onnx`` (opset 11, ``cv2.dnn``) and ``d10_detector.json``.
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

from vision.labelled import split_of
from vision.train.train_d6 import STRIDE, centre_target, colour_jitter, export, fit_centre_net, jpeg_blur

PATCH = 256
DET_SIZE = 320
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")

Scene = tuple[np.ndarray, np.ndarray, list[tuple[float, float, float]]]  # image, alpha, d10 (cx, cy, side)


def real_photos(shared: Path, split: str) -> list[Path]:
    """The d6 tray photos and candy photos of ``split`` (``fit`` or ``test``, by
    :func:`vision.labelled.split_of` on each folder's sorted list)."""
    out: list[Path] = []
    for folder in (shared / "tray-dice-photos", shared / "colour-candies" / "images"):
        paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        out += [p for i, p in enumerate(paths) if split_of(i) == split]
    return out


def scene_objects(rng: np.random.Generator, kind: str = "d10") -> tuple[list[tuple[str, int | str]], int]:
    """A pool of 5-15 ``kind`` (a numeral kind the renderer draws: d4, d10, d12), 0-6 d6
    and 0-5 gems; how many pairs touch."""
    from vision.catalog import FACES

    n = int(rng.integers(5, 16))
    top = len(FACES[kind])
    objs: list[tuple[str, int | str]] = [(kind, int(rng.integers(1, top + 1))) for _ in range(n)]
    objs += [("d6", int(rng.integers(1, 7))) for _ in range(int(rng.integers(0, 7)))]
    gems = [g for g in FACES.get("gem", ())] or ["ete"]
    objs += [("gem", gems[int(rng.integers(len(gems)))]) for _ in range(int(rng.integers(0, 6)))]
    return objs, n // 2


def evenly(i: int, share: float) -> bool:
    """Whether item ``i`` of a series is among a ``share`` of them spread evenly.

    >>> [evenly(i, 0.5) for i in range(4)], sum(evenly(i, 0.25) for i in range(100))
    ([False, True, False, True], 25)
    """
    return int((i + 1) * share) > int(i * share)


def make_scene(seed: int, kind: str = "d10", coloured: bool = False) -> Scene | None:
    """One render (640 x 480, the tray floor only), its objects' alpha and its ``kind``
    dice (a pool of them, see :func:`scene_objects`); ``coloured``: each numeral die of a
    random colour (``SceneSpec.numeral_colours``)."""
    from vision.synth import SceneSpec, render_tray

    rng = np.random.default_rng(seed)
    objs, touching = scene_objects(rng, kind)
    spec = SceneSpec(size=(640, 480), markers=False, crop_to_tray=True, numeral_colours=coloured)
    try:
        sc = render_tray(seed, objects=objs, spec=spec, touching=touching)
    except ValueError:
        return None
    if sc.background is None:
        return None
    a, b = (cv2.GaussianBlur(x.astype(np.float32), (0, 0), 1.5) for x in (sc.image, sc.background))
    diff = np.abs(a - b).max(axis=2)  # blurred first: the two frames' noise differs
    alpha = np.clip((diff - 12.0) / 16.0, 0, 1)
    alpha = cv2.GaussianBlur(cv2.morphologyEx(alpha, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), (0, 0), 0.8)
    dice = [(lab.center[0], lab.center[1], float((lab.box[2] * lab.box[3]) ** 0.5)) for lab in sc.labels
            if lab.kind == kind]
    return sc.image, alpha, dice


def drawn_floor(rng: np.random.Generator, size: int) -> np.ndarray:
    """A floor drawn from nothing: plain, noise, wood-like stripes or glitter."""
    base = rng.uniform(10, 245, 3).astype(np.float32)
    img = np.empty((size, size, 3), np.float32)
    img[:] = base
    kind = int(rng.integers(4))
    if kind == 1:
        s = float(rng.uniform(0.5, 6))
        img += cv2.GaussianBlur(rng.standard_normal((size, size)).astype(np.float32), (0, 0), s)[..., None] * rng.uniform(5, 40)
    elif kind == 2:
        small = rng.normal(0, 1, (max(2, size // 30), max(2, size // 2))).astype(np.float32)
        grain = cv2.resize(small, (size, size))
        m = cv2.getRotationMatrix2D((size / 2, size / 2), float(rng.uniform(0, 180)), 1.5)
        img += cv2.warpAffine(grain, m, (size, size), borderMode=cv2.BORDER_REFLECT)[..., None] * rng.uniform(8, 30)
    elif kind == 3:
        sp = (rng.random((size, size)) < rng.uniform(0.005, 0.05)).astype(np.float32)
        img += cv2.GaussianBlur(sp, (0, 0), 0.7)[..., None] * rng.uniform(150, 400) * rng.uniform(0.6, 1, 3)
    return np.clip(img, 0, 255).astype(np.uint8)


def floor_patch(rng: np.random.Generator, photos: list[np.ndarray], size: int) -> np.ndarray:
    """A size x size floor: a random, randomly scaled patch of a real photo, or a drawn one."""
    if not photos or rng.random() < 0.3:
        return drawn_floor(rng, size)
    img = photos[int(rng.integers(len(photos)))]
    h, w = img.shape[:2]
    s = size / max(h, w) * math.exp(rng.uniform(math.log(0.8), math.log(3.0)))
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(0, 360)), s)
    m[0, 2] += size / 2 - w / 2 + rng.uniform(-0.3, 0.3) * w * s
    m[1, 2] += size / 2 - h / 2 + rng.uniform(-0.3, 0.3) * h * s
    return cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_REFLECT)


def recolour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The objects inverted (dark die, light numerals) and/or tinted."""
    f = img.astype(np.float32)
    if rng.random() < 0.4:
        f = 255.0 - f
    if rng.random() < 0.7:
        f = f * rng.uniform(0.35, 1.1, 3).astype(np.float32) + rng.uniform(-20, 40, 3).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def heat_target(points: list[tuple[float, float, float]]) -> np.ndarray:
    """5 x P/4 x P/4: heat, log side, off x, off y, mask (points in patch pixels)."""
    return centre_target(points, PATCH)


def sample(scenes: list[Scene], photos: list[np.ndarray], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One training patch (3 x PATCH x PATCH float) and its target."""
    floor = floor_patch(rng, photos, PATCH)
    points: list[tuple[float, float, float]] = []
    if rng.random() < 0.75:
        img, alpha, d10 = scenes[int(rng.integers(len(scenes)))]
        side = float(np.median([d[2] for d in d10])) if d10 else 40.0
        want = DET_SIZE * math.exp(rng.uniform(math.log(0.02), math.log(0.15)))  # die side at the input
        s = want / side
        h, w = img.shape[:2]
        if d10 and rng.random() < 0.7:
            cx, cy = d10[int(rng.integers(len(d10)))][:2]
            cx, cy = cx + rng.uniform(-2, 2) * side, cy + rng.uniform(-2, 2) * side
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        m = cv2.getRotationMatrix2D((cx, cy), float(rng.uniform(0, 360)), s)
        if rng.random() < 0.5:  # mirror
            m = (np.vstack([m, [0, 0, 1]]) @ np.array([[-1, 0, 2 * cx], [0, 1, 0], [0, 0, 1]], float))[:2]
        m[0, 2] += PATCH / 2 - cx
        m[1, 2] += PATCH / 2 - cy
        flags = cv2.INTER_AREA if s < 0.6 else cv2.INTER_LINEAR
        obj = cv2.warpAffine(recolour(img, rng), m, (PATCH, PATCH), flags=flags)
        a = cv2.warpAffine(alpha, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR)[..., None]
        floor = np.clip(floor * (1 - a) + obj * a, 0, 255).astype(np.uint8)
        for x, y, sd in d10:
            px, py = m @ np.array([x, y, 1.0])
            points.append((float(px), float(py), sd * s))
    patch = jpeg_blur(colour_jitter(floor, rng, hue=rng.random() < 0.5), rng, 0.7)
    return patch.astype(np.float32).transpose(2, 0, 1) / 255.0, heat_target(points)


def train(scenes: list[Scene], photos: list[np.ndarray], steps: int, seed: int, batch: int, minutes: float,
          log: Any = print) -> Any:
    def next_batch(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        xs, ts = zip(*(sample(scenes, photos, rng) for _ in range(batch)))
        return np.stack(xs), np.stack(ts)

    return fit_centre_net(next_batch, steps, seed, minutes=minutes, log=log)[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("vision/models"))
    ap.add_argument("--scenes", type=int, default=400)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--minutes", type=float, default=11.0, help="wall-time limit of the training loop")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--coloured", type=float, default=0.0, metavar="SHARE",
                    help="the share of scenes (spread evenly) whose d10 are each of a random colour with a "
                         "contrasting ink (SceneSpec.numeral_colours), besides the recoloured samples")
    a = ap.parse_args(argv)
    import torch

    torch.set_num_threads(a.threads)
    t0 = time.time()
    scenes = [s for s in (make_scene(i, coloured=evenly(i, a.coloured)) for i in range(a.scenes)) if s is not None]
    photos = [im for p in real_photos(a.shared, "fit") if (im := cv2.imread(str(p))) is not None]
    print(f"{len(scenes)} scenes, {len(photos)} real floors ({time.time() - t0:.0f} s)", flush=True)
    net = train(scenes, photos, a.steps, a.seed, a.batch, a.minutes, log=lambda s: print(s, flush=True))
    export(net, (1, 3, DET_SIZE, DET_SIZE), a.out / "d10_detector.onnx")
    cfg = {"kinds": ["d10"], "model": "d10_detector.onnx", "det_size": DET_SIZE, "stride": STRIDE,
           "threshold": 0.3,
           "trained": {"seed": a.seed, "scenes": len(scenes), "scene_seeds": [0, a.scenes], "real_floors": len(photos),
                       "steps": a.steps, "batch": a.batch, "coloured": a.coloured,
                       "torch": torch.__version__, "opencv": cv2.__version__,
                       "seconds": round(time.time() - t0),
                       "command": "python -m vision.train.train_d10_detector " + " ".join(
                           argv if argv is not None else sys.argv[1:])}}
    (a.out / "d10_detector.json").write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {a.out / 'd10_detector.onnx'} ({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# -- held-out trays (benchmark and test) ----------------------------------------------
HELD_OUT_SEED = 100_000  # scene seeds from here on: never trained on (training uses 0 .. --scenes)


def tray_frame(seed: int, floors: list[np.ndarray], size: tuple[int, int] = (640, 480), kind: str = "d10",
               always: bool = False, coloured: bool = False
               ) -> tuple[np.ndarray, list[tuple[float, float, float, int, bool]]] | None:
    """A frame of ``size`` with a render's objects (scene seed ``seed``) laid at a random
    scale (dice 3-12 % of the longer side) and angle on the render's own felt (half the
    time, or when ``floors`` is empty) or one of ``floors`` (every time with ``always``:
    another draw of the same seed); JPEG 40-95. Returns the frame
    and every d10 (every ``kind`` die: d4 and d12 are drawn too) in it: (cx, cy, side,
    value, whole in the frame). ``coloured``: each numeral die of a random colour with a
    contrasting ink (``SceneSpec.numeral_colours``), as players' sets come; otherwise
    the renderer's white d10 with black numbers.

    The benchmarks read seeds from :data:`HELD_OUT_SEED` on, on real photos of the
    ``test`` split (never a training floor); the numeral classifier learns from seeds
    of its own (``train_numerals.TRAY_SEED``) on the ``fit`` photos."""
    from vision.synth import SceneSpec, render_tray

    rng = np.random.default_rng(seed)
    objs, touching = scene_objects(rng, kind)
    try:
        sc = render_tray(seed, objects=objs, touching=touching,
                         spec=SceneSpec(size=(640, 480), markers=False, crop_to_tray=True, numeral_colours=coloured))
    except ValueError:
        return None
    if sc.background is None:
        return None
    made = make_scene(seed, kind, coloured)  # the same render: its alpha
    if made is None:
        return None
    img, alpha, _ = made
    W, H = size
    d10 = [lab for lab in sc.labels if lab.kind == kind]
    side = float(np.median([(lab.box[2] * lab.box[3]) ** 0.5 for lab in d10]))
    s = max(W, H) * float(rng.uniform(0.03, 0.12)) / side
    m = cv2.getRotationMatrix2D((320.0, 240.0), float(rng.uniform(0, 360)), s)
    m[0, 2] += W / 2 - 320.0
    m[1, 2] += H / 2 - 240.0
    if floors and (always or rng.random() < 0.5):
        floor = cv2.resize(floors[int(rng.integers(len(floors)))], (W, H), interpolation=cv2.INTER_AREA)
    else:
        floor = cv2.warpAffine(sc.background, m, (W, H), borderMode=cv2.BORDER_REFLECT)
    obj = cv2.warpAffine(img, m, (W, H))
    a = cv2.warpAffine(alpha, m, (W, H))[..., None]
    frame = np.clip(floor * (1 - a) + obj * a, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
    frame = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8) if ok else frame
    out = []
    for lab in d10:
        px, py = m @ np.array([lab.center[0], lab.center[1], 1.0])
        sd = (lab.box[2] * lab.box[3]) ** 0.5 * s
        whole = bool(sd / 2 <= px < W - sd / 2 and sd / 2 <= py < H - sd / 2)
        out.append((float(px), float(py), float(sd), int(lab.value), whole))
    return frame, out
