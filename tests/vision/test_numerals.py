"""The numeral classifiers (vision.numerals): read held-out rendered d10, d4, d6, d8, d12
and d20 faces, never read a thing that is no numeral (real crops of the shared photos)
or a die of another kind than the step expects, are the numeral plug-in of the table's
reader, and on a calibrated tray can only stop the enrollment's guess."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import shared_data
from vision.detect import Candidate
from vision.numerals import OTHER, NumeralClassifier, PolyNumerals, available, combine_numeral, poly_available
from vision.result import STATUS_PENDING, STATUS_READ, ObjectRead
from vision.train.eval_numerals import (TRANSFORMS, confident, confident_as, held_out_digits, held_out_faces,
                                        held_out_others, held_out_poly_others, score, score_kind)


# Measured with the committed model on 600 held-out faces in the Hershey fonts the
# network never saw (docs/vision.md gives the figures with the Liberation fonts too):
# best guess right 84.3 % as rendered, 81.2 % after JPEG 30, 57.0 % after blur σ 1.5;
# read automatically 35.3 % as rendered (26.8 % after JPEG 30), never wrong as rendered
# or after JPEG 30 (1 of 600 after blur σ 1.5 or at half the size). Its thresholds are
# strict: it asks rather than guesses. The bars sit a few points under the figures.
# The network committed on 5 December 2026 (it learnt from the d10 detector's crops too)
# does better on 1,000 such faces (python -m vision.train.eval_numerals --kinds d10):
# best guess 92.4 / 87.5 / 67.6 %, read automatically 52.1 % as rendered, never wrong as
# rendered; the bars are kept.
MIN_BEST = {"as rendered": 0.79, "JPEG 30": 0.76, "blur σ 1.5": 0.52}
MIN_AUTO = 0.30  # as rendered
MAX_SILENT = 0.01


@pytest.fixture(scope="module")
def clf() -> NumeralClassifier:
    if not available() or not poly_available():
        pytest.fail("vision/models/numerals_d10.onnx, numerals_poly.onnx or their .json missing")
    return NumeralClassifier(kinds=("d4", "d6", "d8", "d10", "d12", "d20"))


def shared_or_fail() -> Path:
    return shared_data("tray-dice-photos", "colour-candies")


@pytest.fixture(scope="module")
def digits() -> tuple[np.ndarray, np.ndarray]:
    return held_out_digits(600, truetype=False)  # Hershey fonts only: no Pillow needed


@pytest.mark.parametrize("name", list(MIN_BEST))
def test_reads_held_out_rendered_faces(clf: NumeralClassifier, digits: tuple[np.ndarray, np.ndarray],
                                       name: str) -> None:
    xs, ys = digits
    tf = dict(TRANSFORMS)[name]
    s = score(clf, xs if tf is None else np.stack([tf(c) for c in xs]), ys)
    assert s["best"] >= MIN_BEST[name], s
    assert s["silent"] <= MAX_SILENT, s
    if tf is None:
        assert s["auto"] >= MIN_AUTO, s


def test_every_transform_stays_honest(clf: NumeralClassifier, digits: tuple[np.ndarray, np.ndarray]) -> None:
    xs, ys = digits
    for name, tf in TRANSFORMS:
        s = score(clf, xs if tf is None else np.stack([tf(c) for c in xs]), ys)
        assert s["silent"] <= 0.02, (name, s)


def test_a_second_look_in_quarter_turns_never_reads_more_wrong(
        clf: NumeralClassifier, digits: tuple[np.ndarray, np.ndarray]) -> None:
    """A crop the d10 network is unsure of is classified again in its three other quarter
    turns (``tta_below`` in numerals.json). With the networks before 8 December 2026 the
    second look ran below the read bar and read more (38.7 -> 41.9 % of the held-out
    fonts as rendered, the same silent errors). Since, it runs below 0.99, above the read
    bar (0.90): it also checks the reads of 0.90-0.99, and on the held-out fonts it
    reads fewer (59.8 against 64.7 % as rendered) but none wrong under any transform,
    where a single look reads 12 of them wrong (4 scaled 0.5x, 3 blurred)."""
    import copy

    xs, ys = digits
    once = copy.copy(clf)
    once.tta_below = None
    assert clf.tta_below is not None and clf.tta_below > clf.thresholds["confidence"]
    silent_two = silent_one = 0
    for name, tf in TRANSFORMS:
        x = xs if tf is None else np.stack([tf(c) for c in xs])
        a, b = score(clf, x, ys), score(once, x, ys)
        assert a["silent"] <= b["silent"], (name, a, b)
        assert a["auto"] >= 0.75 * b["auto"], (name, a, b)  # the price of the check
        silent_two += a["wrong"]
        silent_one += b["wrong"]
    assert silent_two < silent_one and silent_two <= 1, (silent_two, silent_one)


def test_rendered_others_are_never_read(clf: NumeralClassifier) -> None:
    assert confident(clf, held_out_others(300, truetype=False)) == 0


def test_real_crops_that_are_no_numeral_are_never_read(clf: NumeralClassifier) -> None:
    """Pip dice and tray floor of the held-aside tray photos, candies of the held-aside
    candy photos: none is read as a d10 face."""
    from vision.train.train_numerals import real_others

    real, _ = real_others(shared_or_fail(), "test", 7, max_candy=20)
    assert len(real) > 500
    assert confident(clf, real) == 0
    # nor as a die of any other numeral kind, one kind at a time or all together
    for kinds in ({"d4"}, {"d6"}, {"d8"}, {"d12"}, {"d20"}, set(clf.kinds)):
        assert confident_as(clf, kinds, real) == 0, kinds


def test_decide_is_open_set(clf: NumeralClassifier) -> None:
    box = (0, 0, 10, 10)
    p = np.zeros(OTHER + 1)
    p[7] = 1.0
    assert clf.decide(box, p) == ObjectRead("d10", 7, box, 1.0, STATUS_READ, kind_confidence=1.0)
    p0 = np.zeros(OTHER + 1)
    p0[0] = 1.0
    assert clf.decide(box, p0).value == 10  # type: ignore[union-attr]  # the 0 face is 10
    close = np.zeros(OTHER + 1)
    close[6], close[9] = 0.5, 0.5  # a 6 or a 9, unsure: pending with both
    got = clf.decide(box, close)
    assert got is not None and got.status == STATUS_PENDING and {v for v, _ in got.candidates} == {6, 9}
    assert got.kind_confidence == 1.0  # surely a d10, whichever face: it contests a d6 read (best_claim)
    unsure = close.copy()
    unsure[OTHER], unsure[6], unsure[9] = 0.2, 0.4, 0.4
    assert clf.decide(box, unsure).kind_confidence == pytest.approx(0.8)  # type: ignore[union-attr]
    other = np.zeros(OTHER + 1)
    other[OTHER] = 0.9
    other[3] = 0.1
    assert clf.decide(box, other) is None
    assert clf.decide(box, np.full(OTHER + 1, np.nan)) is None


def test_combine_numeral_stops_a_guess_only() -> None:
    a = ObjectRead("d10", 4, (0, 0, 9, 9), 0.9)
    assert combine_numeral(a, ObjectRead("d10", 4, (0, 0, 9, 9), 0.99)) == a
    b = combine_numeral(a, ObjectRead("d10", 9, (0, 0, 9, 9), 0.99))
    assert b.kind == "d10" and b.status == STATUS_PENDING and b.value is None
    assert [v for v, _ in b.candidates] == [9, 4]
    unsure = ObjectRead("d10", None, (0, 0, 9, 9), 0.5, STATUS_PENDING, ((9, 0.5), (6, 0.4)))
    assert combine_numeral(a, unsure) == a and combine_numeral(a, None) == a


# Measured with the committed numerals_poly.onnx on 300 held-out faces per kind in the
# Hershey fonts it never saw (docs/vision/numerals.md gives the figures with the Liberation
# fonts too), as rendered: best guess right / read right automatically / silently wrong:
# d4 62.3 / 2.3 / 0, d6 88.3 / 14.0 / 0, d8 85.3 / 21.3 / 0, d12 81.3 / 17.7 / 0,
# d20 60.7 / 8.7 / 0; after JPEG 30 one d6 of 300 read wrong. Its thresholds are strict:
# it asks rather than guesses. The bars sit a few points under the figures.
POLY_BARS = {  # kind: (best guess right at least, read right automatically at least)
    "d4": (0.55, 0.005),
    "d6": (0.83, 0.10),
    "d8": (0.80, 0.16),
    "d12": (0.76, 0.13),
    "d20": (0.55, 0.05),
}
POLY_MAX_SILENT = 0.01


@pytest.mark.parametrize("kind", list(POLY_BARS))
def test_reads_held_out_faces_of_the_other_numeral_dice(clf: NumeralClassifier, kind: str) -> None:
    xs, ys = held_out_faces(kind, 300, truetype=False)
    s = score_kind(clf, kind, xs, ys)
    best, auto = POLY_BARS[kind]
    assert s["best"] >= best and s["auto"] >= auto, (kind, s)
    assert s["silent"] <= POLY_MAX_SILENT, (kind, s)
    jpeg = dict(TRANSFORMS)["JPEG 30"]
    assert jpeg is not None
    assert score_kind(clf, kind, np.stack([jpeg(c) for c in xs]), ys)["silent"] <= 2 * POLY_MAX_SILENT


def test_rendered_others_on_polyhedral_bodies_are_never_read(clf: NumeralClassifier) -> None:
    others = held_out_poly_others(300, truetype=False)
    assert confident_as(clf, set(clf.kinds), others) == 0


def test_a_die_of_another_kind_than_expected_is_not_read(clf: NumeralClassifier) -> None:
    """d20 faces 13..20 for a step expecting d12: none read (a d12 shows no 17)."""
    xs, ys = held_out_faces("d20", 300, truetype=False)
    assert confident_as(clf, {"d12"}, xs[ys > 12]) == 0
    assert confident_as(clf, {"d8"}, xs[ys > 8]) == 0


class FixedPoly(PolyNumerals):
    """The poly network's decision rule over fixed probabilities (no model file)."""

    def __init__(self, p: np.ndarray) -> None:
        self.classes = [*range(1, 21), None]
        self.other = 20
        self.kinds = ("d4", "d6", "d8", "d12", "d20")
        self.thresholds = {"other": 0.3, "confidence": 0.9, "margin": 0.0}
        self.p = p

    def probabilities_of_crops(self, crops: np.ndarray) -> np.ndarray:
        return np.repeat(self.p[None], len(crops), axis=0)


