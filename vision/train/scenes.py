"""Domain-randomised training scenes for the class-agnostic object detector.

Every object kind the games use, drawn by the synthetic renderer's sprites
(:func:`vision.synth._sprite`: pip d6, d4, d10, d12, the three blue symbol dice, the
yellow reward and red sentence dice, gems in six colours with the clear one), plus drawn
*custom* dice standing for d8, d20 and any die of a player's own (a faceted outline of
3-8 sides, any colour, a numeral, a symbol or random strokes), laid on a floor made from
nothing (:func:`floor`: felt, wood grain, cork, paper, glitter on dark, printed mats with
shapes and text, plain), then:

- sizes: a scene's d6 is 2-15 % of the frame's side (each kind at its own size in mm);
- placement: anywhere, a third of them touching a neighbour;
- *negatives* on the floor: pip-like dots alone and in pip patterns, small blobs,
  scratches, a tray wall along an edge (a pip is never a die, a wall is no object);
- cast shadows, a view up to 30° off vertical (a camera rotation, a homography),
  light gradient, glare spots, white balance, blur, noise, JPEG 30-95.

Deterministic: :func:`render_scene` gives the same pixels for the same seed. Each object
comes back as :class:`Obj` (centre and side in output pixels, side = square root of its
outline's box area, as the real photos' labels).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Obj", "Scene", "render_scene", "floor", "KINDS", "SIZE_MM"]

#: What a scene may hold ("custom": a drawn die of another shape, d8 and d20 among them).
KINDS = ("d6", "d4", "d10", "d12", "lieu", "adversaire", "epreuve", "recompense", "sentence", "gem", "custom")
#: How often each kind is drawn (weights, same order as :data:`KINDS`).
_WEIGHTS = (3.0, 1.0, 1.5, 1.0, 0.7, 0.7, 0.7, 0.7, 0.7, 3.0, 2.0)
SIZE_MM = 16.0  # the d6's side: the scene's scale is drawn on it


@dataclass(frozen=True)
class Obj:
    """One object of a scene: centre and side in image pixels, its kind and value."""

    cx: float
    cy: float
    side: float
    kind: str
    value: int | str = ""


@dataclass
class Scene:
    image: np.ndarray  # H x W x 3 BGR uint8
    objects: list[Obj]


# --------------------------------------------------------------------------- floors
def _noise(rng: np.random.Generator, h: int, w: int, sigma: float) -> np.ndarray:
    """Smooth noise of unit deviation (about)."""
    n = rng.standard_normal((h, w)).astype(np.float32)
    n = np.asarray(cv2.GaussianBlur(n, (0, 0), max(0.3, sigma)), np.float32)
    return n / (float(n.std()) + 1e-6)


def _colour(rng: np.random.Generator, lo: float = 10, hi: float = 245) -> np.ndarray:
    return rng.uniform(lo, hi, 3).astype(np.float32)


def _wood(rng: np.random.Generator, h: int, w: int, px_mm: float) -> np.ndarray:
    base = np.array([rng.uniform(20, 90), rng.uniform(50, 140), rng.uniform(90, 210)], np.float32)
    if rng.random() < 0.3:  # grey or dark-stained wood
        base = np.full(3, rng.uniform(30, 180), np.float32) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = float(rng.uniform(1.0, 6.0)) * px_mm
    warp = _noise(rng, h, w, float(rng.uniform(8, 30))) * rng.uniform(2, 12) * px_mm / 4
    ang = float(rng.uniform(0, math.pi))
    u = xx * math.cos(ang) + yy * math.sin(ang) + warp
    rings = 0.5 + 0.5 * np.sin(2 * math.pi * u / period)
    fine = _noise(rng, h, w, 0.7)
    stripes = (rings ** float(rng.uniform(1, 4))) * rng.uniform(15, 50) + fine * rng.uniform(2, 8)
    img = base[None, None, :] * (1 - 0.004 * stripes[..., None]) - stripes[..., None] * 0.5
    if rng.random() < 0.5:  # planks
        k = float(rng.uniform(40, 120)) * px_mm / 4
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        img[(np.mod(v, k) < max(1.0, px_mm * 0.3))] *= 0.55
    return np.asarray(img, np.float32)


def _cork(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array([rng.uniform(50, 100), rng.uniform(90, 150), rng.uniform(130, 200)], np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    for s, a in ((0.8, 20), (2.0, 18), (5.0, 10)):
        img += _noise(rng, h, w, s)[..., None] * a * float(rng.uniform(0.5, 1.2))
    return img


def _glitter(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = _colour(rng, 5, 70)
    img += _noise(rng, h, w, 1.5)[..., None] * 5
    sp = (rng.random((h, w)) < rng.uniform(0.003, 0.04)).astype(np.float32)
    sp = np.asarray(cv2.GaussianBlur(sp, (0, 0), float(rng.uniform(0.4, 0.9))), np.float32)
    tint = rng.uniform(0.5, 1.0, 3).astype(np.float32)
    img += sp[..., None] * rng.uniform(200, 900) * tint
    return img


def _mat(rng: np.random.Generator, h: int, w: int, px_mm: float) -> np.ndarray:
    """A printed mat: a base colour with shapes, lines and text in other colours."""
    img = np.empty((h, w, 3), np.uint8)
    img[:] = _colour(rng).astype(np.uint8)
    for _ in range(int(rng.integers(3, 25))):
        col = tuple(int(v) for v in _colour(rng))
        kind = int(rng.integers(5))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        r = int(rng.uniform(2, 60) * px_mm)
        t = -1 if rng.random() < 0.5 else max(1, int(rng.uniform(0.3, 2) * px_mm))
        if kind == 0:
            cv2.circle(img, (x, y), max(r, int(8 * px_mm)), col, t, cv2.LINE_AA)
        elif kind == 1:
            cv2.rectangle(img, (x, y), (x + r, y + int(rng.uniform(0.3, 2) * r)), col, t, cv2.LINE_AA)
        elif kind == 2:
            cv2.line(img, (x, y), (int(rng.integers(0, w)), int(rng.integers(0, h))), col,
                     max(1, int(rng.uniform(0.3, 3) * px_mm)), cv2.LINE_AA)
        elif kind == 3:
            text = "".join(chr(int(rng.integers(65, 91))) for _ in range(int(rng.integers(2, 9))))
            cv2.putText(img, text, (x, y), int(rng.integers(0, 8)), float(rng.uniform(0.3, 2.5)) * px_mm / 3, col,
                        max(1, int(rng.uniform(0.2, 1.2) * px_mm)), cv2.LINE_AA)
        else:
            pts = rng.integers(0, max(w, h), (int(rng.integers(3, 7)), 2)).astype(np.int32)
            cv2.fillPoly(img, [pts], col, cv2.LINE_AA)
    return img.astype(np.float32)


def floor(rng: np.random.Generator, h: int, w: int, px_mm: float) -> np.ndarray:
    """A tray floor of ``h`` x ``w`` (float BGR) at ``px_mm`` pixels per millimetre:
    felt, wood grain, cork, paper, glitter on dark, a printed mat or plain."""
    kind = int(rng.choice(7, p=[0.22, 0.2, 0.1, 0.12, 0.14, 0.14, 0.08]))
    if kind == 0:  # felt: any colour, fine fibres
        img = np.empty((h, w, 3), np.float32)
        img[:] = _colour(rng, 15, 200)
        img += _noise(rng, h, w, float(rng.uniform(0.5, 1.5)))[..., None] * rng.uniform(3, 12)
        img += _noise(rng, h, w, float(rng.uniform(10, 40)))[..., None] * rng.uniform(0, 8)
    elif kind == 1:
        img = _wood(rng, h, w, px_mm)
    elif kind == 2:
        img = _cork(rng, h, w)
    elif kind == 3:  # paper: light, fibres
        img = np.empty((h, w, 3), np.float32)
        img[:] = rng.uniform(170, 250) * rng.uniform(0.9, 1.03, 3).astype(np.float32)
        img += _noise(rng, h, w, 0.6)[..., None] * rng.uniform(1, 5)
    elif kind == 4:
        img = _glitter(rng, h, w)
    elif kind == 5:
        img = _mat(rng, h, w, px_mm)
    else:
        img = np.empty((h, w, 3), np.float32)
        img[:] = _colour(rng)
    return img


# --------------------------------------------------------------------------- negatives
def _negatives(rng: np.random.Generator, img: np.ndarray, px_mm: float, keep: np.ndarray) -> None:
    """Pip-like dots (alone, in pip patterns), small blobs and scratches drawn on the
    floor ``img`` in place (``keep``: a mask where nothing is drawn)."""
    h, w = img.shape[:2]
    layer = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(0, 5)) if rng.random() < 0.7 else 0):  # pip patterns without a die
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        step = float(rng.uniform(3.5, 5)) * px_mm
        ang = float(rng.uniform(0, math.pi))
        r = max(0.7, float(rng.uniform(1.0, 2.0)) * px_mm)
        pips = [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0), (-1, 0), (1, 0)][: int(rng.integers(1, 7))]
        for px, py in pips:
            u = x + step * (px * math.cos(ang) - py * math.sin(ang))
            v = y + step * (px * math.sin(ang) + py * math.cos(ang))
            cv2.circle(layer, (int(u * 16), int(v * 16)), int(r * 16), 1.0, -1, cv2.LINE_AA, shift=4)
    for _ in range(int(rng.integers(0, 30))):  # loose dots and blobs
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        a = max(0.6, float(rng.uniform(0.5, 3.0)) * px_mm)
        b = a * float(rng.uniform(0.4, 1.0))
        cv2.ellipse(layer, (int(x * 16), int(y * 16)), (int(a * 16), int(b * 16)), float(rng.uniform(0, 180)),
                    0, 360, float(rng.uniform(0.4, 1.0)), -1, cv2.LINE_AA, shift=4)
    for _ in range(int(rng.integers(0, 4))):  # scratches, crumbs of thread
        p0 = rng.uniform(0, 1, 2) * [w, h]
        p1 = p0 + rng.normal(0, 8 * px_mm, 2)
        cv2.line(layer, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), float(rng.uniform(0.3, 1)),
                 max(1, int(0.4 * px_mm)), cv2.LINE_AA)
    layer *= 1.0 - keep
    if not layer.any():
        return
    ink = _colour(rng, 0, 255) if rng.random() < 0.5 else np.full(3, 20.0 if rng.random() < 0.6 else 235.0, np.float32)
    img *= 1 - layer[..., None]
    img += layer[..., None] * ink


def _wall(rng: np.random.Generator, img: np.ndarray, px_mm: float) -> np.ndarray:
    """A tray wall along one edge of ``img`` (in place); the mask of the wall."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    depth = float(rng.uniform(0.06, 0.25)) * min(h, w)
    side = int(rng.integers(4))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = [yy, h - 1 - yy, xx, w - 1 - xx][side] + (xx if side < 2 else yy) * float(rng.uniform(-0.15, 0.15))
    mask[d < depth] = 1.0
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), 1.0), np.float32)
    col = _colour(rng)
    shade = np.clip(d / max(depth, 1.0), 0, 1)[..., None] * rng.uniform(-60, 60)
    wall = col + shade + _noise(rng, h, w, 2.0)[..., None] * 4
    img *= 1 - mask[..., None]
    img += mask[..., None] * wall
    edge = np.exp(-((d - depth) ** 2) / (2 * (0.6 * px_mm) ** 2))[..., None]  # the wall's lit top edge
    img += edge * rng.uniform(-50, 90)
    return mask


