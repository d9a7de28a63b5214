"""Exact odds of an Appel, checked against a brute-force enumeration of ordered draws of
distinct gems (small pools), against icepool's Deck, and through the command line."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from companion.games.espri.odds import OddsError, appel_odds, compositions, odds_by_n

ROOT = Path(__file__).resolve().parents[4]
GEMS = ("printemps", "ete", "automne", "hiver", "temps", "rupture")
SEASONS = ("hiver", "printemps", "ete", "automne")
RESULTS = ("critical_failure", "failure", "bitter_success", "success", "critical_success")


# An independent reading of R17-R19 and table 1.2 (default options), for the brute force.
def _base(gem: str, called: str) -> int:
    d = (SEASONS.index(gem) - SEASONS.index(called)) % 4
    return {0: 3, 1: 2, 3: 2, 2: 1}[d]


def _brute_result(draw: tuple[str, ...], called: str, chooser: str) -> int:
    seasons = {g for g in draw if g in SEASONS}
    mods = {g for g in draw if g in ("temps", "rupture")}
    options: list[int] = []
    if seasons:
        for s in seasons:
            b = _base(s, called)
            options.append(b)
            if mods:
                options += [min(4, b + 1), max(0, b - 1)]
    else:
        if "temps" in mods:
            options.append(2)
        if "rupture" in mods:
            options += [1, 3]
    return max(options) if chooser == "leader" else min(options)


def _objects(pool: dict[str, int]) -> list[str]:
    return [g for g in GEMS for _ in range(pool.get(g, 0))]


def _brute(pool: dict[str, int], called: str, n: int) -> dict[str, Fraction]:
    objs = _objects(pool)
    k = min(abs(n) if abs(n) >= 2 else 1, len(objs))
    chooser = "gm" if n <= -2 else "leader"
    counts = [0] * 5
    total = 0
    for draw in itertools.permutations(range(len(objs)), k):
        counts[_brute_result(tuple(objs[i] for i in draw), called, chooser)] += 1
        total += 1
    return {RESULTS[i]: Fraction(c, total) for i, c in enumerate(counts)}


def _brute_redraw(pool: dict[str, int], called: str, by: str, aside: bool) -> dict[str, Fraction]:
    objs = _objects(pool)
    counts = [Fraction(0)] * 5
    for i in range(len(objs)):
        first = _brute_result((objs[i],), called, "leader")
        redraw = first < 3 if by == "leader" else first > 1
        if not redraw:
            counts[first] += Fraction(1, len(objs))
            continue
        rest = [j for j in range(len(objs)) if not (aside and j == i)]
        for j in rest:
            counts[_brute_result((objs[j],), called, "leader")] += Fraction(1, len(objs) * len(rest))
    return {RESULTS[i]: c for i, c in enumerate(counts)}


def _exact(r: dict) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in r["exact"].items()}


SMALL_POOLS = [
    {"printemps": 2, "ete": 1, "automne": 1, "hiver": 2, "temps": 1, "rupture": 2},
    {"hiver": 1, "temps": 2, "rupture": 2, "ete": 2},
    {"printemps": 1, "ete": 1, "automne": 1, "hiver": 1, "temps": 1, "rupture": 1},
    {"temps": 3, "rupture": 2},
]


@pytest.mark.parametrize("pool", SMALL_POOLS)
@pytest.mark.parametrize("called", SEASONS)
@pytest.mark.parametrize("n", [-4, -3, -2, 0, 2, 3, 4])
def test_odds_match_brute_force_ordered_draws(pool: dict[str, int], called: str, n: int) -> None:
    counts = [pool.get(g, 0) for g in GEMS]
    got = appel_odds(counts, called, n)
    assert _exact(got) == _brute(pool, called, n)
    assert sum(got["results"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("pool", SMALL_POOLS[:3])
@pytest.mark.parametrize("n,by", [(1, "leader"), (-1, "gm")])
@pytest.mark.parametrize("aside", [False, True])
def test_single_gem_with_redraw_matches_brute_force(pool: dict[str, int], n: int, by: str, aside: bool) -> None:
    counts = [pool.get(g, 0) for g in GEMS]
    opts = {"redraw_first_gem": "aside" if aside else "pool"}
    got = appel_odds(counts, "hiver", n, opts)
    assert _exact(got) == _brute_redraw(pool, "hiver", by, aside)
    no = appel_odds(counts, "hiver", n, opts, redraw=False)
    assert _exact(no) == _brute(pool, "hiver", 0)


def test_against_icepool_deck() -> None:
    icepool = pytest.importorskip("icepool")
    full = {g: 12 for g in GEMS}
    for k in (2, 5):
        dist = icepool.Deck(full).deal(k).expand()
        want = [Fraction(0)] * 5
        for outcome, qty in dist.items():
            want[_brute_result(tuple(outcome), "ete", "leader")] += Fraction(qty, dist.denominator())
        got = appel_odds([12] * 6, "ete", k)
        assert _exact(got) == {RESULTS[i]: w for i, w in enumerate(want)}


def test_compositions_are_exhaustive() -> None:
    comps = list(compositions([12] * 6, 12))
    assert len(comps) == len(set(comps)) == 6188
    assert all(sum(c) == 12 for c in comps)
    assert list(compositions([1, 0, 2, 0, 0, 0], 2)) == [(0, 0, 2, 0, 0, 0), (1, 0, 1, 0, 0, 0)]


def test_automatic_and_edge_cases() -> None:
    full = [12] * 6
    assert appel_odds(full, "hiver", 13)["results"]["critical_success"] == 1.0
    assert appel_odds(full, "hiver", -13)["results"]["critical_failure"] == 1.0
    assert appel_odds(full, "hiver", 12)["draw"] == 12
    assert appel_odds(full, "hiver", -13)["n"] == 0
    assert (appel_odds(full, "hiver", -5)["N"], appel_odds(full, "hiver", -5)["n"]) == (-5, 5)
    small = appel_odds([1, 1, 0, 0, 0, 0], "hiver", 5)
    assert small["draw"] == 2 == small["n"]  # E9: the whole pool when it is smaller than the draw
    with pytest.raises(OddsError):
        appel_odds([0] * 6, "hiver", 2)
    # no Talent: one level lower, floored at Critical Failure
    base = _exact(appel_odds(full, "hiver", 3))
    low = _exact(appel_odds(full, "hiver", 3, talent=False))
    assert low["critical_success"] == 0
    assert low["success"] == base["critical_success"]
    assert low["critical_failure"] == base["critical_failure"] + base["failure"]


def test_prayer_helps_the_leader_and_is_forced_on_the_gm() -> None:
    full = [12] * 6
    plain = _exact(appel_odds(full, "hiver", 2))
    with_p = _exact(appel_odds(full, "hiver", 2, prayer="temps"))
    assert with_p["critical_success"] > plain["critical_success"]
    assert with_p["failure"] == 0
    gm = _exact(appel_odds(full, "hiver", -3, prayer="hiver"))
    gm_plain = _exact(appel_odds(full, "hiver", -3))
    assert gm["critical_failure"] == 0  # a Called gem placed alone gives Success at worst... or BS with T/R down
    assert gm["success"] + gm["bitter_success"] == 1
    assert gm_plain["critical_failure"] > 0


def test_options_change_the_odds() -> None:
    full = [12] * 6
    two = _exact(appel_odds(full, "hiver", 2, {"adjacent_modifier": "two_up_one_down"}))
    one = _exact(appel_odds(full, "hiver", 2))
    assert two["critical_success"] > one["critical_success"]
    fixed = _exact(appel_odds(full, "hiver", -2, {"fixed_criticals": True}))
    free = _exact(appel_odds(full, "hiver", -2))
    assert fixed != free


def test_by_n_covers_minus_12_to_12() -> None:
    rows = odds_by_n([12] * 6, "automne")
    assert [r["N"] for r in rows] == list(range(-12, 13))
    assert [r["n"] for r in rows] == [12 - i for i in range(11)] + [1, 1, 1] + list(range(2, 13))
    assert all(sum(r["results"].values()) == pytest.approx(1.0) for r in rows)
    # more gems for the leader never hurts its best result
    cs = [r["results"]["critical_success"] for r in rows if r["N"] >= 2]
    assert cs == sorted(cs)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "odds", "espri", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_cli_json() -> None:
    proc = _cli("--season", "hiver", "--score", "3", "--difficulty", "1",
                "--pool", "printemps=2,ete=1,automne=1,hiver=2,temps=1,rupture=2", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["n"] == 2 == data["draw"] == data["N"]
    assert set(data["results"]) == set(RESULTS)
    assert sum(data["results"].values()) == pytest.approx(1.0)
    want = _brute(SMALL_POOLS[0], "hiver", 2)
    assert {k: Fraction(v) for k, v in data["exact"].items()} == want


def test_cli_text_table_and_errors() -> None:
    proc = _cli("--season", "ete", "--score", "2", "--table")
    assert proc.returncode == 0 and len(proc.stdout.strip().splitlines()) == 26
    bad = _cli("--season", "ete", "--score", "2", "--pool", "emerald=3")
    assert bad.returncode == 1 and "gemme inconnue" in bad.stderr  # the CLI speaks its --lang (fr)
    empty = _cli("--season", "ete", "--score", "2", "--pool", "hiver=0")
    assert empty.returncode == 1 and "pool is empty" in empty.stderr


def test_cli_imports_neither_opencv_nor_flask() -> None:
    code = (
        "import sys, runpy\n"
        "sys.argv = ['companion', 'odds', 'espri', '--season', 'hiver', '--score', '12', '--json']\n"
        "try:\n"
        "    runpy.run_module('companion', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "bad = [m for m in ('cv2', 'flask') if m in sys.modules]\n"
        "print('HEAVY', bad, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in proc.stderr, proc.stderr
    assert json.loads(proc.stdout)["draw"] == 12
