"""``companion doctor`` checks for the camera side: camera (with markers, focus and light
on a live frame), calibration, enrolled dice. Plugged in through
``companion.app.doctor.EXTRA_CHECKS``; each takes the table's data folder and returns
``{"status": "ok"|"warn"|"fail", "fr", "en", "fix"}``. Never raises for a missing device.

The vision modules (OpenCV, numpy) are imported inside the checks, not at the top: a
missing or broken OpenCV is then a finding of ``companion doctor``, not a check that
silently disappears because this module cannot be imported.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["check_camera", "check_calibration", "check_enrollment"]


def _r(status: str, fr: str, en: str, fix: str = "", fix_fr: str = "") -> dict[str, Any]:
    """A finding: ``fix`` is the English hint, ``fix_fr`` the French one."""
    return {"status": status, "fr": fr, "en": en, "fix": fix, "fix_fr": fix_fr}


def check_camera(data_dir: Path) -> dict[str, Any]:
    from .camera import resolve_camera_spec

    raw = os.environ.get("COMPANION_CAMERA") or "auto"
    spec = resolve_camera_spec(raw)
    if spec is None:
        return _r("warn", "Aucune caméra trouvée : saisie manuelle seulement",
                  "No camera found: manual entry only",
                  "Pi camera: sudo apt install python3-picamera2, ribbon cable seated, test with `rpicam-hello`; "
                  "USB webcam: check `ls /dev/video*`; then set COMPANION_CAMERA or --camera",
                  "caméra du Pi : sudo apt install python3-picamera2, nappe bien enfoncée, essai avec `rpicam-hello` ; "
                  "webcam USB : voir `ls /dev/video*` ; puis réglez COMPANION_CAMERA ou --camera")
    try:
        from .sources import open_source

        src = open_source(spec)
    except Exception as exc:  # noqa: BLE001 - a finding, not a crash
        busy = "busy" in str(exc).lower() or "resource" in str(exc).lower()
        return _r("fail", f"Caméra {spec} inutilisable : {exc}", f"Camera {spec} unusable: {exc}",
                  "the server holds it: `sudo systemctl stop companion` before the doctor" if busy else
                  "check the cable, that you are in the `video` group (`groups`), and `rpicam-hello` / `v4l2-ctl --list-devices`",
                  "le serveur la tient : `sudo systemctl stop companion` avant le docteur" if busy else
                  "vérifiez le câble, que vous êtes dans le groupe `video` (`groups`), et `rpicam-hello` / `v4l2-ctl --list-devices`")
    try:
        frame = src.read()
    except Exception as exc:  # noqa: BLE001
        return _r("fail", f"La caméra {spec} ne donne pas d'image : {exc}", f"Camera {spec} gives no frame: {exc}",
                  "unplug and plug it again; check the power supply (5 V 5 A on a Pi 5)",
                  "débranchez-la et rebranchez-la ; vérifiez l'alimentation (5 V 5 A sur un Pi 5)")
    finally:
        try:
            src.close()
        except Exception:  # noqa: BLE001
            pass
    from .checks import frame_checks

    c = frame_checks(frame)
    bad = [k for k in ("markers", "focus", "light") if not c[k]["ok"]]
    fr = f"Caméra {spec} : " + " ; ".join(c[k]["fr"] for k in ("markers", "focus", "light"))
    en = f"Camera {spec}: " + "; ".join(c[k]["en"] for k in ("markers", "focus", "light"))
    if not bad:
        return _r("ok", fr, en)
    fixes = {"markers": "print the markers (`companion vision markers`), glue them flat in the tray corners, all in view",
             "focus": "turn the lens ring (Camera Module 3: autofocus; others: focus at the tray distance)",
             "light": "switch the LED ring on and put a diffuser (tracing paper) over it; no direct sun"}
    fixes_fr = {"markers": "imprimez les repères (`companion vision markers`), collez-les à plat aux coins du plateau, tous visibles",
                "focus": "tournez la bague de l'objectif (Camera Module 3 : mise au point auto ; autres : réglée à la distance du plateau)",
                "light": "allumez l'anneau de LED et posez un diffuseur (papier calque) dessus ; pas de soleil direct"}
    return _r("warn", fr, en, "; ".join(fixes[k] for k in bad), " ; ".join(fixes_fr[k] for k in bad))


def check_calibration(data_dir: Path) -> dict[str, Any]:
    from .calibration import CALIBRATION_FILE, load_calibration

    folder = Path(data_dir) / "vision"
    if not (folder / CALIBRATION_FILE).exists():
        return _r("warn", "Plateau pas encore calibré", "Tray not calibrated yet",
                  "open /calibrate on the tablet (or `companion vision calibrate --data DATA/vision`)",
                  "ouvrez /calibrate sur la tablette (ou `companion vision calibrate --data DATA/vision`)")
    try:
        cal = load_calibration(folder)
    except ValueError as exc:
        return _r("fail", f"Calibration illisible : {exc}", f"Unreadable calibration: {exc}", "calibrate again on the tablet",
                  "calibrez à nouveau sur la tablette")
    bg = "avec" if cal.background is not None else "sans"
    msg_fr = f"Calibré ({len(cal.markers_found)} repères, erreur {cal.reprojection_px:.1f} px, {bg} plateau vide)"
    msg_en = (f"Calibrated ({len(cal.markers_found)} markers, error {cal.reprojection_px:.1f} px, "
              f"{'with' if cal.background is not None else 'without'} empty tray)")
    if cal.background is None or len(cal.markers_found) < 4:
        return _r("warn", msg_fr, msg_en, "calibrate again with the four markers in view and the tray empty",
                  "calibrez à nouveau, les quatre repères visibles et le plateau vide")
    return _r("ok", msg_fr, msg_en)


def check_enrollment(data_dir: Path) -> dict[str, Any]:
    from .catalog import FACES
    from .enroll import ENROLLMENT_FILE, Enrollment
    from .numerals import DEFAULT_KINDS

    path = Path(data_dir) / "vision" / ENROLLMENT_FILE
    if not path.exists():
        return _r("warn", "Dés pas encore appris : modèle de démonstration utilisé",
                  "Dice not enrolled yet: the demo model is used",
                  "teach your own dice and gems in /calibrate (step 3): a few views per face",
                  "apprenez vos dés et gemmes dans /calibrate (étape 3) : quelques vues par face")
    try:
        store = Enrollment.load(path)
        counts = store.counts()
        stale = store.without_vectors()
        uninked = store.without_ink()
        # the numeral kinds the players' views help on a plain photo (not the pip d6)
        numerals = store.without_vectors([k for k in FACES if k in DEFAULT_KINDS])
        gems = store.gems_without_plain()
    except ValueError as exc:
        return _r("fail", f"Apprentissage illisible : {exc}", f"Unreadable enrollment: {exc}", "enroll again on the tablet",
                  "refaites l'apprentissage sur la tablette")
    from .checks import TARGET_VIEWS

    done = [k for k, faces in FACES.items() if all(counts.get((k, f), 0) >= TARGET_VIEWS for f in faces)]
    part = [k for k, faces in FACES.items() if k not in done and any(counts.get((k, f), 0) for f in faces)]
    fr = f"Appris : {', '.join(done) or 'aucun'}" + (f" ; incomplets : {', '.join(part)}" if part else "")
    en = f"Enrolled: {', '.join(done) or 'none'}" + (f"; incomplete: {', '.join(part)}" if part else "")
    # views made before a part of the reader that needs them: (which, French, English, fix, fix in French)
    older = [
        (stale, "dés à symboles appris avant le réseau actuel", "symbol dice enrolled before the current network",
         "enroll {} again in /calibrate (step 3): the glyph network reads them only from new views",
         "refaites {} dans /calibrate (étape 3) : le réseau des symboles ne lit que les nouvelles vues"),
        # read by the embedding without the look at the ink: more wrong reads of near faces
        (uninked, "dés à symboles appris avant la vérification du dessin des faces",
         "symbol dice enrolled before the ink check",
         "enroll {} again in /calibrate (step 3): each read is then checked against the face's ink",
         "refaites {} dans /calibrate (étape 3) : chaque lecture sera vérifiée sur le dessin de la face"),
        # on a plain photo their views cannot settle what the numeral networks hesitate over
        (numerals, "dés à chiffres appris avant le réseau actuel", "numeral dice enrolled before the current network",
         "enroll {} again in /calibrate (step 3): on a photo with no calibration, your views then settle the dice "
         "the networks are unsure of",
         "refaites {} dans /calibrate (étape 3) : sur une photo sans calibration, vos vues trancheront alors les "
         "dés dont les réseaux doutent"),
        # a plain photo reads them by the shipped candy colours
        # (enrolled before 7 December 2026, or on photos with nothing white in view)
        (gems, "gemmes sans couleur mesurée pour une photo sans calibration (apprises avant le 7 décembre 2026, "
               "ou sans rien de blanc en vue)",
         "gems with no colour measured for a photo with no calibration (enrolled before 7 December 2026, or with "
         "nothing white in view)",
         "enroll the gems {} again in /calibrate (step 3) with something white in view (a white card beside them): "
         "a photo with no calibration then reads them by their own colours",
         "refaites les gemmes {} dans /calibrate (étape 3) avec quelque chose de blanc en vue (une carte blanche à "
         "côté) : une photo sans calibration les lira alors par leurs propres couleurs"),
    ]
    for which, what_fr, what_en, fix, fix_fr in older:
        if which:
            names = ", ".join(which)
            return _r("warn", fr + f" ; {what_fr} : {names}", en + f"; {what_en}: {names}",
                      fix.format(names), fix_fr.format(names))
    return _r("ok" if done and not part else "warn", fr, en,
              "" if not part else f"finish {', '.join(part)} in /calibrate (step 3): {TARGET_VIEWS} views per face",
              "" if not part else f"terminez {', '.join(part)} dans /calibrate (étape 3) : {TARGET_VIEWS} vues par face")
