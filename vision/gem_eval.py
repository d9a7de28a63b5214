"""Score the gem reader against the labelled candy photos (tests and benchmark).

Matching: a candidate matches a labelled candy when its centre lies within half the
labelled side of the labelled centre; one-to-one, nearest first. Per labelled candy of a
gem colour: *right* (read, the right gem), *pending*, *wrong* (read as another gem: a
silent error), *dismissed* (found but judged "not a gem") or *missed* (no candidate).
Per orange candy (no gem): *as_gem* (read as a gem: must be 0), *pending*, *dismissed*
(the right answer), *missed*. Candidates over no labelled candy are false detections:
*extra_read* (read as a gem: silent), *extra_pending* or dismissed (harmless, uncounted).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Callable, Collection, Iterable, Sequence

import cv2
import numpy as np

from .detect import Candidate
from .frame_transforms import gain, jpeg
from .gem_data import GemLabel, GemPhoto, load_gem_labels

if TYPE_CHECKING:
    from .enroll import Enrollment
from .result import STATUS_READ, ObjectRead

__all__ = ["GemTally", "match", "score", "score_read", "TRANSFORMS", "FLOOR_TRANSFORMS", "evaluate",
           "detector_sweep", "turn_hue", "on_floor", "enroll_players_gems", "alone"]


@dataclass
class GemTally:
    gems: int = 0
    right: int = 0
    pending: int = 0
    wrong: int = 0
    dismissed: int = 0
    missed: int = 0
    orange: int = 0
    orange_as_gem: int = 0
    orange_pending: int = 0
    orange_dismissed: int = 0
    orange_missed: int = 0
    extra_read: int = 0
    extra_pending: int = 0
    photos: int = 0

    def add(self, other: "GemTally") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @property
    def found(self) -> int:
        return self.gems - self.missed

    def pct(self, n: int) -> float:
        return 100.0 * n / max(self.gems, 1)

    def summary(self) -> str:
        return (f"{self.gems} gems: found {self.pct(self.found):.1f} %, right automatically "
                f"{self.pct(self.right):.1f} %, pending {self.pct(self.pending):.1f} %, silently wrong "
                f"{self.wrong} ({self.pct(self.wrong):.2f} %), dismissed {self.dismissed}; "
                f"{self.orange} orange: {self.orange_as_gem} read as a gem, {self.orange_pending} pending, "
                f"{self.orange_dismissed} not a gem, {self.orange_missed} missed; false detections "
                f"{self.extra_read} read + {self.extra_pending} pending")


def match(candidates: Sequence[Candidate], labels: Sequence[GemLabel]) -> dict[int, int]:
    """label index -> candidate index: centre within half the labelled side, one-to-one,
    nearest first."""
    pairs = sorted((d, i, j) for i, c in enumerate(candidates) for j, lab in enumerate(labels)
                   if (d := math.hypot(c.cx - lab.centre[0], c.cy - lab.centre[1])) < 0.5 * lab.side)
    cand_of: dict[int, int] = {}
    used: set[int] = set()
    for _, i, j in pairs:
        if i not in used and j not in cand_of:
            used.add(i)
            cand_of[j] = i
    return cand_of


def score(candidates: Sequence[Candidate], reads: Sequence[ObjectRead | None],
          labels: Sequence[GemLabel]) -> GemTally:
    """Tally one photo (``reads[i]`` is the classifier's answer for ``candidates[i]``)."""
    t = GemTally(photos=1)
    cand_of = match(candidates, labels)
    used = set(cand_of.values())
    for j, lab in enumerate(labels):
        gem = lab.gem
        obj = reads[cand_of[j]] if j in cand_of else None
        if gem is None:
            t.orange += 1
            if j not in cand_of:
                t.orange_missed += 1
            elif obj is None:
                t.orange_dismissed += 1
            elif obj.status == STATUS_READ:
                t.orange_as_gem += 1
            else:
                t.orange_pending += 1
            continue
        t.gems += 1
        if j not in cand_of:
            t.missed += 1
        elif obj is None:
            t.dismissed += 1
        elif obj.status != STATUS_READ:
            t.pending += 1
        elif obj.value == gem:
            t.right += 1
        else:
            t.wrong += 1
    for i, obj in enumerate(reads):
        if i in used or obj is None:
            continue
        if obj.status == STATUS_READ:
            t.extra_read += 1
        else:
            t.extra_pending += 1
    return t


def _rotate(img: np.ndarray, labels: list[GemLabel], angle: float) -> tuple[np.ndarray, list[GemLabel]]:
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    out = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    labs = []
    for lab in labels:
        x, y = m @ np.array([*lab.centre, 1.0])
        s = lab.side
        if 0 <= x < w and 0 <= y < h:
            labs.append(GemLabel(lab.colour, (x - s / 2, y - s / 2, s, s)))
    return out, labs


def _scale(img: np.ndarray, labels: list[GemLabel], f: float) -> tuple[np.ndarray, list[GemLabel]]:
    h, w = img.shape[:2]
    out = cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return out, [GemLabel(lab.colour, (lab.box[0] * f, lab.box[1] * f, lab.box[2] * f, lab.box[3] * f))
                 for lab in labels]


def _closer(img: np.ndarray, labels: list[GemLabel], f: float) -> tuple[np.ndarray, list[GemLabel]]:
    """A camera ``f`` times closer: the middle 1/f of the frame, at its own pixels (the
    gems ``f`` times their share of the frame); candies whose centre is cut off dropped."""
    h, w = img.shape[:2]
    cw, ch = round(w / f), round(h / f)
    x0, y0 = (w - cw) // 2, (h - ch) // 2
    labs = [GemLabel(lab.colour, (lab.box[0] - x0, lab.box[1] - y0, lab.box[2], lab.box[3])) for lab in labels
            if x0 <= lab.centre[0] < x0 + cw and y0 <= lab.centre[1] < y0 + ch]
    return np.ascontiguousarray(img[y0:y0 + ch, x0:x0 + cw]), labs


def _farther(img: np.ndarray, labels: list[GemLabel], f: float) -> tuple[np.ndarray, list[GemLabel]]:
    """A camera ``f`` (1 < f <= 2) times farther: the photo and its mirror images in a
    2 x 2 mosaic (a tray continued by itself), the middle f times the frame cut from it
    and scaled back to the frame's size (the gems 1/f of their share of the frame)."""
    h, w = img.shape[:2]
    big = np.vstack([np.hstack([img, img[:, ::-1]]), np.hstack([img[::-1], img[::-1, ::-1]])])
    labs = []
    for fx in (False, True):
        for fy in (False, True):
            for lab in labels:
                x, y, bw, bh = lab.box
                labs.append(GemLabel(lab.colour, ((2 * w - x - bw) if fx else x, (2 * h - y - bh) if fy else y, bw, bh)))
    cw, ch = min(2 * w, round(w * f)), min(2 * h, round(h * f))
    x0, y0 = (2 * w - cw) // 2, (2 * h - ch) // 2
    s = w / cw
    out = cv2.resize(big[y0:y0 + ch, x0:x0 + cw], (w, round(ch * s)), interpolation=cv2.INTER_AREA)
    return np.asarray(out), [GemLabel(lab.colour, ((lab.box[0] - x0) * s, (lab.box[1] - y0) * s, lab.box[2] * s,
                                                   lab.box[3] * s)) for lab in labs
                             if 0 <= lab.centre[0] - x0 < cw and 0 <= lab.centre[1] - y0 < ch]


Transform = Callable[[np.ndarray, list[GemLabel]], tuple[np.ndarray, list[GemLabel]]]


def turn_hue(degrees: float) -> Transform:
    """Every colour's hue turned by ``degrees`` (a and b of CIE Lab rotated; whites and
    greys kept): another set of gems, whose colours are not the candies' (at 25° a blue
    candy's centre moves about 25 Lab units, several of its spreads)."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))

    def turned(img: np.ndarray, labels: list[GemLabel]) -> tuple[np.ndarray, list[GemLabel]]:
        lab = cv2.cvtColor(img.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
        a, b = lab[..., 1].copy(), lab[..., 2].copy()
        lab[..., 1], lab[..., 2] = c * a - s * b, s * a + c * b
        out = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR) * 255.0 + 0.5
        return np.clip(out, 0, 255).astype(np.uint8), labels

    return turned


def on_floor(name: str, card: bool = False) -> Transform:
    """The photo with the tray's white floor painted as ``name`` of
    :data:`vision.floors.FLOORS` (dark felt, wood, a grey card), its light kept;
    with ``card``, a white card left in the tray's corner (:func:`vision.floors.white_card`)."""
    from .floors import FLOORS, paint_floor, tray_floor, white_card

    colour, texture = FLOORS[name]

    def painted(img: np.ndarray, labels: list[GemLabel]) -> tuple[np.ndarray, list[GemLabel]]:
        mask = tray_floor(img, labels)
        return paint_floor(img, white_card(mask) if card else mask, colour, texture), labels

    return painted


def alone(frame: np.ndarray, labels: Sequence[GemLabel], keep: int) -> np.ndarray:
    """``frame`` with every labelled candy but ``keep`` painted out (each disc and its
    shadow filled with the tray's white, :func:`vision.gem_colour.white_reference`,
    edges softened): a photo of one gem alone in the tray, in the light and white of
    the photo."""
    from .gem_colour import white_reference

    mask = np.zeros(frame.shape[:2], np.uint8)
    for i, lab in enumerate(labels):
        if i != keep:
            cx, cy = lab.centre
            cv2.circle(mask, (int(round(cx)), int(round(cy))), int(round(0.7 * lab.side)) + 3, 255, -1)
    kx, ky = labels[keep].centre
    cv2.circle(mask, (int(round(kx)), int(round(ky))), int(round(0.55 * labels[keep].side)), 0, -1)
    out = frame.copy()
    out[mask > 0] = white_reference(frame)[0]
    soft = cv2.GaussianBlur(out, (0, 0), 2.0)
    edge = cv2.dilate(mask, np.ones((5, 5), np.uint8)) - cv2.erode(mask, np.ones((5, 5), np.uint8))
    out[edge > 0] = soft[edge > 0]
    return out


def enroll_players_gems(store: "Enrollment", photos: Sequence[GemPhoto], per_colour: int,
                        rng: np.random.Generator, transform: Transform = lambda im, labs: (im, labs),
                        leave_out: Collection[str] = ()) -> int:
    """Enroll ``per_colour`` candies of each gem colour (but ``leave_out``) into
    ``store`` as a player does: a photo of one gem alone in the tray
    (:func:`alone`: one labelled candy of a photo of ``photos`` drawn by ``rng``, after
    ``transform``, the others painted out), enrolled by
    :func:`vision.enroll_photos.enroll_frame`, the gem tapped on the tablet at its
    labelled centre (:func:`vision.checks.tap_box`; the painted photos keep the red pegs
    and the paint's own edges, which a player's photo has not); returns how many photos were refused (another candy is then tried)."""
    from .checks import tap_box
    from .enroll_photos import enroll_frame
    from .errors import EnrollmentError
    from .gem_data import GEM_OF

    wanted = {g for g in GEM_OF.values() if g is not None and g not in leave_out}
    got: dict[str, int] = {}
    refused = 0
    for i in rng.permutation(len(photos)):
        if all(got.get(g, 0) >= per_colour for g in wanted):
            break
        frame = cv2.imread(str(photos[int(i)].path), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        labels = load_gem_labels(photos[int(i)], frame.shape[1], frame.shape[0])
        frame, labels = transform(frame, labels)
        need = [lab for lab in labels if lab.gem in wanted and got.get(str(lab.gem), 0) < per_colour]
        if not need:
            continue
        k = int(rng.integers(len(need)))  # one candy a photo, as one photo a view
        try:
            cx, cy = need[k].centre  # tapped on the tablet: the wizard's box around the tap
            box = tap_box([cx / frame.shape[1], cy / frame.shape[0]], frame)
            enroll_frame(store, alone(frame, labels, labels.index(need[k])), "gem", str(need[k].gem), box=box)
        except EnrollmentError:
            refused += 1
            continue
        got[str(need[k].gem)] = got.get(str(need[k].gem), 0) + 1
    return refused

#: name -> (frame, labels) -> (frame, labels): the benchmark's transforms
TRANSFORMS: dict[str, Transform] = {
    "none": lambda im, labs: (im, labs),
    "rotation 30°": lambda im, labs: _rotate(im, labs, 30.0),
    "rotation 90°": lambda im, labs: (np.ascontiguousarray(np.rot90(im)),
                                      [GemLabel(lab.colour, (lab.box[1], im.shape[1] - lab.box[0] - lab.box[2],
                                                             lab.box[3], lab.box[2])) for lab in labs]),
    "scale 0.5x": lambda im, labs: _scale(im, labs, 0.5),
    "blur σ 1.5": lambda im, labs: (cv2.GaussianBlur(im, (0, 0), 1.5), labs),
    "JPEG 30": lambda im, labs: (jpeg(30)(im)[0], labs),
    "brightness -40 %": lambda im, labs: (gain(0.6)(im)[0], labs),
    "brightness +40 %": lambda im, labs: (gain(1.4)(im)[0], labs),
    "camera 2x closer": lambda im, labs: _closer(im, labs, 2.0),
    "camera 1.5x closer": lambda im, labs: _closer(im, labs, 1.5),
    "camera 1.5x farther": lambda im, labs: _farther(im, labs, 1.5),
    "camera 2x farther": lambda im, labs: _farther(im, labs, 2.0),
}


#: name -> transform: the tray's floor painted as another (``bench_gems.py --floors``)
FLOOR_TRANSFORMS: dict[str, Transform] = {
    **{f"floor: {name}": on_floor(name) for name in (
        "dark green felt", "black felt", "dark blue felt", "red felt", "wood", "grey card")},
    **{f"floor: {name} + card": on_floor(name, card=True) for name in ("dark green felt", "dark blue felt", "wood")}}


def score_read(objects: Sequence[ObjectRead], labels: Sequence[GemLabel]) -> GemTally:
    """Tally one photo as the table shows it: ``objects`` is what a read reports (each
    matched by its box's centre), so a gem the colour reader judged "not a gem" is
    *missed* like one never found, and an orange candy nobody reports is *dismissed* (no
    gem: nothing shown is the right answer)."""
    cands = [Candidate.around(o.box) for o in objects]
    t = score(cands, objects, labels)
    t.orange_dismissed, t.orange_missed = t.orange_dismissed + t.orange_missed, 0
    return t


def evaluate(photos: Iterable[GemPhoto], reader: object, transform: Transform = TRANSFORMS["none"],
             kinds: Collection[str] = ("gem",)) -> tuple[GemTally, list[float]]:
    """Tally of ``photos`` after ``transform``, read as the table reads a step expecting
    ``kinds`` (``reader.read(frame, kinds=...)``: give it
    :func:`vision.table_setup.table_reader`), and the CPU ms of this thread for each
    read (the decoded frame given)."""
    total = GemTally()
    ms: list[float] = []
    for ph in photos:
        frame = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if frame is None:
            raise ValueError(f"cannot read {ph.path}")
        labels = load_gem_labels(ph, frame.shape[1], frame.shape[0])
        frame, labels = transform(frame, labels)
        t0 = time.thread_time()
        objects = reader.read(frame, kinds=set(kinds)).objects  # type: ignore[attr-defined]
        ms.append((time.thread_time() - t0) * 1000)
        total.add(score_read(objects, labels))
    return total, ms


def detector_sweep(photos: Iterable[GemPhoto], detector: object,
                   thresholds: Sequence[float]) -> list[tuple[float, int, int, int]]:
    """(threshold, labelled objects, found, false detections) for each threshold: the
    detector run once at its lowest threshold (``detector.threshold`` is lowered for it)
    on ``photos``; every labelled candy counts, orange included (the detector finds
    objects, not gems)."""
    lo = min(thresholds)
    old = detector.threshold  # type: ignore[attr-defined]
    detector.threshold = lo  # type: ignore[attr-defined]
    per: list[tuple[list[Candidate], list[GemLabel]]] = []
    try:
        for ph in photos:
            frame = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
            if frame is None:
                raise ValueError(f"cannot read {ph.path}")
            # the first look only: the threshold is that look's (another scale's look is
            # chosen on candidates above the run-time threshold)
            cands, _ = detector.look(frame)  # type: ignore[attr-defined]
            per.append((cands, load_gem_labels(ph, frame.shape[1], frame.shape[0])))
    finally:
        detector.threshold = old  # type: ignore[attr-defined]
    out = []
    for thr in thresholds:
        n = found = extra = 0
        for cands, labels in per:
            kept = [c for c in cands if c.score >= thr]
            # every candidate read as a gem: score() counts found and extras for all labels
            fake = [ObjectRead("gem", "x", c.box, 1.0) for c in kept]
            t = score(kept, fake, [GemLabel("blue", lab.box) for lab in labels])
            n += t.gems
            found += t.found
            extra += t.extra_read
        out.append((float(thr), n, found, extra))
    return out
