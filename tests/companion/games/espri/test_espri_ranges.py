"""ESPRI events with values out of their rule's range (issue 15): refused in both
languages, naming the rule, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import CompanionError, EventError, RuleError

from tests.companion.games.espri.test_espri_flow import Play, deva_table, guardian

HUGE = 10**9


def refused(p: Play, type_: str, rule: str, **data: Any) -> RuleError:
    """``type_`` is refused under ``rule``, the state unchanged, with a French and an
    English message apart (as the tablet shows one)."""
    err = p.refuse(type_, rule, **data)
    text = getattr(err, "text", None)
    assert isinstance(text, dict) and text["fr"] and text["en"] and text["fr"] != text["en"], str(err)
    return err


@pytest.mark.parametrize("field,value,rule", [
    ("harmony", HUGE, "R32"), ("harmony", -1, "R32"), ("rupture", -1, "R33"), ("rupture", 100, "R33"),
    ("devotion", 11, "1.4"), ("devotion", -1, "1.4"),
])
def test_character_points_outside_the_sheet(field: str, value: int, rule: str) -> None:
    p = Play()
    err = refused(p, "character", rule, **{**guardian("a", "hiver", {}, 2), field: value})
    assert str(value) in err.text["en"]  # type: ignore[attr-defined]
    assert p.state.characters == ()


def test_character_scores_outside_the_scale_even_without_caps() -> None:
    p = Play(enforce_score_caps=False)
    err = refused(p, "character", "1.4", **guardian("a", "hiver", {"hiver": 11}, 2))
    assert "le score d'Hiver doit valoir entre 0 et 10, pas 11" == err.text["fr"]  # type: ignore[attr-defined]
    assert "the Winter score must be from 0 to 10, not 11" == err.text["en"]  # type: ignore[attr-defined]
    refused(p, "character", "1.4", **guardian("a", "hiver", {"ete": -2}, 2))
    p.send("character", **guardian("a", "hiver", {"hiver": 10}, 2))  # the caps are off: 10 is on the scale


def test_a_relationship_resonance_outside_the_scale() -> None:
    p = deva_table()
    refused(p, "relationship", "E24", character="deva", resonance=11, **{"with": "ceres"})
    refused(p, "character", "E24", **guardian("b", "ete", {}, 1, relationships=[{"with": "deva", "resonance": HUGE}]))


def test_a_billion_gems_is_refused_at_once() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 3}, 2))
    err = refused(p, "setup_draw", "R1", character="a", gems={"hiver": HUGE})
    assert "50" in err.text["en"] and str(HUGE) in err.text["en"]  # type: ignore[attr-defined]
    refused(p, "setup_draw", "R1", character="a", gems={"hiver": -1})
    refused(p, "setup_draw", "R1", character="a", gems={"violet": 1})
    refused(p, "setup_draw", "R1", character="a", gems=["hiver"] * 10_000)


def test_an_unknown_colour_is_refused_in_both_languages() -> None:
    p = deva_table()
    p.send("appel", season="hiver", leader="deva")
    err = refused(p, "draw", "R1", gems=["hiver", "violet", "temps"])
    assert err.text["fr"].startswith("gemme inconnue 'violet'")  # type: ignore[attr-defined]
    assert err.text["en"].startswith("unknown gem 'violet'")  # type: ignore[attr-defined]
    refused(Play(), "nymph", "R1", season="purple", to=0)


def test_effects_outside_their_range_or_of_an_unknown_season() -> None:
    p = deva_table()
    refused(p, "effect", "R15", character="deva", value=HUGE)
    refused(p, "effect", "R15", character="deva", value=-21)
    refused(p, "effect", "E17", character="deva", value=-1, minimum=-HUGE)
    refused(p, "effect", "R1", character="deva", value=1, season="violet")
    p.send("effect", character="deva", value=-20, minimum=1)
    # the one-off modifiers of an Appel are checked the same way
    refused(p, "appel", "R1", season="hiver", leader="deva", modifiers=[{"value": 1, "season": "violet"}])
    refused(p, "appel", "R15", season="hiver", leader="deva", modifiers=[{"value": HUGE}])


def test_difficulty_harmony_and_rupture_points_in_range() -> None:
    p = deva_table()
    refused(p, "appel", "R10", season="hiver", leader="deva", difficulty=-1)
    refused(p, "appel", "R10", season="hiver", leader="deva", difficulty=10**400)
    refused(p, "harmony", "R32", character="deva", delta=HUGE)
    p.send("harmony", character="deva", delta=99)
    err = refused(p, "harmony", "R32", character="deva", delta=1)
    assert "99" in err.text["en"]  # type: ignore[attr-defined]
    refused(p, "rupture", "R33", character="deva", points=13)
    refused(p, "rupture", "R33", character="deva", points=0)


def test_a_huge_number_is_not_printed_in_full() -> None:
    p = deva_table()
    err = refused(p, "appel", "R10", season="hiver", leader="deva", difficulty=10**400)
    assert len(str(err)) < 300 and "10^" in str(err)


def test_cells_and_nymphs_off_the_path() -> None:
    p = deva_table()
    refused(p, "nymph", "R6", season="hiver", to=HUGE)
    refused(p, "nymph", "R6", season="hiver", to=-1)
    refused(p, "set_quadrant", "E3", season="hiver", cells={"999": "hiver"})
    refused(p, "set_quadrant", "E3", season="hiver", cells=["hiver"] * 22)
    refused(p, "remove", "E3", cells=[{"quadrant": "hiver", "cell": HUGE}])
    refused(p, "remove", "E3", cells=[{"quadrant": "hiver", "cell": True}])


def test_malformed_values_are_event_errors_in_both_languages() -> None:
    p = deva_table()
    before = p.state
    for type_, data in (("effect_clear", {"character": "deva", "index": True}),
                        ("harmony", {"character": "deva", "delta": "lots"}),
                        ("harmony", {"character": "deva", "delta": 1.5})):
        with pytest.raises(CompanionError) as info:
            p.send(type_, **data)
        p.seq -= 1
        assert p.state is before
        assert isinstance(info.value, (EventError, RuleError))
    p.send("appel", season="hiver", leader="deva")
    with pytest.raises(EventError) as info:
        p.send("draw", gems="hiver")
    assert set(info.value.text) == {"fr", "en"}  # type: ignore[attr-defined]


def test_values_of_the_wrong_shape_found_by_the_fuzz_test() -> None:
    """Two crashes (TypeError) the fuzz test found: now clean refusals."""
    p = deva_table()
    before = p.state
    with pytest.raises(EventError):
        p.send("character", **guardian("b", "ete", {}, 1, relationships=-5))
    p.seq -= 1
    p.send("appel", season="hiver", leader="deva", difficulty=0)
    p.send("draw", gems=["hiver", "ete", "temps"])
    with pytest.raises(EventError):
        p.send("choose", selection=0, order=["hiver", {"x": 1}])
    p.seq -= 1
    assert before.characters == p.state.characters
