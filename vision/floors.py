"""The shared photos' light tray floor painted as another floor: felt, wood, a dark table.

The candy photos (``shared/data/colour-candies``) all show a white tray and the dice
photos (``shared/data/tray-dice-photos``) a light grey one; ESPRI's gems and the games'
dice are rolled on whatever the players have, and the companion's own tray build asks
for dark matte felt (``hardware.md``). :func:`tray_floor` finds the white tray's floor
in a candy photo (the largest bright colourless region, its convex hull, less the
labelled candies); :func:`dice_floor` the floor around the dice of a dice photo (every
colourless pixel as bright as the floor or darker, the shadows included, less each
labelled die's body); :func:`paint_floor` paints it with another floor, keeping the
photo's light (each pixel's brightness against the floor's: the shadows and the light's
gradient stay). Used by the benchmarks (:data:`FLOORS`: ``bench_gems.py --floors``,
``bench_other_cameras.py --only felt``) and, with random floors, by the gem detector's
training (``train_gems --floors``). :func:`calibrated_tray` frames a dice photo with the
four markers of a calibrated tray and makes its empty tray
(``bench_calibrated_tray.py``).

Pure functions of arrays (OpenCV for colour conversion and masks).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .gem_data import GemLabel

__all__ = ["FLOORS", "tray_floor", "dice_floor", "paint_floor", "random_floor", "white_card", "calibrated_tray",
           "white_tray_crop", "DIE_MM"]

#: name -> (BGR of the floor in the white's light, texture): the benchmark's floors.
#: ``"felt"``: fine grain; ``"wood"``: grain along the rows; ``"plain"``: none.
FLOORS: dict[str, tuple[tuple[int, int, int], str]] = {
    "dark green felt": ((45, 75, 30), "felt"),
    "black felt": ((32, 32, 32), "felt"),
    "dark blue felt": ((85, 45, 28), "felt"),
    "red felt": ((35, 35, 120), "felt"),
    "wood": ((70, 120, 165), "wood"),
    "grey card": ((150, 150, 150), "plain"),
}


def tray_floor(img: np.ndarray, labels: Sequence[GemLabel]) -> np.ndarray:
    """uint8 mask (1: the tray's floor) of a candy photo: the largest bright colourless
    region's convex hull, eroded off the tray's walls, less an ellipse of 0.47 box
    sides around each labelled candy. All zero when no such region covers 2 % of
    the frame.

    >>> img = np.full((100, 100, 3), 20, np.uint8); img[20:80, 20:80] = 200
    >>> m = tray_floor(img, [GemLabel("red", (40.0, 40.0, 10.0, 10.0))])
    >>> int(m[30, 30]), int(m[45, 45]), int(m[5, 5])
    (1, 0, 0)
    """
    import cv2

    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    white = ((hsv[..., 1] < 70) & (hsv[..., 2] > 120)).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=8)
    mask = np.zeros(white.shape, np.uint8)
    if n < 2:
        return mask
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[k, cv2.CC_STAT_AREA] < 0.02 * white.size:
        return mask
    pts = cv2.findNonZero((lab == k).astype(np.uint8))
    cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1)
    grow = max(3, round(min(img.shape[:2]) / 120)) | 1
    mask = np.asarray(cv2.erode(mask, np.ones((grow, grow), np.uint8)), np.uint8)
    for g in labels:
        cx, cy = g.centre
        cv2.ellipse(mask, (int(round(cx)), int(round(cy))),
                    (max(1, int(0.47 * g.box[2])), max(1, int(0.47 * g.box[3]))), 0, 0, 360, 0, -1)
    return mask


def dice_floor(img: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    """uint8 mask (1: floor) of a dice photo whose floor is light and colourless, the
    dice's labelled ``boxes`` (x, y, w, h) given: every pixel but each die's body. A die's
    body, within an ellipse of 0.62 box sides around its box's centre: the pixels with a
    colour (saturation 70 or more), brighter than the floor (a white die) or under 45 %
    of its brightness (a black die), closed, its largest part filled, and at least the
    middle half of the box; the rest of the box (the die's shadow: grey, dimmer than the
    floor) is floor.

    >>> img = np.full((80, 80, 3), 180, np.uint8); img[30:50, 30:50] = (40, 40, 200)  # a red die
    >>> img[50:56, 30:52] = 120  # its shadow
    >>> m = dice_floor(img, [(28.0, 28.0, 24.0, 24.0)])
    >>> int(m[40, 40]), int(m[53, 40]), int(m[5, 5])
    (0, 1, 1)
    """
    import cv2

    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2].astype(np.float32)
    grey = hsv[..., 1] < 60
    fv = float(np.median(v[grey])) if grey.any() else float(np.median(v))
    body = (hsv[..., 1] >= 70) | (v > fv + 12) | (v < 0.45 * fv)
    mask = np.ones(img.shape[:2], np.uint8)
    for x, y, w, h in boxes:
        centre = (int(round(x + w / 2)), int(round(y + h / 2)))
        near = np.zeros(img.shape[:2], np.uint8)
        cv2.ellipse(near, centre, (max(1, int(0.62 * w)), max(1, int(0.62 * h))), 0, 0, 360, 1, -1)
        die = cv2.morphologyEx((body & (near > 0)).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        n, parts, stats, _ = cv2.connectedComponentsWithStats(die)
        core = np.zeros_like(die)
        if n > 1:
            core = (parts == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
            contours, _ = cv2.findContours(core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            cv2.drawContours(core, contours, -1, 1, -1)
        cv2.ellipse(core, centre, (max(1, int(0.25 * w)), max(1, int(0.25 * h))), 0, 0, 360, 1, -1)
        mask[core > 0] = 0
    return mask


def white_tray_crop(img: np.ndarray, labels: Sequence[GemLabel], margin: int = 10
                    ) -> tuple[np.ndarray, list[GemLabel]]:
    """The white tray of a candy photo (the bounding box of :func:`tray_floor` and
    ``margin`` pixels), with the labels of the candies whose centre it holds, moved into
    it: the candies as a camera over that tray alone sees them (8 % of the frame's side,
    where the photo shows them at 2.3 %). The photo itself when no tray is found.

    >>> img = np.full((100, 160, 3), 20, np.uint8); img[20:80, 40:120] = 200
    >>> crop, labs = white_tray_crop(img, [GemLabel("red", (60.0, 40.0, 10.0, 10.0))], margin=2)
    >>> crop.shape, labs[0].box
    ((62, 82, 3), (21.0, 21.0, 10.0, 10.0))
    """
    ys, xs = np.nonzero(tray_floor(img, labels))
    if not len(ys):
        return img, list(labels)
    y0, x0 = max(0, int(ys.min()) - margin), max(0, int(xs.min()) - margin)
    y1, x1 = min(img.shape[0], int(ys.max()) + 1 + margin), min(img.shape[1], int(xs.max()) + 1 + margin)
    inside = [g for g in labels if x0 <= g.centre[0] < x1 and y0 <= g.centre[1] < y1]
    return (np.ascontiguousarray(img[y0:y1, x0:x1]),
            [GemLabel(g.colour, (g.box[0] - x0, g.box[1] - y0, g.box[2], g.box[3])) for g in inside])


def white_card(mask: np.ndarray, share: float = 0.3) -> np.ndarray:
    """``mask`` (:func:`tray_floor`) less a card at its top-left corner, ``share`` of its
    bounding box's width and height: that part of the tray stays white (a white card
    laid in the tray, what ``docs/vision.md`` asks for when the floor is not white).

    >>> m = np.zeros((100, 100), np.uint8); m[10:90, 10:90] = 1
    >>> c = white_card(m, 0.25)
    >>> int(c[15, 15]), int(c[15, 40]), int(m.sum() - c.sum())
    (0, 1, 400)
    """
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return mask
    x0, y0 = int(xs.min()), int(ys.min())
    w, h = int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1
    out = mask.copy()
    out[y0:y0 + round(share * h), x0:x0 + round(share * w)] = 0
    return out


def paint_floor(img: np.ndarray, mask: np.ndarray, bgr: Sequence[float], texture: str = "felt",
                rng: np.random.Generator | None = None) -> np.ndarray:
    """``img`` with the ``mask`` pixels painted ``bgr`` (as the white would look in the
    photo's light), each pixel darkened as much as it was darker than the floor's white
    (shadows, the light's gradient), with a ``texture`` (:data:`FLOORS`) and soft edges.

    >>> img = np.full((40, 40, 3), 200, np.uint8); img[:, :8] = 100  # a shadow on the left
    >>> out = paint_floor(img, np.ones((40, 40), np.uint8), (40, 70, 30), "plain")
    >>> out[20, 30].tolist(), out[20, 5].tolist()
    ([40, 70, 30], [20, 35, 15])
    """
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return img
    # only the mask's bounding box (a 1920 x 1080 frame's float copies: 25 MB each)
    y0, y1, x0, x1 = max(0, ys.min() - 3), ys.max() + 4, max(0, xs.min() - 3), xs.max() + 4
    out = img.copy()
    out[y0:y1, x0:x1] = _painted(img[y0:y1, x0:x1], mask[y0:y1, x0:x1], bgr, texture, rng or np.random.default_rng(0))
    return out


def _painted(img: np.ndarray, mask: np.ndarray, bgr: Sequence[float], texture: str,
             rng: np.random.Generator) -> np.ndarray:
    import cv2

    v = img.max(axis=2).astype(np.float32)
    ref = float(np.median(v[mask > 0]))
    shade = np.clip(v / max(ref, 1.0), 0.2, 1.2)[..., None]
    h, w = mask.shape
    if texture == "felt":
        grain = 1 + 0.05 * cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8) * 2.5
    elif texture == "wood":
        rows = cv2.GaussianBlur(rng.standard_normal((h, 1)).astype(np.float32), (0, 0), 2.0)
        grain = 1 + 0.12 * rows / max(float(np.abs(rows).max()), 1e-6) + 0.02 * rng.standard_normal((h, w)).astype(np.float32)
    else:
        grain = np.ones((h, w), np.float32)
    floor = np.asarray(bgr, np.float32)[None, None] * shade * grain[..., None]
    soft = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 1.0)[..., None]
    out = img.astype(np.float32) * (1 - soft) + floor * soft
    return np.asarray(np.clip(out + 0.5, 0, 255), np.uint8)


def random_floor(rng: np.random.Generator) -> tuple[tuple[float, float, float], str]:
    """A random floor for training: any hue, dark to mid-grey mostly (felt, a table),
    sometimes a pale one; felt, wood or plain."""
    import cv2

    value = float(rng.choice([rng.uniform(20, 110), rng.uniform(110, 200)], p=[0.8, 0.2]))
    sat = float(rng.uniform(0, 200))
    hue = float(rng.uniform(0, 180))
    px = np.array([[[hue, sat, value]]], np.float32).astype(np.uint8)
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0].tolist()
    texture = str(rng.choice(["felt", "wood", "plain"], p=[0.5, 0.25, 0.25]))
    return (float(b), float(g), float(r)), texture


#: A d6's side in millimetres (the shared photos' dice: 16 mm, the common size), which
#: gives :func:`calibrated_tray` its scale.
DIE_MM = 16.0


def calibrated_tray(img: np.ndarray, boxes: Sequence[tuple[float, float, float, float]],
                    floor: str | None = None, seed: int = 0, noise: float = 2.0
                    ) -> tuple[np.ndarray, np.ndarray, tuple[float, float], int]:
    """A dice photo as the camera of a calibrated tray would see it: the photo (its floor
    painted as ``floor`` of :data:`FLOORS`, or as taken) framed by a border of the same
    floor wide enough for the four markers of :mod:`vision.markers`, glued in its corners;
    and the same tray empty (each die, with its shadow, filled in from the floor around
    it; the same floor's grain), as calibration photographs it. Each gets its own sensor
    noise (σ ``noise`` levels). The scale comes from the dice: their median box side is
    :data:`DIE_MM`.

    Returns ``(frame, empty, tray_mm, border)``: the tray's size for a
    :class:`vision.markers.MarkerLayout`, and the border's width in pixels (a die's box
    in the frame is its box in the photo moved by it).

    >>> img = np.full((200, 200, 3), 180, np.uint8); img[90:110, 90:110] = 250
    >>> frame, empty, tray_mm, border = calibrated_tray(img, [(90.0, 90.0, 20.0, 20.0)], noise=0)
    >>> frame.shape == empty.shape, border, round(tray_mm[0])
    (True, 35, 216)
    >>> int(frame[100 + border, 100 + border, 0]), abs(int(empty[100 + border, 100 + border, 0]) - 180) < 6
    (250, True)
    """
    import cv2

    from .markers import DEFAULT_LAYOUT, marker_image

    h, w = img.shape[:2]
    ppm = float(np.median([max(b[2], b[3]) for b in boxes])) / DIE_MM if boxes else 2.4
    layout = DEFAULT_LAYOUT
    border = int(np.ceil(layout.paper_mm * ppm)) + 2
    hole = np.zeros((h, w), np.uint8)
    for x, y, bw, bh in boxes:  # the die and its shadow
        cv2.ellipse(hole, (int(x + bw / 2), int(y + bh / 2)), (int(0.8 * bw), int(0.8 * bh)), 0, 0, 360, 255, -1)
    empty = cv2.copyMakeBorder(cv2.inpaint(img, hole, 7, cv2.INPAINT_TELEA), border, border, border, border,
                               cv2.BORDER_REFLECT)
    frame = empty.copy()
    frame[border:border + h, border:border + w] = img
    # the paper under the photo's light: as white as the photo's own white (a white
    # tray's; the brightest colourless region of a grey one)
    from .gem_colour import white_reference

    light = np.asarray(white_reference(img)[0], np.float32).reshape(1, 1, 3) / 255.0
    if floor is not None:
        colour, texture = FLOORS[floor]
        mask = np.ones(frame.shape[:2], np.uint8)
        mask[border:border + h, border:border + w] = dice_floor(img, boxes)
        frame = paint_floor(frame, mask, colour, texture, np.random.default_rng(seed))
        empty = paint_floor(empty, np.ones_like(mask), colour, texture, np.random.default_rng(seed))
    H, W = frame.shape[:2]
    side, quiet = int(round(layout.marker_mm * ppm)), int(round(layout.quiet_mm * ppm))
    for i, (cx, cy) in enumerate(((0, 0), (1, 0), (1, 1), (0, 1))):
        paper = cv2.cvtColor(marker_image(i, side, quiet), cv2.COLOR_GRAY2BGR).astype(np.float32)
        p = paper.shape[0]
        x0, y0 = cx * (W - p), cy * (H - p)
        lit = np.asarray(np.clip(paper * light + 0.5, 0, 255), np.uint8)
        frame[y0:y0 + p, x0:x0 + p] = lit
        empty[y0:y0 + p, x0:x0 + p] = lit
    rng = np.random.default_rng(seed + 7)

    def noisy(a: np.ndarray) -> np.ndarray:
        return a if noise <= 0 else np.asarray(np.clip(a + rng.normal(0.0, noise, a.shape), 0, 255), np.uint8)

    return noisy(frame), noisy(empty), (W / ppm, H / ppm), border
