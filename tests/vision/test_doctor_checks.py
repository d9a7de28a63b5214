"""The camera, calibration, enrollment, tray and GPIO checks of `companion doctor`."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from firmware_bridge.doctor import check_gpio, check_tray  # noqa: E402
from vision.doctor import check_calibration, check_camera, check_enrollment  # noqa: E402


def test_camera_check_looks_at_a_live_frame(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_CAMERA", "synthetic:0")
    r = check_camera(tmp_path)
    assert r["status"] == "ok" and "4 sur 4" in r["fr"]
    monkeypatch.setenv("COMPANION_CAMERA", "synthetic:4")  # a tray lit with glare
    r = check_camera(tmp_path)
    assert r["status"] == "warn" and "diffuser" in r["fix"]
    import cv2
    import numpy as np

    (tmp_path / "blank").mkdir()
    cv2.imwrite(str(tmp_path / "blank" / "a.png"), np.full((240, 320, 3), 120, np.uint8))
    monkeypatch.setenv("COMPANION_CAMERA", "folder:" + str(tmp_path / "blank"))
    r = check_camera(tmp_path)
    assert r["status"] == "warn" and "0 of 4" in r["en"] and "markers" in r["fix"]
    monkeypatch.setenv("COMPANION_CAMERA", "none")
    assert check_camera(tmp_path)["status"] == "warn"
    monkeypatch.setenv("COMPANION_CAMERA", "folder:" + str(tmp_path / "nothing"))
    r = check_camera(tmp_path)
    assert r["status"] == "fail" and r["fix"]


def test_calibration_and_enrollment_checks(tmp_path) -> None:
    from vision.calibration import calibrate
    from vision.synth import render_tray

    assert check_calibration(tmp_path)["status"] == "warn"
    assert check_enrollment(tmp_path)["status"] == "warn"
    calibrate(render_tray(2, objects=[]).background).save(tmp_path / "vision")
    r = check_calibration(tmp_path)
    assert r["status"] == "ok" and "4" in r["en"]
    (tmp_path / "vision" / "calibration.json").write_text("{", encoding="utf-8")
    assert check_calibration(tmp_path)["status"] == "fail"


def test_tray_check_talks_to_the_tray(tmp_path, monkeypatch) -> None:
    from firmware_bridge.emulator import TrayEmulator

    monkeypatch.setenv("COMPANION_TRAY", str(tmp_path / "no-such-port"))
    assert check_tray(tmp_path)["status"] == "warn"
    with TrayEmulator() as emu:
        monkeypatch.setenv("COMPANION_TRAY", emu.port)
        r = check_tray(tmp_path)
    assert r["status"] == "ok" and "protocol" in r["en"]
    monkeypatch.setenv("COMPANION_TRAY", "none")
    assert check_tray(tmp_path)["status"] == "ok"
    assert check_gpio(tmp_path)["status"] in ("ok", "warn", "fail")  # depends on the machine; never raises


def test_the_enrollment_check_names_symbol_dice_enrolled_before_the_current_network(tmp_path) -> None:
    """Vectors of another glyph network are ignored (the templates alone read those
    faces): the check says which symbol dice to enroll again, in both languages."""
    from vision.enroll import ENROLLMENT_FILE, Enrollment, default_enrollment

    path = tmp_path / "vision" / ENROLLMENT_FILE
    default_enrollment().save(path)  # the shipped store: vectors of the installed network
    assert Enrollment.load(path).without_vectors() == []
    assert "symbol" not in check_enrollment(tmp_path)["en"]
    old = Enrollment.load(path)
    old.embed_model = "another-net"  # as a store made before a retraining
    old.save(path)
    assert Enrollment.load(path).without_vectors() == ["adversaire", "epreuve", "lieu", "recompense", "sentence"]
    r = check_enrollment(tmp_path)
    assert r["status"] == "warn"
    assert "symbol dice enrolled before the current network: adversaire, epreuve, lieu" in r["en"]
    assert "dés à symboles appris avant le réseau actuel" in r["fr"]
    assert "enroll adversaire" in r["fix"] and "refaites adversaire" in r["fix_fr"]


def test_the_enrollment_check_names_symbol_dice_enrolled_before_the_ink_check(tmp_path) -> None:
    """A store made before the views kept their ink maps (vision.glyph_ink) still reads,
    without the look at the ink: the check says which symbol dice to enroll again."""
    import numpy as np

    from vision.enroll import ENROLLMENT_FILE, Enrollment, default_enrollment

    path = tmp_path / "vision" / ENROLLMENT_FILE
    default_enrollment().save(path)
    assert Enrollment.load(path).without_ink() == []
    old = Enrollment.load(path)
    rows = [i for i, lab in enumerate(old.label) if old.classes[int(lab)][0] in ("lieu", "sentence")]
    old.emb_ink[rows] = np.nan  # as saved before the maps were kept
    old.save(path)
    assert Enrollment.load(path).without_ink() == ["lieu", "sentence"]
    r = check_enrollment(tmp_path)
    assert r["status"] == "warn" and "symbol dice enrolled before the ink check: lieu, sentence" in r["en"]
    assert "vérification du dessin des faces : lieu, sentence" in r["fr"]
    assert "enroll lieu, sentence again" in r["fix"] and "refaites lieu, sentence" in r["fix_fr"]


def test_the_enrollment_check_names_numeral_dice_enrolled_before_the_current_network(tmp_path) -> None:
    """The players' d10 views settle on a plain photo what the numeral networks hesitate
    over (vision.numerals.players_pick) only with vectors of the installed glyph network:
    the check says which numeral dice to enroll again, in both languages."""
    from vision.enroll import ENROLLMENT_FILE, Enrollment, default_enrollment

    import copy

    path = tmp_path / "vision" / ENROLLMENT_FILE
    store = copy.deepcopy(default_enrollment())  # the shipped store is shared: never changed in place
    for kind in store.kinds():
        if kind != "d10":
            store.remove(kind)
    store.source = "user"
    store.save(path)
    assert "numeral" not in check_enrollment(tmp_path)["en"]
    old = Enrollment.load(path)
    old.embed_model = "another-net"
    old.save(path)
    assert Enrollment.load(path).without_vectors() == [] and Enrollment.load(path).without_vectors(["d10"]) == ["d10"]
    r = check_enrollment(tmp_path)
    assert r["status"] == "warn" and "numeral dice enrolled before the current network: d10" in r["en"]
    assert "dés à chiffres appris avant le réseau actuel : d10" in r["fr"]
    assert "enroll d10 again" in r["fix"] and "refaites d10" in r["fix_fr"]
    d6 = copy.deepcopy(default_enrollment())  # pip d6 views with stale vectors: no numeral warning
    for kind in d6.kinds():
        if kind != "d6":
            d6.remove(kind)
    d6.source, d6.embed_model = "user", "another-net"
    d6.save(path)
    assert "numeral" not in check_enrollment(tmp_path)["en"]


def test_the_enrollment_check_names_gems_enrolled_before_their_plain_photo_colour(tmp_path) -> None:
    """Gems enrolled before each view kept its colour as a plain photo measures it are
    read on such a photo by the shipped candy colours: the check names them (not the
    clear temps gem, which keeps none), in both languages, until enrolled again."""
    import copy

    import numpy as np

    from vision.enroll import ENROLLMENT_FILE, Enrollment, default_enrollment

    path = tmp_path / "vision" / ENROLLMENT_FILE
    store = copy.deepcopy(default_enrollment())  # rendered gem views, no plain colour: an older store's state
    for kind in store.kinds():
        if kind != "gem":
            store.remove(kind)
    store.source = "user"
    store.save(path)
    r = check_enrollment(tmp_path)
    names = "automne, ete, hiver, printemps, rupture"
    assert r["status"] == "warn" and f"or with nothing white in view): {names}" in r["en"]
    assert r["en"].count("gems with no colour measured for a photo with no calibration") == 1
    assert f"ou sans rien de blanc en vue) : {names}" in r["fr"] and "white card" in r["fix"]
    assert "enroll the gems" in r["fix"] and "refaites les gemmes" in r["fix_fr"]
    fresh = Enrollment.load(path)
    fresh.gem_plain = np.tile(np.array([[60.0, 20.0, 20.0]], np.float32), (len(fresh), 1))
    fresh.save(path)
    assert "plain photo" not in check_enrollment(tmp_path)["en"]
