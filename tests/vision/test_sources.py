"""Frame sources: one interface, clear errors when a camera is absent."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import CameraError, CameraNotFoundError, VisionError
from vision.sources import FolderSource, FrameSource, SyntheticSource, USBSource, open_source


def _write(folder: Path, n: int) -> list[np.ndarray]:
    imgs = []
    for i in range(n):
        img = np.full((40, 60, 3), 30 * i, np.uint8)
        cv2.imwrite(str(folder / f"f{i:02d}.png"), img)
        imgs.append(img)
    return imgs


def test_folder_source_replays_in_name_order_and_loops(tmp_path: Path) -> None:
    imgs = _write(tmp_path, 3)
    (tmp_path / "notes.txt").write_text("not an image")
    with open_source(f"folder:{tmp_path}") as src:
        assert isinstance(src, FrameSource)
        got = [src.read() for _ in range(4)]
    assert all(np.array_equal(g, i) for g, i in zip(got, imgs + imgs[:1]))
    assert got[0].dtype == np.uint8 and got[0].shape == (40, 60, 3)


def test_folder_source_without_loop_stops_with_an_error(tmp_path: Path) -> None:
    _write(tmp_path, 1)
    src = FolderSource(tmp_path, loop=False)
    src.read()
    with pytest.raises(CameraError, match="no more images"):
        src.read()


def test_folder_source_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraNotFoundError, match="no such folder"):
        open_source(f"folder:{tmp_path / 'missing'}")
    with pytest.raises(CameraNotFoundError, match="no images"):
        open_source(f"folder:{tmp_path}")
    (tmp_path / "bad.png").write_bytes(b"not a png")
    with pytest.raises(CameraError, match="cannot read"):
        open_source(f"folder:{tmp_path}").read()


def test_synthetic_source_is_deterministic_and_changes_every_frame() -> None:
    kw = {"n_objects": 3}
    with SyntheticSource(5, **kw) as a, SyntheticSource(5, **kw) as b:
        a1, a2 = a.read(), a.read()
        b1 = b.read()
        assert np.array_equal(a1, b1) and not np.array_equal(a1, a2)
        assert a.scene is not None and len(a.scene.labels) == 3
        assert a.lock_exposure() == {}


def test_synthetic_spec_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert open_source("synthetic:12").name == "synthetic:12"
    monkeypatch.setenv("COMPANION_CAMERA", "synthetic:3")
    assert open_source().name == "synthetic:3"


@pytest.mark.parametrize("spec, message", [
    ("webcam", "unknown camera"), ("usb:abc", "bad camera spec"), ("synthetic:x", "bad camera spec"),
    ("folder:", "needs a path"),
])
def test_bad_specs_are_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(CameraError, match=message) as err:
        open_source(spec)
    assert isinstance(err.value, VisionError) and isinstance(err.value, ValueError)


def test_absent_usb_camera_is_a_clear_error() -> None:
    with pytest.raises(CameraNotFoundError, match="no USB camera at index 97"):
        USBSource(97)


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="picamera2 is installed here")
def test_missing_picamera2_says_how_to_install_it() -> None:
    with pytest.raises(CameraNotFoundError, match="apt install python3-picamera2"):
        open_source("picamera2")


@pytest.mark.hardware
@pytest.mark.skipif(not os.environ.get("COMPANION_REAL_CAMERA"), reason="set COMPANION_REAL_CAMERA=picamera2|usb:N")
def test_real_camera_gives_frames_and_locks_exposure() -> None:
    with open_source(os.environ["COMPANION_REAL_CAMERA"]) as cam:
        first = cam.read()
        cam.lock_exposure()
        frames = [cam.read() for _ in range(3)]
    assert first.ndim == 3 and first.shape[2] == 3 and first.dtype == np.uint8
    assert all(f.shape == first.shape for f in frames)
    # exposure locked: the mean brightness of a still scene barely moves
    means = [float(f.mean()) for f in frames]
    assert max(means) - min(means) < 10
