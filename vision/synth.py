"""Synthetic dice trays: rendered photos with ground truth, deterministic from a seed.

The renderer draws, on a dark felt tray seen by a slightly tilted camera:

* every die kind: white d6 with pips; numeral dice (green triangular d4, white kite d10,
  orange pentagonal d12, 6 and 9 underlined); the three blue péripétie dice, the yellow
  reward die and the red sentence die with a simple drawn symbol per face;
* every gem colour (round glass gems; the clear Temps gem is translucent with a bright
  rim);
* the four ArUco calibration markers (DICT_4X4_50, ids 0-3) at the tray corners;
* cast shadows, soft reflections on the tray, uneven and tinted light, blur and noise.

It returns the image and, for every object, its kind, value and box in image pixels,
and optionally the empty-tray frame under the same light (the calibration background).
Tests, benchmarks, the demo and the default enrollment all use it; nothing here is a test
stub: the same pixels go through the same reader as a camera frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import cv2
import numpy as np

from .catalog import FACES
from .markers import DEFAULT_LAYOUT, MarkerLayout, marker_image
from .synth_draw import GLYPHS, PIPS, SS, Pen, draw_numeral

__all__ = ["Label", "Scene", "SceneSpec", "render_tray", "render_single", "object_specs"]

WORLD_PX_PER_MM = 4.0

# BGR colours
BODY = {
    "d6": (228, 236, 240),
    "d4": (70, 150, 40),
    "d10": (232, 232, 226),
    "d12": (30, 120, 235),
    "lieu": (170, 85, 20),
    "adversaire": (170, 85, 20),
    "epreuve": (170, 85, 20),
    "recompense": (25, 200, 235),
    "sentence": (45, 40, 200),
}
INK = {
    "d6": (25, 25, 25),
    "d4": (245, 245, 245),
    "d10": (30, 30, 30),
    "d12": (245, 245, 245),
    "lieu": (245, 245, 245),
    "adversaire": (245, 245, 245),
    "epreuve": (245, 245, 245),
    "recompense": (25, 25, 25),
    "sentence": (245, 245, 245),
}
GEM_BGR = {
    "printemps": (50, 170, 40),
    "ete": (30, 205, 235),
    "automne": (40, 40, 195),
    "hiver": (200, 110, 25),
    "rupture": (150, 40, 135),
}
FELT = (58, 54, 52)
#: Opacity of the clear (temps) gem's interior over the floor (its rim and highlight are
#: brighter). Real clear glass can be fainter: ``benchmarks/bench_clear_gems.py --opacity``.
CLEAR_GEM_OPACITY = 0.42
TABLE = (70, 110, 150)


@dataclass(frozen=True)
class Label:
    """Ground truth of one rendered object: ``box`` is ``(x, y, w, h)`` in image pixels."""

    kind: str
    value: int | str
    box: tuple[int, int, int, int]
    center: tuple[float, float]
    polygon: tuple[tuple[float, float], ...] = ()


@dataclass
class Scene:
    """A rendered frame, its labels, the empty tray under the same light, and the
    homography from tray millimetres to image pixels."""

    image: np.ndarray
    labels: list[Label]
    background: np.ndarray | None
    tray_to_image: np.ndarray
    layout: MarkerLayout
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SceneSpec:
    """How hard a scene is. Defaults are "varied light": what the accuracy bar is set on."""

    size: tuple[int, int] = (1280, 960)
    markers: bool = True
    perspective: float = 0.035  # corner jitter, fraction of the frame
    rotation_deg: float = 8.0
    fill: float = 0.86  # tray width / frame width
    gain: tuple[float, float] = (0.75, 1.25)
    tint: float = 0.06
    gradient: float = 0.15
    reflections: bool = True
    reflection_gain: tuple[float, float] = (6.0, 20.0)  # added grey level at the glare's centre
    shadows: bool = True
    blur: tuple[float, float] = (0.2, 0.9)
    noise: tuple[float, float] = (1.5, 4.5)
    crop_to_tray: bool = False  # a phone photo of the tray floor only: no markers, no table
    #: Numeral dice (d4, d10, d12) each of a random body colour with a contrasting ink
    #: (:func:`numeral_colours`): red, blue, black, purple... with white, black or gold
    #: numbers, as players' sets come; otherwise the fixed :data:`BODY` and :data:`INK`.
    numeral_colours: bool = False


# --------------------------------------------------------------------------- shapes
def _body_polygon(kind: str, scale: float = 1.0) -> np.ndarray:
    """Outline of a die (mm, centred) seen from above."""
    if kind == "d4":
        r = 20.0 / math.sqrt(3) * scale
        pts = [(r * math.sin(a), -r * math.cos(a)) for a in (0, 2 * math.pi / 3, 4 * math.pi / 3)]
    elif kind == "d10":
        pts = [(0, -11.0 * scale), (9.0 * scale, -1.0 * scale), (0, 8.0 * scale), (-9.0 * scale, -1.0 * scale)]
    elif kind == "d12":
        r = 10.5 * scale
        pts = [(r * math.sin(2 * math.pi * i / 5), -r * math.cos(2 * math.pi * i / 5)) for i in range(5)]
    elif kind == "gem":
        r = 7.5 * scale
        pts = [(r * math.cos(2 * math.pi * i / 24), r * math.sin(2 * math.pi * i / 24)) for i in range(24)]
    else:  # cube
        h = 8.0 * scale
        pts = [(-h, -h), (h, -h), (h, h), (-h, h)]
    return np.array(pts, dtype=np.float64)


def _radius(kind: str) -> float:
    return float(np.max(np.linalg.norm(_body_polygon(kind), axis=1)))


#: The inks :func:`numeral_colours` paints numbers with (BGR): white, black, gold, silver.
NUMERAL_INKS = ((242, 242, 242), (28, 28, 28), (55, 175, 215), (200, 200, 195))


def _luma(bgr: Sequence[float]) -> float:
    return 0.114 * float(bgr[0]) + 0.587 * float(bgr[1]) + 0.299 * float(bgr[2])


def numeral_colours(rng: np.random.Generator) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A numeral die's body colour and ink (BGR), as players' dice come: any hue, from
    pale to nearly black, mostly saturated; the ink among :data:`NUMERAL_INKS`, at least
    70 grey levels from the body (white or gold on dark bodies, black on pale ones).

    >>> body, ink = numeral_colours(np.random.default_rng(3))
    >>> abs(_luma(body) - _luma(ink)) >= 70
    True
    """
    import colorsys

    for _ in range(50):
        h, sat = float(rng.uniform(0, 1)), float(rng.choice([rng.uniform(0, 0.25), rng.uniform(0.45, 1.0)], p=[0.2, 0.8]))
        val = float(rng.uniform(0.12, 0.95))
        r, g, b = colorsys.hsv_to_rgb(h, sat, val)
        body = (int(b * 255), int(g * 255), int(r * 255))
        inks = [k for k in NUMERAL_INKS if abs(_luma(k) - _luma(body)) >= 70]
        if inks:
            ink = inks[int(rng.integers(len(inks)))]
            return body, (int(ink[0]), int(ink[1]), int(ink[2]))
    return (35, 35, 35), (242, 242, 242)


