"""Every decision D1-D19 is a named option; each non-default value changes the play."""

from __future__ import annotations

import copy
import json

import pytest

from companion.dice import DEFAULT_DICE_PATH
from companion.errors import CompanionError, EventError, RuleError
from companion.games.peripeties.options import OPTION_SPECS, default_options

from tests.companion.games.peripeties.test_peripeties_kit import P1_DICE, P2_DICE, T, hero_table, kinds


def test_every_decision_has_an_option() -> None:
    decisions = set()
    for s in OPTION_SPECS:
        for d in s.decision.split("/"):
            decisions.add(d)
    assert {f"D{i}" for i in range(1, 20)} <= decisions
    assert default_options() == {s.name: s.default for s in OPTION_SPECS}


@pytest.mark.parametrize("bad", [{"brother_mode": "both"}, {"gourds_per_trial": -1}, {"ask_convict_cell": "yes"},
                                 {"deck": {"cards": [{"name": "X"}]}}, {"dice_faces": {"kinds": {}}}])
def test_bad_options_refused(bad: dict) -> None:
    with pytest.raises(EventError):
        T(options=bad)


def test_d1_d2_table_dice_file() -> None:
    faces = json.loads(DEFAULT_DICE_PATH.read_text(encoding="utf-8"))
    custom = copy.deepcopy(faces)
    for f in custom["kinds"]["lieu"]["faces"]:
        if f["key"] == "foret":
            f["fr"] = "Bois sacré"
    t = T(options={"dice_faces": custom})
    lieu = {f["key"]: f for f in t.js["dice_faces"]["lieu"]}
    assert lieu["foret"]["fr"] == "Bois sacré"
    t.ev("add_character", player="A", card="b2")
    t.ev("next_turn")
    t.ev("dice", lieu="Bois sacré")
    assert t.expects["have"]["lieu"] == "foret"


def test_d3_brother_replaces() -> None:
    t = hero_table({"brothers": ["b2"]}, options={"brother_mode": "replace"})
    t.ev("dice", **P2_DICE)
    rows = {r["brother"]: r["modifier"] for r in t.expects["odds"]}
    assert rows == {None: 3, "b2": 4}


def test_d3_no_brother_per_trial() -> None:
    t = hero_table({"brothers": ["b2"]}, options={"brothers_per_trial": 0})
    t.ev("dice", **P2_DICE)
    assert [r["brother"] for r in t.expects["odds"]] == [None]
    with pytest.raises(RuleError):
        t.ev("choose", brother="b2")


def test_d4_cumulative_and_used_brother_location() -> None:
    dice = {**P1_DICE, "lieu": "foret"}
    best = hero_table({"brothers": ["b3", "b9"]})  # hero and both brothers favour the forest
    best.ev("dice", **dice)
    assert {r["brother"]: r["modifier"] for r in best.expects["odds"]}[None] == 5 + 5
    cum = hero_table({"brothers": ["b3", "b9"]}, options={"location_bonus": "cumulative"})
    cum.ev("dice", **dice)
    assert {r["brother"]: r["modifier"] for r in cum.expects["odds"]}[None] == 5 + 5 + 3 + 3
    used = hero_table({"brothers": ["b3"]}, lieu="ville", options={"brother_location": "used"})
    used.ev("dice", **dice)
    rows = {r["brother"]: r["modifier"] for r in used.expects["odds"]}
    assert rows == {None: 5, "b3": 5 + 3 + 3}


def test_d5_rank_direction_and_equal_rank() -> None:
    t = hero_table(rank=5, options={"brother_draw": "table", "rank_order": "1_is_lowest"})
    t.ev("dice", **P2_DICE)
    t.ev("dice", trial=9)
    assert kinds(t.ev("choose", card="b7")) == ["reward.card_rejected"]
    t.ev("choose", card="b4")
    assert [b["id"] for b in t.char("heros")["brothers"]] == ["b4"]
    eq = hero_table(rank=5, options={"brother_draw": "table", "equal_rank": "accept"})
    eq.ev("dice", **P2_DICE)
    eq.ev("dice", trial=9)
    eq.ev("choose", card="b5")
    assert [b["id"] for b in eq.char("heros")["brothers"]] == ["b5"]


def test_d5_empty_pile_stop_or_reshuffle() -> None:
    # Every other card is more senior than a rank-9 hero: the pile runs out.
    stop = hero_table(rank=9)
    stop.ev("dice", **P2_DICE)
    a = stop.ev("dice", trial=9)
    assert "reward.no_brother" in kinds(a) and stop.table.state.pile == ()
    res = hero_table(rank=9, options={"empty_pile": "reshuffle"})
    res.ev("dice", **P2_DICE)
    a = res.ev("dice", trial=9)
    assert kinds(a).count("deck.reshuffled") == 1 and "reward.no_brother" in kinds(a)


def test_d6_banquet_discarded_after_travel() -> None:
    keep = hero_table()
    keep.ev("dice", **P1_DICE)
    keep.ev("dice", trial=10)
    keep.ev("next_turn")
    assert keep.tokens("heros")["banquets"] == 1
    drop = hero_table(options={"banquet_token": "discard_after_travel"})
    drop.ev("dice", **P1_DICE)
    drop.ev("dice", trial=10)
    assert drop.tokens("heros")["banquets"] == 1
    drop.ev("next_turn")
    assert drop.tokens("heros")["banquets"] == 0