# --------------------------------------------------------------------------- objects
def _custom_sprite(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A die of another shape (d8, d20, any custom die) at the synth sprites' scale:
    image, alpha and outline (mm, centred)."""
    from vision.synth_draw import GLYPHS, SS, Pen, draw_numeral

    sides = int(rng.choice([3, 4, 5, 6, 6, 8]))
    rad = float(rng.uniform(8.5, 13.0)) * (1.25 if sides == 3 else 1.0)
    ang0 = float(rng.uniform(0, 2 * math.pi))
    poly = np.array([(rad * math.cos(ang0 + 2 * math.pi * i / sides), rad * math.sin(ang0 + 2 * math.pi * i / sides))
                     for i in range(sides)])
    half = rad + 2.0
    n = int(math.ceil(2 * half * SS))
    body = tuple(float(v) for v in _colour(rng, 15, 245))
    ink = tuple(int(v) for v in (255 - np.array(body) + rng.uniform(-40, 40, 3)).clip(0, 255))
    canvas = np.zeros((n, n, 3), np.uint8)
    canvas[:] = tuple(int(v) for v in body)
    alpha = np.zeros((n, n), np.uint8)
    pts = np.round((poly * SS + n / 2.0) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA, shift=4)
    pen = Pen(canvas, ink)  # type: ignore[arg-type]
    setattr(pen, "body", tuple(int(v) for v in body))
    if sides >= 5 and rng.random() < 0.7:  # facets: a central triangle face, edges to the outline
        r2 = rad * float(rng.uniform(0.55, 0.75))
        tri = [(r2 * math.cos(ang0 + math.pi / 2 + 2 * math.pi * i / 3), r2 * math.sin(ang0 + math.pi / 2 + 2 * math.pi * i / 3))
               for i in range(3)]
        face = Pen(canvas, tuple(int(min(255, v * 1.12 + 10)) for v in body))  # type: ignore[arg-type]
        face.poly(tri)
        edge = Pen(canvas, tuple(int(v * 0.7) for v in body))  # type: ignore[arg-type]
        for i in range(3):
            j = int(round((ang0 + math.pi / 2 + 2 * math.pi * i / 3 - ang0) / (2 * math.pi / sides))) % sides
            edge.line(tri[i][0], tri[i][1], poly[j][0], poly[j][1], 0.35)
    mark = int(rng.integers(4))
    if mark == 0:
        draw_numeral(pen, int(rng.integers(1, 21)), float(rng.uniform(4.5, 7.5)))
    elif mark == 1:
        GLYPHS[list(GLYPHS)[int(rng.integers(len(GLYPHS)))]](Pen(canvas, ink, float(rng.uniform(0.5, 0.9))))  # type: ignore[arg-type]
    elif mark == 2:
        for _ in range(int(rng.integers(1, 5))):
            a, b = rng.uniform(-4, 4, 2), rng.uniform(-4, 4, 2)
            pen.line(float(a[0]), float(a[1]), float(b[0]), float(b[1]), float(rng.uniform(0.5, 1.3)))
    img = canvas.astype(np.float32)
    edge_l = cv2.GaussianBlur(alpha, (0, 0), 1.0 * SS).astype(np.float32) / 255.0
    img *= (0.88 + 0.12 * np.clip(edge_l * 1.6, 0, 1))[..., None]
    return img, alpha.astype(np.float32) / 255.0, poly


def _sprite(rng: np.random.Generator, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int | str]:
    """(image, alpha, outline in mm, value) of one object at the synth sprites' scale."""
    from vision.catalog import FACES
    from vision.synth import _body_polygon, _sprite as synth_sprite

    if kind == "custom":
        img, alpha, poly = _custom_sprite(rng)
        return img, alpha, poly, ""
    faces = FACES[kind]
    value = faces[int(rng.integers(len(faces)))]
    img, alpha, _ = synth_sprite(kind, value, rng)
    if kind != "gem" and rng.random() < 0.45:  # dice come in every colour: inverted and/or tinted
        if rng.random() < 0.4:
            img = 255.0 - img
        img = img * rng.uniform(0.3, 1.15, 3).astype(np.float32) + rng.uniform(-20, 50, 3).astype(np.float32)
    elif kind == "gem" and rng.random() < 0.25:  # gems of other hues
        img = img[..., [int(i) for i in rng.permutation(3)]]
    return np.clip(img, 0, 255), alpha, _body_polygon(kind), value


def _tilt(rng: np.random.Generator, size: int, max_deg: float) -> np.ndarray:
    """A homography of a camera turned up to ``max_deg`` off vertical, about the centre of
    a ``size`` frame (focal length 0.8-1.6 frame sides)."""
    f = size * float(rng.uniform(0.8, 1.6))
    c = size / 2
    K = np.array([[f, 0, c], [0, f, c], [0, 0, 1]], np.float64)
    t = math.radians(float(rng.uniform(0, max_deg)))
    axis = float(rng.uniform(0, 2 * math.pi))
    rvec = np.array([math.cos(axis) * t, math.sin(axis) * t, 0.0])
    R, _ = cv2.Rodrigues(rvec)
    return np.asarray(K @ R @ np.linalg.inv(K))


def render_scene(seed: int, size: int = 320, max_tilt: float = 30.0) -> Scene:
    """One randomised ``size`` x ``size`` scene (see the module docstring)."""
    rng = np.random.default_rng(seed)
    S = size
    # the view: world (top-down) -> frame; the world is larger so the tilted frame stays inside
    Wd = int(S * 1.6)
    H = _tilt(rng, Wd, max_tilt) if rng.random() < 0.8 else np.eye(3)
    centre = cv2.perspectiveTransform(np.array([[[Wd / 2, Wd / 2]]], np.float64), H)[0, 0]
    s = 1.0 / 1.6
    for _ in range(12):
        T = np.array([[s, 0, S / 2 - s * centre[0]], [0, s, S / 2 - s * centre[1]], [0, 0, 1]]) @ H
        inv = np.linalg.inv(T)
        back = cv2.perspectiveTransform(np.array([[[0, 0], [S, 0], [S, S], [0, S]]], np.float64), inv)[0]
        if back.min() >= 0 and back.max() < Wd:
            break
        s *= 1.1
    d6_px = S * math.exp(float(rng.uniform(math.log(0.02), math.log(0.15))))  # a d6's side in the frame
    px_mm = d6_px / SIZE_MM / s  # in the world
    world = floor(rng, Wd, Wd, px_mm)
    keep = np.zeros((Wd, Wd), np.float32)
    if rng.random() < 0.25:
        frame_wall = np.zeros((S, S, 3), np.float32)
        wmask = _wall(rng, frame_wall, px_mm * s)
        wm_world = cv2.warpPerspective(wmask, inv, (Wd, Wd))
        fw_world = cv2.warpPerspective(frame_wall, inv, (Wd, Wd))
        world = world * (1 - wm_world[..., None]) + fw_world * wm_world[..., None]
        keep = np.asarray(wm_world, np.float32)
    _negatives(rng, world, px_mm, np.zeros_like(keep))

    # objects: centres drawn in the frame (whole inside it), then placed in the world
    n = 0 if rng.random() < 0.08 else int(rng.integers(1, 16))
    p = np.array(_WEIGHTS) / sum(_WEIGHTS)
    mono = rng.random() < 0.35  # a pool of one kind (5-15 d10, a handful of gems)
    first = str(rng.choice(KINDS, p=p))
    placed: list[tuple[float, float, float]] = []  # world x, y, radius
    sprites = []
    for i in range(n):
        kind = first if mono else str(rng.choice(KINDS, p=p))
        img, alpha, poly, value = _sprite(rng, kind)
        rad = float(np.max(np.linalg.norm(poly, axis=1))) * px_mm
        pos = None
        for _ in range(40):
            if placed and rng.random() < 0.35:  # touching the last one
                x0, y0, r0 = placed[-1]
                turn = float(rng.uniform(0, 2 * math.pi))
                d = (r0 + rad) * float(rng.uniform(0.72, 0.85))
                x, y = x0 + d * math.cos(turn), y0 + d * math.sin(turn)
            else:
                u, v = rng.uniform(0, S, 2)
                x, y = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), inv)[0, 0]
            fx, fy = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), T)[0, 0]
            r_f = rad * s * 1.2
            if not (r_f <= fx < S - r_f and r_f <= fy < S - r_f):
                continue
            if keep[int(min(Wd - 1, max(0, y))), int(min(Wd - 1, max(0, x)))] > 0.1:
                continue
            if all(math.hypot(x - px, y - py) >= 0.72 * (rad + pr) for px, py, pr in placed):
                pos = (float(x), float(y))
                break
        if pos is None:
            continue
        placed.append((pos[0], pos[1], rad))
        sprites.append((img, alpha, poly, kind, value, pos))

    from vision.synth_draw import SS

    shadow = np.zeros((Wd, Wd), np.float32)
    sh = rng.uniform(-1, 1, 2) * px_mm * 3
    sh_k = float(rng.uniform(0.15, 0.55)) if rng.random() < 0.8 else 0.0
    layers = []
    objs_world = []
    for img, alpha, poly, kind, value, (x, y) in sprites:
        ang = float(rng.uniform(0, 360))
        k = px_mm / SS
        nn = img.shape[0]
        M = cv2.getRotationMatrix2D((nn / 2, nn / 2), ang, k)
        M[0, 2] += x - nn / 2
        M[1, 2] += y - nn / 2
        rad = nn * k * 0.75 + 2
        x0, y0 = max(0, int(x - rad)), max(0, int(y - rad))
        x1, y1 = min(Wd, int(x + rad) + 1), min(Wd, int(y + rad) + 1)
        Mr = M.copy()
        Mr[0, 2] -= x0
        Mr[1, 2] -= y0
        flags = cv2.INTER_AREA if k < 0.5 else cv2.INTER_LINEAR
        a = np.asarray(cv2.warpAffine(alpha, Mr, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR), np.float32)
        im = cv2.warpAffine(img, Mr, (x1 - x0, y1 - y0), flags=flags)
        layers.append((x0, y0, x1, y1, a, im))
        if sh_k:
            Ms = Mr.copy()
            sx0, sy0 = max(0, x0 + int(sh[0])), max(0, y0 + int(sh[1]))
            sx1, sy1 = min(Wd, x1 + int(sh[0])), min(Wd, y1 + int(sh[1]))
            Ms[0, 2] += x0 + sh[0] - sx0
            Ms[1, 2] += y0 + sh[1] - sy0
            if sx1 > sx0 and sy1 > sy0:
                shadow[sy0:sy1, sx0:sx1] = np.maximum(shadow[sy0:sy1, sx0:sx1],
                                                      cv2.warpAffine(alpha, Ms, (sx1 - sx0, sy1 - sy0)))
        rot = cv2.getRotationMatrix2D((0, 0), ang, 1.0)[:, :2]
        objs_world.append((kind, value, poly @ rot.T * px_mm + [x, y]))
    if sh_k:
        shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), max(0.5, 1.5 * px_mm)), np.float32)
        world *= (1 - sh_k * shadow)[..., None]
    for x0, y0, x1, y1, a, im in layers:
        world[y0:y1, x0:x1] = world[y0:y1, x0:x1] * (1 - a[..., None]) + im * a[..., None]

    frame = cv2.warpPerspective(world, T, (S, S), flags=cv2.INTER_AREA if s < 0.7 else cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    frame = _light(rng, frame)
    objs = []
    for kind, value, pw in objs_world:
        pc = cv2.perspectiveTransform(pw.reshape(-1, 1, 2).astype(np.float64), T).reshape(-1, 2)
        (x0, y0), (x1, y1) = pc.min(axis=0), pc.max(axis=0)
        objs.append(Obj(float((x0 + x1) / 2), float((y0 + y1) / 2), float(math.sqrt((x1 - x0) * (y1 - y0))), kind, value))
    return Scene(frame, objs)


def _light(rng: np.random.Generator, f: np.ndarray) -> np.ndarray:
    """Light gradient, glare, white balance, blur, noise, JPEG 30-95 (float in, uint8 out)."""
    S = f.shape[0]
    yy, xx = np.mgrid[0:S, 0:f.shape[1]].astype(np.float32) / S - 0.5
    ang = rng.uniform(0, 2 * math.pi)
    grad = 1 + float(rng.uniform(0, 0.6)) * (xx * math.cos(ang) + yy * math.sin(ang))
    f = f * (grad * float(rng.uniform(0.55, 1.35)))[..., None]
    for _ in range(int(rng.integers(0, 4))):  # glare spots
        cx, cy = rng.uniform(0, S, 2)
        sg = float(rng.uniform(0.02, 0.25)) * S
        g = np.exp(-((xx * S + S / 2 - cx) ** 2 + (yy * S + S / 2 - cy) ** 2) / (2 * sg * sg))
        f = f + g[..., None] * float(rng.uniform(20, 180))
    f = f * rng.uniform(0.8, 1.2, 3).astype(np.float32)  # white balance
    if rng.random() < 0.6:
        f = cv2.GaussianBlur(f, (0, 0), float(rng.uniform(0.3, 1.6)))
    f = f + rng.standard_normal(f.shape).astype(np.float32) * float(rng.uniform(0, 8))
    out = np.clip(f, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8) if ok else out
