"""The spec's scenarios P1-P11 (rules/peripeties.md section 5), through the Table."""

from __future__ import annotations

import pytest

from companion.errors import RuleError

from tests.companion.games.peripeties.test_peripeties_kit import P1_DICE, P2_DICE, T, hero_table, kinds


# -- P1: mountain / animal / combat ------------------------------------------------------
def test_p1_episode_record() -> None:
    t = hero_table({"xp": {"combat": 1}})
    a = t.ev("dice", **P1_DICE)
    ready = [o for o in a.outcomes if o.kind == "episode.ready"][0]
    assert ready.data["lieu"] == "montagne" and ready.data["adversaire"] == "animal"
    assert ready.data["epreuve"] == "combat" and ready.data["difficulty"] == 15 and ready.data["scale"] == 20
    assert ready.data["recompense"] == "banquet" and ready.data["sentence"] == "blessure"
    assert t.step == "trial"
    assert t.expects["dice"] == [{"kind": "d10", "role": "trial", "count": 1, "by": "Alice",
                                  "label": {"fr": "1×D10 (jet d'épreuve)", "en": "1×d10 (trial roll)"}}]
    assert t.expects["modifier"] == 6  # combat 5 + one +1 token


def test_p1a_success_banquet_and_experience() -> None:
    t = hero_table({"xp": {"combat": 1}})
    t.ev("dice", **P1_DICE)
    a = t.ev("dice", trial=9)  # 9 + 5 + 1 = 15 >= 15
    assert kinds(a)[:3] == ["trial.success", "xp.gain", "reward.banquet"]
    tok = t.tokens("heros")
    assert tok["banquets"] == 1 and tok["xp"]["combat"] == 2
    assert t.char("heros")["effective"]["combat"] == 7
    assert t.char("heros")["travel"] == {"may_travel": True, "moves": 2}  # R13: two cells this turn
    assert t.step == "travel"


def test_p1b_failure_wound_alive() -> None:
    t = hero_table({"xp": {"combat": 1}})
    t.ev("dice", **P1_DICE)
    a = t.ev("dice", trial=8)  # 14 < 15
    assert "trial.failure" in kinds(a) and "sentence.wound" in kinds(a)
    assert t.tokens("heros")["wounds"] == 1
    assert t.char("heros")["effective"]["combat"] == 4


def test_p1c_gourd_turns_failure_into_success() -> None:
    t = hero_table({"xp": {"combat": 1}, "gourds": 1})
    t.ev("dice", **P1_DICE)
    t.ev("choose", gourd=True)
    a = t.ev("dice", trial=8)  # 8 + 5 + 1 + 5 = 19
    res = [o for o in a.outcomes if o.kind == "trial.success"][0]
    assert res.data["total"] == 19
    assert t.tokens("heros")["gourds"] == 0


def test_p1d_natural_one_fails_gourd_spent() -> None:
    t = hero_table({"xp": {"combat": 1}, "gourds": 1}, lieu="montagne")
    t.ev("dice", **P1_DICE)
    a = t.ev("dice", trial=1, gourd=True)  # 1 + 5 + 1 + 5 + 5 = 17 >= 15, still a failure
    fail = [o for o in a.outcomes if o.kind == "trial.failure"][0]
    assert fail.data["total"] == 17 and fail.data["natural"] == "one"
    assert t.tokens("heros")["gourds"] == 0 and t.tokens("heros")["wounds"] == 1


def test_p1e_favoured_location() -> None:
    t = hero_table({"xp": {"combat": 1}}, lieu="montagne")
    t.ev("dice", **P1_DICE)
    assert t.expects["modifier"] == 11
    a = t.ev("dice", trial=4)  # 4 + 5 + 1 + 5 = 15
    assert "trial.success" in kinds(a)


