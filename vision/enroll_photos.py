"""Enrolling from photos: which object of a photo is meant, what it looks like, and one
more template for it in an :class:`~vision.enroll.Enrollment` store.

Used by ``companion vision enroll`` (photos or a folder laid out ``kind/face/*.jpg``) and
by the calibration wizard on the tablet (:func:`vision.checks.enroll_face`).
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from .catalog import CLEAR_GEM, FACES, parse_face
from .enroll import IMAGE_SUFFIXES, Enrollment, Progress
from .errors import EnrollmentError
from .faces import Features, class_scores, extract
from .segment import Blob
from .tray_objects import MODE_PHOTO, TrayView, prepare

__all__ = ["enroll_frame", "enroll_files", "folder_items", "pick_blob", "PICKS", "look_alikes", "LOOK_ALIKE",
           "object_box", "CLEAR"]


PICKS = ("auto", "largest", "centre")

#: A coloured gem's view under this chroma (white-balanced CIE Lab, as the plain-photo
#: gem reader measures it) is refused: the object picked is the floor or a shadow. The
#: candies' colours lie at 27 or more (brown, the palest).
MIN_GEM_CHROMA = 8.0


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


#: The object a photo of one object enrolls, when the class-agnostic detector is this many
#: times surer of it than of anything else in the photo (:func:`object_box`).
CLEAR = 2.0
#: The detector's looks at an enrollment photo, coarsest first: the photo brought to
#: these many pixels on its longer side (``None``: as the reader looks at a frame). A
#: close-up's one die is far larger than the 6-50 px the network learnt; too large, the
#: network fires on its glyph instead (a die of 110 px in a 480-px photo was seen as its
#: 58-px symbol).
LOOKS: tuple[int | None, ...] = (96, 160, None)
#: A look whose best object is smaller than this at its input is too coarse for it.
LEAST_PX = 10.0


def object_box(image: np.ndarray) -> tuple[tuple[int, int, int, int] | None, list[tuple[int, int, int, int]]]:
    """What the class-agnostic object detector (:mod:`vision.object_detect`, trained on
    felt, wood, cork, paper, glitter and printed floors) sees in a photo of one object:
    the box (x, y, w, h, input pixels) of the one object it clearly sees (its only
    candidate, or one :data:`CLEAR` times surer than the next, at the coarsest of
    :data:`LOOKS` where that object is :data:`LEAST_PX` or more; None when it sees
    several alike or none), and the boxes of everything it sees at the reader's look,
    surest first (only looked at when no coarser look found a clear one; empty when it
    is not installed, with None).

    The segmenter of a plain photo, with no empty tray to compare with, takes glitter,
    paper fibres or a printed mat for objects: of 24 rendered photos of one die on each
    floor it picked the floor instead of the die 6 times on glitter, 6 on a printed mat
    and 5 on paper, and found nothing 7, 5 and 1 times; the detector's clear best was on
    the die in 167 of 168 such photos at the reader's look, 168 at a coarser one."""
    from .object_detect import available

    if not available():
        return None, []
    det = _object_detector()
    h, w = image.shape[:2]
    seen: list[tuple[int, int, int, int]] = []
    for px in LOOKS:
        scale, found = _looked(image, px)
        if px is None:
            seen = [c.box for c in found]
        if not found or (len(found) > 1 and found[0].score < CLEAR * found[1].score):
            continue
        c = found[0]
        at_input = c.side * (scale if scale is not None else det.det_size / max(h, w))
        if px is not None and at_input < LEAST_PX:
            continue  # too small at this look: a finer one sees it better
        return c.box, seen
    return None, seen


def _looked(image: np.ndarray, px: int | None) -> tuple[float | None, list[Any]]:
    """The object detector's candidates in ``image`` at the look of ``px`` (the longer
    side at its input; None: the reader's own look), surest first, and that look's scale."""
    det = _object_detector()
    scale = None if px is None else min(1.0, px / max(image.shape[:2]))
    return scale, sorted((c for c in det.net.detect(image, scale) if c.score >= det.threshold), key=lambda c: -c.score)


