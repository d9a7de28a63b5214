"""``companion odds shayo`` as a user runs it (a subprocess from the repo root)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from companion.games.shayo.odds import PoolSpec, net_distribution, success_probability

ROOT = Path(__file__).resolve().parents[4]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "odds", "shayo", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_json_output_is_the_exact_distribution() -> None:
    res = _run("--attribute", "4", "--skill", "2", "--difficulty", "6", "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    spec = PoolSpec(4, 2, 6)
    assert out["success"] == float(success_probability(spec))
    assert {int(k): Fraction(v) for k, v in out["net_successes_exact"].items()} == net_distribution(spec)
    assert abs(sum(out["net_successes"].values()) - 1) < 1e-12


def test_table_output_and_options() -> None:
    res = _run("--attribute", "5", "--skill", "3", "--difficulty", "7", "--ki-kept", "1",
               "--signature", "relance_1", "--lang", "en")
    assert res.returncode == 0, res.stderr
    assert "5d10, keep 4" in res.stdout and "relance_1" in res.stdout and "Success" in res.stdout


def test_bad_input_is_a_clear_error() -> None:
    res = _run("--attribute", "3", "--skill", "2", "--difficulty", "1")
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "jet impossible\u202f: la difficulté vaut au moins 2" in res.stderr and "must" not in res.stderr
    res = _run("--attribute", "3", "--skill", "2", "--difficulty", "1", "--lang", "en")
    assert res.returncode == 1 and "impossible roll: the difficulty must be at least 2" in res.stderr
    res = _run("--attribute", "3", "--skill", "2", "--difficulty", "6", "--signature", "fly")
    assert res.returncode == 1 and "signature inconnue" in res.stderr  # the CLI speaks its --lang (fr)


def test_odds_never_imports_opencv_or_flask() -> None:
    code = (
        "import sys, io, contextlib\n"
        "from companion.app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(['odds', 'shayo', '--attribute', '4', '--skill', '2', '--difficulty', '6', '--json'])\n"
        "bad = [m for m in ('cv2', 'flask', 'numpy', 'serial') if m in sys.modules]\n"
        "print(rc, bad)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == "0 []", res.stderr
