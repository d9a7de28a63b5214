"""Die kinds as data: every die of the table, its faces and their labels.

The kinds live in ``companion/data/dice.json`` (a table may supply its own file in the
same format, e.g. with other face frequencies for the symbol dice: spec D1/D2). This
module turns that JSON into small frozen values and validates it with clear messages.

Format (``"format": "companion-dice"``)::

    {"kinds": {
        "d10": {"sides": 10, "zero_is": 10, "label": {"fr": "D10", "en": "d10"}},
        "lieu": {"colour": "blue", "label": {...},
                 "faces": [{"key": "montagne", "fr": "Montagne", "en": "Mountain",
                            "icon": "⛰️"}, ... six faces ...]}}}

- A *numeric* kind gives ``sides``: its faces are 1..sides (keys are ints). ``zero_is``
  says which value a face printed "0" stands for (the d10's 0 is 10).
- A *symbol* kind lists its physical faces; a result printed on several faces repeats
  its key (the trial die has three ``combat`` faces).

Face keys are a contract: the rules, the table logs and the camera reads (``vision``
reports ``kind`` = ``lieu|adversaire|epreuve|recompense|sentence`` and ``value`` = the
face key) all use them. The symbol kinds of Péripéties must carry exactly these results
(:data:`SYMBOL_RESULTS`); a table's file may change labels, icons and how many faces
show each result, never the keys.

>>> dice = default_dice()
>>> dice["d10"].parse("0"), dice["d10"].parse(7)  # the d10's "0" face is a 10
(10, 7)
>>> trial = dice["epreuve"]
>>> trial.keys(), trial.probability("combat")  # three of its six faces say combat
(('combat', 'esprit', 'magie'), Fraction(1, 2))
>>> dice["lieu"].parse("Forêt"), dice["lieu"].parse("forest"), dice["lieu"].face("foret").label("en")
('foret', 'foret', 'Forest')
>>> dice["d6"].parse(7)
Traceback (most recent call last):
  ...
companion.dice.DiceError: un d6 montre 1 à 6, pas 7 / a d6 shows 1-6, not 7
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

from .errors import CompanionError, bilingual

__all__ = [
    "DiceError",
    "Face",
    "DieKind",
    "DiceSet",
    "SYMBOL_RESULTS",
    "DEFAULT_DICE_PATH",
    "dice_from_json",
    "load_dice",
    "default_dice",
    "fold_text",
]

DEFAULT_DICE_PATH = Path(__file__).resolve().parent / "data" / "dice.json"

#: The results each symbol die must carry (keys, in display order).
SYMBOL_RESULTS: Mapping[str, tuple[str, ...]] = {
    "lieu": ("montagne", "ville", "temple", "auberge", "foret", "etang"),
    "adversaire": ("mandarin", "soldats", "bandits", "animal", "paysans", "nature"),
    "epreuve": ("combat", "esprit", "magie"),
    "recompense": ("banquet", "gourde", "taels", "frere"),
    "sentence": ("voyage", "taels", "bagne", "blessure"),
}

#: Numeric kinds every table has.
NUMERIC_KINDS: tuple[str, ...] = ("d4", "d6", "d10", "d12")


class DiceError(CompanionError):
    """A dice file is malformed, or a value is not a face of its die."""


def fold_text(value: str) -> str:
    """Lower-case, accents stripped, spaces/hyphens/apostrophes dropped. Used to accept typed values.

    >>> fold_text("Forêt"), fold_text("Gourde d'arak"), fold_text(" Étang ")
    ('foret', 'gourdedarak', 'etang')
    """
    nfkd = unicodedata.normalize("NFKD", value.strip().casefold())
    return "".join(c for c in nfkd if c.isalnum() and not unicodedata.combining(c))


@dataclass(frozen=True)
class Face:
    """One result of a die: its key and its labels (French, English), an optional icon."""

    key: str | int
    fr: str
    en: str
    icon: str = ""

    def label(self, lang: str = "fr") -> str:
        return self.en if lang == "en" else self.fr

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "fr": self.fr, "en": self.en}
        if self.icon:
            out["icon"] = self.icon
        return out


@dataclass(frozen=True)
class DieKind:
    """A kind of die: its physical faces (a result may be on several) and its labels."""

    name: str
    faces: tuple[Face, ...]
    label_fr: str
    label_en: str
    colour: str = ""
    numeric: bool = False
    zero_is: int | None = None

    @cached_property
    def sides(self) -> int:
        return len(self.faces)

    def results(self) -> tuple[Face, ...]:
        """Distinct results, in the order of their first face."""
        seen: dict[str | int, Face] = {}
        for f in self.faces:
            seen.setdefault(f.key, f)
        return tuple(seen.values())

    def keys(self) -> tuple[str | int, ...]:
        return tuple(f.key for f in self.results())

    def face(self, key: str | int) -> Face:
        for f in self.faces:
            if f.key == key:
                return f
        raise bilingual(DiceError, f"{key!r} n'est pas une face du dé {self.name}", f"{key!r} is not a face of the {self.name} die")

    def probability(self, key: str | int) -> Fraction:
        """Chance of rolling ``key`` (faces showing it / all faces)."""
        n = sum(1 for f in self.faces if f.key == key)
        return Fraction(n, len(self.faces))

    def parse(self, value: Any) -> str | int:
        """The face key for a value as typed, tapped or read; :class:`DiceError` if none.

        Numeric dice take an int (or its digits as a string; ``0`` means ``zero_is``).
        Symbol dice take the key, or the French or English label, with any case and
        accents (``"Forêt"``, ``"forest"``, ``"foret"``).
        """
        if self.numeric:
            if isinstance(value, bool):
                raise bilingual(DiceError, f"{value!r} n'est pas une face d'un {self.name}", f"{value!r} is not a face of a {self.name}")
            if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) <= 9:
                value = int(value.strip())  # ASCII digits only: int() refuses "²" and 4,300+ digits
            if not isinstance(value, int):
                raise bilingual(DiceError, f"un {self.name} montre un nombre de 1 à {self.sides}, pas {value!r}",
                                f"a {self.name} shows a number 1-{self.sides}, not {value!r}")
            if value == 0 and self.zero_is is not None:
                value = self.zero_is
            if not 1 <= value <= self.sides:
                raise bilingual(DiceError, f"un {self.name} montre 1 à {self.sides}, pas {value}",
                                f"a {self.name} shows 1-{self.sides}, not {value}")
            face: int = value
            return face
        if isinstance(value, str) and value in self._lookup:
            return self._lookup[value]
        if not isinstance(value, str):
            faces = ", ".join(map(str, self.keys()))
            raise bilingual(DiceError, f"le dé {self.name} montre un symbole ({faces}), pas {value!r}",
                            f"the {self.name} die shows a symbol ({faces}), not {value!r}")
        folded = fold_text(value)
        if folded in self._lookup:
            return self._lookup[folded]
        faces = ", ".join(map(str, self.keys()))
        raise bilingual(DiceError, f"{value!r} n'est pas une face du dé {self.name}\u202f; faces\u202f: {faces}",
                        f"{value!r} is not a face of the {self.name} die; faces: {faces}")

    @cached_property
    def _lookup(self) -> dict[str, str | int]:
        """Folded key, French and English labels -> face key (built once per kind)."""
        table: dict[str, str | int] = {}
        for f in reversed(self.faces):
            for text_ in (f.en, f.fr, str(f.key)):
                table[fold_text(text_)] = f.key
        for f in self.faces:
            table[str(f.key)] = f.key
        return table

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": {"fr": self.label_fr, "en": self.label_en},
            "colour": self.colour,
            "numeric": self.numeric,
            "sides": self.sides,
            "results": [f.to_json() for f in self.results()],
            "faces": [f.key for f in self.faces],
        }


@dataclass(frozen=True)
class DiceSet:
    """Every die kind of a table, by name."""

    kinds: Mapping[str, DieKind]

    def __getitem__(self, name: str) -> DieKind:
        try:
            return self.kinds[name]
        except KeyError:
            raise bilingual(DiceError, f"sorte de dé inconnue {name!r}\u202f; connues\u202f: {', '.join(self.kinds)}",
                            f"unknown die kind {name!r}; known: {', '.join(self.kinds)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self.kinds

    def __iter__(self) -> Iterator[str]:
        return iter(self.kinds)

    def to_json(self) -> dict[str, Any]:
        return {name: kind.to_json() for name, kind in self.kinds.items()}


def _fr(where: str) -> str:
    """Where a dice file's problem is, in French (``"dice: kind 'd6'"`` -> ``"dés : sorte 'd6'"``)."""
    fr = where.replace(": kind ", "\u202f: sorte ")
    return "dés" if fr == "dice" else fr


