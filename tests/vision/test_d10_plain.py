"""d10 on a plain photo (vision.numeral_detect + vision.numerals): a step expecting d10
gets its dice found on held-out synthetic trays and never a confident wrong face; real
photos holding no d10 give no confident d10 at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.helpers import shared_data
from vision.train.eval_d10_detector import load, score_negatives, score_trays
from vision.numeral_detect import NumeralDiceDetector, available
from vision.reader import Reader
from vision.result import STATUS_PENDING, STATUS_READ


# Measured with the committed models (benchmarks/bench_d10_plain.py --trays 40, figures in
# docs/vision.md) on 40 held-out trays (render seeds and floors never trained on), 345
# whole d10: found 98.8 %, read right automatically 74.8 %, pending 24.1 %, silently
# wrong 0, 0.08 false detections per frame (16 more objects over d10 cut by the frame's
# edge, none read wrong, are not counted); real photos with no d10: none in 50 d6 photos,
# 1 pending in 36 candy photos, none read. Before the numeral network learnt from the
# detector's own crops (5 December 2026): found 64.1 %, right 14.8 %. The bars sit a few
# points under the figures.
MIN_FOUND = 0.95
MIN_RIGHT = 0.68
MAX_WRONG = 0.005
MAX_FALSE_PER_FRAME = 0.3
N_TRAYS = 40


def shared_or_fail() -> Path:
    return shared_data("tray-dice-photos", "colour-candies")


@pytest.fixture(scope="module")
def reader() -> Reader:
    if not available():
        pytest.fail("vision/models/d10_detector.onnx or d10_detector.json missing")
    return Reader()  # the default plug-ins: the d10 ones run when a step expects d10


@pytest.fixture(scope="module")
def data() -> tuple[list[Any], dict[str, list[Any]]]:
    return load(shared_or_fail(), N_TRAYS)


def test_the_default_reader_has_the_d10_detector_on_request(reader: Reader) -> None:
    dets = [d for d in reader.detectors if isinstance(d, NumeralDiceDetector)]
    assert len(dets) == 1 and dets[0].on_request and "d10" in dets[0].kinds and "d6" not in dets[0].kinds
    assert NumeralDiceDetector not in [type(d) for d in reader._plugins(None)[0]]
    assert dets[0] in reader._plugins({"d10"})[0]
    assert dets[0] not in reader._plugins({"d6"})[0]


@pytest.mark.parametrize("floor", ["glitter", "mat"])
def test_d10_on_a_floor_never_learnt_are_found_and_never_read_wrong(reader: Reader, floor: str) -> None:
    """The issue's d10 on a dark glittery floor were never found. Rendered pools laid on
    such a floor, or on a printed mat, neither learnt (``bench_d10_plain.py --floor``:
    on 59 pools 99.8 / 99.6 % found, 79.3 / 76.9 % right, none wrong)."""
    from vision.train.eval_d10_detector import other_floor

    trays, _ = load(None, 12, floor=floor)
    frame = trays[0][0]
    bare = other_floor(floor, 0)
    assert np.abs(frame[:40, :40].astype(int) - bare[:40, :40].astype(int)).mean() < 40  # laid on it
    s = score_trays(reader, trays)
    assert s["dice"] >= 80
    assert s["found"] >= MIN_FOUND * s["dice"], s
    assert s["right"] >= MIN_RIGHT * s["dice"], s
    assert s["wrong"] == 0, s


def test_held_out_trays_are_found_and_never_read_wrong(reader: Reader, data: tuple[list[Any], Any]) -> None:
    trays, _ = data
    s = score_trays(reader, trays)
    assert s["dice"] > 200, s
    assert s["found"] >= MIN_FOUND * s["dice"], s
    assert s["right"] >= MIN_RIGHT * s["dice"], s
    assert s["wrong"] <= MAX_WRONG * s["dice"], s
    assert s["false"] <= MAX_FALSE_PER_FRAME * s["frames"], s
    assert s["edge_wrong"] <= MAX_WRONG * max(1, s["edge"]), s  # a die cut by the frame's edge: pending or right


def test_real_photos_without_d10_give_no_confident_d10(reader: Reader, data: tuple[Any, dict[str, list[Any]]]) -> None:
    _, negs = data
    for name, frames in negs.items():
        n = score_negatives(reader, frames)
        assert n["frames"] >= 30, (name, n)
        assert n["confident"] == 0, (name, n)
        assert n["objects"] <= 0.05 * n["frames"], (name, n)  # ~0 false detections


def test_a_d6_step_is_unchanged_by_the_d10_detector(reader: Reader, data: tuple[Any, dict[str, list[Any]]]) -> None:
    """A step expecting d6 (or saying nothing) reads exactly what the d6 reader alone reads."""
    _, negs = data
    alone = Reader(detectors=[d for d in reader.detectors if not isinstance(d, NumeralDiceDetector)],
                   classifiers=reader.classifiers, warm_up=False)
    for frame in negs["d6 tray photos"][:8]:
        for kinds in (None, {"d6"}):
            assert reader.read(frame, kinds=kinds).objects == alone.read(frame, kinds=kinds).objects


def test_a_d6_and_d10_step_keeps_every_d6_read(reader: Reader, data: tuple[Any, dict[str, list[Any]]]) -> None:
    """A step expecting d6 and d10 reads each d6 as the d6 step does, or leaves it pending
    where the numeral network also *read* it (as a d10: two sure readers disagree on the
    kind, :func:`vision.reader.best_claim`); it never reads a d6 as anything else."""
    _, negs = data
    kept = changed = 0
    for frame in negs["d6 tray photos"][:8]:
        d6 = [o for o in reader.read(frame, kinds={"d6"}).objects if o.kind == "d6"]
        both = reader.read(frame, kinds={"d6", "d10"}).objects
        assert [o.box for o in both if o.kind == "d6"] == [o.box for o in d6]
        for a, b in zip(d6, [o for o in both if o.kind == "d6"]):
            if a == b:
                kept += 1
            else:
                changed += 1
                assert b.status == STATUS_PENDING and b.candidates[0][0] == a.value
        assert not [o for o in both if o.kind == "d10" and o.status == STATUS_READ]
    assert kept >= 10 * max(changed, 1)


def test_a_d10_the_numeral_networks_are_sure_of_is_never_read_as_a_d6(
        reader: Reader, data: tuple[list[Any], Any]) -> None:
    """Blurred (σ 1.5) and halved pools in a step expecting d6 and d10: where the d10 step
    finds a die the numeral networks take surely for a d10 (kind confidence at
    :data:`vision.claims.KIND_SURE`, face unsure), the d6-or-d10 step never reads a d6
    there. The pip networks read such a die as a d6 showing 1, at up to 0.99: 3 of the
    166 such dice on these trays before the kind confidence was weighed (seventeenth
    session)."""
    from vision.claims import KIND_SURE, overlap
    from vision.frame_transforms import blur, scale

    trays, _ = data
    sure = 0
    for tf in (blur(1.5), scale(0.5)):
        for frame, _dice in trays:
            frame, _m = tf(frame)
            d10 = [o for o in reader.read(frame, kinds={"d10"}).objects
                   if o.status == STATUS_PENDING and (o.kind_confidence or 0.0) >= KIND_SURE]
            if not d10:
                continue
            sure += len(d10)
            both = reader.read(frame, kinds={"d6", "d10"}).objects
            assert not [o for o in both if o.kind == "d6" and o.status == STATUS_READ
                        and any(overlap(o.box, d.box) for d in d10)]
    assert sure >= 100  # the property was put to the test


def test_a_d6_step_never_reads_as_a_d6_what_the_d10_network_surely_takes_for_a_d10(
        reader: Reader, data: tuple[list[Any], Any]) -> None:
    """d10 pools read as a step expecting d6 only (a d10 left in the tray, or ``companion
    vision read`` without ``--look-for d10``): the numeral path does not run, and no d6
    read stands where the d10 network is sure of a d10 (:data:`vision.claims.KIND_SURE`):
    :meth:`Reader._no_d10_as_d6`. 28 of the 53 d6 reads over a d10 of these trays stood
    there before."""
    from vision.claims import KIND_SURE, overlap
    from vision.detect import Candidate

    trays, _ = data
    assert reader.numerals is not None
    checked = 0
    for frame, dice in trays:
        reads = [o for o in reader.read(frame, kinds={"d6"}).objects if o.kind == "d6" and o.status == STATUS_READ]
        on_d10 = [o for o in reads if any(whole and overlap(o.box, (round(cx - s / 2), round(cy - s / 2), round(s), round(s)))
                                          for cx, cy, s, _, whole in dice)]
        if on_d10:
            sure = np.array([c.kind_confidence for c in reader.numerals.kind_claims(
                frame, [Candidate.around(o.box) for o in on_d10])])
            assert (sure < KIND_SURE).all()
            checked += len(on_d10)
    assert checked >= 10  # d10 the d10 network is unsure of are still read as d6: the rule was put to the test


def test_an_empty_or_noise_frame_gives_no_d10(reader: Reader) -> None:
    noise = np.random.default_rng(3).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    assert not [o for o in reader.read(noise, kinds={"d10"}).objects if o.status == STATUS_READ]
    assert reader.read(np.zeros((480, 640, 3), np.uint8), kinds={"d10"}).objects == ()


@pytest.fixture(scope="module")
def black_trays(data: tuple[list[Any], Any]) -> list[Any]:
    """12 pools of black d10 with white numbers, blurred σ 1.5 (a camera out of focus):
    dice the network still hesitates over (since the d10 networks of 8 December 2026 it
    reads 98 of 100 of them unblurred)."""
    from vision.frame_transforms import blur
    from vision.train.eval_d10_detector import black_dice

    return [(blur(1.5)(black_dice(f))[0], d) for f, d in data[0][:12]]


def test_the_players_own_d10_settle_what_the_network_hesitates_over(black_trays: list[Any], tmp_path: Path) -> None:
    """Black d10 with white numbers, blurred, which the network hesitates over (60 read
    with the views, 56 without, 8 December 2026): with the players'
    own photos of such dice enrolled (saved in a data folder, read by the table's reader
    of that folder), more of them are read, each one a number the network had among
    its candidates, and none wrong; without them (the shipped views only) the reads are
    the network's alone."""
    from vision.enroll import ENROLLMENT_FILE
    from vision.table_setup import table_reader
    from vision.train.eval_d10_detector import players_dice

    players_dice(black=True).save(tmp_path / ENROLLMENT_FILE)
    taught, alone = table_reader(tmp_path), table_reader(None)
    assert taught.enrollment.own_kinds() == ["d10"] and alone.enrollment.own_kinds() == []
    with_them, without = score_trays(taught, black_trays), score_trays(alone, black_trays)
    assert with_them["wrong"] == without["wrong"] == 0
    assert with_them["found"] == without["found"] and with_them["false"] == without["false"]
    assert with_them["right"] >= without["right"] + 2, (with_them, without)


