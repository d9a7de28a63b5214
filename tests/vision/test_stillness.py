from __future__ import annotations

import numpy as np

from vision.stillness import StillnessDetector


def frames(seed: int):
    rng = np.random.default_rng(seed)
    still = np.full((120, 160, 3), 90, np.uint8)
    still[40:80, 60:100] = 220
    noisy = lambda img: np.clip(img.astype(int) + rng.integers(-3, 4, img.shape), 0, 255).astype(np.uint8)  # noqa: E731
    moved = still.copy()
    moved[40:80, 60:100] = 90
    moved[10:50, 10:50] = 220
    return still, moved, noisy


def test_settled_after_motion_then_stillness_only() -> None:
    still, moved, noisy = frames(1)
    det = StillnessDetector(settle_s=0.5)
    seen = [det.feed(noisy(still), t) for t in (0.0, 0.25, 0.5, 0.75)]
    assert seen == [None, None, None, None]  # camera noise is not motion
    assert det.feed(noisy(moved), 1.0) == "motion"
    out = [det.feed(noisy(moved), t) for t in (1.25, 1.5, 1.75, 2.0)]
    assert out.count("settled") == 1 and out.index("settled") == 2  # 0.5 s after the first still frame
    assert det.feed(noisy(moved), 2.25) is None
