"""Symbol dice read few-shot: a learned glyph embedding, prototypes per enrolled face.

A crop around a die (the reader's cut, :func:`vision.pips.crop`: a square 1.3 times the
die's side, 48 x 48) goes through ``glyph_embed.onnx`` (run by ``cv2.dnn``), a small
network trained by metric learning on rendered random glyphs on random dice
(:mod:`vision.train.train_embed`): two views of one glyph land close, two glyphs apart,
whatever the die's colours, the light, the turn or the tilt. The crop is embedded in
its four quarter turns and the four vectors averaged (then L2-normalised).

Each enrolled face (a few photos of it) becomes a :class:`Prototype`: the mean of its
views' vectors, and the views' own *spread* (how close each view comes to the mean of
the others). A crop is read as a face (:func:`decide`) only when

- its similarity to that face's prototype reaches the face's own bar in absolute terms:
  the spread less ``spread_margin``, kept between ``need_floor`` and ``need_ceiling``
  (``single_view`` for a face with one view: no spread to go by);
- it beats the next face by ``margin``; with no next face (a kind with one enrolled face,
  when only that kind is asked for) it must reach ``single_face`` instead;

otherwise it is *pending* (the candidates listed). Below ``reject`` to every prototype it
is no enrolled die at all (not claimed). The defaults come from ``glyph_embed.json``.

Colour comes first: a prototype takes part only when the crop's own colour
(:func:`dominant_colour`: a yellow die with a large black coin is yellow, a white d6 a
near grey) comes within ``body_gate`` of one of its views' (and its centre within
``colour_gate``). A die of a colour no enrolled view has is no symbol die, and is not
even embedded (:func:`usable`): on a step expecting d6 and the shipped blue, yellow and
red symbol dice, the white d6 cost no embedding.
"""

from __future__ import annotations

import functools
import hashlib
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .die_colour import lab8_rows
from .nets import MODELS_DIR, load_net, load_settings
from .result import STATUS_PENDING, STATUS_READ

__all__ = ["Embedder", "EmbedParams", "Prototype", "EmbedMatch", "prototypes", "decide", "available",
           "default_embedder", "centre_colour", "centre_colours", "dominant_colour",
           "dominant_colours", "usable", "usable_mask", "SYMBOL_KINDS", "READ", "PENDING", "NONE"]

MODEL = "glyph_embed.onnx"
SETTINGS = "glyph_embed.json"
SYMBOL_KINDS = ("lieu", "adversaire", "epreuve", "recompense", "sentence")
READ, PENDING, NONE = STATUS_READ, STATUS_PENDING, "none"


def available(models: Path = MODELS_DIR) -> bool:
    """True when the embedding network and its settings are installed."""
    return (models / MODEL).is_file() and (models / SETTINGS).is_file()


@dataclass(frozen=True)
class EmbedParams:
    """The open-set decision's thresholds, in cosine similarity (see the module doc)."""

    reject: float = 0.5
    spread_margin: float = 0.06
    need_floor: float = 0.8
    need_ceiling: float = 0.93
    single_view: float = 0.9
    single_face: float = 0.93
    margin: float = 0.06
    #: A prototype takes part only when the crop's body colour (OpenCV 8-bit Lab) comes
    #: within this chroma distance (a, b) of one of its views' (blue, yellow and red dice
    #: share their symbols' shapes); ``None``: colour is not looked at.
    colour_gate: float | None = 28.0
    #: The same for the die's own colour (:func:`dominant_colour`), which tells a white d6
    #: from the blue, yellow and red symbol dice however large their glyphs. On plain
    #: renders every symbol die came within 4.1 of an enrolled view, every white d6 32 or
    #: more away.
    body_gate: float | None = 28.0
    #: A read stands only when the crop's ink (:mod:`vision.glyph_ink`) comes within this
    #: correlation of one of the face's enrolled views, and ``ink_margin`` closer than to
    #: any view of another face; ``None``: not looked at (and for views with no ink map).
    ink_floor: float | None = None
    ink_margin: float = 0.0

    @classmethod
    def from_settings(cls, cfg: dict[str, Any]) -> "EmbedParams":
        thr = cfg.get("thresholds", {})
        base = cls()
        given: dict[str, Any] = {k: None if v is None else float(v) for k, v in thr.items()
                                 if k in base.__dataclass_fields__}
        return replace(base, **given)


