"""Tray calibration: four ArUco markers give a top-down tray image of fixed scale.

Calibrating takes one photo of the EMPTY tray with its four markers (see
:mod:`vision.markers`): the markers' corners give the homography from camera pixels to
tray millimetres, and the warped photo is kept as the background that segmentation
compares each frame with. Lock the camera's exposure and white balance before (the
frame sources do it in :meth:`lock_exposure`), so the background stays comparable.

The calibration is saved in a data folder as ``calibration.json`` (homography, scale,
layout, date) and ``background.png`` (lossless). Calibration is optional: a photo that
shows the markers is calibrated on the fly (:func:`auto_calibration`), and a photo with no
markers is read as it is.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from .errors import CalibrationError
from .markers import ARUCO_DICT, DEFAULT_LAYOUT, MarkerLayout

__all__ = ["Calibration", "detect_markers", "calibrate", "auto_calibration", "load_calibration",
           "DEFAULT_PX_PER_MM", "CALIBRATION_FILE", "BACKGROUND_FILE"]

DEFAULT_PX_PER_MM = 4.0
CALIBRATION_FILE = "calibration.json"
BACKGROUND_FILE = "background.png"


#: A frame longer than this is first searched for markers at half its size
#: (:func:`detect_markers` with ``quick``): a plain camera frame with no marker then costs
#: a quarter of the search (2028 x 1520: 10 -> 3 ms).
QUICK_ABOVE = 1280


def _aruco_ids(grey: np.ndarray, refine: bool) -> tuple[Any, Any]:
    params = cv2.aruco.DetectorParameters()
    if refine:
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), params)
    corners, ids, _ = det.detectMarkers(grey)
    return corners, ids


def detect_markers(frame: np.ndarray, quick: bool = False) -> dict[int, np.ndarray]:
    """Markers 0-3 found in ``frame``: id -> 4x2 corners (TL, TR, BR, BL) in pixels.

    ``quick`` (the reader's look at every frame): a frame longer than
    :data:`QUICK_ABOVE` is searched at half size first, and at full size (the corners
    as precise as without ``quick``) only if a marker 0-3 shows there."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if quick and max(grey.shape[:2]) > QUICK_ABOVE:
        half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        _, ids = _aruco_ids(half, refine=False)
        if ids is None or not any(0 <= int(i) <= 3 for i in ids.ravel()):
            return {}
    corners, ids = _aruco_ids(grey, refine=True)
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel()):
        if 0 <= int(i) <= 3 and int(i) not in out:
            out[int(i)] = c.reshape(4, 2).astype(np.float64)
    return out


