"""Drawing the faces of the synthetic dice: a millimetre pen, the symbols, pips, numerals.

One simple drawn symbol per face of the péripétie dice (white on blue, black on yellow,
white on red), chosen to stay distinct under any rotation; d6 pips; numerals in
OpenCV's Hershey font with 6 and 9 underlined and a plain oval zero. Used by
:mod:`vision.synth`.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import cv2
import numpy as np

__all__ = ["SS", "Pen", "GLYPHS", "PIPS", "draw_numeral"]

SS = 8.0  # drawing scale: px per mm on the supersampled sprite

class Pen:
    """Draws in millimetres on a supersampled sprite canvas centred on the die."""

    def __init__(self, canvas: np.ndarray, colour: tuple[int, int, int], unit: float = 1.0) -> None:
        self.c = canvas
        self.col = colour
        self.u = unit  # mm per glyph unit
        self.cx = canvas.shape[1] / 2.0
        self.cy = canvas.shape[0] / 2.0

    def p(self, x: float, y: float) -> tuple[int, int]:
        return (int(round((self.cx + x * self.u * SS) * 16)), int(round((self.cy + y * self.u * SS) * 16)))

    def t(self, w: float) -> int:
        return max(1, int(round(w * self.u * SS)))

    def poly(self, pts: Sequence[tuple[float, float]], fill: bool = True, w: float = 0.5) -> "Pen":
        arr = np.array([self.p(x, y) for x, y in pts], dtype=np.int32).reshape(-1, 1, 2)
        if fill:
            cv2.fillPoly(self.c, [arr], self.col, cv2.LINE_AA, shift=4)
        else:
            cv2.polylines(self.c, [arr], True, self.col, self.t(w), cv2.LINE_AA, shift=4)
        return self

    def circle(self, x: float, y: float, r: float, fill: bool = True, w: float = 0.5) -> "Pen":
        cv2.circle(self.c, self.p(x, y), int(round(r * self.u * SS * 16)), self.col,
                   -1 if fill else self.t(w), cv2.LINE_AA, shift=4)
        return self

    def ellipse(self, x: float, y: float, a: float, b: float, ang: float = 0, start: float = 0,
                end: float = 360, fill: bool = True, w: float = 0.5) -> "Pen":
        cv2.ellipse(self.c, self.p(x, y), (int(a * self.u * SS * 16), int(b * self.u * SS * 16)), ang, start, end,
                    self.col, -1 if fill else self.t(w), cv2.LINE_AA, shift=4)
        return self

    def line(self, x0: float, y0: float, x1: float, y1: float, w: float = 0.5) -> "Pen":
        cv2.line(self.c, self.p(x0, y0), self.p(x1, y1), self.col, self.t(w), cv2.LINE_AA, shift=4)
        return self

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> "Pen":
        return self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def _star(p: Pen, r: float, n: int = 5) -> Pen:
    pts = []
    for i in range(2 * n):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.pi * i / n - math.pi / 2
        pts.append((rr * math.cos(a), rr * math.sin(a)))
    return p.poly(pts)


# Symbols in glyph units (1 unit = 1 mm; the cube face is 16 mm, symbols fit in ~11 mm).
GLYPHS: dict[str, Callable[[Pen], object]] = {
    # lieu
    "montagne": lambda p: (p.poly([(-5.5, 4), (-1.5, -4.5), (2.5, 4)]), p.poly([(0.5, 4), (3.2, -1), (5.5, 4)])),
    "ville": lambda p: (p.rect(-5, -1, -2.2, 4.5), p.rect(-1.4, -5, 1.4, 4.5), p.rect(2.2, -2.5, 5, 4.5)),
    "temple": lambda p: (p.poly([(-5.5, -1.5), (0, -5.5), (5.5, -1.5)]), p.rect(-4, -0.5, -2.4, 4.5),
                         p.rect(2.4, -0.5, 4, 4.5), p.rect(-5, 4, 5, 5.3)),
    "auberge": lambda p: (p.circle(0, -2.5, 2.6, fill=False, w=1.1), p.rect(-4.5, 1.5, 4.5, 3.2), p.rect(-0.7, 3.2, 0.7, 5.2)),
    "foret": lambda p: (p.circle(-3, -1.2, 2.2), p.circle(3, -1.2, 2.2), p.circle(0, -4, 2.0),
                        p.line(-3, 0, -3, 5, 1.0), p.line(3, 0, 3, 5, 1.0)),
    "etang": lambda p: (p.ellipse(0, 0, 5.5, 3.3, fill=False, w=0.9), p.ellipse(0, 0, 2.6, 1.2)),
    # adversaire
    "mandarin": lambda p: (p.ellipse(0, 1, 4.5, 4.5, start=180, end=360), p.rect(-6, 1, 6, 2.6), p.circle(0, -5, 1.1)),
    "soldats": lambda p: (p.line(-4.5, -4.5, 4.5, 4.5, 1.3), p.line(4.5, -4.5, -4.5, 4.5, 1.3),
                          p.poly([(-4.8, -4.8), (-2.0, -4.6), (-4.6, -2.0)])),
    "bandits": lambda p: (p.ellipse(0, 0, 6, 3.2), _Hole(p)(-2.6, -0.3, 1.3), _Hole(p)(2.6, -0.3, 1.3)),
    "animal": lambda p: (p.ellipse(0, 2, 3.2, 2.6), p.circle(-3.6, -2.2, 1.3), p.circle(-1.2, -4.2, 1.3),
                         p.circle(1.6, -4.2, 1.3), p.circle(3.9, -2.0, 1.3)),
    "paysans": lambda p: (p.poly([(-6, 1.5), (0, -3.5), (6, 1.5)]), p.rect(-1.0, 1.5, 1.0, 5)),
    "nature": lambda p: _star(p, 5.6),
    # epreuve
    "combat": lambda p: (p.rect(-0.8, -6, 0.8, 3), p.rect(-3.5, 2.2, 3.5, 3.6), p.rect(-0.6, 3.6, 0.6, 6)),
    "esprit": lambda p: (p.circle(0, 0, 4.6, fill=False, w=1.2), p.circle(0, 0, 1.5)),
    "magie": lambda p: (p.circle(-0.8, 0, 5.0), _Hole(p)(1.4, -1.0, 4.2)),
    # recompense
    "banquet": lambda p: (p.ellipse(0, 0.5, 5, 4.5, start=0, end=180), p.line(-2, -5, 3, -0.5, 0.8), p.line(0, -5.5, 4.5, -1.5, 0.8)),
    "gourde": lambda p: (p.circle(0, 2, 3.5), p.circle(0, -2.8, 2.2), p.rect(-0.6, -6, 0.6, -4.5)),
    "taels": lambda p: (p.circle(0, 0, 5.2), _Hole(p, square=True)(0, 0, 1.6)),
    "frere": lambda p: (p.circle(-2.6, -3.5, 1.5), p.circle(2.6, -3.5, 1.5), p.rect(-4, -1.5, -1.2, 5), p.rect(1.2, -1.5, 4, 5)),
    # sentence
    "voyage": lambda p: (p.rect(-5.5, -0.9, 1.5, 0.9), p.poly([(1, -3.8), (5.8, 0), (1, 3.8)])),
    "bagne": lambda p: (p.poly([(-5, -4.5), (5, -4.5), (5, 4.5), (-5, 4.5)], fill=False, w=1.0),
                        p.line(-1.7, -4.5, -1.7, 4.5, 1.0), p.line(1.7, -4.5, 1.7, 4.5, 1.0)),
    "blessure": lambda p: (p.rect(-1.5, -5, 1.5, 5), p.rect(-5, -1.5, 5, 1.5)),
}


class _Hole:
    """Paints back the body colour (a hole in a symbol)."""

    def __init__(self, pen: Pen, square: bool = False) -> None:
        self.pen, self.square = pen, square

    def __call__(self, x: float, y: float, r: float) -> Pen:
        body = getattr(self.pen, "body", (0, 0, 0))
        hole = Pen(self.pen.c, body, self.pen.u)
        if self.square:
            return hole.rect(x - r, y - r, x + r, y + r)
        return hole.circle(x, y, r)


PIPS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def draw_numeral(pen: Pen, value: int, height_mm: float, dy: float = 0.0, zero_for_ten: bool = False) -> None:
    text = "0" if (zero_for_ten and value == 10) else str(value)
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height_mm * SS / th
    thick = max(1, int(round(1.1 * SS)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    if len(text) == 2:  # keep two digits inside the face
        scale2 = min(scale, 12.0 * SS / tw * scale)
        thick = max(1, int(round(1.0 * SS)))
        (tw, th), _ = cv2.getTextSize(text, font, scale2, thick)
        scale = scale2
    org = (int(pen.cx - tw / 2), int(pen.cy + th / 2 + dy * SS))
    if text == "0":  # the Hershey zero is slashed (like an 8); dice print a plain oval
        cv2.ellipse(pen.c, (int(pen.cx), int(pen.cy + dy * SS)), (int(tw / 2 - thick / 2), int(th / 2)), 0, 0, 360,
                    pen.col, thick, cv2.LINE_AA)
    else:
        cv2.putText(pen.c, text, org, font, scale, pen.col, thick, cv2.LINE_AA)
    if text in ("6", "9"):
        y = pen.cy + th / 2 + dy * SS + 1.2 * SS
        cv2.line(pen.c, (int(pen.cx - tw / 2), int(y)), (int(pen.cx + tw / 2), int(y)), pen.col, thick, cv2.LINE_AA)
