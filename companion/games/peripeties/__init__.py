"""Péripéties: the episode step of the bandits' board game (spec ``rules/peripeties.md``).

Registered as ``companion.games.peripeties:GAME``. Every die is rolled by the players and
entered as an event (camera read, tap, or typed); only the bandit draw pile is shuffled
by the software, with the rng the table gives. See ``docs/peripeties.md`` (how to play,
options) and ``docs/events-peripeties.md`` (every event).

The rules are loaded on first access (PEP 562), so ``companion odds peripeties`` loads
only :mod:`.cli` and the odds.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME", "EVENT_TYPES", "Peripeties"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import game

        if name == "GAME":
            globals()["GAME"] = game.Peripeties()  # one instance, made once
            return globals()["GAME"]
        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

