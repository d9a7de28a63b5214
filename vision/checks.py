"""What the calibration wizard and ``companion doctor`` check on a live frame, and the
calibration and enrollment steps the tablet drives.

- :func:`preview_jpeg`: a live frame, shrunk, for the wizard's preview;
- :func:`frame_checks`: the four markers, the focus (variance of the Laplacian of the
  tray area) and the light (mean level, share of blown-out pixels: glare on
  translucent dice reads as a face of white).
- :func:`save_calibration`: markers + empty tray -> ``calibration.json`` and the
  background in the vision folder (the application reloads the reader).
- :func:`enroll_face`: one die (or gem) in the tray (the one tapped when there are several),
  its kind and face -> one more
  template in ``enrollment.npz`` in the vision folder (the application reloads the reader).
- :func:`enrollment_progress`: views per face against :data:`TARGET_VIEWS`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .calibration import calibrate, detect_markers
from .catalog import FACES, parse_face
from .enroll import ENROLLMENT_FILE, Enrollment
from .enroll_photos import enroll_frame
from .faces import INK_SIZE

__all__ = ["preview_jpeg", "frame_checks", "save_calibration", "enroll_face", "enrollment_progress", "enrolled_views_png", "TARGET_VIEWS",
           "FOCUS_MIN", "GLARE_MAX"]

TARGET_VIEWS = 3  # views per face for a good enrollment
FOCUS_MIN = 60.0  # variance of the Laplacian below this: blurred
GLARE_MAX = 0.02  # share of saturated pixels above this: glare
DARK_MIN, BRIGHT_MAX = 60.0, 200.0


def preview_jpeg(frame: Any, width: int = 800) -> bytes:
    """A live frame for the wizard's preview: at most ``width`` pixels wide, as JPEG."""
    h, w = frame.shape[:2]
    scale = min(1.0, width / max(w, 1))
    if scale < 1:
        frame = cv2.resize(frame, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", frame, [int(cv2.IMWRITE_JPEG_QUALITY), 75])
    return bytes(buf.tobytes())


def frame_checks(frame: Any) -> dict[str, Any]:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = sorted(int(i) for i in detect_markers(frame))
    focus = float(cv2.Laplacian(grey, cv2.CV_64F).var())
    mean = float(grey.mean())
    glare = float((grey >= 250).mean())
    checks = {
        "markers": {"ok": len(found) >= 4, "found": found,
                    "fr": f"Repères trouvés : {len(found)} sur 4" + ("" if len(found) >= 4 else " — dégagez les coins du plateau"),
                    "en": f"Markers found: {len(found)} of 4" + ("" if len(found) >= 4 else " — clear the tray corners")},
        "focus": {"ok": focus >= FOCUS_MIN, "value": round(focus, 1),
                  "fr": "Netteté correcte" if focus >= FOCUS_MIN else "Image floue : réglez la mise au point",
                  "en": "Focus fine" if focus >= FOCUS_MIN else "Blurred: adjust the focus"},
        "light": {"ok": DARK_MIN <= mean <= BRIGHT_MAX and glare <= GLARE_MAX, "mean": round(mean, 1),
                  "glare": round(glare, 4),
                  "fr": ("Trop sombre : allumez l'anneau LED" if mean < DARK_MIN else
                         "Trop clair : baissez la lumière" if mean > BRIGHT_MAX else
                         "Reflets : diffusez la lumière (calque sur l'anneau)" if glare > GLARE_MAX else "Lumière correcte"),
                  "en": ("Too dark: switch the LED ring on" if mean < DARK_MIN else
                         "Too bright: dim the light" if mean > BRIGHT_MAX else
                         "Glare: diffuse the light (paper over the ring)" if glare > GLARE_MAX else "Light fine")},
    }
    checks["ok"] = all(c["ok"] for c in checks.values() if isinstance(c, dict))
    return checks


def save_calibration(vision_dir: Path, frame: Any) -> dict[str, Any]:
    try:
        cal = calibrate(frame)
    except ValueError as exc:  # CalibrationError: which markers are missing
        raise ValueError(f"Repères introuvables : dégagez les quatre coins du plateau / {exc}") from None
    cal.save(vision_dir)
    return {"ok": True, "markers": list(cal.markers_found), "error_px": round(cal.reprojection_px, 2)}


def _parse_box(box: Any) -> tuple[int, int, int, int] | None:
    """``[x, y, w, h]`` in frame pixels (a tap or a drawn box on the tablet), or None."""
    if box is None:
        return None
    if not isinstance(box, (list, tuple)) or len(box) != 4 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box):
        raise ValueError("Zone invalide : [x, y, largeur, hauteur] en pixels / bad box: [x, y, w, h] in pixels")
    x, y, w, h = (int(v) for v in box)
    if min(x, y) < 0 or min(w, h) <= 0 or max(x, y, w, h) > 100_000:
        raise ValueError("Zone hors de l'image / box outside the frame")
    return x, y, w, h


