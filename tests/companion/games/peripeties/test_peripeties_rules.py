"""Rule tests and bad input: every refusal names its rule and changes nothing."""

from __future__ import annotations

import pytest

from companion.errors import CompanionError, EventError, RuleError
from companion.games import find_game

from tests.companion.games.peripeties.test_peripeties_kit import P1_DICE, P2_DICE, T, hero_table, kinds


def refused(t: T, verb: str, rule: str | None = None, source: str = "manual", **data: object) -> CompanionError:
    before = t.dump()
    with pytest.raises(CompanionError) as e:
        t.ev(verb, source=source, **data)
    assert t.dump() == before, "a refused event changed the state"
    if rule is not None:
        assert isinstance(e.value, RuleError) and e.value.rule == rule, str(e.value)
    return e.value


def test_registered_game() -> None:
    g = find_game("peripeties")
    assert g.name == "peripeties" and g.title["fr"] == "Péripéties"
    assert g.default_options()["brother_mode"] == "add"


# -- setup and turn order -------------------------------------------------------------------
def test_turn_order_and_next_player() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    t.ev("add_character", player="Bruno", card="b3")
    t.ev("add_character", player="Alice", card="b4")
    t.ev("order", players=["Bruno", "Alice"])
    t.ev("next_turn")
    assert t.expects["character"] == "b3" and t.expects["next_player"] == "Alice"
    # the blue dice are the current player's, the rest the next player's (R5-R7, D15)
    by = {d["role"]: d["by"] for d in t.expects["dice"]}
    assert by["lieu"] == "Bruno" and by["recompense"] == "Alice" and by["difficulty"] == "Alice"
    t.ev("dice", **P1_DICE)
    t.ev("dice", trial=9)
    assert t.expects["character"] == "b2" and t.expects["next_player"] == "Bruno"
    # R2 decision: Alice may play her other character first
    assert t.expects["choices"][0]["values"] == ["b2", "b4"]
    t.ev("choose", character="b4")
    assert t.expects["character"] == "b4"
    refused(t, "choose", "R2", character="b3")  # already played


def test_next_turn_refused_during_episodes_and_without_characters() -> None:
    t = T()
    refused(t, "next_turn", "R2")
    t.ev("add_character", player="Alice", card="b2")
    refused(t, "dice", "R2", **P1_DICE)  # setup: no die expected
    t.ev("next_turn")
    refused(t, "next_turn", "R2")


def test_add_character_from_deck_takes_card_from_pile() -> None:
    t = T()
    assert "b2" in t.table.state.pile
    t.ev("add_character", player="Alice", card="b2")
    assert "b2" not in t.table.state.pile
    refused(t, "add_character", "R16", player="Bruno", card="b2")
    e = refused(t, "add_character", player="Bruno", card="nobody")
    assert isinstance(e, EventError)


def test_add_custom_and_edit_character() -> None:
    t = T()
    t.ev("add_character", player="Alice", name="Wang Lun", rank=12, star="terrestre", combat=3, esprit=2, magie=1, lieu="Forêt")
    c = t.char("wang-lun")
    assert c["card"]["custom"] and c["card"]["lieu"] == "foret" and c["card"]["die"] == "d10"
    t.ev("edit_character", character="wang-lun", star="celeste", taels=12, xp={"esprit": 2})
    c = t.char("wang-lun")
    assert c["card"]["die"] == "d12" and c["tokens"]["taels"] == 12 and c["tokens"]["xp"]["esprit"] == 2
    refused(t, "edit_character", "R18", character="wang-lun", xp={"combat": 5})
    refused(t, "edit_character", "R22", character="wang-lun", wounds=2)  # 3 - 4 <= 0
    refused(t, "edit_character", character="wang-lun", taels=-1)
    refused(t, "edit_character", character="wang-lun", colour="red")
    refused(t, "add_character", player="Alice", name="X", rank=1, star="lunaire", combat=1, esprit=1, magie=1, lieu="ville")
    refused(t, "add_character", player="Alice", name="X", rank=1, star="celeste", combat=1, esprit=1, magie=1, lieu="lune")
    t.ev("remove_character", character="wang-lun")
    assert t.js["characters"] == []


