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


def test_espri_gems_with_no_colour_say_nothing_white_was_in_view() -> None:
    """A gem pending with no value at all: the reader had no white to measure colours
    against (a plain photo of a dark felt). The message leads with that and the fix."""
    state = {"expects": {"step": "draw", "gems": 2}}
    blind = [die("gem", None, status="pending", conf=0.0), die("gem", None, 50, status="pending", conf=0.0)]
    m = match_read("espri", state, blind)
    assert m.status == "pending" and m.message["en"].startswith("Colours unreadable: nothing white in view.")
    assert "carte blanche" in m.message["fr"] and "Touchez" not in m.message["fr"].split(".")[0]
    m = match_read("espri", state, blind[:1])  # one gem for two: the count is said as well
    assert m.message["en"].startswith("Colours unreadable") and "2 gem(s) expected, 1 read" in m.message["en"]
    m = match_read("espri", state, [die("gem", "hiver", status="pending", conf=0.6), die("gem", "ete", 50)])
    assert m.status == "pending" and "unreadable" not in (m.message or {}).get("en", "")  # a colour, just unsure


def test_corrections_of_applied_reads() -> None:
    # the read's own event again, as the dice now stand, naming the event it corrects
    rec = {"type": "wuxia.roll", "objects": [die("d10", 4), die("d10", 6, 50)], "used": [0, 1],
           "positions": [3, 4], "data": {"who": "Lin", "dice": [4, 2]}, "seq": 12}
    assert correction_event(rec, 1) == ("wuxia.roll", {"who": "Lin", "dice": [4, 6], "corrects": 12})
    assert correction_event({**rec, "type": "shayo.roll", "data": {"dice": [4, 2]}}, 1) == \
        ("shayo.roll", {"dice": [4, 6], "corrects": 12})
    pe = {"type": "peripeties.dice", "objects": [die("d10", 8)], "used": [0], "data": {"dice": [{"kind": "d10", "value": 5}]},
          "seq": 7}
    assert correction_event(pe, 0) == ("peripeties.dice", {"dice": [{"kind": "d10", "value": 8, "box": [0, 10, 40, 40],
                                                                     "confidence": 0.95}], "corrects": 7})
    assert correction_event(rec, 5) is None
    assert correction_event({**rec, "seq": None}, 1) is None  # no event to amend


# -- Shayo re-roll signatures: the declared dice rolled again, read by the camera ----------
def shayo_reroll(faces, indices, mode="replace", sig="relance_echec"):
    return {"expects": {"step": "reroll_dice", "signature": {"id": sig}, "indices": indices, "mode": mode,
                        "dice": [{"kind": "d10", "count": len(indices)}], "faces": faces}}


def read_of(values, xs):
    """An applied read of the whole pool, die i at x = xs[i]."""
    return {"objects": [die("d10", v, x) for v, x in zip(values, xs)], "used": list(range(len(values))),
            "positions": list(range(len(values)))}


def test_shayo_reroll_with_only_the_rerolled_dice_in_the_tray() -> None:
    m = match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), [die("d10", 9, 300), die("gem", "ete", 500)])
    assert (m.status, m.type) == ("ready", "shayo.signature")
    assert m.data == {"signature": "relance_echec", "dice": [1], "values": [9]}
    assert m.positions == [1] and m.unexpected == [1]
    m = match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), [die("d10", None, 300, status="pending")])
    assert m.status == "pending" and m.data["values"] == [None]  # never guessed


