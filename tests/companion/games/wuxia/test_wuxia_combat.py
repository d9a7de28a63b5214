"""Combat (R12-R15): initiative, Defence Dice, attack, investments, damage, group reserve."""

from __future__ import annotations

from typing import Any

import pytest

from companion.table import Table

from tests.companion.games.wuxia.test_wuxia_rules import refused, send, sj, table

A = {"name": "Ana", "attributes": {"metal": 4, "feu": 5, "terre": 6, "eau": 3, "bois": 4}, "check": False,
     "skills": [{"name": "Artiste martial", "kind": "profession", "level": 3}]}
B = {"name": "Bo", "attributes": {"metal": 5, "feu": 4, "terre": 4, "eau": 4, "bois": 3}, "check": False,
     "skills": [{"name": "Artiste martial", "kind": "profession", "level": 2}]}
C = {"name": "Cai", "attributes": {"metal": 3, "feu": 3, "terre": 3, "eau": 3, "bois": 3}, "check": False,
     "skills": [{"name": "Artiste martial", "kind": "profession", "level": 1}]}


def fight(options: dict[str, Any] | None = None, init: tuple[list[int], list[int]] = ([2, 2, 2, 2], [2, 2, 2, 2, 2])) -> Table:
    t = table(options, A, B, C)
    send(t, "combat_start", {"fighters": [
        {"who": "Ana", "side": "heroes", "skill": "Artiste martial", "weapon": {"nd": 4, "soul": "saignements"}},
        {"who": "Bo", "side": "bandits", "skill": "Artiste martial", "weapon": {"nd": 3}, "armour": 1},
    ]})
    send(t, "roll", {"who": "Ana", "dice": init[0]})
    send(t, "roll", {"who": "Bo", "dice": init[1]})
    return t


def test_initiative_round_r13() -> None:
    t = table(None, A, B)
    send(t, "combat_start", {"fighters": [{"who": "Ana", "skill": "Artiste martial"}, {"who": "Bo", "side": "bandits", "competence": 2}]})
    exp = sj(t)["expects"]
    assert exp["step"] == "roll" and exp["who"] == "Ana" and exp["dice"][0]["count"] == 4  # Métal 4
    assert sj(t)["tests"][0]["threshold"] == 7
    send(t, "roll", {"dice": [8, 9, 10, 2]})  # Ana: 3 successes
    out = send(t, "roll", {"dice": [1, 1, 8, 2, 3]})  # Bo: more 1s than successes -> 0 (W10)
    assert out[0]["kind"] == "test.failure" and "0 succès" in out[0]["text"]["fr"]
    assert out[-1]["kind"] == "combat.initiative"
    exp = sj(t)["expects"]
    assert exp["step"] == "initiative" and exp["who"] == ["Ana"] and exp["successes"] == {"Ana": 3}
    refused(t, "initiative", {"who": "Ana", "initiative": 1}, rule="R13")  # must place all 3
    refused(t, "initiative", {"who": "Bo", "initiative": 0}, rule="R13")  # nothing to share
    out = send(t, "initiative", {"who": "Ana", "initiative": 1, "actions": 1, "defence": 1})
    assert out[-1]["kind"] == "combat.order" and out[-1]["data"]["order"] == ["Ana", "Bo"]  # 4 + 1 = 5 ties Bo: listed order
    f = {x["name"]: x for x in sj(t)["combat"]["fighters"]}
    assert (f["Ana"]["initiative"], f["Ana"]["actions"], f["Ana"]["defence_dice"]) == (5, 2, 1)
    assert sj(t)["expects"]["step"] == "action"


def test_initiative_can_crit_option() -> None:
    t = table({"initiative_can_crit": True}, A, B)
    send(t, "combat_start", {"fighters": [{"who": "Ana", "competence": 3}, {"who": "Bo", "side": "b", "competence": 2}]})
    send(t, "roll", {"dice": [8, 9, 10, 2]})
    out = send(t, "roll", {"dice": [1, 1, 8, 2, 3]})
    assert out[0]["kind"] == "test.critical_failure"
    assert "Bo 0 (échec critique)" in out[-1]["text"]["fr"]


