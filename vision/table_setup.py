"""The table's reader, built from its vision data folder (calibration and enrollment).

``companion serve``, ``companion vision read --data DIR``, the doctor and the benchmarks
build the reader here, so that every one of them reads a frame exactly as the table does.

A kind the players have taught only in part (some faces, not all) would read every die of
that kind as one of the taught faces: until each face has a view, the shipped synthetic
templates of that kind stay in use beside the players' ones.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from .calibration import CALIBRATION_FILE, Calibration, load_calibration
from .catalog import FACES
from .enroll import ENROLLMENT_FILE, Enrollment, default_enrollment
from .errors import VisionError
from .reader import Reader

__all__ = ["table_enrollment", "table_calibration", "table_reader"]

log = logging.getLogger("vision")


def table_calibration(folder: Path | None) -> Calibration | None:
    """The saved calibration of ``folder``, or None (none saved, or unreadable: logged)."""
    if folder is None or not (folder / CALIBRATION_FILE).exists():
        return None
    try:
        return load_calibration(folder)
    except (ValueError, VisionError, OSError) as exc:
        log.warning("calibration ignored: %s", exc)
        return None


def table_enrollment(folder: Path | None) -> Enrollment:
    """The players' enrollment merged with the shipped one (see the module docstring)."""
    enr: Enrollment | None = None
    if folder is not None and (folder / ENROLLMENT_FILE).exists():
        try:
            enr = Enrollment.load(folder / ENROLLMENT_FILE)
        except (ValueError, VisionError, OSError) as exc:
            log.warning("enrollment ignored: %s", exc)
    if enr is None:
        return default_enrollment()
    counts = enr.counts()
    for kind, faces in FACES.items():
        if any(counts.get((kind, f), 0) for f in faces) and not all(counts.get((kind, f), 0) for f in faces):
            enr.remove(kind)
    return enr.merged(default_enrollment()) if len(enr) else default_enrollment()


SAVE_EVERY = 10  # refreshed references written to the data folder: one in ten (SD card wear)


def table_reader(folder: Path | None, calibration: Calibration | None = None, *, use_calibration: bool = True,
                 refresh_background: bool = False, **kwargs: Any) -> Reader:
    """The reader the table uses: its calibration (unless ``use_calibration`` is False)
    and its enrollment, the d6 networks. ``refresh_background`` (the table's rolls): the
    empty-tray reference follows the light (:mod:`vision.background`), written back to
    ``folder`` every :data:`SAVE_EVERY` refreshes."""
    cal = calibration if calibration is not None else (table_calibration(folder) if use_calibration else None)

    def save(c: Calibration) -> None:
        if folder is not None and reader.background_updates % SAVE_EVERY == 0:
            try:
                c.save_background(folder)
            except OSError as exc:
                log.warning("empty-tray reference not saved: %s", exc)

    reader = Reader(calibration=cal, enrollment=table_enrollment(folder), refresh_background=refresh_background,
                    on_background=save, **kwargs)
    return reader
