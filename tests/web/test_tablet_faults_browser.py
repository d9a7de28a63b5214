"""What a tablet shows when the table is under strain (real browser): a live stream
refused (too many pages open from its address: 429) is tried again by itself and goes
live once a page is closed; a full disk is said on the tablet."""

from __future__ import annotations

import threading

import pytest

from tests.web.conftest import PIN
from tests.web.test_streams import Stream

pytestmark = pytest.mark.browser


def test_refused_stream_is_retried_until_a_place_is_free(browser, service):
    from playwright.sync_api import expect

    from web.app import create_app
    from web.server import create_server

    app = create_app({"SERVICE": service, "TABLE_PIN": PIN, "SSE_PING_S": 1.0, "STREAMS_PER_ADDRESS": 1})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.effective_port}"
    holder = Stream(base)  # the one stream 127.0.0.1 may have
    assert holder.status == 200 and holder.next_event()[0] == "hello"
    context = browser.new_context(locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(base + "/")
        expect(page.locator('[data-test="live"]')).to_have_attribute("data-state", "offline", timeout=20_000)
        holder.close()
        expect(page.locator('[data-test="live"]')).to_have_attribute("data-state", "live", timeout=30_000)
    finally:
        context.close()
        server.close()
        thread.join(20)


def test_full_disk_is_said_on_the_tablet(browser, service, monkeypatch):
    """A post the log cannot take (SQLITE_FULL; the real one is in test_fuzz.py) shows
    the 503's message on the tablet, and nothing changes."""
    from playwright.sync_api import expect

    from companion.errors import LogError
    from web.app import create_app
    from web.server import create_server

    service.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    service.submit({"type": "dummy.add", "data": {"n": 3}})
    app = create_app({"SERVICE": service, "TABLE_PIN": PIN, "SSE_PING_S": 1.0})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    context = browser.new_context(locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.effective_port}/")
        expect(page.locator('[data-test="live"]')).to_have_attribute("data-state", "live")
        page.click("#pin-btn")
        page.fill('[data-test="pin-input"]', PIN)
        page.click('[data-test="pin-submit"]')
        expect(page.locator('[data-test="pin-dialog"]')).not_to_have_attribute("open", "")

        def full(*args, **kwargs):
            raise LogError("could not write to the table log: database or disk is full")

        monkeypatch.setattr(service.log, "append", full)
        page.click('[data-test="undo"]')
        expect(page.locator("#toast")).to_contain_text("carte mémoire du compagnon est pleine")
        assert service.table.state.total == 3
    finally:
        context.close()
        server.close()
        thread.join(20)
