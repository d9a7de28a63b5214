"""Rendered crops of numeral dice (and of things that are not numerals), for training and
testing the numeral classifier (:mod:`vision.numerals`) and as "a die of another kind"
for the pip-d6 classifiers.

A crop is what the reader cuts around a candidate (:func:`vision.pips.crop`): a square
``CROP_FACTOR`` (1.3) times the die's side, 48 x 48 pixels. :func:`render_crop` draws one,
deterministically from a :class:`numpy.random.Generator`:

* the background: a patch of a real tray photo when some are given, else a synthetic
  floor (felt, wood grain, paper, glitter; any colour);
* the die: a d10 seen from above (a kite-shaped top face between its neighbours), or a
  d8 / d12 / d20 outline; opaque, translucent, marbled or glittery, any body colour; a
  cast shadow, shading, a specular highlight;
* the numeral on the top face, in one of the given fonts (TrueType files through
  Pillow, or OpenCV's Hershey fonts: no Pillow needed), any ink colour, 6 and 9
  underlined (or dotted), 10 shown as "0" or "10"; the neighbours' numerals, foreshortened,
  near the edge;
* then the camera: any rotation, the die's side off by up to ±15 % (as the detector's),
  off-centre, small dice (down to 16 px and back), blur, noise, JPEG 30-95,
  brightness ±40 %, white balance.

``value`` None draws an "other" crop: a pip face, a symbol die, a blank face, a letter or a
two-digit number that no d10 shows, a gem, or bare floor.

The other numeral dice (:data:`POLY_KINDS`: d4, numeral d6, d8, d12, d20) are drawn with
``face`` (the number printed, 1..20: "10" as "10"): the d4 as a tetrahedron seen from
its apex (the value printed three times around the apex, on each face, the other
numbers near the base corners), the d6 a square face, the d8 and d20 a triangular top
face, the d12 a pentagonal one, with the neighbours' numerals near the rim (d8, d12,
d20). Their "other" two-digit numbers are ones no die of the set shows (21..99).

Fonts are split in two disjoint sets so that held-out renders use fonts the network
never saw: :func:`font_sets` (training: DejaVu + three Hershey faces; held out:
Liberation + three other Hershey faces). Only cv2 and numpy are needed for the Hershey
fonts (the tests use those); Pillow (the ``[train]`` extra) for TrueType files.
"""

from __future__ import annotations

import glob
import math
from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.frame_transforms import FrameTransform, blur, gain, jpeg

__all__ = ["Font", "font_sets", "render_crop", "HERSHEY_TRAIN", "HERSHEY_HELD_OUT", "CROP", "CROP_FACTOR",
           "OTHER_KINDS", "POLY_KINDS", "POLY_FACES", "POLY_NUMBERS", "TRANSFORMS", "CropTransform"]

CROP = 48
CROP_FACTOR = 1.3
SS = 4  # supersampling of the drawing canvas
HERSHEY_TRAIN = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX)
HERSHEY_HELD_OUT = (cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)
OTHER_KINDS = ("pips", "symbol", "blank", "letter", "number", "gem", "floor")
#: Letters and signs no digit looks like (no B, D, G, I, L, O, S, T, Z: an 8, 0, 6, 1, 7, 0,
#: 5, 7 or 2 in some font, turned).
_LETTERS = "ACEFHJKMNPRUVWXY#%&@?+"
_NUMBERS = ("11", "12", "13", "14", "15", "16", "17", "18", "19", "20")
#: The numeral dice other than the d10, and the highest face of each.
POLY_KINDS = ("d4", "d6", "d8", "d12", "d20")
POLY_FACES = {"d4": 4, "d6": 6, "d8": 8, "d12": 12, "d20": 20}
#: Two-digit numbers no die of :data:`POLY_KINDS` shows ("other" crops of their training).
POLY_NUMBERS = tuple(str(v) for v in range(21, 100))


