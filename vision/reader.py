"""The one reader: an image (file, bytes or array) in, a :class:`~vision.result.Read` out.

The table (``companion.roll``), ``companion vision read`` / ``eval``, the calibration
wizard and the benchmarks all call :meth:`Reader.read` (or :func:`read_image`): what is
measured is what the table does.

Two ways of finding objects, chosen by what is known of the frame:

* **a known tray** (a saved calibration, or the four markers in view): the frame is
  brought to the top-down tray image and the objects are found against the empty tray
  (:mod:`vision.tray_objects`), every kind alike, with sizes in millimetres (a pip is
  never a die). Each object is read by the enrolled faces and colours; a d6 is also read
  by the pip networks (:mod:`vision.pips`) and the two must agree (see :func:`combine_d6`);
* **a plain photo** (no calibration, no markers): only the learned detectors run::

    frame ──> detectors (die-centre network) ──> candidates (centre, side, score)
          [a large frame with small dice: the dice's region again, at the learnt scale]
          ──> body colour of each candidate (median Lab of its centre)
          ──> every classifier gives each candidate an ObjectRead, or None ("not mine")
          ──> per candidate, the best claim: a "read" beats a "pending", then confidence
          ──> the die's colour named (:mod:`vision.die_colour`)

  Segmenting a photo with no empty tray counts wood grain, glitter and tray walls as
  objects, so it is never done here: an object no learned detector finds is not
  reported, rather than guessed.

Plug-ins. :class:`Reader` takes a list of ``detectors`` (anything with
``detect(frame) -> list[Candidate]``) and a list of ``classifiers`` (anything with
``classify(frame, candidates, bodies) -> list[ObjectRead | None]``, ``bodies`` being each
candidate's body colour as an OpenCV 8-bit Lab triple). The d6 pip reader
(:class:`vision.pips.PipClassifier`) is the default. Candidates of several detectors
closer than half a side are merged (the strongest kept).

The default detectors: the d6 die-centre network; on request (the step expects their
kinds) the gem, d10 and class-agnostic object detectors
(:mod:`vision.object_detect`: symbol dice, d4, d8, d12, d20, custom dice; it also
proposes clear gems, but no classifier claims them on a plain photo yet, so they are
dropped: a clear gem is read on a calibrated tray, by its difference from the empty tray).
The object detector is ``general``: it looks after the others, its objects are kept
only where they read nothing and only when a classifier claims them (its candidates'
source is ``"object"``), so a step expecting only d6 or only gems reads as before.

The reader never raises on a bad image: an unreadable, truncated, blank or absurdly sized
frame gives a :class:`Read` with no objects and ``error`` saying why.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Protocol, Sequence, cast

import numpy as np

from .detect import Candidate, DiceDetector, centre_medians, shrink
from .die_colour import lab8, lab8_rows
from .catalog import CLEAR_GEM, NUMERAL_FACES
from .claims import CONTEST, best_claim, centre_gap as _centre_gap, overlap as _overlap
from .numerals import combine_numeral
from .result import STATUS_PENDING, STATUS_READ, ObjectRead, Read

if TYPE_CHECKING:  # pragma: no cover
    from .calibration import Calibration
    from .enroll import Enrollment
    from .faces import ClassifyParams
    from .gems import GemParams
    from .tray_objects import TrayObject

__all__ = ["Reader", "read_image", "default_reader", "combine_d6", "best_claim", "Detector", "ObjectClassifier", "decode",
           "ImageError", "MIN_SIDE", "MAX_SIDE"]

MIN_SIDE = 64  # pixels: below this no die can be read
MAX_SIDE = 10000  # pixels: beyond this the frame is refused (memory on a Pi)


class ImageError(ValueError):
    """The image cannot be read (the message says why, for ``Read.error``)."""


class Detector(Protocol):
    def detect(self, frame: np.ndarray) -> list[Candidate]: ...


class ObjectClassifier(Protocol):
    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]]) -> list[ObjectRead | None]: ...


def _truncated(data: bytes) -> str | None:
    """Why ``data`` is a cut-off JPEG or PNG, or None.

    A JPEG's end-of-image marker (FF D9) cannot occur inside its compressed data, so a
    file with none in its second half was cut (some phones append a trailer after the
    marker: that is fine; an EXIF thumbnail's own marker sits near the start)."""
    if data[:3] == b"\xff\xd8\xff" and data.rfind(b"\xff\xd9") < len(data) // 2:
        return "truncated JPEG file (no end-of-image marker)"
    if data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-64:]:
        return "truncated PNG file (no IEND chunk)"
    return None


def _from_array(frame: np.ndarray) -> np.ndarray:
    """A BGR frame from a uint8 array: grey, BGRA and one-channel arrays converted."""
    import cv2

    if frame.dtype != np.uint8:
        raise ImageError(f"image array must be uint8, not {frame.dtype}")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim == 3 and frame.shape[2] == 1:
        return cv2.cvtColor(frame[:, :, 0], cv2.COLOR_GRAY2BGR)
    if not (frame.ndim == 3 and frame.shape[2] == 3):
        raise ImageError(f"image array must be H x W (x 1, 3 or 4), not {frame.shape}")
    return frame


def _file_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise ImageError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise ImageError(f"is a folder, not an image: {path}") from None
    except OSError as exc:
        raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None


def _from_encoded(data: bytes) -> np.ndarray:
    """A BGR frame from the bytes of an image file (refused when empty or cut off)."""
    import cv2

    if not data:
        raise ImageError("empty image file")
    why = _truncated(data)
    if why:
        raise ImageError(why)
    try:
        decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        decoded = None
    if decoded is None:
        raise ImageError("not an image OpenCV can decode (corrupt or unknown format)")
    return np.asarray(decoded, dtype=np.uint8)


def decode(source: str | Path | bytes | np.ndarray) -> np.ndarray:
    """A BGR uint8 frame from a path, encoded bytes or an array; :class:`ImageError` if
    it cannot be read or has no usable size."""
    if source is None:
        raise ImageError("no image array (the camera gave no frame)")
    if isinstance(source, np.ndarray):
        frame = _from_array(source)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        frame = _from_encoded(bytes(source))
    else:
        frame = _from_encoded(_file_bytes(Path(source)))
    h, w = frame.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageError(f"image too small: {w}x{h} pixels (at least {MIN_SIDE} on each side)")
    if max(h, w) > MAX_SIDE:
        raise ImageError(f"image too large: {w}x{h} pixels (at most {MAX_SIDE} on a side)")
    return frame


def _medians(frame: np.ndarray, cands: Sequence[Candidate]) -> list[np.ndarray | None]:
    """The median BGR (float32) of each candidate's central half
    (:func:`vision.detect.centre_medians`: all at once), or None when that lies outside
    the frame."""
    return [None if np.isnan(m[0]) else m for m in centre_medians(frame, cands)]


def _bodies(meds: Sequence[np.ndarray | None]) -> list[tuple[float, float, float]]:
    """:func:`vision.die_colour.lab8` of each of ``meds``, in one colour conversion."""
    known = [i for i, m in enumerate(meds) if m is not None]
    out = [lab8(None)] * len(meds)
    if known:
        rows = lab8_rows(np.array([meds[i] for i in known], np.float32))
        for i, (L, a, b) in zip(known, rows.tolist()):
            out[i] = (L, a, b)
    return out


def body_colour(frame: np.ndarray, cand: Candidate) -> tuple[float, float, float]:
    """Lab colour (OpenCV 8-bit scale: L 0..255, a and b centred on 128) of the median
    BGR of the central half of the candidate's square: the die's body colour (pips are a
    minority of those pixels)."""
    return _bodies(_medians(frame, [cand]))[0]


def _named(obj: ObjectRead, med: np.ndarray | None, white: np.ndarray | None) -> ObjectRead:
    """``obj`` with its body colour named (:mod:`vision.die_colour`); gems keep none."""
    from dataclasses import replace

    from .die_colour import UNKNOWN, colour_name, white_balanced_lab

    if obj.kind == "gem":
        return obj
    return replace(obj, colour=UNKNOWN if med is None else colour_name(white_balanced_lab(med, white)))


def _uniform(frame: np.ndarray) -> bool:
    """True for a blank frame: one level (+ noise), judged on every 4th pixel.

    The standard deviation of all the samples, channels together (a frame of one
    saturated colour is not blank), from each channel's mean and deviation (one pass of
    ``cv2.meanStdDev``, a third of numpy's time on a camera frame)."""
    import cv2

    mean, std = cv2.meanStdDev(frame[::4, ::4])
    m, s = mean.ravel(), std.ravel()
    var = float(np.mean(s * s + m * m) - np.mean(m) ** 2)
    return math.sqrt(max(var, 0.0)) < 2.0


#: A box off by more than this share of a die's side is another look at it
#: (:meth:`Reader._open_set_again`): the blue "ville" the pip networks read was 0.22 off.
MOVED = 0.1


def _moved(a: tuple[int, int, int, int], b: tuple[int, int, int, int], share: float = MOVED) -> bool:
    """Whether box ``a`` is another look at the object than ``b``: its centre or its side
    off by more than ``share`` of ``b``'s side (a box within that gives the same crop).

    >>> _moved((10, 10, 60, 60), (12, 11, 60, 60)), _moved((22, 19, 60, 60), (10, 10, 60, 60))
    (False, True)
    """
    side = max(b[2], b[3], 1)
    return _centre_gap(a, b) > share * side or abs(max(a[2], a[3]) - side) > share * side


def _first_scale(frame: np.ndarray, detectors: Sequence[Detector]) -> float:
    """The scale of ``frame`` at the input of the die-centre detectors' first look
    (:meth:`vision.detect.DiceDetector.input_scale`; the smallest of them)."""
    return float(min(min(1.0, float(getattr(d, "det_size", 320)) / max(frame.shape[:2])) for d in detectors))


