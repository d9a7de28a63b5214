"""Reading a die's face (and telling what kind of die or gem it is) against enrolled faces.

Each object is described by rotation-free, light-free features:

* colours are taken relative to the empty tray around the object (``frame / background``
  per channel, times a fixed grey): uneven, tinted or dimmer light cancels out;
* the *ink* map: how far each pixel's colour is from the body's (pips, numerals,
  symbols, whether dark on light or light on dark; relative to the object's own contrast),
  on a canvas centred on the object and scaled by its size;
* the silhouette (square, triangle, kite, pentagon, disc);
* the body colour (median Lab of the non-ink pixels): blue, yellow and red symbol dice
  share a shape but not a colour.

The crop is rotated through 36 angles and compared with every enrolled template by
normalised correlation (ink and silhouette at the same angle); the body colour distance
is subtracted. The best class must score above ``min_score`` and beat the runner-up by
``min_margin``, and its face must be close to an enrolled face in absolute terms
(``min_face_ink``; ``single_face_ink`` when the kind has one enrolled face, which has no
runner-up to beat), otherwise the die is *pending*: a face nobody enrolled is never read
as the nearest one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Protocol

import cv2
import numpy as np

from .segment import Blob

__all__ = ["Features", "Match", "ClassifyParams", "extract", "classify", "ink_of_distance", "INK_SIZE", "SIL_SIZE",
           "ROTATIONS"]


class Templates(Protocol):
    """What classifying asks of the enrolled faces (:class:`vision.enroll.Enrollment`,
    which builds on this module's features, so it is named here by shape, not imported)."""

    classes: list[tuple[str, int | str]]
    colour: np.ndarray
    ink: np.ndarray
    sil: np.ndarray
    ink_frac: np.ndarray
    label: np.ndarray

    def self_similarity(self, ci: int) -> float | None: ...

INK_SIZE = 56
SIL_SIZE = 20
ROTATIONS = 36
REF_GREY = 40.0  # the tray's grey in relative colours (low enough that white on dark felt never clips)
NO_INK = 0.004
INK_SPAN = 1.1  # the ink canvas spans this many times the object's size (sqrt of its area)
EMBED_CROP, EMBED_FACTOR = 48, 1.3  # the cut the glyph embedding reads (vision.embed)


@dataclass(frozen=True)
class ClassifyParams:
    min_score: float = 0.55
    min_margin: float = 0.08  # between the best kind and the best other kind
    min_face_margin: float = 0.025  # between the best two faces of that kind (ink only)
    ink_weight: float = 0.65
    colour_sigma: float = 14.0
    colour_weight: float = 0.6
    #: Open-set honesty: the best face's ink score must reach this in absolute terms
    #: (measured on the shipped renders, 96 dice of 8 kinds: a right face scores 0.945 at
    #: the least; the best wrong face 0.76 at the median, 0.90 at the 95th percentile,
    #: 0.925 at the most; leaving one d12 face out, its dice scored 0.87 on another face).
    min_face_ink: float = 0.92
    #: With a single enrolled face of a kind there is no runner-up to beat: a face nobody
    #: enrolled would be read as that one. Above every wrong face measured (0.93).
    single_face_ink: float = 0.94
    #: A face with two views or more: its read must come within ``spread_margin`` of how
    #: well its own views match each other (:meth:`Enrollment.self_similarity`), kept
    #: between ``face_ink_floor`` and ``face_ink_ceiling``. Leaving one face out of the
    #: shipped renders, the d12's 5 scored 0.924 on its 8, whose own views agree at 0.984.
    spread_margin: float = 0.03
    face_ink_floor: float = 0.88
    face_ink_ceiling: float = 0.96


@dataclass
class Features:
    """What the classifier compares: ink map and silhouette (at the captured angle, or
    at every angle when ``rotated``), body colour (Lab), ink fraction, and the relative
    colour crop gems need."""

    ink: np.ndarray  # (ROTATIONS, INK_SIZE**2) normalised, or (INK_SIZE**2,) for a template
    sil: np.ndarray
    colour: np.ndarray  # Lab, float32 (3,)
    ink_frac: float
    rel: np.ndarray  # relative colour crop, float32 BGR, tray grey = REF_GREY
    mask: np.ndarray  # uint8 mask of the crop
    #: The reader's square cut of the object's own pixels (:func:`vision.pips.crop`, 48 px,
    #: 1.3 sides): what the glyph embedding (:mod:`vision.embed`) reads; None if not cut.
    crop: np.ndarray | None = None


@dataclass(frozen=True)
class Match:
    """The classifier's answer: best (kind, face), a confidence in [0, 1], the margin to
    the runner-up and the leading candidates."""

    kind: str
    face: int | str
    score: float
    margin: float
    confidence: float
    pending: bool
    candidates: tuple[tuple[str, int | str, float], ...]


def _unit(v: np.ndarray) -> np.ndarray:
    v = v.astype(np.float32).reshape(v.shape[0], -1) if v.ndim > 1 else v.astype(np.float32).reshape(1, -1)
    v = v - v.mean(axis=1, keepdims=True)
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return np.asarray(v / np.maximum(n, 1e-6), np.float32)


MIN_INK_CONTRAST = 14.0  # Lab units: an object with less colour contrast has no ink (a blank face)


def ink_of_distance(d: np.ndarray, region: np.ndarray) -> np.ndarray:
    """The ink (float32, 0..1) of an object from each pixel's colour distance ``d`` to its
    body colour, within ``region`` (bool): relative to the object's own contrast (the 98th
    percentile of ``d`` there), none below :data:`MIN_INK_CONTRAST`. Shared by
    :func:`extract` and :func:`vision.glyph_ink.ink_of`.

    >>> d = np.zeros((4, 4), np.float32); d[1, 1] = 60.0
    >>> ink = ink_of_distance(d, np.ones((4, 4), bool))
    >>> float(ink[1, 1]), float(ink[0, 0])
    (1.0, 0.0)
    >>> float(ink_of_distance(np.full((4, 4), 5.0, np.float32), np.ones((4, 4), bool)).max())
    0.0
    """
    top = float(np.percentile(d[region], 98)) if np.count_nonzero(region) else 0.0
    if top < MIN_INK_CONTRAST:
        return np.zeros(d.shape, np.float32)
    return np.asarray(np.clip((d - 0.4 * top) / (0.35 * top), 0, 1) * region, np.float32)


def extract(image: np.ndarray, background: np.ndarray, blob: Blob, rotated: bool = True) -> Features:
    """Features of ``blob`` in ``image`` (BGR uint8) against the empty tray ``background``."""
    pad = max(4, int(0.3 * math.sqrt(blob.area)))
    crop, mask, (ox, oy) = blob.crop(image, pad)
    bg = background[oy:oy + crop.shape[0], ox:ox + crop.shape[1]].astype(np.float32)
    rel = np.clip((crop.astype(np.float32) + 6.0) / (bg + 6.0) * REF_GREY, 0, 255)
    rel8 = rel.astype(np.uint8)
    lab = cv2.cvtColor(rel8, cv2.COLOR_BGR2LAB).astype(np.float32)
    side = math.sqrt(max(blob.area, 1.0))
    er = max(1, int(round(side * 0.1)))  # keep off the die's shaded edge
    inner = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * er + 1, 2 * er + 1)))
    if np.count_nonzero(inner) < 10:
        inner = mask
    L = lab[..., 0]
    med = np.median(lab[inner > 0], axis=0) if np.count_nonzero(inner) else np.zeros(3, np.float32)
    # ink contrast relative to this object's own (an over-exposed frame squeezes white
    # numerals on orange to a small lightness step; a white die's shaded rim stays well
    # under its black pips)
    # distance in colour, not only lightness: an over-exposed frame can clip a white
    # numeral and an orange body to nearly the same lightness, not the same colour
    d = np.sqrt(((lab - med[None, None, :]) ** 2).sum(axis=2))
    ink = ink_of_distance(d, inner > 0)
    body = (inner > 0) & (ink < 0.05)
    colour = np.median(lab[body], axis=0) if np.count_nonzero(body) > 5 else np.median(lab[inner > 0], axis=0)
    ink_frac = float(ink[inner > 0].mean()) if np.count_nonzero(inner) else 0.0
    mm = cv2.moments(mask, binaryImage=True)
    cx, cy = mm["m10"] / max(mm["m00"], 1), mm["m01"] / max(mm["m00"], 1)
    angles = range(0, 360, 360 // ROTATIONS) if rotated else [0]
    inks, sils = [], []
    ink_scale = INK_SIZE / (INK_SPAN * side)
    sil_scale = SIL_SIZE / (2.0 * side)
    sil_src = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), max(0.5, 0.5 / sil_scale))
    ink_src = cv2.GaussianBlur(ink.astype(np.float32), (0, 0), max(0.5, 0.35 / ink_scale))
    for a in angles:
        M = cv2.getRotationMatrix2D((cx, cy), a, ink_scale)
        M[0, 2] += INK_SIZE / 2 - cx
        M[1, 2] += INK_SIZE / 2 - cy
        inks.append(cv2.warpAffine(ink_src, M, (INK_SIZE, INK_SIZE), flags=cv2.INTER_LINEAR))
        M = cv2.getRotationMatrix2D((cx, cy), a, sil_scale)
        M[0, 2] += SIL_SIZE / 2 - cx
        M[1, 2] += SIL_SIZE / 2 - cy
        sils.append(cv2.warpAffine(sil_src, M, (SIL_SIZE, SIL_SIZE), flags=cv2.INTER_LINEAR))
    ink_arr = _unit(np.stack(inks))
    sil_arr = _unit(np.stack(sils))
    if not rotated:
        ink_arr, sil_arr = ink_arr[0], sil_arr[0]
    from .pips import crop as cut

    square = cut(image, blob.centre[0], blob.centre[1], side, EMBED_CROP, EMBED_FACTOR)
    return Features(ink_arr, sil_arr, colour.astype(np.float32), ink_frac, rel, mask, square)


