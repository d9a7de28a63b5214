"""Out-of-range values are refused per rule, with a message naming the value, and nothing
changes (issue 15): a rank of -5, a combat value of 10**9, an attribute beyond the sheet's
limits, a pool of 10**6 dice, a face of 11 on a d10."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from companion.errors import CompanionError
from companion.events import Event
from companion.table import Table

from tests.companion.games.shayo.test_shayo_game import AIKO, REN
from tests.companion.games.wuxia.test_wuxia_combat import A, B
from tests.companion.games.wuxia.test_wuxia_rules import LIN

BIG = 10**9


def _table(game: str, chars: list[dict[str, Any]], verb: str = "character_new") -> Table:
    t = Table()
    t.apply(Event("table.new_game", {"game": game, "options": {}, "seed": 1}, seq=1))
    for c in chars:
        t.apply(Event(f"{game}.{verb}", c, seq=len(t.frames) + 1))
    return t


def wuxia() -> Table:
    return _table("wuxia", [LIN, A, B])


def shayo() -> Table:
    return _table("shayo", [AIKO, REN], "character")


def refused(t: Table, etype: str, data: dict[str, Any], value: Any) -> str:
    before, n = t.state, len(t.frames)
    with pytest.raises(CompanionError) as exc:
        t.apply(Event(etype, data, seq=n + 1))
    said = getattr(exc.value, "text", None)
    assert isinstance(said, dict), exc.value
    for lang in ("fr", "en"):
        assert str(value) in said[lang], f"{value!r} not named in {said[lang]!r}"
    assert t.state is before and len(t.frames) == n
    return str(exc.value)


FIGHT = {"fighters": [{"who": "Ana", "competence": 2}, {"who": "Bo", "side": "b", "competence": 1}]}

WUXIA_CASES = [
    ("character_new", {**A, "name": "Cy", "attributes": {**A["attributes"], "feu": 11}}, 11),
    ("character_new", {**A, "name": "Cy", "attributes": {**A["attributes"], "eau": -5}}, -5),
    ("character_new", {**A, "name": "Cy", "skills": [{"name": "Forge", "kind": "metier", "level": 11}]}, 11),
    ("character_new", {**A, "name": "Cy", "experience": BIG}, BIG),
    ("character_new", {**A, "name": "Cy", "wound_thresholds": [BIG]}, BIG),
    ("test", {"dice": 10**6, "competence": 2, "sr": 10}, 10**6),
    ("test", {"who": "Lin", "attribute": "feu", "competence": 99, "sr": 10}, 99),
    ("test", {"who": "Lin", "attribute": "feu", "competence": 2, "sr": -5}, -5),
    ("wound", {"who": "Ana", "amount": BIG}, BIG),
    ("destiny", {"who": "Ana", "award": BIG}, BIG),
    ("combat_start", {"fighters": [{"who": "Ana", "competence": 2, "weapon": {"nd": BIG}},
                                   {"who": "Bo", "side": "b", "competence": 1}]}, BIG),
    ("combat_start", {"fighters": [{"who": "Ana", "competence": 2, "armour": -5},
                                   {"who": "Bo", "side": "b", "competence": 1}]}, -5),
]


@pytest.mark.parametrize("verb,data,value", WUXIA_CASES)
def test_wuxia_refuses_out_of_range_values(verb: str, data: dict[str, Any], value: Any) -> None:
    refused(wuxia(), f"wuxia.{verb}", data, value)


def test_wuxia_refuses_a_face_of_11() -> None:
    t = wuxia()
    t.apply(Event("wuxia.test", {"who": "Lin", "attribute": "feu", "competence": 2, "sr": 10}, seq=len(t.frames) + 1))
    refused(t, "wuxia.roll", {"dice": [11, 2, 3, 4, 5]}, 11)


def test_wuxia_refuses_combat_values_of_a_billion() -> None:
    t = wuxia()
    t.apply(Event("wuxia.combat_start", FIGHT, seq=len(t.frames) + 1))
    t.apply(Event("wuxia.roll", {"dice": [8, 9, 10, 2]}, seq=len(t.frames) + 1))
    t.apply(Event("wuxia.roll", {"dice": [2, 2, 2, 2, 2]}, seq=len(t.frames) + 1))
    refused(t, "wuxia.initiative", {"who": "Ana", "initiative": BIG}, BIG)


SHAYO_CASES = [
    ("test", {"attribute": 10**6, "skill": 2, "difficulty": 6}, 10**6),
    ("test", {"attribute": -5, "skill": 2, "difficulty": 6}, -5),
    ("test", {"attribute": 3, "skill": 2, "difficulty": BIG}, BIG),
    ("test", {"attribute": 3, "skill": 2, "difficulty": 6, "modifiers": {"rolled": BIG}}, BIG),
    ("character", {**AIKO, "name": "Kei", "attributes": {"INS": 6, "AGI": 3}}, 6),
    ("character", {**AIKO, "name": "Kei", "weapons": {"katana": {"dice": BIG, "fixed": 1, "solidity": 5}}}, BIG),
    ("character", {**AIKO, "name": "Kei", "damage": -5}, -5),
    ("health", {"who": "Aiko", "boxes": 10**6}, 10**6),
    ("spend_ki", {"who": "Aiko", "use": "spell", "amount": 10**6}, 10**6),
    ("initiative", {"combatants": [{"name": "Aiko", "die": 5, "attribute": 3, "encumbrance": BIG}]}, BIG),
    ("attack", {"attribute": 3, "skill": 2, "target": "bandit", "weapon": {"dice": 1},
                "target_armour": {"sd": BIG, "protection": 0}}, BIG),
]


@pytest.mark.parametrize("verb,data,value", SHAYO_CASES)
def test_shayo_refuses_out_of_range_values(verb: str, data: dict[str, Any], value: Any) -> None:
    refused(shayo(), f"shayo.{verb}", data, value)


def test_shayo_refuses_a_face_of_11() -> None:
    t = shayo()
    t.apply(Event("shayo.test", {"attribute": 3, "skill": 1, "difficulty": 6}, seq=len(t.frames) + 1))
    refused(t, "shayo.roll", {"dice": [11, 2, 3]}, 11)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(max_value=0), st.integers(min_value=11)))
def test_any_wuxia_attribute_outside_1_to_10_is_refused(v: int) -> None:
    refused(wuxia(), "wuxia.character_new", {**A, "name": "Cy", "attributes": {**A["attributes"], "metal": v}}, v)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(max_value=-1), st.integers(min_value=11)))
def test_any_shayo_face_outside_the_d10_is_refused(v: int) -> None:
    t = shayo()
    t.apply(Event("shayo.test", {"attribute": 2, "skill": 0, "difficulty": 6}, seq=len(t.frames) + 1))
    refused(t, "shayo.roll", {"dice": [v, 2]}, v)
