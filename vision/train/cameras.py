"""Photos as other cameras would take them, for the benchmarks and tests of the d6 reader
on other cameras (``benchmarks/bench_other_cameras.py``): a view tilted off vertical
(a homography of the tray plane), a photo's dice made small and pasted into a larger
frame of a plain table, and rendered trays of plain white d6 seen that way. The labels
follow each transform. OpenCV and numpy only; seeded, so the same frames every run.
"""

from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from vision.labelled import Label

from .degrade import webcam as degrade

__all__ = ["Frame", "WEBCAM", "tilt_homography", "map_labels", "table_background", "oblique", "into_frame", "white_d6"]

Frame = tuple[np.ndarray, list[Label]]
WEBCAM = (1280, 720)


def tilt_homography(w: int, h: int, deg: float, azimuth: float) -> np.ndarray:
    """A homography of a ``w`` x ``h`` image of a plane seen by a camera tilted ``deg``
    off vertical towards ``azimuth`` (radians), with a focal length of the image's
    longer side; the centre stays put and the scale at the centre is kept.

    >>> H = tilt_homography(640, 640, 0.0, 0.0)
    >>> bool(np.allclose(H / H[2, 2], np.eye(3)))
    True
    """
    f = float(max(w, h))
    t = math.radians(deg)
    ax = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])  # axis in the image plane
    rot, _ = cv2.Rodrigues(ax * t)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = []
    for x, y in src.tolist():
        p = rot @ np.array([x - w / 2, y - h / 2, 0.0]) + np.array([0.0, 0.0, f])
        q = k @ p
        dst.append((q[0] / q[2], q[1] / q[2]))
    H = cv2.getPerspectiveTransform(src, np.array(dst, np.float32))
    return np.asarray(H, np.float64)


def map_labels(labels: Sequence[Label], H: np.ndarray) -> list[Label]:
    """Labels through homography ``H``: the centre mapped, the side the square root of
    the mapped box's area."""
    out = []
    for lab in labels:
        x, y, w, h = lab.box
        pts = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32).reshape(-1, 1, 2)
        q = cv2.perspectiveTransform(pts, H).reshape(-1, 2)
        side = math.sqrt(abs(cv2.contourArea(q.astype(np.float32))))
        c = cv2.perspectiveTransform(np.array([[lab.centre]], np.float32), H)[0, 0]
        out.append(Label(lab.face, (float(c[0]) - side / 2, float(c[1]) - side / 2, side, side)))
    return out


def table_background(rng: np.random.Generator, size: tuple[int, int] = WEBCAM) -> np.ndarray:
    """A plain table: a grey-brown level, a light gradient and grain."""
    w, h = size
    base = rng.uniform(60, 170) * np.array([rng.uniform(0.7, 1.0), rng.uniform(0.85, 1.0), 1.0])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grad = 1.0 + 0.25 * ((xx / w - 0.5) * rng.uniform(-1, 1) + (yy / h - 0.5) * rng.uniform(-1, 1))
    img = grad[..., None] * base[None, None, :].astype(np.float32)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (h, w)).astype(np.float32), (0, 0), 2.0)
    return np.asarray(np.clip(img + grain[..., None], 0, 255), np.uint8)


def oblique(img: np.ndarray, labels: list[Label], rng: np.random.Generator) -> Frame:
    """``img`` seen by a camera tilted 15-30° off vertical (the dice's sides do not
    appear: a real oblique view shows them)."""
    h, w = img.shape[:2]
    H = tilt_homography(w, h, float(rng.uniform(15, 30)), float(rng.uniform(0, 2 * math.pi)))
    out = cv2.warpPerspective(img, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out, map_labels(labels, H)


def into_frame(img: np.ndarray, labels: list[Label], rng: np.random.Generator, tilt: bool,
               size: tuple[int, int] = WEBCAM) -> Frame:
    """``img`` scaled so its dice are 25-35 px, optionally tilted, pasted into a
    ``size`` table frame at a random place."""
    h, w = img.shape[:2]
    side = float(np.median([lab.side for lab in labels])) if labels else 0.058 * max(h, w)
    s = float(rng.uniform(25, 35)) / side
    H = np.diag([s, s, 1.0])
    if tilt:
        H = H @ tilt_homography(w, h, float(rng.uniform(15, 30)), float(rng.uniform(0, 2 * math.pi)))
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float32), H).reshape(-1, 2)
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    W, Hh = size
    ox = rng.uniform(0, max(1.0, W - (hi[0] - lo[0]))) - lo[0]
    oy = rng.uniform(0, max(1.0, Hh - (hi[1] - lo[1]))) - lo[1]
    H = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1.0]]) @ H
    frame = table_background(rng, size)
    cv2.warpPerspective(img, H, size, dst=frame, flags=cv2.INTER_AREA if s < 0.8 else cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    return frame, map_labels(labels, H)


def white_d6(seed: int, degraded: bool, size: tuple[int, int] = WEBCAM) -> Frame:
    """A rendered tray of plain white d6 (no markers) with dice of 25-35 px in a
    ``size`` frame, tilted 15-30°; ``degraded``: through :func:`vision.train.degrade.webcam`."""
    from vision.synth import SceneSpec, render_tray

    rng = np.random.default_rng(10_000 + seed)
    scene = render_tray(seed, kinds=["d6"], spec=SceneSpec(size=WEBCAM, markers=False), with_background=False)
    # the axis-aligned box of the die as seen, as the photos' labels are drawn
    labels = [Label(int(lab.value), tuple(float(v) for v in lab.box)) for lab in scene.labels]  # type: ignore[arg-type]
    img, labs = into_frame(scene.image, labels, rng, tilt=True, size=size)
    return (degrade(img, rng) if degraded else img), labs
