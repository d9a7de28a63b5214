"""Shayo: roll-and-keep d10 (rules in docs/shayo.md, events in docs/events-shayo.md).

``GAME`` is the :class:`~companion.games.base.Game` registered as ``"shayo"``. The exact
odds live in :mod:`companion.games.shayo.odds` and do not need the rest of the package.
"""

from __future__ import annotations

from .game import GAME, ShayoGame

__all__ = ["GAME", "ShayoGame"]
