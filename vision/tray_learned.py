"""The d6, the numeral dice and the gems of a known tray, read by the trained networks as
on a plain photo.

On a tray with its four markers the reader finds objects by their difference from the
empty tray and reads them against the enrolled faces and colours
(:mod:`vision.tray_objects`). For pip d6 and gems those are, unless the players taught
their own, the synthetic templates shipped for the demo (for d6 the pip networks had to
agree with them). On the real dice of ``shared/data/tray-dice-photos`` laid in a
calibrated tray (:func:`vision.floors.calibrated_tray`: the photo framed by the four
markers, its empty tray beside it) that read **2-4 %** of the dice automatically, the
templates calling most of them gems, d10 or symbol dice, and read 4 red dice as
"automne" gems, silently; the candies of ``shared/data/colour-candies`` framed so, none
automatically. The networks, trained on those real photos, read 93 % of the dice and
99 % of the candies on a plain photo.

So in a step that expects d6 or gems, a known tray is read twice (7 December 2026):

- for d6, the frame, its floor brought back to the light grey floor the networks learnt
  (:func:`vision.background.light_floor`, from the empty tray), goes through the
  plain-photo d6 path (the die-centre network, its closer and farther looks, the pip
  networks); for gems, the frame goes through the plain-photo gem path, its detector
  looking once at the size the calibration gives a gem (:data:`GEM_MM`); what they
  find on a marker or outside the tray is dropped (:func:`on_floor`);
- :func:`merge` then joins them with the tray's own objects: where both found an object
  the networks' read stands, unless the tray read it as another kind the step expects
  (its read stands, as on a plain photo the dice the numeral or symbol reader read are
  not the d6 path's) or the two claims conflict (:func:`vision.claims.best_claim`: a
  tray read of another kind, or close to one, makes it pending); an object only the
  tray found is read as before.

In a step that expects numeral dice (:data:`LEARNED_DICE`), the plain-photo numeral
path reads the frame as the camera saw it (its detector learnt felt), the d6 path the
repainted one; the templates read what the networks left pending too (the players' own
dice enrolled on the tray, the demo's rendered ones), weighed with them by :func:`merge`.
Rendered d10 pools framed as a calibrated tray: 31.6 % right before, 79.1 % now; in
Péripéties' d6-or-d10 step 82 d10 read as d6 faces before, none now.

Measured (``benchmarks/bench_calibrated_tray.py``, the held-aside photos; ``--numerals
d10``): see ``docs/vision.md``, "A calibrated tray".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Collection, Sequence

import numpy as np

from .claims import best_claim, overlap
from .result import STATUS_READ, ObjectRead

if TYPE_CHECKING:
    from .calibration import Calibration

__all__ = ["on_floor", "merge", "replaced", "frame_px_per_mm", "markers_white", "LOOK_SIDE", "GEM_MM",
           "LEARNED_DICE"]

#: The dice kinds the plain-photo networks read on a known tray too: pip d6 (the d6
#: path) and the numeral dice (the numeral-die detector and the numeral networks, with
#: the players' own enrolled views of the kind).
LEARNED_DICE = frozenset({"d6", "d4", "d8", "d10", "d12", "d20"})

#: A gem's side in millimetres, for the gem detector's one look on a calibrated tray
#: (:meth:`vision.gem_detect.GemDetector.at_scale`): the candies it learnt are about
#: 15 mm, ESPRI's glass gems 15-20 mm, and it takes 0.7 to 1.4 times its learnt size.
GEM_MM = 16.0

#: A frame longer than this is shrunk by a whole ratio to this size or under before its
#: floor is repainted and its d6 read (a 2028 x 1520 Pi frame to 1014 x 760: its dice
#: some 100 px, the pip networks read 48 px crops): the repainting alone took 83 ms at
#: full size, 15 ms at half.
LOOK_SIDE = 1024


def on_floor(calibration: "Calibration", boxes: Sequence[tuple[int, int, int, int]]) -> list[bool]:
    """For each box (frame pixels), whether its centre lies on the tray's floor: inside
    the tray and off the markers' papers (:meth:`Calibration.marker_mask`). The
    plain-photo networks take a marker for a die.

    >>> from vision.calibration import Calibration
    >>> from vision.markers import MarkerLayout
    >>> cal = Calibration(MarkerLayout(), 1.0, np.eye(3), (240, 170))
    >>> on_floor(cal, [(100, 80, 10, 10), (2, 2, 10, 10), (300, 80, 10, 10)])
    [True, False, False]
    """
    import cv2

    if not boxes:
        return []
    mask = calibration.marker_mask()
    h, w = mask.shape[:2]
    centres = np.array([[[x + bw / 2.0, y + bh / 2.0]] for x, y, bw, bh in boxes], np.float64)
    pts = cv2.perspectiveTransform(centres, calibration.image_to_tray).reshape(-1, 2)
    out = []
    for x, y in pts:
        inside = 0 <= x < w and 0 <= y < h
        out.append(bool(inside and mask[int(y), int(x)] == 0))
    return out


def markers_white(calibration: "Calibration", tray: np.ndarray) -> np.ndarray | None:
    """The BGR of the markers' white quiet zones in ``tray`` (the frame warped to the
    tray's top-down image, :meth:`Calibration.warp`): the median over the four papers'
    rings between the black square and the paper's edge, half a millimetre in from each;
    None when under half of those pixels are in view. A calibrated tray always has that
    white in view, under the same light as the gems.

    >>> from vision.calibration import Calibration
    >>> from vision.markers import MarkerLayout
    >>> lay = MarkerLayout(tray_mm=(100.0, 80.0))
    >>> cal = Calibration(lay, 2.0, np.eye(3), (200, 160))
    >>> tray = np.full((160, 200, 3), (40, 60, 30), np.uint8)   # felt
    >>> for cx, cy in lay.marker_centres_mm():
    ...     x, y = int(cx * 2), int(cy * 2)
    ...     tray[y - 26:y + 26, x - 26:x + 26] = (200, 205, 210)   # the paper
    ...     tray[y - 20:y + 20, x - 20:x + 20] = 0                  # the black square
    >>> markers_white(cal, tray).tolist()
    [200.0, 205.0, 210.0]
    """
    ppm = calibration.px_per_mm
    lay = calibration.layout
    inner, outer = lay.marker_mm / 2 + 0.5, lay.paper_mm / 2 - 0.5
    h, w = tray.shape[:2]
    pixels, want = [], 0
    for cx, cy in lay.marker_centres_mm():
        x0, x1 = int(np.floor((cx - outer) * ppm)), int(np.ceil((cx + outer) * ppm))
        y0, y1 = int(np.floor((cy - outer) * ppm)), int(np.ceil((cy + outer) * ppm))
        ys, xs = np.mgrid[y0:y1, x0:x1]
        d = np.maximum(np.abs((xs + 0.5) / ppm - cx), np.abs((ys + 0.5) / ppm - cy))
        ring = (d >= inner) & (d <= outer)
        want += int(ring.sum())
        ring &= (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        pixels.append(tray[ys[ring], xs[ring]].reshape(-1, 3))
    got = np.concatenate(pixels) if pixels else np.zeros((0, 3), np.uint8)
    if want == 0 or len(got) < 0.5 * want:
        return None
    return np.asarray(np.median(got, axis=0), np.float32)


def frame_px_per_mm(calibration: "Calibration") -> float:
    """The camera frame's pixels per millimetre of the tray's floor (along its width).

    >>> from vision.calibration import Calibration
    >>> from vision.markers import MarkerLayout
    >>> cal = Calibration(MarkerLayout(), 4.0, np.diag([2.0, 2.0, 1.0]), (480, 340))
    >>> frame_px_per_mm(cal)
    2.0
    """
    w, h = calibration.tray_size
    a, b = calibration.to_image(np.array([[0.0, h / 2.0], [float(w), h / 2.0]]))
    return float(np.hypot(*(b - a))) / max(float(calibration.layout.tray_mm[0]), 1e-6)


def _mates(tray: Sequence[ObjectRead], die: ObjectRead, kinds: Collection[str] | None) -> list[int] | None:
    """The tray objects ``die`` overlaps, or None when one of them is read as another
    kind the step expects (that read stands, the die is dropped)."""
    mates = [i for i, t in enumerate(tray) if overlap(t.box, die.box)]
    if kinds is not None and any(tray[i].status == STATUS_READ and tray[i].kind != die.kind
                                 and tray[i].kind in kinds for i in mates):
        return None
    return mates


def replaced(tray: Sequence[ObjectRead], learned: Sequence[ObjectRead], kinds: Collection[str] | None) -> set[int]:
    """The indices of the tray objects that the networks' objects replace (:func:`merge`)."""
    out: set[int] = set()
    for die in learned:
        out.update(_mates(tray, die, kinds) or ())
    return out