@dataclass(frozen=True)
class Font:
    """A TrueType file (``path``) or a Hershey font (``hershey`` code, ``italic``)."""

    path: str | None = None
    hershey: int = 0
    italic: bool = False

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1] if self.path else f"hershey{self.hershey}{'i' if self.italic else ''}"


def font_sets(truetype: bool = True) -> tuple[list[Font], list[Font]]:
    """(training fonts, held-out fonts): disjoint families. ``truetype`` False: the
    Hershey fonts only (no Pillow needed)."""
    train = [Font(hershey=h, italic=i) for h in HERSHEY_TRAIN for i in (False, True)]
    held = [Font(hershey=h, italic=i) for h in HERSHEY_HELD_OUT for i in (False, True)]
    if truetype:
        try:
            import PIL  # noqa: F401
        except ImportError:
            return train, held
        files = sorted(glob.glob("/usr/share/fonts/**/*.ttf", recursive=True))
        train += [Font(path=f) for f in files if "DejaVu" in f and "Math" not in f]
        held += [Font(path=f) for f in files if "Liberation" in f]
    return train, held


def _text_mask(text: str, font: Font, height: float, size: int, thickness: float) -> np.ndarray:
    """A ``size`` x ``size`` float mask (0..1) of ``text`` whose digits are ``height`` px
    tall, centred."""
    if font.path is not None:
        from PIL import Image, ImageDraw, ImageFont

        pil_font = ImageFont.truetype(font.path, max(4, int(round(height * 1.38))))
        img = Image.new("L", (size, size), 0)
        draw = ImageDraw.Draw(img)
        draw.text((size / 2, size / 2), text, fill=255, font=pil_font, anchor="mm")
        return np.asarray(img, np.float32) / 255.0
    mask = np.zeros((size, size), np.uint8)
    face = font.hershey | (cv2.FONT_ITALIC if font.italic else 0)
    (_, th), _ = cv2.getTextSize(text, face, 1.0, 1)
    scale = height / max(th, 1)
    thick = max(1, int(round(thickness)))
    (tw, th), _ = cv2.getTextSize(text, face, scale, thick)
    org = (int(size / 2 - tw / 2), int(size / 2 + th / 2))
    if text == "0" and font.hershey in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX,
                                        cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX):
        # the Hershey zero is slashed: dice print a plain oval
        cv2.ellipse(mask, (size // 2, size // 2), (max(1, int(tw / 2 - thick / 2)), max(1, int(th / 2))), 0, 0,
                    360, 255, thick, cv2.LINE_AA)
    else:
        cv2.putText(mask, text, org, face, scale, 255, thick, cv2.LINE_AA)
    return mask.astype(np.float32) / 255.0


def _bbox(mask: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(mask > 0.3)
    if not len(xs):
        n = mask.shape[0] // 2
        return n, n, n, n
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _numeral(text: str, font: Font, height: float, size: int, rng: np.random.Generator) -> np.ndarray:
    thickness = height * float(rng.uniform(0.08, 0.16))
    mask = _text_mask(text, font, height, size, thickness)
    if text in ("6", "9"):
        x0, y0, x1, y1 = _bbox(mask)
        t = max(1, int(round(height * rng.uniform(0.07, 0.12))))
        gap = int(round(height * rng.uniform(0.08, 0.2)))
        if rng.random() < 0.8:  # underline
            y = y1 + gap + t // 2
            marker = np.zeros((size, size), np.uint8)
            w = (x1 - x0) * rng.uniform(0.6, 1.05)
            cx = (x0 + x1) / 2
            cv2.line(marker, (int(cx - w / 2), y), (int(cx + w / 2), y), 255, t, cv2.LINE_AA)
        else:  # a dot at the foot, right
            marker = np.zeros((size, size), np.uint8)
            cv2.circle(marker, (int(x1 + gap + t), int(y1 - t)), max(1, int(1.2 * t)), 255, -1, cv2.LINE_AA)
        mask = np.maximum(mask, marker.astype(np.float32) / 255.0)
    return mask


def _rand_colour(rng: np.random.Generator, sat: tuple[float, float] = (0, 255),
                 val: tuple[float, float] = (0, 255)) -> np.ndarray:
    hsv = np.array([[[rng.uniform(0, 180), rng.uniform(*sat), rng.uniform(*val)]]], np.float32)
    return np.asarray(cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0], np.float32)


def _luma(c: np.ndarray) -> float:
    return float(0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2])


