"""ESPRI at the table: the spec's worked examples (section 4) played as events through the
real table fold, and the step-by-step flow (``expects``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.errors import RuleError
from companion.events import Event, Source
from companion.table import Table

GEMS = ("printemps", "ete", "automne", "hiver", "temps", "rupture")


def ev(type_: str, source: str = "manual", **data: Any) -> Event:
    return Event(f"espri.{type_}" if "." not in type_ else type_, data, Source(source))


class Play:
    """A table running ESPRI, fed event by event (seq numbers given like the log does)."""

    def __init__(self, **options: Any) -> None:
        self.table = Table()
        self.seq = 0
        self.send("table.new_game", game="espri", options=options, seed=7)

    def send(self, type_: str, source: str = "manual", **data: Any):
        self.seq += 1
        e = ev(type_, source, **data).with_seq(self.seq)
        return self.table.apply(e)

    def refuse(self, type_: str, rule: str, **data: Any) -> RuleError:
        before = self.table.state
        with pytest.raises(RuleError) as info:
            self.send(type_, **data)
        assert info.value.rule == rule, str(info.value)
        assert self.table.state is before  # the board is unchanged
        self.seq -= 1
        return info.value

    @property
    def state(self):
        return self.table.state

    @property
    def json(self) -> dict[str, Any]:
        """The state as the tablet gets it (through real JSON: it must serialise)."""
        return json.loads(json.dumps(self.table.to_json()["state"], allow_nan=False))

    def pool(self) -> dict[str, int]:
        return dict(zip(GEMS, self.state.pool))

    def quad(self, season: str):
        return self.state.board.q(season)

    def census_total(self) -> int:
        return sum(self.json["census"].values())


def guardian(cid: str, season: str, scores: dict[str, int], devotion: int, **extra: Any) -> dict[str, Any]:
    full = {s: 1 for s in ("hiver", "printemps", "ete", "automne")}
    full.update(scores)
    return {"id": cid, "name": extra.pop("name", cid.capitalize()), "role": "guardian", "season": season,
            "scores": full, "devotion": devotion, **extra}


def deva_table(**options: Any) -> Play:
    """E-T2's board: Hiver path cell 1 Hiver, cell 2 Rupture; Mÿelta on 0."""
    p = Play(**options)
    p.send("character", **guardian("deva", "hiver", {"hiver": 3}, 2, prayers=[], talents=["Abri"]))
    p.send("set_quadrant", season="hiver", cells=["hiver", "rupture"], nymph=0)
    return p


# -- E-T1: set-up, Annick -------------------------------------------------------------
def test_annick_setup() -> None:
    p = Play()
    p.send("character", **guardian("annick", "automne", {"automne": 3}, 2, harmony=5))
    assert p.json["expects"] == {"step": "setup_draw", "who": "annick", "character": "annick", "gems": 5}
    # the source's six-gem list is refused for a five-gem draw (E4)
    p.refuse("setup_draw", "R7", character="annick",
             gems=["printemps", "printemps", "rupture", "hiver", "temps", "ete"])
    p.send("setup_draw", character="annick", gems=["printemps", "rupture", "hiver", "temps", "temps"], source="camera")
    p.refuse("setup_draw", "R7", character="annick", gems=["printemps"], correction=True)
    p.send("setup_draw", character="annick", gems=["printemps", "rupture", "hiver", "temps", "ete"], source="correction")
    assert p.pool()["temps"] == 11 and p.pool()["ete"] == 11
    assert p.json["expects"]["step"] == "setup_keep" and p.json["expects"]["keep"] == 2
    p.refuse("setup_keep", "R7", keep=["rupture", "hiver"])  # Rupture is never kept
    p.send("setup_keep", keep=["hiver", "printemps"], place=["ete", "rupture", "temps"])
    assert p.quad("ete").cells[0] == "ete"
    assert p.quad("automne").cells[:2] == ("rupture", "temps")
    assert p.json["expects"] == {"step": "setup_gm", "who": "gm", "ruptures": 4}
    p.send("setup_gm", quadrants=["automne", "ete", "hiver", "printemps"])
    assert p.quad("automne").cells[2] == "rupture"
    assert p.quad("ete").cells[1] == "rupture"
    assert p.quad("hiver").cells[0] == "rupture"
    assert p.quad("printemps").cells[0] == "rupture"
    weather = {q["season"]: q["weather"] for q in p.json["board"]}
    assert weather == {"automne": 2, "ete": 1, "hiver": 1, "printemps": 1}
    census = p.json["census"]
    assert census == {"pool": 63, "board": 7, "prayers": 2, "hand": 0}
    assert p.json["expects"] == {"step": "appel", "who": "gm"}


