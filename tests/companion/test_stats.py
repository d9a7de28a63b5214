"""Dice statistics: the χ² p-value against a printed table, the fit's words, and which
faces the table log says each die showed (corrections amend, undone rolls are out)."""

from __future__ import annotations

import doctest
import math
import random

import pytest

import companion.dicelabels
import companion.dicestats
import companion.journal
import companion.stats
import companion.statsvg
from companion.dicestats import die_rolls, die_stats, face_probabilities
from companion.events import Event, Source
from companion.roll.demo import demo_events
from companion.stats import chi2_sf, goodness_of_fit, regularized_gamma_q, uniform, verdict
from companion.table import Table


@pytest.mark.parametrize("module", [companion.stats, companion.dicestats, companion.journal, companion.dicelabels,
                                    companion.statsvg])
def test_doctests(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


# Critical values of χ² as printed in statistics tables (NIST/SEMATECH e-Handbook,
# "Critical values of the chi-square distribution"): P(χ²_dof ≥ x) = p.
TABLE = [(1, 3.841, 0.05), (2, 5.991, 0.05), (3, 7.815, 0.05), (5, 11.070, 0.05), (9, 16.919, 0.05),
         (11, 19.675, 0.05), (20, 31.410, 0.05), (1, 6.635, 0.01), (5, 15.086, 0.01), (9, 21.666, 0.01),
         (11, 24.725, 0.01), (1, 10.828, 0.001), (9, 27.877, 0.001), (30, 43.773, 0.05), (100, 124.342, 0.05)]


@pytest.mark.parametrize("dof,x,p", TABLE)
def test_chi2_p_value_matches_the_printed_table(dof, x, p) -> None:
    # the table's x is rounded to 3 decimals: compare within what that rounding allows
    lo, hi = chi2_sf(x + 0.0005, dof), chi2_sf(x - 0.0005, dof)
    assert lo <= p <= hi, (dof, x, lo, p, hi)


def _q_by_integration(a: float, x: float) -> float:
    # Γ(a, x) / Γ(a) by Simpson's rule on [x, x + 60] (the tail beyond is negligible here)
    n, hi = 20000, x + 60.0
    h = (hi - x) / n
    f = lambda t: t ** (a - 1) * math.exp(-t)  # noqa: E731
    s = f(x) + f(hi) + sum((4 if i % 2 else 2) * f(x + i * h) for i in range(1, n))
    return s * h / 3 / math.gamma(a)


@pytest.mark.parametrize("a,x", [(0.5, 0.3), (2.5, 1.0), (4.5, 9.0), (1.0, 0.2), (5.0, 2.0), (3.0, 12.0)])
def test_incomplete_gamma_against_numerical_integration(a, x) -> None:
    assert regularized_gamma_q(a, x) == pytest.approx(_q_by_integration(a, x), abs=1e-8)


def test_a_fair_die_passes_and_a_loaded_one_is_named() -> None:
    rng = random.Random(2026)
    fair = [rng.randint(1, 6) for _ in range(600)]
    fit = goodness_of_fit({f: fair.count(f) for f in range(1, 7)}, uniform(range(1, 7)))
    assert fit.enough and fit.p > 0.01
    assert verdict(fit) == {"level": "ok", "fr": "rien d'anormal après 600 jets", "en": "nothing unusual after 600 rolls"}
    loaded = [rng.choices(range(1, 7), weights=[2, 1, 1, 1, 1, 1])[0] for _ in range(600)]
    fit = goodness_of_fit({f: loaded.count(f) for f in range(1, 7)}, uniform(range(1, 7)))
    v = verdict(fit)
    assert fit.high == 1 and v["level"] == "odd" and v["fr"].startswith("ce dé sort trop souvent 1 : p ")
    # French numbers: decimal comma
    mid = goodness_of_fit({1: 20, 2: 6, 3: 7, 4: 7}, uniform([1, 2, 3, 4]))
    assert 0.001 < mid.p < 0.01
    assert verdict(mid)["fr"] == f"ce dé sort trop souvent 1 : p = {mid.p:.3f}".replace(".", ",")


def test_too_few_rolls_are_said_so_with_how_many_are_needed() -> None:
    fit = goodness_of_fit({"combat": 4, "esprit": 2, "magie": 0}, face_probabilities("epreuve"))
    assert not fit.enough and fit.needed == 30  # 5 expected on the one magic face in six
    assert verdict(fit)["fr"] == "trop peu de jets pour juger : 6 jets, il en faut au moins 30"


def test_every_die_has_chances_that_sum_to_one() -> None:
    for kind in ("d4", "d6", "d10", "d12", "lieu", "adversaire", "epreuve", "recompense", "sentence"):
        probs = face_probabilities(kind)
        assert probs and math.isclose(sum(probs.values()), 1.0)
    assert face_probabilities("recompense")["banquet"] == pytest.approx(2 / 6)
    assert face_probabilities("gem") is None  # drawn from a bag: no fixed chances


def _frames(events):
    table = Table()
    for i, ev in enumerate(events, 1):
        table.apply(ev.with_seq(i) if ev.seq is None else ev)
    return [(f.event, f.outcomes) for f in table.frames]


def _demo(game):
    from companion.events import parse_event

    return [parse_event(e) for e in demo_events(game)]


def test_a_camera_misread_corrected_counts_as_its_true_face_and_is_listed() -> None:
    evs = _demo("shayo") + [Event("shayo.roll", {"dice": [8, 3, 1, 6, 2]}, Source.CAMERA),
                            Event("shayo.correct", {"index": 3, "value": 9}, Source.CORRECTION)]
    rolls = die_rolls(_frames(evs))
    assert [(r.face, r.how, r.read_as) for r in rolls] == [
        (8, "lu", None), (3, "lu", None), (1, "lu", None), (9, "corrigé", 6), (2, "lu", None)]
    (d10,) = die_stats(rolls)
    assert d10.die == "d10" and d10.counts["camera"][9] == 1 and d10.counts["camera"][6] == 0
    assert d10.counts["hand"] == {f: 0 for f in range(1, 11)}
    assert d10.misreads == {9: {6: 1}}


def test_undone_rolls_do_not_count_and_hand_entries_count_apart() -> None:
    evs = _demo("wuxia") + [Event("wuxia.roll", {"dice": [1, 9, 3, 7, 4]}, Source.CAMERA), Event("undo"),
                            Event("wuxia.roll", {"dice": [2, 2, 5, 5, 10]})]
    (d10,) = die_stats(die_rolls(_frames(evs)))
    assert sum(d10.counts["camera"].values()) == 0
    assert d10.counts["hand"][2] == 2 and d10.counts["all"][2] == 2 and sum(d10.counts["all"].values()) == 5


def test_a_peripeties_correction_amends_only_the_die_it_changes() -> None:
    evs = _demo("peripeties")
    episode = [{"kind": "lieu", "value": "foret"}, {"kind": "adversaire", "value": "bandits"},
               {"kind": "epreuve", "value": "combat"}, {"kind": "recompense", "value": "frere"},
               {"kind": "sentence", "value": "blessure"}, {"kind": "d10", "value": 5}, {"kind": "d10", "value": 6}]
    fixed = [dict(d) for d in episode]
    fixed[0]["value"] = "ville"
    evs += [Event("peripeties.dice", {"dice": episode}, Source.CAMERA),
            Event("peripeties.dice", {"dice": fixed, "replace": True}, Source.CORRECTION)]
    rolls = [r for r in die_rolls(_frames(evs)) if r.seq and r.seq > len(evs) - 2]
    assert [(r.kind, r.face, r.how) for r in rolls if r.how != "lu"] == [("lieu", "ville", "corrigé")]
    assert len(rolls) == 7
    stats = {d.die: d for d in die_stats(rolls)}
    assert stats["lieu"].misreads == {"ville": {"foret": 1}} and stats["lieu"].colour == "blue"
    assert stats["d10"].counts["camera"][5] == 1


def test_companion_stats_command(tmp_path) -> None:
    import json as _json

    from tests.helpers import ROOT, run_cli

    log = str(ROOT / "examples" / "shayo-session.jsonl")
    out = run_cli("stats", log).stdout
    assert out.startswith("D10\n") and "trop peu de jets pour juger" in out
    assert "mal lu : 9 lu comme 6 × 1" in out  # the session's camera misread, corrected
    data = _json.loads(run_cli("stats", log, "--json").stdout)
    assert [d["die"] for d in data] == ["d10"]
    run_cli("stats", log, "--svg", str(tmp_path / "svg"), "--lang", "en")
    svg = (tmp_path / "svg" / "d10.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "read by the camera" in svg
    missing = run_cli("stats", "--data", str(tmp_path / "nowhere"), check=False)
    assert missing.returncode == 1 and "no table log" in missing.stderr


def test_camera_colours_split_the_d10_into_physical_dice(tmp_path) -> None:
    from companion.dicestats import load_read_colours

    evs = _demo("shayo") + [Event("shayo.roll", {"dice": [8, 3, 1, 4, 4]}, Source.CAMERA),
                            Event("shayo.correct", {"index": 1, "value": 9}, Source.CORRECTION)]
    frames = _frames(evs)
    seq = next(ev.seq for ev, _ in frames if ev.type == "shayo.roll")
    reads = tmp_path / "reads.jsonl"
    rec = {"id": 1, "status": "applied", "seq": seq, "used": [2, 0, 1, 3, 4],
           "objects": [{"value": 3, "colour": "blue"}, {"value": 1, "colour": "unknown"}, {"value": 8, "colour": "red"},
                       {"value": 4}, {"value": 4}]}
    reads.write_text("not json\n" + __import__("json").dumps({**rec, "status": "pending"}) + "\n"
                     + __import__("json").dumps(rec) + "\n", encoding="utf-8")  # the last line of an id wins
    rolls = die_rolls(frames, load_read_colours(reads))
    assert [(r.face, r.colour) for r in rolls][-5:] == [(8, "red"), (9, "blue"), (1, "unknown"), (4, None), (4, None)]
    stats = {d.die: d for d in die_stats(rolls)}
    assert list(stats) == ["d10", "d10-blue", "d10-red"]
    assert stats["d10-red"].colour == "red" and stats["d10-red"].label == {"fr": "D10 rouge", "en": "red d10"}
    assert stats["d10-blue"].misreads == {9: {3: 1}}  # the corrected die keeps its colour
    # of no sure colour, or none named (and the demo's own rolls, typed by hand)
    assert sum(stats["d10"].counts["all"].values()) == len(rolls) - 2
    assert load_read_colours(tmp_path / "none.jsonl") == {}