def _poly_reading(number: int | None, sure: float = 0.99) -> NumeralClassifier:
    p = np.zeros(21)
    p[20 if number is None else number - 1] = sure
    p[0 if number != 1 else 1] += 1 - sure
    return NumeralClassifier(poly=FixedPoly(p), kinds=("d4", "d6", "d8", "d10", "d12", "d20"))


def test_the_die_kind_is_the_steps_and_never_guessed() -> None:
    crops = np.zeros((1, 48, 48, 3), np.uint8)
    box = [(0, 0, 48, 48)]
    seven = _poly_reading(7)
    got = seven.for_kinds({"d12"}).classify_crops(crops, box)[0]
    assert got == ObjectRead("d12", 7, box[0], 0.99, STATUS_READ, kind_confidence=1.0)
    assert seven.for_kinds({"d8", "d6"}).classify_crops(crops, box)[0].kind == "d8"  # type: ignore[union-attr]
    # a 7 for a step expecting d8 and d12: the number is sure, the die's kind is not
    both = seven.for_kinds({"d8", "d12"}).classify_crops(crops, box)[0]
    assert both is not None and both.status == STATUS_PENDING and both.value is None
    # a 17 for a step expecting d12, a 7 for a d4: another die, not claimed
    assert _poly_reading(17).for_kinds({"d12"}).classify_crops(crops, box) == [None]
    assert seven.for_kinds({"d4"}).classify_crops(crops, box) == [None]
    # "other": not claimed; unsure: pending with the candidates the kind shows
    assert _poly_reading(None, 0.9).for_kinds({"d20"}).classify_crops(crops, box) == [None]
    unsure = _poly_reading(11, 0.6).for_kinds({"d20"}).classify_crops(crops, box)[0]
    assert unsure is not None and unsure.status == STATUS_PENDING and unsure.candidates[0][0] == 11
    # a kind it does not read is not expected; no kind expected: nothing claimed
    assert _poly_reading(3).for_kinds({"lieu"}).classify_crops(crops, box) == [None]