def _sprite(kind: str, value: int | str, rng: np.random.Generator,
            colours: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """The object drawn at SS px/mm: (BGR float image, alpha in [0,1], half size in mm);
    ``colours``: a numeral die's body and ink drawn from it (:func:`numeral_colours`),
    apart from ``rng`` so that the scene is otherwise the same."""
    half = _radius(kind) + 2.0
    n = int(math.ceil(2 * half * SS))
    canvas = np.zeros((n, n, 3), np.uint8)
    alpha: np.ndarray = np.zeros((n, n), np.uint8)
    poly = _body_polygon(kind, scale=float(rng.uniform(0.95, 1.05)) if kind == "gem" else 1.0)
    if kind == "gem":
        poly[:, 1] *= float(rng.uniform(0.93, 1.0))
    pts = np.round((poly * SS + n / 2.0) * 16).astype(np.int32).reshape(-1, 1, 2)
    if kind in ("d4", "d10", "d12") or kind == "gem":
        cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA, shift=4)
    else:  # rounded cube corners
        cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA, shift=4)
        k = int(2.2 * SS) | 1
        alpha = cv2.GaussianBlur(alpha, (k, k), 0)
        alpha = np.where(alpha > 150, 255, 0).astype(np.uint8)
        alpha = cv2.GaussianBlur(alpha, (3, 3), 0)
    if kind == "gem":
        return _gem_sprite(str(value), alpha, rng) + (half,)
    body, ink = BODY[kind], INK[kind]
    if colours is not None and kind in ("d4", "d10", "d12"):
        body, ink = numeral_colours(colours)
    canvas[:] = body
    pen = Pen(canvas, ink)
    setattr(pen, "body", body)
    if kind == "d6":
        for px, py in PIPS[int(value)]:
            pen.circle(px * 4.4, py * 4.4, 2.0 if value == 1 else 1.55)
    elif kind in ("d4", "d10", "d12"):
        height = {"d4": 8.0, "d10": 7.5, "d12": 8.0}[kind]
        dy = {"d4": 1.4, "d10": -1.3, "d12": 0.0}[kind]
        draw_numeral(pen, int(value), height, dy, zero_for_ten=kind == "d10")
    else:
        GLYPHS[str(value)](pen)
    img = canvas.astype(np.float32)
    # rounded edges catch less light; a gentle shading gradient across the face
    edge = cv2.GaussianBlur(alpha, (0, 0), 1.0 * SS).astype(np.float32) / 255.0
    shade = 0.9 + 0.1 * np.clip(edge * 1.6, 0, 1)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    ang = rng.uniform(0, 2 * math.pi)
    shade *= 1.0 + 0.06 * (xx * math.cos(ang) + yy * math.sin(ang))
    img *= shade[..., None] * float(rng.uniform(0.92, 1.05))
    return img, alpha.astype(np.float32) / 255.0, half


