"""The floor of a plain photo (no markers, no picture of the empty tray), and whether it is
the light grey floor the pip networks learnt.

The plain-photo d6 networks learnt the shared photos' light grey tray. On another floor
(a dark felt, black felt, wood) the die-centre network misses most dice: the held-aside
photos with their floor painted dark green felt were 44.3 % found, 31.9 % read right
automatically. A calibrated tray brings its floor back to the learnt one from its empty
picture (:func:`vision.background.light_floor`); a plain photo has no such picture, so
its empty floor is estimated from the photo itself (:func:`estimated_floor`: the
segmentation's estimate, a wide median then refined around the objects it shows, on a
copy of at most :data:`ESTIMATE_SIDE` px) and, when it is not the learnt one
(:func:`learnt_floor`) and what stands out from it is about a die's size
(:func:`dice_sized`), the frame's floor is repainted light against it before the pip
networks look (:meth:`vision.reader.Reader._read_plain`).

Pure functions of arrays (OpenCV for resizing and colour conversion).

>>> from vision.background import light_floor
>>> grey = np.full((120, 160, 3), 182, np.uint8)
>>> felt = np.full((120, 160, 3), (45, 75, 30), np.uint8)
>>> learnt_floor(grey), learnt_floor(felt), learnt_floor(estimated_floor(felt))
(True, False, False)
>>> out = light_floor(felt, estimated_floor(felt))
>>> out[60, 80].tolist()
[182, 182, 182]
"""

from __future__ import annotations

import numpy as np

from .memo import keep_last

__all__ = ["ESTIMATE_SIDE", "OBJECT_SHARE", "SOLID_SHARE", "MAX_SATURATION", "MIN_VALUE", "DIE_SHARE",
           "LARGE_FRAME_SHARE", "WORK_DIE_PX", "estimated_floor", "learnt_floor", "solid_px", "object_side",
           "dice_sized", "work_scale"]

#: px: the floor is estimated on a copy of the frame at most this large (4.5 ms a frame).
ESTIMATE_SIDE = 256
#: An object's side as a share of the frame's shorter side, for the estimate's windows
#: (the shared photos' dice are 5-8 %).
OBJECT_SHARE = 0.1
#: :func:`vision.background.light_floor`'s ``solid`` (the gaps closed between a die's
#: parts) as a share of the frame's shorter side: 16 px of a 640-px photo, about a
#: pip's spacing on its dice.
SOLID_SHARE = 0.025
#: The learnt floor is colourless and light: the floor is taken for it while its median
#: saturation is at most this and its median value (HSV, 0-255) at least
#: :data:`MIN_VALUE`. The 200 shared photos as taken: saturation 3-15, value 173-190;
#: painted dark green felt 154 and 74, black felt value 31, wood saturation 147. The
#: simulated webcam's random tables around the tray (``bench_other_cameras.py``) straddle
#: any line (saturation 10-110, value 64-196): at 25 and 140 more of them were repainted,
#: and its 640 x 480 frames (8 draws of the held-aside photos) read 2 more dice silently
#: wrong than before (3 of 2,895, against 1 of 2,888); at 60 and 80, 1 more (2 of
#: 2,897), and on the *calib* photos 6 of 1,356 as before (6 of 1,349); the painted
#: floors read the same at either line. A grey floor in a dim room is no other floor:
#: the held-aside photos 40 % darker (value about 108) read as well as seen (92.1 % right
#: automatically) and worse repainted (91.8 %, and 10 ms more a photo), hence a value
#: line of 80, far under it and far over black felt's 31.
MAX_SATURATION = 60.0
MIN_VALUE = 80.0


@keep_last
def _small_copy(frame: np.ndarray) -> np.ndarray:
    """``frame`` at most :data:`ESTIMATE_SIDE` px on a side: an area resize, by whole
    ratios first for a frame four times larger or more (:func:`vision.detect.shrink`:
    8.5 -> 1.5 ms a 1920 x 1080 frame); remembered for the last frame
    (:func:`vision.memo.keep_last`: the floor's estimate and its objects' size look at
    the same copy)."""
    import cv2

    from .detect import shrink

    h, w = frame.shape[:2]
    s = min(1.0, ESTIMATE_SIDE / max(h, w))
    if s == 1.0:
        return frame
    if s <= 0.25:
        return shrink(frame, s)
    return np.asarray(cv2.resize(frame, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA))


