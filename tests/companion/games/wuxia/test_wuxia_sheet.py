"""Character sheets: creation rules (R6), hobbies and specialisations (R3), secondary
characteristics (R5), edits and play counters."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import EventError
from companion.games.wuxia import GAME
from companion.games.wuxia.options import default_options

DEFAULT_OPTIONS = default_options()
from companion.games.wuxia.sheet import secondary, sheet_from_data

from tests.companion.games.wuxia.test_wuxia_rules import LIN, refused, send, sj, table

PRIO = {"attributs": 5, "competences": 4, "pouvoirs": 1, "traits": 2, "experience": 3}


def sheet(**over: Any) -> dict[str, Any]:
    base = {"name": "Mei", "attributes": {"metal": 8, "feu": 6, "terre": 6, "eau": 5, "bois": 5}, "priorities": PRIO}
    return {**base, **over}


def test_death_threshold_w_t11_and_chi_w_t12() -> None:
    c = sheet_from_data({"name": "X", "attributes": {"metal": 4, "feu": 5, "terre": 6, "eau": 3, "bois": 7}, "check": False},
                        DEFAULT_OPTIONS)
    sec = secondary(c, DEFAULT_OPTIONS)
    assert sec["death_threshold"] == (2 * 4 + 3) * 3 == 33
    c2 = sheet_from_data({"name": "Y", "attributes": {"metal": 5, "feu": 4, "terre": 6, "eau": 3, "bois": 7}, "check": False},
                         DEFAULT_OPTIONS)
    assert secondary(c2, DEFAULT_OPTIONS)["chi"] == 12
    assert secondary(c2, {**DEFAULT_OPTIONS, "chi_rounding": "up"})["chi"] == 13
    assert secondary(c2, DEFAULT_OPTIONS)["initiative_base"] == 5


def test_priority_five_attributes_budget_and_cap() -> None:
    t = table(None, sheet())  # 30 points exactly, max 8
    assert sj(t)["characters"][0]["creation"]["attributes"] == {"priority": 5, "points": 30, "budget": 30, "max": 8}
    assert "30" in refused(t, "character_new", sheet(name="B", attributes={"metal": 8, "feu": 7, "terre": 6, "eau": 5, "bois": 5}), rule="R6")
    assert "exceed 8" in refused(t, "character_new", sheet(name="C", attributes={"metal": 9, "feu": 5, "terre": 5, "eau": 5, "bois": 5}), rule="R6")


def test_priority_one_attributes() -> None:
    prio = {"attributs": 1, "competences": 4, "pouvoirs": 5, "traits": 2, "experience": 3}
    ok = sheet(priorities=prio, attributes={"metal": 5, "feu": 4, "terre": 3, "eau": 3, "bois": 3})
    t = table(None, ok)
    assert sj(t)["characters"][0]["hero_type"] == "sorcier"
    refused(t, "character_new", {**ok, "name": "B", "attributes": {"metal": 6, "feu": 3, "terre": 3, "eau": 3, "bois": 3}}, rule="R6")
    refused(t, "character_new", {**ok, "name": "C", "attributes": {"metal": 5, "feu": 5, "terre": 3, "eau": 3, "bois": 3}}, rule="R6")


def test_above_one_points_option() -> None:
    t = table({"attribute_points": "above_one"}, sheet(attributes={"metal": 8, "feu": 8, "terre": 7, "eau": 6, "bois": 6}))
    assert sj(t)["characters"][0]["creation"]["attributes"]["points"] == 30


def test_priorities_each_once() -> None:
    t = table(None, sheet())
    refused(t, "character_new", sheet(name="B", priorities={**PRIO, "traits": 5}), rule="R6")
    refused(t, "character_new", sheet(name="C", priorities={"attributs": 5}), rule="R6")
    refused(t, "character_new", sheet(name="D", priorities={**PRIO, "magie": 2}), says="unknown characteristic 'magie'")


def test_hero_type_and_powers() -> None:
    t = table(None, sheet(powers=[{"name": "Kiai", "level": 2}, {"name": "Bond du tigre", "level": 1}]))
    assert sj(t)["characters"][0]["hero_type"] == "guerrier"
    assert "Invocation" in refused(t, "character_new", sheet(name="B", powers=[{"name": "Invocation de démons", "level": 1}]), rule="R6")
    refused(t, "character_new", sheet(name="C", hero_type="moine"), rule="R6")
    mid = {"attributs": 5, "competences": 4, "pouvoirs": 3, "traits": 2, "experience": 1}
    send(t, "character_new", sheet(name="D", priorities=mid, hero_type="Moine", powers=[{"name": "Troisième Œil", "level": 1}]))
    assert sj(t)["characters"][1]["creation"]["powers"]["types"] == ["moine", "chevalier", "assassin"]
    send(t, "character_new", sheet(name="E", powers=[{"name": "Souffle inconnu", "level": 3}]))  # unlisted: allowed


def test_power_points_checked_only_when_a_cost_is_set_w14() -> None:
    big = [{"name": "Kiai", "level": 10}, {"name": "Focus:Finesse", "level": 10}, {"name": "Bond du tigre", "level": 5}]
    t = table(None, sheet(powers=big))
    assert sj(t)["characters"][0]["creation"]["powers"]["points"] is None
    t2 = table({"power_cost_per_level": 1}, sheet(powers=big[:2]))
    refused(t2, "character_new", sheet(name="B", powers=big), rule="R6")


def test_hobby_needs_a_level_specialisation_does_not_r3() -> None:
    t = table()
    refused(t, "character_new", {**LIN, "name": "B", "skills": [{"name": "Tir à l'arc", "kind": "narrow", "parent": "Chasseur"}]}, rule="R3")
    refused(t, "character_new", {**LIN, "name": "C", "skills": [{"name": "Chasseur", "kind": "metier"}]}, rule="R2")
    refused(t, "character_new", {**LIN, "name": "D", "skills": [{"name": "Chasseur", "level": 11}]}, rule="R2")
    roles = {s["name"]: s["role"] for s in sj(t)["characters"][0]["skills"]}
    assert roles == {"Chasseur": "metier", "Tir à l'arc": "specialisation", "Magistrat": "metier", "Herboristerie": "hobby"}


def test_edit_turns_a_hobby_into_a_specialisation() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "eau", "skill": "Herboristerie"})
    assert sj(t)["tests"][0]["how"] == "hobby"
    skills = LIN["skills"] + [{"name": "Médecin", "kind": "profession", "level": 4}]
    send(t, "character_edit", {"name": "Lin", "skills": skills})
    send(t, "test", {"who": "Lin", "attribute": "eau", "skill": "Herboristerie"})
    tj = sj(t)["tests"][0]
    assert (tj["how"], tj["competence"], tj["rerolls"]) == ("specialisation", 4, 2)


def test_edit_merges_attributes_and_rechecks() -> None:
    t = table(None, sheet())
    refused(t, "character_edit", {"name": "Mei", "attributes": {"metal": 9}}, rule="R6")
    send(t, "character_edit", {"name": "Mei", "attributes": {"metal": 9}, "check": False})
    c = sj(t)["characters"][0]
    assert c["attributes"]["metal"] == 9 and c["attributes"]["feu"] == 6 and c["check"] is False
    send(t, "character_edit", {"name": "Mei", "rename": "Mei Ling"})
    assert sj(t)["characters"][0]["name"] == "Mei Ling"
    refused(t, "character_edit", {"name": "Nobody"}, rule="R1")
    refused(t, "character_edit", {"name": "Mei Ling", "colour": "red"}, says='unknown sheet field(s): colour')


def test_counters_and_thresholds() -> None:
    t = table(None, {**LIN, "wound_thresholds": [10, 20], "panic_thresholds": [3]})
    out = send(t, "wound", {"who": "Lin", "amount": 12})
    assert [o["kind"] for o in out] == ["character.wounds", "character.wound_threshold"]
    out = send(t, "wound", {"who": "Lin", "amount": 21})  # 33 = death threshold (W9: reach)
    assert "character.dead" in [o["kind"] for o in out]
    assert sj(t)["characters"][0]["secondary"]["dead"] is True
    out = send(t, "panic", {"who": "Lin", "amount": 3})
    assert out[-1]["kind"] == "character.panic_threshold"
    send(t, "chi", {"who": "Lin", "amount": 5})
    assert sj(t)["characters"][0]["secondary"]["chi_left"] == 6
    refused(t, "chi", {"who": "Lin", "amount": 7}, rule="R5")
    refused(t, "wound", {"who": "Lin", "amount": -40}, rule="R5")


def test_death_exceed_option() -> None:
    t = table({"death_when": "exceed"})
    send(t, "wound", {"who": "Lin", "amount": 33})
    assert sj(t)["characters"][0]["secondary"]["dead"] is False


def test_duplicate_and_removal() -> None:
    t = table()
    refused(t, "character_new", {**LIN, "name": "lin"}, rule="R1")
    send(t, "character_remove", {"name": "Lin"})
    assert sj(t)["characters"] == []


def test_options_are_checked() -> None:
    from companion.events import Event
    from companion.table import Table

    for bad in ({"quality": "best"}, {"reroll_levels": [[1]]}, {"sr_min": 12, "sr_max": 9}, {"reroll_ones": "yes"}):
        with pytest.raises(EventError):
            Table().apply(Event("table.new_game", {"game": "wuxia", "options": bad}, seq=1))
    assert set(GAME.default_options()) == set(DEFAULT_OPTIONS)
