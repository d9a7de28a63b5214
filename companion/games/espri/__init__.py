"""ESPRI: gems drawn from the bag, the board of four paths, the Nymphs and the Appel.

Rules spec: ``rules/espri.md`` (rule ids R1-R39, decisions E1-E28). Modules:
:mod:`.state` (values), :mod:`.options` (the named options, each default once),
:mod:`.board` (placing/removing gems, Nymph moves), :mod:`.rules` (N, draw table, legal
selections), :mod:`.odds` (exact odds), :mod:`.setup`,
:mod:`.appel`, :mod:`.resolve`, :mod:`.people` (event handlers), :mod:`.view`
(JSON/text), :mod:`.cli` (``companion odds espri``). Pure standard library.

``GAME`` is loaded on first use, so ``companion`` sub-commands that only register
``companion odds espri`` do not pay for the rules.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME", "OPTIONS", "EspriGame"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
