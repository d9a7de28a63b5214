"""The typed ``expects`` of every registered game as one JSON schema, and a small validator.

The step classes are each game's ``expects_steps`` (dataclasses on
:class:`companion.games.expects.Step`); the schema is committed as
``web/static/expects.schema.json`` and regenerated with::

    python -m companion.games.expects_schema > web/static/expects.schema.json

It lives apart from :mod:`companion.games.expects` because it walks the game registry,
which imports the games, whose step classes import the base: the base imports no game.

>>> sorted(schema()["$defs"]["DiceWanted"]["required"])
['count', 'kind']
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from typing import Any, Literal, Mapping, Union

from ..errors import EventError
from . import GAMES, find_game
from .expects import SCHEMA_ID, UNSET, DiceWanted, Step, Unset

__all__ = ["schema", "schema_errors", "step_classes", "def_name", "SCHEMA_ID"]


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
    if cls.__module__ == Step.__module__:
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
            "description": "Generated by `python -m companion.games.expects_schema`; do not edit.",
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
    """Print the schema (``python -m companion.games.expects_schema > web/static/expects.schema.json``)."""
    sys.stdout.write(json.dumps(schema(), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
