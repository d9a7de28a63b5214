"""Gem colours in a white-balanced space, with open-set honesty.

A plug-in classifier of :class:`vision.reader.Reader`:
``classify(frame, candidates, bodies) -> list[ObjectRead | None]``.

1. **White reference** (:func:`white_reference`): the tray's white — the largest bright,
   colourless region of the frame (found on a 1/8 grid), its median BGR. Without such a
   region, the median of the brightest colourless pixels (the markers' white quiet zone,
   or any white paper). A fixed white may be given instead (``GemClassifier(white=...)``,
   e.g. measured once on a calibrated tray's markers).
2. **Colour of a candidate** (:func:`gem_colours`): the median BGR of the central square
   of half its side (its rim and shadow left out, a specular highlight a minority),
   divided channel by channel by the white, then CIE Lab (L 0..100): the same gem reads
   the same under warmer or dimmer light (a clipped white, below the true one, is made
   good by :func:`exposure_fit`). **A white darker than the gems is no white**
   (:func:`white_holds`): a coloured object reflects no more than white in any
   channel, so when the frame's gems are brighter than the "white" found (a grey or
   dark floor, no white in view) their colours cannot be measured: every object the gem
   detector found is pending, colour unknown.
3. **Enrolled colours** (:class:`GemColours`): each colour's mean and covariance learnt
   from labelled examples (:meth:`GemColours.fit`), regularised by ``floor`` (Lab units)
   so that a few very alike samples do not make it absurdly tight; its ``accept`` radius
   (Mahalanobis) is the ``quantile`` of its own samples' distances times ``slack``, at
   least ``min_accept``.
4. **Decision**, with ``r_c = d_c / accept_c`` (the Mahalanobis distance to colour c in
   units of its accept radius):

   - ``read`` only when the nearest colour has ``r <= 1`` (close in absolute terms) AND
     every other colour ``r >= separation`` (far from all the others);
   - ``pending`` (with candidates) when the nearest colour has ``r <= near``;
   - otherwise ``None``: not a gem (an unenrolled colour such as orange, the tray, a die).

   The score of colour c is ``0.5 ** r_c²`` (1 at its mean, 0.5 on its accept radius);
   the read's confidence is the nearest colour's score.

Enrollment and thresholds live in ``models/gems.json`` (written by
:mod:`vision.train.enroll_gems` from the labelled training photos).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .detect import Candidate, centre_medians
from .nets import MODELS_DIR, ModelError
from .result import STATUS_PENDING, STATUS_READ, ObjectRead

__all__ = ["white_reference", "relative_colours", "white_holds", "lab_of", "gem_colours", "GemColours",
           "GemClassifier", "GemDecision", "GEM_MODEL", "GEMS_OVER_WHITE", "ONE_GEM_OVER_WHITE", "WHITE_AREA",
           "CLIPPED", "exposure_fit"]

GEM_MODEL = MODELS_DIR / "gems.json"


#: The least share of the frame the white region takes (:func:`white_reference`): a
#: white card laid in a dark tray (1.4 % of the candy photos' frame in
#: ``bench_gems.py --floors``) must count; it was 2 %, and the card's gems read nothing.
WHITE_AREA = 0.005


def white_reference(frame: np.ndarray) -> tuple[np.ndarray, str]:
    """(BGR float32 of the white reference, where it came from: ``"tray"`` | ``"frame"``)."""
    import cv2

    small = np.ascontiguousarray(frame[::8, ::8])
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1], hsv[..., 2]
    grey = sat < 60
    if np.count_nonzero(grey) < 16:
        grey = np.ones_like(grey)
    top = float(np.percentile(val[grey], 99))
    white = (grey & (val >= 0.7 * top)).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=4)
    if n > 1:
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[k, cv2.CC_STAT_AREA] >= WHITE_AREA * white.size:
            region = cv2.erode((lab == k).astype(np.uint8), np.ones((3, 3), np.uint8))
            if np.count_nonzero(region) < 16:
                region = (lab == k).astype(np.uint8)
            return np.median(small[region > 0], axis=0).astype(np.float32), "tray"
    bright = grey & (val >= np.percentile(val[grey], 95))
    return np.median(small[bright], axis=0).astype(np.float32), "frame"


#: The frame's white is trusted while the median of its gem candidates' brightest
#: channel, relative to it, is at most this (:func:`white_holds`). On the 163 candy
#: photos as taken (train, calib and held aside) that median is 0.73-0.98 (1.00 at most
#: 40 % brighter, the white then clipped too); as another set of gems, every hue turned
#: by -25° (``vision.gem_eval.turn_hue``: saturated colours pushed past the white in a
#: channel) up to 1.08; with the tray's floor painted a grey card (``bench_gems.py
#: --floors``) 1.11-1.41, a dark felt 1.8-4.8. So a floor paler than about 75 % of the
#: white is taken for a white; 1.05 flagged 5 of the 36 turned held-aside photos.
GEMS_OVER_WHITE = 1.09
#: The same line for one gem measured alone (an enrollment photo): a single gem's
#: brightest channel is noisier than a frame's median. Per gem, on 36 train photos: as
#: taken at most 1.10, hues turned by -25° at most 1.22 (1.09 took the plain colour of
#: most turned été views, and one draw of ``bench_gems.py --players`` lost the colour:
#: 98.9 -> 78.6 % read right); on the painted felts and wood 99.7 % of the gems are over
#: 1.25, on the grey card 39 % (the rest keep a colour measured too bright: unread later,
#: not misread, since a frame on that floor holds no white either).
ONE_GEM_OVER_WHITE = 1.25


def relative_colours(frame: np.ndarray, candidates: Sequence[Candidate],
                     white: np.ndarray | None = None) -> np.ndarray:
    """N x 3 float32: each candidate's centre (median BGR) divided channel by channel by
    ``white`` (default: the frame's own, :func:`white_reference`), clipped to 0..1.5
    (outside the frame: 0): what :func:`gem_colours` converts to Lab and
    :func:`white_holds` judges."""
    if white is None:
        white = white_reference(frame)[0]
    return _relative(_centres(frame, candidates), white)


def _centres(frame: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
    """N x 3 median BGR of each candidate's centre (outside the frame: black)."""
    meds: np.ndarray = np.nan_to_num(centre_medians(frame, candidates), nan=0.0)
    return meds.astype(np.float32).reshape(-1, 3)


def _relative(meds: np.ndarray, white: np.ndarray) -> np.ndarray:
    wb = np.maximum(np.asarray(white, np.float32), 1.0)
    return np.clip(meds / wb, 0.0, 1.5).astype(np.float32).reshape(-1, 3)


def white_holds(rel: np.ndarray, line: float = GEMS_OVER_WHITE) -> bool:
    """Whether the white the ``rel`` colours (:func:`relative_colours`) were measured
    against can be one: the median of their brightest channels is at most ``line``
    (:data:`GEMS_OVER_WHITE`; :data:`ONE_GEM_OVER_WHITE` for a gem alone; no colour:
    True). A gem brighter than the white means the "white" found is a grey or dark
    floor, or a shadowed patch.

    >>> white_holds(np.array([[0.2, 0.5, 0.9], [0.3, 0.8, 0.7], [0.9, 0.9, 0.95]]))
    True
    >>> white_holds(np.array([[0.5, 1.3, 1.4], [1.5, 1.2, 0.4], [0.9, 0.9, 0.95]]))
    False
    """
    return not len(rel) or float(np.median(np.asarray(rel).max(axis=1))) <= line


#: A white reference whose brightest channel is at this or more is clipped: the frame is
#: over-exposed (:func:`exposure_fit`). The 145 candy photos as taken have their tray's
#: white at 188-248 in its brightest channel; 40 % brighter, at 255 in every one.
CLIPPED = 250.0
#: The factors :func:`exposure_fit` tries first on each channel of a clipped frame's
#: relative colours (then every :data:`EXPOSURE_STEP` around the best): the true white
#: lies above the clipped one, so every colour measured against it is too bright, by up
#: to a third (a white at 188 made 40 % brighter: 255 / 263).
EXPOSURE_COARSE = (1.0, 0.92, 0.84, 0.76, 0.68)
EXPOSURE_STEP = 0.04
#: :func:`exposure_fit` counts the candidates within this share of a colour's accept
#: radius (and far from every other): a fit that brings the most of them just inside
#: the radius (1.0) read the corner of a red toy car as "automne" on one held-aside
#: photo 40 % brighter; 0.9 reads none, and as many gems (``bench_gems.py``).
EXPOSURE_INSIDE = 0.9
#: :func:`exposure_fit` corrects nothing for fewer candidates than this: one frame-wide
#: correction is fitted on many gems, not on one object made to look like a gem (on
#: rendered calibrated trays of one to three gems, whose markers' paper is drawn at 255,
#: a fit on so few read two coloured objects wrong); the held-aside candy photos hold
#: 15 to 95 candidates.
EXPOSURE_MIN = 8
#: ... nor when the best factors bring fewer than this many more candidates near a
#: colour than the colours as measured (a white at 255 that is not clipped: a render's).
EXPOSURE_GAIN = 2


def _exposure_grid(centre: Sequence[float], steps: Sequence[float]) -> np.ndarray:
    axes = [np.clip(np.asarray([c + s for s in steps], np.float32), 0.5, 1.0) for c in centre]
    return np.unique(np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3), axis=0)


