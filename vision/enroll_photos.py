"""Enrolling from photos: which object of a photo is meant, what it looks like, and one
more template for it in an :class:`~vision.enroll.Enrollment` store.

Used by ``companion vision enroll`` (photos or a folder laid out ``kind/face/*.jpg``) and
by the calibration wizard on the tablet (:func:`vision.checks.enroll_face`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from .catalog import FACES, parse_face
from .enroll import IMAGE_SUFFIXES, Enrollment, Progress
from .errors import EnrollmentError
from .faces import Features, class_scores, extract
from .segment import Blob
from .tray_objects import TrayView, prepare

__all__ = ["enroll_frame", "enroll_files", "folder_items", "pick_blob", "PICKS", "look_alikes", "LOOK_ALIKE"]


PICKS = ("auto", "largest", "centre")


def pick_blob(view: TrayView, box: tuple[int, int, int, int] | None = None, pick: str = "auto") -> Blob:
    """The object of ``view`` a photo enrolls (raises :class:`EnrollmentError` saying why).

    ``box`` (x, y, w, h in input pixels): the object whose centre lies in it, the largest
    if several. Else ``pick``: ``largest``, ``centre`` (nearest the middle of the photo), or
    ``auto``: the only object, or the largest when it is at least twice the next (wood
    grain, glitter and tray walls make small specks: a photo is never refused only
    because its background has texture)."""
    if pick not in PICKS:
        raise EnrollmentError(f"unknown pick {pick!r}: one of {', '.join(PICKS)}")
    blobs = list(view.blobs)
    if not blobs:
        raise EnrollmentError("found no object: is the die or gem in view and lit?")
    if box is not None:
        x, y, w, h = box
        inside = []
        for b in blobs:
            bx, by, bw, bh = view.box_in_input(b)
            cx, cy = bx + bw / 2, by + bh / 2
            if x <= cx <= x + w and y <= cy <= y + h:
                inside.append(b)
        if not inside:
            raise EnrollmentError(f"no object centred in the box {x},{y},{w},{h}")
        return max(inside, key=lambda b: b.area)
    by_area = sorted(blobs, key=lambda b: -b.area)
    if pick == "largest" or len(blobs) == 1:
        return by_area[0]
    if pick == "centre":
        ih, iw = view.image.shape[:2]
        return min(blobs, key=lambda b: (b.centre[0] - iw / 2) ** 2 + (b.centre[1] - ih / 2) ** 2)
    if by_area[0].area >= 2.0 * by_area[1].area:
        return by_area[0]
    raise EnrollmentError(f"found {len(blobs)} objects of similar size; say which with --box X,Y,W,H "
                          "or --pick largest|centre (or tap it on the tablet)")


LOOK_ALIKE = 0.85  # an ink score this close to another face: the reader may not tell them apart
# (two views of one face scored 0.90 in close-ups; a 4 against a 6, 0.76)


def look_alikes(store: Enrollment, kind: str, face: int | str, feat: Features) -> list[tuple[int | str, float]]:
    """The other enrolled faces of ``kind`` that ``feat`` (a new view of ``face``, its
    rotated features) matches as closely as a face of its own: ``(face, ink score)``,
    closest first. The reader keeps such dice pending, so the players are warned."""
    if not len(store):
        return []
    _, ink = class_scores(feat, store)
    out = [(f, float(ink[i])) for i, (k, f) in enumerate(store.classes)
           if k == kind and f != face and float(ink[i]) >= LOOK_ALIKE]
    return sorted(out, key=lambda fs: -fs[1])


def enroll_frame(store: Enrollment, image: np.ndarray, kind: str, face: int | str,
                 box: tuple[int, int, int, int] | None = None, pick: str = "auto") -> list[tuple[int | str, float]]:
    """Add one object of ``image`` (a photo of the tray): see :func:`pick_blob`. Returns
    the other faces of that kind it looks like (:func:`look_alikes`), to warn about."""
    if image is None or image.ndim != 3:
        raise EnrollmentError("not a colour image")
    try:
        face = parse_face(kind, face)
    except ValueError as exc:
        raise EnrollmentError(str(exc)) from None
    view = prepare(image, close_up=True)
    blob = pick_blob(view, box, pick)
    alike = look_alikes(store, kind, face, extract(view.image, view.background, blob))
    store.add(kind, face, extract(view.image, view.background, blob, rotated=False))
    return alike


def folder_items(root: Path) -> list[tuple[str, str, Path]]:
    """(kind, face, image) for every image under ``root/kind/face/``; raises on unknown names."""
    root = Path(root)
    if not root.is_dir():
        raise EnrollmentError(f"no such folder: {root}")
    items = []
    for kdir in sorted(p for p in root.iterdir() if p.is_dir()):
        if kdir.name not in FACES:
            raise EnrollmentError(f"unknown kind folder {kdir.name!r}; expected one of {', '.join(FACES)}")
        for fdir in sorted(p for p in kdir.iterdir() if p.is_dir()):
            try:
                parse_face(kdir.name, fdir.name)
            except ValueError as exc:
                raise EnrollmentError(str(exc)) from None
            for img in sorted(fdir.iterdir()):
                if img.suffix.lower() in IMAGE_SUFFIXES:
                    items.append((kdir.name, fdir.name, img))
    return items


def enroll_files(store: Enrollment, items: Sequence[tuple[str, str | int, Path]],
                 progress: Progress | None = None, box: tuple[int, int, int, int] | None = None,
                 pick: str = "auto") -> list[tuple[Path, str]]:
    """Enroll every (kind, face, path); returns the (path, reason) of photos refused."""
    failures: list[tuple[Path, str]] = []
    for i, (kind, face, path) in enumerate(items, 1):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        try:
            if img is None:
                raise EnrollmentError("cannot read this image")
            alike = enroll_frame(store, img, kind, face, box=box, pick=pick)
            status = "ok" if not alike else "ok, but it looks like " + ", ".join(
                f"{kind}/{f} ({s:.2f})" for f, s in alike) + ": such dice will stay pending"
        except EnrollmentError as exc:
            failures.append((Path(path), str(exc)))
            status = f"refused: {exc}"
        if progress:
            progress(i, len(items), f"{kind}/{face} {Path(path).name}: {status}")
    return failures