# -- E-T2: Déva's Appel ---------------------------------------------------------------
def test_deva_appel_success() -> None:
    p = deva_table()
    pool_before = sum(p.state.pool)
    p.send("appel", season="hiver", leader="deva")
    assert p.json["expects"] == {"step": "draw", "who": "leader", "gems": 2, "N": 2,
                                 "automatic": None, "temptation": True}
    p.send("draw", gems=["temps", "printemps"], source="camera")
    exp = p.json["expects"]
    assert exp["step"] == "choose" and exp["chooser"] == "leader"
    by_key = {s["key"]: s["result"] for s in exp["selections"]}
    assert by_key == {"printemps": "bitter_success", "printemps+temps:up": "success",
                      "printemps+temps:down": "failure"}
    applied = p.send("choose", selection="printemps+temps:up")
    assert p.quad("hiver").cells[:3] == ("hiver", "rupture", "temps")
    assert p.quad("printemps").cells[0] == "printemps"
    assert p.quad("hiver").nymph == 2  # stopped by the Rupture gem
    assert p.quad("hiver").weather == 1
    assert sum(p.state.pool) == pool_before - 2
    last = p.json["last_appel"]
    assert last["result"] == "success"
    assert {(r["gem"], r["quadrant"], r["cell"]) for r in last["placements"]} == {
        ("temps", "hiver", 3), ("printemps", "printemps", 1)}
    assert [(m["season"], m["from"], m["to"]) for m in last["moves"]] == [("hiver", 0, 2)]
    assert any(o.kind == "espri.advance" for o in applied.outcomes)
    assert p.json["expects"] == {"step": "appel", "who": "gm"}


def test_deva_variant_down_is_failure() -> None:
    p = deva_table()
    p.send("appel", season="hiver", leader="deva")
    p.send("draw", gems=["temps", "printemps"])
    p.send("choose", gems=["printemps", "temps"], direction="down")
    assert p.quad("hiver").cells[:3] == (None, None, None)
    assert p.quad("hiver").weather == 0 and p.quad("hiver").nymph == 0
    removed = [r["cell"] for r in p.json["last_appel"]["removals"]]
    assert removed == [3, 2, 1]


# -- E-T3 / E-T4: N, Resonance and recharge ---------------------------------------------
def test_kirin_choosing_the_season() -> None:
    p = Play()
    p.send("character", **guardian("kirin", "ete", {"ete": 3, "hiver": 1, "automne": 2, "printemps": 2}, 2, prayers=[]))
    for s, cells in (("ete", ["rupture"] * 3), ("hiver", ["rupture"]), ("automne", ["rupture"])):
        p.send("set_quadrant", season=s, cells=cells)
    p.send("set_quadrant", season="printemps", cells=["rupture"])
    odds = p.json["odds"]["by_character"]["kirin"]
    assert (odds["ete"]["N"], odds["hiver"]["N"], odds["automne"]["N"]) == (0, 0, 1)
    p.send("appel", season="automne", leader="kirin")
    a = p.json["appel"]
    assert a["N"] == 1 and a["draw"] == 1
    p.send("draw", gems=["hiver"])
    assert p.json["expects"]["redraw"] == "leader"
    p.send("redraw", gems=["automne"])
    p.refuse("redraw", "R12", gems=["ete"])  # only once
    assert p.json["expects"]["selections"][0]["result"] == "success"


