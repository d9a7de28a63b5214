"""Wuxia: a d10 pool against SR − Compétence (``/work/shared/rules/wuxia.md``).

``GAME`` is the registered :class:`~companion.games.base.Game`; the exact odds live in
:mod:`.odds` (on :mod:`companion.odds.d10`), the command line in :mod:`.cli`.
"""

from __future__ import annotations

from .game import GAME, WuxiaGame

__all__ = ["GAME", "WuxiaGame"]
