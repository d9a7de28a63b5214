"""ESPRI: gems drawn from the bag, the board of four paths, the Nymphs and the Appel.

Rules spec: ``rules/espri.md`` (rule ids R1-R39, decisions E1-E28). Modules:
:mod:`.model` (values), :mod:`.board` (placing/removing gems, Nymph moves), :mod:`.rules`
(N, draw table, legal selections), :mod:`.odds` (exact odds), :mod:`.setup`,
:mod:`.appel`, :mod:`.people` (event handlers), :mod:`.view` (JSON/text),
:mod:`.cli` (``companion odds espri``). Pure standard library.
"""

from .game import GAME, OPTIONS, EspriGame

__all__ = ["GAME", "OPTIONS", "EspriGame"]
