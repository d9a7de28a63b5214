"""Wuxia's and Shayo's options come from one ``Options`` dataclass each: the defaults, the
check at ``new_game``, the tablet's set-up form and the docs' tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError, EventError
from companion.events import Event
from companion.games.options import option_form, option_specs
from companion.games.shayo import GAME as SHAYO
from companion.games.shayo.options import Options as ShayoOptions
from companion.games.wuxia import GAME as WUXIA
from companion.games.wuxia.options import Options as WuxiaOptions
from companion.table import Table

ROOT = Path(__file__).resolve().parents[3]
GAMES = [("wuxia", WUXIA, WuxiaOptions), ("shayo", SHAYO, ShayoOptions)]


def start(game: str, options: dict[str, Any]) -> Table:
    t = Table()
    t.apply(Event("table.new_game", {"game": game, "options": options, "seed": 1}, seq=1))
    return t


@pytest.mark.parametrize("name,game,cls", GAMES)
def test_the_game_names_its_options_class_and_its_defaults_come_from_it(name: str, game: Any, cls: type) -> None:
    assert game.options_class is cls
    specs = option_specs(cls)
    assert list(game.default_options()) == [s.name for s in specs]
    assert game.default_options() == {s.name: s.default for s in specs}
    # every default passes its own check, and the state keeps them in the fields' order
    t = start(name, {})
    assert list(t.state.options) == [s.name for s in specs]


@pytest.mark.parametrize("name,game,cls", GAMES)
def test_every_option_is_labelled_in_french_and_english(name: str, game: Any, cls: type) -> None:
    for s in option_specs(cls):
        assert s.fr and s.en and s.fr != s.en, s.name
        assert s.decision, s.name
        if s.kind == "int":
            assert s.lo is not None and s.hi is not None and s.lo <= s.default <= s.hi, s.name


@pytest.mark.parametrize("name,game,cls", GAMES)
def test_the_setup_form_shows_the_options_a_tap_can_set(name: str, game: Any, cls: type) -> None:
    form = option_form(cls)
    shown = {f["name"] for f in form}
    tappable = {s.name for s in option_specs(cls) if s.kind in ("enum", "bool", "int")}
    assert shown == tappable and len(shown) >= 10


@pytest.mark.parametrize("name,doc,cls", [("wuxia", "wuxia.md", WuxiaOptions), ("shayo", "shayo.md", ShayoOptions)])
def test_docs_list_every_option_with_its_default(name: str, doc: str, cls: type) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    for s in option_specs(cls):
        assert f"| `{s.name}` | `{json.dumps(s.default, ensure_ascii=False)}` |" in text, s.name


@pytest.mark.parametrize("name,options,says", [
    ("wuxia", {"sr_min": -5}, "sr_min"),
    ("wuxia", {"combat_sr": 10**9}, "combat_sr"),
    ("wuxia", {"sr_min": 12, "sr_max": 9}, "sr_min"),
    ("wuxia", {"reroll_levels": [[1, 99]]}, "reroll_levels"),
    ("wuxia", {"power_cost_per_level": 0}, "power_cost_per_level"),
    ("wuxia", {"threshold_rule": "sometimes"}, "threshold_rule"),
    ("wuxia", {"no_such": 1}, "no_such"),
    ("shayo", {"melee_difficulty": 1}, "melee_difficulty"),
    ("shayo", {"required_successes": 10**6}, "required_successes"),
    ("shayo", {"mastery": {"mediocre": 2}}, "mastery"),
    ("shayo", {"life_lines": [{"fr": "a", "en": "b", "boxes": 10**6}]}, "life_lines"),
    ("shayo", {"power_attack": {"difficulty": -1, "damage_dice": 1}}, "power_attack.difficulty"),
    ("shayo", {"auto_keep": 1}, "auto_keep"),
])
def test_a_bad_option_is_refused_and_named(name: str, options: dict[str, Any], says: str) -> None:
    with pytest.raises(CompanionError) as exc:
        start(name, options)
    assert isinstance(exc.value, EventError) and says in str(exc.value)
