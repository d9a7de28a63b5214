"""Five held-aside shared photos read as labelled: the vision part of the arm64 check
(deploy/check-arm64.sh runs it under emulation), cheap enough for every run.

The default reader (both networks, test-time augmentation) must find every labelled die
of these five photos, read nearly all of them automatically and right, and say nothing
silently wrong: the same figures on x86 and on arm64, since both run the same ONNX
networks through OpenCV.
"""

from __future__ import annotations

import os

import pytest

from vision.eval import Tally
from vision.labelled import list_photos, load_labels, shared_photos_dir
from vision.reader import read_image

PHOTOS = shared_photos_dir()
needs_photos = pytest.mark.skipif(PHOTOS is None and not os.environ.get("CI"),
                                  reason="shared tray photos not found (../shared or $COMPANION_SHARED)")


@needs_photos
def test_five_held_aside_photos_read_as_labelled() -> None:
    assert PHOTOS is not None, "CI=true: the shared photos must be there (../shared or $COMPANION_SHARED)"
    photos = list_photos(PHOTOS, "test")[:5]
    assert len(photos) == 5
    tally = Tally()
    for photo in photos:
        read = read_image(photo.path)
        assert read.error is None and read.size == (640, 640)
        tally.add(read, load_labels(photo.path, 640, 640))
    s = tally.summary()
    print({k: s[k] for k in ("true_dice", "found", "recall", "right_face", "auto_right")}, f"silent={tally.silent}")
    assert tally.true >= 15
    assert s["recall"] >= 0.95
    assert s["right_face"] >= 0.9
    assert s["auto_right"] >= 0.85
    assert tally.silent <= 1
    assert tally.false <= 1
