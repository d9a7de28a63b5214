"""The synthetic tray renderer: deterministic, complete, and with truthful labels."""

from __future__ import annotations

import numpy as np
import pytest

from vision.catalog import CLASSES, FACES
from vision.synth import SceneSpec, render_tray

SMALL = SceneSpec(size=(640, 480))


def test_same_seed_same_pixels_and_labels() -> None:
    a = render_tray(7, spec=SMALL)
    b = render_tray(7, spec=SMALL)
    assert np.array_equal(a.image, b.image)
    assert np.array_equal(a.background, b.background)
    assert a.labels == b.labels
    c = render_tray(8, spec=SMALL)
    assert not np.array_equal(a.image, c.image)


def test_every_kind_and_gem_colour_renders_inside_the_frame() -> None:
    # 61 classes over a handful of trays of 13 objects each
    for start in range(0, len(CLASSES), 13):
        objs = list(CLASSES[start:start + 13])
        scene = render_tray(start, objects=objs, spec=SMALL, with_background=False)
        assert [(lab.kind, lab.value) for lab in scene.labels] == objs
        H, W = scene.image.shape[:2]
        for lab in scene.labels:
            x, y, w, h = lab.box
            assert 0 <= x and 0 <= y and x + w <= W and y + h <= H
            assert 10 <= w <= 120 and 10 <= h <= 120


def test_object_differs_from_empty_tray_inside_its_box() -> None:
    scene = render_tray(3, spec=SMALL)
    assert scene.background is not None
    for lab in scene.labels:
        x, y, w, h = lab.box
        diff = np.abs(scene.image[y:y + h, x:x + w].astype(int) - scene.background[y:y + h, x:x + w].astype(int))
        assert diff.mean() > 8, lab


def test_random_objects_use_every_kind_over_many_trays() -> None:
    seen = set()
    for seed in range(12):
        seen |= {lab.kind for lab in render_tray(seed, spec=SceneSpec(size=(320, 240)), with_background=False).labels}
    assert seen == set(FACES)


def test_too_many_objects_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="cannot place"):
        render_tray(0, n_objects=400, spec=SMALL)


def test_tray_to_image_maps_the_markers_where_they_are_drawn() -> None:
    from vision.calibration import detect_markers

    scene = render_tray(11, spec=SceneSpec(size=(960, 720)), with_background=False)
    found = detect_markers(scene.image)
    assert set(found) == {0, 1, 2, 3}
    ref = scene.layout.marker_corners_mm()
    for mid, corners in found.items():
        pts = np.c_[ref[mid], np.ones(4)] @ scene.tray_to_image.T
        pts = pts[:, :2] / pts[:, 2:]
        assert np.abs(pts - corners).max() < 3.0


def test_numeral_dice_come_in_colours_on_request_and_white_by_default() -> None:
    """``SceneSpec(numeral_colours=True)`` paints each d10 a body colour of its own with a
    contrasting ink (players' sets: red, blue, black... with white or gold numbers);
    the default keeps the renderer's white d10, pixel for pixel, and its d6 alike."""
    from dataclasses import replace

    objs = [("d10", v) for v in (1, 2, 3, 4, 5, 6)] + [("d6", 3)]
    plain = render_tray(11, objects=objs, spec=SMALL)
    again = render_tray(11, objects=objs, spec=replace(SMALL, numeral_colours=False))
    coloured = render_tray(11, objects=objs, spec=replace(SMALL, numeral_colours=True))
    assert np.array_equal(plain.image, again.image)
    assert [(lab.kind, lab.value, lab.box) for lab in coloured.labels] == [
        (lab.kind, lab.value, lab.box) for lab in plain.labels]  # the same dice in the same places

    def body(scene, lab) -> np.ndarray:  # the median colour of a die's centre
        x, y, w, h = lab.box
        return np.median(scene.image[y + h // 3:y + 2 * h // 3, x + w // 3:x + 2 * w // 3].reshape(-1, 3), axis=0)

    d10 = [lab for lab in plain.labels if lab.kind == "d10"]
    far = [np.abs(body(coloured, lab) - body(plain, lab)).max() for lab in d10]
    assert sum(f > 60 for f in far) >= 4, far  # most coloured bodies are far from the white one
    d6 = [lab for lab in plain.labels if lab.kind == "d6"][0]
    assert np.abs(body(plain, d6) - body(coloured, d6)).max() < 25  # the d6 keeps its colour