@functools.lru_cache(maxsize=1)
def _object_detector() -> Any:
    from .object_detect import ObjectDetector

    return ObjectDetector()


def _blob_at(view: TrayView, image: np.ndarray, box: tuple[int, int, int, int]) -> Blob | None:
    """The object of a plain photo that the detector saw at ``box``: the segmenter's blob
    there when it is the object (centred in the box within a quarter of its side, and
    0.6 to 2 times as large: a die turned by 45° has a box 1.4 times its side, and the
    detector sizes it small), else the object cut out of the box (:func:`cut_blob`):
    on light paper the segmenter's blob there was often a shadow or a part of the die."""
    x, y, w, h = box
    side = max(w, h)
    for b in sorted(view.blobs, key=lambda b: -b.area):
        bx, by, bw, bh = view.box_in_input(b)
        if (abs(bx + bw / 2 - x - w / 2) <= side / 4 and abs(by + bh / 2 - y - h / 2) <= side / 4
                and 0.6 * side <= max(bw, bh) <= 2.0 * side):
            return b
    return cut_blob(image, box)


def _seen_in(view: TrayView, image: np.ndarray, box: tuple[int, int, int, int]) -> Blob | None:
    """The object the detector sees centred in ``box`` (its surest there, at any of
    :data:`LOOKS`), cut out of a plain photo (:func:`_blob_at`); None when it sees none
    there. Every look is asked: a larger object elsewhere that one look sees clearly
    (the tray's wall, a hand) must not hide the small gem tapped."""
    from .object_detect import available

    if not available():
        return None
    found = [c for px in LOOKS for c in _looked(image, px)[1] if c.centred_in([box])]
    return _blob_at(view, image, max(found, key=lambda c: c.score).box) if found else None