# -- P2: town / mandarin / mind ------------------------------------------------------------
def test_p2a_success_sworn_brother_by_rank_software_pile() -> None:
    t = hero_table(rank=5, name="Cinquième")
    pile_before = t.table.state.pile
    t.ev("dice", **P2_DICE)
    a = t.ev("dice", trial=9)  # esprit 3 + 9 = 12 >= 8
    assert "reward.brother" in kinds(a) and "xp.gain" in kinds(a)
    brothers = t.char("heros")["brothers"]
    assert len(brothers) == 1 and brothers[0]["rank"] > 5  # rank 1 is the most senior
    # every card drawn before it was of higher (or equal) rank and went to the discard pile
    i = pile_before.index(brothers[0]["id"])
    rejected = list(pile_before[:i])
    deck = {c["id"]: c for c in t.js["deck"]["cards"]}
    assert all(deck[c]["rank"] <= 5 for c in rejected)
    assert t.js["deck"]["discard"] == rejected
    assert t.tokens("heros")["xp"]["esprit"] == 1


def test_p2a_table_draw_rejects_then_accepts() -> None:
    t = hero_table(rank=5, options={"brother_draw": "table"})
    t.ev("dice", **P2_DICE)
    t.ev("dice", trial=9)
    assert t.step == "brother_card"
    a = t.ev("choose", card="b2")  # rank 2: more senior, rejected
    assert kinds(a) == ["reward.card_rejected"] and t.step == "brother_card"
    with pytest.raises(RuleError):
        t.ev("choose", card="b2")  # now in the discard pile, not in the draw pile
    t.ev("choose", card="b7")
    assert [b["id"] for b in t.char("heros")["brothers"]] == ["b7"]
    assert "b2" in t.js["deck"]["discard"]


def test_p2b_fine_shortfall_rerolls_sentence() -> None:
    t = hero_table({"taels": 5})
    t.ev("dice", **P2_DICE)
    t.ev("dice", trial=2)  # 2 + 3 = 5 < 8
    assert t.step == "fine"
    a = t.ev("dice", taels=7)
    assert "sentence.fine_short" in kinds(a) and t.tokens("heros")["taels"] == 0
    assert t.step == "sentence_reroll"
    assert t.expects["dice"][0]["kind"] == "sentence"
    t.ev("dice", sentence="voyage")
    assert t.tokens("heros")["immobilised"] == 1
    assert t.js["last"]["sentences"] == ["taels", "voyage"]
    # the episode's record gathers the results of its three events, in order
    assert [r["kind"] for r in t.js["last"]["results"]] == [
        "trial.failure", "sentence.fine_roll", "sentence.fine_short", "sentence.reroll", "sentence.immobilised"]


def test_p2c_exact_fine_no_reroll() -> None:
    t = hero_table({"taels": 7})
    t.ev("dice", **P2_DICE)
    t.ev("dice", trial=2)
    a = t.ev("dice", taels=7)
    assert "sentence.fine" in kinds(a) and t.tokens("heros")["taels"] == 0
    assert t.step == "travel"


# -- P3: magic difficulty is 2D6 ---------------------------------------------------------------
def test_p3_magic_difficulty_is_2d6() -> None:
    t = hero_table()
    t.ev("dice", lieu="temple", adversaire="nature", epreuve="magie", recompense="gourde", sentence="voyage")
    diff = [d for d in t.expects["dice"] if d["role"] == "difficulty"]
    assert diff == [{"kind": "d6", "role": "difficulty", "count": 2, "by": "Alice",
                     "label": {"fr": "2×D6 (difficulté)", "en": "2×d6 (difficulty)"}}]
    before = t.dump()
    with pytest.raises(RuleError) as e:
        t.ev("dice", dice=[{"kind": "d10", "value": 7, "role": "difficulty"}, {"kind": "d10", "value": 8, "role": "difficulty"}])
    assert e.value.rule == "R6" and t.dump() == before
    t.ev("dice", dice=[{"kind": "d6", "value": 6}, {"kind": "d6", "value": 5}])
    assert t.expects["difficulty"] == 11 and t.step == "trial"


# -- P4: natural results ------------------------------------------------------------------------
def test_p4_natural_ten_on_d10_succeeds() -> None:
    t = hero_table(esprit=1)
    t.ev("dice", lieu="ville", adversaire="mandarin", epreuve="esprit", recompense="gourde", sentence="voyage", difficulty=[10, 10])
    a = t.ev("dice", trial=10)
    ok = [o for o in a.outcomes if o.kind == "trial.success"][0]
    assert ok.data["natural"] == "max" and ok.data["total"] == 11


