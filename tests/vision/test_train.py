"""Smoke test of the training script: one step of each network on two photos."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.labelled import shared_photos_dir

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = shared_photos_dir()


NEEDS_TORCH = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("onnx") is None,
    reason="training needs torch and onnx (pip install '.[train]')")
NEEDS_PHOTOS = pytest.mark.skipif(PHOTOS is None, reason="shared tray photos not found")


def _records(rng: np.random.Generator, n: int, wrong: int) -> list[dict[str, object]]:
    """n true dice, the first ``wrong`` of them with a wrong best face of probability 0.6;
    the others right with probability 0.55..1; plus a "not a die" candidate."""
    recs: list[dict[str, object]] = []
    for i in range(n):
        face = int(rng.integers(1, 7))
        p = np.zeros(7)
        top = 0.6 if i < wrong else float(rng.uniform(0.55, 1.0))
        best = face % 6 if i < wrong else face - 1
        p[best] = top
        p[(best + 1) % 6] = 1 - top
        recs.append({"score": 0.9, "p": p, "face": face})
    recs.append({"score": 0.9, "p": np.array([0, 0, 0, 0, 0, 0.1, 0.9]), "face": 0})
    return recs


def test_tune_keeps_every_silent_error_pending_and_can_fix_the_detector_threshold() -> None:
    from vision.train.tune import tune

    recs = _records(np.random.default_rng(3), 300, wrong=2)
    thr = tune(recs, 300, safety=0.02, cost=25.0, t_det=0.35)
    assert thr["det"] == 0.35
    assert thr["_calib_silent"] == 0 and thr["confidence"] >= 0.62  # the wrong dice at 0.6 stay pending (+ safety)
    assert thr["not_a_die"] <= 0.9  # the "not a die" candidate is dropped
    # right dice above the threshold are read: about (1 - 0.64) / 0.45 of them
    assert 0.6 * 298 < thr["_calib_auto"] <= 298


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_PHOTOS
def test_cross_validation_smoke_writes_thresholds_and_final_models(tmp_path: Path) -> None:
    import shutil

    models = tmp_path / "models"
    shutil.copytree(ROOT / "vision" / "models", models)
    res = subprocess.run([sys.executable, "-m", "vision.train.cv", str(PHOTOS), "--folds", "2", "--smoke",
                          "--work", str(tmp_path / "work"), "--models", str(models)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:] + res.stdout[-2000:]
    meta = json.loads((models / "d6.json").read_text())
    assert meta["tuned"]["split"] == "out-of-fold, 2 folds of train"
    assert meta["trained"]["classifiers_split"] == "train" and meta["trained"]["steps_cls"] == 1
    assert (tmp_path / "work" / "fold_1" / "d6_classifier_2.onnx").exists()


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_PHOTOS
def test_cross_validation_then_tunes_on_the_fine_tuned_folds(tmp_path: Path) -> None:
    """``--then ARGS``: each fold is fine-tuned from its first stage, and the thresholds
    come from the fine-tuned folds (the way the committed classifiers were made)."""
    import shutil

    models = tmp_path / "models"
    shutil.copytree(ROOT / "vision" / "models", models)
    res = subprocess.run([sys.executable, "-m", "vision.train.cv", str(PHOTOS), "--folds", "2", "--smoke", "--no-final",
                          "--work", str(tmp_path / "work"), "--models", str(models), "--then", "--jpeg 0.5 --lr 3e-4"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:] + res.stdout[-2000:]
    for k in (0, 1):
        then = tmp_path / "work" / f"fold_{k}_then"
        meta = json.loads((then / "d6.json").read_text())
        assert meta["trained"]["finetune"] == str(tmp_path / "work" / f"fold_{k}") and meta["trained"]["jpeg"] == 0.5
        assert json.loads((then / "recipe.json").read_text())[-2:] == ["--finetune", str(tmp_path / "work" / f"fold_{k}")]
    tuned = json.loads((models / "d6.json").read_text())["tuned"]
    assert tuned["then"] == "--jpeg 0.5 --lr 3e-4" and tuned["split"] == "out-of-fold, 2 folds of train"
    assert (models / "d6_classifier.onnx").read_bytes() == (ROOT / "vision" / "models" / "d6_classifier.onnx").read_bytes()


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_PHOTOS
def test_train_one_step_exports_models_cv2_reads(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "vision.train.train_d6", str(PHOTOS), "--out", str(tmp_path), "--smoke"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    meta = json.loads((tmp_path / "d6.json").read_text())
    assert meta["trained"]["photos"] == 2 and meta["trained"]["split"] == "fit"
    # the exported one-step models plug into the run-time reader (cv2.dnn, no torch)
    from vision.detect import DiceDetector
    from vision.pips import PipClassifier
    from vision.reader import Reader

    reader = Reader(detectors=[DiceDetector(tmp_path / "d6_detector.onnx", threshold=0.99)],
                    classifiers=[PipClassifier(tmp_path / "d6_classifier.onnx", settings=meta)])
    read = reader.read(next(PHOTOS.glob("*.jpg")))
    assert read.error is None and read.size == (640, 640)



@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_PHOTOS
def test_cross_validation_third_stage_and_degraded_tuning(tmp_path: Path) -> None:
    """``--then`` twice: the third stage is fine-tuned from the second's folds; with
    ``--degraded`` the thresholds are tuned on the dice as taken, under JPEG 30 and under a
    webcam: three times as many out-of-fold dice; ``--sure-alone`` (with ``--sure-no-die``) is
    checked on them."""
    import shutil

    models = tmp_path / "models"
    shutil.copytree(ROOT / "vision" / "models", models)
    res = subprocess.run([sys.executable, "-m", "vision.train.cv", str(PHOTOS), "--folds", "2", "--smoke", "--no-final",
                          "--degraded", "--sure-alone", "0.99", "--sure-no-die", "0.8", "--work", str(tmp_path / "work"), "--models", str(models),
                          "--then", "--jpeg 0.5 --lr 3e-4", "--then", "--lr 1e-4"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:] + res.stdout[-2000:]
    for k in (0, 1):
        third = tmp_path / "work" / f"fold_{k}_then2"
        assert json.loads((third / "recipe.json").read_text()) == [
            "--lr", "1e-4", "--finetune", str(tmp_path / "work" / f"fold_{k}_then")]
    tuned = json.loads((models / "d6.json").read_text())["tuned"]
    assert tuned["then"] == ["--jpeg 0.5 --lr 3e-4", "--lr 1e-4"]
    assert tuned["split"] == "out-of-fold, 2 folds of train, as taken and degraded (JPEG 30, webcam)"
    assert "fold 1, webcam:" in res.stdout and "fold 0, JPEG 30:" in res.stdout
    # the first network alone on the crops it is sure of: checked out of fold, kept only if no worse
    alone = tuned["sure_alone"]
    assert alone["value"] == 0.99 and alone["no_die"] == 0.8 and isinstance(alone["decisions_changed"], int)
    meta = json.loads((models / "d6.json").read_text())
    assert meta.get("sure_alone") == (0.99 if alone["kept"] else None)
    assert meta.get("sure_no_die") == (0.8 if alone["kept"] else None)

@NEEDS_PHOTOS
def test_training_learns_from_the_fixed_labels_unless_told_otherwise() -> None:
    from vision.labelled import LABEL_FIXES, list_photos
    from vision.train.train_d6 import load_set

    assert PHOTOS is not None
    name, fixes = "IMG_20191209_095954.jpg", LABEL_FIXES["IMG_20191209_095954.jpg"]
    (index, face), = fixes.items()
    split = "train"  # every photo of the training part
    fixed = load_set(PHOTOS, split)
    given = load_set(PHOTOS, split, fixes=False)
    assert len(fixed) == len(given) == 150
    k = [ph.path.name for ph in list_photos(PHOTOS, split)].index(name)
    assert fixed[k][1][index].face == face != given[k][1][index].face
    changed = sum(a.face != b.face for (_, la), (_, lb) in zip(fixed, given) for a, b in zip(la, lb))
    assert changed == sum(len(f) for f in LABEL_FIXES.values())


def test_cross_validation_retrains_a_fold_that_learnt_from_the_labels_as_given(tmp_path: Path) -> None:
    from vision.train.cv import _fold_done

    (tmp_path / "d6_classifier.onnx").write_bytes(b"x")
    meta = {"classifiers": ["d6_classifier.onnx"], "trained": {"split": "train-but:0/5", "classifiers": 1}}
    (tmp_path / "d6.json").write_text(json.dumps(meta))
    assert not _fold_done(tmp_path, "train-but:0/5", 1, "none")
    meta["trained"]["label_fixes"] = True  # type: ignore[index]
    (tmp_path / "d6.json").write_text(json.dumps(meta))
    assert _fold_done(tmp_path, "train-but:0/5", 1, "none")
    assert not _fold_done(tmp_path, "train-but:1/5", 1, "none")


def test_cross_validation_retrains_a_fold_trained_with_another_recipe(tmp_path: Path) -> None:
    """``cv ... -- ARGS`` gives ARGS to every train_d6 run; a fold trained with other
    ARGS (or none) is not taken as done."""
    from vision.train.cv import _fold_done

    (tmp_path / "d6_classifier.onnx").write_bytes(b"x")
    meta = {"classifiers": ["d6_classifier.onnx"],
            "trained": {"split": "train-but:0/5", "classifiers": 1, "label_fixes": True}}
    (tmp_path / "d6.json").write_text(json.dumps(meta))
    recipe = ["--jpeg", "0.5", "--parts", "1"]
    assert _fold_done(tmp_path, "train-but:0/5", 1, "none")
    assert not _fold_done(tmp_path, "train-but:0/5", 1, "none", recipe)
    (tmp_path / "recipe.json").write_text(json.dumps(recipe))
    assert _fold_done(tmp_path, "train-but:0/5", 1, "none", recipe)
    assert not _fold_done(tmp_path, "train-but:0/5", 1, "none", ["--jpeg", "0.7"])
    assert not _fold_done(tmp_path, "train-but:0/5", 1, "none")


def test_candy_crops_are_the_fit_candies_cut_as_a_die_is() -> None:
    """The "not a die" candies of ``train_d6 --candies``: cut from the colour-candies
    *fit* photos only, at a candy (a colourful middle), the same for the same seed."""
    from tests.helpers import shared_data
    from vision.embed import dominant_colours
    from vision.train.train_d6 import candy_crops

    folder = shared_data("colour-candies") / "colour-candies"
    crops = candy_crops(40, 7, folder)
    assert crops.shape == (40, 48, 48, 3) and crops.dtype == np.uint8
    assert np.array_equal(crops, candy_crops(40, 7, folder)) and not np.array_equal(crops, candy_crops(40, 8, folder))
    chroma = np.hypot(*(dominant_colours(crops)[:, 1:] - 128).T)
    assert np.median(chroma) > 30, chroma  # coloured candies, not the white tray
    seen: list[str] = []
    import vision.gem_data as gem_data

    real = gem_data.list_gem_photos

    def spy(f: Path | str, split: str = "all") -> list:
        seen.append(split)
        return real(f, split)

    gem_data.list_gem_photos = spy  # type: ignore[assignment]
    try:
        candy_crops(2, 1, folder)
    finally:
        gem_data.list_gem_photos = real  # type: ignore[assignment]
    assert seen == ["fit"]


def test_candy_scenes_show_the_fit_candies_at_a_die_size() -> None:
    """The trays with no die of ``train_d6 --candies`` for the detector: the candies' fit
    photos only, each scaled so that its median candy is as large as a die at the
    detector's input."""
    from tests.helpers import shared_data
    from vision.gem_data import list_gem_photos, load_gem_labels
    from vision.train.train_d6 import candy_scenes

    folder = shared_data("colour-candies") / "colour-candies"
    scenes = candy_scenes(folder, die_px=20.0)
    fit = list_gem_photos(folder, "fit")
    assert len(scenes) == len(fit) > 50
    assert not set(p.path.name for p in fit) & set(p.path.name for p in list_gem_photos(folder, "test"))
    img, base = scenes[0]
    assert img.shape == (1080, 1920, 3)
    sides = [lab.side for lab in load_gem_labels(fit[0], 1920, 1080)]
    assert float(np.median(sides)) * base == pytest.approx(20.0)
    assert candy_scenes(folder, die_px=40.0)[0][1] == pytest.approx(2 * base)