def test_ceres_resonance_and_recharge() -> None:
    p = deva_table()
    p.send("character", **guardian("ceres", "automne", {"automne": 3}, 2, prayers=[],
                                  relationships=[{"with": "deva", "resonance": 1, "nature": "Tendresse"}]))
    p.send("appel", season="hiver", leader="deva", helpers=[{"character": "ceres", "form": "resonance"}])
    assert p.json["appel"]["N"] == 3
    p.send("cancel")
    p.send("appel", season="hiver", leader="deva", helpers=[{"character": "ceres", "form": "resonance"}])
    p.send("draw", gems=["hiver", "hiver", "ete"])
    p.send("choose", selection="hiver")
    p.refuse("appel", "R29", season="hiver", leader="deva", helpers=[{"character": "ceres", "form": "resonance"}])
    p.send("recharge", character="ceres", **{"with": "deva"})
    assert p.json["characters"][1]["resonance"][0]["current"] == 1
    p.refuse("recharge", "R30", character="ceres", **{"with": "deva"})  # not at 0
    p.send("appel", season="hiver", leader="deva", helpers=[{"character": "ceres", "form": "resonance"}])
    p.send("cancel")  # gives the point back
    p.send("appel", season="hiver", leader="deva", helpers=[{"character": "ceres", "form": "resonance"}])
    p.send("draw", gems=["hiver", "automne", "ete"])
    p.send("choose", selection="hiver")
    p.refuse("recharge", "R30", character="ceres", **{"with": "deva"})  # twice the same day
    p.send("new_day")
    p.send("recharge", character="ceres", **{"with": "deva"})


# -- E-T5 / E-T6: the modifier table, Time or Rupture alone -----------------------------
def test_modifier_table_called_ete() -> None:
    p = Play()
    p.send("character", **guardian("sol", "ete", {"ete": 4}, 2, prayers=[]))
    p.send("appel", season="ete", leader="sol")
    p.send("draw", gems=["printemps", "temps", "ete", "rupture"])
    res = {s["key"]: s["result"] for s in p.json["expects"]["selections"]}
    assert res["printemps+temps:up"] == "success" and res["printemps+temps:down"] == "failure"
    assert res["ete+rupture:up"] == "critical_success" and res["ete+rupture:down"] == "bitter_success"
    p.refuse("choose", "R17", gems=["ete", "temps", "rupture"], direction="up")
    p.refuse("choose", "R17", gems=["temps"])  # alone while a Season gem is drawn
    p.refuse("choose", "R17", gems=["hiver"])  # not drawn


def test_modifier_hiver_temps_for_ete() -> None:
    p = Play()
    p.send("character", **guardian("sol", "ete", {"ete": 2}, 2, prayers=[]))
    p.send("appel", season="ete", leader="sol")
    p.send("draw", gems=["hiver", "temps"])
    res = {s["key"]: s["result"] for s in p.json["expects"]["selections"]}
    assert res == {"hiver": "failure", "hiver+temps:up": "bitter_success", "hiver+temps:down": "critical_failure"}


def test_time_alone_and_rupture_alone() -> None:
    p = deva_table()
    p.send("set_quadrant", season="hiver", cells=[])
    p.send("appel", season="hiver", leader="deva", difficulty=1)
    p.send("draw", gems=["temps", "temps"])
    assert [s["key"] for s in p.json["expects"]["selections"]] == ["temps"]
    p.send("choose", selection="temps")
    assert p.quad("hiver").cells[0] == "temps" and p.quad("hiver").nymph == 1
    assert p.json["last_appel"]["result"] == "bitter_success"
    # N = 0, Rupture alone: Failure, or Success with a Rupture point
    p.send("appel", season="hiver", leader="deva", difficulty=3)
    p.send("draw", gems=["rupture"])
    keys = {s["key"]: s["result"] for s in p.json["expects"]["selections"]}
    assert keys == {"rupture": "failure", "rupture:success": "success"}
    p.send("choose", gems=["rupture"], rupture_success=True)
    deva = p.json["characters"][0]
    assert deva["rupture"] == 1 and deva["prayers"] == ["rupture"]