def _fr_detail(missing: list[str], extra: list[str]) -> str:
    """What a symbol die lacks or has too many of, in French."""
    return "\u202f; ".join(
        p for p in (f"manque {', '.join(missing)}" if missing else "", f"inconnu(s) {', '.join(extra)}" if extra else "") if p
    )


def _label(obj: Any, where: str, default: str) -> tuple[str, str]:
    if obj is None:
        return default, default
    if not isinstance(obj, Mapping) or not isinstance(obj.get("fr"), str) or not isinstance(obj.get("en"), str):
        raise bilingual(DiceError, f"{_fr(where)}\u202f: «\u202flabel\u202f» vaut {{\"fr\": ..., \"en\": ...}}",
                        f"{where}: 'label' must be {{\"fr\": ..., \"en\": ...}}")
    return obj["fr"], obj["en"]


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _numeric_kind(name: str, obj: Mapping[str, Any], where: str, fr: str, en: str, colour: str) -> DieKind:
    """A die numbered 1..``sides`` (its 0 face read as ``zero_is``, when given)."""
    sides = obj["sides"]
    if not _is_int(sides) or not 2 <= sides <= 100:
        raise bilingual(DiceError, f"{_fr(where)}\u202f: «\u202fsides\u202f» doit être un entier de 2 à 100, pas {sides!r}",
                        f"{where}: 'sides' must be an integer 2-100, not {sides!r}")
    zero_is = obj.get("zero_is")
    if zero_is is not None and (not _is_int(zero_is) or not 1 <= zero_is <= sides):
        raise bilingual(DiceError, f"{_fr(where)}\u202f: «\u202fzero_is\u202f» doit être une face de 1 à {sides}",
                        f"{where}: 'zero_is' must be a face value 1-{sides}")
    faces = tuple(Face(v, str(v), str(v)) for v in range(1, sides + 1))
    return DieKind(name, faces, fr, en, colour, numeric=True, zero_is=zero_is)