def test_remove_current_character_moves_on() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    t.ev("add_character", player="Alice", card="b3")
    t.ev("next_turn")
    t.ev("dice", lieu="ville")
    t.ev("remove_character", character="b2")
    assert t.expects["character"] == "b3" and t.expects["have"] == {}


# -- dice input -------------------------------------------------------------------------------------
def test_camera_list_form_with_all_dice_at_once() -> None:
    t = hero_table()
    dice = [
        {"kind": "lieu", "value": "montagne", "confidence": 0.97},
        {"kind": "adversaire", "value": "animal"},
        {"kind": "epreuve", "value": "combat"},
        {"kind": "recompense", "value": "banquet"},
        {"kind": "sentence", "value": "blessure"},
        {"kind": "d10", "value": 7},
        {"kind": "d10", "value": 0},  # the d10's 0 face is 10
        {"kind": "d6", "value": 4},  # combat trial: a d6 is the detail die
    ]
    t.raw("peripeties.dice", {"dice": dice}, source="camera")
    assert t.step == "trial" and t.expects["difficulty"] == 17
    assert t.js["episode"]["narration"]["lieu_detail"] == {"fr": "Pics", "en": "peaks"}
    t.raw("peripeties.dice", {"dice": [{"kind": "d10", "value": 9}]}, source="camera")  # the trial roll
    assert t.step == "travel"


def test_dice_in_several_events_and_labels_accepted() -> None:
    t = hero_table()
    t.ev("dice", lieu="Forêt", adversaire="Peasants", epreuve="Esprit")
    assert t.step == "episode"
    miss = {d["role"] for d in t.expects["dice"] if not d.get("optional")}
    assert miss == {"recompense", "sentence", "difficulty"}
    t.ev("dice", recompense="gourde", sentence="taels", difficulty=[4])
    assert [d for d in t.expects["dice"] if d["role"] == "difficulty"][0]["count"] == 1
    t.ev("dice", difficulty=[6])
    assert t.step == "trial" and t.expects["difficulty"] == 10


def test_conflicting_die_needs_correction() -> None:
    t = hero_table()
    t.ev("dice", **P1_DICE)
    refused(t, "dice", "input", lieu="ville")
    t.ev("dice", lieu="montagne")  # the same face again is harmless
    a = t.ev("dice", source="correction", lieu="ville", difficulty=[2, 2])
    assert t.expects["have"]["lieu"] == "ville" and t.expects["difficulty"] == 4
    assert [o for o in a.outcomes if o.kind == "episode.ready"][0].data["corrected"] is True
    t.ev("dice", source="correction", replace=True, lieu="temple")
    assert t.expects["have"] == {"lieu": "temple"} and t.step == "episode"
    t.ev("dice", **{**P1_DICE, "lieu": "temple"})
    t.ev("dice", trial=10)
    last = t.js["last"]
    assert last["name"] == "Héros" and last["turn"] == 1 and last["corrected"] is True


def test_correction_of_trial_type_drops_difficulty_of_wrong_kind() -> None:
    t = hero_table()
    t.ev("dice", **P1_DICE)
    a = t.ev("dice", source="correction", epreuve="magie")
    assert "difficulty.reroll" in kinds(a) and t.step == "episode"
    assert [d["kind"] for d in t.expects["dice"] if d["role"] == "difficulty"] == ["d6"]


def test_no_correction_after_the_roll() -> None:
    t = hero_table({"taels": 3})
    t.ev("dice", **P2_DICE)
    t.ev("dice", trial=2)
    assert t.step == "fine"
    refused(t, "dice", "input", source="correction", lieu="temple")


