"""A short soak on every CI run: random unplugs, hangs, reboots and line noise for ~12 s."""

from __future__ import annotations

import os

from firmware_bridge.soak import run_soak


def test_soak() -> None:
    seconds = float(os.environ.get("COMPANION_SOAK_SECONDS", "10"))
    report = run_soak(seconds, seed=20261130)
    assert report.thread_errors == []
    assert report.lost == [], report
    assert report.duplicates == [], report
    assert report.final_burst_ok and report.link_alive, report
    assert report.events_acked >= 20 and report.connects >= 2, report
    assert sum(report.actions.values()) >= 20
