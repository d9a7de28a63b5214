"""Remembering what a frame's reads derive from the empty tray (pure).

The table reads every frame of an evening against one empty-tray reference (a saved
calibration's, warped once into the frame's pixels by the reader), and each read used to
smooth it again: 2 ms a 784 x 784 tray image for the segmentation
(:mod:`vision.segment`), 1.6 ms a 760 x 760 frame for the floor's repainting
(:mod:`vision.background`). :func:`keep_last` remembers a function's answer for the last
array it was given.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

__all__ = ["keep_last"]


def keep_last(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """``fn`` remembering its answer for the last array it was given: asked again with
    the same array object whose sampled pixels (every seventh row and column) are
    unchanged, it answers the same (read-only) array without running. A reference is
    replaced, not changed in place (``Calibration.background`` after a refresh is a new
    array); the sample also catches an array changed in place.

    >>> calls = []
    >>> @keep_last
    ... def double(a):
    ...     calls.append(1)
    ...     return a * 2
    >>> a = np.ones((20, 20), np.float32)
    >>> x = double(a); y = double(a); x is y, len(calls), x.flags.writeable
    (True, 1, False)
    >>> a[::7, ::7] = 3; float(double(a).max()), len(calls)   # changed in place
    (6.0, 2)
    >>> _ = double(a.copy()); len(calls)                        # another array
    3
    """
    last: list[tuple[np.ndarray, bytes, np.ndarray]] = []

    @functools.wraps(fn)
    def remembered(a: np.ndarray) -> np.ndarray:
        sample = a[::7, ::7].tobytes()
        got = last[0] if last else None  # one look: another thread may replace it
        if got is not None and got[0] is a and got[1] == sample:
            return got[2]
        out = fn(a)
        out.flags.writeable = False  # shared by every read that asks
        last[:] = [(a, sample, out)]
        return out

    return remembered
