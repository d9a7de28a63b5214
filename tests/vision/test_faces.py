"""Reading faces against enrolled templates, and read_tray end to end."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.catalog import FACES
from vision.enroll import default_enrollment
from vision.faces import classify, extract
from vision.read import Read
from vision.segment import find_objects
from vision.synth import SceneSpec, render_tray
from vision.tray_reader import read_tray

SPEC = SceneSpec(size=(1280, 960))


def _single(kind: str, face, seed: int):
    from vision.markers import MarkerLayout

    scene = render_tray(seed, objects=[(kind, face)], layout=MarkerLayout(tray_mm=(64.0, 64.0)),
                        spec=SceneSpec(size=(256, 256), markers=False, crop_to_tray=True))
    blobs, bg = find_objects(scene.image, scene.background, px_per_mm=4.0)
    assert len(blobs) == 1
    return extract(scene.image, bg, blobs[0])


def test_an_unenrolled_kind_is_pending_never_guessed() -> None:
    base = default_enrollment()
    for kind in ("d12", "recompense", "epreuve"):
        enr = base.merged(base)  # a copy
        enr.remove(kind)
        for j, face in enumerate(FACES[kind][:3]):
            m = classify(_single(kind, face, 9500 + j), enr)
            assert m.pending, (kind, face, m)


def test_blue_yellow_red_taels_are_told_apart_by_body_colour() -> None:
    enr = default_enrollment()
    assert classify(_single("recompense", "taels", 9700), enr).kind == "recompense"
    assert classify(_single("sentence", "taels", 9701), enr).kind == "sentence"


def test_confidence_and_margin_are_consistent() -> None:
    enr = default_enrollment()
    m = classify(_single("d6", 5, 9800), enr)
    assert not m.pending and 0.5 < m.confidence <= 1.0 and m.margin > 0
    assert m.candidates[0][:2] == ("d6", 5)
    assert [c[2] for c in m.candidates] == sorted((c[2] for c in m.candidates), reverse=True)


def test_read_tray_with_calibration_reads_every_object() -> None:
    scene = render_tray(31, n_objects=12, spec=SPEC)
    cal = calibrate(scene.background)
    read = read_tray(scene.image, calibration=cal, d6_reader=False)
    assert read.error is None and read.extra["mode"] == "calibrated" and read.extra["background"]
    assert read.size == (1280, 960)
    truth = sorted((lab.kind, str(lab.value)) for lab in scene.labels)
    assert sorted((o.kind, str(o.value)) for o in read.objects) == truth
    for o in read.objects:
        assert o.status == "read" and 0 < o.confidence <= 1
    # boxes are in input pixels and cover the truth centres
    for lab in scene.labels:
        assert any(o.box[0] <= lab.center[0] <= o.box[0] + o.box[2] and o.box[1] <= lab.center[1] <= o.box[1] + o.box[3]
                   for o in read.objects)
    assert read.to_json()["objects"][0]["status"] == "read"


def test_read_tray_on_a_single_photo_without_markers() -> None:
    scene = render_tray(32, n_objects=8, spec=SceneSpec(size=(1100, 800), crop_to_tray=True, markers=False),
                        with_background=False)
    read = read_tray(scene.image, d6_reader=False)
    assert read.extra["mode"] == "photo"
    got = sorted((o.kind, str(o.value)) for o in read.objects if o.status == "read")
    truth = sorted((lab.kind, str(lab.value)) for lab in scene.labels)
    assert len(read.objects) == len(truth)
    assert set(got) <= set(truth) and len(got) >= len(truth) - 1


def test_pluggable_d6_reader_is_used_and_its_doubt_makes_pending() -> None:
    scene = render_tray(33, objects=[("d6", 2), ("d6", 5), ("lieu", "ville")], spec=SPEC)
    cal = calibrate(scene.background)
    crops = []

    def reader(crop: np.ndarray) -> tuple[int | None, float]:
        crops.append(crop.shape)
        return (4, 0.95) if len(crops) == 1 else (None, 0.2)

    read = read_tray(scene.image, calibration=cal, d6_reader=reader)
    d6 = [o for o in read.objects if o.kind == "d6"]
    assert len(crops) == 2 and all(len(s) == 3 for s in crops)
    assert sorted(o.status for o in d6) == ["pending", "read"]
    assert [o.value for o in d6 if o.status == "read"] == [4]  # the plug-in's answer
    assert [o.value for o in read.objects if o.kind == "lieu"] == ["ville"]


def test_a_failing_d6_reader_cannot_break_the_read() -> None:
    scene = render_tray(34, objects=[("d6", 3)], spec=SPEC)

    def broken(crop: np.ndarray) -> tuple[int | None, float]:
        raise RuntimeError("model file missing")

    read = read_tray(scene.image, calibration=calibrate(scene.background), d6_reader=broken)
    assert [(o.kind, o.status, o.value) for o in read.objects] == [("d6", "pending", None)]


@pytest.mark.parametrize("image, message", [
    (None, "not a colour image"), (np.zeros((10, 10), np.uint8), "not a colour image"),
    (np.zeros((0, 0, 3), np.uint8), "not a colour image"), (np.full((200, 300, 3), 128, np.uint8), "blank frame"),
])
def test_bad_images_give_an_error_read_not_an_exception(image, message: str) -> None:
    read = read_tray(image)
    assert isinstance(read, Read) and read.objects == () and message in (read.error or "")


def test_empty_tray_reads_nothing() -> None:
    scene = render_tray(35, objects=[], spec=SPEC)
    cal = calibrate(scene.background)
    assert read_tray(scene.image, calibration=cal).objects == ()
    assert read_tray(scene.image).objects == ()  # markers only, no background
