"""``companion odds GAME`` imports that game's odds only; ``companion import`` stores a
checked log. Seen from outside, as a user runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT, env, run_cli

ODDS = {
    "shayo": ["--attribute", "4", "--skill", "2", "--difficulty", "6"],
    "wuxia": ["-a", "5", "-c", "2"],
    "peripeties": ["--die", "12", "--modifier", "6", "--difficulty", "15"],
    "espri": ["--season", "hiver", "--score", "3", "--difficulty", "1"],
}


@pytest.mark.parametrize("game", sorted(ODDS))
def test_odds_imports_only_that_games_odds_and_no_server_code(game):
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "companion", "odds", game, *ODDS[game]],
                          cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip()
    modules = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", proc.stderr, re.M))
    assert f"companion.games.{game}" in modules  # the parse found the import lines
    others = {g for g in ODDS if g != game}
    # helpers every game uses, not a game
    shared = {"companion.games.base", "companion.games.refusal", "companion.games.options"}
    loaded_games = {m.split(".")[2] for m in modules if m.startswith("companion.games.") and m not in shared}
    assert loaded_games == {game}, loaded_games & others
    heavy = {m for m in modules if m.split(".")[0] in {"flask", "werkzeug", "waitress", "cv2", "numpy", "serial", "sqlite3"}}
    server = {m for m in modules if m in {"companion.app.serve", "companion.service", "companion.table", "companion.log",
                                          "companion.snapshots", "companion.roll", "web"}}
    rules = {m for m in modules if m.startswith(f"companion.games.{game}.") and m.rsplit(".", 1)[1] == "game"}
    assert not heavy and not server and not rules, (heavy, server, rules)


def test_import_reports_refused_lines_and_the_server_serves_the_rest(tmp_path):
    log = tmp_path / "session.jsonl"
    log.write_text(
        '{"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 10}}}\n'
        '# a comment\n'
        '{"type": "dummy.add", "data": {"n": 6}}\n'
        '{"type": "dummy.add", "data": {"n": 6}}\n'
        '{"type": "dummy.add", "data": {"n": 3}}\n'
        '{"type": "dummy.add", "data": "x"}\n'
        '{"type": "undo", "data": {"seq": 4}}\n', encoding="utf-8")
    proc = run_cli("import", str(log), "--data", str(tmp_path / "table"), check=False)
    assert proc.returncode == 1
    refused = [line for line in proc.stderr.splitlines() if line.startswith("refused:")]
    assert refused[0].startswith("refused: line 4:") and "may not pass 10" in refused[0]
    assert refused[1].startswith("refused: ligne 6\u202f:") and " / line 6: " in refused[1]  # both languages
    assert len(refused) == 2
    assert "4 events imported" in proc.stdout
    state = json.loads(run_cli("replay", str(tmp_path / "table" / "table.sqlite"), "--json").stdout)
    # The file's numbering is kept (the refused third event leaves a gap at seq 3), so the
    # undo names the "+3" event by its number in the file, 4.
    assert state["state"]["total"] == 6 and [h["seq"] for h in state["history"]] == [1, 2]
    missing = run_cli("import", str(tmp_path / "nope.jsonl"), "--data", str(tmp_path / "t2"), check=False)
    assert missing.returncode == 1 and "no such file" in missing.stderr
