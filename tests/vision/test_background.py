"""The empty-tray reference follows the light, and never swallows an object."""

from __future__ import annotations

import numpy as np

from vision.calibration import calibrate, load_calibration
from vision.synth import SceneSpec, render_tray
from vision.table_setup import SAVE_EVERY, table_reader

SPEC = SceneSpec(size=(960, 720))


def _lit(img: np.ndarray, gain: float) -> np.ndarray:
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def test_an_empty_tray_under_new_light_refreshes_the_reference_and_saves_it(tmp_path) -> None:
    empty = render_tray(61, objects=[], spec=SPEC)
    calibrate(empty.background).save(tmp_path)
    reader = table_reader(tmp_path, refresh_background=True)
    before = reader.calibration.background.astype(np.float32).mean()
    stored = load_calibration(tmp_path).background.copy()
    for k in range(SAVE_EVERY):
        read = reader.read(_lit(empty.image, 1.15))
        assert read.objects == () and read.error is None
    assert reader.background_updates == SAVE_EVERY
    after = reader.calibration.background.astype(np.float32).mean()
    assert after > before * 1.08  # moved most of the way towards the brighter tray
    saved = load_calibration(tmp_path).background
    assert not np.array_equal(saved, stored) and np.array_equal(saved, reader.calibration.background)


def test_a_tray_with_objects_never_refreshes_the_reference(tmp_path) -> None:
    scene = render_tray(62, objects=[("d12", 7), ("gem", "temps")], spec=SPEC)
    cal = calibrate(scene.background)
    cal.save(tmp_path)
    reader = table_reader(tmp_path, refresh_background=True)
    ref = reader.calibration.background.copy()
    read = reader.read(scene.image)
    assert len(read.objects) == 2
    assert reader.background_updates == 0 and np.array_equal(reader.calibration.background, ref)


def test_the_reference_is_left_alone_unless_asked(tmp_path) -> None:
    empty = render_tray(63, objects=[], spec=SPEC)
    calibrate(empty.background).save(tmp_path)
    reader = table_reader(tmp_path)
    ref = reader.calibration.background.copy()
    reader.read(_lit(empty.image, 1.15))
    assert reader.background_updates == 0 and np.array_equal(reader.calibration.background, ref)
