"""The arithmetic of an Appel: scores with bonuses (R15, E17), N (R11), the draw table
(R12, E8), the legal selections of placed gems and their results (R17-R19, E5, E16b),
the no-Talent penalty (R24). Pure functions, shared by the game and the odds.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Sequence

from ..refusal import refuse
from .options import Options
from .state import BS, CF, CS, F, GEM_NAMES, GEMS, RESULTS, S, SEASONS, Effect, relation


def _fr(gems: Iterable[str]) -> str:
    """Gem keys by their French names, comma-separated (« aucune » for none)."""
    return ", ".join(GEM_NAMES[g]["fr"] if g in GEM_NAMES else g for g in gems) or "aucune"

__all__ = [
    "effective_score", "draw_plan", "selections", "best_result", "selection_key",
    "apply_penalty", "match_selection",
]

_INDEX = {g: i for i, g in enumerate(GEMS)}


def effective_score(base: int, effects: Iterable[Effect], season: str,
                    order: str = "minima_first") -> int:
    """R15 / E17: a Season score with its temporary bonuses and maluses.

    A bound limits the resulting score: an effect with ``minimum`` m cannot bring the
    score below m, one with ``maximum`` M cannot bring it above M (a bound never moves
    the score against the effect). Minimum-bounded effects go first by m descending, then
    maximum-bounded ones by M ascending (option ``bounded_effects_order`` swaps the two
    groups), then unbounded ones.
    """
    mine = [e for e in effects if e.season in (None, season)]
    mins = sorted((e for e in mine if e.minimum is not None), key=lambda e: -(e.minimum or 0))
    maxs = sorted((e for e in mine if e.minimum is None and e.maximum is not None), key=lambda e: e.maximum or 0)
    free = [e for e in mine if e.minimum is None and e.maximum is None]
    groups = (maxs + mins) if order == "maxima_first" else (mins + maxs)
    score = base
    for e in groups + free:
        new = score + e.value
        if e.minimum is not None:
            new = max(new, min(e.minimum, score))
        if e.maximum is not None:
            new = min(new, max(e.maximum, score))
        score = new
    return score


def draw_plan(n: int, options: Options) -> dict[str, Any]:
    """R12 / E8: how many gems to draw for ``n``, who chooses, who may redraw.

    ``automatic`` is set when |N| exceeds the cap (12): Critical Success draws the cap
    (option ``automatic_success_draw``), Critical Failure draws nothing.
    """
    cap = options.max_draw
    if n > cap:
        count = cap if options.automatic_success_draw else 0
        return {"count": count, "chooser": "leader", "redraw_by": None, "automatic": "critical_success"}
    if n < -cap:
        return {"count": 0, "chooser": "gm", "redraw_by": None, "automatic": "critical_failure"}
    if n >= 2:
        return {"count": n, "chooser": "leader", "redraw_by": None, "automatic": None}
    if n == 1:
        return {"count": 1, "chooser": "leader", "redraw_by": "leader", "automatic": None}
    if n == 0:
        return {"count": 1, "chooser": "leader", "redraw_by": None, "automatic": None}
    if n == -1:
        return {"count": 1, "chooser": "leader", "redraw_by": "gm", "automatic": None}
    return {"count": -n, "chooser": "gm", "redraw_by": None, "automatic": None}


def _shift(base: int, rel: str, direction: str, adjacent_modifier: str) -> int:
    if rel == "adjacent" and adjacent_modifier == "two_up_one_down":
        return CS if direction == "up" else F
    return min(CS, base + 1) if direction == "up" else max(CF, base - 1)


_BASE = {"called": S, "adjacent": BS, "opposite": F}


def selections(counts: Sequence[int], called: str, options: Options,
               must: str | None = None) -> list[dict[str, Any]]:
    """Every legal choice of placed gems among the candidates (R17) with its result.

    ``counts`` are the candidates per gem type (:data:`GEMS` order). ``must`` is a gem
    type every selection must hold (the added Prayer when the GM chooses, R13). Each
    selection: ``{"key", "gems", "direction", "result", "level", "rupture_point"}``.
    Only which types are present matters, so results are cached; the dicts returned are
    shared: copy before changing them.
    """
    present = tuple(c > 0 for c in counts)
    return _selections(present, called, options.adjacent_modifier,
                       options.fixed_criticals, must)


@lru_cache(maxsize=4096)
def _selections(present: tuple[bool, ...], called: str, adjacent_modifier: str, fixed_criticals: bool,
                must: str | None) -> list[dict[str, Any]]:
    return _selections_uncached(present, called, adjacent_modifier, fixed_criticals, must)


def _selections_uncached(counts: Sequence[int] | Sequence[bool], called: str, adjacent_modifier: str,
                         fixed: bool, must: str | None = None) -> list[dict[str, Any]]:
    has = {g: counts[_INDEX[g]] > 0 for g in GEMS}
    out: list[dict[str, Any]] = []
    seasons = [s for s in SEASONS if has[s]]
    if seasons:
        for s in seasons:
            rel = relation(s, called)
            base = _BASE[rel]
            out.append(_sel([s], None, base))
            for mod in ("temps", "rupture"):
                if not has[mod]:
                    continue
                for direction in ("up", "down"):
                    if fixed and rel == "called" and direction == "down":
                        continue
                    if fixed and rel == "opposite" and direction == "up":
                        continue
                    out.append(_sel([s, mod], direction, _shift(base, rel, direction, adjacent_modifier)))
    else:  # only Time and/or Rupture: R17 (c), (d), E16b
        if has["temps"]:
            out.append(_sel(["temps"], None, BS))
        if has["rupture"]:
            out.append(_sel(["rupture"], None, F))
            out.append(_sel(["rupture"], "success", S, rupture_point=True))
    if must is not None:
        out = [sel for sel in out if must in sel["gems"]]
    return out


def _sel(gems: list[str], direction: str | None, result: int, rupture_point: bool = False) -> dict[str, Any]:
    return {
        "key": selection_key(gems, direction),
        "gems": tuple(gems),
        "direction": direction,
        "result": RESULTS[result],
        "level": result,
        "rupture_point": rupture_point,
    }


def selection_key(gems: Sequence[str], direction: str | None) -> str:
    return "+".join(gems) + (f":{direction}" if direction else "")


def apply_penalty(level: int, penalty: int) -> int:
    """R24 / E27: the no-Talent penalty, floored at Critical Failure."""
    return max(CF, level - penalty)


def best_result(counts: Sequence[int], called: str, options: Options, chooser: str,
                must: str | None = None) -> int:
    """The result the chooser takes: the leader the best, the GM the worst."""
    levels: list[int] = [sel["level"] for sel in selections(counts, called, options, must)]
    return max(levels) if chooser == "leader" else min(levels)


def _check_gems(gems: Any, candidates: Sequence[str]) -> list[str]:
    """The chosen gems, each a known gem among the candidates (R1, R17)."""
    if not isinstance(gems, list) or not gems or not all(isinstance(g, str) for g in gems):
        raise refuse("R17", "«\u202fgems\u202f» doit être une liste non vide de noms de gemmes",
                     "'gems' must be a non-empty list of gem names")
    for g in gems:
        if g not in GEMS:
            raise refuse("R1", f"gemme inconnue {g!r}", f"unknown gem {g!r}")
    avail = list(candidates)
    for g in gems:
        if g not in avail:
            raise refuse("R17", f"pas de gemme {_fr([g])} parmi les candidates ({_fr(candidates)})",
                         f"no {g} gem among the candidates ({', '.join(candidates) or 'none'})")
        avail.remove(g)
    return gems


def _check_combination(gems: list[str], candidates: Sequence[str]) -> tuple[list[str], list[str]]:
    """At most one Season gem and one Time or Rupture gem, never Time with Rupture, and a
    Time/Rupture gem alone only when every candidate is one (R17). Returns the modifier
    gems and the Season gems."""
    mods = [g for g in gems if g in ("temps", "rupture")]
    seas = [g for g in gems if g in SEASONS]
    if "temps" in mods and "rupture" in mods:
        raise refuse("R17", "une gemme de Temps ne se pose pas avec une gemme de Rupture",
                     "a Time gem cannot be placed with a Rupture gem")
    if len(mods) > 1:
        raise refuse("R17", "une seule gemme de Temps ou de Rupture par Appel peut modifier le résultat",
                     "only one Time or Rupture gem per Appel may modify the result")
    if len(seas) > 1:
        raise refuse("R17", "une seule gemme de Saison est posée pour le résultat",
                     "only one Season gem is placed for the result")
    if not seas and any(c in SEASONS for c in candidates):
        raise refuse(
            "R17", "une gemme de Temps ou de Rupture seule n'est permise que si toutes les candidates sont de Temps"
            " ou de Rupture\u202f; posez-la avec une gemme de Saison",
            "a Time or Rupture gem alone is allowed only when every candidate is Time or Rupture;"
            " place it with a Season gem")
    return mods, seas


def match_selection(choices: list[dict[str, Any]], gems: Any, direction: Any,
                    candidates: Sequence[str]) -> dict[str, Any]:
    """Find the chosen selection, or say which rule of R17 forbids it."""
    gems = _check_gems(gems, candidates)
    mods, seas = _check_combination(gems, candidates)
    want = selection_key(gems, direction if direction is not None else None)
    alt = selection_key(list(reversed(gems)), direction)
    for sel in choices:
        if sel["key"] in (want, alt):
            return sel
    if seas and mods and direction not in ("up", "down"):
        raise refuse("R19", "une gemme de Temps ou de Rupture avec une gemme de Saison demande «\u202fdirection\u202f»\u202f: up ou down",
                     "a Time/Rupture gem with a Season gem needs 'direction': up or down")
    allowed = ", ".join(s["key"] for s in choices)
    raise refuse("R17", f"la sélection {want} n'est pas permise ici (permises\u202f: {allowed})",
                 f"the selection {want} is not allowed here (allowed: {allowed})")
