"""Wuxia tests through the Table: the spec's scenarios W-T6..W-T10, re-rolls, Destiny
Dice, corrections, competitions, and refusals that change nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from companion.errors import CompanionError, EventError, RuleError
from companion.events import Event, Source
from companion.games.wuxia import GAME
from companion.games.wuxia.dice import evaluate
from companion.table import Table

ROOT = Path(__file__).resolve().parents[4]

LIN = {
    "name": "Lin",
    "attributes": {"metal": 4, "feu": 5, "terre": 6, "eau": 3, "bois": 4},
    "priorities": {"attributs": 3, "competences": 4, "pouvoirs": 1, "traits": 2, "experience": 5},
    "skills": [
        {"name": "Chasseur", "kind": "metier", "level": 5},
        {"name": "Tir à l'arc", "kind": "narrow", "parent": "Chasseur"},
        {"name": "Magistrat", "kind": "metier", "level": 2},
        {"name": "Herboristerie", "kind": "narrow", "parent": "Médecin", "level": 3},
    ],
}


def table(options: dict[str, Any] | None = None, *chars: dict[str, Any]) -> Table:
    t = Table()
    t.apply(Event("table.new_game", {"game": "wuxia", "options": options or {}, "seed": 1}, seq=1))
    for c in chars or (LIN,):
        send(t, "character_new", c)
    return t


def send(t: Table, verb: str, data: dict[str, Any], source: Source = Source.MANUAL) -> list[dict[str, Any]]:
    seq = (t.top.event.seq or 0) + 1 if t.top else 1
    applied = t.apply(Event(f"wuxia.{verb}", data, source, seq=seq))
    return [o.to_json() for o in applied.outcomes]


def sj(t: Table) -> dict[str, Any]:
    return GAME.state_json(t.state)


def refused(t: Table, verb: str, data: dict[str, Any], *, rule: str | None = None, says: str | None = None) -> str:
    """The event is refused for the reason named, and nothing changed; returns the message.

    ``rule``: the rules forbid it now, and the :class:`RuleError` cites this rule (``"R9"``,
    ``"W5"``...). Without it the event is malformed: an :class:`EventError` whose message
    holds ``says``. Either way a message fragment ``says`` is checked when given.
    """
    if rule is None and says is None:
        raise TypeError("refused() needs the rule (rule=...) or the message (says=...) it checks")
    before = t.state
    n = len(t.frames)
    with pytest.raises(CompanionError) as exc:
        send(t, verb, data)
    err = exc.value
    if rule is not None:
        assert isinstance(err, RuleError) and err.rule == rule, f"wanted a RuleError citing {rule}, got {err!r}"
    else:
        assert type(err) is EventError, f"wanted a malformed-event EventError, got {err!r}"
    if says is not None:
        assert says in str(err), f"{says!r} not in {str(err)!r}"
    assert_bilingual(err)
    assert t.state is before and len(t.frames) == n
    return str(err)


def assert_bilingual(err: BaseException) -> None:
    """A refusal of the rules carries a French text and an English one, not the same."""
    said = getattr(err, "text", None)
    assert isinstance(said, dict) and said.get("fr") and said.get("en"), f"no French/English text on {err!r}"
    assert said["fr"] != said["en"], f"the French text of {err!r} is the English one"


# -- W-T6..W-T10 ----------------------------------------------------------------
def test_die_classification_w_t6() -> None:
    t = table(None, {**LIN, "attributes": {**LIN["attributes"], "feu": 5}})
    send(t, "test", {"who": "Lin", "attribute": "feu", "skill": "Magistrat", "sr": 10})
    assert sj(t)["tests"][0]["threshold"] == 8
    out = send(t, "roll", {"dice": [8, 9, 10, 7, 1]}, Source.CAMERA)
    assert out[0]["kind"] == "test.success"
    assert (out[0]["data"]["successes"], out[0]["data"]["ones"], out[0]["data"]["quality"]) == (3, 1, 3)
    res = sj(t)["tests"][0]["result"]
    assert res["classes"] == ["success", "success", "success", "failure", "one"]
    assert "qualité 3" in res["text"]["fr"] and "quality 3" in res["text"]["en"]


@pytest.mark.parametrize(
    "dice,outcome,s,u",
    [([1, 1, 9, 3], "critical", 1, 2), ([1, 9, 4], "success", 1, 1), ([2, 5, 7], "failure", 0, 0)],
)
def test_outcomes_w_t7_to_w_t9(dice: list[int], outcome: str, s: int, u: int) -> None:
    t = table()
    send(t, "test", {"dice": len(dice), "competence": 2, "sr": 10})
    out = send(t, "roll", {"dice": dice})
    assert out[0]["data"]["outcome"] == outcome
    assert (out[0]["data"]["successes"], out[0]["data"]["ones"]) == (s, u)
    assert out[0]["data"]["critical_failure"] == (outcome == "critical")


def test_low_and_high_thresholds_w_t10() -> None:
    assert evaluate([2, 1, 3], 8 - 9).outcome == "success"
    assert evaluate([2, 1, 3], 8 - 9).successes == 2
    r = evaluate([9, 10, 9], 13 - 1)
    assert (r.successes, r.outcome) == (1, "success")
    t = table()
    send(t, "test", {"dice": 3, "competence": 1, "sr": 13})
    assert send(t, "roll", {"dice": [9, 0, 9]})[0]["data"]["successes"] == 1  # a 0 face reads 10


def test_quality_option_net() -> None:
    t = table({"quality": "net"})
    send(t, "test", {"dice": 4, "competence": 2})
    assert send(t, "roll", {"dice": [9, 9, 8, 1]})[0]["data"]["quality"] == 2
    send(t, "test", {"dice": 2, "competence": 2})
    assert send(t, "roll", {"dice": [9, 1]})[0]["data"]["quality"] == 1  # a bare success


def test_threshold_rule_above_option() -> None:
    t = table({"threshold_rule": "above"})
    send(t, "test", {"dice": 2, "competence": 2})
    assert send(t, "roll", {"dice": [8, 9]})[0]["data"]["successes"] == 1


# -- the test's life -----------------------------------------------------------------
def test_expects_roll_with_odds_then_result() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "Feu", "skill": "magistrat"})
    exp = sj(t)["expects"]
    assert exp["step"] == "roll" and exp["dice"] == [{"kind": "d10", "count": 5}] and exp["who"] == "Lin"
    assert abs(exp["odds"]["success"] - 0.79488) < 1e-12 and abs(exp["odds"]["critical_failure"] - 0.12736) < 1e-12
    assert abs(sum(exp["odds"]["successes"].values()) - 1) < 1e-12
    send(t, "roll", {"dice": [2, 5, 7, 3, 4]})
    st_ = sj(t)
    assert st_["expects"]["step"] == "test" and st_["last"]["kind"] == "test.failure"


def test_wrong_number_of_dice_is_refused() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu"})
    assert "waits for 5" in refused(t, "roll", {"dice": [1, 2, 3]}, rule="R7")
    refused(t, "roll", {"dice": [1, 2, 3, 4, 11]}, says="not 11")
    refused(t, "roll", {"dice": "12345"}, says="must be a list of d10 faces")


def test_specialisation_hobby_and_untrained_r3() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu", "skill": "Tir à l'arc", "sr": 12})
    tj = sj(t)["tests"][0]
    assert (tj["how"], tj["competence"], tj["rerolls"], tj["skill"]) == ("specialisation", 5, 2, "Chasseur")
    send(t, "test", {"who": "Lin", "attribute": "eau", "skill": "Herboristerie"})
    tj = sj(t)["tests"][0]
    assert (tj["how"], tj["competence"], tj["rerolls"]) == ("hobby", 3, 0)
    send(t, "test", {"who": "Lin", "attribute": "bois", "competence": 0})
    assert sj(t)["tests"][0]["threshold"] == 10
    refused(t, "test", {"who": "Lin", "attribute": "bois", "skill": "Cuisine"}, rule="R2")


@pytest.mark.parametrize("level,rerolls", [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (10, 3)])
def test_reroll_count_by_level_w5(level: int, rerolls: int) -> None:
    c = {**LIN, "skills": [{"name": "Chasseur", "level": level}, {"name": "Tir à l'arc", "parent": "Chasseur"}]}
    t = table(None, c)
    send(t, "test", {"who": "Lin", "attribute": "feu", "skill": "tir a l'arc"})
    assert sj(t)["tests"][0]["rerolls"] == rerolls


def test_reroll_keeps_the_other_dice_r9() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu", "skill": "Tir à l'arc", "sr": 13})  # T 8, 2 re-rolls
    out = send(t, "roll", {"dice": [1, 1, 9, 3, 4]})
    assert out[0]["data"]["outcome"] == "critical"
    exp = sj(t)["expects"]
    assert exp["step"] == "reroll" and exp["max"] == 2 and exp["choices"] == [0, 1, 3, 4]
    assert "failed dice" in refused(t, "reroll", {"indices": [2]}, rule="R9")
    send(t, "reroll", {"indices": [0, 1]})
    exp = sj(t)["expects"]
    assert exp["step"] == "reroll_dice" and exp["dice"] == [{"kind": "d10", "count": 2}] and exp["indices"] == [0, 1]
    out = send(t, "roll", {"dice": [8, 2]}, Source.CAMERA)
    assert sj(t)["tests"][0]["faces"] == [8, 2, 9, 3, 4]
    assert out[0]["data"]["outcome"] == "success" and out[0]["data"]["successes"] == 2
    assert "no re-roll available" in refused(t, "reroll", {"indices": [3]}, rule="R9")


def test_reroll_refusals_w5() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu", "skill": "Tir à l'arc", "sr": 13})
    send(t, "roll", {"dice": [1, 2, 9, 3, 4]})
    assert "failed dice" in refused(t, "reroll", {"indices": [2]}, rule="R9")
    assert "left" in refused(t, "reroll", {"indices": [0, 1, 3]}, rule="R9")
    refused(t, "reroll", {"indices": [7]}, says="position 7 is not in the pool")
    refused(t, "reroll", {"indices": [0, 0]}, says="named twice")
    send(t, "reroll", {"indices": [1], "dice": [3]})
    assert "already re-rolled" in refused(t, "reroll", {"indices": [1]}, rule="W5")


def test_reroll_options_ones_and_once() -> None:
    t = table({"reroll_ones": False, "reroll_once": False})
    send(t, "test", {"who": "Lin", "attribute": "feu", "skill": "Tir à l'arc", "sr": 13})
    send(t, "roll", {"dice": [1, 2, 9, 3, 4]})
    refused(t, "reroll", {"indices": [0]}, rule="R9")
    send(t, "reroll", {"indices": [1], "dice": [5]})
    send(t, "reroll", {"indices": [1], "dice": [8]})  # the same die again is allowed
    assert sj(t)["tests"][0]["result"]["successes"] == 2


def test_accept_closes_the_test() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu", "skill": "Tir à l'arc", "sr": 13})
    refused(t, "accept", {}, rule="R7")  # dice awaited
    send(t, "roll", {"dice": [1, 2, 9, 3, 4]})
    send(t, "accept", {})
    refused(t, "reroll", {"indices": [0]}, rule="R9")
    refused(t, "correct", {"dice": [1, 2, 9, 3, 5]}, rule="R7")
    assert sj(t)["expects"]["step"] == "test"


def test_corrections() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu", "competence": 2})
    refused(t, "correct", {"dice": [1, 2, 3, 4, 5]}, rule="R7")  # nothing rolled yet
    send(t, "roll", {"dice": [7, 7, 7, 7, 1]}, Source.CAMERA)
    out = send(t, "correct", {"dice": [8, 7, 7, 7, 1]}, Source.CORRECTION)
    assert out[0]["data"]["successes"] == 1 and out[0]["kind"] == "test.success"
    out = send(t, "correct", {"index": 4, "value": 9}, Source.CORRECTION)
    assert sj(t)["tests"][0]["faces"] == [8, 7, 7, 7, 9]
    assert sj(t)["last"]["source"] == "correction"
    refused(t, "correct", {"dice": [8, 7]}, rule="R7")
    refused(t, "correct", {"index": 9, "value": 2}, says="index must be 0..4")


def test_sr_range_r8() -> None:
    t = table()
    refused(t, "test", {"who": "Lin", "attribute": "feu", "sr": 7}, rule="R7")
    refused(t, "test", {"who": "Lin", "attribute": "feu", "sr": 14}, rule="R7")
    refused(t, "test", {"who": "Lin", "attribute": "ciel"}, says="unknown attribute 'ciel'")
    refused(t, "test", {"who": "Nobody", "attribute": "feu"}, rule="R1")
    refused(t, "bogus", {}, says="unknown Wuxia event 'wuxia.bogus'")


# -- Destiny Dice (R11, W6) ----------------------------------------------------------
def test_destiny_recorded_by_default() -> None:
    t = table()
    refused(t, "destiny_spend", {"who": "Lin"}, rule="R11")  # none yet
    send(t, "destiny", {"who": "Lin", "award": 2, "reason": "Drame"})
    send(t, "test", {"who": "Lin", "attribute": "feu", "competence": 2})
    out = send(t, "destiny_spend", {"who": "Lin"})
    assert out[0]["data"]["effect"] == "record" and out[0]["data"]["destiny"] == 1
    assert sj(t)["tests"][0]["destiny_spent"] == 1 and sj(t)["expects"]["dice"][0]["count"] == 5
    assert sj(t)["characters"][0]["destiny"] == 1


def test_destiny_extra_die_option() -> None:
    t = table({"destiny_effect": "extra_die"})
    send(t, "destiny", {"who": "Lin", "award": 2})
    send(t, "test", {"who": "Lin", "attribute": "feu", "competence": 2})
    send(t, "destiny_spend", {"who": "Lin"})
    assert sj(t)["expects"]["dice"][0]["count"] == 6
    send(t, "roll", {"dice": [2, 2, 2, 2, 2, 1]})
    send(t, "destiny_spend", {"who": "Lin"})
    assert sj(t)["expects"]["step"] == "extra_dice"
    out = send(t, "roll", {"dice": [9]})
    assert sj(t)["tests"][0]["faces"] == [2, 2, 2, 2, 2, 1, 9] and out[0]["data"]["outcome"] == "success"


def test_destiny_reroll_option_may_take_a_success() -> None:
    t = table({"destiny_effect": "reroll"})
    send(t, "destiny", {"who": "Lin", "award": 1})
    send(t, "test", {"who": "Lin", "attribute": "feu", "competence": 2})
    send(t, "roll", {"dice": [8, 2, 2, 2, 2]})
    refused(t, "reroll", {"indices": [0]}, rule="R9")
    send(t, "destiny_spend", {"who": "Lin"})
    send(t, "reroll", {"indices": [0], "dice": [10]})
    assert sj(t)["tests"][0]["faces"][0] == 10


# -- competition (R10, W7) -----------------------------------------------------------
WEI = {"name": "Wei", "attributes": {"metal": 5, "feu": 4, "terre": 4, "eau": 4, "bois": 3}, "check": False,
       "skills": [{"name": "Artiste martial", "kind": "profession", "level": 2}]}


@pytest.mark.parametrize(
    "a,b,kind,winner",
    [
        ([8, 9, 2, 2, 2], [8, 2, 2, 2], "contest.winner", "Lin"),
        ([8, 2, 2, 2, 2], [8, 2, 2, 2], "contest.tie", None),
        ([8, 9, 1, 1, 1], [8, 2, 2, 2], "contest.winner", "Wei"),  # critical cannot win
        ([1, 1, 2, 2, 2], [1, 2, 2, 2], "contest.none", None),
    ],
)
def test_competition(a: list[int], b: list[int], kind: str, winner: str | None) -> None:
    t = table(None, LIN, WEI)
    send(t, "contest", {"participants": [{"who": "Lin", "attribute": "feu", "competence": 2},
                                         {"who": "Wei", "attribute": "feu", "competence": 2}]})
    exp = sj(t)["expects"]
    assert exp["who"] == "Lin"
    co = exp["contest_odds"]
    assert abs(sum(co["wins"].values()) + co["tie"] + co["nobody"] - 1) < 1e-12 and co["wins"]["Lin"] > co["wins"]["Wei"]
    send(t, "roll", {"dice": a})
    assert sj(t)["expects"]["who"] == "Wei"
    out = send(t, "roll", {"dice": b})
    assert out[-1]["kind"] == kind and out[-1]["data"]["winner"] == winner


def test_competition_net_score_option() -> None:
    t = table({"contest_score": "net", "contest_critical_loses": False}, LIN, WEI)
    send(t, "contest", {"participants": [{"who": "Lin", "attribute": "feu", "competence": 2},
                                         {"who": "Wei", "attribute": "feu", "competence": 2}]})
    send(t, "roll", {"who": "Wei", "dice": [8, 2, 2, 2]})
    out = send(t, "roll", {"who": "Lin", "dice": [8, 9, 1, 2, 2]})
    assert out[-1]["kind"] == "contest.tie"


# -- log, replay, purity ---------------------------------------------------------------
def test_example_log_replays() -> None:
    from companion.log import read_jsonl

    path = ROOT / "examples" / "wuxia-session.jsonl"
    with path.open(encoding="utf-8") as fh:
        events = read_jsonl(fh, strict=True)
    t = Table().replay([e.with_seq(i + 1) for i, e in enumerate(events)], strict=True)
    state = GAME.state_json(t.state)
    json.dumps(state)
    assert state["characters"][1]["wounds"] == 3
    assert GAME.describe(t.state, "en").startswith("Wuxia")


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("wuxia-*.jsonl")), ids=lambda p: p.name)
def test_every_example_replays_strictly(path: Path) -> None:
    from companion.log import read_jsonl

    with path.open(encoding="utf-8") as fh:
        events = read_jsonl(fh, strict=True)
    t = Table().replay([e.with_seq(i + 1) for i, e in enumerate(events)], strict=True)
    assert t.skipped == [] and len(t.frames) == len(events)
    json.dumps(GAME.state_json(t.state))


def test_apply_is_pure_and_deterministic() -> None:
    t = table()
    s0 = t.state
    ev = Event("wuxia.test", {"who": "Lin", "attribute": "feu"}, seq=9)
    a, oa = GAME.apply(s0, ev, random.Random(1))
    b, ob = GAME.apply(s0, ev, random.Random(2))
    assert a == b and oa == ob and t.state is s0


@given(st.lists(st.integers(1, 10), min_size=1, max_size=12), st.integers(-2, 13))
def test_evaluate_counts(faces: list[int], th: int) -> None:
    r = evaluate(faces, th)
    assert r.successes + r.ones + r.classes.count("failure") == len(faces)
    assert r.ones == faces.count(1)
    assert r.successes >= faces.count(10)
    assert (r.outcome == "critical") == (r.ones > r.successes)


def test_camera_read_fills_the_pool() -> None:
    def obj(v: int | None, status: str = "read", kind: str = "d10") -> dict[str, Any]:
        return {"kind": kind, "value": v, "box": [0, 0, 10, 10], "confidence": 0.9, "status": status}

    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu", "competence": 2})
    assert "unsure of 1" in refused(t, "roll", {"read": {"objects": [obj(8), obj(9), obj(None, "pending"), obj(2), obj(3)]}}, rule="R7")
    refused(t, "roll", {"read": {"objects": [obj(8), obj(9)]}}, rule="R7")  # 2 of 5 dice
    refused(t, "roll", {"read": "photo.jpg"}, says="must be a camera read")
    out = send(t, "roll", {"read": {"objects": [obj(8), obj(9), obj(10), obj(2), obj(1), obj(4, kind="d6")]}}, Source.CAMERA)
    assert out[0]["data"]["dice"] == [8, 9, 10, 2, 1] and out[0]["data"]["successes"] == 3


def test_state_keeps_the_last_result_explained() -> None:
    t = table()
    send(t, "test", {"who": "Lin", "attribute": "feu", "competence": 2})
    send(t, "roll", {"dice": [1, 1, 9, 3, 2]})
    send(t, "accept", {})
    r = sj(t)["result"]
    assert (r["who"], r["successes"], r["ones"], r["critical_failure"], r["quality"]) == ("Lin", 1, 2, True, 0)
    assert "échec critique" in r["text"]["fr"] and "critical failure" in r["text"]["en"]