# -- E-T7: the draw table ----------------------------------------------------------------
@pytest.mark.parametrize("score,difficulty,draw,chooser,automatic", [
    (6, 0, 6, "leader", None), (5, 8, 3, "gm", None), (4, 4, 1, "leader", None),
])
def test_draw_table_through_appel(score: int, difficulty: int, draw: int, chooser: str, automatic: Any) -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": score}, 2, prayers=[]))
    p.send("appel", season="hiver", leader="a", difficulty=difficulty)
    a = p.json["appel"]
    assert (a["draw"], a["chooser"], a["automatic"]) == (draw, chooser, automatic)


def test_automatic_results() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 6}, 2, prayers=[]))
    p.send("character", **guardian("b", "ete", {"ete": 6}, 2, prayers=[]))
    p.send("set_quadrant", season="hiver", cells=["hiver"] * 5, nymph=3)
    # N = 6 + 1 helper + 2*0 ... use the Temptation-free difficulty path: N = -13
    p.send("appel", season="hiver", leader="a", difficulty=19)  # N = -13: nothing drawn
    assert p.json["appel"]["result"] == "critical_failure"
    assert p.quad("hiver").cells[:5] == (None,) * 5  # 6 removed (all 5 there)
    assert p.quad("hiver").nymph == 0
    assert p.json["expects"] == {"step": "keep_prayer", "who": "leader", "gems": ["hiver"]}
    p.send("keep_prayer", gem=None)
    assert p.json["last_appel"]["result"] == "critical_failure"
    # automatic Critical Success: N = 6 + 1 + 2*3 ... here a modifier of +7
    p.send("appel", season="hiver", leader="a", modifiers=[{"value": 7, "label": "spell"}])
    assert p.json["appel"]["automatic"] == "critical_success" and p.json["appel"]["draw"] == 12
    p.send("draw", gems=["ete"] * 12)
    assert p.json["expects"] == {"step": "extras", "who": "leader", "count": 6, "gems": ["ete"] * 12}
    p.send("extras", gems=["ete"] * 6)
    assert p.quad("ete").cells[:6] == ("ete",) * 6
    assert p.census_total() == 72


# -- E-T8 / E-T9: Failure and Critical Failure removals ---------------------------------
def _et8(p: Play) -> None:
    p.send("set_quadrant", season="hiver", cells=["hiver", "rupture", "hiver", "temps", "hiver"], nymph=4)


def test_failure_removal() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 3}, 2, prayers=[]))
    _et8(p)
    p.send("appel", season="hiver", leader="a")
    p.send("draw", gems=["ete", "ete"])
    p.send("choose", selection="ete")
    assert p.quad("ete").cells[0] == "ete"
    assert [r["cell"] for r in p.json["last_appel"]["removals"]] == [5, 4, 3]
    assert p.quad("hiver").nymph == 2 and p.quad("hiver").weather == 1


def test_critical_failure_keep_prayer() -> None:
    p = Play()
    p.send("character", **guardian("sol", "ete", {"hiver": 3, "ete": 3}, 2, prayers=["ete"]))
    _et8(p)
    p.send("set_quadrant", season="ete", cells=["ete", "ete"], nymph=2)
    p.send("appel", season="hiver", leader="sol")
    p.send("draw", gems=["ete", "temps"])
    p.send("choose", gems=["ete", "temps"], direction="down")
    assert p.quad("ete").cells[2] == "ete"
    assert [r["cell"] for r in p.json["last_appel"]["removals"]] if p.json["last_appel"] else True
    exp = p.json["expects"]
    assert exp == {"step": "keep_prayer", "who": "leader", "gems": ["hiver", "temps"]}
    assert p.quad("hiver").nymph == 3
    assert p.quad("ete").nymph == 0  # Fÿrellya back to her start cell
    p.refuse("keep_prayer", "R22", gem="rupture")
    p.send("keep_prayer", gem="temps")
    sol = p.json["characters"][0]
    assert sorted(sol["prayers"]) == ["ete", "temps"]
    last = p.json["last_appel"]
    assert [r["cell"] for r in last["removals"]] == [6, 5, 4]
    assert p.quad("hiver").weather == 1