def test_a_d10_step_reads_exactly_as_the_d10_network_alone(clf: NumeralClassifier,
                                                           digits: tuple[np.ndarray, np.ndarray]) -> None:
    xs, _ = digits
    alone = NumeralClassifier(poly=False)
    assert alone.kinds == ("d10",)
    boxes = [(0, 0, 48, 48)] * 60
    assert clf.for_kinds({"d10"}).classify_crops(xs[:60], boxes) == alone.classify_crops(xs[:60], boxes)
    assert [alone.decide(b, p) for b, p in zip(boxes, alone.probabilities_of_crops(xs[:60]))] == \
        alone.classify_crops(xs[:60], boxes)


def test_the_table_reader_runs_it_for_the_numeral_dice_it_expects() -> None:
    """The default plug-ins include the numeral classifier: the d10 and the d4, d8, d12,
    d20 (the d6 stays the pip networks'); it runs when the step expects one of them and
    reads for those."""
    from vision.reader import Reader

    reader = Reader(warm_up=False)
    numerals = [c for c in reader.classifiers if isinstance(c, NumeralClassifier)]
    assert len(numerals) == 1 and numerals[0].kinds == ("d4", "d8", "d10", "d12", "d20")
    assert not [c for c in reader._plugins({"d6"})[1] if isinstance(c, NumeralClassifier)]
    assert not [c for c in reader._plugins(None)[1] if isinstance(c, NumeralClassifier)]
    mine = [c for c in reader._plugins({"d12", "d6"})[1] if isinstance(c, NumeralClassifier)]
    assert len(mine) == 1 and mine[0].expected == ("d12",)


