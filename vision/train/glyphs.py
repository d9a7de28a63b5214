"""Rendered random glyphs on random dice: the training set of the glyph embedding.

A *glyph identity* is a random symbol drawing (:func:`random_glyph`): one to three
primitives among strokes, polygons, circles and rings, stars, Hershey text characters,
pip patterns and smooth blobs, some with holes. A *sibling* (:func:`sibling`) is the same
drawing with one primitive added, dropped, moved or resized: the near-misses a reader
must not confuse (a 4 and a 5 of pips differ by one pip). Each identity has a body
(rounded square mostly; disc, hexagon, pentagon, triangle, kite) fixed with it.

A *view* (:func:`render_view`) is one photo-like crop of that identity, cut as the
reader cuts a candidate (:func:`vision.pips.crop`: a square 1.3 times the die's side,
``CROP`` px), with everything else random: body and ink colours (dark on light or
light on dark, the contrast at least ``MIN_CONTRAST``), printed or engraved ink,
rotation, a tilt of up to 30° (the die's side faces show), scale and centre jitter
(a detector's box is not exact), the floor around the die (felt, wood, paper, glitter,
a neighbour's edge), a light gradient, tint, a glare spot, blur, noise and JPEG 30-95.

Everything is drawn with OpenCV from a ``numpy.random.Generator``: the same seed gives
the same pixels. Nothing here is imported at run time.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

__all__ = ["CROP", "CROP_FACTOR", "GlyphSpec", "random_glyph", "sibling", "render_view", "glyph_mask",
           "make_dataset"]

CROP = 48
CROP_FACTOR = 1.3
MIN_CONTRAST = 45.0  # grey levels between body and ink
G = 128  # glyph mask resolution (the die's face spans it)
D = 2 * CROP  # the view is drawn at twice the crop's size, then area-shrunk

Prim = dict[str, Any]

SHAPES = ("square", "square", "square", "square", "disc", "hexagon", "pentagon", "triangle", "kite")
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX)
CHARS = string.ascii_uppercase + string.digits + "&#%@$?!+*<>=~"


@dataclass(frozen=True)
class GlyphSpec:
    """One glyph identity: its primitives (in face units, the face spanning -1..1) and
    the die body it is printed on."""

    prims: tuple[Prim, ...]
    shape: str


def _prim(rng: np.random.Generator) -> Prim:
    kind = str(rng.choice(["stroke", "poly", "circle", "star", "text", "pips", "blob", "rect"],
                          p=[0.15, 0.14, 0.14, 0.08, 0.17, 0.14, 0.1, 0.08]))
    c = [float(v) for v in rng.uniform(-0.35, 0.35, 2)]
    r = float(rng.uniform(0.15, 0.6))
    p: Prim = {"kind": kind, "c": c, "r": r, "w": float(rng.uniform(0.05, 0.14)),
               "fill": bool(rng.random() < 0.6), "hole": bool(rng.random() < 0.15), "a": float(rng.uniform(0, 360))}
    if kind == "stroke":
        p["pts"] = [[float(v) for v in rng.uniform(-0.65, 0.65, 2)] for _ in range(int(rng.integers(2, 5)))]
    elif kind in ("poly", "star"):
        p["n"] = int(rng.integers(3, 8))
        p["irr"] = [float(v) for v in rng.uniform(0.6, 1.0, int(p["n"]))] if kind == "poly" and rng.random() < 0.4 else None
    elif kind == "text":
        p["ch"] = str(rng.choice(list(CHARS)))
        p["font"] = int(rng.choice(FONTS))
        p["r"] = float(rng.uniform(0.35, 0.7))
    elif kind == "pips":
        cells = [(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)]
        n = int(rng.integers(1, 10))
        p["cells"] = [list(cells[int(i)]) for i in rng.choice(9, n, replace=False)]
        p["r"] = float(rng.uniform(0.12, 0.22))
        p["gap"] = float(rng.uniform(0.42, 0.58))
        p["c"] = [0.0, 0.0]
    elif kind == "blob":
        p["harm"] = [[float(rng.uniform(0, 0.35) / (k + 1)), float(rng.uniform(0, 2 * math.pi))] for k in range(1, 5)]
    elif kind == "rect":
        p["ar"] = float(rng.uniform(0.2, 1.0))
    return p


def random_glyph(rng: np.random.Generator) -> GlyphSpec:
    """A new random glyph identity."""
    n = int(rng.choice([1, 1, 2, 2, 3]))
    prims = [_prim(rng) for _ in range(n)]
    prims[0]["hole"] = False  # something must be ink
    return GlyphSpec(tuple(prims), str(rng.choice(SHAPES)))


def sibling(spec: GlyphSpec, rng: np.random.Generator) -> GlyphSpec:
    """A near-miss of ``spec``: one primitive added, dropped, moved, resized or (pips) one
    pip more or less; the same body."""
    prims = [dict(p) for p in spec.prims]
    i = int(rng.integers(len(prims)))
    q = prims[i]
    op = int(rng.integers(4))
    if q["kind"] == "pips" and op < 2:
        cells = [list(c) for c in q["cells"]]
        free = [[x, y] for y in (-1, 0, 1) for x in (-1, 0, 1) if [x, y] not in cells]
        if (op == 0 or len(cells) == 1) and free:
            cells.append(free[int(rng.integers(len(free)))])
        elif len(cells) > 1:
            cells.pop(int(rng.integers(len(cells))))
        q["cells"] = cells
    elif op == 0 or len(prims) == 1:
        extra = _prim(rng)
        extra["r"] = min(float(extra["r"]), 0.3)
        prims.append(extra)
    elif op == 1:
        prims.pop(i)
        prims[0]["hole"] = False
    elif op == 2:
        q["c"] = [float(v) + float(d) for v, d in zip(q["c"], rng.choice([-1, 1], 2) * rng.uniform(0.2, 0.35, 2))]
    else:
        q["r"] = float(q["r"]) * float(rng.choice([0.55, 1.6]))
    return GlyphSpec(tuple(prims), spec.shape)


def _pt(x: float, y: float) -> tuple[int, int]:
    """Face units to fixed-point mask pixels (shift 4)."""
    return int(round((x * 0.5 + 0.5) * G * 16)), int(round((y * 0.5 + 0.5) * G * 16))


def _draw(mask: np.ndarray, p: Prim) -> None:
    val = 0 if p["hole"] else 255
    cx, cy = p["c"]
    r, w = float(p["r"]), max(1, int(round(p["w"] * G / 2)))
    ang = math.radians(float(p["a"]))
    kind = p["kind"]
    lt = cv2.LINE_AA
    if kind == "stroke":
        pts = np.array([_pt(x, y) for x, y in p["pts"]], np.int32).reshape(-1, 1, 2)
        cv2.polylines(mask, [pts], False, val, w, lt, shift=4)
    elif kind in ("poly", "star", "rect"):
        if kind == "rect":
            corners = [(-1, -p["ar"]), (1, -p["ar"]), (1, p["ar"]), (-1, p["ar"])]
            xy = [(r * (x * math.cos(ang) - y * math.sin(ang)), r * (x * math.sin(ang) + y * math.cos(ang)))
                  for x, y in corners]
        else:
            n = int(p["n"])
            m = 2 * n if kind == "star" else n
            xy = []
            for k in range(m):
                rr = r * (0.45 if kind == "star" and k % 2 else 1.0) * (p["irr"][k] if p.get("irr") else 1.0)
                t = ang + 2 * math.pi * k / m
                xy.append((rr * math.cos(t), rr * math.sin(t)))
        pts = np.array([_pt(cx + x, cy + y) for x, y in xy], np.int32).reshape(-1, 1, 2)
        if p["fill"] or kind == "star":
            cv2.fillPoly(mask, [pts], val, lt, shift=4)
        else:
            cv2.polylines(mask, [pts], True, val, w, lt, shift=4)
    elif kind == "circle":
        cv2.circle(mask, _pt(cx, cy), int(r * G / 2 * 16), val, -1 if p["fill"] else w, lt, shift=4)
    elif kind == "pips":
        for gx, gy in p["cells"]:
            cv2.circle(mask, _pt(gx * p["gap"], gy * p["gap"]), int(r * G / 2 * 16), val, -1, lt, shift=4)
    elif kind == "blob":
        ts = np.linspace(0, 2 * math.pi, 48, endpoint=False)
        rad = r * (1 + sum(a * np.cos((k + 1) * ts + ph) for k, (a, ph) in enumerate(p["harm"])))
        pts = np.array([_pt(cx + float(q) * math.cos(t), cy + float(q) * math.sin(t)) for q, t in zip(rad, ts)],
                       np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(mask, [pts], val, lt, shift=4)
    elif kind == "text":
        font = int(p["font"])
        size, base = cv2.getTextSize(p["ch"], font, 1.0, 2)
        scale = r * G / max(size[0], size[1], 1)
        tmp = np.zeros((G, G), np.uint8)
        thick = max(1, int(round(scale * (1 + 2 * p["w"] / 0.14))))
        sz, _ = cv2.getTextSize(p["ch"], font, scale, thick)
        org = (int(G / 2 - sz[0] / 2), int(G / 2 + sz[1] / 2))
        cv2.putText(tmp, p["ch"], org, font, scale, 255, thick, lt)
        turn = cv2.getRotationMatrix2D((G / 2, G / 2), float(p["a"]) % 60 - 30, 1.0)
        turn[0, 2] += cx * G / 2
        turn[1, 2] += cy * G / 2
        tmp = np.asarray(cv2.warpAffine(tmp, turn, (G, G)), np.uint8)
        if p["hole"]:
            np.minimum(mask, 255 - tmp, out=mask)
        else:
            np.maximum(mask, tmp, out=mask)


def glyph_mask(spec: GlyphSpec, fill: float = 0.62) -> np.ndarray:
    """The glyph's ink (0..1 float32, ``G`` x ``G``) on a face spanning the mask, scaled
    and centred so that the drawing's box spans ``fill`` of the face (as a die's symbol
    does; a lone pip is kept pip-sized)."""
    mask = np.zeros((G, G), np.uint8)
    for p in spec.prims:
        _draw(mask, p)
    ys, xs = np.nonzero(mask > 64)
    if len(xs) == 0:
        return mask.astype(np.float32) / 255.0
    x0, x1, y0, y1 = float(xs.min()), float(xs.max() + 1), float(ys.min()), float(ys.max() + 1)
    extent = max(x1 - x0, y1 - y0)
    if spec.prims[0]["kind"] == "pips":  # pips keep their grid, not their box
        x0, x1, y0, y1, extent = 0.0, float(G), 0.0, float(G), float(G) * 0.85
    scale = fill * G / max(extent, 1.0)
    m = cv2.getRotationMatrix2D(((x0 + x1) / 2, (y0 + y1) / 2), 0.0, scale)
    m[0, 2] += G / 2 - (x0 + x1) / 2
    m[1, 2] += G / 2 - (y0 + y1) / 2
    return cv2.warpAffine(mask, m, (G, G)).astype(np.float32) / 255.0


def _body(shape: str, n: int, side: float) -> np.ndarray:
    """The body's alpha (0..1) on an ``n`` x ``n`` canvas, the die ``side`` px across."""
    a = np.zeros((n, n), np.uint8)
    c, h = n / 2, side / 2
    if shape == "disc":
        cv2.circle(a, (int(c * 16), int(c * 16)), int(h * 1.05 * 16), 255, -1, cv2.LINE_AA, shift=4)
    else:
        if shape == "square":
            pts = [(-h, -h), (h, -h), (h, h), (-h, h)]
        elif shape == "kite":
            pts = [(0, -1.2 * h), (0.9 * h, -0.15 * h), (0, 1.0 * h), (-0.9 * h, -0.15 * h)]
        else:
            k = {"hexagon": 6, "pentagon": 5, "triangle": 3}[shape]
            rr = h * (1.45 if k == 3 else 1.12)
            pts = [(rr * math.sin(2 * math.pi * i / k), -rr * math.cos(2 * math.pi * i / k) + (0.25 * h if k == 3 else 0))
                   for i in range(k)]
        arr = np.array([(int((c + x) * 16), int((c + y) * 16)) for x, y in pts], np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(a, [arr], 255, cv2.LINE_AA, shift=4)
        if shape == "square":  # rounded corners
            k2 = int(side * 0.12) | 1
            a = np.asarray(cv2.GaussianBlur(a, (k2, k2), 0), np.uint8)
            a = np.where(a > 140, 255, 0).astype(np.uint8)
            a = np.asarray(cv2.GaussianBlur(a, (3, 3), 0), np.uint8)
    return a.astype(np.float32) / 255.0


def _floor(rng: np.random.Generator, n: int) -> np.ndarray:
    """A random tray floor (BGR float32 ``n`` x ``n``)."""
    base = rng.uniform(20, 235, 3).astype(np.float32)
    if rng.random() < 0.5:
        base = np.full(3, float(rng.uniform(15, 240)), np.float32) + rng.uniform(-12, 12, 3).astype(np.float32)
    img = np.tile(base, (n, n, 1))
    style = int(rng.integers(5))
    if style == 1:  # felt / paper grain
        g = rng.normal(0, float(rng.uniform(3, 12)), (n, n)).astype(np.float32)
        img += cv2.GaussianBlur(g, (0, 0), float(rng.uniform(0.5, 2.0)))[..., None]
    elif style == 2:  # wood: stretched noise stripes
        g = rng.normal(0, 1, (n, max(2, n // 8))).astype(np.float32)
        g = np.asarray(cv2.resize(cv2.GaussianBlur(g, (0, 0), 1.0), (n, n)), np.float32)
        m = cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 180)), 1.5)
        img += cv2.warpAffine(g * float(rng.uniform(6, 25)), m, (n, n), borderMode=cv2.BORDER_REFLECT)[..., None]
    elif style == 3:  # glitter: bright specks
        k = int(rng.integers(10, 80))
        ys, xs = rng.integers(0, n, k), rng.integers(0, n, k)
        img[ys, xs] += rng.uniform(40, 200, (k, 1)).astype(np.float32)
    elif style == 4:  # a neighbour's or a wall's edge
        m2 = np.zeros((n, n), np.float32)
        x0 = int(rng.integers(0, n // 5))
        m2[:, :x0] = 1
        col = rng.uniform(20, 235, 3).astype(np.float32)
        m = cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 360)), 1.0)
        wall = cv2.warpAffine(m2, m, (n, n))[..., None]
        img = img * (1 - wall) + col * wall
    return img


