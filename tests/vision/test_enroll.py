"""The enrollment store and the set-up commands (markers, calibrate, enroll, synth, read-tray)."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.catalog import CLASSES, parse_face
from vision.enroll import DEFAULT_VIEWS, PACKAGED, Enrollment, _render_enrollment, default_enrollment
from vision.enroll_photos import enroll_frame, folder_items
from vision.errors import EnrollmentError
from vision.faces import classify, extract
from vision.markers import MarkerLayout
from vision.segment import find_objects
from vision.synth import SceneSpec, render_tray


def _photo(kind: str, face, seed: int, size: int = 480, objects=None) -> np.ndarray:
    """A close-up photo of one object on the tray, as a player takes to enroll."""
    return render_tray(seed, objects=objects or [(kind, face)], layout=MarkerLayout(tray_mm=(80.0, 60.0)),
                       spec=SceneSpec(size=(size, size * 3 // 4), markers=False, crop_to_tray=True),
                       with_background=False).image


def test_shipped_default_enrollment_covers_every_class() -> None:
    enr = default_enrollment()
    assert PACKAGED.exists() and enr.source == "synthetic"
    assert set(enr.classes) == set(CLASSES)
    assert min(enr.counts().values()) >= DEFAULT_VIEWS - 1


def test_shipped_enrollment_is_what_the_renderer_makes() -> None:
    # rebuild a few classes from the renderer and compare with the shipped templates
    some = [("d6", 4), ("lieu", "etang"), ("gem", "temps")]
    fresh = _render_enrollment(views=2, only=some)
    shipped = default_enrollment()
    for cls in some:
        a = fresh.ink[fresh.label == fresh.classes.index(cls)]
        b = shipped.ink[shipped.label == shipped.classes.index(cls)][:2]
        assert np.abs(a - b).max() < 0.02
        assert np.allclose(fresh.colour[fresh.label == fresh.classes.index(cls)],
                           shipped.colour[shipped.label == shipped.classes.index(cls)][:2], atol=1.0)
        assert np.allclose(fresh.emb_body[fresh.label == fresh.classes.index(cls)],
                           shipped.emb_body[shipped.label == shipped.classes.index(cls)][:2], atol=1.0)


def test_save_load_round_trip(tmp_path: Path) -> None:
    enr = Enrollment()
    for kind, face, seed in [("d10", 10, 1), ("epreuve", "magie", 2), ("gem", "ete", 3)]:
        enroll_frame(enr, _photo(kind, face, seed), kind, str(face))
    path = enr.save(tmp_path / "e.npz")
    again = Enrollment.load(path)
    assert again.classes == [("d10", 10), ("epreuve", "magie"), ("gem", "ete")]
    assert np.allclose(again.ink, enr.ink, atol=1e-3) and np.array_equal(again.label, enr.label)
    assert np.allclose(again.gem, enr.gem)


def test_enrolled_faces_are_what_the_classifier_uses() -> None:
    enr = Enrollment()
    faces = [("recompense", "banquet"), ("recompense", "gourde"), ("recompense", "taels"), ("recompense", "frere")]
    for i, (kind, face) in enumerate(faces):
        for v in range(2):
            enroll_frame(enr, _photo(kind, face, 50 + 10 * i + v), kind, face)
    scene = render_tray(77, objects=[("recompense", "gourde")],
                        spec=SceneSpec(size=(1280, 960)))
    from vision.reader import Reader

    read = Reader(detectors=[], classifiers=[], enrollment=enr, warm_up=False).read(scene.image)
    assert [(o.kind, o.value, o.status) for o in read.objects] == [("recompense", "gourde", "read")]


def test_photo_with_two_objects_is_refused() -> None:
    img = _photo("d6", 1, 5, objects=[("d6", 1), ("d6", 2)])
    with pytest.raises(EnrollmentError, match="found 2 objects"):
        enroll_frame(Enrollment(), img, "d6", 1)


def test_a_photo_of_several_objects_enrolls_the_one_boxed_or_picked() -> None:
    scene = render_tray(5, objects=[("d6", 1), ("lieu", "ville")], layout=MarkerLayout(tray_mm=(80.0, 60.0)),
                        spec=SceneSpec(size=(480, 360), markers=False, crop_to_tray=True), with_background=False)
    ville = next(lab for lab in scene.labels if lab.kind == "lieu")
    store = Enrollment()
    enroll_frame(store, scene.image, "lieu", "ville", box=ville.box)
    assert store.counts() == {("lieu", "ville"): 1}
    # the template is the boxed object: it reads a fresh photo of that face, not the d6
    m = classify(_features(_photo("lieu", "ville", 99)), store)
    assert (m.kind, m.face) == ("lieu", "ville")
    with pytest.raises(EnrollmentError, match="no object centred"):
        enroll_frame(store, scene.image, "lieu", "ville", box=(0, 0, 5, 5))
    for pick in ("largest", "centre"):
        enroll_frame(store, scene.image, "d6", 1, pick=pick)
    assert store.counts()[("d6", 1)] == 2
    with pytest.raises(EnrollmentError, match="unknown pick"):
        enroll_frame(store, scene.image, "d6", 1, pick="first")


def test_texture_specks_beside_one_die_do_not_refuse_the_photo() -> None:
    img = _photo("d12", 7, 8).copy()
    # a few small specks of glitter / wood grain on the tray around the die
    rng = np.random.default_rng(1)
    for x, y in rng.integers(20, 100, size=(4, 2)):
        cv2.circle(img, (int(x), int(y)), 8, (30, 200, 240), -1)
    from vision.tray_objects import prepare

    assert len(prepare(img).blobs) >= 3  # the specks are objects to the segmenter
    store = Enrollment()
    enroll_frame(store, img, "d12", 7)
    assert store.counts() == {("d12", 7): 1}


def _features(img: np.ndarray):
    blobs, bg = find_objects(img, px_per_mm=None)
    assert len(blobs) >= 1
    return extract(img, bg, max(blobs, key=lambda b: b.area))


@pytest.mark.parametrize("kind, face, msg", [("d8", 1, "unknown kind"), ("d6", 7, "not a face of d6"),
                                             ("lieu", "desert", "not a face of lieu")])
def test_unknown_kind_or_face_is_refused(kind: str, face, msg: str) -> None:
    store = Enrollment()
    with pytest.raises(EnrollmentError, match=msg):
        enroll_frame(store, _photo("d6", 1, 6), kind, face)
    assert len(store) == 0


def test_face_names_are_forgiving() -> None:
    assert parse_face("lieu", "Forêt") == "foret"
    assert parse_face("d10", "0") == 10 and parse_face("d12", " 12 ") == 12
    assert parse_face("gem", "Été") == "ete"


def test_remove_and_merge() -> None:
    enr = default_enrollment().merged(Enrollment())
    n = len(enr)
    removed = enr.remove("lieu", "ville")
    assert removed >= DEFAULT_VIEWS - 1 and len(enr) == n - removed and ("lieu", "ville") not in enr.classes
    mine = Enrollment()
    enroll_frame(mine, _photo("d6", 3, 8), "d6", 3)
    merged = mine.merged(default_enrollment())
    # the players' d6 replaces the default d6; other kinds come from the default
    assert [c for c in merged.classes if c[0] == "d6"] == [("d6", 3)]
    assert ("lieu", "ville") in merged.classes


def test_folder_layout(tmp_path: Path) -> None:
    (tmp_path / "lieu" / "montagne").mkdir(parents=True)
    cv2.imwrite(str(tmp_path / "lieu" / "montagne" / "a.jpg"), _photo("lieu", "montagne", 9))
    (tmp_path / "lieu" / "montagne" / "readme.txt").write_text("x")
    items = folder_items(tmp_path)
    assert [(k, f, p.name) for k, f, p in items] == [("lieu", "montagne", "a.jpg")]
    (tmp_path / "dragon").mkdir()
    with pytest.raises(EnrollmentError, match="unknown kind folder 'dragon'"):
        folder_items(tmp_path)


def test_corrupt_store_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "e.npz").write_bytes(b"junk")
    with pytest.raises(EnrollmentError, match="unreadable enrollment"):
        Enrollment.load(tmp_path / "e.npz")
    with pytest.raises(EnrollmentError, match="no enrollment"):
        Enrollment.load(tmp_path / "missing.npz")


# -- the commands ----------------------------------------------------------------------
def _run(argv: list[str]) -> int:
    from vision import commands

    parser = argparse.ArgumentParser(prog="companion")
    commands.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_cli_markers_calibrate_enroll_and_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert _run(["vision", "markers", "--out", str(tmp_path / "m.png"), "--dpi", "150"]) == 0
    assert (tmp_path / "m.png").exists() and "20 mm" in capsys.readouterr().out

    assert _run(["vision", "synth", "--out", str(tmp_path / "s"), "--count", "1", "--seed", "3"]) == 0
    assert (tmp_path / "s" / "tray_00003.json").exists()
    assert _run(["vision", "calibrate", "--image", str(tmp_path / "s" / "tray_00003_empty.png"),
                 "--data", str(data)]) == 0
    assert (data / "calibration.json").exists() and (data / "background.png").exists()

    folder = tmp_path / "photos" / "sentence" / "bagne"
    folder.mkdir(parents=True)
    for i in range(2):
        cv2.imwrite(str(folder / f"{i}.png"), _photo("sentence", "bagne", 30 + i))
    cv2.imwrite(str(folder / "2.png"), _photo("d6", 1, 5, objects=[("d6", 1), ("d6", 2)]))
    capsys.readouterr()
    assert _run(["vision", "enroll", "--folder", str(tmp_path / "photos"), "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "3/3" in out and "refused: found 2 objects" in out and "enrolled 2 of 3" in out
    assert _run(["vision", "enroll", "--list", "--data", str(data)]) == 0
    assert "bagne" in capsys.readouterr().out

    assert _run(["vision", "read-tray", str(tmp_path / "s" / "tray_00003.png"), "--data", str(data), "--json"]) == 0
    import json

    read = json.loads(capsys.readouterr().out)
    truth = json.loads((tmp_path / "s" / "tray_00003.json").read_text())["objects"]
    # read as the table reads (vision.table_setup): a kind taught only in part (one face
    # of the sentence die) keeps the shipped templates beside it; every object is found,
    # and what is read is right (the rest pending, never guessed)
    assert len(read["objects"]) == len(truth)
    want = sorted((t["kind"], str(t["value"])) for t in truth)
    for o in read["objects"]:
        assert o["status"] == "pending" or (o["kind"], str(o["value"])) in want, o


def test_cli_errors_are_messages_not_tracebacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["vision", "calibrate", "--image", str(tmp_path / "none.png"), "--data", str(tmp_path)]) == 1
    assert "cannot read image" in capsys.readouterr().err
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 90, np.uint8))
    assert _run(["vision", "calibrate", "--image", str(blank), "--data", str(tmp_path)]) == 1
    assert "markers not found" in capsys.readouterr().err
    assert _run(["vision", "enroll", "--kind", "d6", "--data", str(tmp_path)]) == 1
    assert _run(["vision", "markers", "--out", str(tmp_path / "m.gif")]) == 1


def test_store_from_another_reader_version_is_refused(tmp_path: Path) -> None:
    import json

    path = default_enrollment().merged(Enrollment()).save(tmp_path / "e.npz")
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    meta["version"] = 1
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(EnrollmentError, match="enroll again"):
        Enrollment.load(tmp_path / "old.npz")


def test_enrolling_a_face_that_looks_like_another_warns() -> None:
    store = Enrollment()
    assert enroll_frame(store, _photo("d6", 6, 40), "d6", 6) == []
    # the same 6 taught again as a 4 (a player's slip, or two faces that look alike)
    alike = enroll_frame(store, _photo("d6", 6, 41), "d6", 4)
    assert [f for f, _ in alike] == [6] and alike[0][1] >= 0.85
    # a face that looks like nothing enrolled: no warning
    assert enroll_frame(store, _photo("d6", 1, 42), "d6", 1) == []


def test_a_merged_store_knows_which_kinds_the_players_taught() -> None:
    """Merged with the shipped views, the players' store keeps apart the kinds taught
    from their own dice (the numeral networks ask those views, not the shipped ones)."""
    import copy

    shipped = default_enrollment()
    mine = copy.deepcopy(shipped)
    mine.source = "user"
    for kind in mine.kinds():
        if kind != "d10":
            mine.remove(kind)
    merged = mine.merged(shipped)
    assert "d10" in merged.kinds() and "d12" in merged.kinds()
    assert merged.own_kinds() == ["d10"]
    assert shipped.own_kinds() == [] and shipped.merged(shipped).own_kinds() == []
    merged.remove("d10")
    assert merged.own_kinds() == []


def _on_floor(kind: str, face, seed: int, floor: str) -> tuple[np.ndarray, tuple[float, float]]:
    """A photo of one object laid on a textured floor (glitter or a printed mat, as
    :mod:`vision.train.scenes` draws them), and the object's centre."""
    from vision.train import scenes

    scene = render_tray(700_000 + seed, objects=[(kind, face)], layout=MarkerLayout(tray_mm=(64.0, 64.0)),
                        spec=SceneSpec(size=(256, 256), markers=False, crop_to_tray=True, reflections=False))
    rng = np.random.default_rng(seed)
    ground = scenes._glitter(rng, 256, 256) if floor == "glitter" else scenes._mat(rng, 256, 256, 4.0)
    diff = np.abs(scene.image.astype(np.float32) - scene.background.astype(np.float32)).sum(axis=2)
    alpha = cv2.GaussianBlur((diff > 30).astype(np.float32), (5, 5), 0)[..., None]
    img = np.clip(np.clip(ground, 0, 255) * (1 - alpha) + scene.image * alpha, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(alpha[..., 0] > 0.5)
    return img, (float(xs.mean()), float(ys.mean()))


def test_a_photo_on_a_textured_floor_enrolls_the_object_not_the_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no empty tray to compare with, the segmenter takes glitter and a printed
    mat for objects; the class-agnostic detector says which one is the die, one the
    segmenter misses is cut out of the detector's box, and a segmenter's pick the
    detector does not see is refused with a question (vision.enroll_photos.object_box,
    cut_blob). No photo enrolls the floor; the segmenter alone picks the floor or
    refuses far more of them."""
    import vision.enroll_photos as ep
    from vision.tray_objects import prepare

    cut: list = []
    real_extract = ep.extract
    monkeypatch.setattr(ep, "extract", lambda image, bg, blob, rotated=True: (
        cut.append(blob), real_extract(image, bg, blob, rotated))[1])

    def on_it(box: tuple[int, int, int, int], cx: float, cy: float) -> bool:
        x, y, w, h = box
        return abs(x + w / 2 - cx) < w / 3 and abs(y + h / 2 - cy) < h / 3

    enrolled = asked = alone_right = 0
    for seed in range(8):
        for floor in ("glitter", "mat"):
            kind, face = ("d10", 1 + seed) if seed % 2 == 0 else ("lieu", "temple")
            img, (cx, cy) = _on_floor(kind, face, seed, floor)
            store = Enrollment()
            try:
                enroll_frame(store, img, kind, face)
            except EnrollmentError as exc:
                assert "say which with --box" in str(exc) and not len(store)
                asked += 1
            else:
                assert on_it(cut[-1].box, cx, cy), (seed, floor, cut[-1].box, cx, cy)
                assert store.counts() == {(kind, parse_face(kind, face)): 1}
                enrolled += 1
            try:
                alone_right += on_it(ep.pick_blob(prepare(img, close_up=True), None, "auto").box, cx, cy)
            except EnrollmentError:
                pass
    assert enrolled >= 14 and enrolled + asked == 16
    assert alone_right <= enrolled - 3, (alone_right, enrolled)


def test_a_tap_on_a_textured_floor_enrolls_the_object_the_detector_sees_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap on the tablet (a box around it) over a plain photo where the segmenter has no
    object: the object the detector sees there is cut out and enrolled, where it was refused."""
    import vision.enroll_photos as ep
    from vision.tray_objects import prepare

    cut: list = []
    real_extract = ep.extract
    monkeypatch.setattr(ep, "extract", lambda image, bg, blob, rotated=True: (
        cut.append(blob), real_extract(image, bg, blob, rotated))[1])
    for seed, floor in ((0, "glitter"), (1, "mat"), (2, "glitter"), (3, "mat")):
        kind, face = ("d10", 1 + seed) if seed % 2 == 0 else ("lieu", "temple")
        img, (cx, cy) = _on_floor(kind, face, seed, floor)
        tap = (int(cx) - 20, int(cy) - 20, 40, 40)
        with pytest.raises(EnrollmentError, match="no object"):  # none there, or none at all
            ep.pick_blob(prepare(img, close_up=True), tap)  # the segmenter alone
        store = Enrollment()
        enroll_frame(store, img, kind, face, box=tap)
        x, y, w, h = cut[-1].box
        assert abs(x + w / 2 - cx) < w / 3 and abs(y + h / 2 - cy) < h / 3, (seed, floor, cut[-1].box)
        assert store.counts() == {(kind, parse_face(kind, face)): 1}


def test_the_wizard_says_in_french_and_english_when_the_seen_object_cannot_be_cut_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tablet shows both languages for the refusals of a plain photo's enrollment."""
    from vision import checks

    def refuse(*args: object, **kwargs: object) -> None:
        raise EnrollmentError("the object at 10,20,30,30 could not be cut out of the floor: photograph it on a "
                              "plainer background, or in the calibrated tray")

    monkeypatch.setattr(checks, "enroll_frame", refuse)
    with pytest.raises(ValueError) as err:
        checks.enroll_face(tmp_path, np.zeros((64, 64, 3), np.uint8), "d10", 3)
    assert "n'a pas pu être détouré du fond" in str(err.value) and "could not be cut out" in str(err.value)
    assert not (tmp_path / "enrollment.npz").exists()


def test_a_gem_keeps_its_plain_photo_colour_and_a_colourless_view_is_refused(tmp_path: Path) -> None:
    """A gem enrolled from a photo keeps its colour as the plain-photo gem reader measures
    it (``Enrollment.gem_plain``), saved and loaded; a dice view keeps none; the floor or a
    shadow picked instead of a coloured gem is refused with a clear message."""
    import cv2

    from vision.enroll_photos import enroll_frame
    from vision.errors import EnrollmentError

    img = np.full((480, 640, 3), (235, 235, 235), np.uint8)
    cv2.circle(img, (320, 240), 22, (200, 110, 30), -1)  # a blue gem on a white tray
    store = Enrollment()
    enroll_frame(store, img, "gem", "hiver")
    views = store.players_gem_colours()
    assert list(views) == ["hiver"] and views["hiver"].shape == (1, 3) and views["hiver"][0, 2] < -20
    grey = np.full((480, 640, 3), (235, 235, 235), np.uint8)
    cv2.circle(grey, (320, 240), 22, (120, 120, 120), -1)  # a grey thing: no gem colour
    with pytest.raises(EnrollmentError, match="no colour of its own"):
        enroll_frame(store, grey, "gem", "ete")
    assert len(store) == 1
    enroll_frame(store, grey, "gem", "temps")  # the clear gem has none: taken, but no plain colour kept
    assert list(store.players_gem_colours()) == ["hiver"]
    store.save(tmp_path)
    loaded = Enrollment.load(tmp_path)
    assert np.allclose(loaded.players_gem_colours()["hiver"], views["hiver"])
    assert np.isnan(loaded.gem_plain[1]).all()


def test_a_gem_on_a_dark_floor_with_nothing_white_keeps_no_plain_colour() -> None:
    """On a dark felt with nothing white in view the "white" found is the felt, darker
    than the gem (``gem_colour.white_holds``): the view is taken (it serves the
    calibrated tray) but keeps no plain-photo colour, which would be a wrong one; with a
    white card beside the gem it keeps its colour."""
    import cv2

    from vision.enroll_photos import enroll_frame

    felt = np.full((480, 640, 3), (30, 45, 28), np.uint8)
    cv2.circle(felt, (320, 240), 22, (200, 110, 30), -1)  # a blue gem on a dark green felt
    store = Enrollment()
    enroll_frame(store, felt, "gem", "hiver", box=(290, 210, 60, 60))
    assert len(store) == 1 and np.isnan(store.gem_plain[0]).all() and store.players_gem_colours() == {}
    carded = felt.copy()
    carded[:, 480:] = (225, 228, 230)  # a white card at the side
    enroll_frame(store, carded, "gem", "hiver", box=(290, 210, 60, 60))  # tapped
    views = store.players_gem_colours()
    assert views["hiver"].shape == (1, 3) and views["hiver"][0, 2] < -20 and store.gems_without_plain() == ["hiver"]


def test_a_gem_enrolled_in_the_calibrated_tray_takes_the_markers_white() -> None:
    """In the companion's tray (dark felt, four markers) nothing else is white: the gem's
    colour is measured against the markers' papers, as the calibrated tray reads it."""
    import cv2

    from vision.enroll_photos import enroll_frame
    from vision.markers import DEFAULT_LAYOUT, marker_image

    ppm = 3.0  # the frame is the tray seen from straight above, 3 px per mm
    w, h = (int(v * ppm) for v in DEFAULT_LAYOUT.tray_mm)
    tray = np.full((h, w, 3), (30, 45, 28), np.uint8)  # dark green felt
    side, quiet = int(DEFAULT_LAYOUT.marker_mm * ppm), int(DEFAULT_LAYOUT.quiet_mm * ppm)
    for i, (cx, cy) in enumerate(DEFAULT_LAYOUT.marker_centres_mm()):
        paper = cv2.cvtColor(marker_image(i, side, quiet), cv2.COLOR_GRAY2BGR)
        paper = np.asarray(paper * (np.array([225, 228, 230]) / 255.0), np.uint8)  # white paper, this light
        p = paper.shape[0]
        x0, y0 = int(cx * ppm) - p // 2, int(cy * ppm) - p // 2
        tray[y0:y0 + p, x0:x0 + p] = paper
    cv2.circle(tray, (w // 2, h // 2), 24, (200, 110, 30), -1)  # a blue gem
    tray[h // 2 - 120:h // 2 + 120, w - 170:w - 50] = (190, 222, 245)  # a warm-lit card, larger than a paper
    store = Enrollment()
    enroll_frame(store, tray, "gem", "hiver", box=(w // 2 - 30, h // 2 - 30, 60, 60))
    views = store.players_gem_colours()
    assert views["hiver"].shape == (1, 3) and views["hiver"][0, 2] < -20  # blue
    # measured against the papers, as the calibrated tray reads it (not against the card)
    from vision.calibration import auto_calibration
    from vision.detect import Candidate
    from vision.gem_colour import lab_of, relative_colours
    from vision.tray_learned import markers_white

    cal = auto_calibration(tray)
    assert cal is not None
    gem = [Candidate(w / 2, h / 2, 48.0, 1.0, "gem")]
    paper = lab_of(relative_colours(tray, gem, markers_white(cal, cal.warp(tray))))[0]
    card = lab_of(relative_colours(tray, gem))[0]
    assert np.abs(views["hiver"][0] - paper).max() < np.abs(views["hiver"][0] - card).max()


def test_the_learnt_views_of_a_gem_show_its_colour(tmp_path: Path) -> None:
    """The tablet's strip of learnt views shows a gem's colour as the plain-photo reader
    measures it (a blue disc for a blue gem), so a view of the wrong object stands out."""
    from vision.checks import enrolled_views_png, enroll_face

    img = np.full((480, 640, 3), (235, 235, 235), np.uint8)
    cv2.circle(img, (320, 240), 22, (200, 110, 30), -1)
    enroll_face(tmp_path, img, "gem", "hiver")
    cv2.circle(img, (320, 240), 22, (235, 235, 235), -1)
    cv2.circle(img, (200, 300), 22, (205, 115, 35), -1)
    enroll_face(tmp_path, img, "gem", "hiver")
    png = enrolled_views_png(tmp_path, "gem", "hiver")
    assert png is not None
    tiles = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert tiles.shape[1] == 2 * tiles.shape[0]
    h = tiles.shape[0]
    for centre in (tiles[h // 2, h // 2], tiles[h // 2, h + h // 2]):
        b, g, r = (int(v) for v in centre)
        assert b > r + 60 and b > g, centre  # blue, as the gem


def test_the_wizard_says_in_french_and_english_when_a_gem_view_has_no_colour(tmp_path: Path) -> None:
    from vision.checks import enroll_face

    grey = np.full((480, 640, 3), (235, 235, 235), np.uint8)
    cv2.circle(grey, (320, 240), 22, (120, 120, 120), -1)
    with pytest.raises(ValueError) as err:
        enroll_face(tmp_path, grey, "gem", "ete")
    msg = str(err.value)
    assert "L'objet choisi n'a pas de couleur" in msg and "temps" in msg and "no colour of its own" in msg
    assert not (tmp_path / "enrollment.npz").exists()  # nothing recorded
