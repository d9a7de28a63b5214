"""The empty-tray reference, kept up to date as the light drifts.

Calibration photographs the empty tray once (:func:`vision.calibration.calibrate`); the
objects on a calibrated tray are then found by their difference from it. Daylight
through a window, a lamp switched on, the LED ring warming up: the tray itself changes
slowly, and an old reference turns shading into "objects" or hides faint ones.

So every frame the reader judges empty refreshes the reference: when a read of a
calibrated tray finds nothing, and the frame differs from the reference only by an
overall change of light (no patch stands out once the global gain is divided out), it
is blended into the reference. A frame with something the reader missed (a clear gem,
say) stands out and is never blended: the reference cannot swallow an object.

>>> import numpy as np
>>> bg = np.full((40, 60, 3), 120, np.uint8)
>>> brighter = np.full((40, 60, 3), 150, np.uint8)   # the whole tray lit up
>>> is_empty_like(brighter, bg)
True
>>> blend(bg, brighter, 0.25)[0, 0].tolist()
[128, 128, 128]
>>> with_object = brighter.copy(); with_object[10:20, 10:20] = (60, 200, 60)
>>> is_empty_like(with_object, bg)
False
"""

from __future__ import annotations

import numpy as np

from .memo import keep_last

__all__ = ["is_empty_like", "blend", "light_floor", "differs", "changed", "ALPHA", "MAX_CHANGED", "TOLERANCE",
           "LIGHT_FLOOR", "SOLID_MM"]

ALPHA = 0.25  # weight of the new frame: a quarter, so one odd frame moves little
TOLERANCE = 0.12  # per-pixel relative change (after the global gain) that "stands out"
MAX_CHANGED = 0.002  # share of the tray that may stand out (noise, a speck of dust)


def is_empty_like(frame: np.ndarray, background: np.ndarray, tolerance: float = TOLERANCE,
                  max_changed: float = MAX_CHANGED, exclude: np.ndarray | None = None) -> bool:
    """True when ``frame`` is ``background`` under other light: the ratio of the two
    (each averaged over 4 x 4 pixels, which takes the sensor noise out), divided by its
    median per channel, stays within ``tolerance`` on all but ``max_changed`` of the tray
    (``exclude``: a mask of what is no tray, e.g. the markers' papers)."""
    import cv2

    if frame.shape != background.shape or frame.ndim != 3:
        return False
    f = cv2.resize(frame, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32) + 6.0
    b = cv2.resize(background, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32) + 6.0
    keep = np.ones(f.shape[:2], bool)
    if exclude is not None and exclude.shape[:2] == frame.shape[:2]:
        keep = cv2.resize(exclude, (f.shape[1], f.shape[0]), interpolation=cv2.INTER_NEAREST) == 0
    if not keep.any():
        return False
    r = f / b
    med = np.median(r[keep].reshape(-1, 3), axis=0)
    d = np.abs(r / med[None, :] - 1.0).max(axis=2)
    return float((d[keep] > tolerance).mean()) <= max_changed


