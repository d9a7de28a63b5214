"""Gem colours: the gem's interior with specular highlights masked, against enrolled colours.

The gems of ESPRI are round glass gems: printemps (green), ete (yellow), automne (red),
hiver (blue), rupture (violet), and the clear temps gem. Colours are measured relative
to the empty tray around the gem (see :func:`vision.faces.extract`), on the interior of
the gem (its rim refracts the tray), without the specular highlights (bright and
colourless pixels). A clear gem has no colour of its own: what is measured is the tray
seen through it, lighter and as grey as the tray — the difference from the background is
what marks it, which is why colours are relative to the tray in the first place.

The enrolled colours come from the table's own gems (``companion vision enroll --kind gem
--face hiver PHOTOS``); the default enrollment takes them from the synthetic renderer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .faces import Features

__all__ = ["GemParams", "gem_colour_features", "classify_gem", "GemMatch"]


@dataclass(frozen=True)
class GemParams:
    sigma: float = 10.0
    min_score: float = 0.25
    min_margin: float = 0.2


@dataclass(frozen=True)
class GemMatch:
    colour: str
    score: float
    margin: float
    confidence: float
    pending: bool
    candidates: tuple[tuple[str, float], ...]


def gem_colour_features(feat: Features) -> np.ndarray:
    """(L, a, b) of the gem's interior relative to the tray, highlights masked (float32)."""
    mask = feat.mask
    area = float(np.count_nonzero(mask))
    r = math.sqrt(area / math.pi)
    er = max(1, int(round(0.3 * r)))
    inner = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * er + 1, 2 * er + 1)))
    if np.count_nonzero(inner) < 6:
        inner = mask
    lab = cv2.cvtColor(feat.rel.astype(np.uint8), cv2.COLOR_BGR2LAB).astype(np.float32)
    px = lab[inner > 0]
    chroma = np.hypot(px[:, 1] - 128, px[:, 2] - 128)
    Lmed = float(np.median(px[:, 0]))
    cmed = float(np.median(chroma))
    highlight = (px[:, 0] > Lmed + 15) & (chroma < 0.7 * cmed + 4)
    keep = px[~highlight] if np.count_nonzero(~highlight) >= 4 else px
    return np.median(keep, axis=0).astype(np.float32)


def _dist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = np.asarray(a, np.float32) - np.asarray(b, np.float32)
    return np.asarray(np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2), np.float32)


def classify_gem(colour: np.ndarray, samples: np.ndarray, labels: list[str],
                 params: GemParams = GemParams()) -> GemMatch:
    """Nearest enrolled gem colour, with a score per colour ``exp(-d²/2σ²)`` (d: the
    distance to that colour's nearest sample)."""
    if len(samples) == 0:
        return GemMatch("", 0.0, 0.0, 0.0, True, ())
    d = _dist(samples, colour[None, :])
    names = sorted(set(labels))
    best_d = {n: float(min(d[i] for i in range(len(labels)) if labels[i] == n)) for n in names}
    scores = {n: math.exp(-0.5 * (v / params.sigma) ** 2) for n, v in best_d.items()}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    best_name, best = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    margin = best - second
    conf = float(best * min(1.0, margin / 0.5)) if margin > 0 else 0.0
    pending = best < params.min_score or margin < params.min_margin
    return GemMatch(best_name, best, margin, conf, pending, tuple(ranked[:3]))
