"""Wuxia: a d10 pool against SR − Compétence (``/work/shared/rules/wuxia.md``).

``GAME`` is the registered :class:`~companion.games.base.Game`; the exact odds live in
:mod:`.odds` (on :mod:`companion.odds.d10`), the command line in :mod:`.cli`.

The rules are loaded on first access (PEP 562), so ``companion odds wuxia`` loads only
:mod:`.cli` and the odds.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME", "WuxiaGame"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
