"""Markers, the printable sheet, the homography and the saved calibration."""

from __future__ import annotations

import json
import struct
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import (CALIBRATION_FILE, Calibration, auto_calibration, calibrate, detect_markers,
                                load_calibration)
from vision.errors import CalibrationError, VisionError
from vision.markers import MarkerLayout, marker_sheet, write_marker_sheet
from vision.synth import SceneSpec, render_tray


@lru_cache(maxsize=None)
def _scene(seed: int):
    return render_tray(seed, n_objects=6, spec=SceneSpec(size=(960, 720)))


def test_sheet_holds_the_four_markers_at_true_size() -> None:
    dpi = 200
    page = marker_sheet(20.0, dpi=dpi)
    assert page.shape == (round(297 * dpi / 25.4), round(210 * dpi / 25.4))
    found = detect_markers(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR))
    assert set(found) == {0, 1, 2, 3}
    for corners in found.values():
        side_px = np.linalg.norm(corners[1] - corners[0])
        assert side_px / (dpi / 25.4) == pytest.approx(20.0, abs=0.4)


def test_png_sheet_records_its_dpi(tmp_path: Path) -> None:
    path = write_marker_sheet(tmp_path / "m.png", 25.0, dpi=300)
    data = path.read_bytes()
    i = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    assert unit == 1 and ppm_x == ppm_y == round(300 / 0.0254)
    assert cv2.imread(str(path)) is not None


def test_pdf_sheet_is_a_one_page_a4_pdf(tmp_path: Path) -> None:
    data = write_marker_sheet(tmp_path / "m.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.276 841.890]" in data and b"/Count 1" in data


@pytest.mark.parametrize("bad", [{"marker_mm": 2.0}, {"dpi": 20}])
def test_sheet_refuses_silly_sizes(tmp_path: Path, bad: dict) -> None:
    with pytest.raises(ValueError):
        write_marker_sheet(tmp_path / "m.png", **bad)
    assert not (tmp_path / "m.png").exists()


def test_sheet_refuses_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pdf or .png"):
        write_marker_sheet(tmp_path / "m.gif")


@pytest.mark.parametrize("seed", [0, 1])
def test_homography_puts_tray_points_where_they_belong(seed: int) -> None:
    scene = _scene(seed)
    cal = calibrate(scene.background)
    assert cal.reprojection_px < 1.5
    # random tray points (mm) -> image via the renderer's truth -> tray via calibration
    rng = np.random.default_rng(seed)
    mm = rng.uniform([20, 20], [220, 150], (50, 2))
    img = np.c_[mm, np.ones(50)] @ scene.tray_to_image.T
    img = img[:, :2] / img[:, 2:]
    back = cv2.perspectiveTransform(img.reshape(-1, 1, 2), cal.image_to_tray).reshape(-1, 2) / cal.px_per_mm
    assert np.abs(back - mm).max() < 1.0  # millimetres
    assert np.abs(cal.to_image(back * cal.px_per_mm) - img).max() < 0.5


def test_background_is_the_warped_empty_tray() -> None:
    scene = _scene(0)
    cal = calibrate(scene.background)
    w, h = cal.tray_size
    assert cal.background is not None and cal.background.shape == (h, w, 3)
    assert cal.tray_size == (round(240 * cal.px_per_mm), round(170 * cal.px_per_mm))


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    cal = calibrate(_scene(1).background)
    cal.save(tmp_path)
    again = load_calibration(tmp_path)
    assert np.allclose(again.image_to_tray, cal.image_to_tray)
    assert again.layout == cal.layout and again.px_per_mm == cal.px_per_mm
    assert again.background is not None and np.array_equal(again.background, cal.background)


def test_frame_without_markers_is_refused_clearly() -> None:
    frame = np.full((480, 640, 3), 60, np.uint8)
    with pytest.raises(CalibrationError, match="markers not found: 0, 1, 2, 3") as err:
        calibrate(frame)
    assert isinstance(err.value, VisionError) and isinstance(err.value, ValueError)
    assert auto_calibration(frame) is None


def test_hidden_markers_are_named() -> None:
    frame = _scene(0).background.copy()
    found = detect_markers(frame)
    for mid in (0, 2):
        x0, y0 = found[mid].min(axis=0).astype(int) - 5
        x1, y1 = found[mid].max(axis=0).astype(int) + 5
        frame[y0:y1, x0:x1] = 50
    with pytest.raises(CalibrationError, match="markers not found: 0, 2"):
        calibrate(frame)


def test_wrong_tray_size_is_detected() -> None:
    with pytest.raises(CalibrationError, match="inconsistent"):
        calibrate(_scene(0).background, MarkerLayout(tray_mm=(400.0, 170.0)))


@pytest.mark.parametrize("content", ["{", json.dumps({"layout": {}}), json.dumps({"image_to_tray": [[1]]})])
def test_corrupt_calibration_file_is_a_clear_error(tmp_path: Path, content: str) -> None:
    (tmp_path / CALIBRATION_FILE).write_text(content)
    with pytest.raises(CalibrationError, match="unreadable calibration"):
        load_calibration(tmp_path)


def test_missing_calibration_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="companion vision calibrate"):
        load_calibration(tmp_path)


def test_marker_mask_covers_the_markers_only() -> None:
    cal: Calibration = calibrate(_scene(0).background)
    m = cal.marker_mask()
    assert 0.04 < (m > 0).mean() < 0.12
    c = [int(v * cal.px_per_mm) for v in cal.layout.marker_centres_mm()[2]]
    assert m[c[1], c[0]] == 255
    assert m[m.shape[0] // 2, m.shape[1] // 2] == 0
