"""Finding the objects in a tray image.

Two ways, one output:

* with a background (the empty tray photographed at calibration, warped like the frame):
  each pixel is compared with the same pixel of the empty tray;
* without one (a single photo, no calibration): the empty tray is estimated from the
  photo itself by a wide median filter, then refined by averaging the tray around the
  objects found in a first pass.

The comparison is a per-channel ratio ``frame / background`` (lighting is multiplicative,
so a shadow scales all three channels alike and keeps the chromaticity; a reflection on
the tray is part of the background or, without one, of the smooth estimate). A pixel is
part of an object when it is clearly brighter than the tray (ratio > ``bright``), of a
different chromaticity (``chroma``), or much darker than any shadow (``dark``). Holes
(pips, black symbols) are filled; small specks are dropped.

An object cut by the frame edge is kept and flagged (``Blob.cut``): the reader reports
it as pending rather than silently dropping it.

Touching objects are split: the number of objects in a blob is the larger of the number
of distance-transform peaks (shapes meeting at a neck) and its area divided by the
typical single-object area (side-by-side dice whose union is a rectangle, which has no
neck); the pixels then go to the nearest seed (a power diagram weighted by each seed's
inner radius).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from .memo import keep_last

__all__ = ["Blob", "SegmentParams", "find_objects", "estimate_background", "estimated_background", "ratio_features"]


@dataclass(frozen=True)
class SegmentParams:
    bright: float = 1.30
    chroma: float = 0.16
    dark: float = 0.30
    min_area_mm2: float = 60.0
    max_area_mm2: float = 2400.0
    single_area_mm2: float = 250.0


@dataclass
class Blob:
    """One object: its box ``(x, y, w, h)`` in the image, its mask inside the box."""

    box: tuple[int, int, int, int]
    mask: np.ndarray  # uint8 0/255, shape (h, w)
    area: float
    centre: tuple[float, float]
    cut: bool = False  # touches the image edge: partly out of view

    def crop(self, image: np.ndarray, pad: int = 0) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
        """(image crop, mask crop, top-left) around the blob with ``pad`` pixels of margin."""
        x, y, w, h = self.box
        H, W = image.shape[:2]
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(W, x + w + pad), min(H, y + h + pad)
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        m[y - y0:y - y0 + h, x - x0:x - x0 + w] = self.mask
        return image[y0:y1, x0:x1], m, (x0, y0)


def estimate_background(image: np.ndarray, object_px: float, fg: np.ndarray | None = None) -> np.ndarray:
    """The empty tray as the photo suggests it (float32 BGR).

    Without ``fg``: a median over windows ~3 objects wide (objects are outvoted by the tray
    around them). With ``fg`` (a first object mask): a normalised convolution of the pixels
    outside the objects, which follows lighting gradients and soft reflections.
    """
    H, W = image.shape[:2]
    f = max(1.0, object_px / 10.0)
    small = cv2.resize(image, (max(8, int(W / f)), max(8, int(H / f))), interpolation=cv2.INTER_AREA)
    if fg is None:
        k = int(round(3.2 * object_px / f)) | 1
        k = max(5, min(k, (min(small.shape[:2]) - 1) | 1))
        if small.dtype != np.uint8:
            small = np.clip(small, 0, 255).astype(np.uint8)
        bg = cv2.medianBlur(small, k)
        return cv2.resize(bg, (W, H), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    valid = cv2.resize((fg == 0).astype(np.float32), small.shape[1::-1], interpolation=cv2.INTER_AREA)
    valid = (valid > 0.99).astype(np.float32)
    s = 1.2 * object_px / f
    num = cv2.GaussianBlur(small.astype(np.float32) * valid[..., None], (0, 0), s)
    den = cv2.GaussianBlur(valid, (0, 0), s)[..., None]
    first = estimate_background(image, object_px)
    first_small = cv2.resize(first, small.shape[1::-1], interpolation=cv2.INTER_AREA)
    bg = np.where(den > 0.05, num / np.maximum(den, 1e-6), first_small)
    return cv2.resize(bg, (W, H), interpolation=cv2.INTER_LINEAR).astype(np.float32)


def ratio_features(image: np.ndarray, background: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(brightness ratio, chromaticity difference) of each pixel against the empty tray."""
    img = cv2.GaussianBlur(image.astype(np.float32), (0, 0), 1.0) + np.float32(6.0)
    ratio = cv2.divide(img, background.astype(np.float32) + np.float32(6.0))
    b, g, r = cv2.split(ratio)
    bright = (b + g + r) * np.float32(1 / 3)
    inv = 1.0 / np.maximum(bright, 1e-3)
    chroma = cv2.sqrt((b * inv - 1) ** 2 + (g * inv - 1) ** 2 + (r * inv - 1) ** 2)
    return bright, chroma


