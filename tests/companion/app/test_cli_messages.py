"""The command line as a player meets it: nonsense refused with a clear message, French
by default, no traceback when the output is cut short (``--json | head``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
NNBSP = "\u202f"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args", [
    ["odds", "espri", "--season", "ete", "--score", "2", "--table"],
    ["odds", "espri", "--season", "ete", "--score", "2", "--table", "--json"],
    ["odds", "wuxia", "--table", "--json"],
    ["odds", "wuxia", "-a", "5", "-c", "2"],
    ["odds", "shayo", "--attribute", "4", "--skill", "2", "--difficulty", "6", "--json"],
    ["odds", "peripeties", "--die", "10", "--difficulty", "12"],
    ["replay", "examples/wuxia-session.jsonl", "--json"],
    ["replay", "examples/peripeties-demo.jsonl"],
    ["tray", "frame", "LIGHT", "200"],
    ["--help"],
])
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """The reader is gone before the first byte: every write fails, as with ``| head``."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120, stdin=subprocess.DEVNULL)
    finally:
        os.close(write_end)
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 141), proc.stderr


def test_shayo_keeping_more_than_rolled_says_so_and_ratings_are_checked() -> None:
    p = run("odds", "shayo", "--attribute", "3", "--skill", "5", "--difficulty", "6")
    assert p.returncode == 0, p.stderr
    assert "3d10, garder 3" in p.stdout and "on les garde tous, A5" in p.stdout
    assert f"%" in p.stdout and f"{NNBSP}%" in p.stdout and "." not in p.stdout.split("Réussite")[1].split("\n")[0]
    for bad in (["--attribute", "7", "--skill", "2"], ["--attribute", "3", "--skill", "-1"],
                ["--attribute", "3", "--skill", "2", "--ki-rolled", "-2"]):
        p = run("odds", "shayo", *bad, "--difficulty", "6")
        assert p.returncode == 1 and "Traceback" not in p.stderr and ("0 à 5" in p.stderr or "négatif" in p.stderr)


def test_wuxia_refuses_no_dice_and_explains_falling_odds() -> None:
    p = run("odds", "wuxia", "-a", "0")
    assert p.returncode == 2 and "at least 1 (R1)" in p.stderr
    low = run("odds", "wuxia", "-a", "3", "-c", "9")  # threshold 1: 2 dice do better than 3
    assert low.returncode == 0 and "avec un dé de moins (2 d10)" in low.stdout and "(R7)" in low.stdout
    assert "one die fewer" in run("odds", "wuxia", "-a", "3", "-c", "9", "--lang", "en").stdout
    plain = run("odds", "wuxia", "-a", "5", "-c", "2")  # threshold 8: more dice help
    assert "Note" not in plain.stdout
    assert "un dé de plus peut faire baisser" in run("odds", "wuxia", "--table").stdout


def test_espri_odds_speak_french_by_default() -> None:
    fr = run("odds", "espri", "--season", "hiver", "--score", "3", "--difficulty", "1", "--table")
    head = fr.stdout.splitlines()[0]
    assert "Échec critique" in head and "Réussite amère" in head and " CF " not in head
    assert f",0{NNBSP}%" in fr.stdout or f"{NNBSP}%" in fr.stdout
    one = run("odds", "espri", "--season", "hiver", "--score", "3")
    assert "tirer 3 gemme(s), le leader choisit" in one.stdout and "au moins une gemme Hiver" in one.stdout
    en = run("odds", "espri", "--season", "hiver", "--score", "3", "--lang", "en")
    assert "Critical success" in en.stdout and "at least one Winter gem" in en.stdout and NNBSP not in en.stdout


def test_replay_prints_words_not_keys() -> None:
    p = run("replay", "companion/data/demo/peripeties.jsonl")
    assert p.returncode == 0, p.stderr
    assert "difficulty=" not in p.stdout and "difficulty_kind" not in p.stdout and "lieu=" not in p.stdout
    assert "difficulté : 9 + 8 = 17 (2D10)" in p.stdout and f"75{NNBSP}%" in p.stdout
    w = run("replay", "companion/data/demo/wuxia.jsonl")
    assert "type ?" not in w.stdout and "Wei le Rouge :" in w.stdout and "Métal 5" in w.stdout
    e = run("replay", "companion/data/demo/espri.jsonl")
    assert "Dernier Appel : Hiver, Déva" in e.stdout and "Attendu : un Appel" in e.stdout


def test_tray_emulate_creates_a_missing_folder_and_refuses_a_file(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "tray-dir"
    p = run("tray", "emulate", "--dir", str(folder), "--duration", "0.2")
    assert p.returncode == 0, p.stderr
    assert folder.is_dir() and "créé" in p.stderr and p.stdout.strip().startswith(str(folder))
    afile = tmp_path / "afile"
    afile.write_text("x")
    p = run("tray", "emulate", "--dir", str(afile), "--duration", "0.2")
    assert p.returncode == 1 and "not a folder" in p.stderr and "Traceback" not in p.stderr


def test_peripeties_and_espri_odds_refuse_impossible_numbers() -> None:
    p = run("odds", "peripeties", "--die", "10", "--difficulty", "40")
    assert p.returncode == 1 and "2D10 (2 à 20)" in p.stderr and "Traceback" not in p.stderr
    p = run("odds", "espri", "--season", "ete", "--score", "-3")
    assert p.returncode == 1 and "0 ou plus" in p.stderr
