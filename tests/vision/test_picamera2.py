"""The Pi camera source off the Pi: vision.sources.PiCameraSource against a fake
``picamera2`` module (tests/vision/fake_picamera2) shaped like the real one, found by the
real lazy ``from picamera2 import Picamera2``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from vision.errors import CameraError, CameraNotFoundError
from vision.sources import FrameSource, PiCameraSource, open_source

FAKE_DIR = Path(__file__).parent / "fake_picamera2"


@pytest.fixture
def picam(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The fake module, importable as ``picamera2``; its knobs reset for each test."""
    monkeypatch.syspath_prepend(str(FAKE_DIR))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    import picamera2

    assert Path(picamera2.__file__).parent.parent == FAKE_DIR
    monkeypatch.setattr(picamera2, "FRAME", None)
    monkeypatch.setattr(picamera2, "FAIL_START", None)
    monkeypatch.setattr(picamera2, "INSTANCES", [])
    monkeypatch.setattr(picamera2, "CAMERAS", list(picamera2.CAMERAS))
    yield picamera2
    sys.modules.pop("picamera2", None)


def test_importing_the_sources_does_not_import_picamera2() -> None:
    code = ("import sys; sys.path.insert(0, %r); import vision.sources, vision.reader; "
            "print('picamera2' in sys.modules)") % str(FAKE_DIR)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("size", [(2028, 1520), (1920, 1080)])
def test_frames_are_bgr_at_the_configured_size(picam: Any, size: tuple[int, int]) -> None:
    w, h = size
    frame = np.zeros((h, w, 3), np.uint8)
    frame[..., 0], frame[..., 1], frame[..., 2] = 10, 20, 30  # B, G, R as RGB888 lays them out
    picam.FRAME = frame
    with PiCameraSource(0, size=size, warmup_s=0) as src:
        assert isinstance(src, FrameSource) and src.name == "picamera2:0"
        got = src.read()
        cam = picam.INSTANCES[0]
        assert cam.config["main"] == {"size": size, "format": "RGB888"}
    assert got.shape == (h, w, 3) and got.dtype == np.uint8 and got.flags["C_CONTIGUOUS"]
    assert tuple(got[0, 0]) == (10, 20, 30)
    assert cam.calls == ["__init__", "create_still_configuration", "configure", "start", "capture_array",
                         "stop", "close"]


def test_lock_exposure_freezes_what_the_camera_measured(picam: Any) -> None:
    with PiCameraSource(0, warmup_s=0) as src:
        controls = src.lock_exposure()
        cam = picam.INSTANCES[0]
    assert controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.0,
                        "ColourGains": (1.9, 1.6)}
    assert cam.controls == controls


def test_open_source_by_name_reaches_the_second_camera(picam: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    picam.CAMERAS.append({"Model": "imx708", "Location": 2, "Rotation": 0, "Id": "cam1", "Num": 1})
    monkeypatch.setattr("vision.sources.time.sleep", lambda s: None)  # the warm-up, not a synchronisation
    src = open_source("picamera2:1")
    try:
        assert src.name == "picamera2:1" and picam.INSTANCES[0].camera_num == 1
        assert src.read().shape[2] == 3
    finally:
        src.close()


def test_no_camera_on_the_ribbon_is_a_clear_error(picam: Any) -> None:
    picam.CAMERAS.clear()
    with pytest.raises(CameraNotFoundError, match="ribbon cable"):
        PiCameraSource(0, warmup_s=0)


def test_a_camera_that_will_not_start_is_a_camera_error(picam: Any) -> None:
    picam.FAIL_START = RuntimeError("Failed to start camera: Device or resource busy")
    with pytest.raises(CameraError, match="cannot start the Pi camera: .*busy"):
        PiCameraSource(0, warmup_s=0)


def test_frames_stopping_is_a_camera_error_and_close_is_safe_twice(picam: Any) -> None:
    src = PiCameraSource(0, warmup_s=0)
    picam.INSTANCES[0].stop()  # e.g. libcamera lost the sensor
    with pytest.raises(CameraError, match="stopped giving frames"):
        src.read()
    src.close()
    src.close()
    assert picam.INSTANCES[0].closed


def test_without_picamera2_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as when it is not installed
    with pytest.raises(CameraNotFoundError, match="apt install python3-picamera2.*system-site-packages"):
        open_source("picamera2")


def test_the_tables_camera_asks_for_2028_x_1520_never_the_full_sensor(picam: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/raspberry-pi.md: 4056 x 3040 would put the whole read over the time bar
    monkeypatch.setattr("vision.sources.time.sleep", lambda s: None)  # the warm-up, not a synchronisation
    src = open_source("picamera2")
    try:
        assert picam.INSTANCES[0].config["main"]["size"] == (2028, 1520)
    finally:
        src.close()
