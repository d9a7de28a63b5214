"""Shared test configuration.

Tests run against the source tree (the repository root is put first on ``sys.path``),
so ``python -m pytest`` works from a checkout with or without ``pip install``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Deterministic hypothesis runs on CI; fewer examples keep the suite fast on 2 cores.
try:
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "ci", max_examples=60, deadline=None, derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.register_profile("dev", max_examples=100, deadline=None)
    settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))
except ImportError:  # pragma: no cover
    pass


import pytest  # noqa: E402


@pytest.fixture(autouse=True, scope="session")
def _dummy_game() -> None:
    """Register the tiny test game (tests/companion/dummy_game.py) for every test."""
    from companion.games import register_game

    register_game("dummy", "tests.companion.dummy_game:GAME")


# -- the browser, shared by every browser test (one playwright per process) ---------
CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by playwright, headless. Never ``playwright install``:
    there is no internet. Skipped cleanly when chromium or playwright is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        # The page's Content-Security-Policy forbids eval, which playwright's
        # wait_for_function(string) uses: contexts bypass the CSP unless a test asks
        # for it (bypass_csp=False; tests/browser/test_retry.py checks the page under it).
        new_context = b.new_context

        def _new_context(**kw):
            kw.setdefault("bypass_csp", True)
            return new_context(**kw)

        b.new_context = _new_context
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    context.close()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under CI the shared photos must be there: the vision tests that need them fail
    rather than skip (a green run must have read the real photos)."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        from vision.labelled import shared_photos_dir

        if shared_photos_dir() is None:
            raise pytest.UsageError("CI is set but ../shared/data/tray-dice-photos (or $COMPANION_SHARED) is "
                                    "missing: the vision tests on real photos cannot run")
