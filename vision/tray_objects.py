"""Objects on a calibrated tray: found against the empty tray, read by the enrolled faces.

This is the part of :class:`vision.reader.Reader` that runs when the frame is a known
tray (a saved calibration, or the four markers in view):

1. :func:`prepare` brings the frame to the top-down tray image (known px per mm) and finds
   the objects in it (:mod:`vision.segment`) against the calibration's empty-tray frame
   when there is one; sizes in millimetres reject pips, crumbs and the tray's edges;
2. :func:`read_objects` classifies each one against the enrolled faces
   (:mod:`vision.faces`): die kind and face, or gem, whose colour comes from
   :mod:`vision.gems`. Each result keeps its blob's place in the input frame, so that the
   reader can hand a d6 to the pip networks.

An object is ``pending`` (value ``None``, candidates listed, ``kind`` the best guess so
the tablet can ask "which face of this d12?") when its score is low, when its two best
candidates are close, or when the frame edge cuts it.

On a plain photo (no calibration, no markers) nothing here runs: segmentation without
an empty tray counts wood grain, glitter and tray walls as objects, so the reader uses
only its learned detectors there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .calibration import Calibration, auto_calibration
from .enroll import Enrollment
from .faces import ClassifyParams, classify, extract
from .gems import GemParams, classify_gem, gem_colour_features
from .result import STATUS_PENDING, STATUS_READ, ObjectRead
from .segment import Blob, find_objects

__all__ = ["prepare", "read_objects", "TrayView", "TrayObject", "MODE_CALIBRATED", "MODE_MARKERS", "MODE_PHOTO"]

MODE_CALIBRATED = "calibrated"
MODE_MARKERS = "markers"
MODE_PHOTO = "photo"


@dataclass
class TrayView:
    """The image objects are found in, its empty tray, the objects, and the way back to
    input pixels."""

    image: np.ndarray
    background: np.ndarray
    blobs: list[Blob]
    calibration: Calibration | None
    mode: str  # MODE_CALIBRATED, MODE_MARKERS or MODE_PHOTO

    def box_in_input(self, blob: Blob) -> tuple[int, int, int, int]:
        if self.calibration is None:
            return blob.box
        x, y, w, h = blob.box
        pts = self.calibration.to_image(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float))
        x0, y0 = np.floor(pts.min(axis=0))
        x1, y1 = np.ceil(pts.max(axis=0))
        return int(x0), int(y0), int(x1 - x0), int(y1 - y0)

    def side_in_input(self, blob: Blob) -> float:
        """The object's side (square root of its area) in input pixels."""
        side = math.sqrt(max(blob.area, 1.0))
        if self.calibration is None:
            return side
        x, y, w, h = blob.box
        bx, by, bw, bh = self.box_in_input(blob)
        return side * math.sqrt(max(bw * bh, 1) / max(w * h, 1))


@dataclass(frozen=True)
class TrayObject:
    """One object read by the enrolled faces, with its centre and side in input pixels."""

    read: ObjectRead
    centre: tuple[float, float]
    side: float
    cut: bool = False  # the frame edge cuts it: pending, whatever else is said of it


def prepare(image: np.ndarray, calibration: Calibration | None = None, *, look_for_markers: bool = True,
            segment_photo: bool = True, close_up: bool = False) -> TrayView:
    """Top-down tray image (when possible) and the objects in it.

    A calibration made on frames of another size is not used (the camera changed).
    ``look_for_markers``: without a saved calibration, look for the four markers in this
    frame. ``segment_photo``: find objects in a plain photo as well (enrollment does; the
    reader does not); ``close_up``: see :func:`vision.segment.find_objects`."""
    cal, mode = calibration, MODE_CALIBRATED
    if cal is not None and tuple(cal.image_size) != (int(image.shape[1]), int(image.shape[0])):
        # a frame of another size (another camera, another resolution) is not the frame
        # the tray was calibrated on: its homography would warp it to nonsense
        cal = None
    if cal is None and look_for_markers:
        cal, mode = auto_calibration(image), MODE_MARKERS
    if cal is None:
        if not segment_photo:
            return TrayView(image, image, [], None, MODE_PHOTO)
        blobs, bg = find_objects(image, close_up=close_up)
        return TrayView(image, bg, blobs, None, MODE_PHOTO)
    tray = cal.warp(image)
    bg_img = cal.background if cal.background is not None and cal.background.shape == tray.shape else None
    blobs, bg = find_objects(tray, bg_img, px_per_mm=cal.px_per_mm, exclude=cal.marker_mask())
    return TrayView(tray, bg, blobs, cal, mode)


def read_objects(view: TrayView, enrollment: Enrollment, params: ClassifyParams = ClassifyParams(),
                 gem_params: GemParams = GemParams()) -> list[TrayObject]:
    """Every object of ``view`` read by the enrolled faces and colours."""
    gem_samples, gem_labels = enrollment.gem_samples()
    out: list[TrayObject] = []
    for blob in view.blobs:
        feat = extract(view.image, view.background, blob)
        m = classify(feat, enrollment, params)
        box = view.box_in_input(blob)
        kind, conf, pending = m.kind, m.confidence, m.pending or blob.cut
        value: int | str | None = m.face
        cands: tuple[tuple[int | str, float], ...] = tuple((f, s) for k, f, s in m.candidates if k == kind)
        if kind == "gem" and not pending:
            g = classify_gem(gem_colour_features(feat), gem_samples, gem_labels, gem_params)
            value, conf, pending = g.colour, min(conf, g.confidence), g.pending
            cands = tuple(g.candidates)
        obj = ObjectRead(kind, None if pending else value, box, float(conf),
                         STATUS_PENDING if pending else STATUS_READ, cands)
        centre = (box[0] + box[2] / 2.0, box[1] + box[3] / 2.0)
        out.append(TrayObject(obj, centre, view.side_in_input(blob), blob.cut))
    return out
