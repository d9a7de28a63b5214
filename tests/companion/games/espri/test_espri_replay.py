"""The example logs in ``examples/espri-*.jsonl`` replay the spec's worked examples through
``python -m companion replay FILE --json`` (the same fold the server uses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[4]
EXAMPLES = ROOT / "examples"


def replay(name: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "companion", "replay", str(EXAMPLES / name), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game"] == "espri" and out["skipped"] == []
    return out["state"]


def board(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {q["season"]: q for q in state["board"]}


def test_every_example_is_checked() -> None:
    names = {p.name for p in EXAMPLES.glob("espri-*.jsonl")}
    assert names == set(CHECKS)


def _annick(s: dict[str, Any]) -> None:  # E-T1
    b = board(s)
    assert {k: v["weather"] for k, v in b.items()} == {"automne": 2, "ete": 1, "hiver": 1, "printemps": 1}
    assert b["automne"]["cells"][:3] == ["rupture", "temps", "rupture"]
    assert s["census"] == {"pool": 63, "board": 7, "prayers": 2, "hand": 0}
    assert sorted(s["characters"][0]["prayers"]) == ["hiver", "printemps"]


def _deva(s: dict[str, Any]) -> None:  # E-T2
    b = board(s)
    assert s["last_appel"]["result"] == "success"
    assert b["hiver"]["nymph"] == 2 and b["hiver"]["weather"] == 1
    assert b["hiver"]["cells"][:3] == ["hiver", "rupture", "temps"] and b["printemps"]["cells"][0] == "printemps"
    assert s["pool_total"] == 72 - 2 - 2


def _ceres(s: dict[str, Any]) -> None:  # E-T4
    assert s["last_appel"]["N"] == 3
    ceres = s["characters"][1]
    assert ceres["resonance"] == [{"with": "deva", "current": 1, "max": 1, "nature": "Tendresse"}]
    # Success: the one gem left (Été) is placed as the extra gem (min(3, 1) = 1)
    assert board(s)["ete"]["cells"][0] == "ete" and s["pool"]["ete"] == 11


def _failure(s: dict[str, Any]) -> None:  # E-T8
    b = board(s)
    assert [r["cell"] for r in s["last_appel"]["removals"]] == [5, 4, 3]
    assert b["hiver"]["nymph"] == 2 and b["hiver"]["weather"] == 1
    assert b["ete"]["cells"][0] == "ete"


def _critical(s: dict[str, Any]) -> None:  # E-T9
    b = board(s)
    assert [r["cell"] for r in s["last_appel"]["removals"]] == [6, 5, 4]
    assert b["hiver"]["nymph"] == 3 and b["ete"]["nymph"] == 0 and b["hiver"]["weather"] == 1
    assert sorted(s["characters"][0]["prayers"]) == ["ete", "temps"]


def _temptation(s: dict[str, Any]) -> None:  # E-T11
    assert s["appel"]["N"] == 5 and s["appel"]["difficulty"] == 2
    assert s["expects"]["step"] == "draw" and s["expects"]["gems"] == 5
    ivy = s["characters"][0]
    assert ivy["rupture"] == 1 and "rupture" in ivy["prayers"] and len(ivy["prayers"]) == 2
    assert board(s)["hiver"]["weather"] == 0


CHECKS = {
    "espri-annick-setup.jsonl": _annick,
    "espri-deva-appel.jsonl": _deva,
    "espri-ceres-resonance.jsonl": _ceres,
    "espri-failure-removal.jsonl": _failure,
    "espri-critical-failure.jsonl": _critical,
    "espri-temptation.jsonl": _temptation,
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_example_replays(name: str) -> None:
    CHECKS[name](replay(name))