def blend(background: np.ndarray, frame: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """``(1 - alpha) * background + alpha * frame``, rounded, as uint8."""
    out = (1.0 - alpha) * background.astype(np.float32) + alpha * frame.astype(np.float32)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


#: The light grey floor the plain-photo d6 networks learnt: the brightness (HSV value) of
#: the colourless pixels of the shared dice photos, median 182 over 40 of their *fit*
#: photos (181-186 from the tenth to the ninetieth percentile).
LIGHT_FLOOR = 182.0
#: A pixel is an object's, not the floor's, when against the empty tray (the frame's own
#: gain and white balance divided out) its colour changed, the largest of its three
#: channel ratios over the smallest above ``OBJECT_CHROMA``, or it is brighter by
#: ``OBJECT_BRIGHT``. A shadow is darker by the same ratio in every channel: floor.
#: Chosen on the *calib* photos with their floor painted as felt and wood (7 December
#: 2026, ``benchmarks/bench_calibrated_tray.py --split calib``).
OBJECT_CHROMA = 1.25
OBJECT_BRIGHT = 1.3
DARK_OFFSET = 12.0  # levels added before the ratios: a near-black wall's noise is no object
#: The gaps :func:`light_floor` closes between an object's parts (``solid``): about a
#: pip's spacing. On the *calib* photos on black felt 77.8 -> 83.3 % read right
#: automatically (dark dice kept whole), the other floors within a point.
SOLID_MM = 4.0


def light_floor(frame: np.ndarray, empty: np.ndarray, level: float = LIGHT_FLOOR, solid: int = 0) -> np.ndarray:
    """``frame`` with the tray's floor repainted as the light grey floor of the photos the
    d6 networks learnt from, the objects as they are. ``empty`` is the empty tray in the
    frame's pixels. Each floor pixel becomes ``level`` times its brightness against the
    empty tray: a shadow stays a shadow, the floor's own colour, grain and light's
    gradient go. An object (see :data:`OBJECT_CHROMA`) keeps its pixels and a one-pixel
    rim of its floor; with ``solid`` (pixels, about :data:`SOLID_MM`), the gaps narrower
    than that between its parts and its holes too: a black die on a black felt
    differs from it by its pips alone. Used on a known tray (:mod:`vision.tray_learned`): on a dark felt the
    die-centre network found under half of the real dice, on the floor brought back
    nearly all.

    >>> empty = np.full((40, 40, 3), (45, 75, 30), np.uint8)   # dark green felt
    >>> frame = empty.copy(); frame[10:20, 10:20] = (40, 40, 200)   # a red die
    >>> frame[25:35, 10:20] = (27, 45, 18)                          # a shadow: 0.6 of the felt
    >>> out = light_floor(frame, empty)
    >>> out[15, 15].tolist(), out[5, 30].tolist(), out[30, 15].tolist()
    ([40, 40, 200], [182, 182, 182], [125, 125, 125])
    """
    import cv2

    if frame.shape != empty.shape or frame.ndim != 3:
        return frame
    # the reference smoothed (its sensor noise out); the frame as it is, its edges sharp
    changed, shade = _changed(_against(frame, empty, _smooth_reference(empty)))
    square = np.ones((3, 3), np.uint8)
    obj = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, square)  # no speck
    if solid > 1:  # an object is solid: the body of a die as dark as the floor, between its pips
        obj = cv2.morphologyEx(obj, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (solid, solid)))
        # and its holes filled, up to a die's size (not the tray inside a ring of change)
        contours, tree = cv2.findContours(obj, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        if tree is not None:
            holes = [c for c, t in zip(contours, tree[0]) if t[3] >= 0 and cv2.contourArea(c) <= (4 * solid) ** 2]
            cv2.drawContours(obj, holes, -1, 1, -1)
    obj = cv2.dilate(obj, square)  # a rim of floor
    keep = cv2.GaussianBlur(obj.astype(np.float32), (0, 0), 1.0)
    floor = np.asarray(np.clip(level * np.clip(shade, 0.2, 1.2) + 0.5, 0, 255), np.uint8)
    return np.asarray(cv2.blendLinear(frame, cv2.merge([floor, floor, floor]), keep, 1.0 - keep), np.uint8)


def changed(frame: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Where ``frame`` shows an object against the empty tray ``empty`` (the same size),
    by the rule of :func:`light_floor` (the frame's overall gain divided out, a shadow no
    object): a boolean mask.

    >>> empty = np.full((20, 20, 3), (45, 75, 30), np.uint8)
    >>> frame = (empty * 0.8).astype(np.uint8); frame[5:10, 5:10] = (40, 40, 200)
    >>> m = changed(frame, empty)
    >>> bool(m[7, 7]), int(m.sum())
    (True, 25)
    """
    return _changed(_against(frame, empty, _lifted(empty)))[0]


def _against(frame: np.ndarray, empty: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Each pixel of ``frame`` relative to ``reference`` (the empty tray ``empty``, lifted
    off zero, smoothed or not), the frame's overall gain divided out."""
    r: np.ndarray = _lifted(frame) / reference
    r /= _gain(frame, empty).astype(np.float32)  # in float32: 3 ms less a 760 x 760 frame
    return r


#: A patch much darker than the empty tray (its brightness ratio under this) is an
#: object's too, whatever its colour: a brown gem on wood (a shadow is lighter).
OBJECT_DARK = 0.6


def differs(frame: np.ndarray, empty: np.ndarray, boxes: "list[tuple[int, int, int, int]]",
            share: float = 1 / 3) -> list[bool]:
    """For each box (x, y, w, h) of ``frame``, whether the middle half of it differs from
    the empty tray there: at least ``share`` of its pixels an object's by the rule of
    :func:`light_floor` (or darker than :data:`OBJECT_DARK`). A learned detector's find
    on a calibrated tray that the tray does not show changed is the floor (wood grain,
    a fold of felt).

    >>> empty = np.full((60, 60, 3), (70, 120, 165), np.uint8)   # wood
    >>> frame = empty.copy(); frame[10:30, 10:30] = (40, 40, 200)  # a red gem
    >>> differs(frame, empty, [(10, 10, 20, 20), (35, 35, 20, 20)])
    [True, False]
    """
    if frame.shape != empty.shape or frame.ndim != 3:
        return [True] * len(boxes)
    gain = _gain(frame, empty)
    out = []
    h, w = frame.shape[:2]
    for x, y, bw, bh in boxes:  # the patches alone: a Pi frame is 3 million pixels
        x0, y0 = max(0, x + bw // 4), max(0, y + bh // 4)
        x1, y1 = min(w, x + bw - bw // 4), min(h, y + bh - bh // 4)
        if x1 <= x0 or y1 <= y0:
            out.append(True)
            continue
        changed, shade = _changed(_lifted(frame[y0:y1, x0:x1]) / _lifted(empty[y0:y1, x0:x1]) / gain)
        out.append(bool((changed | (shade < OBJECT_DARK)).mean() >= share))
    return out


@keep_last
def _smooth_reference(empty: np.ndarray) -> np.ndarray:
    """The empty tray smoothed (its sensor noise out) and lifted (:func:`_lifted`), as
    :func:`light_floor` divides every frame by it; remembered for the last reference
    (:func:`vision.memo.keep_last`)."""
    import cv2

    return _lifted(cv2.GaussianBlur(empty, (0, 0), 1.0))


def _lifted(a: np.ndarray) -> np.ndarray:
    """``a`` as float32, :data:`DARK_OFFSET` added (a near-black pixel's noise no ratio)."""
    return a.astype(np.float32) + DARK_OFFSET


def _gain(frame: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """The frame's overall gain and white balance against the empty tray: the median
    ratio per channel, over every eighth pixel."""
    return np.asarray(np.median((_lifted(frame[::8, ::8]) / _lifted(empty[::8, ::8])).reshape(-1, 3), axis=0))


def _changed(r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of the ratios ``r`` (H x W x 3, frame over empty tray, the gain divided out), where
    an object is (:data:`OBJECT_CHROMA`, :data:`OBJECT_BRIGHT`) and each pixel's shade
    (the mean ratio)."""
    import cv2

    b, g, red = cv2.split(r)  # per channel: numpy's reductions over an axis of three are slow
    shade = (b + g + red) / 3.0
    most, least = np.maximum(np.maximum(b, g), red), np.minimum(np.minimum(b, g), red)
    return (most > OBJECT_CHROMA * least) | (shade > OBJECT_BRIGHT), shade