# -- E-T10: Success forcing a Rupture -----------------------------------------------------
def test_success_places_every_remaining_gem() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 3}, 2, prayers=[]))
    p.send("appel", season="hiver", leader="a", difficulty=0)
    p.send("draw", gems=["hiver", "rupture", "hiver"])
    p.send("choose", selection="hiver")
    # min(3, 2) = 2 remaining gems placed: Hiver then Rupture, then the advance stops on it
    assert p.quad("hiver").cells[:3] == ("hiver", "hiver", "rupture")
    assert p.quad("hiver").nymph == 3


def test_success_extras_choice_when_more_remain() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 2}, 2, prayers=[]))
    p.send("appel", season="hiver", leader="a", difficulty=0, modifiers=[{"value": 2}])
    p.send("draw", gems=["hiver", "rupture", "printemps", "ete"])
    p.send("choose", selection="hiver")
    assert p.json["expects"]["step"] == "extras" and p.json["expects"]["count"] == 2
    p.refuse("extras", "R23", gems=["printemps"])
    p.send("extras", gems=["printemps", "ete"])
    assert p.quad("printemps").cells[0] == "printemps" and p.quad("ete").cells[0] == "ete"
    assert p.pool()["rupture"] == 12


# -- E-T11: Temptation --------------------------------------------------------------------
def test_temptation() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 3}, 2, prayers=["hiver", "ete"], harmony=3))
    p.send("set_quadrant", season="hiver", cells=["hiver", "rupture", "rupture"], nymph=1)
    p.send("appel", season="hiver", leader="a")
    assert p.json["appel"]["N"] == 1
    p.send("temptation", count=2)
    a = p.json["appel"]
    assert a["N"] == 5 and a["difficulty"] == 2 and a["draw"] == 5
    ch = p.json["characters"][0]
    assert ch["rupture"] == 1 and "rupture" in ch["prayers"] and len(ch["prayers"]) == 2
    assert p.quad("hiver").weather == 0
    p.refuse("temptation", "R14", count=1)