def cut_blob(image: np.ndarray, box: tuple[int, int, int, int]) -> Blob | None:
    """The object around ``box`` (the detector's box, a little larger: it sizes a die
    small) cut out by GrabCut, its colours against those of a margin around it, holes
    filled (the ink of a numeral is the die's), as a :class:`Blob` of ``image``; None
    when nothing of that size stands out. For a photo whose segmenter found no object
    where the detector sees one."""
    x, y, w, h = box
    H, W = image.shape[:2]
    cx, cy, side = x + w / 2, y + h / 2, 1.3 * max(w, h)
    m = int(0.5 * side)
    x0, y0 = max(0, int(cx - side / 2) - m), max(0, int(cy - side / 2) - m)
    x1, y1 = min(W, int(cx + side / 2) + m), min(H, int(cy + side / 2) + m)
    roi = np.ascontiguousarray(image[y0:y1, x0:x1])
    rx, ry = max(0, int(cx - side / 2) - x0), max(0, int(cy - side / 2) - y0)
    rect = (rx, ry, min(int(side), roi.shape[1] - rx), min(int(side), roi.shape[0] - ry))
    if roi.size == 0 or rect[2] < 4 or rect[3] < 4:
        return None
    mask = np.zeros(roi.shape[:2], np.uint8)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    try:
        cv2.grabCut(roi, mask, rect, bgd, fgd, 5, cv2.GC_INIT_WITH_RECT)
    except cv2.error:
        return None
    fg = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    one = np.where(labels == k, 255, 0).astype(np.uint8)
    outside = one.copy()
    flood = np.zeros((one.shape[0] + 2, one.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, flood, (0, 0), 255)  # the ROI's corner is outside the rect: background
    filled = np.asarray(one | (255 - outside), np.uint8)  # the holes: neither the object nor the outside
    bx, by, bw, bh = cv2.boundingRect(filled)
    area = float(np.count_nonzero(filled))
    if area < 0.25 * w * h or max(bw, bh) > 2.0 * max(w, h):  # a speck, or the floor around it
        return None
    mm = cv2.moments(filled, binaryImage=True)
    cut = x0 + bx <= 0 or y0 + by <= 0 or x0 + bx + bw >= W or y0 + by + bh >= H
    return Blob((x0 + bx, y0 + by, bw, bh), filled[by:by + bh, bx:bx + bw], area,
                (x0 + mm["m10"] / max(mm["m00"], 1.0), y0 + mm["m01"] / max(mm["m00"], 1.0)), cut)


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
    """Add one object of ``image`` (a photo of the tray) and return the other faces of
    that kind it looks like (:func:`look_alikes`), to warn about.

    Which object: the one in ``box``, or picked by ``pick`` (:func:`pick_blob`). On a
    plain photo (no calibration, no markers) with ``pick`` "auto", the class-agnostic
    detector says first (:func:`object_box`): the one object it clearly sees (cut out of
    its box when the segmenter missed it, :func:`cut_blob`), or a question when it sees
    several alike; the segmenter's own pick only when it sees nothing. A ``box`` (a tap
    on the tablet) where the segmenter finds nothing takes the object the detector sees
    there."""
    if image is None or image.ndim != 3:
        raise EnrollmentError("not a colour image")
    try:
        face = parse_face(kind, face)
    except ValueError as exc:
        raise EnrollmentError(str(exc)) from None
    view = prepare(image, close_up=True)
    clear, seen = (object_box(image) if box is None and pick == "auto" and view.mode == MODE_PHOTO
                   else (None, []))
    if clear is not None:  # a plain photo: the object the detector clearly sees, not the floor's texture
        blob = _blob_at(view, image, clear)
        if blob is None:
            x, y, w, h = clear
            raise EnrollmentError(f"the object at {x},{y},{w},{h} could not be cut out of the floor: photograph it "
                                  "on a plainer background, or in the calibrated tray")
    elif len(seen) >= 2:  # several objects the detector sees alike: which one is meant
        raise EnrollmentError(f"found {len(seen)} objects; say which with --box X,Y,W,H or --pick largest|centre "
                              "(or tap it on the tablet)")
    else:  # the detector sees nothing here (or is not installed), or a box says: the segmenter's object
        try:
            blob = pick_blob(view, box, pick)
        except EnrollmentError:
            # a box (a tap on the tablet) over a plain photo where the segmenter has no
            # object: the one the detector sees there, cut out of the floor
            blob = _seen_in(view, image, box) if box is not None and view.mode == MODE_PHOTO else None
            if blob is None:
                raise
    # a coloured gem's colour as a plain photo measures it (the clear gem has none of its own)
    plain = _plain_gem_colour(image, view, blob) if kind == "gem" and face != CLEAR_GEM else None
    if plain is not None and math.hypot(float(plain[1]), float(plain[2])) < MIN_GEM_CHROMA:
        raise EnrollmentError("the object picked has no colour of its own (the tray, a shadow?): photograph the "
                              "gem alone, or tap it; the clear gem is enrolled as temps")
    alike = look_alikes(store, kind, face, extract(view.image, view.background, blob))
    store.add(kind, face, extract(view.image, view.background, blob, rotated=False), plain=plain)
    return alike


def _plain_gem_colour(image: np.ndarray, view: TrayView, blob: Blob) -> np.ndarray | None:
    """The gem's colour as the plain-photo gem reader measures it
    (:func:`vision.gem_colour.gem_colours` of a candidate over the object, in the input
    photo): what the players' own gems are read by on a plain photo
    (:meth:`vision.enroll.Enrollment.players_gem_colours`). None when the photo's white
    does not hold (:func:`vision.gem_colour.white_holds`: the gem is brighter than the
    "white" found, a dark felt with nothing white in view): no colour can be measured
    there, and the view serves the calibrated tray only. With the markers in view the
    white is their papers' (:func:`vision.tray_learned.markers_white`), as a calibrated
    tray's gems are read."""
    from .detect import Candidate
    from .gem_colour import ONE_GEM_OVER_WHITE, lab_of, relative_colours, white_holds
    from .tray_learned import markers_white

    white = markers_white(view.calibration, view.image) if view.calibration is not None else None
    rel = relative_colours(image, [Candidate.around(view.box_in_input(blob), source="gem")], white)
    return np.asarray(lab_of(rel)[0], np.float32) if white_holds(rel, ONE_GEM_OVER_WHITE) else None


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
