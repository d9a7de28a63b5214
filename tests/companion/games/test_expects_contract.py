"""The typed ``expects`` contract: the committed JSON schema is the one the step classes
export, every ``expects`` over every example and demo log fits it, and the page reads
only fields it declares."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from companion.games import find_game
from companion.games.expects import DiceWanted
from companion.games.expects_schema import schema, schema_errors
from companion.log import read_jsonl
from companion.table import Table

ROOT = Path(__file__).resolve().parents[3]
SCHEMA_FILE = ROOT / "web" / "static" / "expects.schema.json"
LOGS = sorted([*(ROOT / "examples").glob("*.jsonl"), *(ROOT / "companion" / "data" / "demo").glob("*.jsonl")])
GAMES = ("peripeties", "wuxia", "shayo", "espri")


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    return schema()


def test_the_committed_schema_is_the_one_the_step_classes_export() -> None:
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert committed == _schema(), "regenerate it: python -m companion.games.expects_schema > web/static/expects.schema.json"
    assert sorted(committed["games"]) == sorted(GAMES)


def _expects_of(path: Path) -> list[tuple[str, dict[str, Any]]]:
    table = Table()
    out = []
    for ev in read_jsonl(path.open(encoding="utf-8")):
        table.apply(ev)
        top, game = table.top, table.game
        assert top is not None and game is not None and top.game is not None
        out.append((top.game, json.loads(json.dumps(game.state_json(top.state)["expects"]))))
    return out


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_expects_of_every_log_fits_the_schema(path: Path) -> None:
    seen = _expects_of(path)
    assert seen
    for i, (game, exp) in enumerate(seen):
        assert schema_errors(exp, game, _schema()) == [], f"event {i}: {exp}"


def test_the_logs_reach_every_game_and_many_steps() -> None:
    steps = {(g, e["step"]) for p in LOGS for g, e in _expects_of(p)}
    assert {g for g, _ in steps} == set(GAMES)
    assert len(steps) >= 25


def test_the_schema_refuses_what_a_step_does_not_declare() -> None:
    good = {"step": "roll", "who": "Lin", "test": 0, "dice": [{"kind": "d10", "count": 3}]}
    assert schema_errors(good, "wuxia", _schema()) == []
    assert schema_errors({**good, "surprise": 1}, "wuxia", _schema())  # undeclared key
    assert schema_errors({**good, "test": "0"}, "wuxia", _schema())  # wrong type
    assert schema_errors({k: v for k, v in good.items() if k != "dice"}, "wuxia", _schema())  # missing key
    assert schema_errors({**good, "step": "fly"}, "wuxia", _schema())  # no such step
    assert schema_errors(good, "espri", _schema())  # another game's step


def test_to_json_leaves_out_unset_optional_fields_in_declared_order() -> None:
    d = DiceWanted("d10", "difficulty", 2, "Bruno", when={"epreuve": ("combat", "esprit")})
    assert list(d.to_json()) == ["kind", "role", "count", "by", "if"]
    assert d.to_json()["if"] == {"epreuve": ["combat", "esprit"]}


def test_every_game_declares_its_steps_and_its_camera_through_the_game_object() -> None:
    for name in GAMES:
        game = find_game(name)
        assert game.expects_steps and game.camera is not None
        assert game.camera.event.startswith(name + ".")


# -- the page reads only declared fields ---------------------------------------------------
_BIND = re.compile(r"\b(?:var|const|let)\s+(\w+)\s*=\s*\(?\s*(?:\w+\.)*expects\b(?!\s*(?:\|\|\s*\{\}\s*\)\s*)?\.)")
_DIRECT = re.compile(r"\b(?:st|state)\.expects((?:\.\w+)+)|\((?:st|state)\.expects \|\| \{\}\)((?:\.\w+)+)")
#: A named function's parameter with one of these names is an ``expects`` too (the pages
#: pass it on: ``chooseView(state, ctx, ex, send)``).
_PARAM_NAMES = ("ex", "exp")
_PARAM = re.compile(r"\bfunction\s+\w+\s*\(([^)]*)\)\s*\{")
_JS_METHODS = {"map", "length", "filter", "join", "forEach", "some", "every", "indexOf", "includes", "slice",
               "find", "concat", "reduce", "toString", "sort"}


def _scope(text: str, start: int, name: str) -> str:
    """The text of the block the binding at ``start`` lives in, from the binding on, with
    the bodies of nested functions that take a parameter called ``name`` blanked out."""
    depth, i, out = 0, start, []
    shadow = re.compile(r"function\s*\w*\s*\(([^)]*)\)\s*\{|\(([^)]*)\)\s*=>\s*\{|\b(\w+)\s*=>\s*\{")
    while i < len(text):
        m = shadow.match(text, i)
        if m and name in re.split(r"[\s,]+", next(g for g in m.groups() if g is not None)):
            j, d = m.end(), 1
            while j < len(text) and d:
                d += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            i = j
            continue
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                break
        out.append(c)
        i += 1
    return "".join(out)


def page_reads(text: str) -> set[tuple[str, ...]]:
    """Every chain of fields the script reads from an ``expects`` (``("dice",)``,
    ``("signature", "id")``)."""
    chains: set[tuple[str, ...]] = set()
    for m in _DIRECT.finditer(text):
        chains.add(tuple((m.group(1) or m.group(2)).strip(".").split(".")))
    scopes = [(b.group(1), _scope(text, b.end(), b.group(1))) for b in _BIND.finditer(text)]
    for f in _PARAM.finditer(text):
        params = re.split(r"[\s,]+", f.group(1))
        scopes += [(n, _scope(text, f.end(), n)) for n in _PARAM_NAMES if n in params]
    for name, scope in scopes:
        for m in re.finditer(rf"(?<![\w.]){re.escape(name)}((?:\.\w+)+)", scope):
            chains.add(tuple(m.group(1).strip(".").split(".")))
    return {tuple(x for x in c if x not in _JS_METHODS) for c in chains} - {()}


def _props(sch: dict[str, Any], node: dict[str, Any]) -> list[dict[str, Any]]:
    """The object shapes ``node`` may take (following $ref, anyOf and array items)."""
    if "$ref" in node:
        return _props(sch, sch["$defs"][node["$ref"].rsplit("/", 1)[1]])
    if "anyOf" in node:
        return [p for n in node["anyOf"] for p in _props(sch, n)]
    if node.get("type") == "array":
        return _props(sch, node.get("items", {}))
    return [node] if "properties" in node else []


def undeclared(game_classes: list[str], chains: set[tuple[str, ...]]) -> list[str]:
    sch = _schema()
    out = []
    for chain in sorted(chains):
        shapes = [sch["$defs"][n] for n in game_classes]
        for depth, key in enumerate(chain):
            if not shapes:
                break  # a free-form value (odds, have...): its inside is not part of the contract
            if not any(key in s["properties"] for s in shapes):
                out.append(".".join(chain[:depth + 1]))
                break
            shapes = [p for s in shapes if key in s["properties"] for p in _props(sch, s["properties"][key])]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_game_page_reads_only_fields_the_schema_declares(game: str) -> None:
    chains = page_reads((ROOT / "web" / "static" / "games" / f"{game}.js").read_text(encoding="utf-8"))
    assert len(chains) >= 5  # the scan finds the page's reads
    assert undeclared(_schema()["games"][game], chains) == []


def test_the_core_pages_read_only_fields_every_game_declares() -> None:
    every = [n for names in _schema()["games"].values() for n in names]
    for name in ("app.js", "setup.js"):
        chains = page_reads((ROOT / "web" / "static" / name).read_text(encoding="utf-8"))
        assert undeclared(every, chains) == []


def test_the_scan_catches_a_field_no_step_declares() -> None:
    js = "function f(st) {\n  var e = st.expects || {};\n  var have = (st.expects || {}).have || {};\n  have.x;\n  return e.step + e.nowhere.x + (st.expects || {}).have;\n}\n" \
         "function g(e) { return e.count; }\nfunction k(state, ex) { return ex.gone; }\n"
    chains = page_reads(js)
    assert chains == {("step",), ("nowhere", "x"), ("have",), ("gone",)}
    assert undeclared(_schema()["games"]["peripeties"], chains) == ["gone", "nowhere"]
    assert undeclared(_schema()["games"]["shayo"], {("signature", "id"), ("signature", "colour")}) == ["signature.colour"]
