"""Helpers shared by the steps that follow the trial roll: record a result in the
episode, change the sub-step, end the episode."""

from __future__ import annotations

from typing import Any

from .common import Out, need_episode
from .flow import finish_episode
from .state import Character, State, evolve

__all__ = ["note", "current", "set_sub", "finish"]


def note(state: State, out: Out, kind: str, fr: str, en: str, **data: Any) -> State:
    """An outcome of this event that is also kept in the episode's record (the game
    writes this event's notes into the episode once, at the end of the event)."""
    out.add(kind, fr, en, **data)
    out.notes.append((kind, fr, en))
    return state


def current(state: State) -> Character:
    """The character of the episode in progress (:class:`RuleError` R2 if none)."""
    return need_episode(state)[1]


def set_sub(state: State, sub: str) -> State:
    """The episode in progress moved to the sub-step ``sub``."""
    ep, _ = need_episode(state)
    return evolve(state, episode=evolve(ep, sub=sub))


def finish(state: State, out: Out) -> State:
    """The current episode is over (R11's consequences are applied)."""
    return finish_episode(state, out)