def _gem_sprite(colour: str, alpha: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = alpha.shape[0]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    c = n / 2.0
    r = np.sqrt((xx - c) ** 2 + (yy - c) ** 2) / (7.5 * SS)
    hx, hy = c - 2.6 * SS, c - 2.6 * SS
    spec = np.exp(-(((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (1.1 * SS) ** 2))).astype(np.float32)
    a = alpha.astype(np.float32) / 255.0
    if colour == "temps":
        img = np.full((n, n, 3), 215.0, np.float32)
        img[..., 0] += 10
        rim = np.clip((r - 0.72) / 0.2, 0, 1) * (r < 1.05)
        a_out = a * (CLEAR_GEM_OPACITY + 0.45 * rim)  # translucent interior, brighter rim
        img = img * (1 - 0.5 * spec[..., None]) + 255.0 * spec[..., None] * 0.5
        a_out = np.maximum(a_out, a * spec * 0.95)
        return img, a_out
    body = np.array(GEM_BGR[colour], np.float32)
    shade = (1.12 - 0.35 * np.clip(r, 0, 1) ** 2)[..., None]
    img = body[None, None, :] * shade * float(rng.uniform(0.92, 1.05))
    img = img * (1 - spec[..., None]) + 250.0 * spec[..., None]
    return np.clip(img, 0, 255), a


# --------------------------------------------------------------------------- scene
def object_specs(rng: np.random.Generator, n: int, kinds: Sequence[str] | None = None) -> list[tuple[str, int | str]]:
    """``n`` random (kind, value) pairs; faces repeated on a physical die come up more often."""
    from .catalog import FACE_COUNTS

    pool = list(kinds) if kinds else list(FACES)
    out: list[tuple[str, int | str]] = []
    for _ in range(n):
        kind = pool[int(rng.integers(len(pool)))]
        faces = list(FACES[kind])
        w = np.array([FACE_COUNTS.get(kind, {}).get(f, 1) for f in faces], float)
        out.append((kind, faces[int(rng.choice(len(faces), p=w / w.sum()))]))
    return out


def _place(rng: np.random.Generator, specs: list[tuple[str, int | str]], layout: MarkerLayout,
           touching: int, markers: bool = True) -> list[tuple[float, float, float]] | None:
    w, h = layout.tray_mm
    keep = layout.paper_mm + layout.inset_mm + 4.0 if markers else -1e9
    placed: list[tuple[float, float, float]] = []
    radii = [_radius(k) for k, _ in specs]
    i = 0
    while i < len(specs):
        r = radii[i]
        if i < 2 * touching and i % 2 == 1 and specs[i][0] not in ("gem",) and specs[i - 1][0] not in ("gem",):
            # touch the previous die: side by side, same orientation
            x0, y0, a0 = placed[-1]
            d = (radii[i - 1] + r) * 0.74
            direction = a0 + float(rng.choice([0.0, 90.0, 180.0, 270.0]))
            x = x0 + d * math.cos(math.radians(direction))
            y = y0 + d * math.sin(math.radians(direction))
            cand = (x, y, a0 + float(rng.uniform(-4, 4)))
            ok = _free(cand, r, placed[:-1], radii, w, h, keep)
            if not ok:
                return None
            placed.append(cand)
            i += 1
            continue
        for _ in range(200):
            cand = (float(rng.uniform(10 + r, w - 10 - r)), float(rng.uniform(10 + r, h - 10 - r)),
                    float(rng.uniform(0, 360)))
            if _free(cand, r, placed, radii, w, h, keep):
                placed.append(cand)
                break
        else:
            return None
        i += 1
    return placed


def _free(c: tuple[float, float, float], r: float, placed: list[tuple[float, float, float]], radii: list[float],
          w: float, h: float, keep: float) -> bool:
    x, y, _ = c
    if not (8 + r <= x <= w - 8 - r and 8 + r <= y <= h - 8 - r):
        return False
    for cx, cy in ((0, 0), (w, 0), (w, h), (0, h)):
        if abs(x - cx) < keep + r and abs(y - cy) < keep + r:
            return False
    for j, (px, py, _) in enumerate(placed):
        if math.hypot(px - x, py - y) < radii[j] + r + 4.0:
            return False
    return True


def render_tray(seed: int, objects: Sequence[tuple[str, int | str]] | None = None, n_objects: int | None = None,
                kinds: Sequence[str] | None = None, spec: SceneSpec = SceneSpec(), touching: int = 0,
                layout: MarkerLayout = DEFAULT_LAYOUT, with_background: bool = True) -> Scene:
    """Render one tray photo. Deterministic: the same arguments give the same pixels.

    ``objects`` fixes what lies in the tray; otherwise ``n_objects`` (default 6-12) random
    objects of ``kinds``. ``touching`` makes that many pairs of dice touch side by side.
    """
    rng = np.random.default_rng(seed)
    specs = list(objects) if objects is not None else object_specs(
        rng, int(n_objects if n_objects is not None else rng.integers(6, 13)), kinds)
    placed = None
    for _ in range(20):
        placed = _place(rng, specs, layout, touching, spec.markers and not spec.crop_to_tray)
        if placed is not None:
            break
    if placed is None:
        raise ValueError("cannot place that many objects in the tray")
    tw, th = layout.tray_mm
    # the drawing is done ~1.3x finer than the camera will see it (at most 4 px/mm)
    cam_ppm = spec.size[0] / tw * (1.0 if spec.crop_to_tray else spec.fill)
    R = float(min(WORLD_PX_PER_MM, max(2.0, round(1.3 * cam_ppm * 2) / 2)))
    margin = 0.0 if spec.crop_to_tray else 18.0
    ww, wh = int((tw + 2 * margin) * R), int((th + 2 * margin) * R)
    tray_to_world = np.array([[R, 0, margin * R], [0, R, margin * R], [0, 0, 1]], np.float64)

    base = _base(rng, ww, wh, tray_to_world, layout, spec)
    refl = np.zeros((wh, ww), np.float32)
    if spec.reflections:
        for _ in range(int(rng.integers(1, 3))):
            cx, cy = rng.uniform(0.15, 0.85) * ww, rng.uniform(0.15, 0.85) * wh
            s = rng.uniform(18, 32) * R
            yy, xx = np.ogrid[0:wh, 0:ww]
            refl += float(rng.uniform(*spec.reflection_gain)) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s)).astype(np.float32)
    light = _light(rng, ww, wh, spec)
    world = base + refl[..., None]
    empty = world.copy()

    labels_world: list[tuple[str, int | str, np.ndarray]] = []
    shadow: np.ndarray = np.zeros((wh, ww), np.float32)
    sh_dx, sh_dy = (rng.uniform(-3.5, 3.5) * R, rng.uniform(1.0, 3.5) * R)
    sprites = []
    colours = np.random.default_rng([seed, 1]) if spec.numeral_colours else None
    for (kind, value), (x, y, ang) in zip(specs, placed):
        img, alpha, half = _sprite(kind, value, rng, colours)
        scale = R / SS
        n = img.shape[0]
        wx, wy = (tray_to_world @ np.array([x, y, 1.0]))[:2]
        M = cv2.getRotationMatrix2D((n / 2.0, n / 2.0), ang, scale)
        M[0, 2] += wx - n / 2.0
        M[1, 2] += wy - n / 2.0
        sprites.append((img, alpha, M, wx, wy, n * scale * 0.75 + 2))
        poly = _body_polygon(kind)
        rot = np.array([[math.cos(math.radians(-ang)), -math.sin(math.radians(-ang))],
                        [math.sin(math.radians(-ang)), math.cos(math.radians(-ang))]])
        pw = (poly @ rot.T) * R + np.array([wx, wy])
        labels_world.append((kind, value, pw))
    if spec.shadows:
        sh_k = float(rng.uniform(0.25, 0.45))
        for img, alpha, M, wx, wy, rad in sprites:
            x0, y0, x1, y1 = _roi(wx + sh_dx, wy + sh_dy, rad + 6 * R, ww, wh)
            Ms = M.copy()
            Ms[0, 2] += sh_dx - x0
            Ms[1, 2] += sh_dy - y0
            sub = cv2.warpAffine(alpha, Ms, (x1 - x0, y1 - y0))
            shadow[y0:y1, x0:x1] = np.maximum(shadow[y0:y1, x0:x1], sub)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 1.6 * R)
        world *= (1.0 - sh_k * shadow)[..., None]
    for img, alpha, M, wx, wy, rad in sprites:
        x0, y0, x1, y1 = _roi(wx, wy, rad, ww, wh)
        Mr = M.copy()
        Mr[0, 2] -= x0
        Mr[1, 2] -= y0
        a = cv2.warpAffine(alpha, Mr, (x1 - x0, y1 - y0))[..., None]
        im = cv2.warpAffine(img, Mr, (x1 - x0, y1 - y0))
        world[y0:y1, x0:x1] = world[y0:y1, x0:x1] * (1 - a) + im * a
    world *= light
    empty *= light

    # camera
    W, H = spec.size
    if spec.crop_to_tray:
        src = np.array([[0, 0], [ww, 0], [ww, wh], [0, wh]], np.float32)
        j = spec.perspective * 0.5
        dst: np.ndarray = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
        dst += (rng.uniform(-j, j, (4, 2)) * np.array([W, H])).astype(np.float32) * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * -1
        dst = np.clip(dst, [-W * 0.05, -H * 0.05], [W * 1.05, H * 1.05]).astype(np.float32)
        # keep the frame inside the tray: shrink inward
        dst = (dst - [W / 2, H / 2]) * 1.06 + [W / 2, H / 2]
        dst = dst.astype(np.float32)
    else:
        src = (tray_to_world @ np.array([[0, 0, 1], [tw, 0, 1], [tw, th, 1], [0, th, 1]], float).T).T[:, :2].astype(np.float32)
        fw = spec.fill * W
        fh = fw * th / tw
        if fh > 0.9 * H:
            fh = 0.9 * H
            fw = fh * tw / th
        rect = np.array([[-fw / 2, -fh / 2], [fw / 2, -fh / 2], [fw / 2, fh / 2], [-fw / 2, fh / 2]])
        turn = math.radians(float(rng.uniform(-spec.rotation_deg, spec.rotation_deg)))
        rect = rect @ np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]]).T
        rect += rng.uniform(-spec.perspective, spec.perspective, (4, 2)) * np.array([W, H])
        # the markers (and the table around them) stay inside the frame
        span = (rect.max(axis=0) - rect.min(axis=0)) / np.array([W, H])
        rect *= min(1.0, 0.93 / float(span.max()))
        rect -= (rect.max(axis=0) + rect.min(axis=0)) / 2
        dst = (rect + [W / 2, H / 2]).astype(np.float32)
    Hc = cv2.getPerspectiveTransform(src, dst)
    blur = float(rng.uniform(*spec.blur))
    noise = float(rng.uniform(*spec.noise))
    image = _camera(world, Hc, (W, H), rng, blur, noise)
    background = _camera(empty, Hc, (W, H), np.random.default_rng(seed + 7919), blur, noise) if with_background else None

    labels = []
    for kind, value, pw in labels_world:
        pc = cv2.perspectiveTransform(pw.reshape(-1, 1, 2), Hc).reshape(-1, 2)
        x0, y0 = pc.min(axis=0)
        x1, y1 = pc.max(axis=0)
        box = (int(math.floor(x0)), int(math.floor(y0)), int(math.ceil(x1 - x0)), int(math.ceil(y1 - y0)))
        labels.append(Label(kind, value, box, (float(pc[:, 0].mean()), float(pc[:, 1].mean())),
                            tuple((float(a), float(b)) for a, b in pc)))
    return Scene(image, labels, background, Hc @ tray_to_world, layout,
                 params={"seed": seed, "crop": spec.crop_to_tray})


