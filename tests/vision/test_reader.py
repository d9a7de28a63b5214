"""The d6 reader on real shared photos, and its behaviour on bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from vision.eval import Tally
from vision.labelled import Label, list_photos, load_labels, shared_photos_dir
from vision.pips import PipClassifier
from vision.result import STATUS_PENDING, STATUS_READ, ObjectRead, Read
from vision.reader import CONTEST, Reader, decode, ImageError, read_image

PHOTOS = shared_photos_dir()
needs_photos = pytest.mark.skipif(PHOTOS is None, reason="shared tray photos not found (../shared or $COMPANION_SHARED)")


_READER = Reader()  # models load once per process; hypothesis tests share it


@pytest.fixture(scope="module")
def reader() -> Reader:
    return _READER


def _some_photos(split: str, n: int) -> list[Path]:
    assert PHOTOS is not None
    photos = list_photos(PHOTOS, split)
    step = max(1, len(photos) // n)
    return [p.path for p in photos[::step][:n]]


@needs_photos
@pytest.mark.parametrize("split", ["test", "train"])
def test_reads_held_aside_and_training_photos(reader: Reader, split: str) -> None:
    tally = Tally()
    for path in _some_photos(split, 8):
        read = reader.read(path)
        assert read.error is None
        assert read.size == (640, 640)
        tally.add(read, load_labels(path, 640, 640))
    s = tally.summary()
    assert tally.true >= 30
    # margins below the measured figures (see docs/vision.md): 8 photos are few
    assert s["recall"] >= 0.93
    assert s["right_face"] >= 0.9
    assert s["auto_right"] >= 0.85
    assert tally.silent <= 1
    assert tally.false <= 2


def _middle_quarter(path: Path, upscale: float = 1.0) -> tuple[np.ndarray, list]:
    """The middle quarter of a 640-px photo (a camera twice as close: dice about 12 % of
    the frame's side), ``upscale`` times larger, with the labels of the dice whose centre
    it holds."""
    img = cv2.imread(str(path))
    labels = [Label(lab.face, (lab.box[0] - 160, lab.box[1] - 160, lab.box[2], lab.box[3]))
              for lab in load_labels(path, 640, 640) if 160 <= lab.centre[0] < 480 and 160 <= lab.centre[1] < 480]
    mid = np.ascontiguousarray(img[160:480, 160:480])
    if upscale != 1.0:
        mid = cv2.resize(mid, None, fx=upscale, fy=upscale, interpolation=cv2.INTER_CUBIC)
        labels = [Label(lab.face, tuple(v * upscale for v in lab.box)) for lab in labels]  # type: ignore[misc]
    return mid, labels


@needs_photos
@pytest.mark.parametrize("upscale", [1.0, 6.0])
def test_dice_far_larger_than_learnt_are_found_by_a_farther_look(reader: Reader, upscale: float) -> None:
    """Dice of 12 % of the frame's side (a 320-px frame, or a 1920-px close-up) come out of
    the die-centre network's first look as their pips and parts, unsure; the farther look
    (``Reader._farther_look``) finds them at 0.6 of the scale. Measured on all 50
    held-aside photos: found 70.0 -> 97.3 % (69.3 -> 97.0 % at 1920 px, where 9 pips had
    been read as dice)."""
    tallies = {}
    for farther in (True, False):
        tally = Tally()
        for path in _some_photos("test", 8):
            frame, labels = _middle_quarter(path, upscale)
            if farther:
                read = reader.read(frame, kinds={"d6"})
            else:
                with pytest.MonkeyPatch.context() as mp:
                    mp.setattr(Reader, "_farther_look", lambda self, *a: None)
                    read = reader.read(frame, kinds={"d6"})
            tally.add(read, labels)
        tallies[farther] = tally
    looked, once = tallies[True].summary(), tallies[False].summary()
    assert tallies[True].true >= 30
    assert looked["recall"] >= 0.93 and looked["auto_right"] >= 0.75 and tallies[True].silent <= 1
    assert once["recall"] <= 0.85  # what the farther look mends


def _close_up(path: Path) -> tuple[np.ndarray, list]:
    """A close-up of the die nearest the photo's middle: a square of four of its sides
    around it (its neighbours cut by the edges), enlarged to 1920 px, with the labels of
    the dice whose centre it holds."""
    labels = load_labels(path, 640, 640)
    die = min(labels, key=lambda lab: (lab.centre[0] - 320) ** 2 + (lab.centre[1] - 320) ** 2)
    return _around(cv2.imread(str(path)), labels, die, 4)


def _around(img: np.ndarray, labels: list[Label], die: Label, sides: float) -> tuple[np.ndarray, list[Label]]:
    """A square of ``sides`` of ``die``'s sides around it in ``img`` (640 x 640),
    enlarged to 1920 px, with the labels of the dice whose centre it holds."""
    half = sides / 2 * die.side
    x0, y0 = int(max(0, die.centre[0] - half)), int(max(0, die.centre[1] - half))
    x1, y1 = int(min(640, die.centre[0] + half)), int(min(640, die.centre[1] + half))
    f = 1920 / max(x1 - x0, y1 - y0)
    frame = cv2.resize(np.ascontiguousarray(img[y0:y1, x0:x1]), None, fx=f, fy=f, interpolation=cv2.INTER_CUBIC)
    return frame, [Label(lab.face, tuple(v * f for v in (lab.box[0] - x0, lab.box[1] - y0, lab.box[2], lab.box[3])))
                   for lab in labels if x0 <= lab.centre[0] < x1 and y0 <= lab.centre[1] < y1]


@needs_photos
def test_the_pips_of_a_close_up_die_are_not_read_as_dice(reader: Reader) -> None:
    """A die a fifth of the frame's side or more: the first look finds its pips, each
    read as a die showing 1 where the farther look finds too few dice to be kept. The
    larger die found by looks farther still and read by the pip networks takes their
    place (``Reader._dice_over_their_pips``). All 50 held-aside photos this way: read
    right 1 -> 40 of 133 dice, silently wrong 5 -> 0, false detections 73 -> 28 (with the
    classifiers of 7 December 2026, ninth session; 1 -> 38, 4 -> 0, 83 -> 33 before)."""
    tallies = {}
    for larger in (True, False):
        tally = Tally()
        for path in _some_photos("test", 16):
            frame, labels = _close_up(path)
            with pytest.MonkeyPatch.context() as mp:
                if not larger:
                    mp.setattr(Reader, "_dice_over_their_pips", lambda self, frame, objs, *a: objs)
                tally.add(reader.read(frame, kinds={"d6"}), labels)
        tallies[larger] = tally
    looked, before = tallies[True], tallies[False]
    assert looked.true >= 40
    assert looked.silent == 0 and looked.summary()["auto_right"] >= 0.2 and looked.false <= 20
    assert before.summary()["auto_right"] <= 0.05 and before.false >= 25  # what it mends


@needs_photos
def test_small_objects_beside_a_close_up_die_are_asked_about(reader: Reader) -> None:
    """In a close-up whose larger dice took the place of their pips, what is left two and
    a half times smaller than them is no die of the same roll: the pips of a die cut by
    the frame's edge, or of one the networks are unsure of. Those are asked about, not
    read (``Reader._dice_over_their_pips``). Squares of six die sides around every other
    die of three held-aside photos (31 dice read right), enlarged to 1920 px (measured on
    all 50: silently wrong 15 -> 6, reads of no die 32 -> 6, the dice read right 458 ->
    456; with the classifiers before 7 December's, 9 -> 5, 30 -> 6, 472 the same)."""
    from vision.eval import match

    def wrong_reads() -> tuple[int, int, int]:
        wrong = nothing = right = 0
        for path in _some_photos("test", 3):
            img, labels = cv2.imread(str(path)), load_labels(path, 640, 640)
            for die in labels[::2]:
                frame, near = _around(img, labels, die, 6)
                objs = reader.read(frame, kinds={"d6"}).objects
                pairs, extra, _ = match(objs, near)
                right += sum(objs[i].status == STATUS_READ and objs[i].value == near[j].face for i, j in pairs)
                wrong += sum(objs[i].status == STATUS_READ and objs[i].value != near[j].face for i, j in pairs)
                nothing += sum(objs[i].status == STATUS_READ for i in extra)
        return wrong, nothing, right

    asked = wrong_reads()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("vision.reader._pending", lambda obj: obj)
        read = wrong_reads()
    assert asked[0] + asked[1] <= 1 and asked[2] >= 25  # measured 0 wrong, 0 of nothing, 31 right
    assert read[0] + read[1] >= 6 and read[2] == asked[2]  # 1 and 11: what it mends, at no read's cost


def test_candies_in_a_d6_step_are_never_read_as_dice(reader: Reader) -> None:
    """The 36 held-aside candy photos read as a d6 step (a bowl of candies in the tray of
    a dice game): no candy read as a die. Before the pip networks learnt candies as
    "not a die" (``train_d6 --candies``, fit photos only), 21 were read as 2s and 3s,
    their highlights taken for pips, and 407 asked about."""
    from tests.helpers import shared_data
    from vision.gem_data import list_gem_photos

    photos = list_gem_photos(shared_data("colour-candies") / "colour-candies", "test")
    assert len(photos) == 36
    asked = 0
    for photo in photos:
        read = reader.read(photo.path, kinds={"d6"})
        assert read.error is None
        assert not [o for o in read.objects if o.status == STATUS_READ], photo.path.name
        asked += len(read.objects)
    assert asked <= 200  # measured 110: most are dropped as "not a die", not asked about


@needs_photos
def test_read_json_is_the_documented_shape(reader: Reader) -> None:
    path = _some_photos("test", 1)[0]
    read = read_image(path, reader=reader)
    js = read.to_json()
    assert js["image"] == str(path)
    assert js["ms"] > 0
    assert js["objects"], "a shared photo always has dice"
    for o in js["objects"]:
        assert o["kind"] == "d6"
        assert o["value"] in (1, 2, 3, 4, 5, 6)
        assert o["status"] in (STATUS_READ, STATUS_PENDING)
        assert 0.0 <= o["confidence"] <= 1.0
        x, y, w, h = o["box"]
        assert all(isinstance(v, int) for v in o["box"])
        assert -w < x < 640 and -h < y < 640 and 5 < w < 200 and 5 < h < 200


@needs_photos
def test_same_dice_from_bytes_array_and_path_and_in_a_wider_frame(reader: Reader) -> None:
    path = _some_photos("test", 3)[2]
    by_path = reader.read(path)
    data = path.read_bytes()
    by_bytes = reader.read(data)
    assert [o.to_json() for o in by_bytes.objects] == [o.to_json() for o in by_path.objects]
    img = cv2.imread(str(path))
    # the photo inside a 1280 x 720 frame at the same scale (the detector sees it halved
    # less, so dice look bigger to it; values must agree on the dice read in both)
    wide = np.full((720, 1280, 3), 230, np.uint8)
    wide[40:680, 300:940] = img
    shifted = reader.read(wide)
    assert shifted.size == (1280, 720)
    labels = load_labels(path, 640, 640)
    moved = [type(lab)(lab.face, (lab.box[0] + 300, lab.box[1] + 40, lab.box[2], lab.box[3])) for lab in labels]
    t = Tally()
    t.add(shifted, moved)
    assert t.found >= 0.8 * len(labels)


@needs_photos
def test_turned_photo_gives_the_same_faces(reader: Reader) -> None:
    path = _some_photos("test", 4)[3]
    img = cv2.imread(str(path))
    a = sorted(o.value for o in reader.read(img).objects if o.status == STATUS_READ)
    b = sorted(o.value for o in reader.read(np.ascontiguousarray(np.rot90(img))).objects if o.status == STATUS_READ)
    common = sum(min(a.count(v), b.count(v)) for v in range(1, 7))
    assert common >= 0.8 * max(len(a), len(b))


@needs_photos
def test_below_threshold_is_pending_never_guessed() -> None:
    # no probability reaches 1.01: every die must be left pending, with its candidates
    strict = PipClassifier(settings={"thresholds": {"not_a_die": 0.5, "confidence": 1.01, "margin": 0.999}})
    read = Reader(classifiers=[strict]).read(_some_photos("test", 1)[0])
    assert read.objects
    for o in read.objects:
        assert o.status == STATUS_PENDING
        assert o.candidates and o.candidates[0][0] == o.value
        assert o.to_json()["candidates"]


class _Claims:
    """A plug-in classifier that claims every candidate as a symbol die."""

    def __init__(self, status: str, confidence: float) -> None:
        self.status, self.confidence, self.bodies = status, confidence, None

    def classify(self, frame, candidates, bodies):  # type: ignore[no-untyped-def]
        self.bodies = list(bodies)
        return [ObjectRead("lieu", "montagne", c.box, self.confidence, self.status) for c in candidates]


@needs_photos
def test_plug_in_classifiers_get_body_colours_and_the_surest_claim_wins() -> None:
    path = _some_photos("test", 1)[0]
    plain = Reader().read(path).objects
    read_d6 = {o.box for o in plain if o.status == STATUS_READ}
    # a die the pip reader leaves pending but near a face of its own (CONTEST) contests
    # another kind's read as well (vision.reader.best_claim)
    contested = {o.box for o in plain if o.status == STATUS_PENDING and o.confidence >= CONTEST}
    assert read_d6
    sure = _Claims(STATUS_READ, 1.0)  # surer than any pip read (a die the first network alone reads may come at 0.9995)
    objs = Reader(classifiers=[PipClassifier(), sure]).read(path).objects
    assert objs and all(o.kind == "lieu" for o in objs)
    assert sure.bodies and all(len(b) == 3 and 0 <= b[0] <= 255 for b in sure.bodies)
    # where the pip reader also *read* the die, two sure readers disagree: pending, never
    # the surer one's guess (so where it found the die close to a face of its own); where
    # it was unsure or saw no die, the plug-in's read stands
    assert {o.box for o in objs if o.status == STATUS_PENDING} == read_d6 | contested
    assert all(o.value == "montagne" for o in objs if o.box not in read_d6 | contested)
    # a pending claim at 0.0 never beats the pip reader's claims: those stay d6, and the
    # candidates the pip reader rejects ("not a die") are the plug-in's
    unsure = _Claims(STATUS_PENDING, 0.0)
    objs = Reader(classifiers=[PipClassifier(), unsure]).read(path).objects
    assert sorted(o.box for o in objs if o.kind == "d6") == sorted(o.box for o in plain)
    assert all(o.kind == "lieu" for o in objs if o.box not in {p.box for p in plain})


# -- bad input: a clear error or an empty read, never an exception ---------------------
def _jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _noise(h: int = 200, w: int = 200) -> np.ndarray:
    return np.random.default_rng(0).integers(0, 255, (h, w, 3), dtype=np.uint8)


class _Asked:
    """A plug-in classifier that records the candidates it is asked about; reads those at
    the x centres ``reads`` (as a d6 1 or a "lieu" temple), claims nothing else."""

    def __init__(self, kind: str, open_set: bool, reads: "set[float]") -> None:
        self.kinds, self.open_set, self.reads = (kind,), open_set, reads
        self.asked: list[float] = []

    def classify(self, frame, candidates, bodies):  # type: ignore[no-untyped-def]
        self.asked += [c.cx for c in candidates]
        return [ObjectRead(self.kinds[0], 1 if self.kinds[0] == "d6" else "temple", c.box, 0.99)
                if c.cx in self.reads else None for c in candidates]


def test_a_die_an_open_set_reader_reads_is_not_shown_to_the_others() -> None:
    """The open-set (symbol) reader is asked first; a die it reads is not shown to the
    other classifiers (their claims could not change it: :func:`vision.reader.best_claim`),
    the others still are, and the pip-like reader's read of the others stands."""
    from vision.detect import Candidate

    cands = [Candidate(40.0, 40.0, 30.0, 0.9), Candidate(120.0, 40.0, 30.0, 0.9)]

    class Boxes:
        kinds = ("d6", "lieu")

        def detect(self, frame: np.ndarray) -> list[Candidate]:
            return list(cands)

    symbol = _Asked("lieu", True, {40.0})
    pips = _Asked("d6", False, {40.0, 120.0})
    reader = Reader(detectors=[Boxes()], classifiers=[pips, symbol], warm_up=False)
    frame = np.random.default_rng(0).integers(0, 255, (160, 200, 3), dtype=np.uint8)  # not a blank frame
    objs = reader.read(frame, kinds={"d6", "lieu"}).objects
    assert symbol.asked == [40.0, 120.0] and pips.asked == [120.0]
    assert sorted((o.kind, o.value, o.status) for o in objs) == [("d6", 1, STATUS_READ), ("lieu", "temple", STATUS_READ)]


def test_a_pip_read_is_weighed_again_against_the_symbol_reader_at_the_general_detectors_box() -> None:
    """The die-centre detector's box on a symbol die can sit off the die, where the
    symbol reader finds nothing and the pip networks read a face; the general (object)
    detector's box over the same die is shown to the symbol reader, whose read then
    stands (:meth:`Reader._open_set_again`). A pip read with no general box over it, or
    one within a tenth of a side of its own (the same crop), is not asked about again
    and stays."""
    from vision.detect import Candidate

    class Dice:
        kinds = ("d6",)

        def detect(self, frame: np.ndarray) -> list[Candidate]:
            return [Candidate(48.0, 48.0, 30.0, 0.9), Candidate(120.0, 40.0, 30.0, 0.9),
                    Candidate(170.0, 120.0, 30.0, 0.9)]

    class General:
        kinds = ("lieu",)
        general = True

        def detect(self, frame: np.ndarray) -> list[Candidate]:  # the first die, 8 px off; the second
            return [Candidate(40.0, 40.0, 30.0, 0.8, "object"), Candidate(121.0, 41.0, 30.0, 0.8, "object")]

    symbol = _Asked("lieu", True, {40.0})
    pips = _Asked("d6", False, {48.0, 120.0, 170.0})
    reader = Reader(detectors=[Dice(), General()], classifiers=[pips, symbol], warm_up=False)
    frame = np.random.default_rng(0).integers(0, 255, (160, 200, 3), dtype=np.uint8)
    objs = reader.read(frame, kinds={"d6", "lieu"}).objects
    assert sorted((o.kind, o.value, o.status) for o in objs) == [
        ("d6", 1, STATUS_READ), ("d6", 1, STATUS_READ), ("lieu", "temple", STATUS_READ)]
    assert sorted(symbol.asked) == [40.0, 48.0, 120.0, 170.0]  # the box 1 px off is the same crop


def test_a_pending_pip_claim_is_weighed_again_against_the_symbol_reader_too() -> None:
    """The pip networks unsure of a die (pending) at the die-centre detector's box, the
    symbol reader reading it at the general detector's box a fifth of a side away: the
    symbol read stands (:meth:`Reader._open_set_again`), where the die used to stay a
    pending d6 the players were asked about."""
    from vision.detect import Candidate

    class Dice:
        kinds = ("d6",)

        def detect(self, frame: np.ndarray) -> list[Candidate]:
            return [Candidate(48.0, 48.0, 30.0, 0.9)]

    class General:
        kinds = ("lieu",)
        general = True

        def detect(self, frame: np.ndarray) -> list[Candidate]:
            return [Candidate(40.0, 40.0, 30.0, 0.8, "object")]

    class UnsurePips(_Asked):
        def classify(self, frame, candidates, bodies):  # type: ignore[no-untyped-def]
            self.asked += [c.cx for c in candidates]
            return [ObjectRead("d6", None, c.box, 0.6, STATUS_PENDING, ((6, 0.6), (4, 0.3))) for c in candidates]

    symbol = _Asked("lieu", True, {40.0})
    reader = Reader(detectors=[Dice(), General()], classifiers=[UnsurePips("d6", False, set()), symbol],
                    warm_up=False)
    frame = np.random.default_rng(0).integers(0, 255, (160, 200, 3), dtype=np.uint8)
    objs = reader.read(frame, kinds={"d6", "lieu"}).objects
    assert [(o.kind, o.value, o.status) for o in objs] == [("lieu", "temple", STATUS_READ)]
    assert sorted(symbol.asked) == [40.0, 48.0]


PERIPETIES = {"d6", "lieu", "adversaire", "epreuve", "recompense", "sentence"}


def _peripeties_reads(reader: Reader, seed: int, pad: tuple[int, int] = (0, 0)) -> list[tuple[Any, list[ObjectRead]]]:
    """A plain Péripéties render (800 x 600) read as such a step, framed ``pad`` (x, y)
    pixels wider on each side: each label with the reads over its centre, none of them
    wrong."""
    from vision.synth import SceneSpec, render_tray

    scene = render_tray(seed, kinds=sorted(PERIPETIES), n_objects=6,
                        spec=SceneSpec(size=(800, 600), markers=False, crop_to_tray=True), with_background=False)
    dx, dy = pad
    frame = cv2.copyMakeBorder(scene.image, dy, dy, dx, dx, cv2.BORDER_REPLICATE) if dx or dy else scene.image
    read = reader.read(frame, kinds=PERIPETIES)
    out = []
    for lab in scene.labels:
        cx, cy = lab.center[0] + dx, lab.center[1] + dy
        over = [o for o in read.objects if o.status == STATUS_READ
                and o.box[0] <= cx <= o.box[0] + o.box[2] and o.box[1] <= cy <= o.box[1] + o.box[3]]
        assert all((o.kind, o.value) == (lab.kind, lab.value) for o in over), (seed, lab, over)
        out.append((lab, over))
    return out


def test_symbol_dice_as_small_in_the_frame_as_real_d6_are_read() -> None:
    """Péripéties renders framed wider (symbol dice 7 % of the frame's side, as the real
    d6 of the shared photos): the die-centre detector finds the symbol dice as d6 and
    the pip networks hesitate over them; the symbol reader, shown the object detector's
    box, reads them. 12 trays, 59 symbol dice: 18 read right, none wrong (10 before the
    pending claims were weighed again, seventeenth session)."""
    reader = Reader()
    right = sum(bool(over) for seed in range(140, 152)
                for lab, over in _peripeties_reads(reader, seed, (96, 160)) if lab.kind != "d6")
    assert right >= 15


def test_a_white_d6_only_the_object_detector_found_is_read_in_a_peripeties_step() -> None:
    """Péripéties renders whose white d6 (9 % of the frame) the die-centre network misses:
    the object detector finds them, and a d6 the pip networks would read is read when its
    colour is one no enrolled symbol face has (:meth:`Reader._no_symbol_colour`); a
    symbol die is never read as a d6. 12 trays: 10 of 12 d6 read right (2 before,
    seventeenth session)."""
    reader = Reader()
    right = sum(bool(over) for seed in range(100, 112) for lab, over in _peripeties_reads(reader, seed)
                if lab.kind == "d6")
    assert right >= 8


def test_a_die_of_a_symbol_colour_the_object_detector_found_stays_asked() -> None:
    """The same rule never reads a die whose colour an enrolled symbol face has: the
    shipped blue, yellow and red faces' colours keep such a die pending, a white or grey
    one is released (:meth:`vision.symbols.SymbolClassifier.may_be_one`)."""
    from vision.detect import Candidate
    from vision.symbols import SymbolClassifier

    reader = Reader()
    symbols = next(c for c in reader.classifiers if isinstance(c, SymbolClassifier))
    frame = np.full((120, 360, 3), 60, np.uint8)
    for i, bgr in enumerate([(200, 90, 20), (20, 200, 230), (40, 40, 200)]):  # blue, yellow, red dice
        frame[30:90, 10 + 120 * i:70 + 120 * i] = bgr
    die = [Candidate(40.0 + 120 * i, 60.0, 60.0, 1.0, "object") for i in range(3)]
    assert symbols.may_be_one(frame, die) == [True, True, True]
    frame[30:90, 10:70] = 235  # a white die
    frame[30:90, 250:310] = 128  # a grey one
    assert symbols.may_be_one(frame, die) == [False, True, False]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "missing.jpg", "no such file"),
        (lambda tmp: tmp, "folder"),
        (lambda tmp: _write(tmp / "empty.jpg", b""), "empty"),
        (lambda tmp: _write(tmp / "junk.jpg", b"not an image at all" * 50), "decode"),
        (lambda tmp: _write(tmp / "cut.jpg", _jpeg(_noise())[:3000]), "truncated"),
        (lambda tmp: _write(tmp / "cut.png", cv2.imencode(".png", _noise())[1].tobytes()[:3000]), "truncated"),
        (lambda tmp: _write(tmp / "tiny.png", cv2.imencode(".png", _noise(10, 10))[1].tobytes()), "too small"),
    ],
    ids=["missing", "folder", "empty", "junk", "truncated-jpeg", "truncated-png", "tiny"],
)
def test_bad_files_give_an_error_read(reader: Reader, tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    path = make(tmp_path)
    read = reader.read(path)
    assert isinstance(read, Read)
    assert read.objects == ()
    assert read.error is not None and message in read.error
    assert read.to_json()["error"] == read.error


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (np.zeros((480, 640, 3), np.uint8), "black"),
        (np.full((480, 640, 3), 255, np.uint8), "blank"),
        (np.zeros((480, 640, 3), np.float32), "uint8"),
        (np.zeros((480, 640, 2), np.uint8), "H x W"),
        (np.zeros((20000, 70), np.uint8), "too"),
    ],
    ids=["black", "white", "float", "two-channels", "absurd-size"],
)
def test_bad_frames_give_an_error_read(reader: Reader, frame: np.ndarray, message: str) -> None:
    read = reader.read(frame)
    assert read.objects == ()
    assert read.error is not None and message in read.error