@dataclass(frozen=True)
class Prototype:
    """One enrolled face: its mean vector, its views' spread (``None`` with one view),
    how many views, their centre colours and their own colours (:func:`dominant_colour`;
    NaN rows for views enrolled before it was kept), OpenCV 8-bit Lab, one row a view."""

    kind: str
    face: int | str
    vector: np.ndarray
    spread: float | None
    views: int
    colours: np.ndarray
    bodies: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    #: Its views' ink maps (:func:`vision.glyph_ink.ink_views`; NaN rows, or none: not known).
    inks: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))


@dataclass(frozen=True)
class EmbedMatch:
    """The decision on one crop: the best face, its similarity, the margin to the next
    face, ``status`` (:data:`READ`, :data:`PENDING`, :data:`NONE`) and the leading
    candidates ``(kind, face, similarity)``."""

    kind: str | None
    face: int | str | None
    similarity: float
    margin: float
    status: str
    candidates: tuple[tuple[str, int | str, float], ...] = ()

    @property
    def confidence(self) -> float:
        """A confidence in [0, 1]: the similarity times how far the margin is from zero."""
        return float(np.clip(self.similarity, 0, 1) * (1 - math.exp(-max(self.margin, 0.0) / 0.05)))


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.asarray(v / np.maximum(n, 1e-9), np.float32)


def centre_colour(crop: np.ndarray, factor: float = 1.3) -> np.ndarray:
    """OpenCV 8-bit Lab of the median BGR of a crop's central half die (the crop spans
    ``factor`` die sides), as :func:`vision.reader.body_colour` takes it on a frame.

    >>> c = np.zeros((48, 48, 3), np.uint8); c[:] = (200, 100, 20)
    >>> [int(round(v)) for v in centre_colour(c)]
    [110, 144, 70]
    """
    return np.asarray(centre_colours(crop[None], factor)[0])


def centre_colours(crops: np.ndarray, factor: float = 1.3) -> np.ndarray:
    """:func:`centre_colour` of each of N square crops (N x n x n x 3 uint8): N x 3."""
    if not len(crops):
        return np.zeros((0, 3), np.float32)
    n = crops.shape[1]
    r = max(1, int(round(n / factor / 4)))
    patch = crops[:, n // 2 - r:n // 2 + r + 1, n // 2 - r:n // 2 + r + 1].reshape(len(crops), -1, 3)
    return lab8_rows(np.median(patch, axis=1))


def dominant_colour(crop: np.ndarray, factor: float = 1.3, share: float = 0.3) -> np.ndarray:
    """OpenCV 8-bit Lab of a die's own colour in a crop that spans ``factor`` die sides:
    the median of the most colourful ``share`` of the pixels within 0.45 die sides of the
    centre. A glyph, pips or a numeral in black, white or grey do not count however
    large they are (the coin on a yellow reward die covers most of its middle).

    >>> c = np.zeros((48, 48, 3), np.uint8); c[:] = (20, 200, 230)  # a yellow die...
    >>> c[12:36, 12:36] = 0  # ...whose black glyph covers its middle
    >>> [int(round(v)) for v in dominant_colour(c)]
    [206, 123, 207]
    >>> c[:] = 235; c[20:28, 20:28] = 10  # a white d6 with a black pip
    >>> [int(round(v)) for v in dominant_colour(c)]
    [237, 128, 128]
    """
    return np.asarray(dominant_colours(crop[None], factor, share)[0])


@functools.lru_cache(maxsize=8)
def _disc(n: int, factor: float) -> np.ndarray:
    """The pixels within 0.45 die sides of the centre, one in four (every other row and
    column: a colour's median needs no more)."""
    yy, xx = np.mgrid[:n, :n]
    near = np.hypot(xx - (n - 1) / 2, yy - (n - 1) / 2) <= 0.45 * n / factor
    return np.asarray(near & (yy % 2 == 0) & (xx % 2 == 0))


def dominant_colours(crops: np.ndarray, factor: float = 1.3, share: float = 0.3) -> np.ndarray:
    """:func:`dominant_colour` of each of N square crops (N x n x n x 3 uint8): N x 3."""
    if not len(crops):
        return np.zeros((0, 3), np.float32)
    px = crops[:, _disc(crops.shape[1], factor)]  # N x K x 3
    lab = lab8_rows(px.reshape(-1, 3).astype(np.float32)).reshape(px.shape)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    k = max(1, int(px.shape[1] * share))
    top = np.take_along_axis(lab, np.argpartition(-chroma, k - 1, axis=1)[:, :k, None], axis=1)
    return np.asarray(np.median(top, axis=1), np.float32)


class Embedder:
    """The glyph embedding network (``glyph_embed.onnx``) run by ``cv2.dnn``."""

    def __init__(self, models: Path = MODELS_DIR) -> None:
        cfg = load_settings(models / SETTINGS)
        path = models / str(cfg.get("model", MODEL))
        self.net = load_net(path)
        self.size = int(cfg.get("crop", 48))
        self.factor = float(cfg.get("crop_factor", 1.3))
        self.norm = str(cfg.get("input_norm", "crop"))
        self.dim = int(cfg.get("dim", 64))
        self.params = EmbedParams.from_settings(cfg)
        #: Names the network that made a stored vector: vectors of another are not compared.
        self.model_id = hashlib.sha1(path.read_bytes()).hexdigest()[:12]

    def crops(self, frame: np.ndarray, centres: Sequence[tuple[float, float, float]]) -> np.ndarray:
        """N x size x size x 3 crops at ``(cx, cy, side)`` of ``frame`` (the reader's cut)."""
        from .pips import crop

        if not centres:
            return np.zeros((0, self.size, self.size, 3), np.uint8)
        return np.stack([crop(frame, cx, cy, side, self.size, self.factor) for cx, cy, side in centres])

    def embed_crops(self, crops: np.ndarray) -> np.ndarray:
        """N x dim L2-normalised vectors of uint8 crops (each the mean of its four quarter turns)."""
        from .pips import to_blob

        if not len(crops):
            return np.zeros((0, self.dim), np.float32)
        turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(4)])
        z = _unit(self.net(to_blob(np.ascontiguousarray(turned), self.norm)).astype(np.float32))
        z = z.reshape(4, len(crops), -1).mean(axis=0)
        return _unit(z)


