"""Symbol dice on a plain photo (vision.symbols): the glyph embedding against the enrolled
faces, reached through the table's reader; and on a calibrated tray, the embedding as a
second opinion that can only stop a template's guess (vision.faces.glyph_opinion)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from vision.detect import Candidate
from vision.embed import SYMBOL_KINDS, available
from vision.enroll import Enrollment
from vision.enroll_photos import enroll_frame
from vision.faces import classify, extract
from vision.reader import Reader
from vision.result import STATUS_READ
from vision.segment import find_objects
from vision.symbols import SymbolClassifier
from vision.synth import SceneSpec, render_single, render_tray

FACES = {"lieu": ("montagne", "ville", "temple", "foret"), "sentence": ("voyage", "bagne", "blessure")}
PHOTO = SceneSpec(size=(640, 480), markers=False, crop_to_tray=True)


class KnownBoxes:
    """Candidates at given centres (until a class-agnostic detector feeds the reader)."""

    kinds = SYMBOL_KINDS

    def __init__(self, cands: list[Candidate]) -> None:
        self.cands = cands

    def detect(self, frame: np.ndarray) -> list[Candidate]:
        return list(self.cands)


def _enroll() -> Enrollment:
    store = Enrollment()
    for kind, faces in FACES.items():
        for face in faces:
            for seed in (401, 402, 403):  # photos of one die each, as a player takes them
                enroll_frame(store, render_single(kind, face, seed, PHOTO).image, kind, face)
    return store


def _keep(store: Enrollment, keep: "set[tuple[str, str]]") -> Enrollment:
    """A copy of ``store`` with only the faces of ``keep``."""
    out = store.merged(Enrollment())
    for kind, faces in FACES.items():
        for face in faces:
            if (kind, face) not in keep:
                out.remove(kind, face)
    return out


@pytest.fixture(scope="module")
def store() -> Enrollment:
    if not available():
        pytest.fail("vision/models/glyph_embed.onnx or glyph_embed.json missing")
    return _enroll()


@pytest.fixture(scope="module")
def photos() -> list[tuple[np.ndarray, list[tuple[str, str]], list[Candidate]]]:
    """Plain photos (no markers, no empty tray) of 4 symbol dice each, candidates at the truth."""
    out = []
    objs = [(k, f) for k, fs in FACES.items() for f in fs]
    for seed in range(5):
        pick = [objs[(seed * 3 + j) % len(objs)] for j in range(4)]
        scene = render_tray(7700 + seed, objects=pick, spec=PHOTO, with_background=False)
        cands = [Candidate(lab.center[0], lab.center[1], float(np.sqrt(lab.box[2] * lab.box[3])) * 0.85, 0.9)
                 for lab in scene.labels]
        out.append((scene.image, [(lab.kind, str(lab.value)) for lab in scene.labels], cands))
    return out


def test_the_reader_has_the_symbol_plug_in_on_request() -> None:
    reader = Reader(warm_up=False)
    plug = [c for c in reader.classifiers if isinstance(c, SymbolClassifier)]
    assert len(plug) == 1 and plug[0].on_request and set(plug[0].kinds) == set(SYMBOL_KINDS)


def test_reads_enrolled_symbol_dice_on_a_plain_photo_through_the_reader(store: Enrollment, photos: list) -> None:
    right = wrong = total = 0
    for image, truth, cands in photos:
        reader = Reader(detectors=[KnownBoxes(cands)], enrollment=store, warm_up=False)
        read = reader.read(image, kinds={"lieu", "sentence"})
        assert read.error is None
        for obj in read.objects:
            assert obj.kind in ("lieu", "sentence")
            if obj.status == STATUS_READ:
                k = min(range(len(cands)), key=lambda i: abs(cands[i].cx - obj.box[0] - obj.box[2] / 2)
                        + abs(cands[i].cy - obj.box[1] - obj.box[3] / 2))
                right += (obj.kind, str(obj.value)) == truth[k]
                wrong += (obj.kind, str(obj.value)) != truth[k]
        total += len(truth)
    assert wrong == 0
    assert right >= 0.5 * total, (right, total)


def test_a_read_whose_ink_does_not_match_its_face_is_left_pending(store: Enrollment, photos: list) -> None:
    """The second look at the ink (vision.glyph_ink): a die the embedding reads stays
    pending when its ink does not come close to its face's enrolled views. Here every
    view's ink map is replaced by one that matches no die (ink in a corner outside the
    disc): no read survives, each stays pending as the same kind; with the store's own
    maps the same dice are read, and a store with no maps (made before them) reads as
    before."""
    from vision.glyph_ink import SIZE

    corner = np.zeros(SIZE * SIZE, np.float32)
    corner[0] = 1.0
    elsewhere = store.merged(Enrollment())
    elsewhere.emb_ink[:] = corner
    own, other = SymbolClassifier(store), SymbolClassifier(elsewhere)
    old = store.merged(Enrollment())
    old.emb_ink[:] = np.nan
    before = SymbolClassifier(old)
    read = 0
    for image, truth, cands in photos:
        for t, a, b, c in zip(truth, own.classify(image, cands), other.classify(image, cands),
                              before.classify(image, cands)):
            if a is not None and a.status == STATUS_READ:
                read += 1
                assert b is not None and b.status != STATUS_READ and b.kind == a.kind, (t, a, b)
            assert (c is None) == (b is None) and (c is None or c.kind == b.kind)  # only the status changes
            if c is not None and c.status != STATUS_READ:
                assert a is None or a.status != STATUS_READ  # the ink never makes a read
    assert read >= 8, read


def test_not_run_when_the_step_does_not_ask_for_symbol_dice(store: Enrollment, photos: list) -> None:
    image, _, cands = photos[0]
    reader = Reader(detectors=[KnownBoxes(cands)], enrollment=store, warm_up=False)
    assert all(o.kind == "d6" for o in reader.read(image).objects)


def test_a_face_nobody_enrolled_is_not_read(store: Enrollment, photos: list) -> None:
    for left in (("lieu", "ville"), ("sentence", "bagne")):
        clf = SymbolClassifier(_keep(store, {(k, f) for k, fs in FACES.items() for f in fs} - {left}))
        assert len(clf.enrollment().glyph_prototypes(SYMBOL_KINDS)) == 6
        for image, truth, cands in photos:
            for t, o in zip(truth, clf.classify(image, cands)):
                if t == left:
                    assert o is None or o.status != STATUS_READ, (left, o)


def test_a_kind_with_one_enrolled_face_reads_no_other_face(store: Enrollment, photos: list) -> None:
    clf = SymbolClassifier(_keep(store, {("sentence", "bagne")}))
    assert [p.face for p in clf.enrollment().glyph_prototypes(SYMBOL_KINDS)] == ["bagne"]
    for image, truth, cands in photos:
        for t, o in zip(truth, clf.classify(image, cands)):
            if t != ("sentence", "bagne"):
                assert o is None or o.status != STATUS_READ, (t, o)


def test_pip_dice_and_bare_floor_are_not_claimed(store: Enrollment) -> None:
    clf = SymbolClassifier(store)
    scene = render_tray(7800, objects=[("d6", 5), ("d6", 2), ("d12", 7), ("gem", "hiver")], spec=PHOTO,
                        with_background=False)
    cands = [Candidate(lab.center[0], lab.center[1], float(np.sqrt(lab.box[2] * lab.box[3])), 0.9)
             for lab in scene.labels]
    cands += [Candidate(60.0 + 90 * i, 420.0, 60.0, 0.5) for i in range(6)]  # tray floor
    for o in clf.classify(scene.image, cands):
        assert o is None or o.status != STATUS_READ, o


def test_a_die_of_a_colour_no_enrolled_view_has_is_not_even_embedded(store: Enrollment) -> None:
    """White d6 beside a blue and a red symbol die: only the two coloured dice are
    embedded (the speed of a Péripéties step), and they are still read."""
    clf = SymbolClassifier(store)
    scene = render_tray(7810, objects=[("d6", 5), ("lieu", "ville"), ("d6", 2), ("sentence", "bagne"), ("d6", 6)],
                        spec=PHOTO, with_background=False)
    cands = [Candidate(lab.center[0], lab.center[1], float(np.sqrt(lab.box[2] * lab.box[3])) * 0.85, 0.9)
             for lab in scene.labels]
    embedded: list[int] = []
    real = clf.embedder.embed_crops

    def spy(crops: np.ndarray) -> np.ndarray:
        embedded.append(len(crops))
        return real(crops)

    clf.embedder = copy.copy(clf.embedder)
    clf.embedder.embed_crops = spy  # type: ignore[method-assign]
    out = clf.classify(scene.image, cands)
    assert embedded == [2]
    for lab, o in zip(scene.labels, out):
        if lab.kind == "d6":
            assert o is None
        else:
            assert o is not None and o.kind == lab.kind and o.value in (lab.value, None), (lab, o)


def test_every_rendered_symbol_die_passes_the_colour_gate_of_its_kind() -> None:
    """The shipped enrollment's own colours (:func:`vision.embed.dominant_colours`) let
    every rendered symbol die, in any light the renderer draws and cut tight or loose, be
    compared with its own kind's faces: the gate that spares the white d6 never hides a
    symbol die."""
    from dataclasses import replace

    from vision.embed import default_embedder, dominant_colours, usable_mask
    from vision.enroll import default_enrollment

    emb = default_embedder()
    assert emb is not None
    protos = default_enrollment().glyph_prototypes(SYMBOL_KINDS)
    spec = SceneSpec(size=(800, 600), markers=False, crop_to_tray=True)
    seen = 0
    for seed in range(20):
        scene = render_tray(8100 + seed, kinds=list(SYMBOL_KINDS) + ["d6"], n_objects=6, spec=spec,
                            with_background=False)
        labs = [lab for lab in scene.labels if lab.kind in SYMBOL_KINDS]
        for tight in (0.85, 1.0):  # the label's box is the rotated die's: larger than its side
            crops = emb.crops(scene.image, [(lab.center[0], lab.center[1],
                                             tight * float(np.sqrt(lab.box[2] * lab.box[3]))) for lab in labs])
            ok = usable_mask(protos, replace(emb.params, colour_gate=None), None, dominant_colours(crops))
            for lab, row in zip(labs, ok):
                assert any(keep and p.kind == lab.kind for p, keep in zip(protos, row)), (seed, tight, lab)
        seen += len(labs)
    assert seen >= 80


def test_an_empty_or_old_enrollment_claims_nothing(photos: list) -> None:
    image, _, cands = photos[0]
    assert SymbolClassifier(Enrollment()).classify(image, cands) == [None] * len(cands)


def test_on_a_tray_the_embedding_stops_a_template_guess(store: Enrollment) -> None:
    # the templates read the ville die; with the enrolled vectors of ville and temple
    # swapped, the embedding reads it as temple: the die becomes pending
    scene = render_single("lieu", "ville", 404, PHOTO)
    blobs, bg = find_objects(scene.image, None)
    feat = extract(scene.image, bg, max(blobs, key=lambda b: b.area))
    m = classify(feat, store)
    assert (m.kind, m.face, m.pending) == ("lieu", "ville", False)
    tampered = store.merged(Enrollment())
    ville = [i for i, c in enumerate(tampered.classes) if c == ("lieu", "ville")][0]
    temple = [i for i, c in enumerate(tampered.classes) if c == ("lieu", "temple")][0]
    v_rows, t_rows = tampered.label == ville, tampered.label == temple
    tampered.emb[v_rows], tampered.emb[t_rows] = store.emb[t_rows], store.emb[v_rows]
    tampered.emb_colour[v_rows], tampered.emb_colour[t_rows] = store.emb_colour[t_rows], store.emb_colour[v_rows]
    m2 = classify(feat, tampered)
    assert m2.pending and m2.kind == "lieu"