def colour_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Lab distance with lightness counted 0.3 (shading and glare change it more than hue)."""
    d = np.asarray(a, np.float32) - np.asarray(b, np.float32)
    return np.asarray(np.sqrt((0.3 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2), np.float32)


def _products(q: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """``q @ templates.T`` as one matrix-vector product per row of ``q``.

    A matrix product this size makes OpenBLAS wake its thread pool, which on a busy
    2-core Pi (or CI box) costs 10-50x more than the arithmetic; matrix-vector products
    stay on the calling thread.
    """
    return np.stack([templates @ row for row in q])


def class_scores(feat: Features, enrollment: Templates, params: ClassifyParams = ClassifyParams()
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(overall score, ink-only score) of every enrolled class (index into ``enrollment.classes``).

    The overall score (ink and silhouette correlation at the best common angle, minus a
    body-colour and an ink-amount penalty) tells the kind; the ink-only score tells faces
    of one kind apart (their silhouette and colour are the same).
    """
    dcol = colour_distance(enrollment.colour, feat.colour[None, :])
    col = np.exp(-0.5 * (dcol / params.colour_sigma) ** 2)
    # only templates of a plausible body colour are compared pixel by pixel
    rows = np.nonzero(dcol < 3.0 * params.colour_sigma)[0]
    if len(rows) == 0:
        rows = np.arange(len(dcol))
    if feat.ink_frac < NO_INK:
        # a blank object (a gem with its highlight lost): correlation means nothing;
        # it matches the templates that are blank as well
        ink_s = np.repeat(np.exp(-enrollment.ink_frac[rows] / 0.02)[None, :], feat.ink.shape[0], axis=0)
    else:
        ink_s = _products(feat.ink, enrollment.ink[rows])  # (ROT, R)
    sil_s = _products(feat.sil, enrollment.sil[rows])
    joint = params.ink_weight * ink_s + (1 - params.ink_weight) * sil_s
    shape = joint.max(axis=0)
    ink_only = ink_s.max(axis=0)
    frac = np.exp(-np.abs(enrollment.ink_frac[rows] - feat.ink_frac) / 0.08)
    s = shape - params.colour_weight * (1 - col[rows]) - 0.15 * (1 - frac)
    labels = enrollment.label[rows]
    n = len(enrollment.classes)
    out = np.full(n, -9.0, np.float32)
    np.maximum.at(out, labels, s.astype(np.float32))
    out_ink = np.full(n, -9.0, np.float32)
    np.maximum.at(out_ink, labels, ink_only.astype(np.float32))
    return out, out_ink