def test_noise_grey_and_odd_sizes_read_without_error(reader: Reader) -> None:
    for frame in (_noise(480, 640), cv2.cvtColor(_noise(300, 900), cv2.COLOR_BGR2GRAY),
                  np.dstack([_noise(100, 100), np.full((100, 100, 1), 255, np.uint8)])):
        read = reader.read(frame)
        assert read.error is None
        assert read.size == (frame.shape[1], frame.shape[0])
        for o in read.objects:
            assert o.kind == "d6" and 0 <= o.confidence <= 1


def test_jpeg_with_a_trailer_after_its_end_marker_still_reads() -> None:
    frame = decode(_jpeg(_noise()) + b"SEFT trailer some phones append" * 10)
    assert frame.shape == (200, 200, 3)


def test_decode_raises_image_error_only() -> None:
    with pytest.raises(ImageError):
        decode(b"\xff\xd8\xff\xe0garbage")


# -- property: whatever bytes or array come in, a Read comes out ------------------------
@settings(max_examples=40, deadline=None)
@given(st.one_of(
    st.binary(max_size=400),
    st.binary(max_size=300).map(lambda b: b"\xff\xd8\xff\xe0" + b),
    st.binary(max_size=300).map(lambda b: b"\x89PNG\r\n\x1a\n" + b),
    st.integers(0, 4000).map(lambda n: _jpeg(_noise(90, 120))[:n]),
))
def test_any_bytes_give_a_read_never_an_exception(data: bytes) -> None:
    read = _READER.read(data)
    assert isinstance(read, Read)
    assert (read.error is None) or read.objects == ()


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.sampled_from([1, 3, 4]), st.integers(0, 255))
def test_any_frame_shape_gives_a_read(h: int, w: int, channels: int, level: int) -> None:
    frame = np.full((h, w, channels), level, np.uint8)
    frame[h // 3: h // 2, w // 3: w // 2] = 255 - level
    read = _READER.read(frame)
    assert isinstance(read, Read)
    if min(h, w) < 64:
        assert read.error is not None and "too small" in read.error
    for o in read.objects:
        assert 0.0 <= o.confidence <= 1.0



def test_crop_normalisation_stretches_dark_crops_not_flat_tray() -> None:
    from vision.pips import to_blob

    rng = np.random.default_rng(1)
    dark = rng.integers(10, 80, (1, 48, 48, 3), dtype=np.uint8)  # a dark die: little contrast
    bright = rng.integers(60, 250, (1, 48, 48, 3), dtype=np.uint8)
    flat = np.full((1, 48, 48, 3), 128, np.uint8)
    flat[0, 0, 0] = 131  # a tray with a speck of noise
    raw = to_blob(np.concatenate([dark, bright, flat]))
    assert raw.shape == (3, 3, 48, 48) and float(raw.max()) <= 1.0
    out = to_blob(np.concatenate([dark, bright, flat]), "crop")
    for k in (0, 1):
        assert float(out[k].mean()) == pytest.approx(0.5, abs=1e-4)
        assert float(out[k].std()) == pytest.approx(0.25, rel=1e-3)
    # contrast at most 5x (std floor 0.05): the speck of the flat tray stays small
    assert float(np.abs(out[2] - 0.5).max()) <= 5 * float(np.abs(raw[2] - raw[2].mean()).max()) + 1e-6
    with pytest.raises(ValueError, match="unknown input normalisation"):
        to_blob(dark, "zscore")


# -- tiny dice in a large frame: the closer look ---------------------------------------
def _pasted_tray(seed: int, size: tuple[int, int], at: tuple[int, int], floor: tuple[int, int, int],
                 k: float | None = None, side_px: float | None = None
                 ) -> tuple[np.ndarray, list[tuple[int, tuple[float, float]]]]:
    """Rendered white d6 on a tray (1280 x 720), scaled by ``k`` (or so that the dice's
    median side is ``side_px``) and pasted at ``at`` (x, y) into a plain ``size`` frame
    of colour ``floor``: the frame and each die's (value, centre)."""
    from vision.synth import SceneSpec, render_tray

    scene = render_tray(seed, kinds=["d6"], spec=SceneSpec(size=(1280, 720), markers=False), with_background=False)
    if k is None:
        assert side_px is not None, "give k or side_px"
        k = side_px / float(np.median([max(lab.box[2], lab.box[3]) for lab in scene.labels]))
    small = cv2.resize(scene.image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    (w, h), (ox, oy) = size, at
    frame = np.full((h, w, 3), floor, np.uint8)
    part = small[:h - oy, :w - ox]
    frame[oy:oy + part.shape[0], ox:ox + part.shape[1]] = part
    return frame, [(int(lab.value), (ox + k * lab.center[0], oy + k * lab.center[1])) for lab in scene.labels]


def _tiny_dice_frame(seed: int) -> tuple[np.ndarray, list[tuple[int, tuple[float, float]]]]:
    """Rendered white d6 (about 25 px) on a tray pasted small into a 1280 x 720 frame."""
    return _pasted_tray(seed, (1280, 720), (500, 200), (96, 96, 96), k=0.45)


def test_tiny_dice_in_a_large_frame_are_looked_at_closer_and_never_misread() -> None:
    reader = Reader()
    closer = right = 0
    for seed in (3, 5, 8):
        frame, dice = _tiny_dice_frame(seed)
        first = reader.detectors[0].detect(frame)
        if reader._closer_look(frame, first, reader.detectors[:1], True) is not None:
            closer += 1
        for o in reader.read(frame, kinds={"d6"}).objects:
            cx, cy = o.box[0] + o.box[2] / 2, o.box[1] + o.box[3] / 2
            near = [v for v, (x, y) in dice if abs(x - cx) < o.box[2] / 2 and abs(y - cy) < o.box[3] / 2]
            assert near, f"seed {seed}: a die read where none lies: {o}"
            if o.status == STATUS_READ:
                assert o.value in near, f"seed {seed}: {o} read, the die shows {near}"
                right += 1
    assert closer >= 2 and right >= 1


def _small_tray_in_a_1080p_frame(seed: int) -> tuple[np.ndarray, list[tuple[int, tuple[float, float]]]]:
    """Rendered white d6 of 28 px on a tray that takes a corner of a 1920 x 1080 frame
    (a webcam far above the table): at the first look's input the dice are under 5 px."""
    return _pasted_tray(seed, (1920, 1080), (700, 300), (84, 96, 110), side_px=28.0)


def test_small_dice_in_a_large_frame_are_found_where_the_first_look_saw_clusters_or_nothing() -> None:
    """The closer look's dice sizes are only an upper bound (dice of 9 px come out at
    about 18), so the region is read as for dice under the floor (aimed at 27 px, then
    measured again); and a first look that saw nothing at all is followed by the closer
    look too. Seven trays, 72 dice: found 43 -> 68, read right 12 -> 55 (the reader
    before, 7 December 2026), none misread."""
    reader = Reader()
    dice = found = right = 0
    for seed in range(7):
        frame, truth = _small_tray_in_a_1080p_frame(seed)
        objs = reader.read(frame, kinds={"d6"}).objects
        for value, (x, y) in truth:
            over = [o for o in objs if o.box[0] <= x <= o.box[0] + o.box[2] and o.box[1] <= y <= o.box[1] + o.box[3]]
            dice += 1
            found += bool(over)
            read = [o.value for o in over if o.status == STATUS_READ]
            assert all(v == value for v in read), f"seed {seed}: a {value} read as {read}"
            right += value in read
    assert found >= 0.7 * dice and right >= 0.5 * dice, (dice, found, right)


def test_small_dice_found_by_the_closer_look_are_never_taken_for_the_pips_of_one_large_die() -> None:
    """Dice found by the closer look are smaller than learnt: the search for a die far
    larger than learnt over its pips (a close-up) must not take a few of them for one
    die's pips. In this tilted webcam frame (white d6 of 26 px in 1920 x 1080), the
    search found a blob of four dice that the pip networks read as a 4 at 0.95; a
    blob holding a die read as another face than 1 (a pip alone looks like a 1) is now
    no die over pips there."""
    from vision.train.cameras import white_d6

    frame, labels = white_d6(12, True, (1920, 1080))
    objs = Reader().read(frame, kinds={"d6"}).objects
    assert len(objs) >= 5
    for o in objs:
        x, y, w, h = o.box
        inside = [lab.face for lab in labels if x <= lab.centre[0] <= x + w and y <= lab.centre[1] <= y + h]
        assert len(inside) <= 2, f"{o} spans {len(inside)} dice"
        if o.status == STATUS_READ:
            assert o.value in inside, f"{o} read over the dice {inside}"


def test_the_closer_look_replaces_a_first_look_that_saw_each_die_too_large_when_it_is_surer() -> None:
    """Tilted webcam frames of white d6 of 24-30 px in 1280 x 720: the first look finds
    about one blob per die, each two to three times too large and unsure, so the closer
    look finds no more of them; it finds the same dice at their size and surer (median
    heat 0.1 higher or more), and now takes their place. The three trays: 0 of 23 dice
    found before (the too-wide crops were "not a die"), none misread now."""
    from vision.train.cameras import WEBCAM, white_d6

    reader = Reader()
    dice = found = 0
    for seed in (9, 14, 36):
        frame, labels = white_d6(seed, True, WEBCAM)
        objs = reader.read(frame, kinds={"d6"}).objects
        for lab in labels:
            over = [o for o in objs if o.box[0] <= lab.centre[0] <= o.box[0] + o.box[2]
                    and o.box[1] <= lab.centre[1] <= o.box[1] + o.box[3]]
            dice += 1
            found += bool(over)
            assert all(o.value == lab.face for o in over if o.status == STATUS_READ), (seed, lab, over)
    assert found >= 0.75 * dice, (found, dice)


@needs_photos
def test_the_closer_look_leaves_large_real_dice_alone() -> None:
    """Held-aside photos enlarged 2x (dice of 6 % of the side, which the first look reads
    well): the closer look does not run, whose count of pips would take them for dice."""
    reader = Reader()
    for path in _some_photos("test", 6):
        big = cv2.resize(cv2.imread(str(path)), None, fx=2.0, fy=2.0)
        first = reader.detectors[0].detect(big)
        assert reader._closer_look(big, first, reader.detectors[:1], True) is None


def test_a_step_expecting_d6_and_d10_never_reads_a_d10_as_a_d6() -> None:
    """Péripéties' difficulty roll before the trial is known expects d10 or d6. The d6
    path reads first; where the d10 path found the same die, their claims are weighed
    (``best_claim``) instead of the d6 read standing: on 12 rendered pools (100 whole
    d10), 7 were read as d6 faces and 33 right before (7 December 2026), none and 63 now."""
    from vision.train.train_d10_detector import HELD_OUT_SEED, tray_frame

    reader = Reader()
    dice = right = 0
    for i in range(12):
        made = tray_frame(HELD_OUT_SEED + i, [])
        assert made is not None
        frame, truth = made
        objs = reader.read(frame, kinds={"d6", "d10"}).objects
        for cx, cy, side, value, whole in truth:
            if not whole:
                continue
            dice += 1
            over = [(o.kind, o.value) for o in objs if o.status == STATUS_READ
                    and abs(o.box[0] + o.box[2] / 2 - cx) < side / 2 and abs(o.box[1] + o.box[3] / 2 - cy) < side / 2]
            assert all(r == ("d10", value) for r in over), f"tray {i}: a d10 showing {value} read as {over}"
            right += ("d10", value) in over
    assert dice >= 90 and right >= 0.5 * dice, (dice, right)


def test_in_a_d6_and_d10_step_the_pip_networks_leave_the_d10_the_numeral_networks_claim(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pip networks, unsure of a d10 the die-centre detector found, looked at it again
    in eight views (most of the step's time) to end pending, and the die with them. Told
    which dice the numeral path read or found close to a face (``PipClassifier.beside``),
    they neither look again at those they are unsure of nor claim them: on the same 12
    pools, 72 d10 read right instead of 63 (74 in a step expecting d10 alone), and 25
    crops looked at again instead of 80 (7 December 2026). The dice the numeral path
    read are not shown to the d6 path at all (``reader._Apart``): 79 read right (77 in
    a step expecting d10 alone; 75 before), 198 candidates shown to the pip networks
    instead of 283 (thirteenth session). With the d10 networks of 8 December 2026, 93
    read right (95 in a step expecting d10 alone)."""
    from vision.pips import PipClassifier
    from vision.train.train_d10_detector import HELD_OUT_SEED, tray_frame

    again = [0]
    asked = [0]
    run = PipClassifier._run
    classify = PipClassifier.classify

    def counted(self: PipClassifier, crops: np.ndarray) -> np.ndarray:
        again[0] += len(crops)  # the eight views' runs (the first look has its own)
        return run(self, crops)

    def shown(self: PipClassifier, frame: np.ndarray, cands: Any, bodies: Any = ()) -> Any:
        asked[0] += len(cands)
        return classify(self, frame, cands, bodies)

    monkeypatch.setattr(PipClassifier, "_run", counted)
    monkeypatch.setattr(PipClassifier, "classify", shown)
    reader = Reader()
    right = {"d10": 0, "d6+d10": 0}
    for i in range(12):
        made = tray_frame(HELD_OUT_SEED + i, [])
        assert made is not None
        frame, truth = made
        for step, kinds in (("d10", {"d10"}), ("d6+d10", {"d6", "d10"})):
            objs = reader.read(frame, kinds=kinds).objects
            for cx, cy, side, value, whole in truth:
                right[step] += whole and any(
                    o.status == STATUS_READ and (o.kind, o.value) == ("d10", value)
                    and abs(o.box[0] + o.box[2] / 2 - cx) < side / 2 and abs(o.box[1] + o.box[3] / 2 - cy) < side / 2
                    for o in objs)
    # 93 and 95 with the d10 networks of 8 December 2026 (79 and 77 before): the d6 path
    # contests a few d10 the numeral path leaves pending, none read wrong
    assert right["d6+d10"] >= right["d10"] - 3 and right["d6+d10"] >= 76, right
    assert again[0] <= 7 * 40 and asked[0] <= 230, (again[0], asked[0])


def test_the_d6_path_is_not_shown_a_die_the_numeral_path_read() -> None:
    """``_Apart``: a candidate centred on a box the numeral path read gets no claim and
    never reaches the classifier; the others reach it with their own body colours, and
    the boxes follow the classifier into a zoomed region (``_in_region``)."""
    from vision.detect import Candidate
    from vision.reader import _Apart, _in_region

    seen: list[tuple[float, float, tuple[float, float, float]]] = []

    class Standin:
        kind = "d6"

        def classify(self, frame: np.ndarray, cands: Any, bodies: Any = ()) -> list[ObjectRead | None]:
            seen.extend((c.cx, c.cy, b) for c, b in zip(cands, bodies))
            return [ObjectRead("d6", 3, c.box, 0.9) for c in cands]

    apart = _Apart(Standin(), [(100, 100, 40, 40)])
    cands = [Candidate(120.0, 118.0, 30.0, 0.9), Candidate(200.0, 60.0, 30.0, 0.9), Candidate(139.0, 139.0, 30.0, 0.8)]
    bodies = [(1.0, 1.0, 1.0), (2.0, 2.0, 2.0), (3.0, 3.0, 3.0)]
    out = apart.classify(np.zeros((300, 300, 3), np.uint8), cands, bodies)
    assert [o is None for o in out] == [True, False, True]
    assert seen == [(200.0, 60.0, (2.0, 2.0, 2.0))]
    assert apart.kind == "d6"  # the rest is the classifier's
    inner = _in_region(apart, 80, 50, 0.5)
    assert isinstance(inner, _Apart) and inner.read_elsewhere == ((10, 25, 20, 20),)


def test_the_dice_the_pip_networks_are_told_of_follow_them_into_a_zoomed_region() -> None:
    """Small dice are classified in a region of the frame cut out and shrunk
    (``Reader._read_zoomed``): the boxes the pip networks were told of (a numeral
    path's dice) must be moved and scaled with it, or they would mark other dice."""
    from vision.reader import _in_region, _told

    pips = PipClassifier()
    told = _told(pips, [(100, 200, 40, 40)])
    assert isinstance(told, PipClassifier) and told is not pips and pips.claimed_elsewhere == ()
    inner = _in_region(told, 80, 150, 0.5)
    assert isinstance(inner, PipClassifier) and inner.claimed_elsewhere == ((10, 25, 20, 20),)
    assert _in_region(pips, 80, 150, 0.5) is pips and _told(pips, []) is pips


def test_a_peripeties_step_never_reads_a_symbol_die_as_a_d6() -> None:
    """A step expecting d6 and the symbol dice, on plain rendered photos: the pip
    networks would read some blue symbol dice as confident d6 faces; with the symbol
    reader's claim on the same die (:func:`vision.reader.best_claim`) none is."""
    from vision.synth import SceneSpec, render_tray

    kinds = {"d6", "lieu", "adversaire", "epreuve", "recompense", "sentence"}
    reader = Reader()
    symbols = 0
    # trays where, without the symbol reader's contest, a symbol die came out a d6 face
    for seed in (102, 114, 116, 120, 121, 123):
        scene = render_tray(seed, kinds=sorted(kinds), n_objects=6,
                            spec=SceneSpec(size=(800, 600), markers=False, crop_to_tray=True), with_background=False)
        read = reader.read(scene.image, kinds=kinds)
        for lab in scene.labels:
            if lab.kind == "d6":
                continue
            cx, cy = lab.center
            over = [o for o in read.objects
                    if o.box[0] <= cx <= o.box[0] + o.box[2] and o.box[1] <= cy <= o.box[1] + o.box[3]]
            symbols += bool(over)
            assert not [o for o in over if o.status == STATUS_READ and (o.kind, o.value) != (lab.kind, lab.value)], \
                f"seed {seed}: {lab.kind} {lab.value} read as {over}"
    assert symbols >= 8


def test_a_symbol_die_the_symbol_reader_reads_is_read_even_when_the_pip_networks_read_it_too() -> None:
    """Rendered Péripéties trays where the pip networks, asked alone, read a symbol die
    as a d6 face (or are unsure of one) and the symbol reader reads it as its enrolled
    face: the symbol read stands (the pip networks never saw a symbol die; the symbol
    reader is open-set against the enrolled faces, see
    :func:`vision.reader.best_claim`), and nothing is read wrong. Without that rule
    every one of these dice was pending."""
    from vision.detect import Candidate
    from vision.pips import PipClassifier
    from vision.synth import SceneSpec, render_tray

    kinds = {"d6", "lieu", "adversaire", "epreuve", "recompense", "sentence"}
    reader = Reader()
    pips = next(c for c in reader.classifiers if isinstance(c, PipClassifier))
    both = unsure = 0
    for seed in (102, 105, 106, 107, 108, 109):
        scene = render_tray(seed, kinds=sorted(kinds), n_objects=6,
                            spec=SceneSpec(size=(800, 600), markers=False, crop_to_tray=True),
                            with_background=False)
        read = reader.read(scene.image, kinds=kinds)
        for lab in scene.labels:
            cx, cy = lab.center
            over = [o for o in read.objects
                    if o.box[0] <= cx <= o.box[0] + o.box[2] and o.box[1] <= cy <= o.box[1] + o.box[3]]
            assert not [o for o in over if o.status == STATUS_READ and (o.kind, o.value) != (lab.kind, lab.value)]
        for o in read.objects:
            if o.status != STATUS_READ or o.kind == "d6":
                continue
            x, y, w, h = o.box  # what the pip networks say of that die, asked alone
            pip = pips.classify(scene.image, [Candidate(x + w / 2, y + h / 2, float(max(w, h)), 0.9)])[0]
            both += pip is not None and pip.status == STATUS_READ
            unsure += pip is not None and pip.status != STATUS_READ
    assert both >= 4 and unsure >= 1, (both, unsure)