def test_order_and_extra_actions() -> None:
    t = fight(init=([8, 9, 10, 2], [2, 2, 2, 2, 2]))
    send(t, "initiative", {"who": "Ana", "initiative": 2, "actions": 1})
    c = sj(t)["combat"]
    assert c["order"] == ["Ana", "Bo"] and c["phase"] == "actions"
    assert sj(t)["expects"]["who"] == "Ana"
    send(t, "action", {"who": "Ana", "note": "saute sur le toit"})
    assert sj(t)["expects"]["who"] == "Bo"  # extra actions come after everyone's first
    send(t, "action", {"who": "Bo"})
    assert sj(t)["expects"]["who"] == "Ana"
    send(t, "action", {"who": "Ana"})
    refused(t, "action", {"who": "Ana"}, rule="R13")
    refused(t, "attack", {"attacker": "Bo", "defender": "Ana"}, rule="R13")


def _to_attack(t: Table) -> None:
    # both had 0 initiative successes: straight to actions
    assert sj(t)["combat"]["phase"] == "actions"


def test_opposed_attack_w_t13() -> None:
    t = fight(init=([2, 2, 2, 2], [8, 2, 2, 2, 2]))
    send(t, "initiative", {"who": "Bo", "defence": 1})
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    from companion.games.wuxia.odds import opposed_odds

    odds = sj(t)["expects"]["attack_odds"]
    want = opposed_odds(5, 7, 4, 8, 1)
    assert odds["defence_dice"] == 1 and odds["attacker_wins"] == float(want["attacker_wins"])
    tests = sj(t)["tests"]
    assert (tests[0]["dice"], tests[0]["threshold"], tests[1]["dice"], tests[1]["threshold"]) == (5, 7, 4, 8)
    send(t, "roll", {"dice": [7, 8, 9, 2, 3]})  # S 3
    out = send(t, "roll", {"dice": [8, 2, 3, 4]})  # S 1
    assert out[-1]["kind"] == "attack.rolled"
    exp = sj(t)["expects"]
    assert exp["step"] == "defend" and exp["who"] == "Bo" and exp["max_defence"] == 1
    refused(t, "defend", {"defence": 2}, rule="R14")
    out = send(t, "defend", {"defence": 1})
    assert out[-1]["kind"] == "attack.hit" and out[-1]["data"]["extra"] == 1
    exp = sj(t)["expects"]
    assert exp["step"] == "invest" and exp["extra"] == 1 and "soul" in exp["choices"]
    refused(t, "invest", {"defence": 2}, rule="R14")
    out = send(t, "invest", {"group": 1})
    assert out[0]["data"]["damage"] == 3
    bo = next(c for c in sj(t)["characters"] if c["name"] == "Bo")
    assert bo["wounds"] == 3
    assert sj(t)["combat"]["group_reserve"] == [{"side": "heroes", "by": "Ana"}]


def test_attack_parried_on_tie_w11() -> None:
    t = fight()
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    send(t, "roll", {"dice": [8, 2, 2, 2, 2]})
    send(t, "roll", {"dice": [8, 2, 2, 2]})
    out = send(t, "defend", {})
    assert out[-1]["kind"] == "attack.parried"
    assert sj(t)["combat"]["attack"] is None


def test_critical_attacker_cannot_win() -> None:
    t = fight()
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    send(t, "roll", {"dice": [8, 9, 1, 1, 1]})
    send(t, "roll", {"dice": [2, 2, 2, 2]})
    assert send(t, "defend", {})[-1]["kind"] == "attack.parried"


def test_extra_minus_one_and_damage_option() -> None:
    t = fight({"attack_extra": "difference_minus_one", "damage_needs_extra": True})
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    send(t, "roll", {"dice": [8, 2, 2, 2, 2]})
    send(t, "roll", {"dice": [2, 2, 2, 2]})
    out = send(t, "defend", {})
    assert out[-2]["data"]["extra"] == 0 and out[-1]["data"]["damage"] == 0


