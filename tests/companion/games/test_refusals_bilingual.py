"""Every refusal a game, the options, the table or the events can raise is in French and English.

Two checks:

- a source scan of the four game packages, the shared options, the game registry, the
  table, the events and the dice: no bare ``RuleError(...)`` / ``EventError(...)`` /
  ``CompanionError(...)`` / ``DiceError(...)`` is left (errors are built by
  :func:`companion.errors.bilingual` or a wrapper of it: ``refuse``, ``malformed``...), and
  every such call gives a French text that is not its English one, in French typography;
- real refusals, one per game, one of the options, of the table and of the events: each
  carries ``text = {"fr", "en"}``, the two differ, and its message is ``"fr / en"``.

Only :mod:`companion.errors` (where :func:`~companion.errors.bilingual` itself is) and
:mod:`companion.games.refusal` (its wrappers) build an error class directly.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.errors import CompanionError, EventError, RuleError
from companion.events import Event, event_from_json_line, parse_event
from companion.games import find_game
from companion.games.refusal import texts
from companion.table import Table

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("peripeties", "wuxia", "shayo", "espri")
FILES = sorted(
    [p for g in PACKAGES for p in (ROOT / "companion/games" / g).glob("*.py")]
    + [ROOT / "companion/games/options.py", ROOT / "companion/games/__init__.py", ROOT / "companion/table.py",
       ROOT / "companion/events.py", ROOT / "companion/dice.py"]
)
#: Error classes that must not be built bare (their message would be one language).
BARE = {"RuleError", "EventError", "CompanionError", "DiceError"}
#: The builders in both languages: their last two positional arguments are (French, English).
BUILDERS = {"bilingual", "refuse", "malformed", "bad_value", "_refusal", "_bilingual"}
#: What French typography forbids in a French text: an ordinary space before : ; ? ! or
#: inside « » (a narrow no-break space U+202F goes there).
BAD_TYPOGRAPHY = (" :", " ;", " ?", " !", "« ", " »")


def _ids(p: Path) -> str:
    return str(p.relative_to(ROOT))


def _calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]


def _name(call: ast.Call) -> str:
    return call.func.id  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("path", FILES, ids=_ids)
def test_no_error_is_built_in_one_language(path: Path) -> None:
    bare = [n.lineno for n in _calls(path) if _name(n) in BARE]
    assert not bare, f"{_ids(path)}: build refusals with refuse()/malformed()/bilingual() (lines {bare})"


@pytest.mark.parametrize("path", FILES, ids=_ids)
def test_every_refusal_gives_french_that_is_not_the_english(path: Path) -> None:
    src = path.read_text(encoding="utf-8")
    for n in _calls(path):
        if _name(n) not in BUILDERS or len(n.args) < 2 or any(isinstance(a, ast.Starred) for a in n.args):
            continue
        fr, en = n.args[-2], n.args[-1]
        fr_src, en_src = ast.get_source_segment(src, fr), ast.get_source_segment(src, en)
        where = f"{_ids(path)}:{n.lineno}"
        assert fr_src and en_src and fr_src != en_src, f"{where}: the French is the English"
        if isinstance(fr, ast.Constant):
            assert isinstance(fr.value, str) and fr.value.strip(), f"{where}: empty French"
        for bad in BAD_TYPOGRAPHY:
            assert bad not in fr_src, f"{where}: {bad!r} wants U+202F"


def test_the_scan_sees_the_refusals() -> None:
    """The scan above is not vacuous: it finds the builders where the refusals are."""
    per_file = {_ids(p): sum(1 for n in _calls(p) if _name(n) in BUILDERS) for p in FILES}
    per_package = {g: sum(v for k, v in per_file.items() if f"/games/{g}/" in k) for g in PACKAGES}
    assert all(n >= 40 for n in per_package.values()), per_package
    for shared in ("companion/games/options.py", "companion/table.py", "companion/events.py", "companion/dice.py"):
        assert per_file[shared] >= 3, (shared, per_file[shared])


# -- real refusals -------------------------------------------------------------------------

def _table(game: str, options: dict[str, Any] | None = None) -> Table:
    t = Table()
    t.apply(Event("table.new_game", {"game": game, "seed": 1, "options": options or {}}))
    return t


def _game_refusal(game: str, etype: str, data: dict[str, Any]) -> Callable[[], object]:
    return lambda: _table(game).apply(Event(etype, data))


def _options_refusal(game: str, options: dict[str, Any]) -> Callable[[], object]:
    return lambda: find_game(game).new_state(options, random.Random(0))


REFUSALS: dict[str, tuple[Callable[[], object], type[CompanionError], str, str]] = {
    # name: (what raises, class, a word of the French, a word of the English)
    "peripeties": (_game_refusal("peripeties", "peripeties.add_player", {"name": ""}), EventError,
                   "nom de joueur", "player's name"),
    "peripeties-rule": (_game_refusal("peripeties", "peripeties.dice", {"dice": "x"}), RuleError, "aucun dé", "no die"),
    "wuxia": (_game_refusal("wuxia", "wuxia.nope", {}), EventError, "inconnu", "unknown"),
    "shayo": (_game_refusal("shayo", "shayo.nope", {}), EventError, "inconnu", "unknown"),
    "espri": (_game_refusal("espri", "espri.save", {"character": "nobody", "target": "x"}), RuleError,
              "personnage inconnu", "unknown character"),
    "espri-no-appel": (_game_refusal("espri", "espri.choose", {"gems": ["hiver"]}), RuleError, "Appel", "Appel"),
    "options-range": (_options_refusal("espri", {"max_draw": 73}), EventError, "nombre entier", "whole number"),
    "options-check": (_options_refusal("shayo", {"mastery": {"mediocre": 2}}), EventError, "qualité", "quality"),
    "options-unknown": (_options_refusal("wuxia", {"nope": 1}), EventError, "inconnue", "unknown"),
    "table-nothing-to-undo": (lambda: Table().apply(Event("undo", {})), RuleError, "rien à annuler", "nothing to undo"),
    "table-no-game": (lambda: Table().apply(Event("espri.draw", {})), RuleError, "aucune partie", "no game"),
    "table-unknown-game": (lambda: Table().apply(Event("table.new_game", {"game": "chess"})), EventError,
                           "jeu inconnu", "unknown game"),
    "table-options": (lambda: Table().apply(Event("table.new_game", {"game": "espri", "options": [1]})), EventError,
                      "objet", "object"),
    "events": (lambda: parse_event({"type": "a.b", "seq": 0}), EventError, "entier positif", "positive integer"),
    "events-line": (lambda: event_from_json_line("{oops", 3), EventError, "ligne 3", "line 3"),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_a_real_refusal_carries_both_texts(name: str) -> None:
    raise_it, cls, fr_word, en_word = REFUSALS[name]
    with pytest.raises(CompanionError) as info:
        raise_it()
    err = info.value
    assert type(err) is cls
    said = getattr(err, "text", None)
    assert isinstance(said, dict) and set(said) == {"fr", "en"}
    assert said["fr"] != said["en"]
    assert fr_word in said["fr"] and en_word in said["en"]
    assert texts(err) == said
    base = f"{said['fr']} / {said['en']}"
    assert str(err) == (f"{base} [{err.rule}]" if isinstance(err, RuleError) and err.rule else base)
    for bad in BAD_TYPOGRAPHY:
        assert bad not in said["fr"], (name, bad, said["fr"])


def test_a_located_replay_refusal_keeps_both_texts_and_its_rule() -> None:
    """``Table.replay`` names the refused event in front, in each language apart."""
    events = [Event("table.new_game", {"game": "espri", "seed": 1}, seq=1),
              Event("espri.choose", {"gems": ["hiver"]}, seq=2)]
    with pytest.raises(RuleError) as info:
        Table().replay(events, strict=True)
    said = info.value.text  # type: ignore[attr-defined]
    assert said["fr"].startswith("événement n°\u00a02\u202f: ") and said["en"].startswith("event 2: ")
    assert info.value.rule
