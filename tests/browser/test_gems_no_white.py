"""ESPRI through a camera that sees a dark felt with nothing white in view, in a real
browser: the gems are shown as "?" (no colour can be measured), the message says why and
what to do, and a gem is named by tapping it on the photo."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.test_camera_demo import login
from tests.helpers import Server

pytestmark = pytest.mark.browser


def _felt_photo(folder: Path) -> None:
    """A held-aside candy photo with its white tray painted dark green felt."""
    import cv2

    from vision.gem_data import list_gem_photos, load_gem_labels, shared_candies_dir
    from vision.gem_eval import on_floor

    candies = shared_candies_dir()
    if candies is None:
        msg = "shared/data/colour-candies not found"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    ph = list_gem_photos(candies, "test")[4]
    img = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
    img, _ = on_floor("dark green felt")(img, load_gem_labels(ph, img.shape[1], img.shape[0]))
    folder.mkdir()
    cv2.imwrite(str(folder / "felt.jpg"), img)


def test_gems_on_a_dark_felt_are_asked_about_with_the_reason(page, tmp_path: Path) -> None:
    cam = tmp_path / "cam"
    _felt_photo(cam)
    with Server("--demo", "--game", "espri", "--camera", f"folder:{cam}", "--data", str(tmp_path / "data")) as srv:
        page.goto(srv.base + "/")
        page.wait_for_selector('[data-test="live"][data-state="live"]')
        login(page, srv.pin)
        page.click('[data-test="demo-roll"]')
        page.wait_for_selector('[data-test="photo"] img', timeout=30000)
        status = page.inner_text('[data-test="read-status"]')
        assert "Couleurs illisibles : rien de blanc en vue" in status and "carte blanche" in status
        unknown = page.locator('[data-test="die-box"][data-kind="gem"][data-status="pending"]')
        assert unknown.count() >= 5
        assert all(t.strip() == "?" for t in unknown.all_inner_texts())
        assert page.locator('[data-test="die-box"][data-status="read"]').count() == 0  # nothing guessed
        box = unknown.first
        idx = box.get_attribute("data-index")
        box.dispatch_event("click")  # this very box: those of touching gems overlap
        page.wait_for_selector('[data-test="face-picker"]')
        assert "De quelle couleur est cette gemme" in page.inner_text('[data-test="face-picker"]')
        page.click('[data-test="face-picker"] [data-test="face-hiver"]')
        page.wait_for_selector(f'[data-test="die-box"][data-index="{idx}"][data-status="corrected"]')
        assert not page.js_errors