def test_bad_dice_input() -> None:
    t = hero_table()
    for bad in ({"lieu": "lune"}, {"difficulty": [11]}, {"dice": [{"kind": "d20", "value": 3}]},
                {"dice": [{"kind": "lieu"}]}, {"color": "blue"}, {}, {"dice": [{"kind": "lieu", "value": None, "status": "pending"}]}):
        e = refused(t, "dice", **bad)
        assert isinstance(e, EventError), bad
    refused(t, "dice", difficulty=[3, 4])  # kind unknown before the trial die
    assert isinstance(refused(t, "dice", **P1_DICE, trial=11), EventError)  # whole event refused
    refused(t, "dice", "input", **P1_DICE, trial=9, taels=3)  # more dice than needed


def test_roll_before_dice_complete_and_wrong_die() -> None:
    t = hero_table()
    t.ev("dice", lieu="ville")
    refused(t, "dice", "R10", trial=5)
    t.ev("dice", **{**P1_DICE, "lieu": "ville"})
    refused(t, "dice", "R10", dice=[{"kind": "d12", "value": 5}])  # a terrestrial star rolls a D10
    c = hero_table(star="celeste")
    c.ev("dice", **P1_DICE)
    e = refused(c, "dice", "R10", dice=[{"kind": "d10", "value": 5}])  # a celestial star rolls a D12
    assert "D12" in str(e)


def test_choices_refused_when_not_allowed() -> None:
    t = hero_table({"gourds": 1})
    t.ev("dice", **P2_DICE)  # a mind trial
    refused(t, "choose", "R14", gourd=True)
    refused(t, "choose", "R17", brother="b2")
    t2 = hero_table()
    t2.ev("dice", **P1_DICE)
    refused(t2, "choose", "R14", gourd=1)  # no gourd token


def test_unknown_event_and_field() -> None:
    t = hero_table()
    e = refused(t, "fly", x=1)
    assert isinstance(e, EventError) and "peripeties.dice" in str(e)
    refused(t, "choose", colour="red")


# -- trial -----------------------------------------------------------------------------------------
def test_brother_adds_value_and_location_bonus() -> None:
    t = hero_table({"brothers": ["b2"]})  # b2: esprit 4, favoured montagne
    t.ev("dice", **{**P2_DICE, "lieu": "montagne"})
    rows = {r["brother"]: r for r in t.expects["odds"]}
    assert rows[None]["modifier"] == 3 + 3  # esprit 3 + brother's location +3 (D4: any brother)
    assert rows["b2"]["modifier"] == 3 + 4 + 3
    t.ev("choose", brother="b2")
    assert t.expects["modifier"] == 10
    a = t.ev("dice", trial=2)
    assert [o for o in a.outcomes if o.kind.startswith("trial.")][0].data["total"] == 12


def test_wounds_count_only_in_combat() -> None:
    t = hero_table({"wounds": 1})
    t.ev("dice", **P2_DICE)
    assert t.expects["modifier"] == 3
    t2 = hero_table({"wounds": 1})
    t2.ev("dice", **P1_DICE)
    assert t2.expects["modifier"] == 3  # 5 - 2


def test_odds_agree_with_outcomes() -> None:
    """The odds shown before the roll count exactly the rolls that succeed."""
    t = hero_table({"gourds": 1, "brothers": ["b3"], "xp": {"combat": 1}, "wounds": 1})
    t.ev("dice", **{**P1_DICE, "lieu": "foret", "difficulty": [9, 8]})
    for row in t.expects["odds"]:
        t.ev("choose", gourd=row["gourd"], brother=row["brother"])
        wins = 0
        for r in range(1, 11):
            t.seq += 1
            from companion.events import parse_event

            ap = t.table.preview(parse_event({"type": "peripeties.dice", "data": {"trial": r}, "seq": t.seq}))
            t.seq -= 1
            wins += any(o.kind == "trial.success" for o in ap.outcomes)
        assert wins / 10 == pytest.approx(row["probability"]), row