def exposure_fit(rel: np.ndarray, colours: "GemColours") -> np.ndarray:
    """The per-channel factors (BGR, at most 1) that, applied to the white-relative
    colours ``rel`` of one over-exposed frame's candidates (its white clipped,
    :data:`CLIPPED`), bring the most of them close to one enrolled colour and far from
    every other (within :data:`EXPOSURE_INSIDE` of its accept radius, :meth:`GemColours.decide`'s
    separation from the others); among equals, the least correction. Searched on
    :data:`EXPOSURE_COARSE` per channel, then :data:`EXPOSURE_STEP` around the best.
    None (all ones) for fewer than :data:`EXPOSURE_MIN` candidates, or when the best
    brings fewer than :data:`EXPOSURE_GAIN` more of them near a colour than none.

    One correction for the whole frame, as a camera's exposure and white balance are
    one: a candidate of a colour nobody enrolled stays far from every colour unless the
    whole frame's gems move with it, and each candidate is then read by the same rule
    as ever.

    >>> hiver = GemColours({"hiver": np.array([38.0, 4, -32])}, {"hiver": np.eye(3) * 4.0}, {"hiver": 3.4})
    >>> blue = np.tile(np.array([[0.55, 0.35, 0.22]], np.float32), (10, 1))  # BGR relative to the true white
    >>> {d.status for d in hiver.decide(lab_of(blue))}
    {'read'}
    >>> bright = blue / np.array([0.8, 0.88, 0.88], np.float32)  # against a white clipped below the truth
    >>> {d.status for d in hiver.decide(lab_of(bright))}
    {None}
    >>> k = exposure_fit(bright, hiver)
    >>> {d.status for d in hiver.decide(lab_of(bright * k))}
    {'read'}
    >>> exposure_fit(blue, hiver).tolist(), exposure_fit(bright[:3], hiver).tolist()  # nothing to gain; too few
    ([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    """
    x = np.asarray(rel, np.float32).reshape(-1, 3)
    if len(x) < EXPOSURE_MIN or not colours.names:
        return np.ones(3, np.float32)

    def best_of(grid: np.ndarray) -> tuple[np.ndarray, int]:  # the best factors, and how many they bring near
        lab = lab_of(np.clip(grid[:, None, :] * x[None, :, :], 0.0, 1.5).reshape(-1, 3))
        r = np.sort(colours.ratios(lab), axis=1)
        second = r[:, 1] if r.shape[1] > 1 else np.full(len(r), np.inf)
        near = ((r[:, 0] <= EXPOSURE_INSIDE) & (second >= colours.separation)).reshape(len(grid), len(x)).sum(axis=1)
        best = int(np.lexsort((grid.sum(axis=1), grid.min(axis=1), near))[-1])
        return np.asarray(grid[best], np.float32), int(near[best])

    coarse = best_of(_exposure_grid((0.0, 0.0, 0.0), EXPOSURE_COARSE))[0]
    k, fitted = best_of(_exposure_grid(coarse.tolist(), (-EXPOSURE_STEP, 0.0, EXPOSURE_STEP)))
    as_measured = best_of(np.ones((1, 3), np.float32))[1]
    return k if fitted >= as_measured + EXPOSURE_GAIN else np.ones(3, np.float32)


