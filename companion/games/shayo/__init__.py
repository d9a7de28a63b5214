"""Shayo: roll-and-keep d10 (rules in docs/shayo.md, events in docs/events-shayo.md).

``GAME`` is the :class:`~companion.games.base.Game` registered as ``"shayo"``. It is
loaded on first access (PEP 562), so ``companion odds shayo`` loads only
:mod:`.cli`, :mod:`.odds` and :mod:`.signatures`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME", "ShayoGame"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
