"""Small helpers shared by the rule modules: outcomes, character updates, arguments."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...errors import RuleError
from .. import refusal
from ..refusal import malformed
from ..base import Outcome
from .state import Character, Episode, State, evolve

__all__ = ["Out", "put", "need_character", "need_episode", "int_field", "name_of", "refuse", "RECENT"]

#: How many recent outcomes the state keeps for describe() and the tablet.
RECENT = 8


class Out(list):  # type: ignore[type-arg]
    """The outcomes of one event, in order; ``notes`` are those that also go into the
    record of the episode being resolved."""

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[tuple[str, str, str]] = []

    def add(self, kind: str, fr: str, en: str, **data: Any) -> None:
        self.append(Outcome(kind, {"fr": fr, "en": en}, data))


def refuse(rule: str, fr: str, en: str) -> RuleError:
    """A refusal in both languages, naming its rule.

    The message is ``"fr / en"`` (French first, for a core that shows ``str(error)``);
    ``error.text`` holds ``{"fr", "en"}`` apart for a page that shows one language.
    """
    return refusal.refuse(rule, fr, en)


def name_of(ch: Character) -> str:
    return ch.card.name


def put(state: State, ch: Character) -> State:
    """The state with ``ch`` replacing the character of the same id."""
    chars = tuple(ch if c.id == ch.id else c for c in state.characters)
    return evolve(state, characters=chars)


def need_character(state: State, data: Mapping[str, Any], key: str = "character") -> Character:
    cid = data.get(key)
    if not isinstance(cid, str) or not cid:
        raise malformed(f"«\u202f{key}\u202f» doit être l'identifiant d'un personnage", f"'{key}' must be the id of a character")
    ch = state.character(cid)
    if ch is None:
        for d in state.dead:
            if d.id == cid:
                raise refuse("R23", f"{d.card.name} est mort et ne joue plus", f"{d.card.name} is dead and takes no further part")
        known = ", ".join(c.id for c in state.characters)
        fr_known = known or "aucun"
        raise malformed(f"pas de personnage {cid!r} à la table (personnages\u202f: {fr_known})",
                        f"no character {cid!r} at the table (characters: {known or 'none'})")
    return ch


def need_episode(state: State) -> tuple[Episode, Character]:
    """The episode in progress and its character; a :class:`RuleError` (R2) when there is
    none (the step handlers are only reached with one: this guards that invariant)."""
    ep = state.episode
    ch = state.current
    if ep is None or ch is None:
        raise refuse("R2", "aucune péripétie en cours", "no episode in progress")
    return ep, ch


_INT_TEXT = re.compile(r"-?[0-9]{1,9}")


def int_field(data: Mapping[str, Any], key: str, lo: int, hi: int, default: int | None = None) -> int:
    """``data[key]`` as an integer in ``lo..hi`` (a string of digits is accepted);
    :class:`EventError` names the value otherwise.

    >>> int_field({"taels": " 12 "}, "taels", 0, 10_000)
    12
    >>> int_field({"taels": -3}, "taels", 0, 10_000)
    Traceback (most recent call last):
    ...
    companion.errors.EventError: « taels » doit être un entier de 0 à 10000, pas -3 / 'taels' must be an integer 0-10000, not -3
    >>> int_field({"turns": "²"}, "turns", 0, 4)
    Traceback (most recent call last):
    ...
    companion.errors.EventError: « turns » doit être un entier de 0 à 4, pas '²' / 'turns' must be an integer 0-4, not '²'
    """
    v = data.get(key, default)
    if isinstance(v, str) and _INT_TEXT.fullmatch(v.strip()):
        v = int(v.strip())
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise malformed(f"«\u202f{key}\u202f» doit être un entier de {lo} à {hi}, pas {v!r}", f"'{key}' must be an integer {lo}-{hi}, not {v!r}")
    return v


def with_recent(before: State, state: State, out: Out) -> State:
    """The state after an event: its outcomes added to ``recent``, and its notes written
    into the record of the episode that was being resolved (still current, or just over)."""
    if not out:
        return state
    changes: dict[str, Any] = {"recent": (state.recent + tuple(out))[-RECENT:]}
    start = before.episode
    if out.notes and start is not None:
        key = (start.character, start.turn)
        notes = tuple(out.notes)
        ep, last = state.episode, state.last
        if ep is not None and (ep.character, ep.turn) == key:
            changes["episode"] = evolve(ep, notes=ep.notes + notes)
        elif last is not None and (last.character, last.turn) == key:
            changes["last"] = evolve(last, notes=last.notes + notes)
    return evolve(state, **changes)