def _open_set(classifiers: Sequence[ObjectClassifier]) -> tuple[list[ObjectClassifier], set[str]]:
    """The open-set classifiers among ``classifiers`` (those that compare a die with the
    players' enrolled faces, :func:`best_claim`) and the kinds they read."""
    first = [clf for clf in classifiers if getattr(clf, "open_set", False)]
    return first, {k for clf in first for k in getattr(clf, "kinds", ())}


def _clear_gem(o: ObjectRead) -> bool:
    """Whether ``o`` reads a clear gem (:data:`vision.catalog.CLEAR_GEM`), found by the
    tray's difference, not by a colour.

    >>> _clear_gem(ObjectRead("gem", "temps", (0, 0, 9, 9), 0.9)), _clear_gem(ObjectRead("gem", "ete", (0, 0, 9, 9), 0.9))
    (True, False)
    """
    return o.kind == "gem" and o.status == STATUS_READ and o.value == CLEAR_GEM


def _told(clf: ObjectClassifier, boxes: Sequence[tuple[int, int, int, int]]) -> ObjectClassifier:
    """``clf`` for the d6 path of a step expecting d6 and d10, told that the numeral path
    claimed the dice at ``boxes``, if it reads differently there
    (:meth:`vision.pips.PipClassifier.beside`, :meth:`vision.numerals.NumeralClassifier.beside`)."""
    if isinstance(clf, _Apart):  # still not shown what another reader read
        return _Apart(_told(clf.inner, boxes), clf.read_elsewhere)
    beside = getattr(clf, "beside", None)
    return clf if beside is None else cast(ObjectClassifier, beside(boxes))


def _in_region(clf: ObjectClassifier, x0: int, y0: int, s: float) -> ObjectClassifier:
    """``clf`` for the region of the frame from (``x0``, ``y0``) scaled by ``s``: the
    boxes it was told of (:func:`_told`, :class:`_Apart`) in the region's pixels."""
    def moved(boxes: Sequence[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
        return [(round((x - x0) * s), round((y - y0) * s), round(w * s), round(h * s)) for x, y, w, h in boxes]

    if isinstance(clf, _Apart):
        return _Apart(_in_region(clf.inner, x0, y0, s), moved(clf.read_elsewhere))
    boxes = getattr(clf, "claimed_elsewhere", ())
    return _told(clf, moved(boxes)) if boxes else clf


class _Apart:
    """A classifier of the d6 path in a step expecting d6 and d10, not shown the
    candidates centred on a die the numeral path *read* (``read_elsewhere``, frame
    pixels; the others get ``None``): that die is the numeral path's. The die-centre
    detector finds the d10 too, often off their centre or twice, and the d6 path's
    classifiers read them again: the pip networks to contest the numeral read at best
    (a sure pip read made the die pending), the numeral networks a second time from a
    worse crop. Measured on the 59 held-out rendered pools of ``bench_d10_plain.py``
    (497 d10, with white d6 and gems about): read right 77.5 -> 83.1 %, found 97.4 ->
    98.4 %, silently wrong 0 either way, 78.9 -> 64.4 ms per 640 x 480 frame; the 379
    held-aside real d6 read in such a step, also under simulated webcams, exactly as
    before (the numeral path reads none of them; ``bench_other_cameras.py --kinds
    d6,d10``). Hiding the dice it found close to a face too (pending at
    :data:`CONTEST`) read fewer (80.1 %): there the d6 path's own numeral crop often
    reads what the numeral path's hesitated over (7 December 2026)."""

    def __init__(self, inner: ObjectClassifier, read_elsewhere: Sequence[tuple[int, int, int, int]]) -> None:
        self.inner = inner
        self.read_elsewhere = tuple(read_elsewhere)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]] = ()) -> list[ObjectRead | None]:
        ask = [i for i, c in enumerate(candidates) if not c.centred_in(self.read_elsewhere)]
        out: list[ObjectRead | None] = [None] * len(candidates)
        if ask:
            got = self.inner.classify(frame, [candidates[i] for i in ask], [bodies[i] for i in ask] if bodies else [])
            for i, o in zip(ask, got):
                out[i] = o
        return out


def _merge(cands: list[Candidate]) -> list[Candidate]:
    out: list[Candidate] = []
    for c in sorted(cands, key=lambda c: -c.score):
        if not any(math.hypot(o.cx - c.cx, o.cy - c.cy) < 0.5 * max(o.side, c.side) for o in out):
            out.append(c)
    return out


#: Dice smaller than this share of a large frame's longer side are smaller than the
#: networks learnt (3 to 11 % of a 640-px photo's side): the reader then reads the
#: region the dice lie in again, at a larger scale (see :data:`ZOOM_DIE_PX`). Measured on
#: held-aside photos set in camera frames (benchmarks/bench_pi_resolution.py; figures in
#: docs/vision.md): a tray filling 70 % of a 1920 x 1080 frame, read whole, 64.6 % found;
#: with the region at 640 px, 89.7 % and 3 silent errors in 379; now 97.9 %, none.
ZOOM_BELOW = 0.05
ZOOM_ABOVE = 800  # px: a frame's longer side up to this is read once
#: The second look scales the region so that its dice are :data:`ZOOM_DIE_PX` pixels at
#: the die-centre network's input, the median size it learnt (10 to 35 px there). Seeing
#: dice under about 13 px, the first look gives them all about 12 px (measured on the
#: frames of benchmarks/bench_pi_resolution.py: 12.2 px for dice of 7.9 and of 10.6 px,
#: the exact size from 15 px up): below :data:`FLOOR_PX` the first look's size is only an
#: upper bound, so the second look aims at :data:`FLOOR_AIM_PX` (dice of 8 to 12 px
#: become 18 to 27 px), and if the dice it then measures are over
#: :data:`ZOOM_AGAIN_ABOVE` px, it looks once more at the right scale. The same holds
#: for the dice of the closer look (:meth:`Reader._closer_look`): rendered white d6 of 25-35 px
#: in 1920 x 1080 frames are 8-12 px at its input and come out at about 18 px, so its
#: region aimed at 19.5 px saw them at 10 px (found 34.5 %, read right automatically
#: 8.9 %); aimed at 27 px and measured again, 68.8 % and 46.9 % (83.0 % and 51.3 % with
#: :data:`CLOSER_EXTRA`), none misread (7 December 2026).
ZOOM_DIE_PX = 19.5
FLOOR_PX = 13.5
FLOOR_AIM_PX = 27.0
ZOOM_AGAIN_ABOVE = 22.0
#: The second look's input is at most this many pixels on a side (dice that would need
#: more are read smaller than aimed: a camera far above a wide tray), so that its time
#: stays bounded (a 640 x 640 input costs 4 times the 320 x 320 one). On the measured
#: frames the second look takes 350-450 px.
MAX_LOOK_PX = 640
#: The classifiers learnt from 48-px crops of 1.3 sides of dice about 39 px across: a
#: region whose dice (measured by the second look) are twice that or more is shrunk by
#: the whole factor that brings them nearest (INTER_AREA, fast for a whole factor);
#: other dice are cropped from the frame's own pixels.
CROP_DIE_PX = 39.0
#: The closer look (:meth:`Reader._closer_look`) replaces the first when it finds at least
#: CLOSER_MORE times as many dice and CLOSER_EXTRA more, at most CLOSER_SMALLER of their
#: side. One more, not three (7 December 2026): a cluster of three rendered white d6 at
#: the first look is often four or five dice at the closer look's 8 px (1920 x 1080 frames,
#: 40 trays: found 68.8 -> 83.0 %, read right automatically 46.9 -> 51.3 %, none
#: misread); the close-ups it then reaches are guarded in :meth:`Reader._dice_over_their_pips`.
CLOSER_MORE = 1.3
CLOSER_EXTRA = 1
#: ... or, with at least as many dice, when it is surer of them by CLOSER_GAIN (median
#: heat): dice of 6-9 px at the first look (white d6 of 24-30 px in 1280 x 720 webcam
#: frames) come out one blob per die, each 2-3 times too large, cropped too wide to be
#: read; the closer look finds the same dice at their size (40 trays: found 78.5 -> 83.8 %,
#: read right automatically 66.8 -> 70.9 %, none misread; the real photos' conditions, the
#: close-ups and the large frames read as before, 7 December 2026).
CLOSER_GAIN = 0.1
#: In a step that expects other kinds too, three more (see :meth:`Reader._closer_look`).
CLOSER_MIXED_EXTRA = 3
CLOSER_SMALLER = 0.7
#: ... and only when the first look is unsure of its dice (median heat under this): on
#: the held-aside photos enlarged 2-3 x (dice of 6-9 % of the side, read well by the
#: first look) the median heat is 0.64 or more in every photo, 0.82 in nine of ten; on
#: the clusters of rendered 25-px dice in webcam frames it is 0.51 (0.58 in nine of ten).
#: Without this guard the closer look took pips for dice on the enlarged photos.
CLOSER_BELOW_SCORE = 0.6
#: The farther look (:meth:`Reader._farther_look`), for dice far larger than learnt: after
#: a first look whose candidates' mean score is under FARTHER_SURE (the held-aside photos
#: as taken: 0.85 on average) and median side FARTHER_MIN_PX or more at its input (dice
#: smaller than learnt come out at about 12 px: the closer look is for them), a look at
#: FARTHER_SCALE times its scale, kept when it finds FARTHER_MIN_DICE dice or more, at
#: a mean score of FARTHER_SURE or more and FARTHER_GAIN above the first's, and
#: FARTHER_MIN_PX or more at its input. The held-aside photos' middle quarter (a camera
#: twice as close, dice 12 % of the frame's side): found 70.0 -> 97.3 %, read right
#: automatically 38.7 -> 85.3 %, none silently wrong; the same at 1920 px (a close-up
#: from a larger camera): 69.3 -> 97.0 %, 33.0 -> 84.0 %, 9 silent errors (pips read as
#: dice) -> 1. A step with the object detector (symbol dice, which are larger) has none.
#: Two dice or fewer: none either (in 1920 x 1080 frames of rendered white d6 of 4 px at
#: the first look's input, a farther look found one or two clusters at 0.76-0.8).
FARTHER_SURE = 0.75
FARTHER_SCALE = 0.6
FARTHER_GAIN = 0.1
FARTHER_MIN_PX = 13.5
FARTHER_MIN_DICE = 3
#: A close-up of one or two dice (a fifth of the frame's side or more): the farther look
#: finds too few dice to be kept, and each pip of a die was read as a d6 showing 1. In a
#: frame whose first look is unsure (:func:`_unsure`), looks at FARTHER_SCALE, its square,
#: its cube... times the first look's scale (down to an image of LARGER_MIN_INPUT px) find
#: the larger dice (score FARTHER_SURE or more); one the pip networks *read* (a pending
#: one may be a heap of small dice) replaces every object inside its box at most
#: 1/LARGER_RATIO its side: its pips (:meth:`Reader._dice_over_their_pips`). Crops of 4
#: die sides around each second held-aside die, enlarged to 1920 px (555 dice): read right
#: automatically 2 -> 177, silently wrong 23 -> 5 (each a pip of a die cut by the frame's
#: edge), false reads 69 -> 22; every other measured condition the same or better (the
#: held-aside photos 2x closer at 1920 px: 252 -> 258 right, 1 -> 0 silent); with a
#: pending larger die accepted too, rendered white d6 lost a third of their reads.
LARGER_MIN_INPUT = 48
LARGER_RATIO = 2.5