@dataclass
class Calibration:
    """A homography from camera pixels to a top-down tray image of ``px_per_mm``."""

    layout: MarkerLayout
    px_per_mm: float
    image_to_tray: np.ndarray
    image_size: tuple[int, int]
    background: np.ndarray | None = None
    created: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S"))
    markers_found: tuple[int, ...] = (0, 1, 2, 3)
    reprojection_px: float = 0.0

    @property
    def tray_size(self) -> tuple[int, int]:
        w, h = self.layout.tray_mm
        return int(round(w * self.px_per_mm)), int(round(h * self.px_per_mm))

    def warp(self, frame: np.ndarray) -> np.ndarray:
        """The top-down tray image of ``frame``."""
        return cv2.warpPerspective(frame, self.image_to_tray, self.tray_size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        """Tray-image points (N x 2) back to camera pixels."""
        inv = np.linalg.inv(self.image_to_tray)
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), inv).reshape(-1, 2)

    def marker_mask(self, grow_mm: float = 3.0) -> np.ndarray:
        """The paper squares of the markers in the tray image (255), to ignore."""
        w, h = self.tray_size
        m = np.zeros((h, w), np.uint8)
        half = self.layout.paper_mm / 2 + grow_mm
        for cx, cy in self.layout.marker_centres_mm():
            x0, y0 = int((cx - half) * self.px_per_mm), int((cy - half) * self.px_per_mm)
            x1, y1 = int((cx + half) * self.px_per_mm), int((cy + half) * self.px_per_mm)
            m[max(0, y0):y1, max(0, x0):x1] = 255
        # the tray walls: a thin band along the border
        b = max(1, int(2.0 * self.px_per_mm))
        m[:b] = 255
        m[-b:] = 255
        m[:, :b] = 255
        m[:, -b:] = 255
        return m

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "layout": self.layout.to_json(),
            "px_per_mm": self.px_per_mm,
            "image_to_tray": self.image_to_tray.tolist(),
            "image_size": list(self.image_size),
            "created": self.created,
            "markers_found": list(self.markers_found),
            "reprojection_px": round(self.reprojection_px, 3),
            "background": BACKGROUND_FILE if self.background is not None else None,
        }

    def save_background(self, folder: Path) -> None:
        """Replace ``background.png`` in ``folder`` atomically (a refreshed reference)."""
        if self.background is None:
            return
        folder = Path(folder)
        tmp = folder / ("." + BACKGROUND_FILE + ".tmp.png")
        if not cv2.imwrite(str(tmp), self.background):
            raise OSError(f"cannot write {tmp}")
        tmp.replace(folder / BACKGROUND_FILE)

    def save(self, folder: Path) -> Path:
        """Write ``calibration.json`` (and ``background.png``) into ``folder``."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.save_background(folder)
        path = folder / CALIBRATION_FILE
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=2), encoding="utf-8")
        tmp.replace(path)
        return path


def load_calibration(folder: Path) -> Calibration:
    """Read a calibration saved by :meth:`Calibration.save`."""
    folder = Path(folder)
    path = folder / CALIBRATION_FILE if folder.is_dir() else folder
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
        H = np.array(obj["image_to_tray"], np.float64)
        if H.shape != (3, 3):
            raise ValueError("homography is not 3x3")
        cal = Calibration(MarkerLayout.from_json(obj["layout"]), float(obj["px_per_mm"]), H,
                          tuple(int(v) for v in obj["image_size"]), None, str(obj.get("created", "")),  # type: ignore[arg-type]
                          tuple(obj.get("markers_found", (0, 1, 2, 3))), float(obj.get("reprojection_px", 0)))
    except FileNotFoundError:
        raise CalibrationError(f"no calibration at {path}: run `companion vision calibrate` first") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise CalibrationError(f"unreadable calibration {path}: {exc}") from None
    if obj.get("background"):
        bg = cv2.imread(str(path.parent / obj["background"]), cv2.IMREAD_COLOR)
        if bg is None or (bg.shape[1], bg.shape[0]) != cal.tray_size:
            raise CalibrationError(f"background image missing or of the wrong size in {path.parent}")
        cal.background = bg
    return cal


def _homography(found: dict[int, np.ndarray], layout: MarkerLayout, px_per_mm: float) -> tuple[np.ndarray, float]:
    ref = layout.marker_corners_mm()
    src = np.concatenate([found[i] for i in sorted(found)])
    dst = np.concatenate([ref[i] for i in sorted(found)]) * px_per_mm
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        raise CalibrationError("the markers give no usable homography (are they flat and in order?)")
    proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), H).reshape(-1, 2)
    return H, float(np.sqrt(((proj - dst) ** 2).sum(axis=1)).mean())


def calibrate(frames: np.ndarray | Sequence[np.ndarray], layout: MarkerLayout = DEFAULT_LAYOUT,
              px_per_mm: float = DEFAULT_PX_PER_MM, require: int = 3) -> Calibration:
    """Calibrate from one or more photos of the empty tray (averaged into the background).

    Three markers are enough (12 corners); fewer raise :class:`CalibrationError` naming
    the markers not found.
    """
    if isinstance(frames, np.ndarray):
        frames = [frames]
    if not frames:
        raise CalibrationError("no frame to calibrate from")
    first = frames[0]
    if first is None or first.ndim != 3:
        raise CalibrationError("calibration needs a colour image")
    found = detect_markers(first)
    if len(found) < require:
        missing = [i for i in range(4) if i not in found]
        raise CalibrationError(
            f"markers not found: {', '.join(map(str, missing))} (found {len(found)} of 4); "
            "check they are in view, flat, lit without glare, and in the right corners")
    H, err = _homography(found, layout, px_per_mm)
    if err > 2.0 * px_per_mm:
        raise CalibrationError(f"markers inconsistent with the layout (error {err:.1f} px): wrong tray size or order?")
    cal = Calibration(layout, px_per_mm, H, (first.shape[1], first.shape[0]), None,
                      markers_found=tuple(sorted(found)), reprojection_px=err)
    warped = [cal.warp(f).astype(np.float32) for f in frames if f is not None and f.shape == first.shape]
    cal.background = np.clip(np.mean(warped, axis=0) + 0.5, 0, 255).astype(np.uint8)
    return cal


def auto_calibration(frame: np.ndarray, layout: MarkerLayout = DEFAULT_LAYOUT,
                     px_per_mm: float = DEFAULT_PX_PER_MM) -> Calibration | None:
    """A calibration (without background) from markers visible in this photo, or ``None``."""
    found = detect_markers(frame, quick=True)
    if len(found) < 3:
        return None
    H, err = _homography(found, layout, px_per_mm)
    if err > 2.0 * px_per_mm:
        return None
    return Calibration(layout, px_per_mm, H, (frame.shape[1], frame.shape[0]), None,
                       markers_found=tuple(sorted(found)), reprojection_px=err)
