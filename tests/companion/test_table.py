from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import EventError, RuleError
from companion.events import Event
from companion.table import Table


def ev(seq_: int, type_: str, **data) -> Event:
    return Event(type_, data, seq=seq_)


def started(cap: int = 100) -> Table:
    t = Table()
    t.apply(ev(1, "table.new_game", game="dummy", options={"cap": cap}, seed=7))
    return t


def test_new_game_merges_options_and_refuses_unknown_ones():
    t = started(cap=10)
    assert t.top.options == {"cap": 10}
    with pytest.raises(EventError, match="unknown option"):
        Table().apply(ev(1, "table.new_game", game="dummy", options={"colour": 1}))
    with pytest.raises(EventError, match="unknown game"):
        Table().apply(ev(1, "table.new_game", game="chess"))


def test_events_before_a_game_or_of_another_game_are_refused():
    with pytest.raises(RuleError, match="no game is running"):
        Table().apply(ev(1, "dummy.add", n=1))
    t = started()
    with pytest.raises(EventError, match="not an event of the current game"):
        t.apply(ev(2, "wuxia.roll"))


def test_refused_event_changes_nothing():
    t = started(cap=5)
    t.apply(ev(2, "dummy.add", n=4))
    before = json.dumps(t.to_json())
    with pytest.raises(RuleError, match="may not pass 5"):
        t.apply(ev(3, "dummy.add", n=2))
    with pytest.raises(EventError):
        t.apply(ev(3, "dummy.add", n="two"))
    assert json.dumps(t.to_json()) == before


def test_undo_pops_the_last_effective_event_and_checks_seq():
    t = started()
    t.apply(ev(2, "dummy.add", n=3))
    t.apply(ev(3, "dummy.add", n=4))
    with pytest.raises(RuleError, match="someone else"):
        t.apply(ev(4, "undo", seq=2))
    applied = t.apply(ev(4, "undo", seq=3))
    assert applied.undone is not None and applied.undone.seq == 3
    assert t.state.total == 3
    t.apply(ev(5, "undo"))
    assert t.state.total == 0
    t.apply(ev(6, "undo"))  # undoes the new game itself
    assert t.game_name is None
    with pytest.raises(RuleError, match="nothing to undo"):
        t.apply(ev(7, "undo"))


def test_software_rolls_are_fixed_by_seed_and_seq():
    a, b = started(), started()
    for seq in range(2, 12):
        a.apply(ev(seq, "dummy.roll"))
        b.apply(ev(seq, "dummy.roll"))
    assert a.state.rolls == b.state.rolls
    assert len(set(a.state.rolls)) > 1


def test_replay_lenient_sets_aside_refused_events_and_goes_on():
    events = [ev(1, "table.new_game", game="dummy"), ev(2, "dummy.add", n=9), ev(3, "dummy.add", n=2)]
    t = Table().replay(events)
    assert t.state.total == 2
    assert [e.seq for e, _ in t.skipped] == [2]
    with pytest.raises(EventError, match="event 2"):
        Table().replay(events, strict=True)


actions = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(min_value=-2, max_value=8)),
        st.tuples(st.just("roll"), st.just(0)),
        st.tuples(st.just("undo"), st.just(0)),
    ),
    max_size=40,
)


@given(actions)
def test_replay_of_the_same_log_gives_the_same_state(acts):
    live = started(cap=30)
    log = [live.frames[0].event]
    for seq, (kind, n) in enumerate(acts, start=2):
        e = ev(seq, "undo") if kind == "undo" else ev(seq, f"dummy.{kind}", n=n) if kind == "add" else ev(seq, "dummy.roll")
        try:
            live.apply(e)
        except ValueError:
            continue
        log.append(e)
        assert 0 <= (live.state.total if live.state else 0) <= 30
    again = Table().replay(log, strict=True)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(live.to_json(), sort_keys=True)
