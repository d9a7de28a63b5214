"""The die body colour the reader reports (vision.die_colour), for the statistics."""

from __future__ import annotations

import numpy as np
import pytest

from vision.die_colour import PALETTE, UNKNOWN, colour_name, white_balanced_lab
from vision.labelled import list_photos, shared_photos_dir
from vision.result import ObjectRead
from vision.reader import Reader

PHOTOS = shared_photos_dir()
needs_photos = pytest.mark.skipif(PHOTOS is None, reason="shared tray photos not found (../shared or $COMPANION_SHARED)")


@pytest.mark.parametrize("bgr, name", [
    ((250, 250, 250), "white"), ((20, 20, 20), "black"), ((120, 120, 120), "grey"),
    ((40, 40, 200), "red"), ((200, 90, 30), "blue"), ((40, 180, 40), "green"),
    ((30, 210, 230), "yellow"), ((20, 40, 70), "brown"), ((60, 20, 90), "red"),
])
def test_plain_colours_get_their_word(bgr: tuple[int, int, int], name: str) -> None:
    assert colour_name(white_balanced_lab(np.array(bgr, np.float32), None)) == name


def test_between_two_bands_is_unknown_never_a_guess() -> None:
    assert colour_name((65.0, 0.0, 0.0)) == UNKNOWN  # between grey and white
    assert colour_name((50.0, 9.0, 9.0)) == UNKNOWN  # neither grey nor coloured
    assert colour_name((60.0, 40.0, 40.0 * np.tan(np.radians(51)))) == UNKNOWN  # red | orange
    assert colour_name((float("nan"), 0.0, 0.0)) == UNKNOWN


def test_white_balance_keeps_a_white_die_white_under_a_warm_lamp() -> None:
    warm_white = np.array([150, 200, 250], np.float32)  # BGR: white paper under a warm lamp
    die = warm_white * 0.97
    assert colour_name(white_balanced_lab(die, None)) != "white"
    assert colour_name(white_balanced_lab(die, warm_white)) == "white"


def test_json_carries_the_colour_only_when_looked_at() -> None:
    o = ObjectRead("d10", 7, (0, 0, 9, 9), 0.9)
    assert "colour" not in o.to_json()
    assert ObjectRead("d10", 7, (0, 0, 9, 9), 0.9, colour="red").to_json()["colour"] == "red"


@needs_photos
def test_reader_names_the_dice_of_real_photos() -> None:
    assert PHOTOS is not None
    reader = Reader()
    names = []
    for p in list_photos(PHOTOS, "test")[:6]:
        for o in reader.read(p.path).objects:
            assert o.colour in (*PALETTE, UNKNOWN)
            names.append(o.colour)
    assert names
    assert sum(n != UNKNOWN for n in names) >= len(names) // 2  # mostly named: the dice are plain colours
