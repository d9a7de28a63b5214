"""Signatures as data (R4, A6).

A signature is a small effect on the dice of one test, chosen by the player at skill
levels 3 and 5 (R4) or granted by an object improvement (R21). The source lists examples
only ("ce genre de choses"), so every signature is a data record::

    {"id": "relance_echec", "kind": "reroll", "which": "failures", "count": 1,
     "fr": "Relancer un dé qui n'est ni un 1 ni un succès", "en": "..."}

- ``kind`` ``"reroll"`` with ``which`` ``"ones"`` / ``"failures"`` / ``"tens"``: re-roll up
  to ``count`` matching dice (``count`` ``null`` = every matching die); the new result
  stands (no chaining). Applied at step 5 of the roll sequence (R3).
  For ``"tens"`` the meaning is the option ``tens_reroll`` (A6): ``"explode"`` (default:
  the 10 is rolled again and the new die is added to it, 10 + x, which matters only when
  the difficulty is above 10, A18) or ``"extra_die"`` (each 10 adds a new die to the pool).
- ``kind`` ``"cancel_one"``: up to ``count`` 1s no longer cancel (nor occupy a keep slot).
- ``kind`` ``"plus_one"``: add 1 to up to ``count`` dice that are not 1s.

**[Decision A6]** each signature is usable once per test, on at most ``count`` dice;
order within a test: re-rolls (1s, then failures, then 10s) before ``cancel_one`` and
``plus_one``; two signatures of the same effect add their counts. The catalogue below
gives the source's five examples with ``count`` 1 ("a small effect"); a table may define
its own records with the same fields on a character sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..refusal import malformed
from .values import MAX_VALUE

__all__ = ["Signature", "CATALOGUE", "parse_signature", "KINDS", "WHICH", "merge_counts"]

KINDS = ("reroll", "cancel_one", "plus_one")
WHICH = ("ones", "failures", "tens")


@dataclass(frozen=True)
class Signature:
    """One signature effect (see the module docstring)."""

    id: str
    kind: str
    which: str | None = None
    count: int | None = 1
    fr: str = ""
    en: str = ""

    @property
    def key(self) -> tuple[str, str | None]:
        """Effects with the same key add their counts within one test."""
        return (self.kind, self.which)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "which": self.which, "count": self.count,
                "fr": self.fr, "en": self.en}


CATALOGUE: Mapping[str, Signature] = {
    s.id: s
    for s in (
        Signature("annule_1", "cancel_one", None, 1, "Annuler un 1", "Cancel a 1"),
        Signature("relance_echec", "reroll", "failures", 1,
                  "Relancer un dé qui n'est ni un 1 ni un succès",
                  "Re-roll a die that is neither a 1 nor a success"),
        Signature("plus_1", "plus_one", None, 1,
                  "Ajouter 1 au résultat d'un dé qui n'est pas un 1",
                  "Add 1 to a die that is not a 1"),
        Signature("relance_1", "reroll", "ones", 1, "Relancer un 1", "Re-roll a 1"),
        Signature("relance_10", "reroll", "tens", 1, "Relancer un 10", "Re-roll a 10"),
    )
}


def _catalogued(raw: str) -> Signature:
    """The catalogue's signature ``raw`` (R4)."""
    sig = CATALOGUE.get(raw)
    if sig is None:
        raise malformed(
            f"signature inconnue {raw!r} ; connues : {', '.join(CATALOGUE)} (ou donnez une fiche complète)",
            f"unknown signature {raw!r}; known: {', '.join(CATALOGUE)} (or give a full record)",
        )
    return sig


def _which(sid: str, kind: Any, which: Any) -> Any:
    """Which dice a re-roll targets (ones, failures, tens); nothing for other kinds."""
    if kind == "reroll":
        if which not in WHICH:
            raise malformed(
                f"signature {sid!r} : une relance demande « which » parmi {', '.join(WHICH)}",
                f"signature {sid!r}: a re-roll needs 'which' in {', '.join(WHICH)}",
            )
    elif which is not None:
        raise malformed(
            f"signature {sid!r} : « which » ne sert qu'aux relances",
            f"signature {sid!r}: 'which' is only for re-rolls",
        )
    return which


def _count(sid: str, count: Any) -> Any:
    """How many dice the signature acts on: 1 to MAX_VALUE, or null for every die."""
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_VALUE):
        raise malformed(
            f"signature {sid!r} : « count » doit être un entier de 1 à {MAX_VALUE} ou null (tous les dés), pas {count!r}",
            f"signature {sid!r}: 'count' must be a whole number from 1 to {MAX_VALUE} or null (every die), not {count!r}",
        )
    return count


def parse_signature(raw: Any) -> Signature:
    """A signature from its catalogue id (a string) or a full record (an object)."""
    if isinstance(raw, str):
        return _catalogued(raw)
    if not isinstance(raw, Mapping):
        raise malformed(
            "une signature est un identifiant du catalogue ou un objet {id, kind, which, count}",
            "a signature is a catalogue id or an object {id, kind, which, count}",
        )
    sid = raw.get("id")
    if not isinstance(sid, str) or not sid:
        raise malformed(
            "une fiche de signature a besoin d'un « id » (un texte)",
            "a signature record needs an 'id' (a string)",
        )
    base = CATALOGUE.get(sid)
    kind = raw.get("kind", base.kind if base else None)
    if kind not in KINDS:
        raise malformed(
            f"signature {sid!r} : « kind » doit être l'un de {', '.join(KINDS)}",
            f"signature {sid!r}: 'kind' must be one of {', '.join(KINDS)}",
        )
    which = _which(sid, kind, raw.get("which", base.which if base else None))
    count = _count(sid, raw.get("count", base.count if base else 1))
    fr = raw.get("fr", base.fr if base else sid)
    en = raw.get("en", base.en if base else sid)
    if not isinstance(fr, str) or not isinstance(en, str):
        raise malformed(
            f"signature {sid!r} : « fr » et « en » doivent être des textes",
            f"signature {sid!r}: 'fr' and 'en' must be strings",
        )
    return Signature(sid, kind, which, count, fr, en)


def merge_counts(sigs: Iterable[Signature]) -> dict[tuple[str, str | None], int | None]:
    """Total count per effect key (``None`` = unlimited wins)."""
    out: dict[tuple[str, str | None], int | None] = {}
    for s in sigs:
        if s.key in out:
            prev = out[s.key]
            out[s.key] = None if (prev is None or s.count is None) else prev + s.count
        else:
            out[s.key] = s.count
    return out