LEARNT_SHARE = 0.058  # the median die side over the photo's longer side in the training photos


def _dice_in(image: np.ndarray, scale: float, detectors: Sequence[Detector]) -> list[Candidate]:
    """The die-centre detectors' candidates in ``image`` (the frame shrunk by ``scale``,
    looked at as it is), in frame pixels; merged when there are several detectors."""
    from dataclasses import replace

    found = [replace(c, cx=c.cx / scale, cy=c.cy / scale, side=c.side / scale)
             for d in detectors if isinstance(d, DiceDetector) for c in d.detect(image, scale=1.0)]
    return _merge(found) if len(detectors) > 1 else found


def _unsure(cands: Sequence[Candidate]) -> bool:
    """The die-centre network's first look is unsure of its candidates (mean score under
    :data:`FARTHER_SURE`; no candidate at all is unsure too): they may be the pips and
    parts of dice far larger than it learnt."""
    return not cands or float(np.mean([c.score for c in cands])) < FARTHER_SURE


def _zoom_region(frame: np.ndarray, cands: Sequence[Candidate]) -> tuple[int, int, int, int] | None:
    """``(x0, y0, x1, y1)``: a square around the candidates (two median sides of margin),
    large enough that the dice take the share of it they took in the training photos,
    when the frame is large and its dice small for the networks; else None.

    >>> big = np.zeros((1080, 1920, 3), np.uint8)
    >>> _zoom_region(big, [Candidate(900.0, 500.0, 40.0, 1.0), Candidate(1100.0, 600.0, 42.0, 1.0)])
    (647, 197, 1354, 904)
    >>> _zoom_region(big, [Candidate(900.0, 500.0, 150.0, 1.0)]) is None  # large enough already
    True
    >>> _zoom_region(np.zeros((640, 640, 3), np.uint8), [Candidate(300.0, 300.0, 20.0, 1.0)]) is None
    True
    """
    h, w = frame.shape[:2]
    longer = max(h, w)
    if longer <= ZOOM_ABOVE or not cands:
        return None
    side = float(np.median([c.side for c in cands]))
    if side >= ZOOM_BELOW * longer:
        return None
    pad = 2.0 * side
    bx0, bx1 = min(c.cx for c in cands) - pad, max(c.cx for c in cands) + pad
    by0, by1 = min(c.cy for c in cands) - pad, max(c.cy for c in cands) + pad
    size = max(bx1 - bx0, by1 - by0, side / LEARNT_SHARE)
    if size > 0.8 * longer:
        return None
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    x0 = int(round(min(max(0.0, cx - size / 2), max(0.0, w - size))))
    y0 = int(round(min(max(0.0, cy - size / 2), max(0.0, h - size))))
    return x0, y0, int(min(w, x0 + round(size))), int(min(h, y0 + round(size)))


def combine_d6(enrolled: ObjectRead, net: ObjectRead | None) -> ObjectRead:
    """One d6 read from the enrolled faces' and the pip networks' reads of the same die.

    Two readers that learnt from different things (templates of the table's dice, a
    network trained on real photos) must agree before the companion says a face:

    - both read the same face, or one reads it and the other's best (pending) guess is the
      same face: ``read``, at the lower of the two confidences;
    - anything else (different faces, both unsure, the network calls it no die): pending,
      with the candidates of both.

    >>> a = ObjectRead("d6", 4, (0, 0, 9, 9), 0.9)
    >>> combine_d6(a, ObjectRead("d6", 4, (1, 1, 8, 8), 0.8, STATUS_PENDING, ((4, 0.8), (3, 0.1)))).status
    'read'
    >>> b = combine_d6(a, ObjectRead("d6", 3, (1, 1, 8, 8), 0.95))
    >>> b.status, b.value, [v for v, _ in b.candidates]
    ('pending', None, [3, 4])
    >>> combine_d6(a, None).status
    'pending'
    >>> unsure = ObjectRead("d6", None, (0, 0, 9, 9), 0.0, STATUS_PENDING, ((4, 0.6), (3, 0.3)))
    >>> c = combine_d6(unsure, ObjectRead("d6", 4, (1, 1, 8, 8), 0.9))
    >>> c.status, c.value, c.confidence   # at the unsure reader's confidence in that face
    ('read', 4, 0.6)
    """
    def best(o: ObjectRead) -> int | str | None:
        if o.status == STATUS_READ:
            return o.value
        return o.candidates[0][0] if o.candidates else o.value

    def score(o: ObjectRead, face: int | str) -> float:  # its confidence in that face
        if o.status == STATUS_READ:
            return o.confidence
        return max((float(c) for v, c in o.candidates if v == face), default=o.confidence)

    e_face = best(enrolled)
    if net is not None and (enrolled.status == STATUS_READ or net.status == STATUS_READ) \
            and e_face is not None and e_face == best(net):
        return ObjectRead("d6", e_face, enrolled.box, min(score(enrolled, e_face), score(net, e_face)), STATUS_READ)
    cands: dict[int | str, float] = {}
    for o in ([net] if net is not None else []) + [enrolled]:
        for v, c in (o.candidates or ((o.value, o.confidence),)):
            if v is not None:
                cands[v] = max(cands.get(v, 0.0), float(c))
    ranked = tuple(sorted(cands.items(), key=lambda kv: -kv[1])[:3])
    conf = min(enrolled.confidence, net.confidence if net is not None else 0.0)
    return ObjectRead("d6", None, enrolled.box, conf, STATUS_PENDING, ranked)



#: A die whose box lies more than this share of its side outside the frame is left
#: pending: the camera may not see all its pips or its whole symbol. Measured on the
#: 200 tray photos as a camera two and three times closer takes them (their middle,
#: dice cut by the frame's edge): reads over a third out of the frame, 3 right and 3
#: wrong; as taken, none.
EDGE_CUT = 0.3


def _mapped(obj: ObjectRead, x0: int, y0: int, s: float) -> ObjectRead:
    """``obj``, read on a part of the frame whose corner is (``x0``, ``y0``) scaled by
    ``s``, with its box in the frame's pixels.

    >>> _mapped(ObjectRead("d6", 1, (10, 20, 30, 30), 0.9), 100, 0, 0.5).box
    (120, 40, 60, 60)
    """
    from dataclasses import replace

    if x0 == 0 and y0 == 0 and s == 1.0:
        return obj
    x, y, w, h = obj.box
    return replace(obj, box=(int(round(x0 + x / s)), int(round(y0 + y / s)), int(round(w / s)), int(round(h / s))))


def _odd(x: float) -> int:
    """The odd integer nearest ``x`` (a kernel's side).

    >>> _odd(10.2), _odd(11.0), _odd(0.4)
    (11, 11, 1)
    """
    return max(1, int(round(x)) | 1)


def _with_white(clf: ObjectClassifier, white: np.ndarray) -> ObjectClassifier:
    """``clf``, if it white-balances colours (a ``white`` attribute, the gem reader), with
    that fixed white."""
    from copy import copy

    if not hasattr(clf, "white"):
        return clf
    out = copy(clf)
    setattr(out, "white", white)
    return out


def _scaled(box: tuple[int, int, int, int], s: float) -> tuple[int, int, int, int]:
    """``box`` (x, y, w, h) in an image ``s`` times the size."""
    return (round(box[0] * s), round(box[1] * s), round(box[2] * s), round(box[3] * s))


def _pending(obj: ObjectRead) -> ObjectRead:
    """``obj``, pending if it was read (its face the one candidate).

    >>> _pending(ObjectRead("d6", 1, (0, 0, 9, 9), 0.9)).candidates
    ((1, 0.9),)
    """
    from dataclasses import replace

    if obj.status != STATUS_READ or obj.value is None:
        return obj
    return replace(obj, status=STATUS_PENDING, candidates=((obj.value, round(float(obj.confidence), 4)),))


def cut_by_edge(obj: ObjectRead, width: int, height: int) -> ObjectRead:
    """``obj``, or pending when it is a die (not a gem: its colour is whole) read with
    more than :data:`EDGE_CUT` of its box outside a ``width`` x ``height`` frame.

    >>> o = ObjectRead("d6", 4, (-15, 50, 40, 40), 0.9)
    >>> cut_by_edge(o, 640, 480).status, cut_by_edge(o, 640, 480).candidates
    ('pending', ((4, 0.9),))
    >>> cut_by_edge(ObjectRead("d6", 4, (-8, 50, 40, 40), 0.9), 640, 480).status  # a fifth out
    'read'
    >>> cut_by_edge(ObjectRead("gem", "hiver", (-15, 50, 40, 40), 0.9), 640, 480).status
    'read'
    """
    x, y, w, h = obj.box
    out = max(-x, -y, x + w - width, y + h - height, 0.0) / max(w, h, 1.0)
    return obj if obj.kind == "gem" or out <= EDGE_CUT else _pending(obj)


