"""Every route answers bad input with a 4xx and a message, never a 500 (issue 15).

Hypothesis throws at every route of the app (with the PIN, so bodies reach the views):
nested JSON, NaN/Infinity/1e999, huge integers, lone surrogates, control and bidi
characters, wrong types, non-JSON bodies, odd query strings and wrong methods. After
all of it the table still takes a valid event (nothing left half-written)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import PIN

H = {"X-Table-Pin": PIN}

# JSON-ish values, written by hand so that what json.dumps refuses can be sent too.
_atoms = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
    st.sampled_from([2 ** 63, -(2 ** 63) - 1, 10 ** 400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "\u202eevil", "x" * 100, "dummy", "peripeties", "undo"]),
)
_values = st.recursive(_atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["type", "data", "game", "n", "name", "seq", "id", "options", "seed",
                                     "source", "by", "read", "index", "value", "kind", "pin", "face"])
                    | st.text(max_size=5), inner, max_size=5)), max_leaves=12)


def _dump(v) -> str:
    """JSON text, writing non-finite floats and surrogates as json.dumps would not stop us."""
    return json.dumps(v, ensure_ascii=True, allow_nan=True)


_bodies = st.one_of(
    _values.map(_dump),
    st.sampled_from(["[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000, "1e999", "NaN", '"str"', "",
                     "{", '{"type": "dummy.add", "data": {"n": 1e999}}', '{"type": "table.new_game", "data": '
                     '{"game": "dummy", "seed": 1' + "0" * 400 + '}}', "\xff\xfe", '{"pin": NaN}']),
    st.builds(lambda d: _dump({"type": "dummy.add", "data": d}), _values),
    st.builds(lambda d, i: _dump({"id": i, "type": "table.new_game", "data": d}), _values, _atoms),
)
_queries = st.one_of(st.just(""), st.sampled_from(["?n=abc", "?n=1e999", "?after=" + str(2 ** 63)]), st.sampled_from(["?n=abc", "?after=" + str(2 ** 63), "?after=-1", "?history=x",
                                                    "?history=99999999999999999999", "?n=1e999", "?lang=xx"]),
                     st.text(alphabet="abcn=&%?0123456789", max_size=12).map(lambda q: "?" + q))
_methods = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"])
_types = st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded", None])


def _path(rule) -> str:
    path = rule.rule
    for arg in rule.arguments:
        path = path.replace(f"<{arg}>", "x1234567").replace(f"<path:{arg}>", "x/y")
    return path


SKIP = {"/api/camera/background", "/api/roll/shake", "/api/roll/read", "/api/camera/preview.jpg"}  # slow, no input


@pytest.fixture
def fuzz_app(tmp_path, service):
    from companion.app.wiring import start_devices
    from web.app import create_app

    devs = start_devices(service, tmp_path, camera="demo", tray="none", gpio="none", demo=True)
    app = create_app({"SERVICE": service, "TABLE_PIN": PIN, "DEVICES": devs, "DEMO": True})
    yield app
    devs.stop()


def test_every_route_answers_bad_input_with_a_4xx_and_a_message(fuzz_app, service):
    client = fuzz_app.test_client()
    rules = [r for r in fuzz_app.url_map.iter_rules() if _path(r) not in SKIP and not r.rule.startswith("/static")]
    paths = {_path(r) for r in rules}
    assert {"/api/events", "/login", "/api/roll/correct", "/api/roll", "/api/log"} <= paths
    client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}}, headers=H)
    seen: set[int] = set()
    for rule in rules:
        route = _path(rule)
        own = sorted(m for m in rule.methods if m not in ("HEAD", "OPTIONS"))

        @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(method=st.sampled_from(own) | _methods, body=_bodies, query=_queries, ctype=_types)
        def one(method, body, query, ctype):
            headers = dict(H)
            if ctype:
                headers["Content-Type"] = ctype
            if route == "/events" and method == "GET":
                return  # an endless stream: covered by test_sse and test_streams
            resp = client.open(route + query, method=method, data=body.encode("utf-8", "surrogatepass"),
                               headers=headers)
            seen.add(resp.status_code)
            assert resp.status_code < 500, (route, method, query, body[:200], resp.status_code, resp.get_data()[:300])
            if resp.status_code >= 400 and resp.mimetype == "application/json":
                msg = resp.get_json()["message"]
                assert msg["fr"] and msg["en"]

        one()
    assert any(400 <= s < 500 for s in seen)
    # Nothing was left half-done: a valid event still goes in.
    before = service.log.count()
    r = client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}}, headers=H)
    assert r.status_code == 201 and service.log.count() == before + 1


def test_lone_surrogate_is_refused_and_the_next_event_goes_in(client, service):
    """A lone surrogate gave a 500 and left the SQLite transaction open: the next valid
    event was refused with 'cannot start a transaction within a transaction'."""
    assert client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}},
                       headers=H).status_code == 201
    bad = '{"type": "dummy.add", "data": {"n": 1, "name": "\\ud800"}}'
    r = client.post("/api/events", data=bad, headers={**H, "Content-Type": "application/json"})
    assert r.status_code == 400 and "Unicode" in r.json["message"]["fr"]
    r = client.post("/api/events", json={"type": "dummy.add", "data": {"n": 2}}, headers=H)
    assert r.status_code == 201 and service.table.state.total == 2


def test_log_rolls_back_a_row_it_cannot_store(tmp_path):
    """The same bug one layer down: whatever fails inside the transaction, it is rolled back."""
    from companion.errors import EventError
    from companion.events import Event
    from companion.log import TableLog

    with TableLog(tmp_path / "t.sqlite") as log:
        with pytest.raises(EventError):
            log.append(Event("dummy.add", {"name": "\ud800"}))
        stored = log.append(Event("dummy.add", {"n": 1}))
        assert stored.seq == 1 and log.count() == 1


@pytest.mark.parametrize("field,value,needle", [
    ("name", "x" * 81, "trop long"),
    ("name", "Ali\u202eecila", "direction"),
    ("name", "nul\x00", "contrôle"),
    ("note", "y" * 5000, "trop long"),
    ("n", 10 ** 20, "hors limites"),
])
def test_field_limits(client, field, value, needle):
    client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}}, headers=H)
    r = client.post("/api/events", json={"type": "dummy.add", "data": {"n": 1, field: value}}, headers=H)
    assert r.status_code == 400 and needle in r.json["message"]["fr"]


def test_a_1mb_by_field_is_refused(client):
    r = client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}},
                    headers={**H, "X-Client": "b" * 100})
    assert r.status_code == 400
    r = client.post("/api/events", data=json.dumps({"type": "table.new_game", "data": {"game": "dummy", "p": "x" * 70_000}}),
                    headers={**H, "Content-Type": "application/json"})
    assert r.status_code == 413 and "64" in r.json["message"]["fr"]


def test_full_disk_answers_503_and_says_so(client, service):
    """A log that cannot grow (SQLITE_FULL, as on a full SD card) is a 503 with a message
    for the tablet; nothing is applied and play resumes once there is room."""
    client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}}, headers=H)
    db = service.log._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages}")
    try:
        big = {"type": "dummy.add", "data": {"n": 1, "note": "z" * 3900}}
        statuses = [client.post("/api/events", json=big, headers=H).status_code for _ in range(4)]
        assert 503 in statuses
        r = client.post("/api/events", json=big, headers=H)
        assert r.status_code == 503 and r.json["reason"] == "storage_full"
        assert "pleine" in r.json["message"]["fr"] and "full" in r.json["message"]["en"]
        total = service.table.state.total
    finally:
        db.execute("PRAGMA max_page_count=1073741823")
    r = client.post("/api/events", json={"type": "dummy.add", "data": {"n": 1}}, headers=H)
    assert r.status_code == 201 and service.table.state.total == total + 1