def _mask(image: np.ndarray, background: np.ndarray, p: SegmentParams, exclude: np.ndarray | None) -> np.ndarray:
    bright, chroma = ratio_features(image, background)
    fg: np.ndarray = ((bright > p.bright) | (chroma > p.chroma) | (bright < p.dark)).astype(np.uint8) * 255
    if exclude is not None:
        fg[exclude > 0] = 0
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(fg)
    cv2.drawContours(filled, contours, -1, 255, -1)
    if exclude is not None:
        filled[exclude > 0] = 0
    return filled


@dataclass(frozen=True)
class _Sizes:
    """The blob areas (pixels) kept, and the area of one object; ``split``: split the
    blobs larger than one object by their area too (not only at their necks)."""

    min_area: float
    max_area: float
    single: float
    split: bool = True


def _sizes_at(ppm: float, p: SegmentParams) -> _Sizes:
    return _Sizes(p.min_area_mm2 * ppm * ppm, p.max_area_mm2 * ppm * ppm, p.single_area_mm2 * ppm * ppm)


def _sizes(areas: np.ndarray, ppm: float, known: bool, close_up: bool, shape: tuple[int, int], p: SegmentParams,
           last: bool) -> tuple[_Sizes, float | None]:
    """The sizes to keep given the blobs' ``areas`` found at scale ``ppm``, or (when the
    blobs tell the scale was guessed wrong, and ``last`` is false) the scale to try again."""
    H, W = shape
    at = _sizes_at(ppm, p)
    if known:
        return at, None
    if close_up:
        return replace(at, max_area=0.5 * H * W, split=False), None
    plausible = areas[(areas > 0.2 * at.single) & (areas < 4 * at.single)]
    if len(plausible) >= 3:  # the photo tells the scale better than a guess
        single = float(np.median(plausible))
        return _Sizes(single * p.min_area_mm2 / p.single_area_mm2, single * p.max_area_mm2 / p.single_area_mm2,
                      single), None
    # few objects: a close-up (one die filling the photo) or a far shot; take the
    # scale from the largest object, and do not split blobs by area
    big = areas[areas > 0.002 * H * W]
    if len(big) == 0 or last:
        return replace(at, min_area=max(at.min_area, 0.0004 * H * W) if len(big) else at.min_area,
                       max_area=0.5 * H * W, split=False), None
    new_ppm = float(np.sqrt(big.max() / p.single_area_mm2))
    if 0.67 < new_ppm / ppm < 1.5:
        return replace(at, max_area=max(at.max_area, 0.5 * H * W), split=False), None
    return at, new_ppm


def estimated_background(image: np.ndarray, exclude: np.ndarray | None, p: SegmentParams,
                         object_px: float) -> np.ndarray:
    """The empty tray estimated from the photo (no background): a first median estimate,
    then refined around the objects it shows."""
    # ignored areas (the white marker papers) must not brighten the estimate
    # of the tray around them: paint them with the tray's median colour first
    src = image
    if exclude is not None and np.any(exclude > 0):
        src = image.copy()
        src[exclude > 0] = np.median(image[::4, ::4][exclude[::4, ::4] == 0], axis=0).astype(np.uint8)
    bg0 = estimate_background(src, object_px)
    fg0 = _mask(src, bg0, p, exclude)
    if exclude is not None:
        fg0 = np.maximum(fg0, exclude)
    fg0 = cv2.dilate(fg0, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    return estimate_background(src, object_px, fg0)


def _cut(x: int, y: int, w: int, h: int, W: int, H: int) -> bool:
    return bool(x == 0 or y == 0 or x + w >= W or y + h >= H)


def _blobs(labels: np.ndarray, stats: np.ndarray, sizes: _Sizes, shape: tuple[int, int]) -> list[Blob]:
    """The connected components of a plausible size, split into objects, top to bottom."""
    H, W = shape
    blobs: list[Blob] = []
    for i in range(1, len(stats)):
        x, y, w, h, area = stats[i]
        if area < sizes.min_area or area > sizes.max_area:
            continue
        if _cut(x, y, w, h, W, H) and area < 0.3 * sizes.single:
            continue  # a sliver at the frame edge
        comp = (labels[y:y + h, x:x + w] == i).astype(np.uint8) * 255
        for part in _split(comp, sizes.single if sizes.split else float("inf"), sizes.min_area):
            b = _blob(part, x, y)
            b.cut = _cut(*b.box, W, H)
            blobs.append(b)
    blobs.sort(key=lambda b: (b.centre[1], b.centre[0]))
    return blobs


def find_objects(image: np.ndarray, background: np.ndarray | None = None, px_per_mm: float | None = None,
                 exclude: np.ndarray | None = None, params: SegmentParams = SegmentParams(),
                 close_up: bool = False) -> tuple[list[Blob], np.ndarray]:
    """Objects in ``image`` (BGR uint8) and the empty-tray image used (float32).

    ``px_per_mm`` is known on a calibrated top-down tray image; otherwise the scale is
    guessed from the image width (a tray ~240 mm wide filling the photo) and refined from
    the blobs found. ``close_up`` (an enrollment photo of one object, no calibration):
    an object may fill up to half the frame and blobs are not split by area, so that
    specks of wood grain or glitter, however many, never set the scale that the object
    itself is then measured against.
    """
    shape = (int(image.shape[0]), int(image.shape[1]))
    ppm = px_per_mm if px_per_mm else shape[1] / 260.0
    for last in (False, True):
        if background is None:
            bg = estimated_background(image, exclude, params, 16.0 * ppm)
        else:
            bg = _smoothed(background)
        mask = _mask(image, bg, params, exclude)
        # 16-bit labels when there cannot be more components than that (a third of the
        # time of 32-bit ones on a 784 x 784 tray)
        ltype = cv2.CV_16U if cv2.countNonZero(mask) < 65535 else cv2.CV_32S
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=ltype)
        sizes, retry = _sizes(stats[1:, cv2.CC_STAT_AREA].astype(float), ppm, bool(px_per_mm), close_up, shape,
                              params, last)
        if retry is None:
            break
        ppm = retry
    if last:  # found at a scale the first blobs told: they are few, not split by area
        sizes = replace(sizes, split=False)
    return _blobs(labels, stats, sizes, shape), bg