@NEEDS_TORCH
def test_load_folded_gives_back_the_exported_networks() -> None:
    """``train_d6 --finetune`` starts from the committed ONNX files: the torch networks
    rebuilt from them (BatchNorms folded) answer as ``cv2.dnn`` does, detector and
    classifier; a file of another shape is refused."""
    import cv2
    import torch

    from vision.train.nets_torch import CentreNet
    from vision.train.train_d6 import crop_net_from_onnx, load_folded

    models = ROOT / "vision" / "models"
    for net, name, shape in [(load_folded(CentreNet(), models / "d6_detector.onnx"), "d6_detector.onnx", (1, 3, 320, 320)),
                             (crop_net_from_onnx(models / "d6_classifier.onnx"), "d6_classifier.onnx", (3, 3, 48, 48))]:
        x = np.random.default_rng(0).random(shape, dtype=np.float32)
        cvnet = cv2.dnn.readNetFromONNX(str(models / name))
        cvnet.setInput(x)
        net.eval()
        with torch.no_grad():
            assert np.abs(cvnet.forward() - net(torch.from_numpy(x)).numpy()).max() < 1e-4, name
    with pytest.raises(ValueError, match="convolutions"):
        load_folded(CentreNet(), models / "d6_classifier.onnx")


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_PHOTOS
def test_train_only_the_detector_fine_tuned_with_candy_trays(tmp_path: Path) -> None:
    from tests.helpers import shared_data

    candies = shared_data("colour-candies") / "colour-candies"
    res = subprocess.run([sys.executable, "-m", "vision.train.train_d6", str(PHOTOS), "--out", str(tmp_path), "--smoke",
                          "--only-det", "--finetune", str(ROOT / "vision" / "models"), "--candies", str(candies),
                          "--floors", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    assert (tmp_path / "d6_detector.onnx").exists() and not (tmp_path / "d6_classifier.onnx").exists()
    meta = json.loads((tmp_path / "d6.json").read_text())
    assert meta["classifiers"] == [] and meta["trained"]["candies"]["folder"] == "colour-candies"
    assert meta["trained"]["floors"] == 1.0  # every photo patch on a painted floor (vision.floors)


def test_render_set_gives_labelled_white_d6_trays_the_same_for_the_same_seed() -> None:
    """``train_d6 --renders N``: N rendered trays of plain white d6, labelled as the
    photos are (a face 1-6 and the box of the die as seen, inside the frame)."""
    from vision.train.train_d6 import render_set

    trays = render_set(3, 700_000)
    assert len(trays) == 3
    for img, labels in trays:
        h, w = img.shape[:2]
        assert img.dtype == np.uint8 and (w, h) in {(1280, 960), (1280, 720), (960, 720)}
        assert 6 <= len(labels) <= 12
        for lab in labels:
            x, y, bw, bh = lab.box
            assert lab.face in range(1, 7) and 0 <= x and x + bw <= w and 0 <= y and y + bh <= h
            die = img[int(y + bh * 0.3):int(y + bh * 0.7), int(x + bw * 0.3):int(x + bw * 0.7)]
            assert np.median(die) > 150  # a white die, not the dark felt
    again = render_set(1, 700_000)[0]
    assert np.array_equal(again[0], trays[0][0]) and again[1] == trays[0][1]
    assert not np.array_equal(render_set(1, 700_001)[0][0][:100], trays[0][0][:100])