def test_manoeuvres_and_soul() -> None:
    t = fight()
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    send(t, "roll", {"dice": [8, 9, 10, 10, 7]})  # 5
    send(t, "roll", {"dice": [2, 2, 2, 2]})  # 0
    send(t, "defend", {})
    refused(t, "invest", {"manoeuvres": {"backflip": 1}}, says="unknown manoeuvre 'backflip'")
    out = send(t, "invest", {"manoeuvres": {"Estourbir": 1, "critique": 2, "intimidation": 1}, "soul": 1})
    d = out[0]["data"]
    assert d["damage"] == 3 + 2 and d["stun"] == 1 and d["panic"] == 1 and d["soul"] == 1
    bo = next(c for c in sj(t)["characters"] if c["name"] == "Bo")
    assert (bo["wounds"], bo["panic"]) == (5, 1)
    # Estourbir bites next round: Bo's Terre 4 - 1
    send(t, "next_round", {})
    send(t, "roll", {"who": "Ana", "dice": [2, 2, 2, 2]})
    send(t, "roll", {"who": "Bo", "dice": [2, 2, 2, 2, 2]})
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    assert sj(t)["tests"][1]["dice"] == 3


def test_group_reserve_serves_others_w13() -> None:
    t = table(None, A, B, C)
    send(t, "combat_start", {"fighters": [
        {"who": "Ana", "skill": "Artiste martial", "weapon": {"nd": 4}},
        {"who": "Cai", "skill": "Artiste martial"},
        {"who": "Bo", "side": "bandits", "skill": "Artiste martial", "weapon": {"nd": 3}},
    ], })
    for who, n in (("Ana", 4), ("Cai", 3), ("Bo", 5)):
        send(t, "roll", {"who": who, "dice": [2] * n})
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    send(t, "roll", {"dice": [8, 9, 10, 2, 2]})
    send(t, "roll", {"dice": [2, 2, 2, 2]})
    send(t, "defend", {})
    send(t, "invest", {"group": 2, "defence": 1})
    refused(t, "attack", {"attacker": "Ana", "defender": "Bo", "group_dice": 1}, rule="R13")  # Ana's own dice
    send(t, "attack", {"attacker": "Cai", "defender": "Bo", "group_dice": 2})
    assert sj(t)["tests"][0]["dice"] == 5  # Feu 3 + 2
    assert sj(t)["combat"]["group_reserve"] == []


def test_death_in_combat() -> None:
    t = fight()
    send(t, "wound", {"who": "Bo", "amount": 40})
    send(t, "attack", {"attacker": "Ana", "defender": "Bo", "nd": 5})
    send(t, "roll", {"dice": [8, 2, 2, 2, 2]})
    send(t, "roll", {"dice": [2, 2, 2, 2]})
    assert send(t, "defend", {})[-1]["data"]["extra"] == 1
    out = send(t, "invest", {})  # nothing invested: the hit still deals ND 5 - AR 1
    assert out[0]["data"]["damage"] == 4
    assert "character.dead" in [o["kind"] for o in out]
    refused(t, "attack", {"attacker": "Bo", "defender": "Ana"}, rule="W9")


def test_combat_refusals() -> None:
    t = table(None, A, B)
    refused(t, "attack", {"attacker": "Ana", "defender": "Bo"}, rule="R12")
    refused(t, "combat_start", {"fighters": [{"who": "Ana"}]}, says='at least two fighters')
    refused(t, "combat_start", {"fighters": [{"who": "Ana"}, {"who": "Zed"}]}, rule="R1")
    t = fight()
    refused(t, "attack", {"attacker": "Ana", "defender": "Ana"}, rule="R14")
    assert sj(t)["mode"] == "none"
    send(t, "attack", {"attacker": "Ana", "defender": "Bo"})
    refused(t, "test", {"who": "Ana", "attribute": "feu"}, rule="R13")
    refused(t, "next_round", {}, rule="R14")
    refused(t, "defend", {}, rule="R14")  # pools not rolled yet
    send(t, "roll", {"dice": [2, 2, 2, 2, 2]})
    send(t, "roll", {"dice": [2, 2, 2, 2]})
    send(t, "defend", {})
    send(t, "combat_end", {})
    assert sj(t)["combat"] is None and sj(t)["expects"]["step"] == "test"