def test_the_players_pick_is_tuned_by_a_command_that_runs(tmp_path: Path) -> None:
    """``python -m vision.train.eval_d10_detector --tune-players`` on a few trays: it
    reads them at each bar tried and chooses bars among those tried."""
    from vision.train.eval_d10_detector import PLAYERS_FLOORS, PLAYERS_MARGINS, tune_players

    lines: list[str] = []
    floor, margin = tune_players(shared_or_fail(), trays=3, log=lines.append)
    assert floor in PLAYERS_FLOORS and margin in PLAYERS_MARGINS
    assert lines[-2] == f"chosen: floor {floor}, margin {margin}"
    assert sum("read right" in line for line in lines) >= 4  # alone, each sweep, the chosen


def test_a_step_expecting_d6_and_d10_reads_a_blurred_pool_as_seen(reader: Reader) -> None:
    """A plain photo's dark floor is repainted light for the pip networks in a step of d6
    alone, never in a step that also expects d10: on the repainted floor the pip networks
    read blurred d10 as d6 showing 1, and the numeral path could not always contest them
    (59 blurred pools, ``bench_d10_plain.py --transforms``: 35 d10 read as d6 faces with
    the repaint, 6 without)."""
    from vision.frame_transforms import blur

    trays, _ = load(shared_or_fail(), 20)
    blurred = [(blur(1.5)(frame)[0], dice) for frame, dice in trays]
    s = score_trays(reader, blurred, also=("d6",))
    assert s["dice"] >= 150, s
    assert s["wrong"] <= 6, s  # 4 measured; 15 with the repaint on these 20
    assert s["right"] >= 0.3 * s["dice"], s


def test_coloured_d10_are_found_and_read_and_never_read_wrong(reader: Reader) -> None:
    """Players' d10 come red, blue, black... with white or gold numbers
    (``SceneSpec.numeral_colours``). The networks learnt from white d10 only found half
    of them and read a quarter (``bench_d10_plain.py --coloured``: 52.3 / 23.9 % on 59
    pools); fine-tuned on coloured dice, 89.7 / 69.0 %, none wrong."""
    trays, _ = load(shared_or_fail(), 20, coloured=True)
    s = score_trays(reader, trays)
    assert s["dice"] >= 150, s
    assert s["found"] >= 0.8 * s["dice"], s
    assert s["right"] >= 0.6 * s["dice"], s
    assert s["wrong"] == 0, s