def _roi(cx: float, cy: float, rad: float, ww: int, wh: int) -> tuple[int, int, int, int]:
    return (max(0, int(cx - rad)), max(0, int(cy - rad)), min(ww, int(cx + rad) + 1), min(wh, int(cy + rad) + 1))


def _base(rng: np.random.Generator, ww: int, wh: int, t2w: np.ndarray, layout: MarkerLayout,
          spec: SceneSpec) -> np.ndarray:
    R = t2w[0, 0]
    img = np.empty((wh, ww, 3), np.float32)
    img[:] = TABLE
    grain = cv2.resize(rng.normal(0, 1, (max(2, wh // 40), max(2, ww // 4))).astype(np.float32), (ww, wh))
    img += grain[..., None] * 8
    tw, th = layout.tray_mm
    x0, y0 = int(t2w[0, 2]), int(t2w[1, 2])
    x1, y1 = x0 + int(tw * R), y0 + int(th * R)
    felt = np.array(FELT, np.float32) * float(rng.uniform(0.9, 1.1))
    tex = cv2.GaussianBlur(rng.standard_normal((wh, ww), dtype=np.float32), (0, 0), 1.2) * 6
    img[y0:y1, x0:x1] = felt + tex[y0:y1, x0:x1, None]
    if spec.markers and not spec.crop_to_tray:
        for mid, (cx, cy) in enumerate(layout.marker_centres_mm()):
            paper = layout.marker_mm + 2 * layout.quiet_mm
            size_px = int(round(paper * R))
            m = marker_image(mid, int(round(layout.marker_mm * R)), border_px=int(round(layout.quiet_mm * R)))
            m = cv2.resize(m, (size_px, size_px), interpolation=cv2.INTER_NEAREST).astype(np.float32)
            px, py = int(round(x0 + cx * R - size_px / 2)), int(round(y0 + cy * R - size_px / 2))
            img[py:py + size_px, px:px + size_px] = (m * 0.92 + 8)[..., None]
    return img


def _light(rng: np.random.Generator, ww: int, wh: int, spec: SceneSpec) -> np.ndarray:
    yy, xx = np.mgrid[0:wh, 0:ww].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    grad = 1.0 + spec.gradient * ((xx / ww - 0.5) * math.cos(ang) + (yy / wh - 0.5) * math.sin(ang)) * 2
    gain = float(rng.uniform(*spec.gain))
    tint = 1.0 + rng.uniform(-spec.tint, spec.tint, 3).astype(np.float32)
    return np.asarray((grad * gain)[..., None] * tint[None, None, :], np.float32)


def _camera(world: np.ndarray, Hc: np.ndarray, size: tuple[int, int], rng: np.random.Generator,
            blur: float, noise: float) -> np.ndarray:
    img = cv2.warpPerspective(world, Hc, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    # OpenCV's generator is several times faster than numpy's here; seeded from ours
    cv2.setRNGSeed(int(rng.integers(1, 1 << 31)))
    n = np.empty_like(img)
    cv2.randn(n, (0.0, 0.0, 0.0), (noise, noise, noise))  # type: ignore[call-overload]
    cv2.add(img, n, dst=img)
    return np.clip(img, 0, 255, out=img).astype(np.uint8)


def render_single(kind: str, value: int | str, seed: int, spec: SceneSpec | None = None) -> Scene:
    """A tray holding one object: what a player photographs to enroll a face."""
    return render_tray(seed, objects=[(kind, value)], spec=spec or SceneSpec())