def test_d7_gourd_after_the_roll_and_several_gourds() -> None:
    t = hero_table({"gourds": 2}, options={"gourd_timing": "after", "gourds_per_trial": 2})
    t.ev("dice", **{**P1_DICE, "difficulty": [10, 10]})
    assert [r["gourd"] for r in t.expects["odds"]] == [0, 1, 2]
    t.ev("dice", trial=9)  # 9 + 5 = 14 < 20: a gourd could change it
    assert t.step == "gourd" and t.expects["choices"][0]["values"] == [0, 1, 2]
    a = t.ev("choose", gourd=2)  # 24
    assert "trial.success" in kinds(a) and t.tokens("heros")["gourds"] == 0
    before = hero_table({"gourds": 1})
    before.ev("dice", **P1_DICE)
    before.ev("dice", trial=2)
    assert before.step == "travel"  # default: declared before, no second chance


def test_d8_bribe_at_sentence_only_and_other_payer() -> None:
    t = T(options={"bribe_timing": "sentence", "bribe_payer": "player"})
    t.ev("add_character", player="A", card="b2", taels=0)
    t.ev("add_character", player="A", card="b3", taels=25)
    t.ev("next_turn")
    t.ev("dice", **{**P1_DICE, "sentence": "bagne"})
    t.ev("dice", trial=2)
    t.ev("dice", prison=4)
    assert t.step == "bribe" and t.expects["choices"][0]["values"] == [0, 1, 2]  # 25 taels
    t.ev("bribe", character="b2", payer="b3", turns=2)
    assert t.tokens("b2")["prison"] == 2 and t.tokens("b3")["taels"] == 5
    assert t.expects["character"] == "b3"
    t.ev("edit_character", character="b3", taels=40)
    with pytest.raises(RuleError) as e:
        t.ev("bribe", character="b2", payer="b3")
    assert e.value.rule == "D8"


def test_d9_no_cell_asked() -> None:
    t = hero_table(options={"ask_convict_cell": False})
    t.ev("dice", **{**P1_DICE, "sentence": "bagne"})
    t.ev("dice", trial=2)
    assert t.step == "prison" and t.expects["choices"] == []


def test_d10_fine_equal_rerolls() -> None:
    t = hero_table({"taels": 7}, options={"fine_shortfall": "fewer_or_equal"})
    t.ev("dice", **P2_DICE)
    t.ev("dice", trial=2)
    t.ev("dice", taels=7)
    assert t.step == "sentence_reroll"


def test_d11_death_threshold() -> None:
    t = hero_table({"wounds": 1}, combat=4, options={"death_at": 1})  # 4 - 2 = 2 > 1
    t.ev("dice", **P1_DICE)
    assert "death" in kinds(t.ev("dice", trial=2))  # 4 - 4 = 0 <= 1


def test_d12_xp_on_lowest_when_capped() -> None:
    t = hero_table({"xp": {"combat": 4, "esprit": 1}}, options={"xp_at_cap": "lowest"})
    t.ev("dice", **P1_DICE)
    t.ev("dice", trial=9)
    assert t.tokens("heros")["xp"] == {"combat": 4, "esprit": 1, "magie": 1}


def test_d13_naturals_ignored() -> None:
    t = hero_table(options={"naturals": "ignore"}, esprit=1)
    t.ev("dice", **{**P2_DICE, "difficulty": [10, 10]})
    assert "trial.failure" in kinds(t.ev("dice", trial=10))


def test_d14_detail_dice() -> None:
    none = hero_table(options={"detail_dice": "none"})
    assert all(d["role"] != "detail" for d in none.expects["dice"])
    with pytest.raises(RuleError):
        none.ev("dice", detail=3)
    two = hero_table(options={"detail_dice": "two"})
    two.ev("dice", **P1_DICE, detail=[1, 6])
    n = two.js["episode"]["narration"]
    assert n["lieu_detail"]["fr"] == "Collines" and n["adversaire_detail"]["fr"] == "Singe Gorille"


def test_d15_next_player_self() -> None:
    t = T(options={"next_player": "self"})
    t.ev("add_character", player="A", card="b2")
    t.ev("add_player", name="B")
    t.ev("next_turn")
    assert {d["by"] for d in t.expects["dice"]} == {"A"}


def test_d17_brothers_discarded_on_bagne() -> None:
    t = hero_table({"brothers": ["b7"]}, options={"bagne_brothers": "discard"})
    t.ev("dice", **{**P1_DICE, "sentence": "bagne"})
    t.ev("dice", trial=2)
    assert "b7" in t.js["deck"]["discard"] and t.js["deck"]["hands"] == {}


def test_d18_heal_only_in_travel() -> None:
    t = hero_table({"wounds": 1, "banquets": 1}, options={"heal_timing": "travel"})
    with pytest.raises(RuleError) as e:
        t.ev("heal", character="heros")
    assert e.value.rule == "D18"
    t.ev("dice", **{**P1_DICE, "sentence": "voyage"})
    t.ev("dice", trial=2)
    t.ev("heal", character="heros")
    assert t.tokens("heros")["wounds"] == 0


@pytest.mark.parametrize("mode,prison_after", [("both", 1), ("immobilised_only", 2)])
def test_d19_immobilised_and_prison(mode: str, prison_after: int) -> None:
    t = hero_table({"immobilised": 1, "prison": 2}, options={"immobilised_and_prison": mode})
    assert t.tokens("heros")["immobilised"] == 0 and t.tokens("heros")["prison"] == prison_after


def test_deck_event_in_setup_only() -> None:
    t = T()
    t.ev("deck", cards=[{"name": "Seul", "rank": 3, "star": "terrestre", "combat": 1, "esprit": 1, "magie": 1, "lieu": "ville"}])
    assert t.table.state.pile == ("seul",)
    t.ev("add_character", player="A", card="seul")
    with pytest.raises(CompanionError):
        t.ev("deck", cards=[])
