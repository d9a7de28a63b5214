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
"""

from __future__ import annotations

import functools
import hashlib
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .nets import MODELS_DIR, load_net, load_settings
from .result import STATUS_PENDING, STATUS_READ

__all__ = ["Embedder", "EmbedParams", "Prototype", "EmbedMatch", "prototypes", "decide", "available",
           "default_embedder", "centre_colour", "SYMBOL_KINDS", "READ", "PENDING", "NONE"]

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

    @classmethod
    def from_settings(cls, cfg: dict[str, Any]) -> "EmbedParams":
        thr = cfg.get("thresholds", {})
        base = cls()
        return replace(base, **{k: float(v) for k, v in thr.items() if k in base.__dataclass_fields__})


@dataclass(frozen=True)
class Prototype:
    """One enrolled face: its mean vector, its views' spread (``None`` with one view),
    how many views, and their body colours (OpenCV 8-bit Lab, one row a view)."""

    kind: str
    face: int | str
    vector: np.ndarray
    spread: float | None
    views: int
    colours: np.ndarray


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
    from .die_colour import lab8

    n = crop.shape[0]
    r = max(1, int(round(n / factor / 4)))
    patch = crop[n // 2 - r:n // 2 + r + 1, n // 2 - r:n // 2 + r + 1].reshape(-1, 3)
    return np.array(lab8(np.median(patch, axis=0).astype(np.float32)), np.float32)


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
               colours: np.ndarray | None = None) -> list[Prototype]:
    """One :class:`Prototype` per distinct (kind, face) of ``classes`` (one a vector row).

    The spread of a face with two views or more: the median, over its views, of each
    view's similarity to the mean of the others.

    >>> v = np.array([[1, 0], [0.8, 0.6], [0, 1]], np.float32)
    >>> ps = prototypes(v, [("lieu", "ville"), ("lieu", "ville"), ("lieu", "foret")])
    >>> [(p.face, p.views, None if p.spread is None else round(p.spread, 2)) for p in ps]
    [('ville', 2, 0.8), ('foret', 1, None)]
    """
    vectors = _unit(np.asarray(vectors, np.float32))
    cols = np.zeros((len(vectors), 3), np.float32) if colours is None else np.asarray(colours, np.float32)
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
        out.append(Prototype(kind, face, _unit(v.mean(axis=0)), spread, len(rows), cols[rows]))
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


def _colour_ok(proto: Prototype, colour: np.ndarray | None, gate: float | None) -> bool:
    if colour is None or gate is None or not len(proto.colours):
        return True
    d = np.hypot(proto.colours[:, 1] - colour[1], proto.colours[:, 2] - colour[2])
    return bool(d.min() <= gate)


def decide(vector: np.ndarray, protos: Sequence[Prototype], params: EmbedParams = EmbedParams(),
           colour: np.ndarray | None = None) -> EmbedMatch:
    """The open-set read of one L2-normalised ``vector`` against ``protos`` (see the
    module doc); ``colour``: the crop's body colour, for ``params.colour_gate``.

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
    usable = [p for p in protos if _colour_ok(p, colour, params.colour_gate)]
    if not usable:
        return EmbedMatch(None, None, -1.0, 0.0, NONE)
    sims = np.array([float(p.vector @ vector) for p in usable])
    order = np.argsort(-sims)
    best = usable[int(order[0])]
    s = float(sims[order[0]])
    second = float(sims[order[1]]) if len(order) > 1 else -1.0
    cands = tuple((usable[int(i)].kind, usable[int(i)].face, round(float(sims[i]), 4)) for i in order[:3])
    if s < params.reject:
        return EmbedMatch(None, None, s, s - second, NONE, cands)
    bar = need(best, params)
    if len(usable) == 1:
        bar = max(bar, params.single_face)
    ok = s >= bar and s - second >= params.margin
    return EmbedMatch(best.kind, best.face if ok else None, s, s - second, READ if ok else PENDING, cands)
