"""The floor of a plain photo (no markers, no picture of the empty tray), and whether it is
the light grey floor the pip networks learnt.

The plain-photo d6 networks learnt the shared photos' light grey tray. On another floor
(a dark felt, black felt, wood) the die-centre network misses most dice: the held-aside
photos with their floor painted dark green felt were 44.3 % found, 31.9 % read right
automatically. A calibrated tray brings its floor back to the learnt one from its empty
picture (:func:`vision.background.light_floor`); a plain photo has no such picture, so
its empty floor is estimated from the photo itself (:func:`estimated_floor`: the
segmentation's estimate, a wide median then refined around the objects it shows, on a
copy of at most :data:`ESTIMATE_SIDE` px, with the size of those objects) and, when it
is not the learnt one (:func:`learnt_floor`) and what stands out from it is about a
die's size (:func:`repaint_scale`), the frame's floor is repainted light against it
(:func:`floor_at`) before the pip networks look (:meth:`vision.reader.Reader._read_plain`).

Pure functions of arrays (OpenCV for resizing and colour conversion).

>>> from vision.background import light_floor
>>> grey = np.full((120, 160, 3), 182, np.uint8)
>>> felt = np.full((120, 160, 3), (45, 75, 30), np.uint8)
>>> learnt_floor(grey), learnt_floor(felt), learnt_floor(estimated_floor(felt)[0])
(True, False, False)
>>> out = light_floor(felt, floor_at(estimated_floor(felt)[0], felt))
>>> out[60, 80].tolist()
[182, 182, 182]
"""

from __future__ import annotations

import numpy as np

__all__ = ["ESTIMATE_SIDE", "OBJECT_SHARE", "SOLID_SHARE", "MAX_SATURATION", "MIN_VALUE", "DIE_SHARE",
           "LARGE_FRAME_SHARE", "WORK_DIE_PX", "estimated_floor", "floor_at", "learnt_floor", "solid_px",
           "repaint_scale"]

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


def _small(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """``frame`` at most :data:`ESTIMATE_SIDE` px on a side, and its scale: an area
    resize, by whole ratios first for a frame four times larger or more
    (:func:`vision.detect.shrink`: 8.5 -> 1.5 ms a 1920 x 1080 frame)."""
    import cv2

    from .detect import shrink

    h, w = frame.shape[:2]
    s = min(1.0, ESTIMATE_SIDE / max(h, w))
    if s == 1.0:
        return frame, s
    if s <= 0.25:
        return shrink(frame, s), s
    return np.asarray(cv2.resize(frame, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)), s


def estimated_floor(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The empty floor of a plain photo as the photo suggests it, and the side (px of
    ``frame``) of the objects that stand out from it, both measured on one copy of at
    most :data:`ESTIMATE_SIDE` px (the floor is that copy's size: :func:`floor_at`).

    The floor: :func:`vision.segment.estimated_background`, objects of
    :data:`OBJECT_SHARE` of the copy's shorter side. The objects' side
    (:func:`vision.background.changed` against it): that of the object half their pixels
    lie in (specks of noise weigh little); 0.0 when none stands out.

    >>> felt = np.full((600, 800, 3), (45, 75, 30), np.uint8)
    >>> for x in (100, 300, 500):
    ...     felt[200:280, x:x + 80] = (230, 230, 230)   # three white dice of 80 px
    >>> floor, side = estimated_floor(felt)
    >>> floor.shape, 76 <= side <= 88
    ((192, 256, 3), True)
    >>> estimated_floor(felt[:100, :100])[1]
    0.0
    """
    import cv2

    from .background import changed
    from .segment import SegmentParams, estimated_background

    small, s = _small(frame)
    est = estimated_background(small, None, SegmentParams(), OBJECT_SHARE * min(small.shape[:2]))
    floor = np.clip(est + 0.5, 0, 255).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(changed(small, floor).astype(np.uint8), connectivity=8)
    areas = np.sort(stats[1:, cv2.CC_STAT_AREA])
    if not len(areas):
        return floor, 0.0
    half = int(np.searchsorted(np.cumsum(areas), areas.sum() / 2))
    return floor, float(np.sqrt(areas[min(half, len(areas) - 1)])) / s


def floor_at(floor: np.ndarray, image: np.ndarray) -> np.ndarray:
    """An estimated ``floor`` (:func:`estimated_floor`) brought to ``image``'s size."""
    import cv2

    h, w = image.shape[:2]
    if floor.shape[:2] == (h, w):
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
#: side (:func:`estimated_floor`) at least this share of the frame's shorter side. The
#: held-aside photos painted dark green felt, black felt, wood: 3.1-15 % (20-98 px of
#: 640, the median 29-33); loose dots of 2-7 px radius on a dark table
#: (``tests/vision/test_detect.py``'s ``dot_frame``): 2.4-3.1 % of 480. Repainted, such
#: dots have a dark rim on a light floor, and the pip networks asked about 22-33 of them
#: a frame as white d6 showing 1.
DIE_SHARE = 0.035


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


def repaint_scale(side: float, shape: tuple[int, ...], read_once: int) -> int | None:
    """By what whole factor to shrink a frame of ``shape`` before its floor is repainted
    and its dice read, given the side of the objects that stand out from its floor
    (:func:`estimated_floor`), or None: read it as seen. They must be about a die's size
    (:data:`DIE_SHARE` of the shorter side or more). A frame of at most ``read_once`` px
    on a side (the reader's ``ZOOM_ABOVE``) is repainted as it is (1). A larger one only
    when they are a few dice seen from near (at most :data:`LARGE_FRAME_SHARE`), shrunk
    by the factor (2 or more) that brings them near :data:`WORK_DIE_PX`; one whose dice
    are smaller than that is read as seen, as the closer look reads a webcam's far dice.

    >>> repaint_scale(30.0, (480, 640), 800), repaint_scale(12.0, (480, 640), 800)   # dice; loose dots
    (1, None)
    >>> repaint_scale(120.0, (1800, 2400), 800), repaint_scale(240.0, (1800, 2400), 800)  # 7 %; 13 %
    (3, None)
    >>> repaint_scale(60.0, (1080, 1920), 800) is None   # too small to shrink
    True
    """
    short = float(min(shape[:2]))
    if side < DIE_SHARE * short:
        return None
    if max(shape[:2]) <= read_once:
        return 1
    k = int(side // WORK_DIE_PX)
    return k if side <= LARGE_FRAME_SHARE * short and k >= 2 else None