def lab_of(rel: np.ndarray) -> np.ndarray:
    """N x 3 float32 CIE Lab (L 0..100) of white-relative colours (:func:`relative_colours`)."""
    import cv2

    return cv2.cvtColor(np.asarray(rel, np.float32).reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


def _bgr_of(lab: np.ndarray) -> np.ndarray:
    """N x 3 float32 white-relative BGR of CIE Lab colours (the inverse of :func:`lab_of`)."""
    import cv2

    return cv2.cvtColor(np.asarray(lab, np.float32).reshape(-1, 1, 3), cv2.COLOR_LAB2BGR).reshape(-1, 3).astype(np.float32)


def gem_colours(frame: np.ndarray, candidates: Sequence[Candidate], white: np.ndarray | None = None) -> np.ndarray:
    """N x 3 float32 white-balanced CIE Lab (L 0..100) of each candidate's centre, against
    ``white`` or else the frame's own (:func:`white_reference`): what the gem reader
    reads, enrollment keeps (:attr:`vision.enroll.Enrollment.gem_plain`) and the shipped
    colours were fitted on."""
    return lab_of(relative_colours(frame, candidates, white))


#: A gem candidate this many times the median side of the frame's candidates is another
#: object (a set's gems are one size): at most pending (:class:`GemClassifier`).
LARGER_THAN_GEMS = 1.55

#: A players' view of a gem colour farther than this many accept radii from the median
#: of that colour's views is not that gem (:meth:`GemColours.with_players`).
OUTLIER = 2.0


@dataclass(frozen=True)
class GemDecision:
    """What the enrolled colours say of one colour: the nearest one, every colour's
    ``r`` (distance in accept radii) and score, and the verdict."""

    colour: str
    status: str | None  # "read", "pending", or None: not a gem
    confidence: float
    ratios: tuple[tuple[str, float], ...]  # (colour, r), nearest first
    scores: tuple[tuple[str, float], ...]  # (colour, 0.5 ** r²), best first


@dataclass
class GemColours:
    """Enrolled gem colours: mean, inverse covariance and accept radius of each."""

    means: dict[str, np.ndarray]
    covs: dict[str, np.ndarray]
    accept: dict[str, float]
    separation: float = 2.0
    near: float = 2.0
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._inv = {k: np.linalg.inv(v) for k, v in self.covs.items()}
        #: each colour's mean as a white-relative BGR (what :meth:`ratios` raises a
        #: clipped channel to)
        self._rel = (np.clip(_bgr_of(np.stack([self.means[k] for k in self.names])), 0.0, 1.5)
                     if self.names else np.zeros((0, 3), np.float32))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.means)

    @classmethod
    def fit(cls, samples: Mapping[str, np.ndarray], floor: float = 1.5, quantile: float = 0.99,
            slack: float = 1.25, min_accept: float = 3.4, separation: float = 2.0, near: float = 2.0,
            meta: dict[str, Any] | None = None) -> "GemColours":
        """Learn each colour from its N x 3 Lab samples (at least 3 per colour).

        ``accept`` = ``quantile`` of the colour's own samples' Mahalanobis distances times
        ``slack``, at least ``min_accept`` (3.4: the 99 % point of a 3-D normal)."""
        means, covs, accept = {}, {}, {}
        for name, xs in samples.items():
            x = np.asarray(xs, np.float64).reshape(-1, 3)
            if len(x) < 3:
                raise ValueError(f"gem colour {name!r}: {len(x)} examples, at least 3 needed")
            mu = x.mean(axis=0)
            cov = np.cov(x, rowvar=False) + floor**2 * np.eye(3)
            inv = np.linalg.inv(cov)
            d = np.sqrt(np.einsum("ni,ij,nj->n", x - mu, inv, x - mu))
            means[name] = mu
            covs[name] = cov
            accept[name] = max(min_accept, float(np.quantile(d, quantile)) * slack)
        m = dict(meta or {})
        m.update(floor=floor, quantile=quantile, slack=slack, min_accept=min_accept,
                 counts={k: int(len(np.asarray(v).reshape(-1, 3))) for k, v in samples.items()})
        return cls(means, covs, accept, separation, near, m)

    def with_players(self, views: Mapping[str, np.ndarray]) -> "GemColours":
        """These colours with each one the players taught from their own gems (``views``:
        name -> K x 3 Lab of its views, as :func:`gem_colours` measures a plain photo) in
        place of the colour of that name; the others kept (a colour nobody taught is
        read as shipped).

        A few views cannot say how a colour spreads under every light the table will
        see, so a taught colour's covariance is the pooled covariance of these colours
        (how one colour spreads over photos, shading and white balance: the prior) times
        ``1 + 1/K`` (the doubt on a mean of K views), plus the views' own covariance
        when K >= 2 (how far apart the players' own gems of that colour are: the spread
        learnt at enrollment); its accept radius is the median of these colours'. With
        three views or more, a view farther than :data:`OUTLIER` accept radii (under
        the prior) from the views' median is left out: the photo showed another object
        (a tapped shadow gave a yellow gem a dark brown view, which left 152 of 1,348
        candies pending). The decision is :meth:`decide`'s: read only near one colour
        and far from every other.

        >>> base = GemColours({"hiver": np.zeros(3)}, {"hiver": np.eye(3) * 9.0}, {"hiver": 3.6})
        >>> mine = base.with_players({"hiver": np.array([[50.0, 0, -40], [52, 1, -42], [51, -1, -41]]),
        ...                           "ete": np.array([[88.0, -5, 80]])})
        >>> sorted(mine.names), [d.status for d in mine.decide(np.array([[51.0, 0, -41], [0.0, 0, 0]]))]
        (['ete', 'hiver'], ['read', None])
        """
        if not views:
            return self
        pooled = np.mean([self.covs[k] for k in self.names], axis=0) if self.names else 9.0 * np.eye(3)
        accept = float(np.median(list(self.accept.values()))) if self.accept else 3.4
        means, covs, acc = dict(self.means), dict(self.covs), dict(self.accept)
        inv = np.linalg.inv(pooled)
        for name, xs in views.items():
            x = np.asarray(xs, np.float64).reshape(-1, 3)
            if len(x) >= 3:  # a view far from the others' median is another object than the gem
                dx = x - np.median(x, axis=0)
                x = x[np.sqrt(np.einsum("ni,ij,nj->n", dx, inv, dx)) <= OUTLIER * accept]
            if not len(x):
                continue
            own = np.cov(x, rowvar=False) if len(x) >= 2 else np.zeros((3, 3))
            means[name] = x.mean(axis=0)
            covs[name] = pooled * (1.0 + 1.0 / len(x)) + own
            acc[name] = accept
        meta = dict(self.meta, players={k: int(len(np.asarray(v).reshape(-1, 3))) for k, v in views.items()})
        return GemColours(means, covs, acc, self.separation, self.near, meta)

    def without(self, name: str) -> "GemColours":
        """The same enrollment less one colour (leave-one-colour-out)."""
        keep = [k for k in self.names if k != name]
        return GemColours({k: self.means[k] for k in keep}, {k: self.covs[k] for k in keep},
                          {k: self.accept[k] for k in keep}, self.separation, self.near, dict(self.meta))

    def ratios(self, lab: np.ndarray, rel: np.ndarray | None = None, lower: np.ndarray | None = None) -> np.ndarray:
        """N x K distances in accept radii (K = enrolled colours, in :attr:`names` order).

        With ``rel`` (the white-relative BGR ``lab`` was made of) and ``lower`` (N x 3
        bool: the channels that clipped in the candidate itself, whose true value is at
        least ``rel``'s), each colour is measured against the candidate's colour with
        those channels raised to that colour's own where it is higher: the nearest the
        candidate can truly be to it (:data:`CLIPPED`). A clipped channel then neither
        pulls a gem from its colour nor brings it nearer any colour than its other
        channels allow.

        >>> ete = GemColours({"ete": np.array([88.0, -5, 82])}, {"ete": np.eye(3) * 9.0}, {"ete": 3.6})
        >>> seen = np.array([[0.16, 0.8, 0.8]], np.float32)  # green and red clipped: truly at least that
        >>> float(ete.ratios(lab_of(seen))[0, 0]) > 1.5  # as measured: outside its accept radius
        True
        >>> float(ete.ratios(lab_of(seen), seen, np.array([[False, True, True]]))[0, 0]) < 0.1
        True
        """
        x = np.asarray(lab, np.float64).reshape(-1, 3)
        out = np.zeros((len(x), len(self.means)))
        censored = rel is not None and lower is not None and bool(np.any(lower))
        for j, k in enumerate(self.names):
            at = x
            if censored:
                assert rel is not None and lower is not None
                raised = np.where(lower, np.maximum(rel, self._rel[j]), rel)
                at = lab_of(raised).astype(np.float64)
            dx = at - self.means[k]
            out[:, j] = np.sqrt(np.maximum(np.einsum("ni,ij,nj->n", dx, self._inv[k], dx), 0)) / self.accept[k]
        return out

    def decide(self, lab: np.ndarray, rel: np.ndarray | None = None,
               lower: np.ndarray | None = None) -> list[GemDecision]:
        """The verdict on each colour (see the module's decision rule); ``rel`` and
        ``lower``: channels clipped in the candidates, as :meth:`ratios` takes them."""
        names = self.names
        x = np.asarray(lab, np.float64).reshape(-1, 3)
        if not names:
            return [GemDecision("", None, 0.0, (), ()) for _ in x]
        ratios = self.ratios(x, rel, lower)
        order = np.argsort(ratios, axis=1)
        ranked = np.take_along_axis(ratios, order, axis=1)
        r1 = ranked[:, 0]
        r2 = ranked[:, 1] if len(names) > 1 else np.full(len(x), np.inf)
        ok = np.isfinite(r1)
        conf = np.where(ok, 0.5 ** np.where(ok, r1, 0.0) ** 2, 0.0)
        score = 0.5 ** np.minimum(ranked, 1e3) ** 2
        out = []
        for i in range(len(x)):
            if not ok[i] or r1[i] > self.near:
                status: str | None = None
            elif r1[i] <= 1.0 and r2[i] >= self.separation:
                status = STATUS_READ
            else:
                status = STATUS_PENDING
            o = order[i]
            out.append(GemDecision(names[o[0]], status, float(conf[i]),
                                   tuple((names[j], float(ranked[i, k])) for k, j in enumerate(o)),
                                   tuple((names[j], round(float(score[i, k]), 4)) for k, j in enumerate(o[:3]))))
        return out

    # -- persistence ---------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"colours": {k: {"mean": [round(float(v), 4) for v in self.means[k]],
                                "cov": [[round(float(v), 5) for v in row] for row in self.covs[k]],
                                "accept": round(self.accept[k], 4)} for k in self.names},
                "separation": self.separation, "near": self.near, "meta": self.meta}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "GemColours":
        try:
            cols = obj["colours"]
            return cls({k: np.asarray(v["mean"], np.float64) for k, v in cols.items()},
                       {k: np.asarray(v["cov"], np.float64).reshape(3, 3) for k, v in cols.items()},
                       {k: float(v["accept"]) for k, v in cols.items()},
                       float(obj.get("separation", 2.0)), float(obj.get("near", 2.0)), dict(obj.get("meta", {})))
        except (KeyError, TypeError, ValueError, np.linalg.LinAlgError) as exc:
            raise ModelError(f"bad gem enrollment: {exc}") from None

    @classmethod
    def load(cls, path: Path | None = None) -> "GemColours":
        p = Path(path) if path else GEM_MODEL
        if not p.is_file():
            raise ModelError(f"gem enrollment not found: {p}")
        try:
            return cls.from_json(json.loads(p.read_text(encoding="utf-8")))
        except json.JSONDecodeError as exc:
            raise ModelError(f"bad gem enrollment {p}: {exc}") from None

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


