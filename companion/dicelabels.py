"""Words for die kinds and faces, in French and English, for people (never the keys).

The symbol dice's words come from ``data/dice.json`` (the same file the rules use); the
numbered dice and ESPRI's gems are named here.

>>> kind_label("gem", "fr"), face_label("gem", "ete", "fr")
('gemme', 'Été')
>>> face_label("recompense", "frere", "fr"), face_label("d10", 7, "en")
('Frère juré', '7')
>>> die_label("lieu", "foret", "fr")
'Dé de lieu : Forêt'
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["kind_label", "face_label", "die_label", "labels_json"]

_DICE = Path(__file__).resolve().parent / "data" / "dice.json"

_EXTRA_KINDS = {"gem": ("gemme", "gem")}
_GEMS = {"printemps": ("Printemps", "Spring"), "ete": ("Été", "Summer"), "automne": ("Automne", "Autumn"),
         "hiver": ("Hiver", "Winter"), "temps": ("Temps", "Time"), "rupture": ("Rupture", "Rupture")}


@lru_cache(maxsize=1)
def labels_json() -> dict[str, Any]:
    """``{"kinds": {kind: [fr, en]}, "faces": {kind: {face: [fr, en]}}}``."""
    raw = json.loads(_DICE.read_text(encoding="utf-8"))
    kinds: dict[str, list[str]] = {}
    faces: dict[str, dict[str, list[str]]] = {}
    for k, v in raw.get("kinds", {}).items():
        lab = v.get("label") or {}
        kinds[k] = [str(lab.get("fr", k)), str(lab.get("en", k))]
        for f in v.get("faces", []) or []:
            faces.setdefault(k, {})[str(f["key"])] = [str(f.get("fr", f["key"])), str(f.get("en", f["key"]))]
    for k, (fr, en) in _EXTRA_KINDS.items():
        kinds[k] = [fr, en]
    faces["gem"] = {g: [fr, en] for g, (fr, en) in _GEMS.items()}
    return {"kinds": kinds, "faces": faces}


def kind_label(kind: str, lang: str = "fr") -> str:
    pair = labels_json()["kinds"].get(kind)
    return pair[1 if lang == "en" else 0] if pair else kind


def face_label(kind: str, face: Any, lang: str = "fr") -> str:
    pair = labels_json()["faces"].get(kind, {}).get(str(face))
    return pair[1 if lang == "en" else 0] if pair else str(face)


def die_label(kind: str, face: Any, lang: str = "fr") -> str:
    """``"Dé de lieu : Forêt"``, ``"gemme Été"``, ``"D10 7"``."""
    if kind == "gem":
        return f"{kind_label(kind, lang)} {face_label(kind, face, lang)}"
    if kind not in labels_json()["faces"]:
        return f"{kind_label(kind, lang)} {face}"
    sep = " : " if lang != "en" else ": "
    return f"{kind_label(kind, lang)}{sep}{face_label(kind, face, lang)}"