# -- E-T12: Communion ----------------------------------------------------------------------
def test_communion() -> None:
    p = Play()
    p.send("character", **guardian("h", "hiver", {"hiver": 3}, 2, harmony=2, prayers=[]))
    p.send("character", **guardian("p", "printemps", {"printemps": 3}, 2, harmony=2, prayers=[]))
    p.send("character", **guardian("e", "ete", {"ete": 3}, 2, harmony=2, prayers=[]))
    p.send("character", **guardian("a", "automne", {"automne": 4}, 2, harmony=2, prayers=[]))
    p.send("character", id="t", role="priestess", scores={"hiver": 2}, devotion=2, harmony=2, prayers=[])
    p.send("set_quadrant", season="hiver", cells=["hiver"] * 12 + ["temps"] + ["rupture"] * 2)
    p.send("set_quadrant", season="printemps", cells=["printemps"] * 12 + ["rupture"] * 2)
    p.send("set_quadrant", season="ete", cells=["ete"] * 12 + ["rupture"] * 2)
    p.send("set_quadrant", season="automne", cells=["automne"] * 12 + ["rupture"] * 2)
    assert sum(p.state.pool) == 72 - 57 == 15
    members = {
        "h": {"pay": "harmony", "remove": [{"quadrant": "hiver", "cell": c} for c in (10, 11, 12)]},
        "p": {"pay": "harmony", "remove": [{"quadrant": "printemps", "cell": c} for c in (11, 12)]},
        "e": {"pay": "harmony", "remove": [{"quadrant": "ete", "cell": c} for c in (11, 12)]},
        "a": {"pay": "harmony", "remove": [{"quadrant": "automne", "cell": c} for c in (9, 10, 11, 12)]},
        "t": {"pay": "harmony", "remove": [{"quadrant": "hiver", "cell": 13}]},
    }
    p.refuse("communion", "R35", members=members)  # 15 > 12 in the pool
    p.send("remove", cells=[{"quadrant": "hiver", "cell": 1}, {"quadrant": "printemps", "cell": 1},
                            {"quadrant": "ete", "cell": 1}])
    assert sum(p.state.pool) == 18
    p.send("set_quadrant", season="hiver", cells=["hiver"] * 12 + ["temps"] + ["rupture"] * 2 + ["temps"] * 4)
    assert sum(p.state.pool) == 13
    p.refuse("communion", "R35", members=members)  # 13 > 12
    p.send("set_quadrant", season="hiver", cells=["hiver"] * 12 + ["temps"] + ["rupture"] * 2 + ["temps"] * 5)
    assert sum(p.state.pool) == 12
    two = [{"quadrant": "ete", "cell": 13}, {"quadrant": "automne", "cell": 14}]
    p.refuse("communion", "R35", members=members, ruptures=two)  # one set only
    p.send("communion", members=members, ruptures=two[:1])
    assert p.quad("ete").gem_at(13) is None
    assert sum(p.state.pool) == 12 + 12 + 1
    assert all(c["harmony"] == 1 for c in p.json["characters"])


# -- E-T13: the Fall -------------------------------------------------------------------------
def test_fall() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 3}, 2, harmony=3, rupture=2, prayers=[]))
    applied = p.send("rupture", character="a")
    assert not p.json["characters"][0]["fallen"]
    assert not any(o.kind == "espri.fall" for o in applied.outcomes)
    applied = p.send("rupture", character="a")
    assert p.json["characters"][0]["fallen"]
    assert any(o.kind == "espri.fall" for o in applied.outcomes)
    p.refuse("appel", "R34", season="hiver", leader="a")


# -- E-T14: no Talent -------------------------------------------------------------------------
def test_no_talent_lowers_one_level() -> None:
    p = deva_table()
    p.send("appel", season="hiver", leader="deva", talent=False)
    p.send("draw", gems=["hiver", "ete"])
    res = {s["key"]: s["result"] for s in p.json["expects"]["selections"]}
    assert res["hiver"] == "bitter_success" and res["ete"] == "critical_failure"
    p.send("choose", selection="hiver")
    assert p.json["last_appel"]["result"] == "bitter_success"
    assert p.quad("hiver").nymph == 2  # advanced, no extra gems placed
    assert p.pool()["ete"] == 12


# -- E-T15: leader choice and Direct Aid --------------------------------------------------------
def test_direct_aid_adds_one() -> None:
    p = Play()
    p.send("character", **guardian("a", "printemps", {"printemps": 3}, 2, prayers=[]))
    p.send("character", **guardian("b", "printemps", {"printemps": 3}, 4, prayers=[]))
    p.send("character", **guardian("c", "ete", {"printemps": 2}, 5, prayers=[]))
    assert p.json["leader_order"]["printemps"] == ["b", "a", "c"]  # score, then Dévotion (R28)
    p.send("effect", character="b", value=-2, season="printemps", label="malade")
    assert p.json["leader_order"]["printemps"] == ["a", "c", "b"]
    p.send("effect_clear", character="b")
    p.send("appel", season="printemps", leader="b", helpers=[{"character": "a", "form": "direct"}])
    assert p.json["appel"]["N"] == 4
    p.send("draw", gems=["printemps", "ete", "hiver", "automne"])
    p.send("choose", selection="printemps")
    # the extras: min(3, 3) = all three placed; the helper shares the same Nymph (advances once)
    assert [p.quad(s).cells[0] for s in ("ete", "hiver", "automne")] == ["ete", "hiver", "automne"]
    assert p.quad("printemps").nymph == 1
    moves = [m for m in p.json["last_appel"]["moves"] if m.get("why") == "advance"]
    assert len(moves) == 1


