"""A fast ``dataclasses.replace`` for the frozen state values.

The table keeps one state per event and a 10,000-event replay must take well under a
second; ``dataclasses.replace`` re-runs ``__init__`` and costs about ten times more than
copying the instance dictionary. The state classes have no ``__post_init__`` checks, so
copying is equivalent.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["evolve", "MAX_DIFFICULTY", "MAX_VALUE"]

T = TypeVar("T")

#: The highest difficulty (SD) an event may give: a d10 reaches 20 and more only by
#: re-rolled 10s. No rule gives a maximum; this keeps a typo such as 10**9 out.
MAX_DIFFICULTY = 50
#: The largest count an event may give (dice, Ki, boxes, damage, encumbrance): no rule
#: gives one, no tray holds more dice (``odds.MAX_DICE``).
MAX_VALUE = 100


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (like ``dataclasses.replace``)."""
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    for key, value in changes.items():
        if key not in d:
            raise TypeError(f"{type(obj).__name__} has no field {key!r}")
        d[key] = value
    return new
