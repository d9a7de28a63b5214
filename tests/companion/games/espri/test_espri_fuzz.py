"""Hostile values in every field of every ESPRI event: each is applied or refused with a
CompanionError (never another exception), and a refused event changes nothing (issue 15).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.errors import CompanionError
from companion.events import Event, Source
from companion.games.espri.game import HANDLERS

from tests.companion.games.espri.test_espri_flow import Play, guardian

#: The fields the handlers read, all event types together.
FIELDS = (
    "id", "name", "role", "season", "scores", "devotion", "harmony", "rupture", "talents", "prayers",
    "relationships", "set_up", "character", "with", "resonance", "nature", "gems", "keep", "place",
    "correction", "quadrants", "cells", "nymph", "to", "leader", "helpers", "talent", "passive",
    "difficulty", "modifiers", "count", "gem", "selection", "direction", "rupture_success", "order",
    "quadrant", "cell", "skip", "value", "minimum", "maximum", "label", "index", "delta", "points",
    "why", "target", "members", "read",
)

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12), st.sampled_from([10**400, -(10**400), 2**63]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.sampled_from(["hiver", "ete", "temps", "rupture", "violet", "deva", "b", "direct", "resonance",
                     "up", "down", "harmony", "prayer", "guardian", "priestess", "1", "999"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(FIELDS + ("hiver", "ete", "7")), inner, max_size=4)),
    max_leaves=8)
#: A valid event of each type, so that a hostile field is reached past the others.
TEMPLATES: dict[str, dict[str, Any]] = {
    "espri.character": guardian("c", "automne", {"automne": 2}, 2),
    "espri.relationship": {"character": "deva", "with": "b", "resonance": 1},
    "espri.setup_draw": {"character": "c", "gems": ["automne"] * 4},
    "espri.setup_keep": {"keep": ["automne"], "place": ["automne"]},
    "espri.setup_gm": {"quadrants": ["hiver", "ete", "automne", "printemps"]},
    "espri.set_quadrant": {"season": "ete", "cells": ["ete", "temps"], "nymph": 1},
    "espri.nymph": {"season": "hiver", "to": 2},
    "espri.remove": {"cells": [{"quadrant": "hiver", "cell": 3}]},
    "espri.appel": {"season": "hiver", "leader": "deva", "helpers": [{"character": "b", "form": "resonance"}]},
    "espri.temptation": {"count": 1},
    "espri.draw": {"gems": ["hiver", "ete", "temps"]},
    "espri.redraw": {"gems": ["hiver"]},
    "espri.prayer": {"gem": "hiver"},
    "espri.choose": {"selection": 0},
    "espri.extras": {"gems": ["hiver"]},
    "espri.keep_prayer": {"gem": "hiver"},
    "espri.remove_rupture": {"quadrant": "hiver", "cell": 2},
    "espri.effect": {"character": "deva", "value": 1, "season": "hiver", "minimum": 1},
    "espri.effect_clear": {"character": "deva", "index": 0},
    "espri.harmony": {"character": "deva", "delta": 1},
    "espri.rupture": {"character": "b", "points": 1},
    "espri.harmony_gift": {"character": "deva", "to": "b", "count": 1},
    "espri.save": {"character": "deva", "target": "b"},
    "espri.recharge": {"character": "deva", "with": "b"},
    "espri.communion": {"members": {"deva": {"pay": "harmony", "remove": [{"quadrant": "hiver", "cell": 1}]}}},
    "espri.redeem": {"character": "b", "harmony": 3, "rupture": 1},
}
#: The fields each type reads beyond its template's.
EXTRA_FIELDS: dict[str, tuple[str, ...]] = {
    "espri.character": ("harmony", "rupture", "talents", "prayers", "relationships", "set_up", "role", "name"),
    "espri.setup_draw": ("correction",), "espri.setup_keep": ("keep", "place", "character"),
    "espri.set_quadrant": ("cells",), "espri.appel": ("talent", "passive", "difficulty", "modifiers"),
    "espri.temptation": ("cells",), "espri.draw": ("correction", "read"),
    "espri.choose": ("order", "gems", "direction", "rupture_success"), "espri.effect": ("maximum", "label"),
    "espri.remove_rupture": ("skip",), "espri.rupture": ("why",), "espri.communion": ("ruptures",),
}


def _event(type_: str) -> st.SearchStrategy[tuple[str, bool, dict[str, Any]]]:
    own = tuple(TEMPLATES.get(type_, {})) + EXTRA_FIELDS.get(type_, ())
    keys = st.sampled_from(own + FIELDS[:3]) if own else st.sampled_from(FIELDS)
    return st.tuples(st.just(type_), st.booleans(),
                     st.one_of(st.just({}), st.dictionaries(keys, values, min_size=1, max_size=2)))


#: (type, from its template?, hostile fields): often a valid event, so play goes on to the
#: later steps of an Appel, where hostile values land in the fields that type reads.
events = st.sampled_from(sorted(HANDLERS)).flatmap(_event)


#: Play before the hostile events: none, an Appel announced, its gems drawn (N = 3), or
#: one gem drawn at N = 1 (a redraw possible).
PREFIXES: tuple[tuple[tuple[str, dict[str, Any]], ...], ...] = (
    (),
    (("espri.appel", TEMPLATES["espri.appel"]),),
    (("espri.appel", TEMPLATES["espri.appel"]), ("espri.draw", TEMPLATES["espri.draw"])),
    (("espri.appel", {"season": "hiver", "leader": "deva", "difficulty": 2}), ("espri.draw", {"gems": ["ete"]})),
)


def _table() -> Play:
    p = Play()
    p.send("character", **guardian("deva", "hiver", {"hiver": 3}, 2, prayers=["hiver"], harmony=2,
                                   relationships=[{"with": "b", "resonance": 2}]))
    p.send("character", **guardian("b", "ete", {"ete": 3}, 2, prayers=[],
                                   relationships=[{"with": "deva", "resonance": 2}]))
    p.send("set_quadrant", season="hiver", cells=["hiver", "rupture", "temps"], nymph=1)
    return p


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PREFIXES), st.lists(events, min_size=1, max_size=10))
def test_hostile_events_are_applied_or_refused_cleanly(prefix: tuple[tuple[str, dict[str, Any]], ...],
                                                       seq: list[tuple[str, bool, dict[str, Any]]]) -> None:
    p = _table()
    for type_, data in prefix:
        p.send(type_, **data)
    for type_, valid, hostile in seq:
        data = {**TEMPLATES.get(type_, {}), **hostile} if valid else hostile
        before = p.state
        p.seq += 1
        try:
            p.table.apply(Event(type_, data, Source.MANUAL, p.seq))
        except CompanionError as exc:
            assert str(exc)
            assert p.state is before
            p.seq -= 1
