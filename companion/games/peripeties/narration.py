"""A suggested narration of an episode (R9), in French and English.

The narration itself is the next player's job (R9); the software only offers a sentence
built from the dice: location and adversary (refined by the optional detail D6, R8, read
in the tables of spec section 4, ``companion/data/peripeties_details.json``), the trial
and its difficulty, the reward and the sentence at stake.

Variety: several phrasings for each part, picked deterministically from the dice
themselves (a CRC of their values), so a replay, the tablet and ``companion replay``
show the same sentence, and a correction of a die may change it.
"""

from __future__ import annotations

import json
import zlib
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["narrate", "details", "detail_entry"]

DETAILS_PATH = Path(__file__).resolve().parents[2] / "data" / "peripeties_details.json"


@lru_cache(maxsize=1)
def details() -> Mapping[str, Any]:
    """The detail tables (read once; part of the program's data)."""
    return json.loads(DETAILS_PATH.read_text(encoding="utf-8"))


def detail_entry(table: str, key: str, d6: int | None) -> Mapping[str, str]:
    """The cell of a detail table (``table`` = ``lieu`` | ``adversaire``), or the generic
    phrase when no detail die was rolled."""
    col = details()[table][key]
    if d6 is None:
        return col["generic"]
    return col["rows"][d6 - 1]


_INTRO = {
    "fr": (
        "{Lieu}, {nom} tombe sur {adv}.",
        "Alors que {nom} traverse la région, une rencontre l'attend {lieu} : {adv}.",
        "Sur la route, {lieu}, {nom} se retrouve face à {adv}.",
        "{nom} fait halte {lieu}… et voici {adv}.",
        "{Lieu}, le destin met {nom} en présence de {adv}.",
    ),
    "en": (
        "{Lieu}, {nom} runs into {adv}.",
        "As {nom} crosses the land, an encounter waits {lieu}: {adv}.",
        "On the road, {lieu}, {nom} finds themself facing {adv}.",
        "{nom} stops {lieu}… and there is {adv}.",
        "{Lieu}, fate brings {nom} before {adv}.",
    ),
}

_TRIAL = {
    "fr": {
        "combat": ("Il faudra se battre", "Seules les armes régleront l'affaire", "Le combat est inévitable"),
        "esprit": ("Il faudra ruser", "Seul l'esprit permettra de s'en tirer", "C'est une affaire de finesse"),
        "magie": ("Il faudra recourir à la magie", "Des forces occultes sont à l'œuvre", "Seul un sortilège en viendra à bout"),
    },
    "en": {
        "combat": ("It will come to blows", "Only weapons will settle this", "A fight cannot be avoided"),
        "esprit": ("Cunning is needed", "Only wits will get them out of this", "It is a matter of wits"),
        "magie": ("Magic is needed", "Occult forces are at work", "Only a spell will overcome this"),
    },
}

_REWARD = {
    "fr": {
        "banquet": ("un banquet digne d'un seigneur", "un festin qui redonne des forces"),
        "gourde": ("une gourde d'arak", "une gourde du meilleur arak"),
        "taels": ("une bourse de taels d'argent", "quelques taels d'argent"),
        "frere": ("un nouvel ami, qui deviendra frère juré", "un allié reconnaissant, futur frère juré"),
    },
    "en": {
        "banquet": ("a banquet fit for a lord", "a feast that restores strength"),
        "gourde": ("a gourd of arak", "a gourd of the finest arak"),
        "taels": ("a purse of silver taels", "a few silver taels"),
        "frere": ("a new friend, who will become a sworn brother", "a grateful ally, a sworn brother to be"),
    },
}

_SENTENCE = {
    "fr": {
        "voyage": ("un retard qui empêche de voyager ce tour-ci", "la fatigue : pas de voyage ce tour"),
        "taels": ("une amende en taels d'argent", "de lourdes pertes d'argent"),
        "bagne": ("le bagne, et les cachets dorés tatoués sur les joues", "une condamnation au bagne"),
        "blessure": ("une blessure incapacitante", "une terrible blessure"),
    },
    "en": {
        "voyage": ("a delay: no travel this turn", "exhaustion: no travel this turn"),
        "taels": ("a fine in silver taels", "a heavy loss of silver"),
        "bagne": ("penal servitude, with the golden brands tattooed on the cheeks", "a sentence to the penal colony"),
        "blessure": ("a crippling wound", "a terrible wound"),
    },
}

_STAKES = {
    "fr": ("Réussite : {r}. Échec : {s}.", "À la clé : {r} ; en cas d'échec : {s}.", "Victoire : {r} — défaite : {s}."),
    "en": ("Success: {r}. Failure: {s}.", "At stake: {r}; on failure: {s}.", "Victory: {r} — defeat: {s}."),
}


_SALTS = {"intro": 0, "trial": 7, "reward": 13, "sentence": 19, "stakes": 25}


def _pick(options: Sequence[str], h: int, salt: str) -> str:
    """One phrasing, from a CRC of the dice (``h``) mixed with the part's salt."""
    return options[((h >> _SALTS[salt]) ^ (h * (_SALTS[salt] + 1))) % len(options)]


_ELISIONS = ((" de un ", " d'un "), (" de une ", " d'une "), (" de des ", " de "))


def _french(s: str) -> str:
    """Elisions the templates cannot know in advance: "de un tigre" -> "d'un tigre"."""
    if " de " in s:
        for a, b in _ELISIONS:
            s = s.replace(a, b)
    return s


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def narrate(
    name: str,
    lieu: str,
    adversaire: str,
    epreuve: str,
    difficulty: int | None,
    reward: str | None,
    sentence: str | None,
    detail: Sequence[int] = (),
    detail_mode: str = "one",
) -> dict[str, Any]:
    """The suggested sentence ``{"fr", "en"}`` plus the detail cells used
    (``lieu_detail``/``adversaire_detail``: ``{"fr", "en"}`` or absent)."""
    d_lieu = detail[0] if detail else None
    d_adv = (detail[1] if len(detail) > 1 else None) if detail_mode == "two" else d_lieu
    loc = detail_entry("lieu", lieu, d_lieu)
    adv = detail_entry("adversaire", adversaire, d_adv)
    seed = zlib.crc32(f"{lieu}/{adversaire}/{epreuve}/{difficulty}/{reward}/{sentence}/{detail}/{name}".encode())
    out: dict[str, Any] = {}
    for lang in ("fr", "en"):
        place = loc[f"phrase_{lang}"]
        who = adv[f"phrase_{lang}"]
        intro = _pick(_INTRO[lang], seed, "intro").format(Lieu=_cap(place), lieu=place, nom=name, adv=who)
        trial = _pick(_TRIAL[lang][epreuve], seed, "trial")
        if difficulty is not None:
            scale = 12 if epreuve == "magie" else 20
            word = "difficulté" if lang == "fr" else "difficulty"
            trial = f"{trial} ({word} {difficulty}/{scale})."
        else:
            trial += "."
        parts = [intro, trial]
        if reward and sentence:
            r = _pick(_REWARD[lang][reward], seed, "reward")
            s = _pick(_SENTENCE[lang][sentence], seed, "sentence")
            parts.append(_pick(_STAKES[lang], seed, "stakes").format(r=r, s=s))
        out[lang] = _french(" ".join(parts)) if lang == "fr" else " ".join(parts)
    if d_lieu is not None:
        out["lieu_detail"] = {"fr": loc["fr"], "en": loc["en"]}
    if d_adv is not None:
        out["adversaire_detail"] = {"fr": adv["fr"], "en": adv["en"]}
    return out
