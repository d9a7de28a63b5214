"""Bad input never crashes the Wuxia rules: it is refused with a CompanionError and the
state is unchanged (hypothesis throws random data at every event type)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.errors import CompanionError
from companion.events import Event
from companion.games.wuxia import GAME

from tests.companion.games.wuxia.test_wuxia_combat import A, B
from tests.companion.games.wuxia.test_wuxia_rules import LIN, assert_bilingual, send, table

VERBS = sorted(GAME._handlers) + ["nope"]
KEYS = ["who", "name", "attribute", "skill", "competence", "sr", "dice", "indices", "index", "value", "amount",
        "award", "count", "participants", "fighters", "attacker", "defender", "defence", "group", "soul",
        "manoeuvres", "initiative", "actions", "read", "attributes", "skills", "priorities", "powers", "check",
        "rerolls", "label", "group_dice", "nd", "armour", "rename", "hero_type"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 14), st.sampled_from(["Lin", "Ana", "Bo", "feu", "metal", "x", ""]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                       st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)), max_leaves=12)
events = st.tuples(st.sampled_from(VERBS), st.dictionaries(st.sampled_from(KEYS), values, max_size=5))


def _states() -> list[Any]:
    out = [table().state]
    t = table(None, A, B)
    send(t, "combat_start", {"fighters": [{"who": "Ana", "competence": 2}, {"who": "Bo", "side": "b", "competence": 1}]})
    out.append(t.state)
    send(t, "roll", {"dice": [10, 9, 2, 2]})
    out.append(t.state)
    t2 = table()
    send(t2, "test", {"who": "Lin", "attribute": "feu", "skill": "Tir à l'arc", "sr": 12})
    send(t2, "roll", {"dice": [1, 2, 3, 4, 5]})
    out.append(t2.state)
    return out


STATES = _states()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(STATES))), st.lists(events, min_size=1, max_size=4))
def test_random_events_are_refused_cleanly(which: int, evs: list[tuple[str, dict[str, Any]]]) -> None:
    state = STATES[which]
    import random

    for i, (verb, data) in enumerate(evs):
        before = state
        try:
            state, outs = GAME.apply(state, Event(f"wuxia.{verb}", data, seq=100 + i), random.Random(i))
        except CompanionError as err:
            assert state is before
            assert_bilingual(err)
            continue
        GAME.state_json(state)
        assert all(o.text["fr"] and o.text["en"] for o in outs)
    assert LIN["name"] == "Lin"
