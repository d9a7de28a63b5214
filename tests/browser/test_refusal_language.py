"""A refused move shows on the tablet in the tablet's language only: French by default, English
after the language switch; never the "fr / en" pair the server's message carries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import Server

pytestmark = pytest.mark.browser

TOAST = '[data-test="toast"]'


def _refused_toast(page, etype: str, data: dict[str, object], word: str) -> str:
    """Send ``etype`` through the tablet's own ``send`` and wait for its refusal's toast."""
    page.evaluate("([t, d]) => { window.Companion.send(t, d); }", [etype, data])
    page.wait_for_function("w => (document.querySelector('[data-test=toast]') || {}).textContent"
                           " && document.querySelector('[data-test=toast]').textContent.includes(w)", arg=word)
    return page.text_content(TOAST) or ""


def test_a_refused_espri_move_is_in_the_tablets_language_only(browser, tmp_path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        with Server("--demo", "--game", "espri", "--data", str(tmp_path)) as srv:
            page.goto(srv.base + "/")
            page.click('[data-test="pin-open"]')
            page.fill('[data-test="pin-input"]', srv.pin)
            page.click('[data-test="pin-submit"]')
            page.wait_for_selector('[data-test="pin-dialog"]:not([open])', state="attached")
            # the demo's Appel waits for its draw: choosing gems now is refused by the rules
            fr = _refused_toast(page, "espri.choose", {"gems": ["hiver"]}, "Appel")
            assert "l'Appel attend l'étape «\u202f" in fr or "aucun Appel en cours\u202f:" in fr, fr
            assert " / " not in fr and "waits" not in fr and "no Appel" not in fr, fr
            shots = os.environ.get("COMPANION_SCREENSHOTS")
            if shots:
                page.screenshot(path=str(Path(shots) / "refusal-fr-390x844.png"))
            page.click("#lang-btn")
            en = _refused_toast(page, "espri.save", {"character": "nobody", "target": "x"}, "unknown character")
            assert " / " not in en and "inconnu" not in en, en
            if shots:
                page.screenshot(path=str(Path(shots) / "refusal-en-390x844.png"))
    finally:
        context.close()
    assert not errors, errors
