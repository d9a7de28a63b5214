"""Matching and tallying of the vision evaluation; the fixed split."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vision.eval import Tally, evaluate, format_report, match
from vision.labelled import Label, list_photos, load_labels, shared_photos_dir, split_of
from vision.result import STATUS_PENDING, STATUS_READ, ObjectRead, Read

PHOTOS = shared_photos_dir()


def _obj(x: float, y: float, value: int = 1, status: str = STATUS_READ, side: int = 40) -> ObjectRead:
    return ObjectRead("d6", value, (int(x - side / 2), int(y - side / 2), side, side), 0.9, status)


def _lab(x: float, y: float, face: int = 1, side: float = 40) -> Label:
    return Label(face, (x - side / 2, y - side / 2, side, side))


@pytest.mark.parametrize(
    ("objs", "labs", "pairs", "extra", "missed"),
    [
        ([], [], [], [], []),
        ([(100, 100)], [(100, 100)], [(0, 0)], [], []),
        ([(100, 100)], [(119, 100)], [(0, 0)], [], []),       # inside the die (half side 20)
        ([(100, 100)], [(121, 100)], [], [0], [0]),           # just outside
        ([(100, 100), (103, 100)], [(100, 100)], [(0, 0)], [1], []),  # a duplicate is a false detection
        ([(130, 100), (100, 100)], [(100, 100), (135, 100)], [(1, 0), (0, 1)], [], []),  # nearest first
    ],
)
def test_match_by_centre_within_half_a_side(objs, labs, pairs, extra, missed) -> None:  # type: ignore[no-untyped-def]
    got = match([_obj(*o) for o in objs], [_lab(*l) for l in labs])
    assert sorted(got[0]) == sorted(pairs)
    assert got[1] == extra and got[2] == missed


def test_tally_counts_every_case() -> None:
    labels = [_lab(100, 100, 3), _lab(200, 100, 5), _lab(300, 100, 6), _lab(400, 100, 2)]
    read = Read(objects=(
        _obj(100, 100, 3),                     # right, read
        _obj(200, 100, 6),                     # wrong, read: silent error
        _obj(300, 100, 6, STATUS_PENDING),     # right guess, pending
        _obj(600, 600, 1),                     # false detection
    ), ms=12.0)
    t = Tally()
    t.add(read, labels)
    s = t.summary()
    assert (t.true, t.found, t.right, t.auto_right, t.silent, t.pending, t.false) == (4, 3, 2, 1, 1, 1, 1)
    assert s["recall"] == 0.75 and s["auto_right"] == 0.25
    assert s["silent_errors"] == round(1 / 3, 4) and s["false_detections"] == 0.25
    conf = s["confusion"]["counts"]
    assert conf[2][2] == 1 and conf[4][5] == 1 and conf[5][6] == 1 and conf[1][7] == 1
    assert sum(map(sum, conf)) == 4
    assert "silent errors" in format_report({**s, "folder": "x", "split": "all"})


def test_split_is_fixed_by_sorted_index() -> None:
    splits = [split_of(i) for i in range(200)]
    assert splits.count("test") == 50 and splits.count("calib") == 25 and splits.count("fit") == 125
    assert all(split_of(i) == "test" for i in range(3, 200, 4))


def test_folds_partition_the_training_part_and_never_hold_a_test_photo(tmp_path: Path) -> None:
    for i in range(40):
        (tmp_path / f"p{i:03d}.jpg").write_bytes(b"x")
        (tmp_path / f"p{i:03d}.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    train = {p.path.name for p in list_photos(tmp_path, "train")}
    test = {p.path.name for p in list_photos(tmp_path, "test")}
    folds = [{p.path.name for p in list_photos(tmp_path, f"fold:{k}/4")} for k in range(4)]
    rests = [{p.path.name for p in list_photos(tmp_path, f"train-but:{k}/4")} for k in range(4)]
    assert set().union(*folds) == train and sum(map(len, folds)) == len(train) == 30
    assert all(len(f) in (7, 8) for f in folds)
    for f, r in zip(folds, rests):
        assert not f & r and f | r == train and not f & test
    for bad in ("fold:4/4", "fold:1", "train-but:a/3", "fold:0/1"):
        with pytest.raises(ValueError, match="bad split"):
            list_photos(tmp_path, bad)


def test_labels_parse_and_refuse_bad_lines(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"x")
    (tmp_path / "a.txt").write_text("2 0.5 0.25 0.1 0.1\n\n")
    (labs,) = [load_labels(tmp_path / "a.jpg", 640, 480)]
    assert labs[0].face == 3
    assert labs[0].centre == pytest.approx((320, 120))
    (tmp_path / "a.txt").write_text("7 0.5 0.5 0.1 0.1\n")
    with pytest.raises(ValueError, match="class 7"):
        load_labels(tmp_path / "a.jpg", 640, 480)
    (tmp_path / "a.txt").write_text("1 0.5 half\n")
    with pytest.raises(ValueError, match="a.txt:1"):
        load_labels(tmp_path / "a.jpg", 640, 480)
    with pytest.raises(ValueError, match="unknown split"):
        list_photos(tmp_path, "validation")


@pytest.mark.skipif(PHOTOS is None, reason="shared tray photos not found")
def test_evaluate_a_small_folder(tmp_path: Path) -> None:
    assert PHOTOS is not None
    for ph in list_photos(PHOTOS, "test")[:3]:
        shutil.copy(ph.path, tmp_path)
        shutil.copy(ph.path.with_suffix(".txt"), tmp_path)
    s = evaluate(tmp_path)
    assert s["photos"] == 3 and s["errors"] == 0
    assert s["true_dice"] == sum(len(load_labels(p.path, 640, 640)) for p in list_photos(tmp_path))
    assert s["recall"] >= 0.9
    assert s["ms_median"] > 0
    total = sum(map(sum, s["confusion"]["counts"]))
    assert total == s["true_dice"]