def _small(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """:func:`_small_copy` and its scale."""
    small = _small_copy(frame)
    return small, (1.0 if small is frame else min(1.0, ESTIMATE_SIDE / max(frame.shape[:2])))


def estimated_floor(frame: np.ndarray, full: bool = True) -> np.ndarray:
    """The empty floor of a plain photo as the photo suggests it (uint8 BGR, the frame's
    size; with ``full`` False, the size of the copy it was estimated on):
    :func:`vision.segment.estimated_background` on a copy of at most
    :data:`ESTIMATE_SIDE` px, objects of :data:`OBJECT_SHARE` of its shorter side."""
    import cv2

    from .segment import SegmentParams, estimated_background

    h, w = frame.shape[:2]
    small, s = _small(frame)
    est = estimated_background(small, None, SegmentParams(), OBJECT_SHARE * min(small.shape[:2]))
    floor = np.clip(est + 0.5, 0, 255).astype(np.uint8)
    if s == 1.0 or not full:
        return floor
    return np.asarray(cv2.resize(floor, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)


def learnt_floor(image: np.ndarray) -> bool:
    """Whether the floor of ``image`` (a photo: the floor is most of it; or its estimated
    floor, :func:`estimated_floor`) is the light grey one the pip networks learnt: the
    median saturation and value of every eighth pixel (:data:`MAX_SATURATION`,
    :data:`MIN_VALUE`), 0.1 ms a 640-px photo."""
    import cv2

    hsv = cv2.cvtColor(np.ascontiguousarray(image[::8, ::8]), cv2.COLOR_BGR2HSV)
    return float(np.median(hsv[..., 1])) <= MAX_SATURATION and float(np.median(hsv[..., 2])) >= MIN_VALUE


def solid_px(frame: np.ndarray) -> int:
    """:func:`vision.background.light_floor`'s ``solid`` for ``frame`` (odd px,
    :data:`SOLID_SHARE` of its shorter side).

    >>> solid_px(np.zeros((640, 640, 3), np.uint8))
    17
    """
    return int(SOLID_SHARE * min(frame.shape[:2])) | 1


#: The objects standing out from a repainted floor must be about a die's size: their
#: side (:func:`object_side`) at least this share of the frame's shorter side. The
#: held-aside photos painted dark green felt, black felt, wood: 3.1-15 % (20-98 px of
#: 640, the median 29-33); loose dots of 2-7 px radius on a dark table
#: (``tests/vision/test_detect.py``'s ``dot_frame``): 2.4-3.1 % of 480. Repainted, such
#: dots have a dark rim on a light floor, and the pip networks asked about 22-33 of them
#: a frame as white d6 showing 1.
DIE_SHARE = 0.035


def object_side(frame: np.ndarray, floor: np.ndarray) -> float:
    """The side (px of ``frame``) of the objects that stand out from its estimated
    ``floor`` (:func:`estimated_floor`; :func:`vision.background.changed` on copies of at
    most :data:`ESTIMATE_SIDE` px): that of the object half their pixels lie in (specks
    of noise weigh little); 0.0 when none does.

    >>> felt = np.full((600, 800, 3), (45, 75, 30), np.uint8)
    >>> for x in (100, 300, 500):
    ...     felt[200:280, x:x + 80] = (230, 230, 230)   # three white dice of 80 px
    >>> 76 <= object_side(felt, estimated_floor(felt)) <= 84
    True
    >>> object_side(felt[:100, :100], estimated_floor(felt[:100, :100]))
    0.0
    """
    import cv2

    from .background import changed

    small, s = _small(frame)
    size = (small.shape[1], small.shape[0])
    empty = floor if floor.shape[:2] == small.shape[:2] else cv2.resize(floor, size, interpolation=cv2.INTER_AREA)
    mask = changed(small, empty).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    areas = np.sort(stats[1:, cv2.CC_STAT_AREA])
    if not len(areas):
        return 0.0
    # the median by area (the object half the changed pixels lie in): specks of noise weigh little
    half = int(np.searchsorted(np.cumsum(areas), areas.sum() / 2))
    return float(np.sqrt(areas[min(half, len(areas) - 1)])) / float(s)


def dice_sized(frame: np.ndarray, floor: np.ndarray) -> bool:
    """Whether the objects on ``frame``'s estimated ``floor`` are about a die's size
    (:data:`DIE_SHARE`), so that its floor may be repainted."""
    return bool(object_side(frame, floor) >= DIE_SHARE * float(min(frame.shape[:2])))


#: A frame larger than the reader reads at once (a phone's photo) is repainted when the
#: objects on its floor are :data:`DIE_SHARE` to this share of its shorter side: a few
#: dice photographed from near. The held-aside photos painted dark green felt and
#: enlarged 3 times: 4-8 %. Larger shares there are the parts of the scene the estimate
#: did not take for floor: the real photos pasted small into a 1280 x 720 table
#: (``bench_other_cameras.py``, "small", "webcam"), 15-62 %; the rendered white-d6 webcam
#: frames 34-56 %, whose dice the closer look finds.
LARGE_FRAME_SHARE = 0.1
#: px: such a frame is read at the whole fraction of its size that brings its dice
#: nearest this, the size of the shared photos' dice (38 px median) the networks learnt.
WORK_DIE_PX = 40.0


def work_scale(frame: np.ndarray, floor: np.ndarray) -> int | None:
    """For a frame larger than the reader reads at once, the whole factor (2 or more) by
    which to shrink it before its floor (``floor``, :func:`estimated_floor`) is
    repainted and its dice read, bringing them near :data:`WORK_DIE_PX`; None when its
    objects are not a few dice seen from near (:data:`DIE_SHARE` to
    :data:`LARGE_FRAME_SHARE` of its shorter side) or too small for it: read it as seen.

    >>> felt = np.full((1800, 2400, 3), (45, 75, 30), np.uint8)
    >>> for x in (300, 900, 1500):
    ...     felt[600:720, x:x + 120] = (230, 230, 230)   # three white dice of 120 px
    >>> work_scale(felt, estimated_floor(felt, full=False))
    3
    >>> work_scale(felt[:900, :1200], estimated_floor(felt[:900, :1200], full=False)) is None  # 13 %: too large
    True
    """
    side = object_side(frame, floor)
    short = float(min(frame.shape[:2]))
    if not DIE_SHARE * short <= side <= LARGE_FRAME_SHARE * short:
        return None
    k = int(side // WORK_DIE_PX)
    return k if k >= 2 else None