@functools.lru_cache(maxsize=2)
def default_embedder(models: Path = MODELS_DIR) -> Embedder | None:
    """The installed embedder, loaded once; ``None`` when it is not installed."""
    return Embedder(models) if available(models) else None


def prototypes(vectors: np.ndarray, classes: Sequence[tuple[str, int | str]],
               colours: np.ndarray | None = None, bodies: np.ndarray | None = None,
               inks: np.ndarray | None = None) -> list[Prototype]:
    """One :class:`Prototype` per distinct (kind, face) of ``classes`` (one a vector row),
    with the views' centre ``colours`` and own colours ``bodies`` (rows of NaN, or
    ``None``: not known, no gate) and their ink maps ``inks`` (``None``: not known).

    The spread of a face with two views or more: the median, over its views, of each
    view's similarity to the mean of the others.

    >>> v = np.array([[1, 0], [0.8, 0.6], [0, 1]], np.float32)
    >>> ps = prototypes(v, [("lieu", "ville"), ("lieu", "ville"), ("lieu", "foret")])
    >>> [(p.face, p.views, None if p.spread is None else round(p.spread, 2)) for p in ps]
    [('ville', 2, 0.8), ('foret', 1, None)]
    """
    vectors = _unit(np.asarray(vectors, np.float32))
    cols = np.zeros((len(vectors), 3), np.float32) if colours is None else np.asarray(colours, np.float32)
    own = np.full((len(vectors), 3), np.nan, np.float32) if bodies is None else np.asarray(bodies, np.float32)
    out = []
    seen: list[tuple[str, int | str]] = []
    for c in classes:
        if c not in seen:
            seen.append(c)
    for kind, face in seen:
        rows = [i for i, c in enumerate(classes) if c == (kind, face)]
        v = vectors[rows]
        spread = None
        if len(rows) >= 2:
            total = v.sum(axis=0)
            spread = float(np.median([float(v[i] @ _unit(total - v[i])) for i in range(len(rows))]))
        ink = np.zeros((0, 0), np.float32) if inks is None else np.asarray(inks, np.float32)[rows]
        out.append(Prototype(kind, face, _unit(v.mean(axis=0)), spread, len(rows), cols[rows], own[rows], ink))
    return out


def need(proto: Prototype, params: EmbedParams) -> float:
    """The similarity a read of ``proto`` must reach, from its views' spread.

    >>> p = Prototype("lieu", "ville", np.ones(2), 0.97, 3, np.zeros((3, 3)))
    >>> round(need(p, EmbedParams()), 3), need(replace(p, spread=None, views=1), EmbedParams())
    (0.91, 0.9)
    """
    if proto.spread is None:
        return params.single_view
    return float(np.clip(proto.spread - params.spread_margin, params.need_floor, params.need_ceiling))