def test_p4_natural_one_on_d12_fails() -> None:
    t = hero_table(star="celeste", combat=9)
    t.ev("dice", lieu="ville", adversaire="soldats", epreuve="combat", recompense="gourde", sentence="voyage", difficulty=[2, 3])
    a = t.ev("dice", trial=1)
    assert "trial.failure" in kinds(a)


def test_p4_ten_on_d12_is_not_automatic() -> None:
    t = hero_table(star="celeste", combat=1)
    t.ev("dice", lieu="ville", adversaire="soldats", epreuve="combat", recompense="gourde", sentence="voyage", difficulty=[10, 10])
    with pytest.raises(RuleError) as e:
        t.ev("dice", dice=[{"kind": "d10", "value": 10, "role": "trial"}])
    assert e.value.rule == "R10"
    a = t.ev("dice", trial=10)
    fail = [o for o in a.outcomes if o.kind == "trial.failure"][0]
    assert fail.data["natural"] is None and fail.data["total"] == 11


# -- P5: experience caps ------------------------------------------------------------------------
def test_p5_cap_per_characteristic() -> None:
    t = hero_table({"xp": {"combat": 4}})
    t.ev("dice", **P1_DICE)
    a = t.ev("dice", trial=9)
    assert "xp.capped" in kinds(a) and t.tokens("heros")["xp"]["combat"] == 4


def test_p5_cap_total() -> None:
    t = hero_table({"xp": {"combat": 4, "esprit": 3, "magie": 1}})
    t.ev("dice", lieu="temple", adversaire="nature", epreuve="magie", recompense="gourde", sentence="voyage", difficulty=[1, 1])
    a = t.ev("dice", trial=5)
    assert "xp.capped" in kinds(a) and t.tokens("heros")["xp"] == {"combat": 4, "esprit": 3, "magie": 1}


# -- P6: seventh brother --------------------------------------------------------------------------
SIX = ["b2", "b3", "b4", "b5", "b6", "b7"]


def test_p6_reward_rerolled_when_read() -> None:
    t = hero_table({"brothers": SIX})
    t.ev("dice", **{**P2_DICE, "recompense": "frere"})
    assert t.step == "episode"
    assert {"kind": "recompense", "role": "recompense", "count": 1, "by": "Alice", "reroll": True, "rule": "R16",
            "label": {"fr": "dé de récompense (relance)", "en": "reward die (re-roll)"}} in t.expects["dice"]
    t.ev("dice", recompense="frere")  # again: still waiting
    assert t.step == "episode"
    t.ev("dice", recompense="banquet")
    assert t.step == "trial" and t.expects["have"]["recompense_rolls"] == ["frere", "frere", "banquet"]
    a = t.ev("dice", trial=9)
    assert "reward.banquet" in kinds(a) and len(t.char("heros")["brothers"]) == 6


def test_p6_reward_rerolled_when_applied() -> None:
    t = hero_table({"brothers": SIX}, options={"reward_reroll": "on_apply"})
    t.ev("dice", **P2_DICE)
    assert t.step == "trial"
    t.ev("dice", trial=9)
    assert t.step == "reward_reroll"
    t.ev("dice", recompense="frere")
    assert t.step == "reward_reroll"
    t.ev("dice", recompense="taels")
    t.ev("dice", taels=4)
    assert t.tokens("heros")["taels"] == 4 and len(t.char("heros")["brothers"]) == 6


# -- P7: prison ---------------------------------------------------------------------------------------
def _to_prison(t: T) -> None:
    t.ev("dice", **{**P1_DICE, "sentence": "bagne"})
    t.ev("dice", trial=2)
    assert t.step == "prison"


def test_p7_prison_with_bribery() -> None:
    t = hero_table({"taels": 30, "brothers": ["b7", "b8"]})
    _to_prison(t)
    assert t.char("heros")["brothers"] == []
    assert t.js["deck"]["hands"]["Alice"] == ["b7", "b8"]  # D17: back to the player's hand
    assert t.expects["choices"][0]["name"] == "cell"
    t.ev("cell", character="heros", cell="C7")
    t.ev("dice", prison=3)
    assert t.tokens("heros")["prison"] == 3 and t.tokens("heros")["taels"] == 30
    t.ev("bribe", character="heros", turns=2)
    assert t.tokens("heros")["prison"] == 1 and t.tokens("heros")["taels"] == 10
    before = t.dump()
    with pytest.raises(RuleError) as e:
        t.ev("bribe", character="heros", turns=1)
    assert e.value.rule == "R21" and t.dump() == before
    a = t.ev("next_turn")
    assert "prison.freed" in kinds(a) and t.tokens("heros")["prison"] == 0
    assert t.step == "travel" and t.char("heros")["travel"]["may_travel"]


