"""Smoke test of the training script: one step of each network on two photos."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.labelled import shared_photos_dir

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = shared_photos_dir()


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("torch") is None or importlib.util.find_spec("onnx") is None,
                    reason="training needs torch and onnx (pip install '.[train]')")
@pytest.mark.skipif(PHOTOS is None, reason="shared tray photos not found")
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
