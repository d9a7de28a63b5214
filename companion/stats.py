"""Statistics for dice: χ² goodness of fit, its p-value, and plain words about it.

Pure and dependency-free. The p-value of a χ² statistic is the regularised upper
incomplete gamma function Q(k/2, x/2), computed by its series below a + 1 and by its
continued fraction above (the classic split: both converge fast where they are used).

>>> round(chi2_sf(3.841458820694124, 1), 6)   # the 5 % point of χ² with 1 degree of freedom
0.05
>>> round(chi2_sf(21.665994333461924, 9), 6)  # the 1 % point with 9 (a d10)
0.01
>>> fit = goodness_of_fit({1: 30, 2: 30, 3: 30, 4: 30, 5: 30, 6: 30}, uniform([1, 2, 3, 4, 5, 6]))
>>> fit.statistic, fit.dof, fit.p
(0.0, 5, 1.0)
>>> verdict(fit)["fr"]
"rien d'anormal après 180 jets"
>>> skewed = goodness_of_fit({1: 60, 2: 24, 3: 24, 4: 24, 5: 24, 6: 24}, uniform(range(1, 7)))
>>> verdict(skewed)["fr"]
'ce dé sort trop souvent 1 : p < 0,001'
>>> verdict(goodness_of_fit({1: 3, 2: 1}, uniform([1, 2, 3, 4, 5, 6])))["fr"]
'trop peu de jets pour juger : 4 jets, il en faut au moins 30'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping

__all__ = ["regularized_gamma_q", "chi2_sf", "Fit", "goodness_of_fit", "uniform", "verdict",
           "french_number", "MIN_EXPECTED", "ALPHA"]

#: Below this many expected rolls per face, the χ² approximation is not trusted.
MIN_EXPECTED = 5.0
#: A die is called out when its p-value is below this (one in a hundred by chance).
ALPHA = 0.01

_EPS = 1e-15
_TINY = 1e-300


def _gamma_p_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    # Lentz's method for the continued fraction of Γ(a, x)
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    f = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        f *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return f * math.exp(-x + a * math.log(x) - math.lgamma(a))


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x ≥ 0.

    >>> regularized_gamma_q(1.0, 2.0) == math.exp(-2.0)  # Q(1, x) = e^-x
    True
    >>> round(regularized_gamma_q(0.5, 0.5), 10) == round(math.erfc(math.sqrt(0.5)), 10)
    True
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x < 0:
        raise ValueError("x must not be negative")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, min(1.0, 1.0 - _gamma_p_series(a, x)))
    return max(0.0, min(1.0, _gamma_q_fraction(a, x)))


def chi2_sf(x: float, dof: int) -> float:
    """P(χ²_dof ≥ x): the p-value of a χ² statistic ``x``."""
    if dof < 1:
        raise ValueError("a χ² test needs at least one degree of freedom")
    return regularized_gamma_q(dof / 2.0, max(0.0, x) / 2.0)


def uniform(faces: Iterable[Hashable]) -> dict[Hashable, float]:
    faces = list(faces)
    return {f: 1.0 / len(faces) for f in faces}


@dataclass(frozen=True)
class Fit:
    """A χ² goodness-of-fit test of observed face counts against expected probabilities."""

    n: int
    counts: Mapping[Any, int]
    expected: Mapping[Any, float]  # expected counts (n * p)
    statistic: float
    dof: int
    p: float
    #: True when every face expects at least :data:`MIN_EXPECTED` rolls.
    enough: bool
    #: Rolls needed for ``enough`` (the warning says how many).
    needed: int
    #: The face furthest above its expected count (standardised), and the one furthest below.
    high: Any
    low: Any


def goodness_of_fit(counts: Mapping[Any, int], probs: Mapping[Any, float]) -> Fit:
    """Test ``counts`` (face -> rolls) against ``probs`` (face -> probability, summing
    to 1). Faces rolled that ``probs`` does not know make the test fail loudly."""
    unknown = [f for f, c in counts.items() if c and f not in probs]
    if unknown:
        raise ValueError(f"faces not on this die: {unknown}")
    total_p = sum(probs.values())
    if not math.isclose(total_p, 1.0, rel_tol=1e-9):
        raise ValueError(f"probabilities sum to {total_p}, not 1")
    n = int(sum(counts.get(f, 0) for f in probs))
    expected = {f: n * p for f, p in probs.items()}
    stat = 0.0
    resid: dict[Any, float] = {}
    for f, e in expected.items():
        o = counts.get(f, 0)
        if e > 0:
            stat += (o - e) ** 2 / e
            resid[f] = (o - e) / math.sqrt(e)
    dof = max(1, sum(1 for p in probs.values() if p > 0) - 1)
    p = chi2_sf(stat, dof) if n else 1.0
    pmin = min(p_ for p_ in probs.values() if p_ > 0)
    needed = int(math.ceil(MIN_EXPECTED / pmin - 1e-9))
    high = max(resid, key=lambda f: resid[f]) if resid else None
    low = min(resid, key=lambda f: resid[f]) if resid else None
    return Fit(n, dict(counts), expected, round(stat, 10), dof, p, n >= needed, needed, high, low)


def french_number(x: float, digits: int = 3) -> str:
    """``0.003`` -> ``"0,003"``; French decimal comma, thin spaces between thousands.

    >>> french_number(0.0031), french_number(1234.5, 1), french_number(96.94, 1)
    ('0,003', '1\\u202f234,5', '96,9')
    """
    s = f"{x:,.{digits}f}".replace(",", "\u202f").replace(".", ",")
    return s


def _p_text(p: float, lang: str) -> str:
    if p < 0.001:
        return "p < 0,001" if lang == "fr" else "p < 0.001"
    return f"p = {french_number(p)}" if lang == "fr" else f"p = {p:.3f}"


def verdict(fit: Fit, face_name: Mapping[Any, str] | None = None,
            face_name_en: Mapping[Any, str] | None = None) -> dict[str, str]:
    """The test in plain words, French and English; ``level`` is ``few``, ``ok`` or ``odd``."""
    fr_name = (face_name or {}).get(fit.high, str(fit.high))
    en_name = (face_name_en or face_name or {}).get(fit.high, str(fit.high))
    if not fit.enough:
        return {"level": "few",
                "fr": f"trop peu de jets pour juger : {fit.n} jet{'s' if fit.n != 1 else ''}, il en faut au moins {fit.needed}",
                "en": f"too few rolls to judge: {fit.n} roll{'s' if fit.n != 1 else ''}, at least {fit.needed} needed"}
    if fit.p < ALPHA:
        return {"level": "odd",
                "fr": f"ce dé sort trop souvent {fr_name} : {_p_text(fit.p, 'fr')}",
                "en": f"this die shows {en_name} too often: {_p_text(fit.p, 'en')}"}
    return {"level": "ok", "fr": f"rien d'anormal après {fit.n} jets", "en": f"nothing unusual after {fit.n} rolls"}
