from __future__ import annotations

import pytest

from companion.errors import CompanionError
from companion.service import TableService


@pytest.fixture
def service(tmp_path):
    s = TableService(tmp_path / "table.sqlite")
    yield s
    s.close()


def test_submit_stores_folds_and_publishes(service):
    sub = service.broker.subscribe()
    service.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    applied = service.submit({"type": "dummy.add", "data": {"n": 5}})
    assert applied.event.seq == 2
    assert service.table.state.total == 5
    assert service.log.count() == 2
    names = [sub.queue.get_nowait()[0] for _ in range(2)]
    assert names == ["table", "table"]


def test_refused_event_is_not_written_nor_published(service):
    service.submit({"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 3}}})
    sub = service.broker.subscribe()
    for bad in ({"type": "dummy.add", "data": {"n": 6}}, {"type": "dummy.add", "data": {"n": "x"}}, {"nope": 1}, "text"):
        with pytest.raises(CompanionError):
            service.submit(bad)
    assert service.log.count() == 1
    assert sub.queue.empty()


def test_seq_and_time_from_the_client_are_ignored(service):
    service.submit({"type": "table.new_game", "data": {"game": "dummy"}, "seq": 99, "at": "1999-01-01T00:00:00Z"})
    ev = list(service.log.events())[0]
    assert ev.seq == 1 and not ev.at.startswith("1999")


def test_restart_replays_the_log(tmp_path):
    s = TableService(tmp_path / "t.sqlite")
    s.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    for n in (1, 2, 3):
        s.submit({"type": "dummy.add", "data": {"n": n}})
    s.submit({"type": "undo"})
    s.close()
    again = TableService(tmp_path / "t.sqlite")
    assert again.table.state.total == 3
    assert again.state_json()["events"] == 3
    again.close()


def test_slow_subscriber_is_dropped_not_blocking(service):
    service.broker._maxsize = 2
    slow = service.broker.subscribe()
    service.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    for _ in range(5):
        service.submit({"type": "dummy.add", "data": {"n": 1}})
    assert service.broker.count == 0
    assert slow.dropped >= 1
