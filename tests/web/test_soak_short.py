"""The short CI variant of benchmarks/soak_tablets.py: a few tablets, a few seconds, a
camera roll every quarter second; no client error and no missed event on any tablet.
(The memory bar needs the ten-minute run: a few seconds only show the warm-up.)"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("cv2")

ROOT = Path(__file__).resolve().parents[2]


def test_short_soak_no_error_no_missed_event() -> None:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("soak_tablets", ROOT / "benchmarks" / "soak_tablets.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    r = mod.soak(tablets=4, seconds=3.0, interval=0.25, frames_n=2, warmup_rolls=2, quiet=True)
    assert r["rolls"] >= 5
    assert r["errors"] == []
    assert r["tablets_missing_events"] == 0
    assert r["roll_errors"] == 0
    assert r["events"] >= 2 * r["rolls"]  # a test and a camera roll each time, seen by every tablet