def test_helper_nymphs_advance_too() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 3}, 2, prayers=[]))
    p.send("character", **guardian("b", "ete", {"hiver": 2}, 2, prayers=[]))
    p.send("set_quadrant", season="ete", cells=["ete", "ete"])
    p.send("appel", season="hiver", leader="a", helpers=["b"])
    p.send("draw", gems=["printemps", "automne", "printemps", "automne"])
    p.send("choose", selection="printemps")
    assert p.quad("ete").nymph == 2 and p.quad("hiver").nymph == 0


# -- Prayer in an Appel --------------------------------------------------------------------------
def test_gm_must_place_the_added_prayer() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 1}, 2, prayers=["hiver"]))
    p.send("appel", season="hiver", leader="a", difficulty=3)
    assert p.json["appel"]["chooser"] == "gm"
    p.send("draw", gems=["ete", "ete"])
    p.send("prayer", gem="hiver")
    assert {s["key"] for s in p.json["expects"]["selections"]} == {"hiver"}
    p.refuse("choose", "R13", selection="ete")
    p.send("choose", selection="hiver")
    assert p.json["expects"] == {"step": "extras", "who": "leader", "count": 1, "gems": ["ete", "ete"]}
    p.send("extras", gems=["ete"])
    assert p.json["last_appel"]["result"] == "success"
    assert p.json["characters"][0]["prayers"] == []
    assert p.pool()["ete"] == 11 and p.pool()["hiver"] == 11


def test_correction_replaces_the_draw() -> None:
    p = deva_table()
    p.send("appel", season="hiver", leader="deva")
    p.send("draw", gems=["ete", "ete"], source="camera")
    p.send("draw", gems=["hiver", "ete"], source="correction")
    assert p.json["appel"]["hand"] == ["hiver", "ete"]
    assert p.pool()["ete"] == 11 and p.pool()["hiver"] == 12 - 1 - 1
    p.refuse("draw", "R12", gems=["hiver"], correction=True)


def test_world_cell_event() -> None:
    p = Play(path_length=3)
    p.send("character", **guardian("a", "hiver", {"hiver": 2}, 2, prayers=[]))
    p.send("set_quadrant", season="hiver", cells=["hiver", "hiver"])
    p.send("appel", season="hiver", leader="a", difficulty=0)
    p.send("draw", gems=["hiver", "ete"])
    applied = p.send("choose", selection="hiver")
    assert p.quad("hiver").nymph == 3
    assert any(o.kind == "espri.world" for o in applied.outcomes)
    assert p.pool()["ete"] == 11  # the extra Été gem is on the Été path


def test_caterpillar_option() -> None:
    p = Play(caterpillar=True)
    p.send("character", **guardian("a", "hiver", {"hiver": 2}, 2, prayers=[]))
    p.send("set_quadrant", season="hiver", cells=["hiver", "hiver", None], nymph=2)
    p.send("appel", season="hiver", leader="a", difficulty=0)
    p.send("draw", gems=["printemps", "printemps"])
    p.send("choose", selection="printemps")  # Bitter Success: nothing new in front of Mÿelta
    assert p.quad("hiver").cells[:3] == (None, "hiver", "hiver") and p.quad("hiver").nymph == 3


