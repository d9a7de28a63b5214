"""The typed ``expects`` contract: what the current step of a game waits for.

Every game's ``state_json()["expects"]`` is built from frozen dataclasses, one per step
(see each game's ``expects`` module), on the small shared base below: :class:`Step` (the
``to_json`` every step class inherits) and :class:`DiceWanted` (the dice a step asks for).
The page (``web/static/games/*.js``), the camera matcher (each game's ``camera`` module)
and the demo read the JSON; :mod:`companion.games.expects_schema` exports the same classes
as a JSON schema, committed as ``web/static/expects.schema.json`` and regenerated with::

    python -m companion.games.expects_schema > web/static/expects.schema.json

JSON is built field by field, in the order the fields are declared (so the JSON keeps
the key order it always had). A field declared with :func:`optional` is left out while
it is ``None`` (a key the step sends only sometimes); every other field is always sent,
``None`` as ``null``; one declared with :func:`absent` is left out while it is
:data:`UNSET` (where ``None`` is a value to send). A field may be sent under another key than its Python name
(``if`` is a Python keyword): :func:`optional` and :func:`named` take ``key``.

Values convert this way: a nested step value calls its own ``to_json``, a tuple becomes
a list, anything else (a dict of odds, a list of choices built by the rules) is sent as
it is. Fields typed ``Any`` or ``Mapping[str, Any]`` are free-form in the schema: only
their presence is part of the contract.

>>> DiceWanted("d10", count=3).to_json()
{'kind': 'd10', 'count': 3}
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["Step", "DiceWanted", "Label", "optional", "absent", "UNSET", "Unset", "SCHEMA_ID"]

#: The ``$id`` of the exported schema.
SCHEMA_ID = "expects.schema.json"

#: A message in both languages: ``{"fr": ..., "en": ...}``.
Label = Mapping[str, str]


def optional(default: Any = None, key: str | None = None) -> Any:
    """A field left out of the JSON while it is ``None`` (declared with a default)."""
    meta: dict[str, Any] = {"omit_none": True}
    if key is not None:
        meta["key"] = key
    return field(default=default, metadata=meta)


_omit = optional  # for classes with a field named "optional"


class Unset(enum.Enum):
    """The value of an :func:`absent` field that is not sent (``None`` is a value there)."""

    UNSET = "unset"


UNSET = Unset.UNSET


def absent() -> Any:
    """A field left out of the JSON while it is :data:`UNSET` (where ``None`` is sent)."""
    return field(default=UNSET, metadata={"omit_unset": True})


def _value(v: Any) -> Any:
    if isinstance(v, Step):
        return v.to_json()
    if isinstance(v, tuple):
        return [_value(x) for x in v]
    return v


@dataclass(frozen=True)
class Step:
    """Base of every ``expects`` value: a frozen dataclass whose :meth:`to_json` is the
    JSON the page, the camera and the demo read."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if (v is None and f.metadata.get("omit_none")) or v is UNSET:
                continue
            out[f.metadata.get("key", f.name)] = _value(v)
        return out


@dataclass(frozen=True)
class DiceWanted(Step):
    """One kind of die a step waits for: ``kind`` (a die kind the reader knows: ``d10``,
    ``lieu``...), ``count`` (how many are still missing), and, where the game says it,
    ``role`` (the key the die is sent under), ``by`` (who rolls it), ``reroll`` and
    ``rule`` (a re-roll, and the rule that asks for it), ``when`` (sent as ``if``: the die
    is rolled only for those values of another die, ``{"epreuve": ["magie"]}``),
    ``optional`` and ``label`` (the die in words, for the page)."""

    kind: str
    role: str | None = optional()
    count: int = 1
    by: str | None = optional()
    reroll: bool | None = optional()
    rule: str | None = optional()
    when: Mapping[str, tuple[str, ...]] | None = optional(key="if")
    optional: bool | None = _omit()
    label: Label | None = _omit()

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if self.when is not None:
            out["if"] = {k: list(v) for k, v in self.when.items()}
        return out