def view_agreement(ink: np.ndarray) -> float:
    """The median, over the views (rows of unrotated ink templates), of each view's best
    correlation with the other views at any of :data:`ROTATIONS` turns."""
    n = len(ink)
    maps = ink.reshape(n, INK_SIZE, INK_SIZE).astype(np.float32)
    c = INK_SIZE / 2 - 0.5
    turned = np.empty((n, ROTATIONS, INK_SIZE * INK_SIZE), np.float32)
    for r, a in enumerate(range(0, 360, 360 // ROTATIONS)):
        m = cv2.getRotationMatrix2D((c, c), a, 1.0)
        for i in range(n):
            turned[i, r] = cv2.warpAffine(maps[i], m, (INK_SIZE, INK_SIZE)).reshape(-1)
    flat = _unit(ink.reshape(n, -1))
    best = []
    for i in range(n):
        others = flat[[j for j in range(n) if j != i]]
        best.append(float(_products(_unit(turned[i]), others).max()))
    return float(np.median(best))


def face_threshold(agreement: float | None, params: ClassifyParams = ClassifyParams()) -> float:
    """The ink score a read of a face must reach, from how well its views agree."""
    if agreement is None:
        return params.min_face_ink
    return float(np.clip(agreement - params.spread_margin, params.face_ink_floor, params.face_ink_ceiling))


def decide(scores: np.ndarray, ink_scores: np.ndarray, classes: list[tuple[str, int | str]],
           params: ClassifyParams = ClassifyParams(),
           agreement: "Callable[[int], float | None] | None" = None) -> Match:
    """Best class, confidence and pending flag from class scores.

    The kind is the best class's; its margin is to the best class of another kind. The
    face is the best ink score among that kind's faces; its margin is to the second face.
    """
    order = np.argsort(-scores)
    best_i = int(order[0])
    kind = classes[best_i][0]
    best = float(scores[best_i])
    others = [float(scores[i]) for i in order if classes[int(i)][0] != kind]
    kind_margin = best - (others[0] if others else -1.0)
    same = [i for i in range(len(classes)) if classes[i][0] == kind]
    same.sort(key=lambda i: -float(ink_scores[i]))
    face_i = same[0]
    face_ink = float(ink_scores[face_i])
    if len(same) > 1:
        face_margin = float(ink_scores[same[0]] - ink_scores[same[1]])
    else:  # no second face to beat: the one face must be matched closely in absolute terms
        face_margin = 1.0 if face_ink >= params.single_face_ink else 0.0
    need = face_threshold(agreement(face_i) if agreement is not None else None, params)
    if kind != "gem" and face_ink < need:
        face_margin = 0.0  # not close enough to the enrolled views of that face
    if kind == "gem":  # gems share one look: the best overall; vision.gems decides the colour
        face_i, face_margin = best_i, 1.0
    margin = min(kind_margin, face_margin * params.min_margin / params.min_face_margin)
    score = float(scores[face_i])
    conf = float(np.clip(score, 0, 1) * (1 - math.exp(-max(margin, 0) / 0.05)))
    pending = (score < params.min_score or kind_margin < params.min_margin
               or face_margin < params.min_face_margin)
    cands = tuple((kind, classes[i][1], float(ink_scores[i])) for i in same[:3])
    return Match(kind, classes[face_i][1], score, margin, conf, pending, cands)


def classify(feat: Features, enrollment: Templates, params: ClassifyParams = ClassifyParams(),
             kinds: tuple[str, ...] | None = None) -> Match:
    """The enrolled (kind, face) that ``feat`` matches best; ``kinds`` restricts the search."""
    scores, ink = class_scores(feat, enrollment, params)
    if kinds is not None:
        for i, (k, _) in enumerate(enrollment.classes):
            if k not in kinds:
                scores[i] = -9.0
                ink[i] = -9.0
    return glyph_opinion(feat, enrollment, decide(scores, ink, enrollment.classes, params, enrollment.self_similarity))


def glyph_opinion(feat: Features, enrollment: Templates, m: Match) -> Match:
    """``m`` (a template read) checked by the glyph embedding (:mod:`vision.embed`), a
    second opinion that can only stop a guess: a symbol die the templates read is made
    pending when the embedding, against that kind's enrolled faces, reads another face
    or finds it like none of them. Unchanged when the embedding is unsure, when the
    store has no vectors for the kind (made before the embedding) or the network is not
    installed."""
    from .embed import NONE, READ, SYMBOL_KINDS, centre_colour, decide as glyph_decide, default_embedder, dominant_colour

    protos_of = getattr(enrollment, "glyph_prototypes", None)
    if m.pending or m.kind not in SYMBOL_KINDS or feat.crop is None or protos_of is None:
        return m
    protos = protos_of((m.kind,))
    emb = default_embedder() if protos else None
    if emb is None:
        return m
    e = glyph_decide(emb.embed_crops(feat.crop[None])[0], protos, emb.params, centre_colour(feat.crop),
                     dominant_colour(feat.crop))
    if e.status == NONE or (e.status == READ and e.face != m.face):
        return Match(m.kind, m.face, m.score, 0.0, 0.0, True, m.candidates)
    return m