class Reader:
    """The one reader. Models are loaded once, at construction.

    ``calibration``: the table's saved tray calibration (else markers in the frame are
    looked for). ``enrollment``: the faces and colours the players taught (default: the
    synthetic one shipped for the demo), read on a known tray. ``detectors`` and
    ``classifiers``: the learned plug-ins of the plain-photo path (default: the d6
    networks); the pip classifier also reads the d6 of a known tray.
    """

    def __init__(self, detectors: Sequence[Detector] | None = None,
                 classifiers: Sequence[ObjectClassifier] | None = None,
                 settings: dict[str, Any] | None = None, tta: bool = True, warm_up: bool = True,
                 calibration: "Calibration | None" = None, enrollment: "Enrollment | None" = None,
                 look_for_markers: bool = True, params: "ClassifyParams | None" = None,
                 gem_params: "GemParams | None" = None, refresh_background: bool = False,
                 on_background: "Callable[[Calibration], None] | None" = None,
                 house_gems: "Callable[[], Mapping[str, np.ndarray]] | None" = None) -> None:
        from .nets import MODELS_DIR, load_settings

        cfg = settings if settings is not None else load_settings(MODELS_DIR / "d6.json")
        self.pips: Any = None
        #: Where the gem colours read when the players taught none of their own come
        #: from (the shipped ones otherwise), asked once, the first time gems are read:
        #: the demo's rendered gems (:meth:`vision.demo_camera.DemoCamera.gem_colours`,
        #: 1 s, which a demo of a game without gems need not pay at start).
        self.house_gems = house_gems
        self._house: Mapping[str, np.ndarray] | None = None
        gems = (MODELS_DIR / "gem_detector.onnx").exists() and (MODELS_DIR / "gems.json").exists()
        if detectors is None:
            found: list[Detector] = [DiceDetector(det_size=int(cfg.get("det_size", 320)),
                                                  stride=int(cfg.get("stride", 4)),
                                                  threshold=float(cfg.get("thresholds", {}).get("det", 0.3)))]
            if gems:
                from .gem_detect import GemDetector

                found.append(GemDetector())
            from .numeral_detect import NumeralDiceDetector, available as numeral_dice

            if numeral_dice():  # d10 on a plain photo, on request
                found.append(NumeralDiceDetector())
            from .object_detect import ObjectDetector, available as objects

            if objects():  # every other kind (symbol dice, d4, d8, d12, d20), on request
                found.append(ObjectDetector())
            detectors = found
        if classifiers is None:
            from .pips import PipClassifier

            claims: list[ObjectClassifier] = [PipClassifier(settings=cfg, tta=tta)]
            if gems:
                from .gem_colour import GemClassifier

                # the players' own gems, where they taught them from their photos
                claims.append(GemClassifier(sources=("gem",), players=self._players_gems))
            from .embed import available as glyph_embedding
            from .numerals import NumeralClassifier, available
            from .symbols import SymbolClassifier

            # symbol dice against the enrolled faces, on request; and the players' own
            # numeral dice, where the numeral networks hesitate
            glyphs = SymbolClassifier(lambda: self.enrollment) if glyph_embedding() else None
            if available():  # numeral dice (d10, and d4 / d8 / d12 / d20 with their network), on request
                claims.append(NumeralClassifier(players=glyphs))
            if glyphs is not None:
                claims.append(glyphs)
            classifiers = claims
        self.detectors = list(detectors)
        self.classifiers = list(classifiers)
        self.pips = next((c for c in self.classifiers if getattr(c, "kind", None) == "d6"), None)
        self.numerals = next((c for c in self.classifiers if getattr(c, "kind", None) == "d10"), None)
        self.calibration = calibration
        self._enrollment = enrollment
        self.look_for_markers = look_for_markers
        self.params = params
        self.gem_params = gem_params
        #: Blend the frames a calibrated tray reads as empty into its empty-tray reference
        #: (:mod:`vision.background`); ``on_background`` is told after each refresh.
        self.refresh_background = refresh_background
        self.on_background = on_background
        self.background_updates = 0
        self._tray_cache: tuple[Any, np.ndarray, tuple[int, int], np.ndarray | None, np.ndarray] | None = None
        if warm_up:
            # the first run of each network and of the Lab conversion is slow: do it now,
            # so that the first real read is as fast as the others
            import numpy as np

            frame = np.random.default_rng(0).integers(0, 255, (320, 320, 3), dtype=np.uint8)
            for det in self.detectors:
                det.detect(frame)
            cand = Candidate(160.0, 160.0, 40.0, 1.0)
            body = body_colour(frame, cand)  # OpenCV builds its Lab tables on first use (~100 ms)
            for clf in self.classifiers:
                clf.classify(frame, [cand], [body])

    def _players_gems(self) -> "Mapping[str, np.ndarray]":
        """The gem colours the players taught from their photos
        (:meth:`vision.enroll.Enrollment.players_gem_colours`), else those of :attr:`house_gems`."""
        own = self.enrollment.players_gem_colours()
        if own or self.house_gems is None:
            return own
        if self._house is None:
            self._house = dict(self.house_gems())
        return self._house

    @property
    def enrollment(self) -> "Enrollment":
        """The enrolled faces and colours (the shipped synthetic ones unless given)."""
        if self._enrollment is None:
            from .enroll import default_enrollment

            self._enrollment = default_enrollment()
        return self._enrollment

    def read_frame(self, frame: np.ndarray, kinds: "Collection[str] | None" = None) -> tuple[ObjectRead, ...]:
        """Every object in a decoded BGR frame, in reading order (top to bottom, left to
        right by rows of about one die)."""
        return self._read_frame(frame, kinds)[0]

    def _read_frame(self, frame: np.ndarray, kinds: "Collection[str] | None" = None, checked: bool = False
                    ) -> tuple[tuple[ObjectRead, ...], dict[str, Any]]:
        from .tray_objects import MODE_PHOTO, prepare

        if not checked and _uniform(frame):  # ``checked``: :meth:`read` has just looked
            return (), {"mode": MODE_PHOTO}
        view = prepare(frame, self.calibration, look_for_markers=self.look_for_markers, segment_photo=False)
        extra: dict[str, Any] = {"mode": view.mode}
        if view.mode == MODE_PHOTO:
            h, w = frame.shape[:2]
            objs = [cut_by_edge(o, w, h) for o in self._read_plain(frame, kinds)]
        else:
            objs = self._read_tray(frame, view, kinds)
            extra["background"] = view.calibration is not None and view.calibration.background is not None
            extra["enrollment"] = self.enrollment.source
            if not objs and extra["background"] and self.refresh_background and view.calibration is self.calibration:
                extra["background_refreshed"] = self._refresh(view.image)
        row = max(1.0, float(np.median([o.box[3] for o in objs]))) if objs else 1.0
        objs.sort(key=lambda o: (round((o.box[1] + o.box[3] / 2) / row), o.box[0]))
        return tuple(objs), extra

    def _read_plain(self, frame: np.ndarray, kinds: "Collection[str] | None") -> list[ObjectRead]:
        """A plain photo's objects (:meth:`_read_learned`). In a step of d6 alone (or no
        kinds said), a frame of at most :data:`ZOOM_ABOVE` px
        whose floor is not the light grey one the pip networks learnt
        (:mod:`vision.plain_floor`: a dark felt, wood) has that floor repainted light
        against its own estimate first (:func:`vision.background.light_floor`), as a
        calibrated tray's against its empty picture, when what stands out from it is
        about a die's size (:func:`vision.plain_floor.repaint_scale`: loose dots on a dark
        table, repainted, looked like small white dice); the numeral dice are found and
        read on the frame as seen. Measured on the held-aside photos with their floor
        painted (``bench_other_cameras.py``): dark green felt 31.9 -> 83.6 % read right
        automatically, black felt 50.9 -> 81.8 %, wood 77.0 -> 88.9 %, no more silent
        errors; the photos as taken are not repainted. A larger frame is repainted only
        when its objects are a few dice seen from near (:func:`vision.plain_floor
        .repaint_scale`), at the whole fraction of its size that brings them near the size
        the networks learnt (the painted photos enlarged 3 times on dark green felt: 13.6
        -> 72.7 %); else read as seen: there the closer look finds small dice far from a
        webcam, and repainting lost some of them (rendered white d6 in 1280 x 720 frames
        83.8 -> 73.0 % found).
        The price: a d10 left in a d6 step's tray on a felt is more often taken for a d6
        on the light floor (rendered pools, ``bench_d10_plain.py``: 32 -> 42 of 497).

        A step that expects numeral dice besides the d6 (Péripéties' difficulty roll) is
        read as seen (8 December 2026, nineteenth session): on the repainted floor the pip
        networks read more d10 as d6 faces, which the numeral path could not always
        contest (the same pools blurred σ 1.5, read in a step expecting d6 and d10: 6 d10
        read as d6 faces before the repaint, 35 with it, ``bench_d10_plain.py
        --transforms``)."""
        from .background import light_floor
        from .plain_floor import estimated_floor, floor_at, learnt_floor, repaint_scale, solid_px

        wanted = kinds is None or set(kinds) == {"d6"}
        if self.pips is None or not wanted or learnt_floor(frame):
            return self._read_learned(frame, kinds)
        floor, side = estimated_floor(frame)  # on a copy of at most 256 px
        k = None if learnt_floor(floor) else repaint_scale(side, frame.shape, ZOOM_ABOVE)
        if k is None:
            return self._read_learned(frame, kinds)
        seen = frame if k == 1 else shrink(frame, 1.0 / k)  # a phone's photo: its dice near the learnt size
        objs = self._read_learned(light_floor(seen, floor_at(floor, seen), solid=solid_px(seen)), kinds, seen=seen)
        return [_mapped(o, 0, 0, 1.0 / k) for o in objs]

    def _refresh(self, tray: np.ndarray) -> bool:
        from .background import blend, is_empty_like

        cal = self.calibration
        if cal is None or cal.background is None or not is_empty_like(tray, cal.background,
                                                                       exclude=cal.marker_mask()):
            return False
        cal.background = blend(cal.background, tray)
        self.background_updates += 1
        if self.on_background is not None:
            try:
                self.on_background(cal)
            except Exception:  # noqa: BLE001 - a full disk must not fail the read
                pass
        return True

    def _plugins(self, kinds: "Collection[str] | None") -> tuple[list[Detector], list[ObjectClassifier]]:
        """The detectors and classifiers that run for a step expecting ``kinds``."""
        wanted = None if kinds is None else set(kinds)

        def useful(plugin: Any) -> bool:
            own = getattr(plugin, "kinds", None) or ((plugin.kind,) if getattr(plugin, "kind", None) else None)
            if wanted is None:  # the step says nothing: all but the plug-ins run on request only
                return not getattr(plugin, "on_request", False)
            return own is None or bool(wanted & set(own))

        # a classifier that reads several kinds reads for those the step expects
        return [d for d in self.detectors if useful(d)], [
            c.for_kinds(wanted) if wanted is not None and hasattr(c, "for_kinds") else c
            for c in self.classifiers if useful(c)]

    def _read_learned(self, frame: np.ndarray, kinds: "Collection[str] | None" = None,
                      elsewhere: Sequence[tuple[int, int, int, int]] = (), seen: np.ndarray | None = None
                      ) -> list[ObjectRead]:
        """The objects the trained networks find and read on ``frame`` (a plain photo's
        path); their classifiers are not shown the candidates centred in ``elsewhere``
        (frame pixels: what another reader read, :class:`_Apart`). ``seen``: the frame
        as the camera saw it, when ``frame``'s floor was repainted for the pip networks
        (a known tray): the numeral dice are found and read on it."""
        detectors, classifiers = self._plugins(kinds)
        if elsewhere:
            classifiers = [_Apart(c, elsewhere) for c in classifiers]
        # the class-agnostic detector (``general``) looks last, where the others read nothing
        general = [d for d in detectors if getattr(d, "general", False)]
        detectors = [d for d in detectors if d not in general]
        apart = [d for d in detectors if getattr(d, "apart", False)]
        # a step with the class-agnostic detector has it for objects larger than a d6
        # (symbol dice): the die-centre network's farther look would find those as d6
        farther = not general
        # no other kind's detector beside the d6's: the closer look's looser rules hold
        alone = not general and not apart
        if not apart or len(apart) == len(detectors):
            objs = self._read_detected(frame, detectors, classifiers, farther, alone) if detectors else []
        else:
            # a step expecting d6 and d10: the numeral dice found apart, then the d6 path,
            # whose classifiers are not shown the dice the numeral networks read (_Apart);
            # its pip networks are told which dice the numeral networks found close to
            # a face (pending at CONTEST or more: such a die stays pending whatever the pips
            # say); they do not look again at those they are unsure of
            # (:meth:`vision.pips.PipClassifier.beside`);
            # the same die is not reported twice, and where both paths found it their
            # claims are weighed (:func:`best_claim`): the pip networks read rendered d10
            # as d6 faces (30 rendered pools, 254 d10: 18 silently wrong, 71 right before)
            more = self._read_detected(frame if seen is None else seen, apart, classifiers)
            claimed = [o.box for o in more if o.status == STATUS_READ or o.confidence >= CONTEST]
            read = [o.box for o in more if o.status == STATUS_READ]
            objs = self._read_detected(frame, [d for d in detectors if d not in apart],
                                       [_Apart(_told(c, claimed), read) for c in classifiers], farther)
            open_set = _open_set(classifiers)[1]
            objs = [best_claim([o, *(m for m in more if _overlap(o.box, m.box))], open_set) for o in objs] + [
                o for o in more if not any(_overlap(o.box, p.box) for p in objs)]
        if general:  # its candidates where nothing was read go to whichever classifier claims them
            found = [c for d in general for c in d.detect(frame)]
            found = _merge(found) if len(general) > 1 else found
            objs = self._open_set_again(frame, objs, found, classifiers)
            cands = [c for c in found if not any(_overlap(c.box, p.box) for p in objs)]
            if cands:  # unclaimed: dropped
                objs += self._no_symbol_colour(frame, self._classify(frame, cands, classifiers), classifiers)
        return self._no_d10_as_d6(frame if seen is None else seen, objs, kinds)

    def _no_symbol_colour(self, frame: np.ndarray, objs: list[ObjectRead],
                          classifiers: Sequence[ObjectClassifier]) -> list[ObjectRead]:
        """``objs`` (the general detector's candidates nothing else found) with each d6
        the pip networks would read, kept pending only because the general detector found
        it (:data:`vision.pips.ASK_ONLY`: it finds symbol dice too), read when its own
        colour is one no enrolled symbol face has (:meth:`SymbolClassifier.may_be_one`):
        a white d6 is no blue, yellow or red symbol die.

        Measured with ``bench_peripeties_plain.py --transforms`` (7 December 2026,
        seventeenth session): the 60 renders' white d6, 9 % of the frame's side, which the
        die-centre network misses, read right 5 -> 47 of 61 (41-53 under the transforms,
        8-35 before); other seeds 9 -> 49 of 63; symbol dice and their silent reads
        unchanged. The held-aside real d6 in such a step 352 -> 354 right, 0 silent, and
        more under every simulated camera (dark green felt 31.9 -> 49.1 %), none wrong
        more; the candy photos still give no read."""
        pips = self.pips
        symbols = next((c for c in classifiers if hasattr(c, "may_be_one")), None)
        if pips is None or symbols is None or not hasattr(pips, "would_read"):
            return objs
        ask = [i for i, o in enumerate(objs) if pips.would_read(o)]
        if not ask:
            return objs
        boxes = [objs[i].box for i in ask]
        maybe = cast(Any, symbols).may_be_one(frame, [Candidate.around(b) for b in boxes])
        from dataclasses import replace

        out = list(objs)
        for i, m in zip(ask, maybe):
            if not m:
                out[i] = replace(out[i], status=STATUS_READ, candidates=())
        return out

    def _no_d10_as_d6(self, frame: np.ndarray, objs: list[ObjectRead],
                      kinds: "Collection[str] | None") -> list[ObjectRead]:
        """``objs`` with each d6 read weighed against the d10 network's word on its kind
        (:meth:`vision.numerals.NumeralClassifier.kind_claims`) by :func:`best_claim`: a
        read it surely takes for a d10 (:data:`vision.claims.KIND_SURE`) is pending. In a
        step that expects d6 and no numeral die (or says nothing) the numeral path does
        not run, and the pip networks, which never saw a d10, read a d10 lying in the
        tray as a d6 face.

        Measured on the 59 held-out rendered d10 pools of ``bench_d10_plain.py`` read as a
        d6 step (7 December 2026, seventeenth session): 68 of 497 d10 were read as d6
        faces, now 32; the pools' white d6 read as before (132). The 1,108 real d6 of the
        training photos, as taken and as JPEG 30: none stopped. Of the 379 held-aside
        real d6 one is, a yellow 3 whose pips stand in a line, a 1 to the d10 network at
        0.99 (353 -> 352 read right automatically); under the simulated cameras one more
        (webcam 640 x 480). A step that expects a numeral die weighs the numeral path's
        claims instead (:func:`best_claim`)."""
        numeral = set(NUMERAL_FACES) - {"d6"}
        kind_claims = getattr(self.numerals, "kind_claims", None)  # NumeralClassifier.kind_claims
        if kind_claims is None or (kinds is not None and ("d6" not in kinds or numeral & set(kinds))):
            return objs
        idx = [i for i, o in enumerate(objs) if o.kind == "d6" and o.status == STATUS_READ]
        if not idx:
            return objs
        out = list(objs)
        for i, claim in zip(idx, kind_claims(frame, [Candidate.around(objs[i].box) for i in idx])):
            if best_claim([out[i], claim]).status != STATUS_READ:
                out[i] = _pending(out[i])  # a d6 still, its face the players' to confirm
        return out

    def _open_set_again(self, frame: np.ndarray, objs: list[ObjectRead], found: Sequence[Candidate],
                        classifiers: Sequence[ObjectClassifier]) -> list[ObjectRead]:
        """``objs`` with each one claimed by a classifier of a closed set (the pip
        networks), read or pending, weighed again against what the open-set classifiers
        say at the general detector's box over it, when that box is another crop
        (:func:`_moved`), by :func:`best_claim`. The die-centre detector's box on a
        symbol die can sit a fifth of a side off, enough for the symbol reader to find
        nothing there and leave the die to the pip networks: a blue "ville" was read as
        a d6 6 at 0.82, where the object detector's box reads "ville" at 0.99.

        The pip networks' *pending* claims are weighed again too (7 December 2026,
        seventeenth session). Where symbol dice stand 7 % of the frame's side, as the
        real d6 of the shared photos do, the die-centre detector finds them as d6 and
        the pip networks hesitate over them: the same 60 Péripéties renders framed
        wider (``bench_peripeties_plain.py``'s trays padded to 993 x 920) read 64 of 299
        symbol dice right against 103 as rendered (9 %). Now 97 and 121; under the
        issue's transforms 95 / 115 / 87 / 121 / 124 / 104 instead of 60 / 95 / 77 / 95
        / 100 / 88; other render seeds (``--seed 1000``) 102 -> 123; silently wrong as
        before (0 as rendered); the 379 held-aside real d6 in such a step, as taken and
        under every simulated camera of ``bench_other_cameras.py``, read exactly as
        before."""
        first, open_set = _open_set(classifiers)
        over: dict[int, Candidate] = {}
        for i, o in enumerate(objs):
            if first and o.kind not in open_set:
                c = next((c for c in found if _overlap(c.box, o.box) and _moved(c.box, o.box)), None)
                if c is not None:
                    over[i] = c
        if not over:
            return objs
        out = list(objs)
        bodies = _bodies(_medians(frame, list(over.values())))
        for clf in first:
            for i, claim in zip(over, clf.classify(frame, list(over.values()), bodies)):
                if claim is not None:
                    out[i] = best_claim([out[i], claim], open_set)
        return out

    def _read_detected(self, frame: np.ndarray, detectors: Sequence[Detector],
                       classifiers: Sequence[ObjectClassifier], farther: bool = False, alone: bool = False
                       ) -> list[ObjectRead]:
        """The objects ``detectors`` find, read by ``classifiers``; ``farther``: dice far
        larger than learnt are looked for (:meth:`_farther_look`); ``alone``: the step
        expects no other kind than these detectors', so the closer look may take a first
        look's place more readily (:meth:`_closer_look`)."""
        cands: list[Candidate] = []
        for det in detectors:
            cands.extend(det.detect(frame))
        if len(detectors) > 1:
            cands = _merge(cands)
        d6_only = all(tuple(getattr(d, "kinds", ())) == ("d6",) for d in detectors)
        if farther and d6_only and _unsure(cands) and all(isinstance(d, DiceDetector) for d in detectors):
            scale = _first_scale(frame, detectors) * FARTHER_SCALE
            image = shrink(frame, scale)
            found = _dice_in(image, scale, detectors)  # the farther look, then the first of the larger dice's
            far = self._farther_look(cands, found, scale)
            # dice larger than learnt: found (no closer look at them); or maybe a close-up
            objs, small = ((self._classify(frame, far, classifiers), False) if far is not None
                           else self._read_found(frame, cands, detectors, classifiers, d6_only, alone))
            return self._dice_over_their_pips(frame, objs, detectors, classifiers, (image, scale, found), small)
        return self._read_found(frame, cands, detectors, classifiers, d6_only, alone)[0]

    def _read_found(self, frame: np.ndarray, cands: list[Candidate], detectors: Sequence[Detector],
                    classifiers: Sequence[ObjectClassifier], d6_only: bool, alone: bool
                    ) -> tuple[list[ObjectRead], bool]:
        """The first look's candidates read: for d6 alone, looked at again closer or in a
        zoomed region when they are small for the networks (:meth:`_closer_look`,
        :meth:`_read_zoomed`); and whether the closer look's candidates took the place of
        the first look's (dice smaller than learnt, see :meth:`_dice_over_their_pips`)."""
        if not cands and not d6_only:
            return [], False
        if d6_only:
            first_scale = _first_scale(frame, detectors)
            region = _zoom_region(frame, cands)
            closer = None
            if region is None:
                closer = self._closer_look(frame, cands, detectors, alone)
                if closer is not None:
                    cands, first_scale = closer
                    region = _zoom_region(frame, cands)
            if not cands:
                return [], False
            if region is not None:
                side = float(np.median([c.side for c in cands]))
                return self._read_zoomed(frame, region, side, first_scale, detectors, classifiers,
                                         upper_bound=closer is not None and alone), closer is not None
        return self._classify(frame, cands, classifiers), False

    def _closer_look(self, frame: np.ndarray, cands: Sequence[Candidate], detectors: Sequence[Detector],
                     alone: bool) -> tuple[list[Candidate], float] | None:
        """Dice far smaller than the die-centre network learnt (under about 8 px at its
        input: a webcam's 25-px dice in a 1280 x 720 frame) come out of the first look as
        a few large blobs, each a cluster of dice, so their size does not ask for the
        second look; dice smaller still are not seen at all. A large frame whose first look
        found dice of 5 % of its side or more, or nothing, is therefore looked at once
        more, at :data:`MAX_LOOK_PX`: when that look finds clearly more (or as many, and
        surer of them: :data:`CLOSER_GAIN`) and clearly smaller dice (:data:`CLOSER_MORE`,
        :data:`CLOSER_EXTRA`, :data:`CLOSER_SMALLER`; at least three after a first look
        that found nothing) and the first look was unsure of its own
        (:data:`CLOSER_BELOW_SCORE`), its candidates (in frame pixels) and its input
        scale replace the first look's; else None (the first look stands). Their sizes
        are only an upper bound (see :data:`FLOOR_PX`).

        Not ``alone`` (the step expects other kinds too: d10, symbol dice), only the
        first rule with :data:`CLOSER_MIXED_EXTRA` dice more, and never after a first
        look that found nothing: the closer look finds numeral dice as d6 candidates,
        and the pip networks read some of them (rendered d10 of 30 px in 1920 x 1080
        frames, a d6 + d10 step: 3 silently wrong with the first rule alone, 6 with the
        others)."""
        longer = max(frame.shape[:2])
        if longer <= ZOOM_ABOVE or not all(isinstance(d, DiceDetector) for d in detectors):
            return None
        if cands and float(np.median([c.score for c in cands])) >= CLOSER_BELOW_SCORE:
            return None  # dice the network is sure of: real dice of their size, not clusters
        if not cands and not alone:
            return None
        scale = MAX_LOOK_PX / longer
        found = _dice_in(shrink(frame, scale), scale, detectors)
        least = len(cands) + (CLOSER_EXTRA if alone else CLOSER_MIXED_EXTRA) if cands else 3
        more = len(found) >= CLOSER_MORE * len(cands) and len(found) >= least
        surer = alone and bool(cands) and len(found) >= len(cands) and (
            float(np.median([c.score for c in found])) >= float(np.median([c.score for c in cands])) + CLOSER_GAIN)
        if not (more or surer):
            return None
        if cands and float(np.median([c.side for c in found])) > CLOSER_SMALLER * float(
                np.median([c.side for c in cands])):
            return None
        return found, scale

    def _farther_look(self, cands: Sequence[Candidate], found: list[Candidate], far: float
                      ) -> list[Candidate] | None:
        """Dice far larger than the die-centre network learnt (a camera close to a few
        dice: 12 % of the frame's side or more) come out of the first look as their pips
        and parts, unsure (mean score under :data:`FARTHER_SURE`) and sized 16-30 px at
        its input. Such a first look (:func:`_unsure`, ``cands``) is followed by a look at
        :data:`FARTHER_SCALE` times its scale (``found``, the frame at scale ``far``);
        its candidates replace the first look's when it is sure of at least
        :data:`FARTHER_MIN_DICE` dice (mean score :data:`FARTHER_SURE`,
        :data:`FARTHER_GAIN` above the first's) of :data:`FARTHER_MIN_PX` or more at its
        input, and the first look's were not small (dice smaller than learnt: the closer
        look's); else None (the first look stands)."""
        if cands and float(np.median([c.side for c in cands])) * far / FARTHER_SCALE < FARTHER_MIN_PX:
            return None  # small candidates: dice smaller than learnt (the closer look's)
        if len(found) < FARTHER_MIN_DICE:
            return None
        mean = float(np.mean([c.score for c in cands])) if cands else 0.0
        mean2 = float(np.mean([c.score for c in found]))
        if mean2 < FARTHER_SURE or mean2 <= mean + FARTHER_GAIN:
            return None
        return found if float(np.median([c.side for c in found])) * far >= FARTHER_MIN_PX else None

    def _dice_over_their_pips(self, frame: np.ndarray, objs: list[ObjectRead], detectors: Sequence[Detector],
                              classifiers: Sequence[ObjectClassifier],
                              farther: tuple[np.ndarray, float, list[Candidate]], small: bool = False
                              ) -> list[ObjectRead]:
        """``objs`` (read in a frame whose first look was unsure: its dice may be far
        larger than learnt) with the objects inside a larger die replaced by that die: the
        farther look (``farther``: its image, its scale, its candidates) and looks at
        :data:`FARTHER_SCALE` times its scale, and again, find the dice that could hold
        them (score :data:`FARTHER_SURE` or more); of those the classifiers *read* as a d6,
        the strongest at each place takes the place of the objects inside its box at most
        1/:data:`LARGER_RATIO` its side (see :data:`LARGER_MIN_INPUT`). Where some did,
        the reads left that small beside them are pending: pips of a die cut by the
        frame's edge or one the networks are unsure of (crops of 6 die sides at 1920 px:
        silently wrong 9 -> 5, reads of no die 30 -> 6, the same dice read right).
        ``small``: the objects are the closer look's, dice smaller than learnt; a blob
        over several of them is then no host when one of them is read as a face other
        than 1 (a pip alone looks like a 1): four white d6 of 26 px in a tilted
        1920 x 1080 webcam frame were read as one die showing 4 at 0.95."""

        def holds(c: Candidate, o: ObjectRead) -> bool:
            x, y, w, h = o.box
            return (abs(c.cx - x - w / 2) < c.side / 2 and abs(c.cy - y - h / 2) < c.side / 2
                    and c.side >= LARGER_RATIO * max(w, h))

        if not objs:
            return objs
        larger: list[Candidate] = []
        image, scale, found = farther
        while max(image.shape[:2]) >= LARGER_MIN_INPUT:
            larger += [c for c in found if c.score >= FARTHER_SURE and any(holds(c, o) for o in objs)]
            image = shrink(image, FARTHER_SCALE)  # each look's image from the last one's
            scale *= FARTHER_SCALE
            found = _dice_in(image, scale, detectors) if max(image.shape[:2]) >= LARGER_MIN_INPUT else []
        larger.sort(key=lambda c: -c.score)
        hosts: list[tuple[Candidate, ObjectRead]] = []
        for c, claim in zip(larger, self._claims(frame, larger, classifiers)):
            if claim is not None and claim.kind == "d6" and claim.status == STATUS_READ and not any(
                    _overlap(c.box, h.box) for h, _ in hosts) and not (small and any(
                    o.status == STATUS_READ and o.value != 1 and holds(c, o) for o in objs)):
                hosts.append((c, claim))
        kept: list[ObjectRead] = []
        taken: set[int] = set()
        for o in objs:
            k = next((k for k, (c, _) in enumerate(hosts) if holds(c, o)), None)
            if k is None:
                kept.append(o)
            else:
                taken.add(k)
        if taken:
            side = float(np.median([hosts[k][0].side for k in taken]))
            kept = [_pending(o) if max(o.box[2:]) * LARGER_RATIO <= side else o for o in kept]
        return kept + [hosts[k][1] for k in sorted(taken)]

    def _classify(self, frame: np.ndarray, cands: Sequence[Candidate],
                  classifiers: Sequence[ObjectClassifier]) -> list[ObjectRead]:
        """Per candidate, the best claim of ``classifiers`` (:meth:`_claims`); candidates
        nobody claims are dropped."""
        return [o for o in self._claims(frame, cands, classifiers) if o is not None]

    def _claims(self, frame: np.ndarray, cands: Sequence[Candidate],
                classifiers: Sequence[ObjectClassifier]) -> list[ObjectRead | None]:
        """Per candidate, the best claim of ``classifiers`` (:func:`best_claim`: a read
        beats a pending, then confidence), None where nobody claims it. The open-set
        classifiers are asked first, and a candidate one of them reads is not shown to
        the others (their claims could not change it)."""
        meds = _medians(frame, cands)
        bodies = _bodies(meds)
        claims: list[list[ObjectRead]] = [[] for _ in cands]
        first, open_set = _open_set(classifiers)
        for clf in first + [clf for clf in classifiers if clf not in first]:
            ask = [i for i, cl in enumerate(claims)
                   if clf in first or not any(o.status == STATUS_READ and o.kind in open_set for o in cl)]
            if not ask:
                continue
            for i, obj in zip(ask, clf.classify(frame, [cands[i] for i in ask], [bodies[i] for i in ask])):
                if obj is not None:
                    claims[i].append(obj)
        return [_named(best_claim(cl, open_set), med, None) if cl else None for cl, med in zip(claims, meds)]

    def _read_zoomed(self, frame: np.ndarray, region: tuple[int, int, int, int], side: float, first_scale: float,
                     detectors: Sequence[Detector], classifiers: Sequence[ObjectClassifier],
                     upper_bound: bool = False) -> list[ObjectRead]:
        """The second look at ``region`` of ``frame``, whose dice the first look sized
        ``side`` px: found again with the region scaled so that ``side`` becomes
        :data:`ZOOM_DIE_PX` at the network's input, then classified in the region
        brought to :data:`CROP_DIE_PX` per die (the crops' own scale in training) if
        larger. Boxes back in ``frame`` pixels. ``side`` is taken as an upper bound (aimed
        at :data:`FLOOR_AIM_PX`, then measured again) when it is under :data:`FLOOR_PX`
        at the first look's input, or with ``upper_bound`` (the closer look's dice)."""
        from dataclasses import replace

        x0, y0, x1, y1 = region
        sub = frame[y0:y1, x0:x1]

        looked: list[tuple[float, np.ndarray]] = []

        def look(scale: float) -> list[Candidate]:
            """The candidates of ``sub`` scaled by ``scale`` (from the last look's image
            when it is larger: a small shrink), in ``sub`` pixels."""
            scale = min(1.0, scale, MAX_LOOK_PX / max(sub.shape[:2]))  # the time bar first
            prev_s, prev = looked[-1] if looked and looked[-1][0] > scale else (1.0, sub)
            small = shrink(prev, scale / prev_s)
            looked.append((scale, small))
            found: list[Candidate] = []
            for det in detectors:  # the die-centre network at this scale; another finder, its own way
                got = det.detect(small, scale=1.0) if isinstance(det, DiceDetector) else det.detect(small)
                found.extend(replace(c, cx=c.cx / scale, cy=c.cy / scale, side=c.side / scale) for c in got)
            return _merge(found) if len(detectors) > 1 else found

        first = first_scale * side  # the dice's size at the first look's input
        floor = upper_bound or first < FLOOR_PX  # that size is only an upper bound
        aim = FLOOR_AIM_PX if floor else ZOOM_DIE_PX
        scale = min(1.0, aim / max(side, 1.0))
        cands = look(scale)
        if cands and floor:
            measured = scale * float(np.median([c.side for c in cands]))
            if measured > ZOOM_AGAIN_ABOVE:
                cands = look(scale * ZOOM_DIE_PX / measured)
        if not cands:
            return []
        # classified in the region shrunk by a whole factor (OpenCV's fast area resize)
        # that brings the dice nearest CROP_DIE_PX, or in the frame's own pixels
        k = int(round(float(np.median([c.side for c in cands])) / CROP_DIE_PX))
        s = 1.0
        if k >= 2:
            h, w = (sub.shape[0] // k) * k, (sub.shape[1] // k) * k
            sub = shrink(sub[:h, :w], 1.0 / k)
            s = 1.0 / k
            cands = [replace(c, cx=c.cx * s, cy=c.cy * s, side=c.side * s) for c in cands]
        return [_mapped(o, x0, y0, s)
                for o in self._classify(sub, cands, [_in_region(c, x0, y0, s) for c in classifiers])]

    def _pips_opinion(self, frame: np.ndarray, found: Sequence[TrayObject], objs: list[ObjectRead],
                      skip: Collection[int] = (), kinds: "Collection[str] | None" = None) -> None:
        """Each d6 of ``found`` (the tray's objects) read again by the pip networks, in
        ``objs`` (but those of ``skip``). In a step that expects d6 (``kinds``), an
        object read as a kind the step does not expect is contested by them too: the
        enrolled templates read real red d6 as "automne" gems (:mod:`vision.tray_learned`);
        their read of it is at most a suggestion there."""
        def asked(t: TrayObject) -> bool:  # a d6; in a d6 step, a kind the step does not expect too
            if kinds is not None and "d6" not in kinds:
                # a step expecting no d6: the networks may stop a read d6 (a d10 the templates
                # took for one), never confirm an unsure one (they read rendered d10 as 1s)
                return t.read.kind == "d6" and t.read.status == STATUS_READ
            return t.read.kind == "d6" or (kinds is not None and t.read.kind not in kinds)

        ask = [i for i, t in enumerate(found) if i not in skip and not t.cut and asked(t)]
        if ask and self.pips is not None:
            cands = [Candidate(found[i].centre[0], found[i].centre[1], found[i].side, 1.0) for i in ask]
            bodies = _bodies(_medians(frame, cands))
            pips = getattr(self.pips, "tray", None) or self.pips  # a known tray's own pip classifiers
            for i, net in zip(ask, pips.classify(frame, cands, bodies)):
                if found[i].read.kind == "d6":
                    objs[i] = combine_d6(found[i].read, net)
                elif net is not None:
                    objs[i] = best_claim([found[i].read, _pending(net)])

    def _numerals_opinion(self, frame: np.ndarray, found: Sequence[TrayObject], objs: list[ObjectRead],
                          skip: Collection[int] = ()) -> None:
        """Each whole numeral die of ``found`` read again by the numeral networks (for its
        enrolled kind), in ``objs`` (but those of ``skip``)."""
        kinds = getattr(self.numerals, "kinds", ("d10",))
        for kind in {t.read.kind for t in found if t.read.kind in kinds}:
            mine = [i for i, t in enumerate(found) if t.read.kind == kind and not t.cut and i not in skip]
            if mine and self.numerals is not None:  # a second opinion that can only stop a guess
                cands = [Candidate(found[i].centre[0], found[i].centre[1], float(max(found[i].read.box[2:])), 1.0)
                         for i in mine]
                clf = self.numerals.for_kinds({kind}) if hasattr(self.numerals, "for_kinds") else self.numerals
                for i, net in zip(mine, clf.classify(frame, cands, [])):
                    objs[i] = combine_numeral(objs[i], net)

    def _read_tray(self, frame: np.ndarray, view: Any, kinds: "Collection[str] | None" = None) -> list[ObjectRead]:
        from dataclasses import replace as dc_replace

        from .faces import ClassifyParams
        from .gems import GemParams
        from .background import differs
        from .tray_learned import LEARNED_DICE, merge, replaced
        from .tray_objects import read_objects

        from .gem_colour import white_reference

        def templates(v: Any) -> list[TrayObject]:
            return read_objects(v, self.enrollment, self.params or ClassifyParams(), self.gem_params or GemParams())

        cal = view.calibration
        # the markers alone (no picture of the empty tray): the tray as the segmentation
        # estimated it from the frame (tray pixels) stands in for one (:meth:`_tray_in_frame`)
        est = view.background if cal is not None and cal.background is None else None
        if kinds is not None and set(kinds) <= {"gem", *LEARNED_DICE}:
            # a step of dice the networks read, or gems, alone: the networks read what
            # they found, the enrolled templates only the rest (half the tray's time on
            # real dice)
            gems, refused = self._gems_on_tray(frame, cal, kinds, view.image, est)
            learned = self._dice_on_tray(frame, cal, kinds, estimated=est) + gems
            # ... a numeral die the networks are unsure of is read by the enrolled faces
            # too (the players' own, or the demo's rendered ones: 38 of 80 rendered d12
            # read by the networks, 80 with the templates), the two claims weighed in
            # :func:`merge`
            seen = [o.box for o in learned if o.kind == "d6" or o.kind == "gem" or o.status == STATUS_READ]
            boxes = [view.box_in_input(b) for b in view.blobs]  # each blob mapped once
            rest = [(b, at) for b, at in zip(view.blobs, boxes) if not any(_overlap(at, box) for box in seen)]
            if est is not None and rest:  # what the estimate's segmentation found in felt or wood grain
                empty = self._tray_in_frame(cal, (frame.shape[1], frame.shape[0]), 1.0, est)[0]
                if empty is not None:
                    rest = [r for r, ok in zip(rest, differs(frame, empty, [at for _, at in rest])) if ok]
            found = templates(dc_replace(view, blobs=[b for b, _ in rest]))
            # ... and where the gem reader looked and saw no gem, nothing but a clear gem,
            # which has no colour of its own to read (an orange candy: 85 of 438 were asked
            # about on the candy photos' calibrated trays; clear gems on rendered trays:
            # 4 of 146 lost without the exception)
            found = [t for t in found if _clear_gem(t.read) or not any(_overlap(t.read.box, r) for r in refused)]
        else:
            # the networks are not shown what the templates read as another kind the
            # step expects (a symbol die: on rendered Péripéties trays 139 -> 108 ms)
            found = templates(view)
            elsewhere = [t.read.box for t in found if t.read.status == STATUS_READ and t.read.kind != "d6"
                         and kinds is not None and t.read.kind in kinds]
            learned = self._dice_on_tray(frame, cal, kinds, apart=elsewhere, estimated=est) + self._gems_on_tray(
                frame, cal, kinds, view.image, est)[0]
        white = white_reference(frame)[0] if found else None  # the tray's white: colours white-balanced
        meds = _medians(frame, [Candidate(t.centre[0], t.centre[1], t.side, 1.0) for t in found])
        objs = [t.read for t in found]
        gone = replaced(objs, learned, kinds)  # the networks' objects stand there: no second opinion
        self._pips_opinion(frame, found, objs, skip=gone, kinds=kinds)
        self._numerals_opinion(frame, found, objs, skip=gone)
        objs = [_named(o, med, white) for o, med in zip(objs, meds)]
        return merge(objs, learned, kinds, _open_set(self.classifiers)[1]) if learned else objs

    def _dice_on_tray(self, frame: np.ndarray, calibration: "Calibration | None",
                      kinds: "Collection[str] | None", apart: Sequence[tuple[int, int, int, int]] = (),
                      estimated: np.ndarray | None = None) -> list[ObjectRead]:
        """The dice the plain-photo path reads on a known tray's frame (pip d6, numeral
        dice: :data:`vision.tray_learned.LEARNED_DICE`): the pip networks on the frame
        with its floor brought back to the light floor they learnt when the empty tray is
        known, the numeral dice on the frame as the camera saw it (the markers painted
        over in both); those on the tray's floor only (:mod:`vision.tray_learned`). None
        unless the step expects such dice (``kinds``; ``companion vision read --look-for
        d6``). The networks are not shown the candidates centred in ``apart`` (frame
        pixels: what another reader read). ``estimated``: the empty tray estimated from
        the frame (tray pixels), where the calibration has no picture of it."""
        import cv2

        from .background import LIGHT_FLOOR, SOLID_MM, light_floor
        from .tray_learned import LEARNED_DICE, LOOK_SIDE, frame_px_per_mm, on_floor

        want = set(kinds or ()) & LEARNED_DICE
        if self.pips is None:
            want.discard("d6")
        if calibration is None or not want:
            return []  # no step said it wants such dice: the tray's own reading, as before
        h, w = frame.shape[:2]
        scale = 1.0 / math.ceil(max(h, w) / LOOK_SIDE)  # a whole ratio: OpenCV's area shrink is fast there
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        image = frame if scale == 1.0 else cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        empty, off_floor = self._tray_in_frame(calibration, size, scale, estimated)
        # the pip networks learnt a light floor; the numeral-die detector learnt felt too,
        # and reads a d10 on felt worse repainted (rendered pools on dark green felt:
        # 60 % right repainted, 78 % as seen)
        seen = None
        if empty is None or "d6" not in want or want - {"d6"}:  # the frame as seen is read
            seen = image.copy()
            seen[off_floor] = round(LIGHT_FLOOR)  # the networks take a marker for a die
        if empty is not None and "d6" in want:
            image = light_floor(image, empty, solid=_odd(SOLID_MM * scale * frame_px_per_mm(calibration)))
            image[off_floor] = round(LIGHT_FLOOR)
        elif seen is not None:
            image = seen
        dice = [cut_by_edge(_mapped(o, 0, 0, scale), w, h)
                for o in self._read_learned(image, want, [_scaled(b, scale) for b in apart], seen)]
        return [o for o, ok in zip(dice, on_floor(calibration, [o.box for o in dice])) if ok]

    def _gems_on_tray(self, frame: np.ndarray, calibration: "Calibration | None",
                      kinds: "Collection[str] | None", tray: np.ndarray | None = None,
                      estimated: np.ndarray | None = None
                      ) -> tuple[list[ObjectRead], list[tuple[int, int, int, int]]]:
        """The gems the plain-photo gem path reads on a known tray's frame, its detector
        looking once at the size the calibration gives the gems (:data:`vision
        .tray_learned.GEM_MM`); those on the tray's floor only. None unless the step
        expects gems, or where the frame does not differ from the empty tray
        (:func:`vision.background.differs`: wood grain). Their colours are white-balanced
        by the markers' papers (:func:`vision.tray_learned.markers_white`, in ``tray``,
        the frame's top-down image), else as on a plain photo. ``estimated``: the empty
        tray estimated from the frame (tray pixels), where the calibration has no
        picture of it. And the boxes of the candidates its colour reader refused (no gem)."""
        from .background import differs
        from .tray_learned import GEM_MM, frame_px_per_mm, markers_white, on_floor

        if calibration is None or kinds is None or "gem" not in kinds:
            return [], []
        detectors, classifiers = self._plugins({"gem"})
        seen = [d for d in detectors if hasattr(d, "at_scale")]
        if not seen or not classifiers:
            return [], []
        side = max(frame.shape[:2])
        look = seen[0].at_scale(GEM_MM * frame_px_per_mm(calibration), side)
        white = markers_white(calibration, tray) if tray is not None else None
        if white is not None:  # the markers' papers: white, in view, under the gems' light
            classifiers = [_with_white(c, white) for c in classifiers]
        cands = look.detect(frame)
        claims = self._claims(frame, cands, classifiers) if cands else []
        refused = [c.box for c, o in zip(cands, claims) if o is None]
        gems = [o for o in claims if o is not None]
        gems = [o for o, ok in zip(gems, on_floor(calibration, [o.box for o in gems])) if ok]
        h, w = frame.shape[:2]
        empty = self._tray_in_frame(calibration, (w, h), 1.0, estimated)[0]
        if empty is None or not gems:
            return gems, refused
        return [o for o, ok in zip(gems, differs(frame, empty, [o.box for o in gems])) if ok], refused

    def _tray_in_frame(self, calibration: "Calibration", size: tuple[int, int], scale: float,
                       estimated: np.ndarray | None = None) -> tuple[np.ndarray | None, np.ndarray]:
        """The empty tray (the calibration's reference; without one, ``estimated``: the
        tray the segmentation estimated from this frame, a wide median refined around the
        objects, :func:`vision.segment.find_objects`; else None) and a mask of what is not
        the tray's floor (the markers' papers, the walls, beyond the tray), in the frame's
        pixels at ``scale`` (``size``). The reference's warp and the mask are kept until
        the reference, the homography or the size changes; an estimate is warped each
        time (real d6 on a dark green felt with the markers alone: 17 -> 86 % right
        automatically, ``docs/vision.md``, "The markers alone")."""
        import cv2

        bg = calibration.background

        def to_frame() -> np.ndarray:  # tray pixels to the frame's at ``scale``, when something is warped
            return np.diag([scale, scale, 1.0]) @ np.linalg.inv(calibration.image_to_tray)

        c = self._tray_cache  # holds the reference and homography it was made of: compared by identity
        if c is None or c[0] is not bg or c[1] is not calibration.image_to_tray or c[2] != size:
            m = to_frame()
            empty = None if bg is None else cv2.warpPerspective(bg, m, size, flags=cv2.INTER_LINEAR,
                                                                 borderMode=cv2.BORDER_REPLICATE)
            off = cv2.warpPerspective(calibration.marker_mask(), m, size, flags=cv2.INTER_NEAREST,
                                      borderMode=cv2.BORDER_CONSTANT, borderValue=255)
            c = self._tray_cache = (bg, calibration.image_to_tray, size, empty, off > 0)
        if c[3] is None and estimated is not None:
            tray = np.asarray(np.clip(estimated + 0.5, 0, 255), np.uint8)
            return cv2.warpPerspective(tray, to_frame(), size, flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE), c[4]
        return c[3], c[4]

    def read(self, source: str | Path | bytes | np.ndarray, name: str | None = None,
             kinds: "Collection[str] | None" = None) -> Read:
        """Read one image; never raises on a bad image (see ``Read.error``).

        ``kinds``: what the game's step expects (e.g. ``{"d10"}``, ``{"gem"}``); on a plain
        photo only the plug-ins of those kinds run (a plug-in says its ``kinds`` or
        ``kind``; one that says neither always runs). Without ``kinds``, a plug-in marked
        ``on_request`` does not run: the gem reader finds round things in any texture
        (on random noise: 58 candidates, nearly all pending, one read), so it looks only
        when gems are asked for. A known tray reads every kind: the table's matcher marks
        what the step has no use for."""
        t0 = time.perf_counter()
        if name is None and isinstance(source, (str, Path)):
            name = str(source)
        try:
            frame = decode(source)
        except ImageError as exc:
            return Read(image=name, ms=(time.perf_counter() - t0) * 1000, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - a decoder bug must not take the table down
            return Read(image=name, ms=(time.perf_counter() - t0) * 1000, error=f"cannot decode image: {exc}")
        size = (int(frame.shape[1]), int(frame.shape[0]))
        if _uniform(frame):
            level = "black" if float(frame.mean()) < 20 else "blank"
            return Read(image=name, ms=(time.perf_counter() - t0) * 1000, size=size,
                        error=f"{level} frame (one uniform colour): nothing to read")
        try:
            objs, extra = self._read_frame(frame, kinds, checked=True)
        except Exception as exc:  # noqa: BLE001 - report, never crash the caller
            return Read(image=name, ms=(time.perf_counter() - t0) * 1000, size=size,
                        error=f"reader failed: {type(exc).__name__}: {exc}")
        return Read(objects=objs, image=name, ms=(time.perf_counter() - t0) * 1000, size=size, extra=extra)


_DEFAULT: list[Reader] = []


def default_reader() -> Reader:
    """The process's shared default reader (built on first use)."""
    if not _DEFAULT:
        _DEFAULT.append(Reader())
    return _DEFAULT[0]


def read_image(source: str | Path | bytes | np.ndarray, *, reader: Reader | None = None,
               name: str | None = None) -> Read:
    """Read the dice in one image (a path, encoded bytes, or a BGR/grey uint8 array).

    Never raises on a bad image: ``Read.error`` says what went wrong. A missing or broken
    model does raise :class:`vision.nets.ModelError` (an installation problem)."""
    return (reader or default_reader()).read(source, name=name)
