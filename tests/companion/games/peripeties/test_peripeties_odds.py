"""Exact trial odds (spec 7): against a brute-force count, against icepool, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.peripeties.odds import needed_roll, success_probability

ROOT = Path(__file__).resolve().parents[4]


def brute(die: int, m: int, d: int, naturals: bool = True) -> Fraction:
    wins = 0
    for r in range(1, die + 1):
        if naturals and r == die:
            wins += 1
        elif naturals and r == 1:
            pass
        elif r + m >= d:
            wins += 1
    return Fraction(wins, die)


@given(st.sampled_from([10, 12]), st.integers(-30, 40), st.integers(-5, 40), st.booleans())
def test_against_brute_force(die: int, m: int, d: int, naturals: bool) -> None:
    assert success_probability(die, m, d, naturals) == brute(die, m, d, naturals)


@pytest.mark.parametrize("die", [10, 12])
@pytest.mark.parametrize("m", [-3, 0, 6, 11])
@pytest.mark.parametrize("d", [2, 8, 15, 20])
def test_against_icepool(die: int, m: int, d: int) -> None:
    icepool = pytest.importorskip("icepool")
    x = icepool.d(die).map(lambda r: r == die or (r != 1 and r + m >= d))
    assert success_probability(die, m, d) == x.probability(True)


def test_spec_formula_examples() -> None:
    assert success_probability(10, 6, 15) == Fraction(2, 10)  # 9 or 10
    assert success_probability(10, 100, 2) == Fraction(9, 10)  # natural 1 always fails
    assert success_probability(12, -100, 20) == Fraction(1, 12)  # natural 12 always succeeds
    assert needed_roll(10, 6, 15) == 9 and needed_roll(12, -100, 20) == 12


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_cli_json_and_text() -> None:
    p = run("odds", "peripeties", "--die", "10", "--modifier", "6", "--difficulty", "15", "--json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    assert rep["exact"] == "1/5" and rep["needed"] == 9 and len(rep["rolls"]) == 10
    p = run("odds", "peripeties", "--die", "12", "--modifier", "0", "--difficulty", "8", "--lang", "en")
    assert p.returncode == 0 and "5/12" in p.stdout and "roll 8 or more" in p.stdout
    p = run("odds", "peripeties", "--die", "8", "--difficulty", "8")
    assert p.returncode != 0


def test_cli_imports_nothing_heavy() -> None:
    code = (
        "import sys; from companion.app.cli import main; "
        "main(['odds', 'peripeties', '--die', '10', '--difficulty', '9', '--json']); "
        "bad = [m for m in ('cv2', 'flask', 'numpy', 'serial') if m in sys.modules]; "
        "print('HEAVY', bad)"
    )
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in p.stdout, p.stdout + p.stderr
