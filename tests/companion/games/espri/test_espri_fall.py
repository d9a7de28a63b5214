"""ESPRI never stops dead on a Fall (R34): the choice that makes the leader fall says so
before it is taken, and when nobody is left to lead, the table says how to go on."""

from __future__ import annotations

import pytest

from companion.errors import RuleError

from tests.companion.games.espri.test_espri_flow import Play, guardian


def one_guardian(harmony: int, rupture: int) -> Play:
    p = Play()
    p.send("character", **guardian("deva", "hiver", {"hiver": 3}, 2, name="Déva", prayers=[], talents=["Abri"],
                                   harmony=harmony, rupture=rupture))
    p.send("set_quadrant", season="hiver", cells=["hiver", "rupture"], nymph=0)
    p.send("appel", season="hiver", leader="deva")
    p.send("draw", gems=["rupture", "rupture"], source="camera")
    return p


def rupture_success(p: Play) -> dict:
    sels = p.json["expects"]["selections"]
    return next(s for s in sels if s.get("rupture_point"))


def test_the_choice_that_makes_the_only_leader_fall_warns_on_its_button() -> None:
    p = one_guardian(harmony=2, rupture=2)
    sels = p.json["expects"]["selections"]
    sel = rupture_success(p)
    assert sel["falls"] is True
    assert sel["label"]["fr"] == "Rupture (+1 point de Rupture) → Réussite"
    fr, en = sel["warning"]["fr"], sel["warning"]["en"]
    assert "Déva chuterait (Rupture 3 > Harmonie 2, R34)" in fr and "Personne d'autre" in fr
    assert "L'Échec évite la chute" in fr and "would fall" in en
    # the other choice (Failure) carries no warning; the outcome listing the choices warns too
    assert all("warning" not in s for s in sels if not s.get("rupture_point"))
    drawn = p.table.frames[-1].outcomes
    assert any("chuterait" in o.text["fr"] for o in drawn)


def test_no_warning_when_harmony_holds() -> None:
    p = one_guardian(harmony=3, rupture=2)
    sel = rupture_success(p)
    assert "warning" not in sel and "falls" not in sel


def test_after_the_fall_the_table_says_how_to_go_on_and_the_gm_can_lift_it() -> None:
    p = one_guardian(harmony=2, rupture=2)
    p.send("choose", selection=rupture_success(p)["key"])
    while p.json["expects"]["step"] != "appel":  # the rest of the Appel (extras, Nymph)
        ex = p.json["expects"]
        if ex["step"] == "extras":
            p.send("extras", gems=ex["gems"][:ex["count"]])
        else:  # pragma: no cover - the scenario has no other step
            raise AssertionError(ex)
    ex = p.json["expects"]
    assert ex["fallen"] == ["deva"] and "Personne ne peut mener d'Appel : Déva a chuté" in ex["blocked"]["fr"]
    assert "GM lifts the Fall" in ex["blocked"]["en"]
    p.refuse("appel", "R34", season="hiver", leader="deva")
    # the GM's ruling: Rupture must not stay above Harmony
    p.refuse("redeem", "R34", character="deva")
    p.send("redeem", character="deva", harmony=3)
    assert p.json["expects"] == {"step": "appel", "who": "gm"}
    assert p.json["characters"][0]["fallen"] is False
    p.send("appel", season="hiver", leader="deva")
    with pytest.raises(RuleError):
        p.send("redeem", character="deva", harmony=4)  # not during an Appel, and not fallen


def test_a_new_character_is_the_other_way_on() -> None:
    p = one_guardian(harmony=2, rupture=2)
    p.send("choose", selection=rupture_success(p)["key"])
    while p.json["expects"]["step"] == "extras":
        ex = p.json["expects"]
        p.send("extras", gems=ex["gems"][:ex["count"]])
    p.send("character", **guardian("ceres", "printemps", {"printemps": 3}, 2, name="Cérès", prayers=[]))
    assert "blocked" not in p.json["expects"]