def _floor(rng: np.random.Generator, n: int, backgrounds: Sequence[np.ndarray]) -> np.ndarray:
    if backgrounds and rng.random() < 0.65:
        bg = backgrounds[int(rng.integers(len(backgrounds)))]
        h, w = bg.shape[:2]
        side = int(rng.uniform(0.25, 0.9) * min(h, w))
        x, y = int(rng.integers(0, w - side + 1)), int(rng.integers(0, h - side + 1))
        return cv2.resize(bg[y:y + side, x:x + side], (n, n), interpolation=cv2.INTER_AREA).astype(np.float32)
    base = _rand_colour(rng)
    img = np.empty((n, n, 3), np.float32)
    img[:] = base
    style = rng.integers(4)
    noise = rng.normal(0, 1, (n, n)).astype(np.float32)
    if style == 0:  # felt
        tex = cv2.GaussianBlur(noise, (0, 0), 1.5) * rng.uniform(4, 15)
    elif style == 1:  # wood grain
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a) + cv2.GaussianBlur(noise, (0, 0), 8) * 60
        tex = np.sin(u / rng.uniform(3, 12)) * rng.uniform(8, 30)
    elif style == 2:  # paper
        tex = noise * rng.uniform(1, 4)
    else:  # glitter
        tex = (noise > 2.3).astype(np.float32) * rng.uniform(60, 160)
    img += tex[..., None]
    return img


def _body_polygon(kind: str, side: float, rng: np.random.Generator) -> np.ndarray:
    n = {"d10": 10, "d8": 6, "d12": 10, "d20": 6, "d6": 4}.get(kind, 10)
    if kind == "d10":  # a pentagonal trapezohedron from above: a pointed oval
        angles = np.linspace(0, 2 * math.pi, n, endpoint=False) + rng.uniform(-0.1, 0.1, n)
        rx, ry = side / 2 * rng.uniform(0.75, 0.95), side / 2
        pts = np.stack([rx * np.sin(angles), -ry * np.cos(angles)], 1)
        pts *= rng.uniform(0.9, 1.05, (n, 1))
        return pts
    if kind == "d6":
        s = side / 2
        return np.array([(-s, -s), (s, -s), (s, s), (-s, s)], np.float64)
    if kind == "d4":  # the base triangle, the apex at the centre
        a = np.array([0.0, 2 * math.pi / 3, 4 * math.pi / 3]) + rng.uniform(0, 2 * math.pi)
        return np.stack([np.sin(a), -np.cos(a)], 1) * side * 0.58 * rng.uniform(0.95, 1.05)
    angles = np.linspace(0, 2 * math.pi, n, endpoint=False) + rng.uniform(0, 2 * math.pi)
    return np.stack([np.cos(angles), np.sin(angles)], 1) * side / 2 * rng.uniform(0.95, 1.05, (n, 1))


def _face_polygon(kind: str, side: float, rng: np.random.Generator) -> np.ndarray:
    if kind == "d10":  # the kite of the top face
        w, top, mid, bottom = side * rng.uniform(0.28, 0.36), side * 0.47, side * rng.uniform(-0.12, 0.0), side * 0.36
        return np.array([(0, -top), (w, mid), (0, bottom), (-w, mid)], np.float64)
    if kind == "d4":  # no top face: the three faces meet at the apex
        return np.zeros((3, 2), np.float64)
    if kind in ("d8", "d20"):
        r = side * 0.42
        return np.array([(0, -r), (r * 0.87, r * 0.5), (-r * 0.87, r * 0.5)], np.float64)
    if kind == "d12":
        a = np.linspace(0, 2 * math.pi, 5, endpoint=False)
        return np.stack([np.sin(a), -np.cos(a)], 1) * side * 0.3
    s = side * 0.42
    return np.array([(-s, -s), (s, -s), (s, s), (-s, s)], np.float64)


