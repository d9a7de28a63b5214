"""The trial's modifiers (R10, R14, R17, D3, D4, D7) and the odds of each choice (spec 7).

One function, :func:`modifiers`, computes the breakdown used both for the odds shown
before the roll and for the total after it, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import de
from .state import Card, Character, Episode
from .odds import needed_roll, success_probability
from .options import Options

__all__ = ["Modifier", "modifiers", "choice_odds", "GOURD_BONUS", "OWN_LOCATION_BONUS", "BROTHER_LOCATION_BONUS"]

GOURD_BONUS = 5  # R14
OWN_LOCATION_BONUS = 5  # R10
BROTHER_LOCATION_BONUS = 3  # R10, D4

_TRIAL_WORDS = {"combat": ("combat", "combat"), "esprit": ("esprit", "mind"), "magie": ("magie", "magic")}


@dataclass(frozen=True)
class Modifier:
    key: str
    fr: str
    en: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "text": {"fr": self.fr, "en": self.en}, "value": self.value}


def _brother_modifier(trial: str, brother: Card) -> Modifier:
    fr_w, en_w = _TRIAL_WORDS[trial]
    return Modifier("brother", f"{fr_w} {de(brother.name)} (frère juré)", f"{brother.name}'s {en_w} (sworn brother)", brother.stat(trial))


def _stat_modifier(trial: str, ch: Character) -> Modifier:
    fr_w, en_w = _TRIAL_WORDS[trial]
    return Modifier("stat", f"{fr_w} {de(ch.card.name)}", f"{ch.card.name}'s {en_w}", ch.card.stat(trial))


def _location_modifiers(o: Options, ch: Character, lieu: str, brother: Card | None) -> list[Modifier]:
    """R10/D4: +5 on the character's favoured location; +3 for a sworn brother's (any
    brother, or the one used: ``brother_location``), one bonus or all (``location_bonus``)."""
    own = ch.card.lieu == lieu
    if o.brother_location == "used":
        matching = [brother] if brother is not None and brother.lieu == lieu else []
    else:
        matching = [b for b in ch.brothers if b.lieu == lieu]
    out = []
    if own:
        out.append(Modifier("location", "lieu de prédilection", "favoured location", OWN_LOCATION_BONUS))
    if matching and (o.location_bonus == "cumulative" or not own):
        n = len(matching) if o.location_bonus == "cumulative" else 1
        names = ", ".join(b.name for b in matching[:n])
        out.append(Modifier("brother_location", f"lieu de prédilection de {names}", f"favoured location of {names}", BROTHER_LOCATION_BONUS * n))
    return out


def modifiers(o: Options, ch: Character, ep: Episode, gourds: int, brother_id: str | None) -> list[Modifier]:
    """Everything added to the natural roll of ``ch`` in the trial of ``ep``, in order:
    the value used (the character's, or its brother's with ``brother_mode: replace``, D3),
    experience (R18), wounds (combat, R22), the brother's value added (R17), gourds (combat,
    R14), favoured locations (R10, D4)."""
    trial = ep.epreuve or "combat"
    brother = next((b for b in ch.brothers if b.id == brother_id), None) if brother_id else None
    replace = brother is not None and o.brother_mode == "replace"
    out = [_brother_modifier(trial, brother) if brother is not None and replace else _stat_modifier(trial, ch)]
    xp = ch.xp_of(trial)
    if xp:
        out.append(Modifier("xp", f"expérience +{xp}", f"experience +{xp}", xp))
    if trial == "combat" and ch.wounds:
        out.append(Modifier("wounds", f"blessures ×{ch.wounds}", f"wounds ×{ch.wounds}", -2 * ch.wounds))
    if brother is not None and o.brother_mode == "add":
        out.append(_brother_modifier(trial, brother))
    if gourds and trial == "combat":
        out.append(Modifier("gourd", f"gourde d'arak ×{gourds}", f"gourd of arak ×{gourds}", GOURD_BONUS * gourds))
    if ep.lieu is not None:
        out.extend(_location_modifiers(o, ch, ep.lieu, brother))
    return out


def choice_odds(o: Options, ch: Character, ep: Episode) -> list[dict[str, Any]]:
    """Before the roll: the exact chance of success for every choice the player has
    (gourds 0..allowed, no brother or each brother, and their combinations)."""
    difficulty = ep.difficulty_total
    if difficulty is None or ep.epreuve is None:
        return []
    die = ch.card.die
    naturals = o.naturals == "override"
    max_g = min(ch.gourds, o.gourds_per_trial) if ep.epreuve == "combat" else 0
    brothers: list[str | None] = [None]
    if o.brothers_per_trial >= 1:
        brothers += [b.id for b in ch.brothers]
    rows = []
    for b in brothers:
        for g in range(0, max_g + 1):
            mods = modifiers(o, ch, ep, g, b)
            m = sum(x.value for x in mods)
            p = success_probability(die, m, difficulty, naturals)
            bname = next((x.name for x in ch.brothers if x.id == b), None)
            parts_fr = [f"avec {bname}" if bname else "sans frère"]
            parts_en = [f"with {bname}" if bname else "no brother"]
            if max_g:
                parts_fr.append(f"{g} gourde" if g else "sans gourde")
                parts_en.append(f"{g} gourd" if g else "no gourd")
            rows.append(
                {
                    "gourd": g,
                    "brother": b,
                    "label": {"fr": ", ".join(parts_fr), "en": ", ".join(parts_en)},
                    "modifier": m,
                    "needed": needed_roll(die, m, difficulty, naturals),
                    "probability": float(p),
                    "exact": f"{p.numerator}/{p.denominator}",
                }
            )
    return rows
