"""Helpers shared by the steps that follow the trial roll: record a result in the
episode, change the sub-step, end the episode."""

from __future__ import annotations

from typing import Any

from .common import Out
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
    ch = state.current
    assert ch is not None
    return ch


def set_sub(state: State, sub: str) -> State:
    ep = state.episode
    assert ep is not None
    return evolve(state, episode=evolve(ep, sub=sub))


def finish(state: State, out: Out) -> State:
    """The current episode is over (R11's consequences are applied)."""
    return finish_episode(state, out)