def merge(tray: Sequence[ObjectRead], learned: Sequence[ObjectRead], kinds: Collection[str] | None,
          open_set: Collection[str] = ()) -> list[ObjectRead]:
    """The tray's objects and the d6 and gems the networks read on the same frame, as
    one list.

    A tray object read as another kind the step expects (``kinds``) keeps its read and
    hides the networks' object there. Otherwise each object of the networks stands
    against the tray objects it overlaps (they are dropped, :func:`replaced`), weighed with them by
    :func:`vision.claims.best_claim` (``open_set``: the kinds whose reads stand against
    other kinds, the players' symbol faces).

    >>> d6 = ObjectRead("d6", 4, (10, 10, 20, 20), 0.95)
    >>> gem = ObjectRead("gem", "automne", (11, 9, 20, 20), 0.6)
    >>> unsure = ObjectRead("gem", None, (11, 9, 20, 20), 0.1, "pending")
    >>> [(o.kind, o.value, o.status) for o in merge([unsure], [d6], {"d6"})], replaced([unsure], [d6], {"d6"})
    ([('d6', 4, 'read')], {0})
    >>> [(o.kind, o.status) for o in merge([gem], [d6], {"d6"})]
    [('d6', 'pending')]
    >>> [(o.kind, o.value) for o in merge([gem], [d6], {"d6", "gem"})], replaced([gem], [d6], {"d6", "gem"})
    ([('gem', 'automne')], set())
    >>> far = ObjectRead("gem", "hiver", (80, 80, 20, 20), 0.9)
    >>> [(o.kind, o.value) for o in merge([far], [d6], {"d6"})]
    [('d6', 4), ('gem', 'hiver')]
    """
    out: list[ObjectRead] = []
    gone: set[int] = set()
    for die in learned:
        mates = _mates(tray, die, kinds)
        if mates is not None:
            out.append(best_claim([die, *(tray[i] for i in mates)], open_set) if mates else die)
            gone.update(mates)
    return out + [t for i, t in enumerate(tray) if i not in gone]
