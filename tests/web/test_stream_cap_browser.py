"""A tablet refused a live stream (too many pages open from its address: 429) tries
again by itself, and goes live once a page is closed (real browser)."""

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
