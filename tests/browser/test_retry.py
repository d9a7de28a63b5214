"""The page's posts carry an event id and retry safely (issue 15): the server stores the
first try, the answer is lost on the way back, the page tries again with the same id, and
the table holds the event once. The page also runs under the Content-Security-Policy
(no inline script) without a violation."""

from __future__ import annotations

import json

import pytest

from tests.helpers import Server

pytestmark = pytest.mark.browser


@pytest.fixture
def strict_page(browser):
    """A tablet that enforces the page's CSP (the shared ``page`` fixture bypasses it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR", bypass_csp=False)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    context.close()


def test_lost_answer_is_retried_with_the_same_id_and_applied_once(strict_page, tmp_path):
    page = strict_page
    csp_errors: list[str] = []
    page.on("console", lambda msg: csp_errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    from playwright.sync_api import expect

    with Server("--data", str(tmp_path)) as srv:
        srv.post({"type": "table.new_game", "data": {"game": "dummy"}})
        srv.post({"type": "dummy.add", "data": {"n": 5}})
        srv.post({"type": "dummy.add", "data": {"n": 3}})
        resp = page.goto(srv.base + "/")
        assert "script-src 'self'" in resp.headers["content-security-policy"]
        page.wait_for_selector('[data-test="live"][data-state="live"]')
        page.click("#pin-btn")
        page.fill('[data-test="pin-input"]', srv.pin)
        page.click('[data-test="pin-submit"]')
        page.wait_for_selector('[data-test="pin-dialog"]:not([open])', state="attached")

        bodies: list[dict] = []

        def lose_first_answer(route):
            bodies.append(json.loads(route.request.post_data))
            if len(bodies) == 1:
                route.fetch()  # the server stores it...
                route.abort("connectionreset")  # ...and the answer never reaches the tablet
            else:
                route.continue_()

        page.route("**/api/events", lose_first_answer)
        posts = []

        def second_post(req) -> bool:
            if req.method == "POST" and req.url.endswith("/api/events"):
                posts.append(req)
            return len(posts) == 2

        with page.expect_event("request", predicate=second_post, timeout=20_000):
            page.click('[data-test="undo"]')
        # (locator waits, not wait_for_function: the page's CSP forbids the eval it uses)
        expect(page.locator('[data-test="history-item"]')).to_have_count(2)
        retry = posts[1].response()  # the retry's answer: already stored
        assert retry is not None and retry.status == 200 and retry.json()["duplicate"] is True
        assert len(bodies) == 2 and bodies[0]["id"] == bodies[1]["id"] and len(bodies[0]["id"]) == 32
        log = srv.get("/api/log")["events"]
        assert [e["type"] for e in log].count("undo") == 1
        assert srv.get("/api/state")["state"]["total"] == 5
    assert page.js_errors == []
    assert csp_errors == []
