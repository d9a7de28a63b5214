"""The Shayo game through the table: the spec's scenarios S1–S9, Ki, signatures,
corrections, sheets and the tablet's ``expects``."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import CompanionError, EventError, RuleError
from companion.events import parse_event
from companion.games.shayo.odds import as_floats, net_distribution, pool_from
from companion.table import Table, event_rng

AIKO = {"name": "Aiko", "attributes": {"INS": 3, "AGI": 4, "FOR": 3},
        "skills": {"Kenjutsu": 3, "Méditation": 1, "Forge": 3},
        "signatures": {"kenjutsu": ["relance_echec"]}, "aspect": "terre", "aspect_value": 2,
        "weapons": {"katana": {"dice": 2, "fixed": 1, "solidity": 5}}}
REN = {"name": "Ren", "attributes": {"INS": 2, "AGI": 3}, "skills": {"Kenjutsu": 2, "Esquive": 2},
       "armour": {"sd": 6, "protection": 2, "solidity": 4}}
SORA = {"name": "Sora", "attributes": {"INS": 4, "AGI": 2}, "skills": {}}


class T:
    """A table with a Shayo game and numbered events."""

    def __init__(self, options: dict[str, Any] | None = None, seed: int = 7) -> None:
        self.table = Table()
        self.seq = 0
        self.send("table.new_game", {"game": "shayo", "options": options or {}, "seed": seed})

    def send(self, etype: str, data: dict[str, Any] | None = None, source: str = "manual"):
        self.seq += 1
        ev = parse_event({"type": etype, "data": data or {}, "source": source, "seq": self.seq})
        return self.table.apply(ev)

    def refused(self, etype: str, data: dict[str, Any] | None = None, rule: str | None = None) -> str:
        before = self.table.state
        before_json = self.json
        with pytest.raises(CompanionError) as err:
            self.send(etype, data)
        self.seq -= 1
        assert self.table.state is before
        assert self.json == before_json
        if rule is not None:
            assert isinstance(err.value, RuleError) and err.value.rule == rule
        said = getattr(err.value, "text", None)  # the tablet's French, and English
        assert isinstance(said, dict) and said["fr"] and said["en"] and said["fr"] != said["en"], err.value
        return str(err.value)

    @property
    def json(self) -> dict[str, Any]:
        return self.table.to_json()["state"]

    @property
    def last(self) -> dict[str, Any]:
        return self.json["last"]

    def char(self, name: str) -> dict[str, Any]:
        return next(c for c in self.json["characters"] if c["name"] == name)


# -- S1–S3: the core test ---------------------------------------------------------------------
@pytest.mark.parametrize("scope,kept,net", [
    ("all_rolled", [8, 6], 1), ("kept_only", [8, 6], 2), ("ones_forced_kept", [8, 1], 0)])
def test_s1_basic_keep(scope: str, kept: list[int], net: int) -> None:
    t = T({"ones_scope": scope})
    t.send("shayo.test", {"attribute": 4, "skill": 2, "difficulty": 6})
    assert t.json["expects"]["dice"] == [{"kind": "d10", "count": 4}]
    t.send("shayo.roll", {"dice": [8, 3, 1, 6]})
    last = t.last
    assert sorted(last["kept_values"], reverse=True) == kept
    assert last["net"] == net
    assert last["success"] == (net >= 1)


def test_s2_ones_wipe_out() -> None:
    t = T()
    t.send("shayo.test", {"attribute": 3, "skill": 2, "difficulty": 7})
    res = t.send("shayo.roll", {"dice": [1, 1, 7]})
    assert t.last["successes"] == 1 and t.last["ones"] == 2 and t.last["net"] == 0
    assert t.last["cancelled"] == 1
    assert t.last["success"] is False
    assert res.outcomes[-1].kind == "test.failure"


def test_s3_keep_more_than_rolled() -> None:
    t = T()
    t.send("shayo.test", {"attribute": 2, "skill": 4, "difficulty": 5})
    exp = t.json["expects"]
    assert exp["dice"][0]["count"] == 2 and exp["keep"] == 4
    t.send("shayo.roll", {"dice": [5, 9]})
    assert len(t.last["kept"]) == 2 and t.last["net"] == 2


def test_a5_nothing_to_roll_counts_zero() -> None:
    t = T()
    t.send("shayo.test", {"attribute": 2, "skill": 3, "difficulty": 5, "modifiers": {"rolled": -2}})
    assert t.json["test"] is None and t.last["net"] == 0 and t.last["success"] is False


def test_absurd_pool_is_refused() -> None:
    T().refused("shayo.test", {"attribute": 5, "skill": 2, "difficulty": 6, "modifiers": {"rolled": 500}}, rule="A5")


def test_zero_reads_ten_and_wrong_count_is_refused() -> None:
    t = T()
    t.send("shayo.test", {"attribute": 3, "skill": 1, "difficulty": 10})
    msg = t.refused("shayo.roll", {"dice": [1, 2]}, rule="R3")
    assert "3 d10" in msg
    t.refused("shayo.roll", {"dice": [1, 2, 11]})
    t.send("shayo.roll", {"dice": [0, 2, 3]}, source="camera")
    assert t.last["dice"] == [10, 2, 3] and t.last["net"] == 1


# -- S4–S6: Ki ------------------------------------------------------------------------------------
def test_s4_ki_cap_is_ins() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    t.refused("shayo.test", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu", "difficulty": 6,
                             "ki": {"rolled": 2, "kept": 2}}, rule="R6")
    t.send("shayo.test", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu", "difficulty": 6,
                          "ki": {"rolled": 2, "kept": 1}})
    exp = t.json["expects"]
    assert exp["dice"][0]["count"] == 4 + 2 and exp["keep"] == 3 + 1
    assert t.char("Aiko")["ki"]["personal_left"] == 6 - 3


def test_ki_redeclared_before_the_roll_is_refunded() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    t.send("shayo.test", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu", "difficulty": 6,
                          "ki": {"rolled": 3}})
    t.send("shayo.ki", {"rolled": 1, "kept": 0})
    assert t.char("Aiko")["ki"]["personal_left"] == 5
    assert t.json["expects"]["dice"][0]["count"] == 5
    t.send("shayo.roll", {"dice": [2, 3, 4, 5, 6]})
    t.refused("shayo.ki", {"rolled": 1}, rule="R6")


def test_s5_pools_and_extra_action() -> None:
    t = T()
    t.send("shayo.character", AIKO)  # INS 3 + Terre 2 + Méditation 1
    t.send("shayo.character", REN)  # INS 2
    t.send("shayo.character", SORA)  # INS 4
    assert t.char("Aiko")["ki"]["personal_max"] == 6
    assert t.json["group_pool"] == {"max": 9, "left": 9}
    t.refused("shayo.spend_ki", {"who": "Aiko", "use": "extra_action", "amount": 4}, rule="R6")
    t.send("shayo.spend_ki", {"who": "Aiko", "use": "extra_action", "from": {"personal": 2, "group": 3}})
    assert t.char("Aiko")["ki"]["personal_left"] == 4
    assert t.json["group_pool"]["left"] == 6
    t.refused("shayo.spend_ki", {"who": "Aiko", "use": "spell", "amount": 3, "from": {"personal": 5}}, rule="R5")


def test_s6_surpass_oneself() -> None:
    t = T()
    t.send("shayo.character", {"name": "Kenji", "attributes": {"INS": 0}, "skills": {}})
    assert t.char("Kenji")["ki"]["personal_max"] == 0 and t.json["group_pool"]["max"] == 0
    t.refused("shayo.spend_ki", {"who": "Kenji", "use": "manoeuvre", "amount": 2}, rule="R7")
    t.send("shayo.spend_ki", {"who": "Kenji", "use": "manoeuvre", "amount": 2, "surpass": True})
    assert t.char("Kenji")["damage"] == 2


@pytest.mark.parametrize("mode", ["after_pools", "only_when_empty"])
def test_s6_partial_pools(mode: str) -> None:
    t = T({"surpass": mode})
    t.send("shayo.character", {"name": "Mei", "attributes": {"INS": 1}, "skills": {}, "pc": False})
    assert t.char("Mei")["ki"]["personal_max"] == 1 and t.json["group_pool"]["max"] == 0
    if mode == "after_pools":
        t.send("shayo.spend_ki", {"who": "Mei", "use": "manoeuvre", "amount": 3, "surpass": True})
        assert t.char("Mei")["ki"]["personal_left"] == 0 and t.char("Mei")["damage"] == 2
        # paying health while Ki is left in a pool is refused
        t.send("shayo.refresh_ki", {"who": "Mei"})
        t.refused("shayo.spend_ki", {"who": "Mei", "amount": 2, "from": {"health": 2}}, rule="A8")
    else:
        t.refused("shayo.spend_ki", {"who": "Mei", "use": "manoeuvre", "amount": 3, "surpass": True}, rule="A8")


# -- signatures -----------------------------------------------------------------------------------
def _aiko_test(t: T, **extra: Any) -> None:
    t.send("shayo.test", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu", "difficulty": 7, **extra})


def test_signature_reroll_a_failure() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    _aiko_test(t)
    t.send("shayo.roll", {"dice": [8, 3, 2, 1]})
    exp = t.json["expects"]
    assert exp["step"] == "signatures"
    assert exp["signatures"][0]["id"] == "relance_echec" and exp["signatures"][0]["dice"] == [1, 2]
    t.refused("shayo.signature", {"signature": "relance_echec", "dice": [0], "values": [9]}, rule="R4")
    t.refused("shayo.signature", {"signature": "relance_echec", "dice": [1, 2], "values": [9, 9]}, rule="R4")
    t.refused("shayo.signature", {"signature": "relance_echec", "dice": [1]})  # the new value is missing
    t.send("shayo.signature", {"signature": "relance_echec", "dice": [1], "values": [9]})
    last = t.last  # nothing else can help: kept and counted at once
    assert last["dice"] == [8, 9, 2, 1] and last["entered"] == [8, 3, 2, 1]
    assert last["net"] == 1 and last["signatures"][0]["after"] == [9]
    assert t.json["expects"]["step"] == "idle"


def test_signature_by_the_system_rolls_with_the_rng() -> None:
    t = T(seed=5)
    t.send("shayo.character", AIKO)
    _aiko_test(t)
    t.send("shayo.roll", {"dice": [8, 3, 2, 1]})
    t.send("shayo.signature", {"signature": "relance_echec", "dice": [2]}, source="system")
    # the table's rng for this event: seed 5, seq 5
    assert t.last["dice"][2] == event_rng(5, t.seq).randint(1, 10)
    assert t.last["signatures"][0]["before"] == [2]


def test_keep_closes_the_signature_step_with_a_chosen_keep() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    _aiko_test(t)
    t.send("shayo.roll", {"dice": [8, 3, 2, 9]})
    t.refused("shayo.keep", {"dice": [0, 1]}, rule="R3")  # keep exactly 3
    t.send("shayo.keep", {"dice": [0, 1, 2]})
    assert t.last["kept_values"] == [8, 3, 2] and t.last["net"] == 1


def test_npc_signatures_and_a_plus_one() -> None:
    t = T()
    t.send("shayo.test", {"attribute": 3, "skill": 2, "difficulty": 8, "signatures": ["plus_1", "annule_1"]})
    t.send("shayo.roll", {"dice": [7, 1, 9]})
    assert {s["id"] for s in t.json["expects"]["signatures"]} == {"plus_1", "annule_1"}
    t.send("shayo.signature", {"signature": "annule_1", "dice": [1]})
    t.send("shayo.signature", {"signature": "plus_1", "dice": [0]})
    assert t.last["dice"] == [8, 1, 9] and t.last["cancelled_ones"] == [1]
    assert t.last["net"] == 2


# -- corrections ------------------------------------------------------------------------------------
def test_correct_one_die_recomputes_the_outcome() -> None:
    t = T()
    t.send("shayo.test", {"attribute": 4, "skill": 2, "difficulty": 6})
    t.send("shayo.roll", {"dice": [8, 3, 1, 6]}, source="camera")
    assert t.last["net"] == 1
    res = t.send("shayo.correct", {"index": 2, "value": 7}, source="correction")
    assert res.outcomes[0].kind == "correction"
    assert t.last["dice"] == [8, 3, 7, 6] and t.last["net"] == 2
    t.send("shayo.correct", {"dice": [1, 1, 1, 1]})
    assert t.last["net"] == 0
    t.send("shayo.test", {"attribute": 1, "skill": 1, "difficulty": 6})
    t.refused("shayo.correct", {"index": 0, "value": 5}, rule="R3")


def test_correction_replays_later_choices_or_is_refused() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    _aiko_test(t)
    t.send("shayo.roll", {"dice": [8, 3, 2, 1]})
    t.send("shayo.signature", {"signature": "relance_echec", "dice": [1], "values": [9]})
    t.send("shayo.correct", {"index": 0, "value": 10})
    assert t.last["dice"] == [10, 9, 2, 1] and t.last["signatures"][0]["dice"] == [1]
    t.refused("shayo.correct", {"index": 1, "value": 8}, rule="R3")  # die 1 is no longer a failure


# -- combat S7–S9 ------------------------------------------------------------------------------------
def test_s7_melee_exchange() -> None:
    t = T()
    t.send("shayo.character", {**AIKO, "signatures": {}})
    t.send("shayo.character", REN)
    t.send("shayo.attack", {"who": "Aiko", "target": "Ren", "attribute": "AGI", "skill": 4, "weapon": "katana"})
    assert t.json["expects"]["difficulty"] == 5
    t.send("shayo.roll", {"dice": [9, 6, 5, 2]})
    assert t.last["net"] == 3 and t.json["expects"]["step"] == "defence"
    t.send("shayo.defend", {"attribute": "AGI", "skill": "Esquive"})
    t.send("shayo.roll", {"dice": [5, 3, 2]})
    exp = t.json["expects"]
    assert exp["step"] == "roll" and exp["kind"] == "damage"
    assert exp["dice"][0]["count"] == 4 and exp["difficulty"] == 6
    t.send("shayo.roll", {"dice": [7, 2, 9, 6]})
    last = t.last
    assert last["net"] == 3 and last["damage"] == 2
    assert t.char("Ren")["damage"] == 2
    assert t.json["exchange"] is None


def test_s8_defence_cancels_everything() -> None:
    t = T()
    t.send("shayo.character", {**AIKO, "signatures": {}})
    t.send("shayo.character", REN)
    t.send("shayo.attack", {"who": "Aiko", "target": "Ren", "attribute": "AGI", "skill": 2, "weapon": "katana"})
    t.send("shayo.roll", {"dice": [9, 6, 3, 2]})
    t.send("shayo.defend", {"attribute": "AGI", "skill": "Esquive"})
    res = t.send("shayo.roll", {"dice": [5, 7, 2]})
    assert res.outcomes[-1].kind == "attack.miss"
    assert t.json["exchange"] is None and t.json["test"] is None and t.char("Ren")["damage"] == 0


def test_no_defence_and_finesse_ignores_protection() -> None:
    t = T()
    t.send("shayo.character", {**AIKO, "signatures": {}})
    t.send("shayo.character", REN)
    t.send("shayo.attack", {"who": "Aiko", "target": "Ren", "attribute": "AGI", "skill": 2,
                            "weapon": "katana", "option": "finesse"})
    assert t.json["expects"]["difficulty"] == 6
    t.send("shayo.roll", {"dice": [9, 6, 3, 2]})
    t.send("shayo.no_defence")
    t.send("shayo.roll", {"dice": [7, 2, 3, 4]})  # 2 weapon + 2 margin dice, SD 6
    assert t.last["net"] == 1 and t.last["protection"] == 0 and t.last["damage"] == 2


def test_attack_without_success_misses_at_once() -> None:
    t = T()
    t.send("shayo.attack", {"attribute": 3, "skill": 2, "target": "bandit", "weapon": {"dice": 1}})
    res = t.send("shayo.roll", {"dice": [1, 4, 2]})
    assert res.outcomes[-1].kind == "attack.miss" and t.json["exchange"] is None


@pytest.mark.parametrize("mastered,difficulty", [(True, 6), (False, 7)])
def test_s9_manoeuvre_difficulty(mastered: bool, difficulty: int) -> None:
    t = T()
    t.send("shayo.character", AIKO)
    t.send("shayo.attack", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu",
                            "manoeuvre": {"name": "Coup double", "ki": 2, "mastered": mastered}})
    assert t.json["expects"]["difficulty"] == difficulty
    assert t.char("Aiko")["ki"]["personal_left"] == 4  # manoeuvre Ki, uncapped by INS


def test_grave_wound_and_solidity() -> None:
    t = T()
    t.send("shayo.character", {**AIKO, "signatures": {}, "weapons": {"nodachi": {"dice": 9, "fixed": 3, "solidity": 2}}})
    t.send("shayo.character", {**REN, "armour": {"sd": 3, "protection": 0, "solidity": 4}})
    t.send("shayo.attack", {"who": "Aiko", "target": "Ren", "attribute": "AGI", "skill": 3, "weapon": "nodachi"})
    t.send("shayo.roll", {"dice": [9, 9, 2, 2]})
    t.send("shayo.no_defence")
    res = t.send("shayo.roll", {"dice": [9] * 8 + [2, 2, 2]})  # 9 + 2 margin dice
    assert t.last["damage"] == 11
    ren = t.char("Ren")
    assert ren["damage"] == 11 and ren["grave_wounds"] == 1 and ren["life_line"]["index"] == 2
    kinds = [o.kind for o in res.outcomes]
    assert "grave_wound" in kinds and "solidity.weapon" in kinds and "solidity.armour" in kinds
    aiko = t.char("Aiko")
    assert aiko["weapons"]["nodachi"]["solidity"] == 1


def test_initiative_order_ties_and_extra_actions() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    t.send("shayo.character", REN)
    res = t.send("shayo.initiative", {"combatants": [
        {"name": "Ren", "die": 6, "attribute": "AGI"},
        {"name": "Aiko", "die": 5, "attribute": "AGI"},
        {"name": "bandit", "die": 5, "attribute": 2}]})
    assert res.outcomes[0].data["order"] == ["Ren", "Aiko", "bandit"]
    assert res.outcomes[0].data["ties"] == [["Ren", "Aiko"]]
    t.send("shayo.spend_ki", {"who": "Aiko", "use": "extra_action"})
    seen = [t.json["turn"]["current"]]
    for _ in range(4):
        t.send("shayo.next_action")
        seen.append(t.json["turn"]["current"])
    assert seen == ["Ren", "Aiko", "bandit", "Aiko", "Ren"]
    assert t.json["turn"]["turn"] == 2 and t.json["turn"]["actions"]["Aiko"] == 1  # bought actions last one turn


def test_no_manoeuvre_nor_spell_in_a_bought_action() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    t.send("shayo.initiative", {"combatants": [{"name": "Aiko", "die": 5, "attribute": "AGI"},
                                               {"name": "oni", "die": 1, "attribute": 1, "actions": 2}]})
    t.send("shayo.spend_ki", {"who": "Aiko", "use": "extra_action"})
    t.send("shayo.next_action")  # oni
    t.send("shayo.next_action")  # round 2: Aiko's bought action
    assert t.json["turn"]["current"] == "Aiko" and t.json["turn"]["bought_action"] is True
    t.refused("shayo.spend_ki", {"who": "Aiko", "use": "spell", "amount": 1}, rule="R6")
    t.refused("shayo.attack", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu",
                               "manoeuvre": {"name": "Coup double", "ki": 1}}, rule="R6")
    t.send("shayo.attack", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu"})
    t.send("shayo.cancel")
    t.send("shayo.next_action")  # the oni's natural second action: no restriction for it
    assert t.json["turn"]["current"] == "oni" and t.json["turn"]["bought_action"] is False


def test_initiative_tiebreak() -> None:
    t = T()
    res = t.send("shayo.initiative", {"combatants": [
        {"name": "a", "die": 5, "attribute": 2, "tiebreak": [3]},
        {"name": "b", "die": 4, "attribute": 3, "tiebreak": [8]}]})
    assert res.outcomes[0].data["order"] == ["b", "a"] and res.outcomes[0].data["ties"] == []


# -- sheets -------------------------------------------------------------------------------------------
def test_creation_rules_are_checked() -> None:
    t = T()
    t.refused("shayo.character", {**AIKO, "attributes": {"INS": 6}}, rule="R1")
    t.refused("shayo.character", {**AIKO, "attributes": {"AGI": 3}}, rule="R5")
    t.refused("shayo.character", {**AIKO, "signatures": {"kenjutsu": ["relance_echec", "plus_1"]}}, rule="R4")
    t.refused("shayo.character", {**AIKO, "signatures": {"forge": ["nope"]}})
    t.send("shayo.character", {**AIKO, "skills": {**AIKO["skills"], "Kenjutsu": 5}, "signatures": {"kenjutsu": ["relance_echec", "plus_1"]}})
    t.refused("shayo.character", AIKO, rule="R1")  # exists already
    t.refused("shayo.edit_character", {"name": "Aiko", "skills": {"Kenjutsu": 2}}, rule="R4")
    t.send("shayo.edit_character", {"name": "Aiko", "skills": {"Kenjutsu": 4}, "bonus_signatures": {"kenjutsu": 1}})
    assert t.char("Aiko")["skills"]["kenjutsu"] == 4
    t.send("shayo.edit_character", {"name": "Aiko", "aspect": "ciel", "aspect_value": 4})
    assert t.char("Aiko")["ki"]["personal_max"] == 3 + 4 + 1


def test_unknown_event_and_option_are_refused() -> None:
    t = T()
    t.refused("shayo.fly", {})
    with pytest.raises(EventError):
        T({"ones_scope": "nope"})
    with pytest.raises(EventError):
        T({"colour": "red"})
    with pytest.raises(EventError, match="mastered"):
        T({"manoeuvre_difficulty": {"mastered": 1}})
    with pytest.raises(EventError, match="quality_table.normal"):
        T({"quality_table": {"mediocre": {"successes": 3, "pc": 2}, "normal": {"successes": "5", "pc": 4},
                             "superior": {"successes": 8, "pc": 8}, "exceptional": {"successes": 12, "pc": 12}}})


def test_expects_carries_the_exact_odds() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    _aiko_test(t)
    odds = t.json["expects"]["odds"]
    from companion.games.shayo.signatures import CATALOGUE
    want = as_floats(net_distribution(pool_from(4, 3, 7, [CATALOGUE["relance_echec"]])))
    assert odds["net_successes"] == want
    assert odds["success"] == pytest.approx(1 - want["0"])


def test_cancel_refunds_unrolled_ki() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    _aiko_test(t, ki={"kept": 2})
    assert t.char("Aiko")["ki"]["personal_left"] == 4
    t.send("shayo.cancel")
    assert t.char("Aiko")["ki"]["personal_left"] == 6 and t.json["test"] is None


def test_describe_is_readable_in_both_languages() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    t.send("shayo.test", {"attribute": 4, "skill": 2, "difficulty": 6})
    t.send("shayo.roll", {"dice": [8, 3, 1, 6]})
    fr, en = t.table.describe("fr"), t.table.describe("en")
    assert "Aiko" in fr and "Réussite" in fr
    assert "Success" in en and "Group pool" in en


def test_no_wait_for_a_signature_that_cannot_help() -> None:
    t = T()
    t.send("shayo.character", AIKO)
    _aiko_test(t)  # keep 3, difficulty 7, re-roll a failure
    t.send("shayo.roll", {"dice": [8, 9, 7, 2]})  # three successes already fill the keep
    assert t.json["test"] is None and t.last["net"] == 3
    _aiko_test(t)
    t.send("shayo.roll", {"dice": [8, 9, 3, 2]})
    assert t.json["expects"]["step"] == "signatures"
