"""The typed ``expects`` contract: what the current step of a game waits for.

Every game's ``state_json()["expects"]`` is built from frozen dataclasses, one per step
(see each game's ``expects`` module), on the small shared base below: :class:`Step` (the
``to_json`` every step class inherits) and :class:`DiceWanted` (the dice a step asks for).
The page (``web/static/games/*.js``), the camera matcher (each game's ``camera`` module)
and the demo read the JSON; :func:`schema` exports the same classes as a JSON schema,
committed as ``web/static/expects.schema.json`` and regenerated with::

    python -m companion.games.expects > web/static/expects.schema.json

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
>>> sorted(schema()["$defs"]["DiceWanted"]["required"])
['count', 'kind']
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Union

from ..errors import EventError
from . import GAMES, find_game

__all__ = ["Step", "DiceWanted", "Label", "optional", "absent", "UNSET", "Unset", "schema", "schema_errors",
           "step_classes", "def_name", "SCHEMA_ID"]

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


# -- the step classes of every game (for the schema) ------------------------------------
def step_classes(game: str | None = None) -> dict[str, tuple[type[Step], ...]]:
    """The step classes of each registered game (its ``expects_steps``): a game's
    ``expects`` is always one of them."""
    out: dict[str, tuple[type[Step], ...]] = {}
    for name in GAMES:
        if game is not None and name != game:
            continue
        try:
            found = find_game(name)
        except (EventError, ImportError):  # a plug-in game that is not installed
            continue
        out[name] = tuple(getattr(found, "expects_steps", ()))
    return out


# -- JSON schema ------------------------------------------------------------------------
def _type_schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return {}
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if isinstance(tp, type) and issubclass(tp, Step):
        _class_schema(tp, defs)
        return {"$ref": f"#/$defs/{def_name(tp)}"}
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_type_schema(a, defs) for a in args if a is not Unset]}
    if origin is tuple:
        return {"type": "array", "items": _type_schema(args[0], defs) if args else {}}
    if origin in (list, typing.get_origin(typing.Sequence[int])):
        return {"type": "array", "items": _type_schema(args[0], defs) if args else {}}
    if origin in (dict, typing.get_origin(Mapping[str, int])):
        return {"type": "object", "additionalProperties": _type_schema(args[1], defs) if args else {}}
    raise TypeError(f"no JSON schema for {tp!r}")


def def_name(cls: type[Step]) -> str:
    """The class's name in the schema's ``$defs``: ``wuxia.Roll`` for a game's step
    class (its package, then its name), the bare name for the shared ones.

    >>> def_name(DiceWanted)
    'DiceWanted'
    """
    if cls.__module__ == __name__:
        return cls.__name__
    return cls.__module__.split(".")[-2] + "." + cls.__name__


def _class_schema(cls: type[Step], defs: dict[str, Any]) -> None:
    name = def_name(cls)
    if name in defs:
        return
    defs[name] = {}  # placeholder against recursion
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    props: dict[str, Any] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):
        key = f.metadata.get("key", f.name)
        props[key] = _type_schema(hints[f.name], defs)
        if not (f.metadata.get("omit_none") or f.metadata.get("omit_unset")):
            required.append(key)
    out: dict[str, Any] = {"type": "object", "properties": props, "required": required,
                           "additionalProperties": False}
    if cls.__doc__:
        out["description"] = " ".join(cls.__doc__.split())
    defs[name] = out


def schema() -> dict[str, Any]:
    """The JSON schema of every game's ``expects``: ``$defs`` holds each step class,
    ``games`` names the classes of each game, and the whole is any one of them."""
    defs: dict[str, Any] = {}
    games: dict[str, list[str]] = {}
    _class_schema(DiceWanted, defs)
    for game, classes in sorted(step_classes().items()):
        if not classes:  # a game without a typed contract (a test game)
            continue
        for cls in classes:
            _class_schema(cls, defs)
        games[game] = [def_name(c) for c in classes]
    refs = [{"$ref": f"#/$defs/{n}"} for g in sorted(games) for n in games[g]]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "state_json()['expects'] of every game",
            "description": "Generated by `python -m companion.games.expects`; do not edit.",
            "games": games, "anyOf": refs, "$defs": dict(sorted(defs.items()))}


# -- a small validator for the schema above ---------------------------------------------
_JSON_TYPES: dict[str, tuple[type, ...]] = {"null": (type(None),), "boolean": (bool,), "string": (str,),
                                            "object": (dict,), "array": (list,)}


def _type_ok(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _JSON_TYPES[name])


def _any_of(value: Any, sch: Mapping[str, Any], root: Mapping[str, Any], path: str) -> list[str]:
    tries = [_errors(value, s, root, path) for s in sch["anyOf"]]
    if any(not t for t in tries):
        return []
    closest: list[str] = min(tries, key=len)
    return [f"{path}: matches none of {len(tries)} shapes; closest: " + "; ".join(closest)]


def _object_errors(value: dict[str, Any], sch: Mapping[str, Any], root: Mapping[str, Any], path: str) -> list[str]:
    props = sch.get("properties", {})
    extra = sch.get("additionalProperties")
    out = [f"{path}: missing {k!r}" for k in sch.get("required", []) if k not in value]
    for k, v in value.items():
        if k in props:
            out += _errors(v, props[k], root, f"{path}.{k}")
        elif extra is False:
            out.append(f"{path}: undeclared key {k!r}")
        elif isinstance(extra, dict):
            out += _errors(v, extra, root, f"{path}.{k}")
    return out


def _errors(value: Any, sch: Mapping[str, Any], root: Mapping[str, Any], path: str) -> list[str]:
    if "$ref" in sch:
        return _errors(value, root["$defs"][sch["$ref"].rsplit("/", 1)[1]], root, path)
    if "anyOf" in sch:
        return _any_of(value, sch, root, path)
    if "const" in sch and value != sch["const"]:
        return [f"{path}: {value!r} is not {sch['const']!r}"]
    if "enum" in sch and value not in sch["enum"]:
        return [f"{path}: {value!r} is not one of {sch['enum']!r}"]
    if "type" in sch and not _type_ok(value, sch["type"]):
        return [f"{path}: {type(value).__name__} is not {sch['type']}"]
    if isinstance(value, list) and "items" in sch:
        return [e for i, v in enumerate(value) for e in _errors(v, sch["items"], root, f"{path}[{i}]")]
    if isinstance(value, dict) and sch.get("type") == "object":
        return _object_errors(value, sch, root, path)
    return []


def schema_errors(value: Any, game: str | None = None, sch: Mapping[str, Any] | None = None) -> list[str]:
    """Why ``value`` (an ``expects`` JSON) does not fit the schema ([] when it does);
    with ``game``, only that game's step classes are tried.

    >>> schema_errors({"kind": "d10"}, sch={"$defs": {}, "type": "object", "required": ["count"]})
    ["expects: missing 'count'"]
    """
    root = sch if sch is not None else schema()
    top: Mapping[str, Any] = root
    if game is not None and "games" in root:
        top = {"anyOf": [{"$ref": f"#/$defs/{n}"} for n in root["games"].get(game, [])]}
    return _errors(value, top, root, "expects")


def main() -> None:
    """Print the schema (``python -m companion.games.expects > web/static/expects.schema.json``)."""
    sys.stdout.write(json.dumps(schema(), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    # run as a script, this file is "__main__": the step classes subclass the package's Step
    import companion.games.expects as _package

    _package.main()
