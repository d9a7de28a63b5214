"""Refusals in both languages of the tablet, for the games' rules.

A refusal is a :class:`~companion.errors.RuleError` (the rules forbid the event now, and
name the rule) or an :class:`~companion.errors.EventError` (the event is malformed), of
exactly those classes (callers may rebuild one with ``type(error)(message)``). Its message
is ``"fr / en"`` (French first, for a caller that shows ``str(error)``), and
``error.text`` holds ``{"fr", "en"}`` apart for a page that shows one language
(``web/api.py`` sends both; the tablet shows its own).

>>> err = refuse("R7", "la SR doit être entre 8 et 13, pas 40", "SR must be 8..13, not 40")
>>> type(err).__name__, err.rule, texts(err)["fr"]
('RuleError', 'R7', 'la SR doit être entre 8 et 13, pas 40')
>>> str(malformed("« sr » doit être un entier", "'sr' must be an integer"))
"« sr » doit être un entier / 'sr' must be an integer"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import CompanionError, EventError, RuleError, bilingual, texts

__all__ = ["refuse", "malformed", "texts", "broken", "french_name", "rewrap"]


def refuse(rule: str | None, fr: str, en: str) -> RuleError:
    """The rules forbid this now (``rule`` names the rule): raise what this returns."""
    return bilingual(RuleError, fr, en, rule=rule)


def malformed(fr: str, en: str) -> EventError:
    """The event is malformed (a missing or ill-typed field): raise what this returns."""
    return bilingual(EventError, fr, en)


def broken(what: str) -> RuleError:
    """An invariant of the rules does not hold (a bug, not a move): raise what this returns.

    The event is refused like any other, so the table keeps its state and its log.
    """
    return refuse("internal", f"état incohérent (erreur du programme)\u202f: {what}",
                  f"inconsistent state (a bug): {what}")


def french_name(what: str, names: Sequence[tuple[str, str]]) -> str:
    """The French name of a field an English message names: the first ``(pattern,
    replacement)`` of ``names`` (regular expressions, whole name) that matches, else
    ``what`` itself (a field's JSON key reads the same in both languages).

    >>> french_name("weapon 'katana' dice", [(r"weapon (.+) dice", r"dés de l'arme \\1")])
    "dés de l'arme 'katana'"
    """
    for pattern, replacement in names:
        m = re.fullmatch(pattern, what)
        if m:
            return m.expand(replacement)
    return what


def rewrap(err: CompanionError) -> EventError:
    """An :class:`EventError` saying what ``err`` says, in both its languages (for a
    lower-level error, such as a :class:`~companion.dice.DiceError`, refused as malformed)."""
    said = texts(err)
    if said["fr"] == said["en"]:  # an error that carries one text: kept as it is
        return err if type(err) is EventError else EventError(str(err))
    return malformed(said["fr"], said["en"])
