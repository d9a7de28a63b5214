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
