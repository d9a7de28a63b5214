"""Shayo re-roll signatures in two steps: declared on chosen dice
(``shayo.signature_declare``), then completed by their new faces (``shayo.signature``
with ``values``, read by the camera or typed); the one-shot form still works."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.events import parse_event
from companion.table import Table

from tests.companion.games.shayo.test_shayo_game import AIKO, T, _aiko_test

RELANCES = {"name": "Kenji", "attributes": {"INS": 2, "AGI": 5}, "skills": {"Kenjutsu": 5},
            "signatures": {"kenjutsu": ["relance_1", "relance_echec"]}}


def _rolled(dice: list[int], options: dict[str, Any] | None = None) -> T:
    """Aiko (relance_echec) has rolled ``dice`` at AGI 4 under Kenjutsu 3, difficulty 7."""
    t = T(options)
    t.send("shayo.character", AIKO)
    _aiko_test(t)
    t.send("shayo.roll", {"dice": dice})
    return t


def test_declare_then_the_new_faces_complete_the_re_roll() -> None:
    t = _rolled([8, 3, 2, 1])
    res = t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
    assert [o.kind for o in res.outcomes] == ["signature.declared"]
    assert res.outcomes[0].text["fr"].endswith("Relancez 1 dé : position 2.")
    exp = t.json["expects"]
    assert exp["step"] == "reroll_dice" and exp["indices"] == [1] and exp["mode"] == "replace"
    assert exp["dice"] == [{"kind": "d10", "count": 1}] and exp["faces"] == [8, 3, 2, 1]
    assert exp["signature"]["id"] == "relance_echec"
    assert exp["text"] == {"fr": "Relancez 1 dé : position 2", "en": "Re-roll 1 die: position 2"}
    assert t.json["test"]["awaiting"] == {"signature": "relance_echec", "dice": [1]}
    assert t.last is None  # nothing counted while the die is awaited
    res = t.send("shayo.signature", {"values": [9]}, source="camera")
    assert [o.kind for o in res.outcomes] == ["signature", "test.success"]
    assert t.last["dice"] == [8, 9, 2, 1] and t.last["signatures"][0]["before"] == [3]
    assert t.json["expects"]["step"] == "idle"


def test_the_completion_may_repeat_the_signature_and_its_dice() -> None:
    t = _rolled([8, 3, 2, 1])
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [2]})
    t.refused("shayo.signature", {"signature": "relance_echec", "dice": [1], "values": [9]}, rule="R4")
    t.send("shayo.signature", {"signature": "relance_echec", "dice": [2], "values": [7]})
    assert t.last["dice"] == [8, 3, 7, 1]


def test_two_steps_and_one_shot_give_the_same_table() -> None:
    one = _rolled([8, 3, 2, 1])
    one.send("shayo.signature", {"signature": "relance_echec", "dice": [1], "values": [9]})
    two = _rolled([8, 3, 2, 1])
    two.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
    two.send("shayo.signature", {"values": [9]})
    assert one.last == two.last and one.json["characters"] == two.json["characters"]


@pytest.mark.parametrize("data", [
    {"signature": "nope", "dice": [1]},
    {"signature": "relance_echec", "dice": [0]},  # the 8 is a success
    {"signature": "relance_echec", "dice": [1, 2]},  # count 1
    {"signature": "relance_echec", "dice": []},
    {"signature": "relance_echec", "dice": [1, 1]},
    {"signature": "relance_echec", "dice": "1"},
])
def test_a_declaration_is_refused_exactly_like_the_one_shot(data: dict[str, Any]) -> None:
    t = _rolled([8, 3, 2, 1])
    # a RuleError's message ends with its rule id: the kind of refusal is compared too
    assert t.refused("shayo.signature_declare", data) == t.refused("shayo.signature", {**data, "values": [9]})


def test_declaration_refusals() -> None:
    t = T()
    t.send("shayo.test", {"attribute": 3, "skill": 2, "difficulty": 8, "signatures": ["annule_1", "relance_1", "plus_1"]})
    t.refused("shayo.signature_declare", {"signature": "relance_1", "dice": [0]}, rule="R3")  # nothing rolled yet
    t.send("shayo.roll", {"dice": [7, 1, 9]})
    assert "shayo.signature_declare" in t.json["expects"]["choices"]
    assert "apply it at once" in t.refused("shayo.signature_declare", {"signature": "annule_1", "dice": [1]}, rule="R4")
    assert "no 'values' yet" in t.refused("shayo.signature_declare", {"signature": "relance_1", "dice": [1], "values": [5]})
    t.send("shayo.signature_declare", {"signature": "relance_1", "dice": [1]})
    # while the die is awaited: no other signature, no keep, no second declaration
    for etype, data in [("shayo.signature_declare", {"signature": "relance_1", "dice": [1]}),
                        ("shayo.signature", {"signature": "annule_1", "dice": [1]}),
                        ("shayo.keep", {}), ("shayo.keep", {"dice": [0, 1]}),
                        ("shayo.ki", {"rolled": 1}), ("shayo.test", {"attribute": 1, "skill": 1, "difficulty": 5})]:
        msg = t.refused(etype, data)
        assert etype in ("shayo.ki", "shayo.test") or "waits for the new faces" in msg
    t.refused("shayo.signature", {"values": [5, 6]})  # one die declared
    t.refused("shayo.signature", {})  # typed by hand: the face is needed
    t.refused("shayo.signature_cancel", {"signature": "annule_1"}, rule="R3")
    t.send("shayo.signature", {"values": [9]})
    assert t.last["dice"] == [7, 9, 9] and t.json["test"] is None
    t.refused("shayo.signature_cancel", {}, rule="R3")  # nothing is awaited any more


def test_withdraw_or_undo_a_declaration() -> None:
    t = _rolled([8, 3, 2, 1])
    before = t.json
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
    res = t.send("shayo.signature_cancel", {})
    assert res.outcomes[0].kind == "signature.withdrawn"
    assert t.json == before  # the signature is still available, on any die
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [2]})
    t.send("undo", {})
    assert t.json == before
    t.send("shayo.signature", {"signature": "relance_echec", "dice": [1], "values": [10]})
    assert t.last["dice"] == [8, 10, 2, 1]


def test_the_companion_may_roll_a_declared_re_roll() -> None:
    t = _rolled([8, 3, 2, 1])
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
    t.send("shayo.signature", {}, source="system")
    assert t.last["signatures"][0]["before"] == [3] and 1 <= t.last["dice"][1] <= 10


@pytest.mark.parametrize("declared", [True, False])
def test_a_correction_keeps_the_faces_the_companion_rolled(declared: bool) -> None:
    # the correction event has its own random draw: the re-roll must not be rolled again
    for seed in range(6):
        t = T(seed=seed)
        t.send("shayo.character", AIKO)
        _aiko_test(t)
        t.send("shayo.roll", {"dice": [8, 3, 2, 1]})
        if declared:
            t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
            t.send("shayo.signature", {}, source="system")
        else:
            t.send("shayo.signature", {"signature": "relance_echec", "dice": [1]}, source="system")
        rolled = t.last["dice"][1]
        t.send("shayo.correct", {"index": 3, "value": 6}, source="correction")
        assert t.last["dice"] == [8, rolled, 2, 6]


def test_a_declared_re_roll_survives_a_correction_of_the_roll() -> None:
    t = _rolled([8, 3, 2, 1])
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
    t.send("shayo.correct", {"index": 3, "value": 6}, source="correction")
    assert t.json["expects"]["step"] == "reroll_dice" and t.json["expects"]["faces"] == [8, 3, 2, 6]
    t.refused("shayo.correct", {"index": 1, "value": 9}, rule="R3")  # die 1 would no longer be a failure
    t.send("shayo.signature", {"values": [9]})
    assert t.last["dice"] == [8, 9, 2, 6]


def test_correct_the_new_face_of_a_re_roll() -> None:
    t = _rolled([8, 3, 2, 1])
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
    t.send("shayo.signature", {"signature": "relance_echec", "dice": [1], "values": [9]}, source="camera")
    assert t.last["net"] == 1
    res = t.send("shayo.correct", {"signature": "relance_echec", "index": 0, "value": 4}, source="correction")
    assert res.outcomes[0].data == {"before": [9], "after": [4], "signature": "relance_echec"}
    assert t.last["dice"] == [8, 4, 2, 1] and t.last["net"] == 0
    t.send("shayo.correct", {"signature": "relance_echec", "values": [7]}, source="correction")
    assert t.last["dice"] == [8, 7, 2, 1]
    t.refused("shayo.correct", {"signature": "relance_echec", "values": [7, 8]})
    t.refused("shayo.correct", {"signature": "relance_1", "index": 0, "value": 4}, rule="R3")


def test_two_re_rolls_in_one_test() -> None:
    t = T()
    t.send("shayo.character", RELANCES)
    t.send("shayo.test", {"who": "Kenji", "attribute": "AGI", "skill": "Kenjutsu", "difficulty": 7})
    t.send("shayo.roll", {"dice": [1, 4, 9, 1, 3]})
    t.send("shayo.signature_declare", {"signature": "relance_1", "dice": [0]})
    t.send("shayo.signature", {"values": [8]})
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [4]})
    assert t.json["expects"]["faces"] == [8, 4, 9, 1, 3]
    t.send("shayo.signature", {"values": [10]})
    assert t.last["dice"] == [8, 4, 9, 1, 10]  # nothing else could help: counted
    t.send("shayo.correct", {"signature": "relance_1", "index": 0, "value": 2})
    assert t.last["dice"] == [2, 4, 9, 1, 10]


@pytest.mark.parametrize("mode,difficulty,dice,added", [("explode", 11, [20, 10, 5], None),
                                                         ("extra_die", 10, [10, 10, 5, 10], [10])])
def test_tens_in_both_modes(mode: str, difficulty: int, dice: list[int], added: list[int] | None) -> None:
    t = T({"tens_reroll": mode})
    t.send("shayo.test", {"attribute": 3, "skill": 3, "difficulty": difficulty,
                          "signatures": [{"id": "relance_10", "kind": "reroll", "which": "tens", "count": None}]})
    t.send("shayo.roll", {"dice": [10, 10, 5]})
    t.send("shayo.signature_declare", {"signature": "relance_10", "dice": [0]})
    exp = t.json["expects"]
    assert exp["mode"] == mode and exp["indices"] == [0] and exp["dice"][0]["count"] == 1
    assert exp["faces"] == [10, 10, 5]
    assert exp["text"]["fr"] == ("Lancez 1 dé de plus (pour le 10 en position 1)" if mode == "extra_die"
                                 else "Relancez 1 dé : position 1 (la nouvelle face s'ajoute au 10)")
    t.send("shayo.signature", {"values": [10]})
    assert t.last["dice"] == dice and t.last["signatures"][0].get("added") == added


def test_an_exploded_ten_shows_its_new_face_in_the_tray() -> None:
    t = T({"tens_reroll": "explode", "auto_keep": False})
    t.send("shayo.test", {"attribute": 3, "skill": 3, "difficulty": 12, "signatures": [
        {"id": "relance_10", "kind": "reroll", "which": "tens", "count": None}, "relance_echec"]})
    t.send("shayo.roll", {"dice": [10, 4, 3]})
    t.send("shayo.signature", {"signature": "relance_10", "dice": [0], "values": [6]})
    t.send("shayo.signature_declare", {"signature": "relance_echec", "dice": [1]})
    assert t.json["expects"]["faces"] == [6, 4, 3]  # the 16 is a 6 lying in the tray


def test_replay_of_a_two_step_log_is_byte_identical() -> None:
    events = [
        {"type": "table.new_game", "data": {"game": "shayo", "seed": 3}},
        {"type": "shayo.character", "data": RELANCES},
        {"type": "shayo.test", "data": {"who": "Kenji", "attribute": "AGI", "skill": "Kenjutsu", "difficulty": 7}},
        {"type": "shayo.roll", "data": {"dice": [1, 4, 9, 1, 3]}, "source": "camera"},
        {"type": "shayo.signature_declare", "data": {"signature": "relance_1", "dice": [3]}},
        {"type": "shayo.signature_cancel", "data": {}},
        {"type": "shayo.signature_declare", "data": {"signature": "relance_1", "dice": [0]}},
        {"type": "shayo.signature", "data": {"signature": "relance_1", "dice": [0], "values": [6]}, "source": "camera"},
        {"type": "shayo.correct", "data": {"signature": "relance_1", "index": 0, "value": 8}, "source": "correction"},
        {"type": "shayo.signature_declare", "data": {"signature": "relance_echec", "dice": [4]}},
        {"type": "shayo.signature", "data": {}, "source": "system"},
    ]
    log = [parse_event({"source": "manual", **e, "seq": i + 1, "at": "2026-01-01T00:00:00"})
           for i, e in enumerate(events)]
    live = Table()
    for ev in log:
        live.apply(ev)
    replayed = Table().replay(log, strict=True)
    dump = lambda tb: json.dumps(tb.to_json(), sort_keys=True, ensure_ascii=False)  # noqa: E731
    assert dump(replayed) == dump(live)
    assert live.to_json()["state"]["last"]["dice"][0] == 8
