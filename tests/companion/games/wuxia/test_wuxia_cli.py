"""``companion odds wuxia`` in a subprocess: output, errors, and no heavy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "odds", "wuxia", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_json_reading_example() -> None:
    p = run("--attribute", "5", "--competence", "2", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert abs(out["success"] - 0.79488) < 1e-12 and abs(out["critical_failure"] - 0.12736) < 1e-12
    assert out["threshold"] == 8 and out["exact"]["success"] == "2484/3125"
    assert set(out["successes"]) == {str(k) for k in range(6)}
    assert abs(sum(out["successes"].values()) - 1) < 1e-12


def test_rerolls_and_text_output() -> None:
    p = run("-a", "5", "-c", "5", "--sr", "12", "--rerolls", "2", "--json")
    assert json.loads(p.stdout)["success"] > json.loads(run("-a", "5", "-c", "5", "--sr", "12", "--json").stdout)["success"]
    p = run("-a", "5", "-c", "2", "--lang", "en")
    assert p.returncode == 0 and "79.488%" in p.stdout and "critical failure" in p.stdout
    p = run("-a", "5", "-c", "2")
    assert "79,488\u202f%" in p.stdout and "échec critique" in p.stdout


def test_table() -> None:
    p = run("--table")
    assert p.returncode == 0
    assert "91,2" in p.stdout and "35,3" in p.stdout  # exact half-up rounding (spec section 3), decimal comma
    assert "91.2" in run("--table", "--lang", "en").stdout
    out = json.loads(run("--table", "--json", "--max-attribute", "20").stdout)
    assert out["attributes"][-1] == 20 and abs(out["success"]["8"]["5"] - 0.79488) < 1e-12


def test_errors_are_clear() -> None:
    for args in (["--sr", "20", "-a", "3"], ["-a", "-2"], []):
        p = run(*args)
        assert p.returncode == 2 and "error" in p.stderr


def test_no_opencv_no_flask() -> None:
    code = (
        "import sys, io, contextlib\n"
        "from companion.app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(['odds', 'wuxia', '--attribute', '5', '--competence', '2', '--json'])\n"
        "heavy = [m for m in ('cv2', 'flask') if m in sys.modules]\n"
        "print(rc, heavy)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "0 []", p.stdout + p.stderr


def test_attack_odds() -> None:
    p = run("-a", "5", "-c", "3", "--versus", "4", "--versus-competence", "2", "--defence-dice", "1", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["attack"]["threshold"] == 7 and out["defence"]["threshold"] == 8
    assert abs(out["attacker_wins"] + out["defender_holds"] - 1) < 1e-12
    assert abs(sum(out["extra_successes"].values()) - out["attacker_wins"]) < 1e-12
    assert "attacker hits" in run("-a", "5", "--versus", "4", "--lang", "en").stdout