def _face(i: int, f: Any, where: str) -> Face:
    """Face number ``i`` (from 1) of a symbol die."""
    if not isinstance(f, Mapping):
        raise bilingual(DiceError, f"{_fr(where)}\u202f: la face {i} est un objet JSON",
                        f"{where}: face {i} must be a JSON object")
    key = f.get("key")
    if not isinstance(key, str) or not key or fold_text(key) != key:
        raise bilingual(DiceError, f"{_fr(where)}\u202f: la face {i} demande une «\u202fkey\u202f» en minuscules ou chiffres sans accents (reçu {key!r})",
                        f"{where}: face {i} needs a 'key' of lower-case letters/digits without accents (got {key!r})")
    for lang in ("fr", "en"):
        if not isinstance(f.get(lang), str) or not f[lang]:
            raise bilingual(DiceError, f"{_fr(where)}\u202f: la face {i} ({key}) demande un libellé «\u202f{lang}\u202f»",
                        f"{where}: face {i} ({key}) needs a '{lang}' label")
    icon = f.get("icon", "")
    if not isinstance(icon, str):
        raise bilingual(DiceError, f"{_fr(where)}\u202f: face {i} ({key})\u202f: «\u202ficon\u202f» doit être un texte",
                        f"{where}: face {i} ({key}): 'icon' must be a string")
    return Face(key, f["fr"], f["en"], icon)