def test_on_a_calibrated_tray_the_networks_can_only_stop_the_enrollments_guess() -> None:
    """The players' enrolled faces read the d4, d10 and d12 of a calibrated tray; the
    networks, asked for each die's enrolled kind, agree (the read stands) or make it
    pending when they read another number: never a different confident face."""
    from vision.calibration import calibrate
    from vision.reader import Reader
    from vision.synth import SceneSpec, render_tray

    objects = [("d12", 7), ("d12", 11), ("d4", 3), ("d10", 6), ("d10", 10), ("d12", 12)]
    scene = render_tray(71, objects=objects, spec=SceneSpec(size=(1280, 960)))
    cal = calibrate(scene.background)
    truth = sorted((lab.kind, lab.value) for lab in scene.labels)

    class Disagrees:
        """A numeral plug-in that reads, surely, the face after the enrolled one."""

        kind = "d10"
        kinds = ("d4", "d10", "d12")
        seen: list[str] = []

        def for_kinds(self, kinds: set[str]) -> "Disagrees":
            self.seen.extend(kinds)
            self.expected = next(iter(kinds))
            return self

        def classify(self, frame: np.ndarray, candidates: list[Candidate], bodies: object = ()) -> list[ObjectRead]:
            return [ObjectRead(self.expected, 99, c.box, 0.999) for c in candidates]

    plain = Reader(detectors=[], classifiers=[], calibration=cal, warm_up=False).read(scene.image)
    assert sorted((o.kind, o.value) for o in plain.objects) == truth  # the enrollment alone
    stub = Disagrees()
    stopped = Reader(detectors=[], classifiers=[stub], calibration=cal, warm_up=False).read(scene.image)
    assert sorted(set(stub.seen)) == ["d10", "d12", "d4"]
    assert [o.status for o in stopped.objects] == [STATUS_PENDING] * len(objects)
    assert all(99 in {v for v, _ in o.candidates} for o in stopped.objects)
    real = Reader(calibration=cal).read(scene.image)
    assert len(real.objects) == len(objects)
    for o in real.objects:
        assert o.status == STATUS_PENDING or (o.kind, o.value) in truth, o