def _colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(body, ink) BGR with at least :data:`MIN_CONTRAST` grey levels between them."""
    while True:
        body = rng.uniform(0, 255, 3)
        if rng.random() < 0.35:  # white, black, grey dice
            body = np.full(3, rng.uniform(10, 250)) + rng.uniform(-10, 10, 3)
        ink = rng.uniform(0, 255, 3)
        if rng.random() < 0.6:  # white or black ink
            ink = np.full(3, rng.choice([rng.uniform(0, 50), rng.uniform(205, 255)])) + rng.uniform(-8, 8, 3)
        lum = np.array([0.114, 0.587, 0.299])
        if abs(float(lum @ body - lum @ ink)) >= MIN_CONTRAST:
            return np.clip(body, 0, 255).astype(np.float32), np.clip(ink, 0, 255).astype(np.float32)


def _warp_to_view(src: np.ndarray, n: int, side: float, rng: np.random.Generator, params: dict[str, float]
                  ) -> np.ndarray:
    """``src`` (a G x G face) onto the ``n`` x ``n`` view by the view's homography."""
    s = side / G
    th, ph, rot = params["tilt"], params["tilt_dir"], params["rot"]
    cx, cy = n / 2 + params["dx"], n / 2 + params["dy"]
    centre = np.array([[1, 0, -G / 2], [0, 1, -G / 2], [0, 0, 1]], np.float64)
    rmat = np.array([[math.cos(rot), -math.sin(rot), 0], [math.sin(rot), math.cos(rot), 0], [0, 0, 1]])
    dirm = np.array([[math.cos(ph), -math.sin(ph), 0], [math.sin(ph), math.cos(ph), 0], [0, 0, 1]])
    squash = np.diag([math.cos(th), 1.0, 1.0])
    squash[2, 0] = params["keystone"] * math.sin(th) / G
    hom = np.array([[s, 0, cx], [0, s, cy], [0, 0, 1]]) @ dirm @ squash @ dirm.T @ rmat @ centre
    flags = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpPerspective(src, hom, (n, n), flags=flags)


