from __future__ import annotations

from companion.roll.match import correction_event, match_read


def die(kind, value, x=0, status="read", conf=0.95):
    return {"kind": kind, "value": value, "box": [x, 10, 40, 40], "confidence": conf, "status": status}


POOL = {"expects": {"step": "roll", "who": "Lin", "test": 0, "dice": [{"kind": "d10", "count": 3}]}, "tests": [{}]}


def test_wuxia_pool_becomes_a_roll_event() -> None:
    m = match_read("wuxia", POOL, [die("d10", 7), die("d10", 1, 50), die("gem", "ete", 100)])
    assert m.status == "pending"  # two d10 for three
    m = match_read("wuxia", POOL, [die("d10", 7), die("d10", 1, 50), die("d10", 10, 90), die("gem", "ete", 100)])
    assert (m.status, m.type, m.data) == ("ready", "wuxia.roll", {"dice": [7, 1, 10], "who": "Lin"})
    assert m.unexpected == [3]


def test_a_pending_die_keeps_the_read_pending_without_a_guess() -> None:
    m = match_read("shayo", {"expects": {"step": "roll", "dice": [{"kind": "d10", "count": 2}]}},
                   [die("d10", None, status="pending"), die("d10", 4, 60)])
    assert m.status == "pending" and m.data["dice"] == [None, 4]


def test_wuxia_reroll_with_kept_dice_left_in_place() -> None:
    prev = {"objects": [die("d10", 2, 0), die("d10", 9, 100), die("d10", 3, 200)], "used": [0, 1, 2],
            "positions": [0, 1, 2]}
    state = {"expects": {"step": "reroll_dice", "who": "Lin", "test": 0, "dice": [{"kind": "d10", "count": 2}],
                         "indices": [0, 2]}, "tests": [{"faces": [2, 9, 3]}]}
    # die 1 (the 9) did not move; the other two were re-rolled and landed elsewhere
    objs = [die("d10", 8, 210), die("d10", 9, 102), die("d10", 5, 400)]
    m = match_read("wuxia", state, objs, prev)
    assert m.status == "ready"
    assert m.data["dice"] == [8, 5] and m.positions == [0, 2]
    assert m.unexpected == [1]


def test_peripeties_sends_expected_kinds_only() -> None:
    state = {"expects": {"event": "peripeties.dice", "dice": [{"kind": "lieu", "count": 1}, {"kind": "d10", "count": 2}],
                         "have": {}}}
    m = match_read("peripeties", state, [die("lieu", "ville"), die("gem", "ete", 50), die("d10", 4, 90)])
    assert m.type == "peripeties.dice" and m.status == "ready"
    assert [d["kind"] for d in m.data["dice"]] == ["lieu", "d10"] and m.unexpected == [1]


def test_espri_gem_count_and_idle_steps() -> None:
    state = {"expects": {"step": "draw", "gems": 2}}
    m = match_read("espri", state, [die("gem", "hiver"), die("gem", "temps", 50)])
    assert (m.type, m.data) == ("espri.draw", {"gems": ["hiver", "temps"]})
    assert match_read("espri", {"expects": {"step": "appel"}}, [die("gem", "hiver")]).status == "idle"
    assert match_read(None, None, []).status == "idle"


def test_corrections_of_applied_reads() -> None:
    rec = {"type": "wuxia.roll", "objects": [die("d10", 4), die("d10", 6, 50)], "used": [0, 1],
           "positions": [3, 4], "data": {"who": "Lin"}}
    assert correction_event(rec, 1) == ("wuxia.correct", {"index": 4, "value": 6, "who": "Lin"})
    assert correction_event({**rec, "type": "shayo.roll"}, 1) == ("shayo.correct", {"index": 1, "value": 6})
    assert correction_event(rec, 5) is None