def test_real_photos_give_no_confident_numeral_die_of_any_kind() -> None:
    """The held-aside real photos (pip d6 trays, candies) hold no numeral die: a step
    expecting d4, d8, d12 or d20 reads none of their objects as one."""
    from vision.reader import Reader
    from vision.train.eval_d10_detector import load, score_negatives

    _, negs = load(shared_or_fail(), 0)
    reader = Reader()
    for name, frames in negs.items():
        assert len(frames) >= 30, name
        for kinds in ({"d12"}, {"d4", "d8", "d12", "d20"}):
            n = score_negatives(reader, frames, kinds=kinds)
            assert n["confident"] == 0, (name, kinds, n)


def test_plain_frames_of_d12_are_found_and_never_read_wrong() -> None:
    """d12 drawn by vision.synth (its own numerals, never trained on) on plain frames: the
    default detectors propose them, the classifier reads them for a step expecting d12."""
    from vision.reader import Reader
    from vision.train.eval_numerals import plain_trays, score_plain

    c = score_plain(Reader(), "d12", plain_trays("d12", 8))
    assert c["dice"] >= 30, c
    # measured: 25 trays, 150 d12: 69 % found, 18 % read right, 0 wrong, 0 false
    assert c["found"] >= 0.55 * c["dice"] and c["right"] >= 0.08 * c["dice"], c
    assert c["wrong"] == 0 and c["false"] <= 2, c


def test_tray_crops_are_the_detectors_crops_labelled_by_the_die_under_them() -> None:
    """``train_numerals --tray-frames``: the d10 network learns from the crops the table
    cuts on a plain photo (the committed d10 detector's candidates on rendered trays),
    each labelled with the digit of the whole d10 under it ("other" on no die)."""
    from vision.train.train_d10_detector import tray_frame
    from vision.train.train_numerals import CLASSES, OTHER as TRAIN_OTHER, TRAY_SEED, tray_crops

    xs, ys = tray_crops(3, TRAY_SEED, [], seed=0)
    assert xs.shape[1:] == (48, 48, 3) and len(xs) == len(ys)
    whole = [v for i in range(3) for *_, v, w in (tray_frame(TRAY_SEED + i, []) or (None, []))[1] if w]
    digits = [CLASSES[int(y)] for y in ys if y != TRAIN_OTHER]
    assert len(digits) >= len(whole) // 2  # the detector finds most of them
    # each digit crop is a die of the frames, none counted twice
    assert not Counter(digits) - Counter(whole)


def test_coloured_tray_crops_and_webcam_d6_crops_for_the_d10_network() -> None:
    """``train_numerals --tray-coloured`` draws that share of the tray frames with dice of
    players' colours (their digit crops then differ from the white dice's), and
    ``--webcam-d6`` adds what the d10 detector proposes on webcam-like white-d6 trays,
    every one "other" (no d10 lies there)."""
    from vision.train.train_d10_detector import evenly
    from vision.train.train_numerals import OTHER as TRAIN_OTHER, TRAY_SEED, WEBCAM_D6_SEED, tray_crops, webcam_d6_crops

    white, ys = tray_crops(2, TRAY_SEED, [], seed=0)
    coloured, yc = tray_crops(2, TRAY_SEED, [], seed=0, coloured=1.0)
    assert [evenly(i, 0.5) for i in range(2)] == [False, True]
    digit_w = white[ys != TRAIN_OTHER].reshape(-1, 3).astype(float)
    digit_c = coloured[yc != TRAIN_OTHER].reshape(-1, 3).astype(float)
    assert len(digit_w) and len(digit_c)
    # white dice: bright, colourless crops; coloured ones far more saturated on average
    sat = [float(np.mean(d.max(axis=1) - d.min(axis=1))) for d in (digit_w, digit_c)]
    assert sat[1] > sat[0] + 15, sat
    wd = webcam_d6_crops(3, WEBCAM_D6_SEED)
    assert wd.ndim == 4 and wd.shape[1:] == (48, 48, 3) and len(wd) >= 3