def _fill(mask: np.ndarray, poly: np.ndarray, centre: float) -> None:
    pts = np.round((poly + centre) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, shift=4)


def _ink(rng: np.random.Generator, body: np.ndarray) -> np.ndarray:
    for _ in range(20):
        if rng.random() < 0.6:
            ink = np.full(3, 245.0 if _luma(body) < 128 else 20.0, np.float32) + rng.uniform(-15, 10, 3)
        else:
            ink = _rand_colour(rng)
        need = 35 if rng.random() < 0.1 else 70
        if abs(_luma(ink) - _luma(body)) >= need:
            return np.asarray(ink, np.float32)
    return np.full(3, 255.0 if _luma(body) < 128 else 0.0, np.float32)


def _marks(kind: str, n: int, side: float, rng: np.random.Generator, fonts: Sequence[Font],
           numbers: Sequence[str] = _NUMBERS) -> np.ndarray:
    """What is printed on an "other" object (a float mask), or the numeral's."""
    mask = np.zeros((n, n), np.float32)
    if kind == "pips":
        k = int(rng.integers(1, 7))
        pos = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
               4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
               6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[k]
        step, r = side * rng.uniform(0.24, 0.3), side * rng.uniform(0.07, 0.11) * (1.5 if k == 1 else 1)
        m8 = np.zeros((n, n), np.uint8)
        for px, py in pos:
            cv2.circle(m8, (int(n / 2 + px * step), int(n / 2 + py * step)), int(r), 255, -1, cv2.LINE_AA)
        return m8.astype(np.float32) / 255.0
    if kind == "symbol":
        m8 = np.zeros((n, n), np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            c = (int(n / 2 + rng.uniform(-0.2, 0.2) * side), int(n / 2 + rng.uniform(-0.2, 0.2) * side))
            r = int(side * rng.uniform(0.08, 0.25))
            shape = rng.integers(4)
            if shape == 0:
                cv2.circle(m8, c, r, 255, -1 if rng.random() < 0.5 else max(1, r // 3), cv2.LINE_AA)
            elif shape == 1:
                cv2.rectangle(m8, (c[0] - r, c[1] - r // 2), (c[0] + r, c[1] + r // 2), 255, -1)
            elif shape == 2:
                pts = np.array([(c[0], c[1] - r), (c[0] + r, c[1] + r), (c[0] - r, c[1] + r)], np.int32)
                cv2.fillPoly(m8, [pts], 255, cv2.LINE_AA)
            else:
                cv2.line(m8, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), 255, max(1, r // 3), cv2.LINE_AA)
        return m8.astype(np.float32) / 255.0
    if kind in ("letter", "number"):
        text = _LETTERS[int(rng.integers(len(_LETTERS)))] if kind == "letter" else str(rng.choice(numbers))
        font = fonts[int(rng.integers(len(fonts)))]
        return _numeral(text, font, side * rng.uniform(0.3, 0.45), n, rng)
    return mask  # blank


def _numeral_marks(value: int, side: float, n: int, rng: np.random.Generator, fonts: Sequence[Font]) -> np.ndarray:
    """The top face's numeral (0 drawn as "0" or "10"), a little off-centre, and half
    the time the neighbours' numerals, foreshortened, near the rim."""
    centre = n / 2
    text = "10" if value == 0 and rng.random() < 0.25 else str(value)
    font = fonts[int(rng.integers(len(fonts)))]
    height = side * rng.uniform(0.26, 0.42) * (0.8 if len(text) == 2 else 1.0)
    marks = _numeral(text, font, height, n, rng)
    shift = np.array([[1, 0, rng.uniform(-0.05, 0.05) * side], [0, 1, rng.uniform(-0.08, 0.05) * side]], np.float32)
    marks = np.asarray(cv2.warpAffine(marks, shift, (n, n)), np.float32)
    if rng.random() < 0.5:
        for _ in range(int(rng.integers(1, 3))):
            t = str(int(rng.integers(10)))
            nb = _numeral(t, fonts[int(rng.integers(len(fonts)))], height * 0.8, n, rng)
            ang = float(rng.uniform(0, 2 * math.pi))
            r = side * rng.uniform(0.36, 0.45)
            rot = np.asarray(cv2.getRotationMatrix2D((centre, centre), math.degrees(ang) + 90, 1.0), np.float64)
            rot[:, :2] *= np.array([[1.0], [rng.uniform(0.35, 0.6)]])
            rot[0, 2] += r * math.cos(ang)
            rot[1, 2] += r * math.sin(ang)
            marks = np.maximum(marks, cv2.warpAffine(nb, rot, (n, n)) * rng.uniform(0.5, 0.9))
    return marks


def _placed(mask: np.ndarray, n: int, angle: float, dist: float, squash: float, turn: float,
            strength: float) -> np.ndarray:
    """``mask`` (centred) turned by ``turn`` degrees, squashed across the radius by
    ``squash`` and moved ``dist`` px from the centre towards ``angle`` (radians)."""
    centre = n / 2
    rot = np.asarray(cv2.getRotationMatrix2D((centre, centre), turn, 1.0), np.float64)
    rot[:, :2] *= np.array([[1.0], [squash]])
    rot[0, 2] += dist * math.cos(angle)
    rot[1, 2] += dist * math.sin(angle)
    return np.asarray(cv2.warpAffine(mask, rot, (n, n)), np.float32) * strength


def _face_marks(kind: str, face: int, side: float, n: int, rng: np.random.Generator,
                fonts: Sequence[Font], poly: np.ndarray) -> np.ndarray:
    """The numerals of a ``kind`` die (:data:`POLY_KINDS`) showing ``face``: see the module
    docstring. ``poly``: the body's outline (the d4's corners)."""
    font = fonts[int(rng.integers(len(fonts)))]
    top = POLY_FACES[kind]
    if kind == "d4":
        height = side * rng.uniform(0.17, 0.24)
        digit = _numeral(str(face), font, height, n, rng)
        corners = [math.atan2(float(y), float(x)) for x, y in poly]
        marks = np.zeros((n, n), np.float32)
        for k, a in enumerate(corners):
            mid = a + math.pi / 3  # the middle of a face, between two corners
            # the value near the apex, its top towards the apex; another near each corner,
            # its top towards the corner
            marks = np.maximum(marks, _placed(digit, n, mid, side * rng.uniform(0.16, 0.21), 1.0,
                                              90 - math.degrees(mid), 1.0))
            other = int(rng.choice([v for v in range(1, 5) if v != face]))
            nb = _numeral(str(other), font, height * 0.9, n, rng)
            marks = np.maximum(marks, _placed(nb, n, a, side * rng.uniform(0.3, 0.38), rng.uniform(0.7, 1.0),
                                              -90 - math.degrees(a), rng.uniform(0.6, 1.0)))
        return marks
    text = str(face)
    height = side * rng.uniform(0.22, 0.36) * (0.75 if len(text) == 2 else 1.0)
    if kind in ("d8", "d20"):
        height *= 0.9
    marks = _numeral(text, font, height, n, rng)
    shift = np.array([[1, 0, rng.uniform(-0.04, 0.04) * side], [0, 1, rng.uniform(-0.05, 0.06) * side]], np.float32)
    marks = np.asarray(cv2.warpAffine(marks, shift, (n, n)), np.float32)
    if kind != "d6" and rng.random() < 0.6:
        for _ in range(int(rng.integers(1, 4))):
            t = str(int(rng.integers(1, top + 1)))
            nb = _numeral(t, fonts[int(rng.integers(len(fonts)))], height * 0.8, n, rng)
            ang = float(rng.uniform(0, 2 * math.pi))
            marks = np.maximum(marks, _placed(nb, n, ang, side * rng.uniform(0.36, 0.46), rng.uniform(0.35, 0.6),
                                              math.degrees(ang) + 90, rng.uniform(0.5, 0.9)))
    return marks


def _shade(img: np.ndarray, alpha: np.ndarray, side: float, rng: np.random.Generator) -> np.ndarray:
    """A light gradient across the view and, half the time, a highlight on the die."""
    n = img.shape[0]
    centre = n / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    g = rng.uniform(0, 2 * math.pi)
    img *= (1 + rng.uniform(0, 0.35) * (xx * math.cos(g) + yy * math.sin(g)))[..., None]  # in place, float32
    if rng.random() < 0.5:
        hx, hy = rng.uniform(-0.3, 0.3, 2) * side + centre
        spread = 2 * (side * rng.uniform(0.04, 0.15)) ** 2
        hl = np.exp(-(((xx + 0.5) * n - hx) ** 2 + ((yy + 0.5) * n - hy) ** 2) / spread)
        img += (hl * alpha * rng.uniform(40, 160))[..., None]
    return img


def render_crop(rng: np.random.Generator, value: int | None, fonts: Sequence[Font],
                backgrounds: Sequence[np.ndarray] = (), kind: str = "d10", other: str | None = None,
                camera: bool = True, face: int | None = None, numbers: Sequence[str] = _NUMBERS) -> np.ndarray:
    """One CROP x CROP BGR uint8 crop: a ``kind`` die showing ``value`` (0..9, 0 drawn as
    "0" or "10"; ``kind`` d8 / d12 / d20 draw their outline), or with ``value`` None an
    "other" crop (``other``: one of :data:`OTHER_KINDS`, random if None). ``face``
    (with ``value`` None): a die of :data:`POLY_KINDS` showing that number, drawn as
    printed (1..20). ``numbers``: the two-digit numbers of the "number" others.
    ``camera`` False: no blur, noise, JPEG or brightness change (the transforms are
    applied by the caller)."""
    n = CROP * SS
    side = n / CROP_FACTOR * math.exp(rng.normal(0, 0.07))
    centre = n / 2
    img = _floor(rng, n, backgrounds)
    if value is None and face is None and other is None:
        other = OTHER_KINDS[int(rng.integers(len(OTHER_KINDS)))]
    if other == "floor":
        return _camera(img, rng, camera)
    body_kind = "d6" if other in ("pips",) or (other == "symbol" and rng.random() < 0.7) else kind
    body = _rand_colour(rng, val=(20, 255))
    if other == "gem":
        body_kind = "gem"
    poly = _body_polygon(body_kind if body_kind != "gem" else "d10", side, rng)
    if body_kind == "gem":
        a = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        poly = np.stack([np.cos(a), np.sin(a)], 1) * side / 2 * rng.uniform(0.6, 1.0)
    alpha8 = np.zeros((n, n), np.uint8)
    _fill(alpha8, poly, centre)
    alpha = alpha8.astype(np.float32) / 255.0
    # cast shadow
    if rng.random() < 0.7:
        dx, dy = rng.uniform(-0.12, 0.12, 2) * side
        m = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        sh = cv2.GaussianBlur(cv2.warpAffine(alpha, m, (n, n)), (0, 0), side * 0.06)
        img *= (1 - rng.uniform(0.2, 0.6) * sh)[..., None]
    die: np.ndarray = np.empty((n, n, 3), np.float32)
    die[:] = body
    material = rng.integers(4)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), n / 16)
    if material == 1:  # marbled
        second = _rand_colour(rng)
        w = np.clip(noise / (noise.std() + 1e-6) * 0.5 + 0.5, 0, 1)[..., None] * rng.uniform(0.3, 0.8)
        die = die * (1 - w) + second * w
    elif material == 2:  # glitter
        sparks = (rng.random((n, n)) > 0.985).astype(np.float32)
        die += cv2.GaussianBlur(sparks, (3, 3), 0)[..., None] * rng.uniform(80, 200)
    # the top face a little brighter, the neighbours darker, edges between faces
    if body_kind not in ("gem",):
        face8 = np.zeros((n, n), np.uint8)
        _fill(face8, _face_polygon(body_kind, side, rng), centre)
        lit = cv2.GaussianBlur(face8.astype(np.float32) / 255.0, (0, 0), 1.5)
        die *= (rng.uniform(0.7, 0.95) + (1 - rng.uniform(0.7, 0.95)) * lit + 0.0)[..., None]
        if rng.random() < 0.5:
            edges = cv2.Canny(face8, 50, 150).astype(np.float32) / 255.0
            die *= (1 - rng.uniform(0.1, 0.4) * cv2.GaussianBlur(edges, (3, 3), 0))[..., None]
    if face is not None:
        marks = _face_marks(kind, face, side, n, rng, fonts, poly)
    elif value is not None:
        marks = _numeral_marks(value, side, n, rng, fonts)
    else:
        marks = _marks(str(other), n, side, rng, fonts, numbers)
    ink = _ink(rng, body)
    die = die * (1 - marks[..., None]) + ink * marks[..., None]
    # translucent bodies let the floor through
    opacity = 1.0 if material != 3 else rng.uniform(0.55, 0.85)
    if body_kind == "gem":
        opacity = rng.uniform(0.5, 0.95)
    a3 = (alpha * opacity)[..., None]
    img = img * (1 - a3) + die * a3
    img = _shade(img, alpha, side, rng)
    # the whole view turned, the die off-centre
    turn = np.asarray(cv2.getRotationMatrix2D((centre, centre), float(rng.uniform(0, 360)), 1.0), np.float64)
    turn[:, 2] += rng.normal(0, 0.06 * side, 2)
    img = np.asarray(cv2.warpAffine(np.clip(img, 0, 255), turn, (n, n), borderMode=cv2.BORDER_REFLECT))
    return _camera(img, rng, camera)


def _camera(img: np.ndarray, rng: np.random.Generator, camera: bool) -> np.ndarray:
    small = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (CROP, CROP), interpolation=cv2.INTER_AREA)
    if not camera:
        return np.asarray(small, np.uint8)
    out = small.astype(np.float32)
    if rng.random() < 0.4:  # a small die, enlarged by the crop
        k = int(rng.integers(16, CROP))
        out = cv2.resize(cv2.resize(out, (k, k), interpolation=cv2.INTER_AREA), (CROP, CROP),
                         interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.3)))
    out = out * rng.uniform(0.6, 1.4) + rng.uniform(-25, 25)
    out *= rng.uniform(0.9, 1.1, 3).astype(np.float32)
    if rng.random() < 0.5:
        out += rng.normal(0, rng.uniform(1, 8), out.shape).astype(np.float32)
    u8 = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, data = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
        u8 = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return np.asarray(u8, np.uint8)


# -- the transforms of benchmarks/bench_vision_transforms.py, brought to the crop --------
# (measured by vision.train.eval_numerals; the poly network's thresholds are tuned on them)
CropTransform = Callable[[np.ndarray], np.ndarray]


def _rotate(deg: float) -> CropTransform:
    def run(c: np.ndarray) -> np.ndarray:
        m = cv2.getRotationMatrix2D((CROP / 2, CROP / 2), deg, 1.0)
        return cv2.warpAffine(c, m, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE)
    return run


def _half(c: np.ndarray) -> np.ndarray:
    small = cv2.resize(c, (CROP // 2, CROP // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)


def _frame(tf: FrameTransform) -> CropTransform:
    """A photometric transform of :mod:`vision.frame_transforms` (the same for the crop)."""
    return lambda c: tf(c)[0]


TRANSFORMS: list[tuple[str, CropTransform | None]] = [
    ("as rendered", None), ("rotated 30°", _rotate(30)), ("scale 0.5x", _half),
    ("blur σ 1.5", _frame(blur(1.5))), ("JPEG 30", _frame(jpeg(30))),
    ("40 % darker", _frame(gain(0.6))), ("40 % brighter", _frame(gain(1.4))),
]