def test_shayo_reroll_with_the_kept_dice_left_in_place_twice() -> None:
    prev = read_of([8, 3, 2, 1], [0, 100, 200, 300])
    # the 3 was picked up and re-rolled: it shows a 9 elsewhere; the others did not move
    objs = [die("d10", 8, 2), die("d10", 1, 301), die("d10", 2, 198), die("d10", 9, 450)]
    m = match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), objs, prev)
    assert m.status == "ready" and m.data["values"] == [9] and m.positions == [1] and m.used == [3]
    assert m.unexpected == [0, 1, 2] and (m.kept, m.kept_positions) == ([0, 2, 1], [0, 2, 3])
    assert "Kept dice recognised" in m.message["en"]
    # the read (as the service stores it) lets the next re-roll of the test leave them in place again
    rec = {"objects": objs, "used": m.used, "positions": m.positions, "kept": m.kept, "kept_positions": m.kept_positions}
    again = [die("d10", 8, 1), die("d10", 1, 300), die("d10", 7, 600), die("d10", 9, 452)]
    m = match_read("shayo", shayo_reroll([8, 9, 2, 1], [2], sig="relance_2"), again, rec)
    assert m.status == "ready" and m.data == {"signature": "relance_2", "dice": [2], "values": [7]}
    assert m.used == [2] and m.kept_positions == [0, 1, 3]


def test_shayo_reroll_with_a_kept_die_moved_is_pending_and_says_why() -> None:
    prev = read_of([8, 3, 2, 1], [0, 100, 200, 300])
    objs = [die("d10", 8, 2), die("d10", 1, 301), die("d10", 2, 260), die("d10", 9, 450)]  # the 2 was nudged
    m = match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), objs, prev)
    assert m.status == "pending" and not m.data.get("values")
    assert "kept dice are not all where they were" in m.message["en"]
    assert "Pas un dé" in m.message["fr"]
    # a kept die showing another face is not "in place" either
    objs[2] = die("d10", 5, 200)
    assert match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), objs, prev).status == "pending"
    # the roll was typed: the camera never saw the kept dice
    m = match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), objs, {})
    assert m.status == "pending" and "the camera did not see where the kept dice lie" in m.message["en"]
    # two dice for one re-rolled: the plain count message
    m = match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), objs[:2], prev)
    assert m.status == "pending" and m.message["en"].startswith("1 d10 expected, 2 read")


def test_shayo_extra_die_ten_adds_dice_after_the_pool() -> None:
    state = shayo_reroll([10, 10, 5], [0], mode="extra_die", sig="relance_10")
    m = match_read("shayo", state, [die("d10", 4, 400)])
    assert m.data["values"] == [4] and m.positions == [3]
    prev = read_of([10, 10, 5], [0, 100, 200])
    objs = [die("d10", 10, 0), die("d10", 10, 100), die("d10", 5, 200), die("d10", 6, 400)]  # the 10s stay
    m = match_read("shayo", state, objs, prev)
    assert m.status == "ready" and m.data["values"] == [6] and m.positions == [3] and m.used == [3]


def test_shayo_reroll_reads_corrected_on_the_photo() -> None:
    from companion.roll.match import ready_data

    m = match_read("shayo", shayo_reroll([8, 3, 2, 1], [1]), [die("d10", None, 300, status="pending")])
    objs = [{**die("d10", 6, 300), "status": "corrected"}]
    assert ready_data(m, objs) == {"signature": "relance_echec", "dice": [1], "values": [6]}
    rec = {"type": "shayo.signature", "objects": [die("gem", "ete"), die("d10", 6, 300)], "used": [1],
           "positions": [1], "data": {"signature": "relance_echec", "dice": [1], "values": [5]}, "seq": 9}
    assert correction_event(rec, 1) == ("shayo.signature", {"signature": "relance_echec", "dice": [1], "values": [6],
                                                            "corrects": 9})
    assert correction_event(rec, 0) is None


def test_wuxia_extra_dice_with_the_pool_left_in_place() -> None:
    prev = read_of([2, 9, 3], [0, 100, 200])
    state = {"expects": {"step": "extra_dice", "who": "Lin", "test": 0, "dice": [{"kind": "d10", "count": 1}]},
             "tests": [{"faces": [2, 9, 3]}]}
    objs = [die("d10", 2, 1), die("d10", 9, 99), die("d10", 3, 200), die("d10", 7, 420)]
    m = match_read("wuxia", state, objs, prev)
    assert m.status == "ready" and m.data == {"dice": [7], "who": "Lin"} and m.positions == [3]