class _PlayersSay:
    """A stand-in for the glyph reader of the players' enrolled d10 (the reader's
    SymbolClassifier): it reads each die as ``says`` the network's own read of it."""

    def __init__(self, says) -> None:
        from vision.enroll import Enrollment

        self.says = says
        self.store = Enrollment(classes=[("d10", 1)], label=np.zeros(1, np.int64))  # a players' store: d10 taught
        self.asked = 0

    def enrollment(self):
        return self.store

    def reading(self, kinds):
        assert list(kinds) == ["d10"]
        return self

    def classify(self, frame, cands):
        self.asked += len(cands)
        return [self.says(c) for c in cands]


def test_the_players_views_weigh_on_the_networks_reads_of_a_plain_photo(clf: NumeralClassifier,
                                                                       digits: tuple[np.ndarray, np.ndarray]) -> None:
    """On a plain photo the players' own d10 views (vision.numerals.players_pick,
    combine_numeral) turn a read of the networks into pending when they read another
    number, and a pending die into a read when they read the networks' best number at
    vision.numerals.PLAYERS_FLOOR or more; with no numeral kind taught nothing changes."""
    from copy import copy

    from vision.enroll import Enrollment
    from vision.numerals import PLAYERS_FLOOR

    crops = digits[0][:120]
    cand = Candidate(24.0, 24.0, 48 / clf.factor, 1.0)  # the reader's cut of a 48 x 48 frame is the frame
    d10 = clf.for_kinds({"d10"})
    alone = [d10.classify(c, [cand])[0] for c in crops]

    def best(o: ObjectRead) -> int:
        return int(o.value if o.status == STATUS_READ else o.candidates[0][0])

    def told(players: _PlayersSay, crop: np.ndarray) -> ObjectRead | None:
        view = copy(d10)
        view.players = players
        return view.classify(crop, [cand])[0]

    vetoed = picked = 0
    for crop, o in zip(crops, alone):
        if o is None:  # no numeral: not shown to the players' views
            assert told(_PlayersSay(lambda c: ObjectRead("d10", 3, c.box, 0.99)), crop) is None
            continue
        b = best(o)
        no = told(_PlayersSay(lambda c, b=b: ObjectRead("d10", b % 10 + 1, c.box, 0.97)), crop)
        yes = told(_PlayersSay(lambda c, b=b: ObjectRead("d10", b, c.box, 0.97)), crop)
        assert no is not None and yes is not None
        if o.status == STATUS_READ:  # another number: pending with both; the same: as it was
            assert no.status == STATUS_PENDING and {b, b % 10 + 1} <= {v for v, _ in no.candidates}
            assert yes == o
            vetoed += 1
        else:  # never a read on disagreement; a read of the networks' best on agreement above the floor
            assert no == o
            assert (yes.status, yes.value) == ((STATUS_READ, b) if o.candidates[0][1] >= PLAYERS_FLOOR
                                                else (o.status, o.value))
            picked += yes.status == STATUS_READ
    assert vetoed >= 10 and picked >= 3, (vetoed, picked)
    # a players' store with no numeral kind (gems only): never asked, the networks' reads as they are
    gems = _PlayersSay(lambda c: ObjectRead("d10", 1, c.box, 0.99))
    gems.store = Enrollment(classes=[("gem", "ete")], label=np.zeros(1, np.int64))
    assert [told(gems, c) for c in crops] == alone and gems.asked == 0
