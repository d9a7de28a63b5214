"""The 72-gem invariant (R1) over random event sequences, and bad input refused with a
message naming the rule, the board unchanged (issue item 6)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, strategies as st

from companion.errors import CompanionError, EventError, RuleError
from companion.events import Event, Source
from companion.games.espri.view import expects
from companion.table import Table

from tests.companion.games.espri.test_espri_flow import Play, deva_table, guardian

GEMS = ("printemps", "ete", "automne", "hiver", "temps", "rupture")
SEASONS = ("hiver", "printemps", "ete", "automne")


def census_by_type(state: Any) -> dict[str, int]:
    counts = dict(zip(GEMS, state.pool))
    places = list(state.board.gems())
    for c in state.characters:
        places += list(c.prayers)
    a = state.appel
    if a is not None:
        places += list(a.hand) + list(a.aside) + ([a.prayer] if a.prayer else [])
    if state.setup_hand is not None:
        places += list(state.setup_hand[1])
    for g in places:
        counts[g] += 1
    return counts


def check_board(state: Any) -> None:
    assert all(x >= 0 for x in state.pool)
    assert census_by_type(state) == {g: 12 for g in GEMS}
    for q in state.board.quadrants:
        for g in q.cells:
            assert g in (None, q.season, "temps", "rupture")
        assert 0 <= q.nymph <= q.length
    for c in state.characters:
        assert len(c.prayers) <= c.devotion


def _pool_gems(state: Any) -> list[str]:
    return [g for g, n in zip(GEMS, state.pool) for _ in range(n)]


def _sample(rnd: random.Random, items: list[str], k: int) -> list[str]:
    """k items drawn without replacement."""
    k = max(0, min(k, len(items)))
    return rnd.sample(items, k) if k else []


def _next_event(rnd: random.Random, table: Table) -> tuple[str, dict[str, Any], str]:
    state = table.state
    ex = expects(state)
    step = ex["step"]
    pool = _pool_gems(state)
    chars = [c.id for c in state.characters]
    if step in ("draw", "setup_draw"):
        k = ex["gems"] + rnd.choice([0, 0, 0, 1, -1])
        gems = _sample(rnd, pool, k)
        if rnd.random() < 0.5 and step == "draw" and ex.get("temptation"):
            return "espri.temptation", {"count": rnd.randint(1, 2)}, "manual"
        src = rnd.choice(["camera", "manual"])
        if step == "setup_draw":
            return "espri.setup_draw", {"character": ex["character"], "gems": gems}, src
        return "espri.draw", {"gems": gems}, src
    if step == "setup_keep":
        hand = [g for g in ex["hand"] if g != "rupture"]
        keep = _sample(rnd, hand, ex["keep"])
        d = {"keep": keep}
        if state.char(ex["character"]).season is None:  # a Priestess names the quadrants
            rest = list(ex["hand"])
            for g in keep:
                rest.remove(g)
            d["place"] = [{"gem": g, "quadrant": g if g in SEASONS else rnd.choice(SEASONS)}
                          for g in rest]
        return "espri.setup_keep", d, "manual"
    if step == "setup_gm":
        return "espri.setup_gm", {}, "manual"
    if step == "choose":
        r = rnd.randint(0, 9)
        if r == 0 and ex["redraw"] and pool:
            return "espri.redraw", {"gems": [rnd.choice(pool)]}, "manual"
        if r == 1 and ex["prayers"]:
            return "espri.prayer", {"gem": rnd.choice(ex["prayers"])}, "manual"
        if r == 2:
            return "espri.choose", {"gems": rnd.choices(GEMS, k=rnd.randint(1, 3)),
                                    "direction": rnd.choice(["up", "down", None])}, "manual"
        if r == 3 and pool:
            return "espri.draw", {"gems": _sample(rnd, pool, len(ex["candidates"])),
                                  "correction": True}, "correction"
        return "espri.choose", {"selection": rnd.randint(0, len(ex["selections"]) - 1)}, "manual"
    if step == "extras":
        gems = _sample(rnd, ex["gems"], ex["count"])
        return "espri.extras", {"gems": gems}, "manual"
    if step == "keep_prayer":
        return "espri.keep_prayer", {"gem": rnd.choice(ex["gems"] + [None])}, "manual"
    if step == "rupture_removal":
        if ex["cells"] and rnd.random() < 0.5:
            return "espri.remove_rupture", dict(rnd.choice(ex["cells"])), "manual"
        return "espri.remove_rupture", {"skip": True}, "manual"
    # idle: the GM's and the players' other events
    kind = rnd.choice(["appel", "appel", "appel", "rupture", "harmony", "remove", "nymph",
                                      "gift", "communion", "save"])
    who = rnd.choice(chars)
    if kind == "appel":
        others = [c for c in chars if c != who]
        helpers = rnd.sample(others, rnd.randint(0, min(2, len(others)))) if others else []
        d: dict[str, Any] = {"season": rnd.choice(SEASONS), "leader": who,
                             "helpers": [{"character": h, "form": rnd.choice(["direct", "resonance"])}
                                         for h in helpers],
                             "talent": rnd.random() < 0.5}
        if rnd.random() < 0.5:
            d["difficulty"] = rnd.randint(0, 20)
        return "espri.appel", d, "manual"
    if kind == "rupture":
        return "espri.rupture", {"character": who}, "manual"
    if kind == "harmony":
        return "espri.harmony", {"character": who, "delta": rnd.randint(-1, 2)}, "manual"
    if kind == "remove":
        paved = [{"quadrant": q.season, "cell": c} for q in state.board.quadrants for c in q.paved()]
        cells = rnd.sample(paved, rnd.randint(0, min(3, len(paved)))) if paved else []
        return "espri.remove", {"cells": cells}, "manual"
    if kind == "nymph":
        return "espri.nymph", {"season": rnd.choice(SEASONS), "to": rnd.randint(-1, 22)}, "manual"
    if kind == "gift":
        return "espri.harmony_gift", {"character": who, "to": rnd.choice(chars)}, "manual"
    if kind == "save":
        return "espri.save", {"character": who, "target": rnd.choice(chars)}, "manual"
    members = {c: {"pay": "harmony", "remove": []} for c in chars}
    return "espri.communion", {"members": members}, "manual"


def play_random_sequence(p: Play, rnd: random.Random, events: int, stats: dict[str, int]) -> None:
    """Two Guardians, then ``events`` random events (refused ones included), the 72 gems
    checked after each; ``stats`` counts each event type applied, and the refusals."""
    p.send("espri.character", **guardian("a", "hiver", {"hiver": 3, "ete": 2}, 2, harmony=3,
                                          relationships=[{"with": "b", "resonance": 1}]))
    p.send("espri.character", **guardian("b", "ete", {"ete": 4, "printemps": 2}, 3, harmony=2,
                                          relationships=[{"with": "a", "resonance": 2}]))
    p.send("espri.character", id="c", role="priestess", scores={"hiver": 2, "automne": 3}, devotion=3, harmony=1)
    check_board(p.state)
    for _ in range(events):
        etype, d, src = _next_event(rnd, p.table)
        before = p.state
        try:
            p.send(etype, source=src, **d)
        except (RuleError, EventError) as exc:
            assert str(exc)
            assert p.table.state is before
            p.seq -= 1
            stats["refused"] = stats.get("refused", 0) + 1
        else:
            stats[etype] = stats.get(etype, 0) + 1
        check_board(p.state)


@given(st.data())
def test_72_gems_after_every_event(data: st.DataObject) -> None:
    p = Play(caterpillar=data.draw(st.booleans()),
             redraw_first_gem=data.draw(st.sampled_from(["pool", "aside"])),
             unplaced_prayer=data.draw(st.sampled_from(["pool", "owner"])),
             rupture_removal_timing=data.draw(st.sampled_from(["after_advance", "before_advance"])))
    rnd = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    play_random_sequence(p, rnd, data.draw(st.integers(10, 80), label="events"), {})


def test_random_sequences_reach_every_step() -> None:
    """The random sequences are not vacuous: they complete Appels of every kind.

    Self-contained (fixed seeds, its own counts), so it holds whatever runs before it."""
    stats: dict[str, int] = {}
    for seed in range(12):
        p = Play(caterpillar=seed % 2 == 0, redraw_first_gem=("pool", "aside")[seed % 2],
                 unplaced_prayer=("pool", "owner")[seed // 2 % 2],
                 rupture_removal_timing=("after_advance", "before_advance")[seed // 4 % 2])
        play_random_sequence(p, random.Random(seed), 80, stats)
    for etype in ("espri.setup_keep", "espri.appel", "espri.draw", "espri.choose", "refused"):
        assert stats.get(etype, 0) > 0, stats


# -- bad input: a clear message naming the rule, nothing changed -----------------------
def test_a_gem_the_pool_does_not_hold() -> None:
    p = deva_table()
    p.send("set_quadrant", season="ete", cells=["ete"] * 12)
    p.send("appel", season="hiver", leader="deva")
    err = p.refuse("draw", "R1", gems=["ete", "hiver"])
    assert "pool holds 0 ete" in str(err)
    p.refuse("draw", "R1", gems=["emerald", "hiver"])


def test_forbidden_selections() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 4}, 2, prayers=[]))
    p.send("appel", season="hiver", leader="a", difficulty=0)
    p.send("draw", gems=["hiver", "temps", "rupture", "temps"])
    assert "Time gem cannot be placed with a Rupture" in str(
        p.refuse("choose", "R17", gems=["hiver", "temps", "rupture"], direction="up"))
    assert "only one Time or Rupture" in str(
        p.refuse("choose", "R17", gems=["hiver", "temps", "temps"], direction="up"))
    p.refuse("choose", "R19", gems=["hiver", "temps"])  # a modifier needs its direction
    p.refuse("choose", "R17", selection=99)


def test_season_score_zero_cannot_lead_or_help() -> None:
    p = Play()
    p.send("character", **guardian("a", "hiver", {"hiver": 1, "printemps": 0}, 2, prayers=[]))
    p.send("character", **guardian("b", "ete", {"ete": 3, "printemps": 0}, 2, prayers=[]))
    assert "0 or less" in str(p.refuse("appel", "R16", season="printemps", leader="a"))
    p.send("effect", character="a", value=-1, season="hiver", label="blessure")
    p.refuse("appel", "R16", season="hiver", leader="a")
    p.refuse("appel", "R16", season="printemps", leader="b", modifiers=[{"value": -5}])
    p.send("effect_clear", character="a")
    p.send("effect", character="b", value=-3, season="hiver")
    p.refuse("appel", "R16", season="hiver", leader="a", helpers=[{"character": "b", "form": "direct"}])


def test_nymph_moves_off_the_path() -> None:
    p = deva_table()
    for to in (-1, 22, 5):
        err = p.refuse("nymph", "R6", season="hiver", to=to)
        assert "Mÿelta" in str(err)
    p.send("nymph", season="hiver", to=2)
    assert p.quad("hiver").nymph == 2


def test_malformed_events() -> None:
    p = deva_table()
    before = p.state
    for etype, data in (("espri.appel", {"season": "winter", "leader": "deva"}),
                        ("espri.appel", {"season": "hiver", "leader": "nobody"}),
                        ("espri.fly", {}),
                        ("espri.appel", {"season": "hiver", "leader": "deva", "helpers": "x"})):
        with pytest.raises(CompanionError):
            p.table.apply(Event(etype, data, Source.MANUAL, 99))
        assert p.state is before
    with pytest.raises(CompanionError):
        p.table.apply(Event("table.new_game", {"game": "espri", "options": {"max_draw": "lots"}}, Source.MANUAL, 99))
    with pytest.raises(CompanionError):
        p.table.apply(Event("table.new_game", {"game": "espri", "options": {"adjacent_modifier": "x"}}, Source.MANUAL, 99))


def test_steps_out_of_order() -> None:
    p = deva_table()
    p.refuse("draw", "R9", gems=["hiver"])
    p.refuse("choose", "R9", selection=0)
    p.send("appel", season="hiver", leader="deva")
    p.refuse("appel", "R9", season="hiver", leader="deva")
    p.refuse("draw", "R12", gems=["hiver"])  # two gems for N = 2
    p.refuse("redraw", "R9", gems=["hiver"])
