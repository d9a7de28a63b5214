"""Read a whole tray: find every object, say what it is and what it shows.

:func:`read_tray` is the one entry point: ``read_tray(image, calibration=None,
enrollment=None, d6_reader=None) -> Read``. It

1. brings the photo to a top-down tray image: with the saved calibration, else with the
   markers visible in this photo, else it reads the photo as it is;
2. finds the objects (:mod:`vision.segment`), against the calibration's empty tray when
   there is one;
3. classifies each one against the enrolled faces (:mod:`vision.faces`): die kind and
   face, or gem; gems get their colour from :mod:`vision.gems`;
4. reads d6 with ``d6_reader`` when one is given (a callable taking the BGR crop of one
   die and returning ``(value, confidence)``, e.g. the pip network of ``vision.reader``);
   otherwise with the enrolled d6 faces;
5. marks ``pending`` every object whose confidence is below the threshold, whose two
   best candidates are close, or that is cut by the frame edge: its value is then
   ``None`` and its candidates are listed (its ``kind`` stays the best guess, so the
   tablet can ask "which face of this d12?").

Boxes are in pixels of the input image. A bad image gives a :class:`Read` with ``error``
set, never an exception.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .calibration import Calibration, auto_calibration
from .enroll import Enrollment, default_enrollment
from .faces import ClassifyParams, classify, extract
from .gems import GemParams, classify_gem, gem_colour_features
from .read import STATUS_PENDING, STATUS_READ, ObjectRead, Read
from .segment import Blob, find_objects

__all__ = ["read_tray", "prepare", "TrayView", "D6Reader"]

D6Reader = Callable[[np.ndarray], "tuple[int | None, float]"]


@dataclass
class TrayView:
    """The image objects are found in, its empty tray, the objects, and the way back to
    input pixels."""

    image: np.ndarray
    background: np.ndarray
    blobs: list[Blob]
    calibration: Calibration | None
    mode: str  # "calibrated", "markers" or "photo"

    def box_in_input(self, blob: Blob) -> tuple[int, int, int, int]:
        if self.calibration is None:
            return blob.box
        x, y, w, h = blob.box
        pts = self.calibration.to_image(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float))
        x0, y0 = np.floor(pts.min(axis=0))
        x1, y1 = np.ceil(pts.max(axis=0))
        return int(x0), int(y0), int(x1 - x0), int(y1 - y0)


def prepare(image: np.ndarray, calibration: Calibration | None = None) -> TrayView:
    """Top-down tray image (when possible) and the objects in it."""
    cal, mode = calibration, "calibrated"
    if cal is None:
        cal, mode = auto_calibration(image), "markers"
    if cal is None:
        blobs, bg = find_objects(image)
        return TrayView(image, bg, blobs, None, "photo")
    tray = cal.warp(image)
    bg_img = cal.background if cal.background is not None and cal.background.shape == tray.shape else None
    blobs, bg = find_objects(tray, bg_img, px_per_mm=cal.px_per_mm, exclude=cal.marker_mask())
    return TrayView(tray, bg, blobs, cal, mode)


def _find_d6_reader() -> D6Reader | None:
    """``vision.reader.read_d6_crop`` when the pip reader is installed (optional)."""
    try:
        from . import reader  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - optional module, any import failure means "absent"
        return None
    fn = getattr(reader, "read_d6_crop", None)
    return fn if callable(fn) else None


def read_tray(image: np.ndarray | None, calibration: Calibration | None = None,
              enrollment: Enrollment | None = None, d6_reader: D6Reader | None | bool = None,
              params: ClassifyParams = ClassifyParams(), gem_params: GemParams = GemParams(),
              d6_min_confidence: float = 0.6) -> Read:
    """Read every die and gem in ``image`` (BGR). See the module docstring.

    ``d6_reader``: a callable, ``None`` to look for ``vision.reader.read_d6_crop``, or
    ``False`` to read d6 with the enrolled faces only.
    """
    t0 = time.perf_counter()
    if image is None or not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
        return Read(error="not a colour image", ms=(time.perf_counter() - t0) * 1000)
    size = (int(image.shape[1]), int(image.shape[0]))
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    if float(image[::7, ::7].std()) < 2.0:
        return Read(size=size, error="blank frame (no contrast): is the camera covered or the light off?",
                    ms=(time.perf_counter() - t0) * 1000)
    enr = enrollment if enrollment is not None else default_enrollment()
    reader: D6Reader | None = _find_d6_reader() if d6_reader is None else (d6_reader if callable(d6_reader) else None)
    view = prepare(image, calibration)
    gem_samples, gem_labels = enr.gem_samples()
    objects: list[ObjectRead] = []
    for blob in view.blobs:
        feat = extract(view.image, view.background, blob)
        m = classify(feat, enr, params)
        box = view.box_in_input(blob)
        kind, conf, pending = m.kind, m.confidence, m.pending or blob.cut
        value: int | str | None = m.face
        cands: tuple[tuple[int | str, float], ...] = tuple((f, s) for k, f, s in m.candidates if k == kind)
        if kind == "gem" and not pending:
            g = classify_gem(gem_colour_features(feat), gem_samples, gem_labels, gem_params)
            value, conf, pending = g.colour, min(conf, g.confidence), g.pending
            cands = tuple(g.candidates)
        elif kind == "d6" and reader is not None:
            crop, _, _ = blob.crop(view.image, pad=max(3, blob.box[2] // 6))
            try:
                v, c = reader(crop)
            except Exception:  # noqa: BLE001 - a faulty plug-in must not stop the read
                v, c = None, 0.0
            value, conf = v, min(conf, float(c))
            pending = pending or v is None or c < d6_min_confidence
        objects.append(ObjectRead(kind, None if pending else value, box, float(conf),
                                  STATUS_PENDING if pending else STATUS_READ, cands))
    return Read(tuple(objects), size=size, ms=(time.perf_counter() - t0) * 1000,
                extra={"mode": view.mode, "background": view.calibration is not None
                       and view.calibration.background is not None, "enrollment": enr.source})
