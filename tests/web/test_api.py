from __future__ import annotations

import json
import re

from tests.web.conftest import PIN

PIN_H = {"X-Table-Pin": PIN}


def start(client):
    r = client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}}, headers=PIN_H)
    assert r.status_code == 201, r.get_json()


def test_state_and_log_are_public(client):
    assert client.get("/api/state").get_json()["game"] is None
    start(client)
    state = client.get("/api/state").get_json()
    assert state["game"] == "dummy" and state["state"]["expects"]["step"] == "add"
    assert [e["type"] for e in client.get("/api/log").get_json()["events"]] == ["table.new_game"]


def test_post_needs_the_pin(client, service):
    body = {"type": "table.new_game", "data": {"game": "dummy"}}
    r = client.post("/api/events", json=body)
    assert r.status_code == 401
    assert "PIN" in r.get_json()["error"]
    r = client.post("/api/events", json=body, headers={"X-Table-Pin": "0000"})
    assert r.status_code == 403
    assert service.log.count() == 0


def test_accepted_event_returns_201_with_outcome(client):
    start(client)
    r = client.post("/api/events", json={"type": "dummy.add", "data": {"n": 4}}, headers=PIN_H)
    assert r.status_code == 201
    body = r.get_json()
    assert body["event"]["seq"] == 2
    assert body["outcomes"][0]["data"] == {"n": 4}
    assert client.get("/api/state").get_json()["state"]["total"] == 4


def test_bad_input_gives_400_with_a_message_and_changes_nothing(client, service):
    start(client)
    cases = [
        (dict(data="not json", content_type="application/json"), "not valid JSON"),
        (dict(data="n=4", content_type="application/x-www-form-urlencoded"), "as JSON"),
        (dict(json={"type": "dummy.add", "data": {"n": 9}}), "die face"),
        (dict(json={"type": "dummy.add", "data": {"n": 1}, "extra": 1}), "unknown event field"),
        (dict(json={"type": "wuxia.roll"}), "not an event of the current game"),
        (dict(json=[1, 2]), "JSON object"),
    ]
    for kwargs, message in cases:
        r = client.post("/api/events", headers=PIN_H, **kwargs)
        assert r.status_code == 400, (kwargs, r.get_json())
        assert message in r.get_json()["error"]
    assert service.log.count() == 1


def test_rule_error_names_the_rule(client):
    client.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 2}}}, headers=PIN_H)
    r = client.post("/api/events", json={"type": "dummy.add", "data": {"n": 3}}, headers=PIN_H)
    assert r.status_code == 400 and r.get_json()["rule"] == "CAP"


def _csrf(client) -> str:
    page = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def test_page_session_login_and_csrf(client, service):
    token = _csrf(client)
    body = {"type": "table.new_game", "data": {"game": "dummy"}}
    # Not logged in yet.
    assert client.post("/api/events", json=body, headers={"X-CSRF-Token": token}).status_code == 401
    # Login needs the CSRF token, then the right PIN.
    assert client.post("/login", json={"pin": PIN}).status_code == 403
    assert client.post("/login", json={"pin": "1111"}, headers={"X-CSRF-Token": token}).status_code == 403
    r = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.get_json()["ok"]
    # Logged in: a change without the CSRF token is refused, with it accepted.
    assert client.post("/api/events", json=body).status_code == 403
    assert client.post("/api/events", json=body, headers={"X-CSRF-Token": "forged"}).status_code == 403
    assert client.post("/api/events", json=body, headers={"X-CSRF-Token": token}).status_code == 201
    assert service.log.count() == 1
    # Logout is under CSRF too: a forged one is refused (issue 15), the page's own works.
    assert client.post("/logout").status_code == 403
    assert client.post("/api/events", json=body, headers={"X-CSRF-Token": token}).status_code == 201
    assert client.post("/logout", headers={"X-CSRF-Token": token}).status_code == 200
    assert client.post("/api/events", json=body, headers={"X-CSRF-Token": token}).status_code == 401


def test_repeated_wrong_pins_are_throttled(client):
    from web.auth import PER_ADDRESS

    for _ in range(PER_ADDRESS):
        assert client.post("/api/events", json={"type": "undo"}, headers={"X-Table-Pin": "9999"}).status_code == 403
    r = client.post("/api/events", json={"type": "undo"}, headers=PIN_H)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) == 30
    assert "réessayez dans 30\u00a0s" in r.get_json()["message"]["fr"]


def test_page_is_french_by_default_and_english_on_request(client):
    page = client.get("/").get_data(as_text=True)
    assert 'lang="fr"' in page and "Historique" in page
    assert 'lang="en"' in client.get("/?lang=en").get_data(as_text=True)
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)


def test_security_headers_and_no_debug(app, client):
    assert app.debug is False
    r = client.get("/")
    assert r.headers["X-Frame-Options"] == "DENY"
    assert "HttpOnly" in r.headers.get("Set-Cookie", "")


def test_games_endpoint_lists_registered_games(client):
    names = [g["name"] for g in client.get("/api/games").get_json()["games"]]
    assert "dummy" not in names or isinstance(names, list)
    assert json.loads(client.get("/api/games").get_data())["known"]