def _check_results(kind: DieKind, where: str) -> None:
    """A symbol die the rules read (:data:`SYMBOL_RESULTS`) has exactly their results."""
    required = SYMBOL_RESULTS.get(kind.name)
    if required is None or set(kind.keys()) == set(required):
        return
    missing = sorted(set(required) - set(kind.keys()))
    extra = sorted(str(k) for k in set(kind.keys()) - set(required))
    detail = "; ".join(
        p for p in (f"missing {', '.join(missing)}" if missing else "", f"unknown {', '.join(extra)}" if extra else "") if p
    )
    raise bilingual(DiceError, f"{_fr(where)}\u202f: ses résultats sont exactement {', '.join(required)} ({_fr_detail(missing, extra)})",
                        f"{where}: its results must be exactly {', '.join(required)} ({detail})")


def _kind(name: str, obj: Any, where: str) -> DieKind:
    if not isinstance(obj, Mapping):
        raise bilingual(DiceError, f"{_fr(where)}\u202f: la sorte {name!r} est un objet JSON",
                        f"{where}: kind {name!r} must be a JSON object")
    where = f"{where}: kind {name!r}"
    fr, en = _label(obj.get("label"), where, name)
    colour = obj.get("colour", "")
    if not isinstance(colour, str):
        raise bilingual(DiceError, f"{_fr(where)}\u202f: «\u202fcolour\u202f» doit être un texte",
                        f"{where}: 'colour' must be a string")
    if "sides" in obj:
        return _numeric_kind(name, obj, where, fr, en, colour)
    raw_faces = obj.get("faces")
    if not isinstance(raw_faces, list) or len(raw_faces) < 2:
        raise bilingual(DiceError, f"{_fr(where)}\u202f: «\u202fsides\u202f» (un dé à nombres) ou une liste «\u202ffaces\u202f» est requis",
                        f"{where}: needs 'sides' (a numeric die) or a list of 'faces'")
    kind = DieKind(name, tuple(_face(i, f, where) for i, f in enumerate(raw_faces, 1)), fr, en, colour)
    _check_results(kind, where)
    return kind


def dice_from_json(obj: Any, where: str = "dice") -> DiceSet:
    """Validate a parsed dice file and build the :class:`DiceSet`."""
    if not isinstance(obj, Mapping):
        raise bilingual(DiceError, f"{_fr(where)}\u202f: un fichier de dés est un objet JSON avec «\u202fkinds\u202f»",
                        f"{where}: a dice file is a JSON object with 'kinds'")
    kinds = obj.get("kinds")
    if not isinstance(kinds, Mapping) or not kinds:
        raise bilingual(DiceError, f"{_fr(where)}\u202f: «\u202fkinds\u202f» est un objet non vide de sortes de dés",
                        f"{where}: 'kinds' must be a non-empty object of die kinds")
    built = {str(name): _kind(str(name), k, where) for name, k in kinds.items()}
    missing = [k for k in (*NUMERIC_KINDS, *SYMBOL_RESULTS) if k not in built]
    if missing:
        raise bilingual(DiceError, f"{_fr(where)}\u202f: sorte(s) de dé manquante(s)\u202f: {', '.join(missing)}",
                        f"{where}: missing die kind(s): {', '.join(missing)}")
    for name in NUMERIC_KINDS:
        if not built[name].numeric or built[name].sides != int(name[1:]):
            raise bilingual(DiceError, f"{_fr(where)}\u202f: la sorte {name!r} est un dé à nombres de {name[1:]} faces",
                        f"{where}: kind {name!r} must be a numeric die with {name[1:]} sides")
    return DiceSet(built)


def load_dice(path: str | Path | None = None) -> DiceSet:
    """Load and validate a dice file (default: the packaged ``data/dice.json``)."""
    p = Path(path) if path is not None else DEFAULT_DICE_PATH
    try:
        raw = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise bilingual(DiceError, f"impossible de lire le fichier de dés {p}\u202f: {exc.strerror or exc}",
                        f"cannot read dice file {p}: {exc.strerror or exc}") from None
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise bilingual(DiceError, f"{p}\u202f: JSON invalide ({exc.msg}, ligne {exc.lineno})",
                        f"{p}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    return dice_from_json(obj, str(p))


@lru_cache(maxsize=1)
def default_dice() -> DiceSet:
    """The packaged dice, loaded once."""
    return load_dice(None)