def render_view(spec: GlyphSpec, rng: np.random.Generator, mask: np.ndarray | None = None,
                crop: int = CROP) -> np.ndarray:
    """One view of ``spec``: a ``crop`` x ``crop`` BGR uint8 crop as the reader cuts it.

    ``mask``: the glyph's :func:`glyph_mask`, when already drawn (many views of one
    identity)."""
    n = D
    ink_map = glyph_mask(spec, float(rng.uniform(0.5, 0.72))) if mask is None else mask
    # a printed die varies a little from copy to copy, and a photo is never centred exactly
    jit = cv2.getRotationMatrix2D((G / 2 + rng.normal(0, 1.5), G / 2 + rng.normal(0, 1.5)), 0.0,
                                  float(rng.uniform(0.93, 1.07)))
    ink_map = cv2.warpAffine(ink_map, jit, (G, G))
    body_a = _body(spec.shape, G, G * 0.86)
    body, ink = _colours(rng)
    style = int(rng.integers(3))  # 0 printed, 1 engraved (shadowed groove), 2 worn print
    face = np.tile(body, (G, G, 1))
    if rng.random() < 0.3:  # marbled or translucent plastic: a second colour in swirls
        swirl = cv2.resize(rng.random((6, 6)).astype(np.float32), (G, G), interpolation=cv2.INTER_CUBIC)
        swirl = np.clip((swirl - 0.5) * float(rng.uniform(1, 3)) + 0.5, 0, 1)[..., None]
        face = face * (1 - swirl * 0.7) + np.clip(body * rng.uniform(0.3, 1.6, 3), 0, 255) * swirl * 0.7
    ink_a = ink_map.copy()
    if style == 2:
        ink_a *= np.clip(1 - 0.6 * cv2.GaussianBlur(rng.random((G, G)).astype(np.float32), (0, 0), 2.0), 0.3, 1)
    face = face * (1 - ink_a[..., None]) + ink[None, None, :] * ink_a[..., None]
    if style == 1:
        d = int(rng.integers(1, 4))
        shadow = np.roll(np.roll(ink_map, d, 0), d, 1) * (1 - ink_map)
        face *= (1 - 0.35 * shadow)[..., None]
        hi = np.roll(np.roll(ink_map, -d, 0), -d, 1) * (1 - ink_map)
        face += (40 * hi)[..., None]
    # a gentle shade towards the edges (rounded edges catch less light)
    edge = cv2.GaussianBlur(body_a, (0, 0), 4.0)
    face *= (0.8 + 0.2 * np.clip(edge * 1.5, 0, 1))[..., None]
    side = n / CROP_FACTOR * float(rng.uniform(0.65, 1.1)) / 0.86
    params = {"tilt": math.radians(float(rng.uniform(0, 30))), "tilt_dir": float(rng.uniform(0, 2 * math.pi)),
              "rot": float(rng.uniform(0, 2 * math.pi)), "keystone": float(rng.uniform(-0.3, 0.3)),
              "dx": float(rng.normal(0, 0.05 * side)), "dy": float(rng.normal(0, 0.05 * side))}
    img = _floor(rng, n)
    if rng.random() < 0.3:  # a neighbouring die at the crop's edge
        nb = _body("square", n, side * float(rng.uniform(0.8, 1.1)))
        ang = float(rng.uniform(0, 2 * math.pi))
        dist = side * float(rng.uniform(0.95, 1.3))
        m = cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 90)), 1.0)
        m[0, 2] += dist * math.cos(ang)
        m[1, 2] += dist * math.sin(ang)
        nb = cv2.warpAffine(nb, m, (n, n))[..., None]
        img = img * (1 - nb) + _colours(rng)[0] * nb
    top_a = _warp_to_view(body_a, n, side, rng, params)
    top = _warp_to_view(face, n, side, rng, params)
    # cast shadow, then the die's side faces (seen when tilted), then the top face
    sh = cv2.GaussianBlur(np.roll(np.roll(top_a, int(rng.integers(-4, 8)), 0), int(rng.integers(-4, 8)), 1),
                          (0, 0), float(rng.uniform(2, 6)))
    img *= (1 - float(rng.uniform(0.1, 0.5)) * sh)[..., None]
    t = params["tilt"]
    if t > 0.05 and spec.shape != "disc":
        off = side * 0.9 * math.sin(t)
        ox, oy = off * math.cos(params["tilt_dir"] + math.pi / 2), off * math.sin(params["tilt_dir"] + math.pi / 2)
        ext = np.zeros_like(top_a)
        for f in np.linspace(0, 1, 6):
            shift = np.array([[1, 0, ox * f], [0, 1, oy * f]], np.float32)
            ext = np.maximum(ext, cv2.warpAffine(top_a, shift, (n, n)))
        side_col = body * float(rng.uniform(0.45, 0.8))
        img = img * (1 - ext[..., None]) + side_col * ext[..., None]
        rim = ext * (1 - top_a)
        if rng.random() < 0.5 and rim.max() > 0.5:  # the side faces have their own marks
            ys, xs = np.nonzero(rim > 0.9)
            spots = np.zeros_like(rim)
            for j in rng.choice(len(ys), min(len(ys), int(rng.integers(1, 4))), replace=False):
                cv2.circle(spots, (int(xs[j]), int(ys[j])), max(1, int(side * 0.05)), 1.0, -1, cv2.LINE_AA)
            spots *= rim
            img = img * (1 - spots[..., None]) + (ink * 0.7) * spots[..., None]
    img = img * (1 - top_a[..., None]) + top
    # light: gain, tint, gradient, glare
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    ga = float(rng.uniform(0, 2 * math.pi))
    grad = 1 + float(rng.uniform(0, 0.6)) * (xx * math.cos(ga) + yy * math.sin(ga))
    img *= (grad * float(rng.uniform(0.6, 1.3)))[..., None]
    img *= rng.uniform(0.88, 1.12, 3).astype(np.float32)
    if rng.random() < 0.4:
        gx, gy = rng.uniform(-0.4, 0.4, 2)
        gs = float(rng.uniform(0.05, 0.25))
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gs * gs))
        img += (float(rng.uniform(30, 160)) * spot)[..., None]
    img = np.clip(img, 0, 255)
    small = cv2.resize(img, (crop, crop), interpolation=cv2.INTER_AREA)
    sigma = float(rng.choice([0.0, rng.uniform(0.3, 1.6)]))
    if sigma > 0.25:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    small = small + rng.normal(0, float(rng.uniform(0, 7)), small.shape).astype(np.float32)
    out = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return np.asarray(out, np.uint8)


def make_dataset(seed: int, identities: int, views: int, sibling_share: float = 0.35, crop: int = CROP
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``identities`` x ``views`` crops (uint8 N x crop x crop x 3) and their identity
    labels (int64 N). A share of the identities are siblings of the one before.

    >>> x, y = make_dataset(0, 3, 2)
    >>> x.shape, y.tolist()
    ((6, 48, 48, 3), [0, 0, 1, 1, 2, 2])
    >>> bool((make_dataset(0, 3, 2)[0] == x).all())
    True
    """
    rng = np.random.default_rng(seed)
    xs = np.zeros((identities * views, crop, crop, 3), np.uint8)
    ys = np.repeat(np.arange(identities, dtype=np.int64), views)
    prev: GlyphSpec | None = None
    for i in range(identities):
        spec = sibling(prev, rng) if prev is not None and rng.random() < sibling_share else random_glyph(rng)
        prev = spec
        base = glyph_mask(spec, float(rng.uniform(0.5, 0.72)))
        for v in range(views):
            xs[i * views + v] = render_view(spec, rng, base, crop)
    return xs, ys