def _near(views: Sequence[np.ndarray], colours: np.ndarray | None, gate: float | None) -> np.ndarray:
    """N x P: whether each of N ``colours``' chroma (a, b) comes within ``gate`` of one of
    the rows of each of P ``views`` (True where nothing is known: no colours, no gate,
    no view, a view of unknown colour)."""
    n = 1 if colours is None else len(colours)
    out = np.ones((n, len(views)), bool)
    if colours is None or gate is None:
        return out
    known = [j for j, v in enumerate(views) if len(v) and bool(np.isfinite(v).all())]
    if not known:
        return out
    rows = np.concatenate([views[j][:, 1:3] for j in known])
    starts = np.cumsum([0] + [len(views[j]) for j in known[:-1]])  # each prototype's first row
    d = np.hypot(colours[:, None, 1] - rows[None, :, 0], colours[:, None, 2] - rows[None, :, 1])  # N x M
    out[:, known] = np.logical_or.reduceat(d <= gate, starts, axis=1)
    return out


def usable_mask(protos: Sequence[Prototype], params: EmbedParams, colours: np.ndarray | None = None,
                bodies: np.ndarray | None = None) -> np.ndarray:
    """N x P: which of ``protos`` each of N crops of centre ``colours`` and own colours
    ``bodies`` (N x 3 each, or ``None``: no gate) may be read as (see the module doc)."""
    return np.asarray(_near([p.colours for p in protos], colours, params.colour_gate)
                      & _near([p.bodies for p in protos], bodies, params.body_gate))


def usable(protos: Sequence[Prototype], params: EmbedParams, colour: np.ndarray | None = None,
           body: np.ndarray | None = None) -> list[Prototype]:
    """The prototypes a crop of centre ``colour`` and own colour ``body``
    (:func:`dominant_colour`) may be read as (see the module doc).

    >>> p = Prototype("recompense", "taels", np.ones(2), 0.97, 1, np.zeros((1, 3)), np.array([[200, 122, 205.0]]))
    >>> len(usable([p], EmbedParams(), body=np.array([230, 128, 131.0])))  # a white d6
    0
    >>> len(usable([p], EmbedParams(), body=np.array([120, 125, 190.0])))  # a yellow die in dim light
    1
    """
    mask = usable_mask(protos, params, None if colour is None else np.asarray(colour, np.float32)[None],
                       None if body is None else np.asarray(body, np.float32)[None])[0]
    return [p for p, ok in zip(protos, mask) if ok]


def decide(vector: np.ndarray, protos: Sequence[Prototype], params: EmbedParams = EmbedParams(),
           colour: np.ndarray | None = None, body: np.ndarray | None = None) -> EmbedMatch:
    """The open-set read of one L2-normalised ``vector`` against ``protos`` (see the
    module doc); ``colour`` and ``body``: the crop's centre colour and own colour
    (:func:`centre_colour`, :func:`dominant_colour`), for the gates of :func:`usable`.

    >>> ps = [Prototype("lieu", f, np.array(v, np.float32), 0.98, 4, np.zeros((4, 3)))
    ...       for f, v in (("ville", [1, 0, 0]), ("foret", [0, 1, 0]))]
    >>> decide(np.array([0.99, 0.14, 0], np.float32), ps).status
    'read'
    >>> decide(np.array([0.7, 0.7, 0.14], np.float32), ps).status  # between two faces
    'pending'
    >>> decide(np.array([0, 0, 1], np.float32), ps).status  # like no enrolled face
    'none'
    >>> decide(np.array([0.99, 0.14, 0], np.float32), ps[:1]).status  # one face: 0.99 >= single_face
    'read'
    >>> decide(np.array([0.9, 0.44, 0], np.float32), ps[:1]).status  # close, but not that close
    'pending'
    """
    near = usable(protos, params, colour, body)
    if not near:
        return EmbedMatch(None, None, -1.0, 0.0, NONE)
    sims = np.array([float(p.vector @ vector) for p in near])
    order = np.argsort(-sims)
    best = near[int(order[0])]
    s = float(sims[order[0]])
    second = float(sims[order[1]]) if len(order) > 1 else -1.0
    cands = tuple((near[int(i)].kind, near[int(i)].face, round(float(sims[i]), 4)) for i in order[:3])
    if s < params.reject:
        return EmbedMatch(None, None, s, s - second, NONE, cands)
    bar = need(best, params)
    if len(near) == 1:
        bar = max(bar, params.single_face)
    ok = s >= bar and s - second >= params.margin
    return EmbedMatch(best.kind, best.face if ok else None, s, s - second, READ if ok else PENDING, cands)
