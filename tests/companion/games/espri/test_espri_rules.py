"""ESPRI primitives: Season relations, the draw table, legal selections and results,
bounded bonuses, placing/removing gems and Nymph moves (R2-R6, R12, R15, R17-R19)."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.games.espri import board as B
from companion.games.espri.state import Board, Effect, counts_of, relation
from companion.games.espri.options import Options
from companion.games.espri.rules import draw_plan, effective_score, selections

DEFAULTS = Options()


@pytest.mark.parametrize("called,adjacent,opposite", [
    ("hiver", {"printemps", "automne"}, "ete"),
    ("printemps", {"hiver", "ete"}, "automne"),
    ("ete", {"printemps", "automne"}, "hiver"),
    ("automne", {"ete", "hiver"}, "printemps"),
])
def test_season_relations_table_1_2(called: str, adjacent: set[str], opposite: str) -> None:
    assert relation(called, called) == "called"
    assert {s for s in ("hiver", "printemps", "ete", "automne") if relation(s, called) == "adjacent"} == adjacent
    assert relation(opposite, called) == "opposite"


@pytest.mark.parametrize("n,count,chooser,redraw,auto", [
    (14, 12, "leader", None, "critical_success"), (13, 12, "leader", None, "critical_success"),
    (12, 12, "leader", None, None), (2, 2, "leader", None, None), (1, 1, "leader", "leader", None),
    (0, 1, "leader", None, None), (-1, 1, "leader", "gm", None), (-2, 2, "gm", None, None),
    (-3, 3, "gm", None, None), (-12, 12, "gm", None, None), (-13, 0, "gm", None, "critical_failure"),
])
def test_draw_table_r12(n: int, count: int, chooser: str, redraw: str | None, auto: str | None) -> None:
    plan = draw_plan(n, DEFAULTS)
    assert (plan["count"], plan["chooser"], plan["redraw_by"], plan["automatic"]) == (count, chooser, redraw, auto)


def test_draw_table_cap_option() -> None:
    assert draw_plan(13, Options(automatic_success_draw=False))["count"] == 0


def _res(gems: list[str], called: str, **opts: object) -> dict[str, str]:
    return {s["key"]: s["result"] for s in selections(counts_of(gems), called, Options(**opts))}  # type: ignore[arg-type]


def test_selection_results_r19() -> None:
    assert _res(["hiver"], "hiver") == {"hiver": "success"}
    assert _res(["hiver", "rupture"], "hiver") == {
        "hiver": "success", "hiver+rupture:up": "critical_success", "hiver+rupture:down": "bitter_success"}
    assert _res(["ete", "temps"], "hiver")["ete+temps:down"] == "critical_failure"
    assert _res(["printemps", "temps"], "hiver")["printemps+temps:up"] == "success"
    # never Time + Rupture: each only as the one modifier of a Season gem
    keys = _res(["hiver", "temps", "rupture"], "hiver")
    assert all(not ("temps" in k and "rupture" in k) for k in keys)
    assert _res(["temps", "temps"], "ete") == {"temps": "bitter_success"}
    assert _res(["rupture"], "ete") == {"rupture": "failure", "rupture:success": "success"}
    # E16b: only Time and Rupture: either solo rule
    assert set(_res(["temps", "rupture"], "ete")) == {"temps", "rupture", "rupture:success"}


def test_e5_options() -> None:
    two = _res(["printemps", "temps"], "hiver", adjacent_modifier="two_up_one_down")
    assert two["printemps+temps:up"] == "critical_success" and two["printemps+temps:down"] == "failure"
    fixed = _res(["hiver", "ete", "temps"], "hiver", fixed_criticals=True)
    assert "hiver+temps:down" not in fixed and "ete+temps:up" not in fixed
    assert fixed["hiver+temps:up"] == "critical_success" and fixed["ete+temps:down"] == "critical_failure"


def test_must_include_prayer() -> None:
    sels = selections(counts_of(["ete", "hiver", "temps"]), "hiver", Options(), must="temps")
    assert all("temps" in s["gems"] for s in sels) and sels


def test_bounded_effects_e17() -> None:
    assert effective_score(3, [Effect(-2, minimum=2)], "hiver") == 2
    assert effective_score(3, [Effect(+3, maximum=5)], "hiver") == 5
    assert effective_score(1, [Effect(-2, minimum=2)], "hiver") == 1  # a bound never raises
    assert effective_score(3, [Effect(-1, season="ete")], "hiver") == 3
    effs = [Effect(-1), Effect(-3, minimum=1), Effect(-3, minimum=2)]
    # minima by decreasing m: 4 -> 2 (min 2) -> 1 (min 1), then unbounded -1 -> 0
    assert effective_score(4, effs, "hiver") == 0
    mixed = [Effect(-3, minimum=2), Effect(+4, maximum=4)]
    assert effective_score(3, mixed, "hiver") == 4  # minima first: 3->2, then 2->4 (max 4)
    assert effective_score(3, mixed, "hiver", "maxima_first") == 2  # 3->4, then 4->2 (min 2)


def _board(cells: list[str | None], nymph: int, season: str = "hiver") -> Board:
    b = Board.empty(21)
    q = b.q(season)
    padded = tuple(cells) + (None,) * (21 - len(cells))
    return b.with_q(type(q)(season, padded, nymph))


def test_place_r3_in_front_of_the_nymph() -> None:
    b = _board(["hiver", None, "rupture"], 1)
    b, rec = B.place(b, "temps", "hiver")
    assert rec == {"gem": "temps", "quadrant": "hiver", "cell": 2}
    b, rec = B.place(b, "hiver", "hiver")
    assert rec["cell"] == 4
    with pytest.raises(RuleError) as info:
        B.place(b, "ete", "hiver")
    assert info.value.rule == "R2"
    full = _board(["hiver"] * 21, 21)
    assert B.place(full, "hiver", "hiver")[1]["cell"] is None  # E9: back to the pool


def test_remove_r4_and_nymph_retreat() -> None:
    b = _board(["hiver", "rupture", "hiver", "temps", "hiver"], 4)
    b2, removed, moves = B.remove_from_centre(b, "hiver", 3)
    assert [r["cell"] for r in removed] == [5, 4, 3]
    assert moves[0]["from"] == 4 and moves[0]["to"] == 2
    b3, removed, moves = B.remove_from_centre(b, "hiver", 10)
    assert len(removed) == 5 and b3.q("hiver").nymph == 0


def test_remove_cells_r5_nearest_behind() -> None:
    b = _board(["hiver", None, "hiver", "temps", "hiver"], 4)
    b2, removed, moves = B.remove_cells(b, [("hiver", 4)])
    assert b2.q("hiver").nymph == 3
    with pytest.raises(RuleError):
        B.remove_cells(b, [("hiver", 2)])  # empty
    with pytest.raises(RuleError):
        B.remove_cells(b, [("hiver", 1)], only=["rupture"])


def test_advance_r6() -> None:
    b = _board(["hiver", "rupture", "hiver"], 0)
    b1, moves = B.advance(b, "hiver", Options())
    assert b1.q("hiver").nymph == 2  # stops on the Rupture
    b2, _ = B.advance(b1, "hiver", Options())
    assert b2.q("hiver").nymph == 3  # E12b: may leave it
    b3, moves = B.advance(b1, "hiver", Options(rupture_blocks_standing_nymph=True))
    assert b3.q("hiver").nymph == 2 and moves == []
    gap = _board(["hiver", None, "hiver"], 0)
    assert B.advance(gap, "hiver", Options())[0].q("hiver").nymph == 1  # contiguous only


def test_set_nymph_refuses_off_the_path() -> None:
    b = _board(["hiver"], 0)
    for bad in (-1, 22, 2, "3", True):
        with pytest.raises(RuleError) as info:
            B.set_nymph(b, "hiver", bad)
        assert info.value.rule == "R6"
    assert B.set_nymph(b, "hiver", 1)[0].q("hiver").nymph == 1
