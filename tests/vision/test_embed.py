"""The glyph embedding (vision.embed): few-shot reads of the real Péripéties symbols
(rendered), and open-set honesty: a face nobody enrolled, a kind with one enrolled face,
and the real d6 photos treated as glyphs (the sixth face never read)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import shared_data
from vision.embed import NONE, READ, EmbedParams, Embedder, available, centre_colour, decide, prototypes, usable
from vision.enroll import Enrollment
from vision.errors import EnrollmentError
from vision.faces import extract
from vision.segment import find_objects
from vision.synth import SceneSpec, render_single
from vision.train.eval_embed import leave_one_out, real_d6, real_d6_one_colour, score, symbol_renders


Set = tuple[np.ndarray, list[tuple[str, int | str]], np.ndarray]


@pytest.fixture(scope="module")
def emb() -> Embedder:
    if not available():
        pytest.fail("vision/models/glyph_embed.onnx or glyph_embed.json missing")
    return Embedder()


def _set(emb: Embedder, seeds: range) -> Set:
    x, c = symbol_renders(seeds, size=(480, 360), embedder=emb)
    return emb.embed_crops(x), c, np.stack([centre_colour(k) for k in x])


@pytest.fixture(scope="module")
def renders(emb: Embedder) -> tuple[Set, Set]:
    """3 enrollment views and 3 reads of each of the 23 Péripéties faces."""
    return _set(emb, range(510, 513)), _set(emb, range(910, 913))


def test_vectors_are_unit_and_turn_free(emb: Embedder) -> None:
    x, _ = symbol_renders([1], kinds=("lieu",), embedder=emb)
    v = emb.embed_crops(x)
    assert v.shape == (6, emb.dim)
    assert np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-4)
    # the four quarter turns are averaged: a turned crop gives the same vector
    assert np.allclose(emb.embed_crops(np.rot90(x, 1, axes=(1, 2)).copy()), v, atol=1e-4)


def test_few_shot_reads_the_peripeties_symbols(emb: Embedder, renders: tuple[Set, Set]) -> None:
    (ve, ce, ke), (vr, cr, kr) = renders
    s = score(vr, cr, prototypes(ve, ce, ke), emb.params, kr)
    assert s["wrong"] == 0, s
    assert s["right"] >= 0.6 * len(cr), s


def test_a_face_nobody_enrolled_is_never_read(emb: Embedder, renders: tuple[Set, Set]) -> None:
    (ve, ce, ke), (vr, cr, kr) = renders
    loo = leave_one_out(ve, ce, ke, vr, cr, kr, emb.params)
    assert loo["wrong"] == 0 and loo["right"] == 0, loo
    assert sum(loo.values()) == len(cr)


def test_a_kind_with_one_enrolled_face_reads_no_other_face(emb: Embedder, renders: tuple[Set, Set]) -> None:
    (ve, ce, ke), (vr, cr, kr) = renders
    for only in (("sentence", "bagne"), ("lieu", "ville"), ("epreuve", "combat")):
        rows = [i for i, c in enumerate(ce) if c == only]
        protos = prototypes(ve[rows], [only] * len(rows), ke[rows])
        for params in (emb.params, replace(emb.params, colour_gate=None)):  # with or without colour
            reads = [decide(v, protos, params, k) for v, k in zip(vr, kr)]
            wrong = [(c, m.face) for c, m in zip(cr, reads) if m.status == READ and c != only]
            assert not wrong, (only, wrong)
        # and its own face is still read (not every crop is pending either)
        own = [m for c, m in zip(cr, reads) if c == only]
        assert any(m.status == READ for m in own), (only, own)


def test_decision_rules() -> None:
    p = EmbedParams()
    a = np.array([1, 0, 0], np.float32)
    b = np.array([0.995, 0.0998, 0], np.float32)
    ps = prototypes(np.stack([a, b]), [("lieu", "ville"), ("lieu", "foret")])
    assert decide(a, ps, p).status != READ  # two faces too alike: never a confident read
    gated = prototypes(a[None], [("lieu", "ville")], np.array([[100, 100, 200]], np.float32))
    assert decide(a, gated, p, np.array([100, 200, 100], np.float32)).status == NONE  # colour of no view


def test_real_d6_photos_as_glyphs_sixth_face_never_read(emb: Embedder) -> None:
    folder = shared_data("tray-dice-photos") / "tray-dice-photos"
    res = real_d6(emb, folder)
    assert res["left_out"]["right"] == 0 and res["left_out"]["wrong"] == 0, res  # the sixth face: never confident
    assert res["enrolled"]["wrong"] <= 2, res  # enrolled faces: at most 2 silent errors in ~1,900 reads
    assert sum(res["left_out"].values()) > 300  # the test split's dice were all read


def test_real_d6_one_colour_at_a_time_no_wrong_read_and_no_left_out_face_read(emb: Embedder) -> None:
    """As a player enrolls one set of dice: the real d6 of one colour enrolled from five
    fit crops per face (ten random draws), read on the test photos. The embedding alone
    reads some wrong or reads a face left out of the enrollment (1 and 6 measured on
    7 December 2026); the look at the ink leaves those pending and keeps most right reads."""
    folder = shared_data("tray-dice-photos") / "tray-dice-photos"
    alone = real_d6_one_colour(emb, folder, params=replace(emb.params, ink_floor=None))
    assert alone["wrong"] + alone["left_out_read"] >= 1, alone
    res = real_d6_one_colour(emb, folder)
    assert res["wrong"] == 0 and res["left_out_read"] == 0, res
    assert res["right"] >= 0.6 * alone["right"] and res["left_out_not_read"] > 1500, (res, alone)


# -- the enrollment store ------------------------------------------------------------
def _view(kind: str, face: str, seed: int) -> tuple[np.ndarray, object]:
    scene = render_single(kind, face, seed, SceneSpec(size=(480, 360), markers=False, crop_to_tray=True))
    blobs, bg = find_objects(scene.image, None)
    big = max(blobs, key=lambda b: b.area)
    return scene.image, extract(scene.image, bg, big, rotated=False)


def test_enrollment_keeps_vectors_and_old_stores_still_load(emb: Embedder, tmp_path: Path) -> None:
    store = Enrollment()
    for seed in (1, 2):
        for face in ("ville", "foret"):
            _, feat = _view("lieu", face, seed)
            store.add("lieu", face, feat)  # type: ignore[arg-type]
    assert store.embed_model == emb.model_id and np.isfinite(store.emb).all() and store.emb.shape == (4, emb.dim)
    ps = store.glyph_prototypes(("lieu",))
    assert sorted(str(p.face) for p in ps) == ["foret", "ville"] and all(p.views == 2 for p in ps)
    back = Enrollment.load(store.save(tmp_path / "e.npz"))
    assert back.embed_model == store.embed_model
    assert np.allclose(back.emb, store.emb, atol=2e-3)
    assert len(back.glyph_prototypes(("lieu",))) == 2
    # each view's own colour is kept: blue, whatever the glyph
    assert np.isfinite(back.emb_body).all() and np.allclose(back.emb_body, store.emb_body, atol=0.5)
    assert (back.emb_body[:, 2] < 110).all(), back.emb_body  # b* well below neutral 128: blue
    # and its ink map (vision.glyph_ink), for the second look at a read
    assert np.isfinite(back.emb_ink).all() and np.allclose(back.emb_ink, store.emb_ink, atol=2e-3)
    assert all(p.inks.shape == (2, back.emb_ink.shape[1]) for p in back.glyph_prototypes(("lieu",)))
    with np.load(tmp_path / "e.npz") as z:
        no_ink = {k: z[k] for k in z.files if k != "emb_ink"}
    np.savez_compressed(tmp_path / "no_ink.npz", **no_ink)
    assert np.isnan(Enrollment.load(tmp_path / "no_ink.npz").emb_ink).all()  # loads: no ink check for it
    brought = Enrollment().merged(back)  # another store's kinds bring their maps, face by face
    for cls in back.classes:
        mine = brought.emb_ink[brought.label == brought.classes.index(cls)]
        assert np.allclose(mine, back.emb_ink[back.label == back.classes.index(cls)]) and len(mine) == 2
    gone = back.merged(Enrollment())
    gone.remove("lieu", "ville")
    assert gone.emb_ink.shape == (2, back.emb_ink.shape[1]) and np.isfinite(gone.emb_ink).all()
    # a store saved before the views' own colour was kept loads; its faces take any colour
    with np.load(tmp_path / "e.npz") as z:
        older = {k: z[k] for k in z.files if k != "emb_body"}
    np.savez_compressed(tmp_path / "older.npz", **older)
    before = Enrollment.load(tmp_path / "older.npz")
    ps = before.glyph_prototypes(("lieu",))
    assert len(ps) == 2 and all(np.isnan(p.bodies).all() for p in ps)
    white = np.array([235.0, 128.0, 128.0])
    assert len(usable(ps, emb.params, body=white)) == 2
    assert usable(back.glyph_prototypes(("lieu",)), emb.params, body=white) == []
    assert np.isfinite(Enrollment().merged(back).emb_body).all()
    # a malformed own-colour array (a damaged file) loads as unknown colours, not a crash later
    older["emb_body"] = np.zeros((4, 2), np.float16)
    np.savez_compressed(tmp_path / "bad.npz", **older)
    assert all(np.isnan(p.bodies).all() for p in Enrollment.load(tmp_path / "bad.npz").glyph_prototypes(("lieu",)))
    # a store saved before the embedding (no emb arrays) loads, with no vectors
    with np.load(tmp_path / "e.npz") as z:
        old = {k: z[k] for k in z.files if k not in ("emb", "emb_colour")}
    np.savez_compressed(tmp_path / "old.npz", **old)
    legacy = Enrollment.load(tmp_path / "old.npz")
    assert len(legacy) == 4 and legacy.glyph_prototypes(("lieu",)) == []
    merged = legacy.merged(store)  # the same kind: legacy's own templates, no vectors
    assert merged.glyph_prototypes(("lieu",)) == []
    both = Enrollment().merged(store)
    assert len(both.glyph_prototypes(("lieu",))) == 2
    legacy.remove("lieu", "ville")
    assert legacy.emb.shape[0] == len(legacy) == 2
    with pytest.raises(EnrollmentError):
        Enrollment.load(tmp_path / "missing.npz")


@pytest.mark.parametrize("name", ["vision.embed", "vision.glyph_ink", "vision.train.glyphs"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(name)
    tests = doctest.DocTestFinder(exclude_empty=True).find(module, name)
    assert sum(len(t.examples) for t in tests) > 0
    runner = doctest.DocTestRunner()
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0
