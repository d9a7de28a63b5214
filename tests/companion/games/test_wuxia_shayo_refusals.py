"""Every refusal the Wuxia and Shayo rules can raise is written in French and English.

The rules build their errors with :func:`companion.games.refusal.refuse` /
:func:`~companion.games.refusal.malformed` only; this reads the packages' source and checks
that no bare ``RuleError(...)`` / ``EventError(...)`` is left, and that every refusal gives
a French text that is not its English one. The fuzz tests and the ``refused`` helpers check
the same on the errors actually raised.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted([*(ROOT / "companion/games/wuxia").glob("*.py"), *(ROOT / "companion/games/shayo").glob("*.py")])


def _calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_refusal_is_english_only(path: Path) -> None:
    bare = [n.lineno for n in _calls(path) if n.func.id in ("RuleError", "EventError")]  # type: ignore[attr-defined]
    assert not bare, f"{path.name}: build refusals with refuse()/malformed() (lines {bare})"


def test_every_refusal_gives_french_that_is_not_the_english() -> None:
    count = 0
    for path in FILES:
        src = path.read_text(encoding="utf-8")
        for n in _calls(path):
            name = n.func.id  # type: ignore[attr-defined]
            if name not in ("refuse", "malformed"):
                continue
            fr, en = (n.args[1], n.args[2]) if name == "refuse" else (n.args[0], n.args[1])
            fr_src, en_src = ast.get_source_segment(src, fr), ast.get_source_segment(src, en)
            assert fr_src and en_src and fr_src != en_src, f"{path.name}:{n.lineno}"
            if isinstance(fr, ast.Constant):
                assert fr.value.strip(), f"{path.name}:{n.lineno}: empty French"
            for bad in (" :", " ;", " ?", " !", "« ", " »"):  # French typography: narrow no-break spaces
                assert bad not in fr_src, f"{path.name}:{n.lineno}: {bad!r} wants U+202F"
            count += 1
    assert count >= 270
