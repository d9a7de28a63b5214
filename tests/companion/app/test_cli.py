from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers import ROOT, env, run_cli


def test_replay_prints_state_as_json(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(
        '# a small game\n'
        '{"type": "table.new_game", "data": {"game": "dummy"}}\n'
        '{"type": "dummy.add", "data": {"n": 3}}\n'
        '{"type": "dummy.add", "data": {"n": 4}}\n'
        '{"type": "undo"}\n'
    )
    out = json.loads(run_cli("replay", str(log), "--json").stdout)
    assert out["game"] == "dummy"
    assert out["state"]["total"] == 3
    assert [h["seq"] for h in out["history"]] == [1, 2]
    assert run_cli("replay", str(log)).stdout.strip() == "total 3"


def test_replay_refuses_a_bad_log_with_the_line(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "table.new_game", "data": {"game": "dummy"}}\n{"type": "dummy.add", "data": {"n": 9}}\n')
    proc = run_cli("replay", str(log), check=False)
    assert proc.returncode == 1
    assert "événement n°\u00a02\u202f:" in proc.stderr and "die face" in proc.stderr  # French by default
    english = run_cli("replay", str(log), "--lang", "en", check=False)
    assert english.returncode == 1
    assert english.stderr.startswith("companion: error: event 2: ") and "événement" not in english.stderr
    lenient = run_cli("replay", str(log), "--json", "--lenient")
    assert json.loads(lenient.stdout)["skipped"][0]["event"]["seq"] == 2
    missing = run_cli("replay", str(tmp_path / "nope.jsonl"), check=False)
    assert missing.returncode == 1 and "no such file" in missing.stderr


def test_export_sqlite_log_to_jsonl_and_replay_it(tmp_path):
    from companion.service import TableService

    s = TableService(tmp_path / "table.sqlite")
    s.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    s.submit({"type": "dummy.add", "data": {"n": 6}})
    s.close()
    out = tmp_path / "out.jsonl"
    run_cli("export", str(tmp_path / "table.sqlite"), "--out", str(out))
    assert len(out.read_text().splitlines()) == 2
    assert json.loads(run_cli("replay", str(out), "--json").stdout)["state"]["total"] == 6


def test_fast_commands_do_not_import_opencv_or_flask():
    code = (
        "import sys; from companion.app.cli import main; import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: main(['--help'])\n"
        "    except SystemExit: pass\n"
        "bad = [m for m in ('cv2', 'flask', 'serial', 'numpy') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""
