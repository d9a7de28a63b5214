"""Camera or tray unplugged mid-game: every open tablet shows a banner, manual entry keeps
working, and the banner goes when the device is back (real browser, two tablets)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.web.conftest import PIN

pytestmark = pytest.mark.browser


def post(base: str, body: dict) -> int:
    req = urllib.request.Request(base + "/api/events", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.status


def test_unplug_banner_on_every_tablet_and_manual_entry_goes_on(browser, live_server, service):
    assert post(live_server, {"type": "table.new_game", "data": {"game": "dummy"}}) == 201
    contexts = [browser.new_context(locale="fr-FR") for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    try:
        for p in pages:
            p.goto(live_server + "/")
            p.wait_for_selector('[data-test="live"][data-state="live"]')
        service.set_device("tray", {"connected": False, "message": "unplugged"})
        service.set_device("camera", {"connected": False})
        for p in pages:
            p.wait_for_selector('[data-test="device-tray"]')
            p.wait_for_selector('[data-test="device-camera"]')
            assert "Plateau déconnecté" in p.inner_text('[data-test="device-tray"]')
            assert "saisie manuelle" in p.inner_text('[data-test="device-tray"]')
        # Manual entry still works while both are out, and every tablet sees it.
        assert post(live_server, {"type": "dummy.add", "data": {"n": 4}}) == 201
        for p in pages:
            p.wait_for_function("document.querySelectorAll('[data-test=history-item]').length === 2")
            assert p.locator('[data-test="device-tray"]').count() == 1  # still out
        # Back by itself: the banners go.
        service.set_device("tray", {"connected": True})
        service.set_device("camera", {"connected": True})
        for p in pages:
            p.wait_for_selector('[data-test="device-tray"]', state="detached")
            p.wait_for_selector('[data-test="device-camera"]', state="detached")
        assert service.table.state.total == 4
    finally:
        for c in contexts:
            c.close()
