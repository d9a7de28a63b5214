"""Hardening headers and checks (issue 15): a CSP with no inline script, an Origin check
on every state-changing request, a Host allow-list against DNS rebinding."""

from __future__ import annotations

import re
import socket
from pathlib import Path

from tests.web.conftest import PIN

TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"


def _csrf(client) -> str:
    page = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def test_csp_on_every_answer_and_no_inline_script(client):
    for path in ["/", "/api/state", "/healthz", "/nowhere"]:
        csp = client.get(path).headers["Content-Security-Policy"]
        script = re.search(r"script-src ([^;]+)", csp).group(1)
        assert script.strip() == "'self'", csp
        assert "frame-ancestors 'none'" in csp
    for tpl in TEMPLATES.glob("*.html"):
        text = tpl.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), f"inline script in {tpl.name}"
        assert not re.search(r"\son[a-z]+\s*=", text), f"inline event handler in {tpl.name}"


def test_foreign_origin_is_refused_on_changes(client, service):
    body = {"type": "table.new_game", "data": {"game": "dummy"}}
    r = client.post("/api/events", json=body, headers={"X-Table-Pin": PIN, "Origin": "http://evil.example"})
    assert r.status_code == 403 and "autre site" in r.json["message"]["fr"]
    token = _csrf(client)
    r = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token, "Origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/events", json=body, headers={"X-Table-Pin": PIN, "Referer": "http://evil.example/x"})
    assert r.status_code == 403
    assert client.post("/api/events", json=body, headers={"X-Table-Pin": PIN, "Origin": "null"}).status_code == 403
    assert service.log.count() == 0
    # The page's own origin, and clients that send none (curl, the tray), pass.
    r = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token, "Origin": "http://localhost"})
    assert r.status_code == 200
    assert client.post("/api/events", json=body, headers={"X-Table-Pin": PIN}).status_code == 201
    # Reading is not a change: a GET with a foreign Origin is answered.
    assert client.get("/api/state", headers={"Origin": "http://evil.example"}).status_code == 200


def test_host_allow_list(client):
    r = client.get("/", headers={"Host": "evil.example"})
    assert r.status_code == 421 and "adresse" in r.json["message"]["fr"]
    assert client.get("/api/state", headers={"Host": "evil.example:8080"}).status_code == 421
    name = socket.gethostname().lower()
    for host in ["localhost", "localhost:8080", "127.0.0.1:8080", "127.0.0.2", "[::1]:8080", name,
                 f"{name}.local:8080", f"{name.upper()}.LOCAL"]:
        assert client.get("/healthz", headers={"Host": host}).status_code == 200, host


def test_extra_allowed_hosts(service):
    from web.app import create_app

    app = create_app({"SERVICE": service, "TABLE_PIN": PIN, "ALLOWED_HOSTS": ["table.example"]})
    c = app.test_client()
    assert c.get("/healthz", headers={"Host": "table.example"}).status_code == 200
    assert c.get("/healthz", headers={"Host": "other.example"}).status_code == 421
