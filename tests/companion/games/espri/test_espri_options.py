"""ESPRI's options: one dataclass (companion.games.espri.options), each default stated
once; the game, the odds, the set-up form and docs/espri.md all follow it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.errors import EventError
from companion.events import Event, Source
from companion.games.espri import GAME
from companion.games.espri.odds import DEFAULT_ODDS_OPTIONS, appel_odds, OddsError
from companion.games.espri.options import DEFAULTS, OPTION_SPECS, Options, parse_options
from companion.games.options import option_form
from companion.table import Table

DOC = Path(__file__).resolve().parents[4] / "docs" / "espri.md"

#: The defaults as the game has always given them (the JSON of default_options(), which
#: new_game stores and every example log replays against).
PUBLISHED_DEFAULTS = {
    "gems_per_colour": 12, "path_length": 21, "halo_cells": [4, 8, 12, 16, 20],
    "adjacent_modifier": "one_degree", "fixed_criticals": False, "max_draw": 12,
    "automatic_success_draw": True, "redraw_first_gem": "pool", "gm_chooses_minus_one_with_prayer": False,
    "unplaced_prayer": "pool", "success_extras_score": "unmodified", "rupture_blocks_standing_nymph": False,
    "rupture_removal_timing": "after_advance", "bounded_effects_order": "minima_first",
    "resonance_score": "tutelary", "harmony_cost_per_gem": 1, "caterpillar": False,
    "caterpillar_gem": "farthest_behind", "between_sessions": "whole_board", "no_talent_penalty": 1,
    "setup_gm_ruptures": 4, "communion_pool_max": 12, "enforce_score_caps": True,
}


def test_default_options_json_is_unchanged() -> None:
    assert json.dumps(GAME.default_options()) == json.dumps(PUBLISHED_DEFAULTS)
    # a fresh copy each time: a caller changing the list changes no later game
    GAME.default_options()["halo_cells"].append(99)
    assert GAME.default_options()["halo_cells"] == [4, 8, 12, 16, 20]


def test_state_holds_typed_options() -> None:
    state = GAME.new_state({**GAME.default_options(), "max_draw": 10}, random.Random(1))
    assert isinstance(state.options, Options)
    assert state.options.max_draw == 10 and state.options.path_length == 21
    assert state.board.quadrants[0].length == 21 and state.pool == (12,) * 6


def test_every_option_labelled_in_both_languages_with_a_range() -> None:
    for spec in OPTION_SPECS:
        assert spec.decision, spec.name
        assert spec.fr and spec.en and spec.fr != spec.en, spec.name
        if spec.kind == "int":
            assert spec.lo is not None and spec.hi is not None, spec.name
            assert spec.lo <= spec.default <= spec.hi, spec.name
        if spec.kind == "data":
            assert spec.check is not None and spec.check(spec.default) is None, spec.name
    # the tablet's set-up form offers every option but the list
    assert [f["name"] for f in option_form(GAME.options_class)] == [
        s.name for s in OPTION_SPECS if s.kind != "data"]


@pytest.mark.parametrize("bad,word", [
    ({"max_draw": "lots"}, "max_draw"), ({"max_draw": 0}, "max_draw"), ({"max_draw": 73}, "max_draw"),
    ({"path_length": 61}, "path_length"), ({"gems_per_colour": 10**9}, "gems_per_colour"),
    ({"gems_per_colour": True}, "gems_per_colour"), ({"no_talent_penalty": -1}, "no_talent_penalty"),
    ({"setup_gm_ruptures": 5}, "setup_gm_ruptures"), ({"adjacent_modifier": "x"}, "adjacent_modifier"),
    ({"caterpillar": "yes"}, "caterpillar"), ({"halo_cells": [4, True]}, "halo_cells"),
    ({"halo_cells": [0]}, "halo_cells"), ({"halo_cells": "4,8"}, "halo_cells"), ({"gems": 3}, "gems"),
])
def test_bad_option_refused_and_no_game_starts(bad: dict[str, Any], word: str) -> None:
    with pytest.raises(EventError, match=word):
        parse_options(bad)
    t = Table()
    with pytest.raises(EventError, match=word):
        t.apply(Event("table.new_game", {"game": "espri", "options": bad}, Source.MANUAL, 1))
    assert t.top is None


def test_odds_defaults_come_from_the_options() -> None:
    assert DEFAULT_ODDS_OPTIONS == {k: getattr(DEFAULTS, k) for k in DEFAULT_ODDS_OPTIONS}
    full = [12] * 6
    # a partial mapping, typed options and the defaults agree
    assert appel_odds(full, "hiver", 3, {"max_draw": 12}) == appel_odds(full, "hiver", 3, DEFAULTS) \
        == appel_odds(full, "hiver", 3)
    assert appel_odds(full, "hiver", 3, Options(max_draw=2))["automatic"] == "critical_success"
    with pytest.raises(OddsError, match="max_draw"):
        appel_odds(full, "hiver", 3, {"max_draw": -1})


def _doc_table() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `(\w+)` \| `([^`]*)` \|", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def test_docs_list_every_option_and_its_default() -> None:
    rows = _doc_table()
    assert list(rows) == [s.name for s in OPTION_SPECS]
    for spec in OPTION_SPECS:
        assert json.loads(rows[spec.name]) == spec.default, spec.name
