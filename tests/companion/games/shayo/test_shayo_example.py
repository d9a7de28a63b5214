"""The example log replays as documented (the same path as ``companion replay``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.log import read_jsonl
from companion.table import Table

ROOT = Path(__file__).resolve().parents[4]
LOG = ROOT / "examples" / "shayo-session.jsonl"


def test_example_session_replays_strictly() -> None:
    with LOG.open(encoding="utf-8") as fh:
        table = Table().replay(read_jsonl(fh), strict=True)
    state = table.to_json()["state"]
    chars = {c["name"]: c for c in state["characters"]}
    # Aiko paid 2 Ki for her dice; Ren took 4 + 1 - 2 = 3 boxes from the duel.
    assert chars["Aiko"]["ki"]["personal_left"] == 4
    assert chars["Ren"]["damage"] == 3
    # Hiro surpassed himself: 7 personal + 9 group + 2 health boxes.
    assert chars["Hiro"]["damage"] == 2 and state["group_pool"]["left"] == 0
    (katana,) = state["objects"]
    assert katana["quality"] == "normal"  # superior, one period without success
    assert katana["improvements"] == [{"improvement": "solidite", "duration": "combat"}]
    # the camera's 6 corrected to 9, then the signature re-rolled the 3 into a 7
    hist = table.history()
    fix = next(h for h in hist if h["type"] == "shayo.correct")
    assert fix["outcomes"][0]["data"]["after"] == [8, 3, 1, 9, 2]
    sig = next(h for h in hist if h["type"] == "shayo.signature")
    success = next(o for o in sig["outcomes"] if o["kind"] == "test.success")
    assert success["data"]["net"] == 2 and success["data"]["ones"] == 1
    assert state["expects"]["step"] == "idle"


def test_example_replays_from_the_command_line() -> None:
    res = subprocess.run([sys.executable, "-m", "companion", "replay", str(LOG), "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["game"] == "shayo"
