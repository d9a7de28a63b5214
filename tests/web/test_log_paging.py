"""``GET /api/log?before=SEQ&limit=N``: history paged from the log."""

from __future__ import annotations

from tests.web.conftest import PIN

PIN_H = {"X-Table-Pin": PIN}


def post(client, body):
    r = client.post("/api/events", json=body, headers=PIN_H)
    assert r.status_code == 201, r.get_json()


def test_pages_walk_the_log_newest_first(client):
    post(client, {"type": "table.new_game", "data": {"game": "dummy"}})
    for n in (1, 2, 3, 4):
        post(client, {"type": "dummy.add", "data": {"n": n}})
    post(client, {"type": "undo"})
    first = client.get("/api/log?limit=2").get_json()
    assert [e["seq"] for e in first["events"]] == [6, 5] and first["more"] and first["before"] == 5
    assert first["events"][1]["undone"] and first["events"][1]["outcomes"][0]["text"]["fr"] == "+4 (total 10)"
    rest = client.get(f"/api/log?before={first['before']}&limit=10").get_json()
    assert [e["seq"] for e in rest["events"]] == [4, 3, 2, 1] and not rest["more"]
    assert not any(e["undone"] for e in rest["events"])
    # Without paging parameters, the whole log as before (oldest first).
    assert [e["seq"] for e in client.get("/api/log").get_json()["events"]] == [1, 2, 3, 4, 5, 6]


def test_bad_paging_parameters_are_refused_clearly(client):
    for query in ("limit=0", "limit=x", "before=0", "before=abc", "limit=-3", "limit=%C2%B2",
                  "before=99999999999999999999999"):
        r = client.get("/api/log?" + query)
        assert r.status_code == 400, query
        body = r.get_json()
        assert "positive integers" in body["error"] and "entiers positifs" in body["message"]["fr"]
    # A page size above the cap is served, capped.
    assert client.get("/api/log?limit=100000").status_code == 200
