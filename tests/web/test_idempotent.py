"""Idempotent posts (issue 15): each post may carry a client event id; a retry of a post
the server already stored enters nothing and says so; a client that gave up asks the
server what became of its post. The id survives a restart."""

from __future__ import annotations

import threading

from companion.service import TableService
from tests.web.conftest import PIN

H = {"X-Table-Pin": PIN}


def _post(client, body):
    return client.post("/api/events", json=body, headers=H)


def test_a_retry_never_enters_an_event_twice(client, service):
    assert _post(client, {"type": "table.new_game", "data": {"game": "dummy"}}).status_code == 201
    first = _post(client, {"id": "tab1-0001", "type": "dummy.add", "data": {"n": 4}})
    assert first.status_code == 201 and first.json["id"] == "tab1-0001"
    seq = first.json["event"]["seq"]
    again = _post(client, {"id": "tab1-0001", "type": "dummy.add", "data": {"n": 4}})
    assert again.status_code == 200
    assert again.json["duplicate"] is True and again.json["event"]["seq"] == seq
    assert again.json["outcomes"] == first.json["outcomes"]
    assert service.table.state.total == 4 and service.log.count() == 2


def test_the_client_learns_the_fate_of_its_post(client):
    _post(client, {"type": "table.new_game", "data": {"game": "dummy"}})
    assert _post(client, {"id": "fate-0001", "type": "dummy.add", "data": {"n": 2}}).status_code == 201
    got = client.get("/api/events/fate-0001")
    assert got.status_code == 200 and got.json["recorded"] is True and got.json["event"]["data"] == {"n": 2}
    missing = client.get("/api/events/never-sent-01")
    assert missing.status_code == 404 and missing.json["recorded"] is False
    assert "Aucun événement" in missing.json["message"]["fr"]
    # A refused post is not recorded either: its fate is "not recorded", and it may be retried.
    assert _post(client, {"id": "fate-0002", "type": "dummy.add", "data": {"n": 9}}).status_code == 400
    assert client.get("/api/events/fate-0002").status_code == 404
    # An undone event keeps its fate: it was recorded.
    assert _post(client, {"id": "fate-0003", "type": "undo", "data": {}}).status_code == 201
    assert client.get("/api/events/fate-0001").json["recorded"] is True


def test_bad_client_ids_are_refused(client):
    for bad in ["short", "x" * 65, "has space 123", 12345678, None, "é" * 10]:
        r = _post(client, {"id": bad, "type": "table.new_game", "data": {"game": "dummy"}})
        assert r.status_code == 400, bad
        assert r.json["message"]["fr"] and r.json["message"]["en"]
    assert client.get("/api/events/bad id").status_code == 400


def test_same_id_posted_at_once_from_many_threads_is_stored_once(service):
    service.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    results: list[bool] = []
    barrier = threading.Barrier(8)

    def go() -> None:
        barrier.wait()
        results.append(service.submit_once({"type": "dummy.add", "data": {"n": 1}}, "race-0001")[1])

    threads = [threading.Thread(target=go) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] + [True] * 7
    assert service.table.state.total == 1


def test_the_id_survives_a_restart(tmp_path):
    path = tmp_path / "table.sqlite"
    s = TableService(path)
    s.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    s.submit_once({"type": "dummy.add", "data": {"n": 3}}, "restart-01")
    s.close()
    s = TableService(path)
    try:
        fate, duplicate = s.submit_once({"type": "dummy.add", "data": {"n": 3}}, "restart-01")
        assert duplicate and fate["event"]["seq"] == 2
        assert s.table.state.total == 3
    finally:
        s.close()


def test_ids_leave_the_log_and_its_export_unchanged(client, service):
    _post(client, {"type": "table.new_game", "data": {"game": "dummy"}})
    _post(client, {"id": "export-001", "type": "dummy.add", "data": {"n": 1}})
    events = client.get("/api/log").json["events"]
    assert all("id" not in e and "id" not in e["data"] for e in events)