class GemClassifier:
    """Gem colours of the candidates; a plug-in of :class:`vision.reader.Reader`.

    ``colours``: the enrollment (default: ``models/gems.json``). ``white``: a fixed BGR
    white reference (default: measured on each frame, :func:`white_reference`).
    ``sources``: claim only candidates whose ``Candidate.source`` is listed (e.g.
    ``("gem",)``: the gem detector's), or every candidate when ``None``. ``players``:
    the players' own gem colours (name -> K x 3 Lab of their views, what
    :meth:`vision.enroll.Enrollment.players_gem_colours` keeps), asked at each read:
    the colours they taught replace the enrolled ones of those names
    (:meth:`GemColours.with_players`).

    A read whose candidate the frame's edge cuts is pending: part of the object is out
    of view, and a larger object's coloured corner looks like a gem (a red toy car at
    the top edge of two candy photos, read as automne with the players' colours; no
    candy read on the 145 photos is cut by the edge). So is a candidate
    :data:`LARGER_THAN_GEMS` times the median side of the frame's candidates (three or
    more): the same car's body lower in the photos, 1.67-1.74 times the candies' median,
    where no labelled candy of the 145 photos is over 1.42 (99.9 % under 1.28).

    **An over-exposed frame** (the frame's own white clipped at :data:`CLIPPED`: a white
    tray under a strong lamp, or a camera's exposure set for darker dice) has its true
    white somewhere above 255, so every colour measured against the clipped one is too
    bright, and the gems were left pending (the candy photos 40 % brighter: 47.8 % read
    right automatically). Their colours are corrected first by one per-channel factor
    for the whole frame (:func:`exposure_fit`), then read by the same rule as ever. So
    are those measured against a fixed :attr:`white` that is clipped (a calibrated
    tray's markers, in a frame over-exposed after the calibration). A gem whose own
    colour clipped too (yellow, 255 in red and green) is judged by what its channels
    allow (:meth:`relative`, :meth:`GemColours.ratios`): 84.2 -> 97.8 % right
    automatically 40 % brighter, none wrong (8 December 2026)."""

    kind = "gem"
    on_request = True  # see GemDetector.on_request

    def __init__(self, colours: GemColours | None = None, white: Sequence[float] | None = None,
                 sources: Sequence[str] | None = None,
                 players: Callable[[], Mapping[str, np.ndarray]] | None = None) -> None:
        self.colours = colours if colours is not None else GemColours.load()
        self.white = None if white is None else np.asarray(white, np.float32).reshape(3)
        self.sources = None if sources is None else tuple(sources)
        self.players = players
        self._theirs: tuple[Mapping[str, np.ndarray], GemColours] | None = None

    def colours_now(self) -> GemColours:
        """The colours a read uses: :attr:`colours`, with the players' own (``players``)
        in place of those they taught; rebuilt only when their views change."""
        views = self.players() if self.players is not None else {}
        if not views:
            return self.colours
        if self._theirs is None or self._theirs[0] is not views:
            self._theirs = (views, self.colours.with_players(views))
        return self._theirs[1]

    def lab(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
        """The candidates' white-balanced Lab, as :meth:`classify` reads them."""
        return self.measure(frame, candidates)[0]

    def relative(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> tuple[np.ndarray, bool, np.ndarray]:
        """The candidates' white-relative colours (:func:`relative_colours`, against
        :attr:`white` or the frame's own), whether that white is clipped (at
        :data:`CLIPPED` or more in a channel: the frame is over-exposed), and which of
        each candidate's own channels clipped (N x 3 bool: the true colour is at least
        as bright there, :meth:`GemColours.ratios`)."""
        white = self.white if self.white is not None else white_reference(frame)[0]
        meds = _centres(frame, candidates)
        return _relative(meds, white), float(np.max(white)) >= CLIPPED, meds >= CLIPPED

    def corrected(self, rel: np.ndarray, clipped: bool) -> np.ndarray:
        """White-relative colours (:meth:`relative`); those of an over-exposed frame
        (``clipped``) corrected by :func:`exposure_fit` against the colours a read uses
        (:meth:`colours_now`)."""
        if clipped and len(rel):
            return np.asarray(rel * exposure_fit(rel, self.colours_now()), np.float32)
        return rel

    def measure(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> tuple[np.ndarray, bool]:
        """The candidates' white-balanced Lab (:meth:`relative`, :meth:`corrected`) and
        whether the white holds (:meth:`_measured`)."""
        fixed, _, white_ok = self._measured(frame, candidates)
        return lab_of(fixed), white_ok

    def _measured(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> tuple[np.ndarray, np.ndarray, bool]:
        """The candidates' white-relative colours, :meth:`corrected`; which of their own
        channels clipped (:meth:`relative`); and whether the white holds
        (:func:`white_holds`): against the frame's own white at :data:`GEMS_OVER_WHITE`
        (it may be a grey floor), against a fixed :attr:`white` (a calibrated tray's
        markers: white paper) at :data:`ONE_GEM_OVER_WHITE`, the line for one gem
        alone, since a tray of one to three gems has a median of one or two (the demo's
        rendered yellow gem is brighter than its rendered paper: 3 of 40 of its gem draws
        had no colour at all)."""
        rel, clipped, lower = self.relative(frame, candidates)
        line = GEMS_OVER_WHITE if self.white is None else ONE_GEM_OVER_WHITE
        return self.corrected(rel, clipped), lower, white_holds(rel, line)

    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]] = ()) -> list[ObjectRead | None]:
        """One :class:`ObjectRead` (kind ``gem``) per candidate, or ``None``: not a gem."""
        mine = [i for i, c in enumerate(candidates) if self.sources is None or c.source in self.sources]
        out: list[ObjectRead | None] = [None] * len(candidates)
        if mine:
            picked = [candidates[i] for i in mine]
            size = (int(frame.shape[1]), int(frame.shape[0]))
            fixed, lower, white_ok = self._measured(frame, picked)
            reads = self.reads(picked, lab_of(fixed), size, white_ok, rel=fixed, lower=lower)
            for i, obj in zip(mine, reads):
                out[i] = obj
        return out

    @staticmethod
    def _too_large(candidates: Sequence[Candidate]) -> list[bool]:
        """Per candidate, whether it is :data:`LARGER_THAN_GEMS` times the median side of
        three or more (one set's gems are one size)."""
        if len(candidates) < 3:
            return [False] * len(candidates)
        med = float(np.median([c.side for c in candidates]))
        return [c.side > LARGER_THAN_GEMS * med for c in candidates]

    def reads(self, candidates: Sequence[Candidate], lab: np.ndarray,
              size: tuple[int, int] | None = None, white_ok: bool = True,
              rel: np.ndarray | None = None, lower: np.ndarray | None = None) -> list[ObjectRead | None]:
        """The reads of candidates whose white-balanced Lab is already measured; with the
        frame's ``size`` (width, height), those its edge cuts are at most pending; so is
        one far larger than the others (:data:`LARGER_THAN_GEMS`). When the frame's white
        does not hold (``white_ok`` False, :func:`white_holds`) no colour is known: every
        candidate is pending with no value and no suggestion (the players say which gem
        it is, or "not a gem"), since "far from every colour" means nothing either.
        ``rel`` and ``lower``: the white-relative colours ``lab`` was made of and the
        channels that clipped in each candidate (:meth:`relative`, :meth:`GemColours.ratios`)."""
        if not white_ok:
            return [ObjectRead(kind=self.kind, value=None, box=c.box, confidence=0.0, status=STATUS_PENDING)
                    for c in candidates]
        out: list[ObjectRead | None] = []
        for c, d, large in zip(candidates, self.colours_now().decide(lab, rel, lower), self._too_large(candidates)):
            if d.status is None:
                out.append(None)
                continue
            x, y, w, h = c.box
            cut = size is not None and (x < 0 or y < 0 or x + w > size[0] or y + h > size[1])
            read = d.status == STATUS_READ and not cut and not large
            out.append(ObjectRead(kind=self.kind, value=d.colour, box=c.box, confidence=d.confidence,
                                  status=STATUS_READ if read else STATUS_PENDING, candidates=() if read else d.scores))
        return out
