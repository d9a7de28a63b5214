"""The calibration and enrollment wizard on the tablet, against the demo camera."""

from __future__ import annotations

import pytest

from tests.helpers import Server

pytestmark = pytest.mark.browser


def test_wizard_checks_calibrates_enrolls_and_practises(page, tmp_path):
    with Server("--demo", "--game", "wuxia", "--data", str(tmp_path)) as srv:
        page.goto(srv.base + "/")
        page.click('[data-test="calibrate-link"]')
        page.wait_for_selector('[data-test="check-markers"][data-ok="yes"]', timeout=15000)
        assert page.get_attribute('[data-test="check-focus"]', "data-ok") == "yes"
        page.wait_for_function("document.querySelector('[data-test=preview]').naturalWidth > 0")
        page.click('[data-test="pin-open"]')
        page.fill('[data-test="pin-input"]', srv.pin)
        page.click('[data-test="pin-submit"]')
        page.wait_for_selector('[data-test="pin-dialog"]:not([open])', state="attached")
        page.click('[data-test="wizard-next"]')
        page.click('[data-test="capture-background"]')
        page.wait_for_selector('[data-test="wizard-step"][data-step="enroll"]')
        assert (tmp_path / "vision" / "calibration.json").exists()
        page.wait_for_selector('[data-test="progress"]')
        assert page.get_attribute('[data-test="progress"]', "data-value") == "0"
        # the tray is empty: learning a face is refused with a clear message
        page.click('[data-test="enroll-kind-d6"]')
        page.click('[data-test="enroll-capture"]')
        page.wait_for_function("document.querySelector('[data-test=toast]').textContent.includes('Aucun objet')")
        # the instruction and the buttons speak in words, never keys or stray objects
        page.wait_for_function("document.querySelector('[data-test=enroll-kind-lieu]').textContent.includes('lieu') "
                               "&& document.querySelector('[data-test=enroll-kind-lieu]').textContent !== 'lieu'")
        assert "[object" not in page.text_content('[data-test="enroll-face"]')
        # the preview is in view beside (or above) the steps, to be tapped
        assert page.locator('[data-test="preview"]').bounding_box()["y"] < page.viewport_size["height"]
        # several objects in the tray: a tap on the preview chooses the one to learn
        assert "Touchez" in page.text_content('[data-test="enroll-tap"]')
        box = page.locator('[data-test="preview"]').bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 4)
        page.wait_for_function("document.querySelector('[data-test=enroll-tap]').textContent.includes('50 %, 25 %')")
        page.click('[data-test="wizard-next"]')
        page.click('[data-test="practice-read"]')
        page.wait_for_selector('[data-test="practice-result"]', state="attached", timeout=15000)
        assert page.js_errors == []