@keep_last
def _smoothed(background: np.ndarray) -> np.ndarray:
    """``background`` (the calibration's empty tray) blurred as every frame is compared
    with it; remembered for the last reference (:func:`vision.memo.keep_last`).

    >>> bg = np.full((40, 40, 3), 100, np.uint8)
    >>> a = _smoothed(bg); a is _smoothed(bg), a.dtype.name
    (True, 'float32')
    """
    return cv2.GaussianBlur(background.astype(np.float32), (0, 0), 1.5)


def _blob(mask: np.ndarray, ox: int, oy: int) -> Blob:
    x, y, w, h = cv2.boundingRect(mask)
    sub = mask[y:y + h, x:x + w].copy()
    m = cv2.moments(sub, binaryImage=True)
    cx = m["m10"] / max(m["m00"], 1) + x + ox
    cy = m["m01"] / max(m["m00"], 1) + y + oy
    return Blob((x + ox, y + oy, w, h), sub, float(m["m00"]), (cx, cy))


def _split(comp: np.ndarray, single: float, min_area: float) -> list[np.ndarray]:
    area = float(np.count_nonzero(comp))
    padded = cv2.copyMakeBorder(comp, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    dist = cv2.distanceTransform(padded, cv2.DIST_L2, 5)[1:-1, 1:-1]
    dmax = float(dist.max())
    if dmax <= 0:
        return [comp]
    k = max(3, int(round(dmax * 0.6)) | 1)
    local = cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    peaks = ((dist >= local - 0.5) & (dist > 0.45 * dmax)).astype(np.uint8)
    n, lab, stats, cents = cv2.connectedComponentsWithStats(peaks)
    seeds = [(float(cents[i][0]), float(cents[i][1]), float(dist[lab == i].max())) for i in range(1, n)]
    seeds = _merge_seeds(seeds)
    k_area = int(round(area / single)) if area > 1.55 * single else 1
    if len(seeds) < k_area:
        seeds = _kmeans_seeds(comp, dist, k_area)
    if len(seeds) <= 1:
        return [comp]
    ys, xs = np.nonzero(comp)
    d = np.stack([(xs - sx) ** 2 + (ys - sy) ** 2 - r * r for sx, sy, r in seeds])
    owner = d.argmin(axis=0)
    parts = []
    for j in range(len(seeds)):
        m = np.zeros_like(comp)
        sel = owner == j
        m[ys[sel], xs[sel]] = 255
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
        if np.count_nonzero(m) >= min_area:
            parts.append(m)
    return parts or [comp]


def _merge_seeds(seeds: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    seeds = sorted(seeds, key=lambda s: -s[2])
    kept: list[tuple[float, float, float]] = []
    for s in seeds:
        if all(np.hypot(s[0] - t[0], s[1] - t[1]) > 0.9 * (s[2] + t[2]) for t in kept):
            kept.append(s)
    return kept


def _kmeans_seeds(comp: np.ndarray, dist: np.ndarray, k: int) -> list[tuple[float, float, float]]:
    ys, xs = np.nonzero(comp)
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.2)
    cv2.setRNGSeed(12345)
    # called untyped: OpenCV's stubs disagree between releases on ``bestLabels=None``
    # (5.0 has no overload for it, 5.1 has), and CI takes whichever is newest
    kmeans: Any = cv2.kmeans
    _, lab, centres = kmeans(pts, k, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    out = []
    for c in centres:
        cx, cy = int(round(c[0])), int(round(c[1]))
        r = float(dist[min(max(cy, 0), dist.shape[0] - 1), min(max(cx, 0), dist.shape[1] - 1)])
        out.append((float(c[0]), float(c[1]), r))
    return out
