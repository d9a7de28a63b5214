"""A die's body colour as a word of a small palette, or ``"unknown"`` when unsure.

The reader names the colour of every die it reads (``ObjectRead.colour``), so that the
statistics can tell the table's red d10 from its blue one (``companion stats``,
``/stats``). The colour is the median of the central half of the die's square (pips are
a minority of those pixels), in CIE Lab:

* on a known tray (a calibration or the markers in view), divided first by the tray's
  white (:func:`vision.gem_colour.white_reference`): a warm lamp does not turn a white
  die yellow;
* on a plain photo, as the camera gave it.

Low chroma is white, grey or black by lightness; otherwise the hue angle names it.
Between two bands (a hue halfway between red and orange, a chroma that is neither
clearly grey nor clearly coloured, a lightness between grey and white) the answer is
``"unknown"``: the statistics then keep the die with the dice of no known colour rather
than guess.

>>> colour_name((95.0, 0.0, 2.0))
'white'
>>> colour_name((50.0, 60.0, 45.0))
'red'
>>> colour_name((40.0, 20.0, -60.0))
'blue'
>>> colour_name((62.0, 0.0, 0.0))
'unknown'
>>> colour_name((28.0, 22.0, 3.0)), colour_name((33.0, 11.0, 30.0))  # maroon, marbled brown
('red', 'brown')
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

__all__ = ["PALETTE", "UNKNOWN", "colour_name", "lab_of", "lab8", "lab8_rows", "white_balanced_lab"]

UNKNOWN = "unknown"
#: The words a die's colour may be (besides :data:`UNKNOWN`).
PALETTE = ("white", "grey", "black", "red", "orange", "brown", "yellow", "green", "blue", "purple", "pink")

#: Chroma (CIE Lab) under this: no colour; over :data:`CHROMA_COLOUR`: a colour; between:
#: unsure.
CHROMA_GREY = 10.0
CHROMA_COLOUR = 16.0
#: Hue bands (degrees of the Lab hue angle) with gaps between them, where the answer is
#: unknown. Pink wraps round 0.
HUES: tuple[tuple[str, float, float], ...] = (
    ("red", 18.0, 48.0),
    ("orange", 54.0, 72.0),
    ("yellow", 78.0, 105.0),
    ("green", 115.0, 190.0),
    ("blue", 205.0, 295.0),
    ("purple", 302.0, 335.0),
    ("pink", 342.0, 372.0),
)
DARK = 42.0  # L*: under this, pink reads as red and orange or yellow as brown
#: Lightness (L*, 0..100) bands of the colourless: black under 28, grey 36..58, white over 70.
GREYS: tuple[tuple[str, float, float], ...] = (("black", -1.0, 28.0), ("grey", 36.0, 58.0), ("white", 70.0, 101.0))


def colour_name(lab: Sequence[float]) -> str:
    """The palette word of a CIE Lab colour (L 0..100, a and b signed), or ``"unknown"``."""
    lum, a, b = (float(v) for v in lab[:3])
    if not all(math.isfinite(v) for v in (lum, a, b)):
        return UNKNOWN
    chroma = math.hypot(a, b)
    if chroma < CHROMA_GREY:
        return next((name for name, lo, hi in GREYS if lo <= lum < hi), UNKNOWN)
    if chroma < CHROMA_COLOUR or lum < 12.0:  # too dark for its hue to mean anything
        return UNKNOWN
    hue = math.degrees(math.atan2(b, a)) % 360.0
    name = next((n for n, lo, hi in HUES if lo <= hue < hi or lo <= hue + 360.0 < hi), UNKNOWN)
    # a dark pink is a deep (translucent) red; a dark orange or yellow, brown (measured
    # on the shared tray photos: maroon dice at L* 25-30, marbled brown ones at 29-35)
    if name == "pink" and lum < DARK:
        return "red"
    if name in ("orange", "yellow") and lum < DARK:
        return "brown"
    return name


def lab_of(bgr: np.ndarray) -> tuple[float, float, float]:
    """CIE Lab (L 0..100) of one BGR colour given as floats 0..1."""
    import cv2

    px = np.clip(np.asarray(bgr, np.float32).reshape(1, 1, 3), 0.0, 1.0)
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0]
    return float(lab[0]), float(lab[1]), float(lab[2])


def white_balanced_lab(bgr8: np.ndarray, white: np.ndarray | None) -> tuple[float, float, float]:
    """CIE Lab of an 8-bit BGR colour, divided channel by channel by ``white`` (8-bit BGR
    of the tray's white) when given."""
    c = np.asarray(bgr8, np.float32).reshape(3) / np.float32(255)
    if white is not None:
        w = np.maximum(np.asarray(white, np.float32).reshape(3) / np.float32(255), np.float32(1e-3))
        c = c / w
    return lab_of(c)


def lab8(med: np.ndarray | None) -> tuple[float, float, float]:
    """OpenCV 8-bit Lab (L 0..255, a and b centred on 128) of a median BGR, as the
    reader takes a die's body colour and the glyph embedding its enrolled views' colour
    (one float pixel: no 8-bit lookup tables to build, whose first use costs ~100 ms);
    None gives neutral grey black.

    >>> [int(round(v)) for v in lab8(np.array([200.0, 100.0, 20.0]))]
    [110, 144, 70]
    >>> lab8(None)
    (0.0, 128.0, 128.0)
    """
    if med is None:
        return (0.0, 128.0, 128.0)
    L, a, b = lab8_rows(np.asarray(med, np.float32).reshape(1, 3))[0]
    return (float(L), float(a), float(b))


def lab8_rows(bgr: np.ndarray) -> np.ndarray:
    """:func:`lab8` of N BGR colours at once (N x 3, 0..255): N x 3 float32.

    >>> lab8_rows(np.array([[200.0, 100.0, 20.0], [255, 255, 255]])).round().tolist()
    [[110.0, 144.0, 70.0], [255.0, 128.0, 128.0]]
    """
    import cv2

    lab = cv2.cvtColor((np.asarray(bgr) / 255.0).astype(np.float32).reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return np.stack([lab[:, 0] * 255 / 100, lab[:, 1] + 128, lab[:, 2] + 128], axis=1).astype(np.float32)
