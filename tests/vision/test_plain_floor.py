"""A plain photo's floor that is not the light grey one the pip networks learnt is
repainted before they look (``vision.plain_floor``, ``Reader._read_plain``)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.plain_floor as plain_floor
from vision.eval import Tally
from vision.labelled import list_photos, load_labels, shared_photos_dir
from vision.reader import Reader

PHOTOS = shared_photos_dir()
needs_photos = pytest.mark.skipif(PHOTOS is None, reason="shared tray photos not found (../shared or $COMPANION_SHARED)")


@pytest.fixture(scope="module")
def reader() -> Reader:
    from vision.table_setup import table_reader

    return table_reader(None)


def _painted(floor: str, n: int = 10) -> list[tuple[np.ndarray, list]]:
    """``n`` held-aside photos with their light grey floor painted as ``floor``, as
    ``bench_other_cameras.py`` paints it (the dice's bodies and shadows kept)."""
    import cv2

    from vision.floors import FLOORS, dice_floor, paint_floor

    assert PHOTOS is not None
    colour, texture = FLOORS[floor]
    out = []
    for k, ph in enumerate(list_photos(PHOTOS, "test")[::5][:n]):
        img = np.asarray(cv2.imread(str(ph.path), cv2.IMREAD_COLOR), np.uint8)
        labels = load_labels(ph.path, img.shape[1], img.shape[0])
        out.append((paint_floor(img, dice_floor(img, [lab.box for lab in labels]), colour, texture,
                                np.random.default_rng(k)), labels))
    return out


@needs_photos
def test_the_photos_as_taken_have_the_learnt_floor_and_a_felt_does_not() -> None:
    import cv2

    assert PHOTOS is not None
    photos = list_photos(PHOTOS, "all")[::10]
    assert all(plain_floor.learnt_floor(cv2.imread(str(ph.path))) for ph in photos)
    for frame, _ in _painted("dark green felt", 3) + _painted("black felt", 3) + _painted("wood", 3):
        assert not plain_floor.learnt_floor(frame)
        assert not plain_floor.learnt_floor(plain_floor.estimated_floor(frame)[0])
    dim = (cv2.imread(str(photos[0].path)).astype(np.float32) * 0.6).astype(np.uint8)  # a dim room: still grey
    assert plain_floor.learnt_floor(dim)


@needs_photos
@pytest.mark.parametrize("floor", ["dark green felt", "black felt"])
def test_dice_on_a_dark_felt_are_read_once_the_floor_is_repainted(reader: Reader, floor: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The held-aside dice on a painted felt: nearly all found and most read, no more
    silent errors than on the photos as taken; read as seen (the repainting switched
    off), the die-centre network misses many."""
    frames = _painted(floor)
    now = Tally()
    for frame, labels in frames:
        now.add(reader.read(frame, kinds={"d6"}), labels)
    monkeypatch.setattr(plain_floor, "learnt_floor", lambda image: True)
    seen = Tally()
    for frame, labels in frames:
        seen.add(reader.read(frame, kinds={"d6"}), labels)
    assert now.true >= 60
    assert now.found >= 0.97 * now.true and now.auto_right >= 0.75 * now.true
    assert now.silent <= 1 and now.false <= 1
    assert now.auto_right >= seen.auto_right + 0.15 * now.true


@needs_photos
def test_a_step_with_gems_is_never_repainted(reader: Reader, monkeypatch: pytest.MonkeyPatch) -> None:
    """Gems are read by their colour against the tray's white: a gem step (or one with
    symbol dice) reads the photo as seen, whatever its floor."""
    import vision.background as background

    frame, _ = _painted("dark green felt", 1)[0]
    painted: list[int] = []
    real = background.light_floor

    def spy(*args: object, **kw: object) -> np.ndarray:
        painted.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(background, "light_floor", spy)
    reader.read(frame, kinds={"gem"})
    reader.read(frame, kinds={"d6", "lieu"})
    assert not painted
    reader.read(frame, kinds={"d6"})
    assert painted


@needs_photos
def test_a_large_photo_of_dice_on_felt_is_read_at_a_working_size(reader: Reader, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone's photo: the painted felt photos enlarged 3 times (1920 px, dice about
    115 px). Larger than the reader reads at once, it is shrunk by a whole factor that
    brings its dice near the size the networks learnt, repainted and read there; as
    seen, the die-centre network misses most of them."""
    import cv2

    from vision.labelled import Label

    frames = [(cv2.resize(f, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC),
               [Label(lab.face, tuple(v * 3 for v in lab.box)) for lab in labels])
              for f, labels in _painted("dark green felt", 6)]
    big = frames[0][0]
    assert plain_floor.repaint_scale(plain_floor.estimated_floor(big)[1], big.shape, 800) in (2, 3)
    now = Tally()
    for frame, labels in frames:
        read = reader.read(frame, kinds={"d6"})
        assert read.size == (1920, 1920)
        now.add(read, labels)
    monkeypatch.setattr(plain_floor, "learnt_floor", lambda image: True)
    seen = Tally()
    for frame, labels in frames:
        seen.add(reader.read(frame, kinds={"d6"}), labels)
    assert now.true >= 35
    assert now.found >= 0.8 * now.true and now.auto_right >= 0.6 * now.true and now.silent <= 1
    assert now.auto_right >= seen.auto_right + 0.3 * now.true