def test_priestess_leads_with_the_called_nymph() -> None:
    p = Play()
    p.send("character", id="lune", role="priestess", scores={"ete": 3, "hiver": 2}, devotion=4, prayers=[])
    p.send("set_quadrant", season="ete", cells=["ete", "ete", "ete"], nymph=1)
    p.send("appel", season="ete", leader="lune", difficulty=0)
    p.send("draw", gems=["printemps", "automne", "hiver"])
    p.send("choose", selection="printemps")  # Bitter Success: the Called Nymph advances (R22 NB)
    assert p.quad("ete").nymph == 3 and p.quad("printemps").nymph == 0
    p.send("appel", season="ete", leader="lune", difficulty=0)
    p.send("draw", gems=["hiver", "temps", "hiver"])
    p.send("choose", selection="hiver+temps:down")  # Critical Failure
    assert p.quad("ete").nymph == 0
    # the Priestess's set-up draw is Dévotion + her best Season
    p2 = Play()
    p2.send("character", id="lune", role="priestess", scores={"ete": 3, "hiver": 2}, devotion=4)
    assert p2.json["expects"]["gems"] == 7
    p2.send("setup_draw", character="lune", gems=["temps", "rupture", "hiver", "ete", "ete", "automne", "printemps"])
    p2.refuse("setup_keep", "R2", keep=["ete", "ete", "automne", "printemps"])  # names the quadrants
    p2.send("setup_keep", keep=["ete", "ete", "automne", "printemps"],
            place=[{"gem": "hiver"}, {"gem": "temps", "quadrant": "printemps"}, {"gem": "rupture", "quadrant": "ete"}])
    assert p2.quad("printemps").cells[0] == "temps" and p2.quad("ete").cells[0] == "rupture"


def test_resonance_refused_for_a_passive_action() -> None:
    p = deva_table()
    p.send("character", **guardian("ceres", "automne", {"automne": 3}, 2, prayers=[],
                                  relationships=[{"with": "deva", "resonance": 1}]))
    p.refuse("appel", "R26", season="hiver", leader="deva", passive=True,
             helpers=[{"character": "ceres", "form": "resonance"}])
    p.send("appel", season="hiver", leader="deva", passive=True, helpers=[{"character": "ceres", "form": "direct"}])
    assert p.json["appel"]["N"] == 3


def test_opposition_difficulty_and_temptation_for_n() -> None:
    p = deva_table()
    p.send("appel", season="hiver", leader="deva", difficulty=4)
    assert p.json["appel"]["N"] == -1 and p.json["appel"]["difficulty_source"] == "given"
    p.send("draw", gems=["ete"])
    assert p.json["expects"]["redraw"] == "gm"
    p.send("redraw", gems=["hiver"])
    assert p.pool()["ete"] == 12  # the first gem went back to the pool (E6)


def test_camera_read_as_the_draw() -> None:
    p = deva_table()
    p.send("appel", season="hiver", leader="deva")
    read = {"objects": [
        {"kind": "gem", "value": "temps", "box": [0, 0, 9, 9], "confidence": 0.97, "status": "read"},
        {"kind": "gem", "value": None, "box": [20, 0, 9, 9], "confidence": 0.41, "status": "pending"},
    ]}
    p.refuse("draw", "R1", read=read, source="camera")
    read["objects"][1].update(value="printemps", status="read", confidence=0.93)
    p.send("draw", read=read, source="camera")
    assert p.json["appel"]["hand"] == ["temps", "printemps"]


def test_empty_pool() -> None:
    p = Play(gems_per_colour=1)
    p.send("character", **guardian("a", "hiver", {"hiver": 3}, 2, prayers=[]))
    p.send("set_quadrant", season="hiver", cells=["hiver", "temps", "rupture"])
    p.send("set_quadrant", season="ete", cells=["ete"])
    p.send("set_quadrant", season="printemps", cells=["printemps"])
    p.send("appel", season="hiver", leader="a", difficulty=0)
    p.refuse("draw", "R12", gems=["automne", "automne"])  # the pool holds 1 gem: draw it alone (E9)
    p.send("draw", gems=["automne"])
    p.send("choose", selection="automne")
    assert sum(p.state.pool) == 0
    assert "Communion" in str(p.refuse("appel", "E9", season="hiver", leader="a", difficulty=0))
    assert p.json["communion_allowed"]