def test_banquet_heals_only_with_tokens() -> None:
    t = hero_table({"wounds": 1})
    refused(t, "heal", "R22", character="heros")
    t2 = hero_table({"banquets": 1})
    refused(t2, "heal", "R22", character="heros")


def test_bribe_needs_taels_and_prison() -> None:
    t = hero_table({"taels": 5})
    refused(t, "bribe", "R21", character="heros")
    t.ev("edit_character", character="heros", prison=3)
    refused(t, "bribe", "R21", character="heros")  # 5 taels < 10


def test_dead_character_takes_no_part() -> None:
    t = T()
    t.ev("add_character", player="Alice", id="a", **{"name": "A", "rank": 1, "star": "terrestre", "combat": 1, "esprit": 1, "magie": 1, "lieu": "ville"})
    t.ev("add_character", player="Alice", card="b3")
    t.ev("next_turn")
    t.ev("dice", **P1_DICE)
    t.ev("dice", trial=2)
    assert [d["id"] for d in t.js["dead"]] == ["a"]
    assert t.expects["character"] == "b3"
    t.ev("dice", **P1_DICE)
    t.ev("dice", trial=9)
    t.ev("next_turn")
    assert t.expects["character"] == "b3"  # the dead one is never queued again
    refused(t, "edit_character", "R23", character="a", taels=3)


def test_describe_both_languages() -> None:
    t = hero_table({"taels": 4, "gourds": 1})
    t.ev("dice", **P1_DICE, detail=1)
    g = find_game("peripeties")
    fr = g.describe(t.table.state, "fr")
    en = g.describe(t.table.state, "en")
    assert "Héros" in fr and "4 taels" in fr and "jet d'épreuve attendu" in fr
    assert "waiting for the trial roll" in en and "1 gourd(s)" in en
    assert "collines" in fr and "hills" in en  # the detail D6 in the narration


def test_edit_during_trial_drops_impossible_choices() -> None:
    t = hero_table({"gourds": 1, "brothers": ["b3"]})
    t.ev("dice", **P1_DICE)
    t.ev("choose", gourd=1, brother="b3")
    t.ev("edit_character", character="heros", gourds=0, brothers=[])
    assert t.js["episode"]["gourd"] == 0 and t.js["episode"]["brother"] is None
    t.ev("dice", trial=9)
    assert t.tokens("heros")["gourds"] == 0


def test_refusals_speak_both_languages() -> None:
    t = hero_table({"taels": 5})
    t.ev("edit_character", character="heros", prison=3)
    e = refused(t, "bribe", "R21", character="heros")
    assert e.text["fr"].startswith("Héros a 5 taels") and "Héros has 5 taels" in e.text["en"]  # type: ignore[attr-defined]
    assert str(e).startswith(e.text["fr"])  # type: ignore[attr-defined]


def test_camera_reading_the_whole_tray_again() -> None:
    """At the trial, the camera still sees the episode dice: identical dice are harmless and
    the D10 left over after the difficulty dice is the trial roll."""
    t = hero_table()
    tray = [{"kind": k, "value": v} for k, v in (("lieu", "montagne"), ("adversaire", "animal"), ("epreuve", "combat"),
                                                 ("recompense", "banquet"), ("sentence", "blessure"))]
    t.raw("peripeties.dice", {"dice": tray + [{"kind": "d10", "value": 7}, {"kind": "d10", "value": 8}]}, source="camera")
    t.raw("peripeties.dice", {"dice": tray + [{"kind": "d10", "value": 8}, {"kind": "d10", "value": 10}, {"kind": "d10", "value": 7}]}, source="camera")
    assert t.js["last"]["roll"] == 10 and t.js["last"]["success"] is True


def test_dice_for_another_character_refused() -> None:
    t = T()
    t.ev("add_character", player="A", card="b2")
    t.ev("add_character", player="A", card="b3")
    t.ev("next_turn")
    refused(t, "dice", "input", character="b3", lieu="ville")
    t.ev("dice", character="b2", lieu="ville")