def test_p7_prison_without_bribery() -> None:
    t = hero_table()
    _to_prison(t)
    t.ev("dice", prison=3)
    assert not t.char("heros")["travel"]["may_travel"]
    t.ev("next_turn")  # turn 2: 2 left
    assert t.tokens("heros")["prison"] == 2 and t.step == "travel"
    assert not t.char("heros")["travel"]["may_travel"]
    t.ev("next_turn")  # turn 3: 1 left
    assert t.tokens("heros")["prison"] == 1 and not t.char("heros")["travel"]["may_travel"]
    a = t.ev("next_turn")  # turn 4: freed, no episode, may travel
    assert "prison.freed" in kinds(a) and t.step == "travel"
    assert t.char("heros")["travel"]["may_travel"]
    t.ev("next_turn")  # turn 5: plays an episode
    assert t.step == "episode" and t.expects["character"] == "heros"


# -- P8: immobilised ----------------------------------------------------------------------------------
def test_p8_immobilised() -> None:
    t = hero_table()
    t.ev("dice", **{**P1_DICE, "sentence": "voyage"})
    t.ev("dice", trial=2)
    assert t.tokens("heros")["immobilised"] == 1
    assert t.char("heros")["travel"]["may_travel"] is False
    a = t.ev("next_turn")
    assert "immobilised.discarded" in kinds(a)
    assert t.tokens("heros")["immobilised"] == 0 and t.step == "travel"
    assert t.char("heros")["travel"]["may_travel"] is True


# -- P9: death ------------------------------------------------------------------------------------------
def test_p9_death_at_zero() -> None:
    t = hero_table({"brothers": ["b7"]}, combat=2)
    t.ev("dice", **P1_DICE)
    a = t.ev("dice", trial=2)
    assert "death" in kinds(a)
    assert t.js["characters"] == [] and t.js["dead"][0]["id"] == "heros"
    assert {"b7"} <= set(t.js["deck"]["discard"])
    with pytest.raises(RuleError) as e:
        t.ev("heal", character="heros")
    assert e.value.rule == "R23"


def test_p9_death_with_experience_and_old_wound() -> None:
    t = hero_table({"xp": {"combat": 1}, "wounds": 1}, combat=3)
    assert t.char("heros")["effective"]["combat"] == 2
    t.ev("dice", **P1_DICE)
    a = t.ev("dice", trial=2)
    assert "death" in kinds(a)


# -- P10: healing ----------------------------------------------------------------------------------------
def test_p10_heal_with_banquet() -> None:
    t = hero_table({"wounds": 1, "banquets": 1})
    t.ev("heal", character="heros")
    assert t.tokens("heros")["wounds"] == 0 and t.tokens("heros")["banquets"] == 0


# -- P11: sentence chain to prison ------------------------------------------------------------------------
def test_p11_no_taels_fine_rerolls_to_prison() -> None:
    t = hero_table()
    t.ev("dice", **P2_DICE)
    a = t.ev("dice", trial=2)
    assert "sentence.fine_empty" in kinds(a) and t.step == "sentence_reroll"
    a = t.ev("dice", sentence="bagne")
    assert "sentence.bagne" in kinds(a) and t.step == "prison"


def test_p2b_whole_chain_in_one_keyed_event() -> None:
    """The keyed form has no order: the dice follow the R19 chain (fine, then re-roll)."""
    t = hero_table({"taels": 5})
    t.ev("dice", **P2_DICE)
    t.ev("dice", sentence="voyage", taels=7, trial=2)
    assert t.tokens("heros")["taels"] == 0 and t.tokens("heros")["immobilised"] == 1
    assert t.js["last"]["sentences"] == ["taels", "voyage"]
