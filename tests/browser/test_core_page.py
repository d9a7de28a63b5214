"""The core page in a real browser: live updates, PIN, undo, language."""

from __future__ import annotations

import pytest

from tests.helpers import Server

pytestmark = pytest.mark.browser


def test_live_history_pin_and_undo(page, tmp_path):
    with Server("--data", str(tmp_path)) as srv:
        page.goto(srv.base + "/")
        page.wait_for_selector('[data-test="live"][data-state="live"]')
        assert page.locator('[data-test="history-item"]').count() == 0
        # Another client plays: this tablet sees it live.
        srv.post({"type": "table.new_game", "data": {"game": "dummy"}})
        srv.post({"type": "dummy.add", "data": {"n": 5}})
        page.wait_for_function("document.querySelectorAll('[data-test=history-item]').length === 2")
        assert "+5" in page.locator('[data-test="history-item"]').first.inner_text()
        # Undo without the PIN opens the PIN dialog; a wrong PIN says so.
        page.click('[data-test="undo"]')
        page.wait_for_selector('[data-test="pin-dialog"][open]')
        page.fill('[data-test="pin-input"]', "0000")
        page.click('[data-test="pin-submit"]')
        page.wait_for_function("document.querySelector('[data-test=pin-error]').textContent.length > 0")
        assert "incorrect" in page.inner_text('[data-test="pin-error"]')
        page.fill('[data-test="pin-input"]', srv.pin)
        page.click('[data-test="pin-submit"]')
        page.wait_for_selector('[data-test="pin-dialog"]:not([open])', state="attached")
        # the PIN accepted, the undo that asked for it is carried out: no second tap
        page.wait_for_function("document.querySelectorAll('[data-test=history-item]').length === 1")
        assert srv.get("/api/state")["state"]["total"] == 0
        assert [e["type"] for e in srv.get("/api/log")["events"]].count("undo") == 1
        # English on a tap.
        page.click('[data-test="lang"]')
        assert page.inner_text('[data-test="undo"]').strip() == "↶ Undo"
        assert page.js_errors == []


def test_older_history_is_paged_from_the_log(page, tmp_path):
    from companion.importer import import_lines

    # A campaign longer than the recent history the state carries (60 entries).
    lines = ['{"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 100000}}}']
    lines += ['{"type": "dummy.add", "data": {"n": %d}}' % (1 + i % 6) for i in range(79)]
    assert import_lines(lines, tmp_path / "table.sqlite").imported == 80
    with Server("--data", str(tmp_path)) as srv:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(srv.base + "/")
        page.wait_for_selector('[data-test="live"][data-state="live"]')
        page.wait_for_function("document.querySelectorAll('[data-test=history-item]').length === 60")
        assert page.locator('[data-test="history-item"]').last.get_attribute("data-seq") == "21"
        page.click('[data-test="history-older"]')
        page.wait_for_function("document.querySelectorAll('[data-test=history-older-item]').length === 20")
        older = page.locator('[data-test="history-older-item"]')
        assert older.first.get_attribute("data-seq") == "20" and older.last.get_attribute("data-seq") == "1"
        assert "total" in older.first.inner_text()  # the outcome, stored with the snapshots
        assert page.locator('[data-test="history-older"]').count() == 0  # nothing older
        page.screenshot(path=str(tmp_path / "older-history.png"))
        assert page.js_errors == []
