"""A second look at a symbol die the glyph embedding reads: where its ink is.

The glyph embedding (:mod:`vision.embed`) can land two faces that differ by a detail
close together on real photos: enrolled from five photos each of the real d6 of one
colour, a white die showing 6 came within 0.975 of the 4's prototype (its own bar 0.97)
and was read as a 4, and a red 4 as a 5; with the 6 left out of the enrollment, the 6
was read all the same. Their *ink* says otherwise: the marks on the die (anything far in
colour from the die's own body, pips, glyphs, numerals) lie elsewhere.

An ink map (:func:`ink_of`) is the crop's ink within a disc of 0.42 die sides around its
centre, as a blurred :data:`SIZE` x :data:`SIZE` map, L2-normalised: the body colour is
the disc's median, and a pixel's ink is how far its colour lies from it, relative to the
crop's own contrast (the 98th percentile), by the rule :func:`vision.faces.extract`
measures ink with on a known tray (:func:`vision.faces.ink_of_distance`). Each enrolled view keeps its map (angle 0); a read crop's maps are
taken at :data:`ANGLES` turns and shifted up to :data:`SHIFT` px each way (the
detector's box is not exact), and :func:`ink_scores` gives, per enrolled view, the best
correlation over those. :func:`ink_agrees` keeps the embedding's read when its face's
best view reaches a floor in absolute terms and no view of another face comes closer
(a margin); otherwise the die is pending. It can only stop a read, never make one.

Pure functions of arrays (OpenCV for colour conversion and warps).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Sequence

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .embed import EmbedMatch, Prototype

__all__ = ["SIZE", "ANGLES", "SHIFT", "ink_of", "ink_views", "ink_reads", "ink_scores", "ink_agrees", "read_stands"]

SIZE = 24  # px: the ink map's side
ANGLES = 36  # turns of a read crop's map (every 10 degrees)
SHIFT = 2  # px of the map: a read crop's map is searched this far each way
ZOOMS: tuple[float, ...] = (0.85, 1.15)  # the read crop seen at these scales too, when needed
RADIUS = 0.42  # die sides: the disc whose ink is mapped (a d6's corner pips at 0.35)


@functools.lru_cache(maxsize=8)
def _disc(n: int, factor: float) -> np.ndarray:
    yy, xx = np.mgrid[:n, :n]
    c = (n - 1) / 2
    return np.asarray(np.hypot(xx - c, yy - c) <= RADIUS * n / factor)


def ink_of(crop: np.ndarray, factor: float = 1.3) -> np.ndarray:
    """The ink image (float32, 0..1, the crop's size, blurred) of one square BGR uint8
    crop that spans ``factor`` die sides: 0 outside the disc and on the body's colour.

    >>> c = np.full((48, 48, 3), 230, np.uint8); c[20:28, 20:28] = 20  # a white die, one black pip
    >>> ink = ink_of(c)
    >>> bool(ink[24, 24] > 0.9), bool(ink[10, 24] < 0.05), bool(ink[2, 2] == 0)
    (True, True, True)
    >>> float(ink_of(np.full((48, 48, 3), 128, np.uint8)).max())  # a blank face
    0.0
    """
    import cv2

    from .faces import ink_of_distance

    disc = _disc(crop.shape[0], factor)
    lab = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_BGR2LAB).astype(np.float32)
    body = np.median(lab[disc], axis=0)
    ink = ink_of_distance(np.sqrt(((lab - body) ** 2).sum(axis=2)), disc)
    return np.asarray(cv2.GaussianBlur(ink, (0, 0), 0.8), np.float32)


def _maps(crop: np.ndarray, factor: float, angles: Sequence[float], side: int, zoom: float = 1.0) -> np.ndarray:
    """The crop's ink turned by each of ``angles`` (degrees) on a ``side`` x ``side``
    canvas whose central :data:`SIZE` px span the disc (times ``zoom``): len(angles) x side x side."""
    import cv2

    ink = ink_of(crop, factor)
    n = crop.shape[0]
    c = (n - 1) / 2
    scale = zoom * SIZE / (2 * RADIUS * n / factor)
    out = []
    for a in angles:
        m = cv2.getRotationMatrix2D((c, c), a, scale)
        m[0, 2] += (side - 1) / 2 - c
        m[1, 2] += (side - 1) / 2 - c
        out.append(cv2.warpAffine(ink, m, (side, side), flags=cv2.INTER_LINEAR))
    return np.stack(out)


def _unit_rows(m: np.ndarray) -> np.ndarray:
    return np.asarray(m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-6), np.float32)


def ink_views(crops: np.ndarray, factor: float = 1.3) -> np.ndarray:
    """One unit ink map (angle 0, :data:`SIZE`\\ ² values) per enrolled view's crop: N x SIZE²."""
    if not len(crops):
        return np.zeros((0, SIZE * SIZE), np.float32)
    return _unit_rows(np.stack([_maps(c, factor, (0.0,), SIZE)[0].ravel() for c in crops]))


def ink_reads(crop: np.ndarray, factor: float = 1.3, zoom: float = 1.0) -> np.ndarray:
    """The unit ink maps of one read crop at :data:`ANGLES` turns and every shift up to
    :data:`SHIFT` px, the die seen ``zoom`` times larger: (ANGLES x (2 SHIFT + 1)²) x SIZE²."""
    side = SIZE + 2 * SHIFT
    big = _maps(crop, factor, [360.0 * k / ANGLES for k in range(ANGLES)], side, zoom)
    windows = [big[:, dy:dy + SIZE, dx:dx + SIZE].reshape(len(big), -1)
               for dy in range(2 * SHIFT + 1) for dx in range(2 * SHIFT + 1)]
    return _unit_rows(np.concatenate(windows))


def ink_scores(reads: np.ndarray, views: np.ndarray) -> np.ndarray:
    """Per enrolled view (rows of ``views``), the best correlation of the read crop's
    maps ``reads`` with it (NaN for a view with no map).

    >>> v = np.eye(3, dtype=np.float32)
    >>> ink_scores(v[:1], np.vstack([v, np.full((1, 3), np.nan, np.float32)])).tolist()
    [1.0, 0.0, 0.0, nan]
    """
    out = np.full(len(views), np.nan, np.float32)
    known = np.isfinite(views).all(axis=1) if len(views) else np.zeros(0, bool)
    if known.any() and len(reads):
        out[known] = (reads @ views[known].T).max(axis=0)
    return out


def ink_agrees(face_scores: Sequence[float], other_scores: Sequence[float], floor: float, margin: float) -> bool:
    """Whether a read stands: the best of its face's views' ink scores reaches ``floor``,
    and ``margin`` more than the best view of any other face (NaN scores: views with no
    map, left out; a face with none at all is not judged).

    >>> ink_agrees([0.85, 0.8], [0.7], 0.74, 0.0), ink_agrees([0.62], [0.7], 0.74, 0.0)
    (True, False)
    >>> ink_agrees([0.8], [0.81], 0.74, 0.0), ink_agrees([float("nan")], [0.9], 0.74, 0.0)
    (False, True)
    """
    mine = [s for s in face_scores if math.isfinite(s)]
    if not mine:
        return True
    others = [s for s in other_scores if math.isfinite(s)]
    best = max(mine)
    return best >= floor and (not others or best >= max(others) + margin)


def read_stands(crop: np.ndarray, protos: "Sequence[Prototype]", match: "EmbedMatch", floor: float | None,
                margin: float, factor: float = 1.3) -> bool:
    """Whether the embedding's read ``match`` of ``crop`` stands the look at its ink
    (:func:`ink_agrees`) against the views, among ``protos``, of the read face and of the
    embedding's next candidates that have an ink map; True when ``floor`` is None (no
    look), when nothing is read or when none of those views has a map."""
    if floor is None or match.kind is None or match.face is None:
        return True
    near = [p for p in protos if any((p.kind, p.face) == (k, f) for k, f, _ in match.candidates)]
    known = [p for p in near if len(p.inks) and np.isfinite(p.inks).all(axis=1).any()]
    if not known:
        return True
    views = np.vstack([p.inks for p in known])
    mine = np.concatenate([[(p.kind, p.face) == (match.kind, match.face)] * len(p.inks) for p in known])
    scores = ink_scores(ink_reads(crop, factor), views)
    for zoom in ZOOMS:
        if ink_agrees(scores[mine].tolist(), scores[~mine].tolist(), floor, margin):
            return True
        # the detector's box larger or smaller than the die: the maps at another scale
        scores = np.fmax(scores, ink_scores(ink_reads(crop, factor, zoom), views))
    return ink_agrees(scores[mine].tolist(), scores[~mine].tolist(), floor, margin)