def tap_box(at: Any, frame: Any) -> tuple[int, int, int, int] | None:
    """The box around a tap at ``[x, y]`` (fractions of the photo's width and height):
    a square of a tenth of the frame's shorter side, where the object's centre must lie."""
    if at is None:
        return None
    if not isinstance(at, (list, tuple)) or len(at) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v <= 1 for v in at):
        raise ValueError("Point touché invalide : [x, y] entre 0 et 1 / bad tap point: [x, y] between 0 and 1")
    h, w = frame.shape[:2]
    side = max(8, min(w, h) // 10)
    x, y = int(at[0] * w), int(at[1] * h)
    return max(0, x - side // 2), max(0, y - side // 2), side, side


def enroll_face(vision_dir: Path, frame: Any, kind: str, face: Any, box: Any = None, at: Any = None) -> dict[str, Any]:
    """One more view of ``kind``/``face``: the object the players tapped (``at``) or boxed
    (``box``), else the only (or clearly largest) object in the tray."""
    path = vision_dir / ENROLLMENT_FILE
    store = Enrollment.load(path) if path.exists() else Enrollment()
    try:
        chosen = _parse_box(box) if box is not None else tap_box(at, frame)
        alike = enroll_frame(store, frame, kind, face, box=chosen)
    except ValueError as exc:  # EnrollmentError: which object is meant, unknown face
        msg = str(exc)
        if msg.startswith("found no object"):
            raise ValueError(f"Aucun objet dans le plateau : posez le dé ou la gemme sous la caméra / {msg}") from None
        if msg.startswith("found "):
            n = msg.split()[1]
            raise ValueError(f"{n} objets possibles dans le plateau : touchez sur la photo celui à "
                             f"apprendre, ou n'en laissez qu'un / {msg}") from None
        if msg.startswith("no object centred"):
            raise ValueError(f"Aucun objet à l'endroit touché : touchez le centre du dé / {msg}") from None
        if msg.startswith("the object picked has no colour"):
            raise ValueError("L'objet choisi n'a pas de couleur (le plateau, une ombre ?) : photographiez la gemme "
                             f"seule, ou touchez-la ; la gemme transparente s'apprend sous « temps » / {msg}") from None
        if msg.startswith("the object at"):
            raise ValueError("L'objet vu n'a pas pu être détouré du fond : posez-le sur un fond plus uni, ou "
                             f"calibrez le plateau (étape 2) / {msg}") from None
        raise
    store.save(path)
    out = enrollment_progress(vision_dir)
    if alike:
        names = ", ".join(str(f) for f, _ in alike)
        out["warning"] = (f"Cette face ressemble à : {names} — le lecteur ne saura pas toujours les distinguer "
                          f"(ces dés resteront à confirmer) / This face looks like: {names} — the reader cannot "
                          "always tell them apart (such dice will stay pending)")
        out["look_alikes"] = [[f, round(s, 3)] for f, s in alike]
    return out


def enrolled_views_png(vision_dir: Path, kind: str, face: Any) -> bytes | None:
    """The learnt views of one face as a PNG strip (what the reader looks for: the ink
    of each view, dark on light; for a coloured gem, its colour as a plain photo
    measures it, a disc, so that a view of the wrong object stands out), or None when
    that face has none."""
    path = vision_dir / ENROLLMENT_FILE
    if not path.exists():
        return None
    try:
        f = parse_face(kind, face)
    except ValueError:
        return None
    store = Enrollment.load(path)
    if (kind, f) not in store.classes:
        return None
    rows = np.nonzero(store.label == store.classes.index((kind, f)))[0]
    tiles = []
    for i in rows[:12]:
        if kind == "gem" and np.isfinite(store.gem_plain[i]).all():
            tile = _colour_disc(store.gem_plain[i], 2 * INK_SIZE)
        else:
            m = store.ink[i].reshape(INK_SIZE, INK_SIZE)
            m = (m - m.min()) / max(float(m.max() - m.min()), 1e-6)
            tile = cv2.cvtColor(cv2.resize((255 - 230 * m).astype(np.uint8), (2 * INK_SIZE, 2 * INK_SIZE)),
                                cv2.COLOR_GRAY2BGR)
        tiles.append(cv2.copyMakeBorder(tile, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=(200, 200, 200)))
    ok, buf = cv2.imencode(".png", np.hstack(tiles))
    return buf.tobytes() if ok else None


def _colour_disc(lab: np.ndarray, size: int) -> np.ndarray:
    """A ``size`` x ``size`` BGR tile: a disc of the white-balanced CIE Lab colour
    ``lab`` (as :func:`vision.gem_colour.gem_colours` measures it) on light grey."""
    bgr = cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_LAB2BGR).reshape(3)
    tile = np.full((size, size, 3), 235, np.uint8)
    colour = tuple(float(v) for v in np.clip(bgr * 255.0, 0, 255))
    cv2.circle(tile, (size // 2, size // 2), int(size * 0.4), colour, -1, lineType=cv2.LINE_AA)
    return tile


def enrollment_progress(vision_dir: Path) -> dict[str, Any]:
    path = vision_dir / ENROLLMENT_FILE
    counts: dict[tuple[str, Any], int] = {}
    if path.exists():
        try:
            counts = Enrollment.load(path).counts()
        except ValueError:
            counts = {}
    kinds = []
    done = total = 0
    for kind, faces in FACES.items():
        views = [counts.get((kind, f), 0) for f in faces]
        kinds.append({"kind": kind, "faces": [{"face": f, "views": v} for f, v in zip(faces, views)]})
        total += len(faces) * TARGET_VIEWS
        done += sum(min(TARGET_VIEWS, v) for v in views)
    return {"target": TARGET_VIEWS, "kinds": kinds, "progress": round(done / total, 4) if total else 0.0}
