"""Crafting: creation with quality loss (S10), improvements (S11), the PC table (S12)."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.games.shayo.crafting import COSTS, cost_of

from tests.companion.games.shayo.test_shayo_game import T

SMITH = {"name": "Hiro", "attributes": {"INS": 2, "FOR": 3}, "skills": {"Forge": 3}}
APPRENTICE = {"name": "Yuki", "attributes": {"INS": 2, "FOR": 3}, "skills": {"Forge": 2}}

# With attribute 3, skill 3 and SD 6 each roll below gives this many net successes.
ROLL_FOR = {0: [2, 3, 4], 1: [7, 2, 2], 2: [7, 8, 2], 3: [7, 8, 9]}


def _katana(t: T, who: str = "Hiro", quality: str = "superior", **extra) -> None:
    t.send("shayo.craft", {"who": who, "object": "katana", "kind": "weapon", "quality": quality,
                           "attribute": "FOR", "skill": "Forge", "difficulty": 6, "period_hours": 5, **extra})


def test_s10_mastery_and_quality_loss() -> None:
    t = T()
    t.send("shayo.character", SMITH)
    t.send("shayo.character", APPRENTICE)
    with pytest.raises(RuleError, match="mastery 3"):
        _katana(t, who="Yuki")
    t.seq -= 1
    _katana(t, required=6)
    assert t.json["expects"]["step"] == "roll" and t.json["expects"]["kind"] == "craft"
    for net in (2, 0, 3, 0):
        t.send("shayo.roll", {"dice": ROLL_FOR[net]})
        assert t.json["project"] is not None
    assert t.json["project"]["quality"] == "mediocre" and t.json["project"]["accumulated"] == 5
    res = t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    assert res.outcomes[-1].kind == "craft.done"
    obj = t.json["objects"][0]
    assert obj["quality"] == "mediocre" and obj["name"] == "katana"
    assert t.last["project"]["periods"] == [2, 0, 3, 0, 1] and t.last["project"]["hours"] == 25
    assert t.json["project"] is None and t.json["test"] is None


@pytest.mark.parametrize("mode", ["clamp", "ruined"])
def test_below_mediocre(mode: str) -> None:
    t = T({"below_mediocre": mode})
    t.send("shayo.character", SMITH)
    _katana(t, quality="mediocre", required=2)
    res = t.send("shayo.roll", {"dice": ROLL_FOR[0]})
    if mode == "ruined":
        assert res.outcomes[-1].kind == "craft.ruined" and t.json["project"] is None
        return
    assert t.json["project"]["quality"] == "mediocre" and t.last["flagged"] is True
    t.send("shayo.roll", {"dice": ROLL_FOR[2]})
    assert t.json["objects"][0]["flagged"] is True


def _normal_katana(t: T) -> None:
    _katana(t, quality="normal", required=1)
    t.send("shayo.roll", {"dice": ROLL_FOR[1]})


def test_s11_improvement_fails_on_a_zero_period() -> None:
    t = T({"quality_table": {"mediocre": {"successes": 3, "pc": 2}, "normal": {"successes": 5, "pc": 12},
                             "superior": {"successes": 8, "pc": 8}, "exceptional": {"successes": 12, "pc": 12}}})
    t.send("shayo.character", SMITH)
    _normal_katana(t)
    assert t.json["objects"][0]["pc"] == 12
    t.send("shayo.improve", {"who": "Hiro", "object": "katana", "improvement": "degats_fixes",
                             "duration": "permanent", "attribute": "FOR", "skill": "Forge", "difficulty": 6})
    assert t.json["project"]["required"] == 7 and t.json["project"]["cost"] == 7
    t.send("shayo.roll", {"dice": ROLL_FOR[3]})
    res = t.send("shayo.roll", {"dice": [2, 1, 4]})  # no success, more 1s than successes
    assert res.outcomes[-1].kind == "improve.failed" and res.outcomes[-1].data["critical"] is True
    obj = t.json["objects"][0]
    assert obj["pc"] == 5 and obj["improvements"] == [] and obj["broken"] is True
    assert t.json["project"] is None


def test_improvement_success_slots_and_pc() -> None:
    t = T()
    t.send("shayo.character", SMITH)
    _normal_katana(t)  # normal: 4 PC, slots P1 T1
    imp = {"who": "Hiro", "object": "katana", "attribute": "FOR", "skill": "Forge", "difficulty": 6}
    t.send("shayo.improve", {**imp, "improvement": "solidite", "duration": "combat"})
    assert t.json["project"]["required"] == 2
    t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    res = t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    assert res.outcomes[-1].kind == "improve.done"
    obj = t.json["objects"][0]
    assert obj["pc"] == 2 and obj["improvements"] == [{"improvement": "solidite", "duration": "combat"}]
    # a second temporary solidity shares the slot; another temporary improvement has no slot
    with pytest.raises(RuleError, match="slot"):
        t.send("shayo.improve", {**imp, "improvement": "de_lance", "duration": "action"})
    t.seq -= 1
    t.send("shayo.improve", {**imp, "improvement": "solidite", "duration": "single_use", "required": 1})
    t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    assert t.json["objects"][0]["pc"] == 1
    with pytest.raises(RuleError, match="PC"):
        t.send("shayo.improve", {**imp, "improvement": "solidite", "duration": "scene"})


def test_mastery_for_superior_objects() -> None:
    t = T()
    t.send("shayo.character", APPRENTICE)
    with pytest.raises(RuleError, match="mastery 3"):
        t.send("shayo.improve", {"who": "Yuki", "object": "heirloom", "quality": "superior",
                                 "improvement": "solidite", "attribute": "FOR", "skill": "Forge", "difficulty": 6})


@pytest.mark.parametrize("key,duration,cost", [
    ("de_garde", "scene", 4), ("de_garde", "permanent", 6), ("solidite", "single_use", 1),
    ("ki_sortilege", "combat", 3), ("solidite", "action", 1)])
def test_s12_cost_lookup(key: str, duration: str, cost: int) -> None:
    assert cost_of(key, duration) == cost


def test_cost_table_is_the_sources() -> None:
    rows = {k: v[2:] for k, v in COSTS.items()}
    assert rows["de_lance"] == (5, 1, 2, 3) and rows["protection_fixe"] == (7, 3, 4, 5)
    assert len(rows) == 10
    with pytest.raises(RuleError):
        cost_of("wings", "permanent")


def test_temporary_improvements_expire_and_single_use_is_spent() -> None:
    t = T({"quality_table": {"mediocre": {"successes": 3, "pc": 2}, "normal": {"successes": 5, "pc": 12},
                             "superior": {"successes": 8, "pc": 8}, "exceptional": {"successes": 12, "pc": 12}}})
    t.send("shayo.character", SMITH)
    _normal_katana(t)
    imp = {"who": "Hiro", "object": "katana", "attribute": "FOR", "skill": "Forge", "difficulty": 6, "required": 1}
    t.send("shayo.improve", {**imp, "improvement": "solidite", "duration": "combat"})
    t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    t.send("shayo.improve", {**imp, "improvement": "solidite", "duration": "scene"})
    t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    t.send("shayo.improve", {**imp, "improvement": "de_lance", "duration": "permanent"})
    t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    durations = lambda: sorted(i["duration"] for i in t.json["objects"][0]["improvements"])  # noqa: E731
    assert durations() == ["combat", "permanent", "scene"]
    t.send("shayo.end", {"what": "combat"})
    assert durations() == ["permanent", "scene"]
    t.send("shayo.end", {"what": "scene"})
    assert durations() == ["permanent"]
    t.refused("shayo.use_improvement", {"object": "katana", "improvement": "de_lance"}, rule="R20")
    t.send("shayo.improve", {**imp, "improvement": "solidite", "duration": "action"})
    t.send("shayo.roll", {"dice": ROLL_FOR[1]})
    t.send("shayo.use_improvement", {"object": "katana", "improvement": "solidite"})
    assert durations() == ["permanent"]
