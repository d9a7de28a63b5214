"""The top-level reader: an image (file, bytes or array) in, a :class:`~vision.read.Read` out.

Pipeline::

    frame ──> detectors (die-centre network) ──> candidates (centre, side, score)
          ──> body colour of each candidate (median Lab of its centre)
          ──> every classifier gives each candidate an ObjectRead, or None ("not mine")
          ──> per candidate, the best claim: a "read" beats a "pending", then confidence

Plug-ins. :class:`Reader` takes a list of ``detectors`` (anything with
``detect(frame) -> list[Candidate]``) and a list of ``classifiers`` (anything with
``classify(frame, candidates, bodies) -> list[ObjectRead | None]``, ``bodies`` being each
candidate's body colour as an OpenCV 8-bit Lab triple). The d6 pip reader
(:class:`vision.pips.PipClassifier`) is the default; the enrolled-face readers (numeral
dice, péripétie symbol dice told apart by body colour) and the gem reader plug in the
same way: ``Reader(classifiers=[PipClassifier(), FaceClassifier(enrolled)])``, and a gem
detector is added to ``detectors``. Candidates of several detectors closer than half a
side are merged (the strongest kept).

The reader never raises on a bad image: an unreadable, truncated, blank or absurdly sized
frame gives a :class:`Read` with no objects and ``error`` saying why.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any, Protocol, Sequence

import numpy as np

from .detect import Candidate
from .read import STATUS_READ, ObjectRead, Read

__all__ = ["Reader", "read_image", "Detector", "ObjectClassifier", "decode", "ImageError",
           "MIN_SIDE", "MAX_SIDE"]

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
    """Why ``data`` is a cut-off JPEG or PNG, or None."""
    tail = data.rstrip(b"\0")[-64:]
    if data[:3] == b"\xff\xd8\xff" and not tail.endswith(b"\xff\xd9"):
        return "truncated JPEG file (no end-of-image marker)"
    if data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in tail:
        return "truncated PNG file (no IEND chunk)"
    return None


def decode(source: str | Path | bytes | np.ndarray) -> np.ndarray:
    """A BGR uint8 frame from a path, encoded bytes or an array; :class:`ImageError` if
    it cannot be read or has no usable size."""
    import cv2

    if isinstance(source, np.ndarray):
        frame = source
        if frame.dtype != np.uint8:
            raise ImageError(f"image array must be uint8, not {frame.dtype}")
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        elif frame.ndim == 3 and frame.shape[2] == 4:
            frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
        elif frame.ndim == 3 and frame.shape[2] == 1:
            frame = cv2.cvtColor(frame[:, :, 0], cv2.COLOR_GRAY2BGR)
        elif not (frame.ndim == 3 and frame.shape[2] == 3):
            raise ImageError(f"image array must be H x W (x 1, 3 or 4), not {frame.shape}")
    else:
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
        else:
            path = Path(source)
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                raise ImageError(f"no such file: {path}") from None
            except IsADirectoryError:
                raise ImageError(f"is a folder, not an image: {path}") from None
            except OSError as exc:
                raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None
        if not data:
            raise ImageError("empty image file")
        why = _truncated(data)
        if why:
            raise ImageError(why)
        try:
            frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        except cv2.error:
            frame = None
        if frame is None:
            raise ImageError("not an image OpenCV can decode (corrupt or unknown format)")
    h, w = frame.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageError(f"image too small: {w}x{h} pixels (at least {MIN_SIDE} on each side)")
    if max(h, w) > MAX_SIDE:
        raise ImageError(f"image too large: {w}x{h} pixels (at most {MAX_SIDE} on a side)")
    return frame


def body_colour(frame: np.ndarray, cand: Candidate) -> tuple[float, float, float]:
    """Median Lab (OpenCV 8-bit scale) of the central half of the candidate's square:
    the die's body colour (pips are a minority of those pixels)."""
    import cv2

    h, w = frame.shape[:2]
    r = max(1, int(cand.side / 4))
    x0, x1 = max(0, int(cand.cx) - r), min(w, int(cand.cx) + r + 1)
    y0, y1 = max(0, int(cand.cy) - r), min(h, int(cand.cy) + r + 1)
    patch = frame[y0:y1, x0:x1]
    if patch.size == 0:
        return (0.0, 128.0, 128.0)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    med = np.median(lab, axis=0)
    return (float(med[0]), float(med[1]), float(med[2]))


def _uniform(frame: np.ndarray) -> bool:
    """True for a blank frame: one colour (+ noise), judged on every 4th pixel."""
    return float(frame[::4, ::4].std()) < 2.0


def _merge(cands: list[Candidate]) -> list[Candidate]:
    out: list[Candidate] = []
    for c in sorted(cands, key=lambda c: -c.score):
        if not any(math.hypot(o.cx - c.cx, o.cy - c.cy) < 0.5 * max(o.side, c.side) for o in out):
            out.append(c)
    return out


class Reader:
    """Detectors + classifiers; models are loaded once, at construction."""

    def __init__(self, detectors: Sequence[Detector] | None = None,
                 classifiers: Sequence[ObjectClassifier] | None = None,
                 settings: dict[str, Any] | None = None, tta: bool = True) -> None:
        from .nets import MODELS_DIR, load_settings

        cfg = settings if settings is not None else load_settings(MODELS_DIR / "d6.json")
        if detectors is None:
            from .detect import DiceDetector

            detectors = [DiceDetector(det_size=int(cfg.get("det_size", 320)), stride=int(cfg.get("stride", 4)),
                                      threshold=float(cfg.get("thresholds", {}).get("det", 0.3)))]
        if classifiers is None:
            from .pips import PipClassifier

            classifiers = [PipClassifier(settings=cfg, tta=tta)]
        self.detectors = list(detectors)
        self.classifiers = list(classifiers)

    def read_frame(self, frame: np.ndarray) -> tuple[ObjectRead, ...]:
        """Every object in a decoded BGR frame, in reading order (top to bottom, left to
        right by rows of about one die)."""
        if _uniform(frame):
            return ()
        cands: list[Candidate] = []
        for det in self.detectors:
            cands.extend(det.detect(frame))
        if len(self.detectors) > 1:
            cands = _merge(cands)
        if not cands:
            return ()
        bodies = [body_colour(frame, c) for c in cands]
        claims: list[list[ObjectRead]] = [[] for _ in cands]
        for clf in self.classifiers:
            for i, obj in enumerate(clf.classify(frame, cands, bodies)):
                if obj is not None:
                    claims[i].append(obj)
        objs = [max(cl, key=lambda o: (o.status == STATUS_READ, o.confidence)) for cl in claims if cl]
        row = max(1.0, float(np.median([o.box[3] for o in objs]))) if objs else 1.0
        objs.sort(key=lambda o: (round((o.box[1] + o.box[3] / 2) / row), o.box[0]))
        return tuple(objs)

    def read(self, source: str | Path | bytes | np.ndarray, name: str | None = None) -> Read:
        """Read one image; never raises on a bad image (see ``Read.error``)."""
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
            objs = self.read_frame(frame)
        except Exception as exc:  # noqa: BLE001 - report, never crash the caller
            return Read(image=name, ms=(time.perf_counter() - t0) * 1000, size=size,
                        error=f"reader failed: {type(exc).__name__}: {exc}")
        return Read(objects=objs, image=name, ms=(time.perf_counter() - t0) * 1000, size=size)


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
