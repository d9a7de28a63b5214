"""Bad input never crashes the Shayo rules: it is refused with a CompanionError that says
why in French and in English, and the state is unchanged (hypothesis throws random data at
every event type)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.errors import CompanionError
from companion.events import Event
from companion.games.shayo import GAME
from companion.games.shayo.game import HANDLERS

from tests.companion.games.shayo.test_shayo_game import AIKO, REN, T

VERBS = sorted(HANDLERS) + ["correct", "nope"]
KEYS = ["who", "name", "attribute", "attributes", "skill", "skills", "difficulty", "dice", "kept", "index", "value",
        "values", "ki", "from", "surpass", "signature", "signatures", "target", "weapon", "weapons", "armour",
        "combatants", "die", "encumbrance", "object", "quality", "kind", "required", "improvement", "duration",
        "modifiers", "rolled", "boxes", "amount", "use", "option", "range", "life_boxes", "what", "sd", "protection"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 14), st.sampled_from([10**6, -10**9]),
                    st.sampled_from(["Aiko", "Ren", "AGI", "INS", "Kenjutsu", "katana", "x", ""]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                       st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
                      max_leaves=12)
events = st.tuples(st.sampled_from(VERBS), st.dictionaries(st.sampled_from(KEYS), values, max_size=5))


def _states() -> list[Any]:
    t = T()
    t.send("shayo.character", AIKO)
    t.send("shayo.character", REN)
    out = [t.table.state]
    t.send("shayo.test", {"who": "Aiko", "attribute": "AGI", "skill": "Kenjutsu", "difficulty": 6})
    out.append(t.table.state)
    t.send("shayo.roll", {"dice": [8, 3, 1, 6]})
    out.append(t.table.state)
    t2 = T()
    t2.send("shayo.character", AIKO)
    t2.send("shayo.character", REN)
    t2.send("shayo.attack", {"who": "Aiko", "target": "Ren", "attribute": "AGI", "skill": 4, "weapon": "katana"})
    out.append(t2.table.state)
    return out


STATES = _states()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(STATES))), st.lists(events, min_size=1, max_size=4))
def test_random_events_are_refused_cleanly_in_both_languages(which: int, evs: list[tuple[str, dict[str, Any]]]) -> None:
    state = STATES[which]
    for i, (verb, data) in enumerate(evs):
        before = state
        try:
            state, outs = GAME.apply(state, Event(f"shayo.{verb}", data, seq=100 + i), random.Random(i))
        except CompanionError as err:
            assert state is before
            said = getattr(err, "text", None)
            assert isinstance(said, dict) and said["fr"] and said["en"] and said["fr"] != said["en"], err
            continue
        GAME.state_json(state)
        assert all(o.text["fr"] and o.text["en"] for o in outs)
