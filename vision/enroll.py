"""The enrollment store: templates of every face the players have shown the camera.

Players enroll their own dice and gems from a few photos per face (one object per photo,
on the tray; :mod:`vision.enroll_photos` picks the object and adds its template): ``companion vision enroll --kind lieu --face montagne IMAGES...`` or a
folder laid out ``kind/face/*.jpg``. Each photo gives one template: the rotation-free
features of :mod:`vision.faces` (ink map, silhouette, body colour) and, for gems, the
interior colour of :mod:`vision.gems`; and, when the glyph-embedding network is
installed, the view's vector (:mod:`vision.embed`), from which each symbol face's
prototype is made (:meth:`Enrollment.glyph_prototypes`). A store saved before the
embedding loads as before, without vectors (the templates still read). Nothing is
downloaded: the store is a ``.npz`` file in the data folder.

A default enrollment, rendered by :mod:`vision.synth`, is generated at first use into the
cache folder (a few seconds), so the demo reads synthetic trays out of the box. It is not
meant to read real dice: enroll yours.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from .catalog import CLASSES, CLEAR_GEM, parse_face
from .embed import Prototype, centre_colour, default_embedder, dominant_colour, prototypes
from .errors import EnrollmentError
from .faces import EMBED_FACTOR, INK_SIZE, SIL_SIZE, Features, extract, view_agreement
from .glyph_ink import SIZE as GLYPH_INK_SIZE, ink_views
from .gems import gem_colour_features
from .markers import MarkerLayout
from .segment import find_objects
from .synth import SceneSpec, render_tray

__all__ = ["Enrollment", "default_enrollment", "ENROLLMENT_FILE", "DEFAULT_VERSION", "IMAGE_SUFFIXES", "iter_classes"]

ENROLLMENT_FILE = "enrollment.npz"
DEFAULT_VERSION = 4  # bump when the features change: old stores are refused, not misread
DEFAULT_VIEWS = 6
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}

Progress = Callable[[int, int, str], None]


@dataclass
class Enrollment:
    """Templates: row ``i`` belongs to class ``classes[label[i]]`` (a (kind, face) pair)."""

    classes: list[tuple[str, int | str]] = field(default_factory=list)
    ink: np.ndarray = field(default_factory=lambda: np.zeros((0, INK_SIZE * INK_SIZE), np.float32))
    sil: np.ndarray = field(default_factory=lambda: np.zeros((0, SIL_SIZE * SIL_SIZE), np.float32))
    colour: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    ink_frac: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))
    gem: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    label: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int64))
    source: str = "user"
    #: Glyph-embedding vectors (:mod:`vision.embed`), one row a template (NaN where the
    #: view has none: a store made before the embedding, or without its model), the
    #: centre colour of each view's crop, and the id of the network that made them.
    emb: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    emb_colour: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    #: Each view's own colour (:func:`vision.embed.dominant_colour`; NaN rows: a store
    #: made before it was kept, whose views then take part whatever a die's colour).
    emb_body: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    #: Each view's ink map (:func:`vision.glyph_ink.ink_views` of the crop the vector
    #: was made from; NaN rows: a store made before it was kept, whose reads are then
    #: not checked against it).
    emb_ink: np.ndarray = field(default_factory=lambda: np.zeros((0, GLYPH_INK_SIZE ** 2), np.float32))
    embed_model: str = ""
    #: Each gem view's colour as a plain photo measures it (:func:`vision.gem_colour.gem_colours`:
    #: white-balanced CIE Lab of the centre, against the frame's white); NaN rows for the
    #: other kinds and for stores made before it was kept. The plain-photo gem reader
    #: learns the players' own gems from them (:meth:`players_gem_colours`).
    gem_plain: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    #: The kinds whose views come from the players' own photos, in a store merged with
    #: the shipped one (:meth:`merged`); ``None``: every kind of a store that is not the
    #: shipped synthetic one (see :meth:`own_kinds`).
    players_kinds: tuple[str, ...] | None = None
    _spread: dict[int, float | None] = field(default_factory=dict, repr=False, compare=False)
    _protos: dict[tuple[str, ...], list[Prototype]] = field(default_factory=dict, repr=False, compare=False)
    _gem_views: dict[str, np.ndarray] | None = field(default=None, repr=False, compare=False)

    def self_similarity(self, ci: int) -> float | None:
        """How closely the views of class ``ci`` match each other: the median, over its
        views, of each view's best ink score against the others (any quarter of a turn
        of 10°); ``None`` with fewer than two views. Memoised (cleared on any change).
        The reader asks a read of that face to come near it (open-set honesty)."""
        if ci not in self._spread:
            rows = np.nonzero(self.label == ci)[0]
            self._spread[ci] = view_agreement(self.ink[rows]) if len(rows) >= 2 else None
        return self._spread[ci]

    def __len__(self) -> int:
        return int(len(self.label))

    def _changed(self) -> None:
        self._spread.clear()
        self._protos.clear()
        self._gem_views = None

    def _aligned_emb(self) -> None:
        """``emb``, ``emb_colour``, ``emb_body``, ``emb_ink`` and ``gem_plain`` with one row
        per template (NaN rows where missing)."""
        n, d = len(self.label), self.emb.shape[1] if self.emb.ndim == 2 else 0
        if self.gem_plain.shape != (n, 3):  # missing (an older store) or malformed: no plain-photo colour
            self.gem_plain = np.full((n, 3), np.nan, np.float32)
        if self.emb.shape[0] != n:
            self.emb = np.full((n, d), np.nan, np.float32)
            self.emb_colour = np.zeros((n, 3), np.float32)
        if self.emb_body.shape != (n, 3):  # missing (an older store) or malformed: no colour gate
            self.emb_body = np.full((n, 3), np.nan, np.float32)
        if self.emb_ink.shape != (n, GLYPH_INK_SIZE ** 2):  # missing or malformed: no ink check
            self.emb_ink = np.full((n, GLYPH_INK_SIZE ** 2), np.nan, np.float32)

    def glyph_prototypes(self, kinds: Sequence[str]) -> list[Prototype]:
        """The glyph-embedding prototypes (:func:`vision.embed.prototypes`) of the
        enrolled faces of ``kinds`` whose views have vectors of the installed network
        (none for a store made before it). Memoised."""
        key = tuple(sorted(kinds))
        if key not in self._protos:
            out: list[Prototype] = []
            has = self._has_vectors()
            rows = [i for i in range(len(self.label)) if self.classes[int(self.label[i])][0] in key and has[i]]
            if rows:
                out = prototypes(self.emb[rows], [self.classes[int(self.label[i])] for i in rows],
                                 self.emb_colour[rows], self.emb_body[rows], self.emb_ink[rows])
            self._protos[key] = out
        return self._protos[key]

    def _has_vectors(self) -> np.ndarray:
        """Per view, whether it has a glyph vector of the installed network (all False
        when none is installed, or the store's vectors are another network's)."""
        emb = default_embedder()
        n = len(self.label)
        if emb is None or self.embed_model != emb.model_id or self.emb.shape != (n, emb.dim):
            return np.zeros(n, bool)
        return np.asarray(np.isfinite(self.emb).all(axis=1))

    def kinds(self) -> list[str]:
        return sorted({k for k, _ in self.classes})

    def own_kinds(self) -> list[str]:
        """The enrolled kinds the players taught from their own dice: every kind of a
        players' store, none of the shipped synthetic one, and in a merged store those
        of the players' part (not the shipped kinds merged in for the rest).

        >>> Enrollment(classes=[("d10", 1)], label=np.zeros(1, np.int64)).own_kinds()
        ['d10']
        >>> Enrollment(classes=[("d10", 1)], label=np.zeros(1, np.int64), source="synthetic").own_kinds()
        []
        """
        kinds = self.kinds()
        if self.players_kinds is not None:
            return [k for k in kinds if k in self.players_kinds]
        return [] if self.source == "synthetic" else kinds

    def _kinds_where(self, missing: np.ndarray, kinds: Sequence[str] | None = None) -> list[str]:
        """The enrolled kinds of ``kinds`` (default the symbol kinds,
        :data:`vision.embed.SYMBOL_KINDS`) with a view where ``missing`` (one bool per
        view) is true."""
        from .embed import SYMBOL_KINDS

        among = SYMBOL_KINDS if kinds is None else tuple(kinds)
        return sorted({kind for i, lab in enumerate(self.label)
                       for kind in [self.classes[int(lab)][0]] if kind in among and missing[i]})

    def without_vectors(self, kinds: Sequence[str] | None = None) -> list[str]:
        """The enrolled symbol kinds (or those of ``kinds``: the numeral dice, whose views
        settle on a plain photo what the numeral networks hesitate over) with a view that
        has no glyph vector of the installed network: a store made before the embedding,
        or by a network since retrained. Those faces are read by their templates alone
        until enrolled again (the vectors are made from the photo, which is not kept)."""
        if default_embedder() is None:  # no network: nothing to enroll again for
            return []
        return self._kinds_where(~self._has_vectors(), kinds)

    def without_ink(self) -> list[str]:
        """The enrolled symbol kinds with a view that has a glyph vector but no ink map
        (:mod:`vision.glyph_ink`): a store made before the ink was kept. Their reads are
        not checked against the die's ink until enrolled again."""
        self._aligned_emb()
        return self._kinds_where(self._has_vectors() & ~np.isfinite(self.emb_ink).all(axis=1))

    def counts(self) -> dict[tuple[str, int | str], int]:
        c = np.bincount(self.label, minlength=len(self.classes)) if len(self.label) else np.zeros(len(self.classes), int)
        return {cls: int(n) for cls, n in zip(self.classes, c)}

    def add(self, kind: str, face: int | str, feat: Features, plain: np.ndarray | None = None) -> None:
        """Add one template (``feat`` extracted with ``rotated=False``); with its glyph
        vector when ``feat`` has its crop and the embedding network is installed; for a
        gem, ``plain``: its colour as a plain photo measures it (:attr:`gem_plain`)."""
        self._changed()
        self._aligned_emb()
        face = parse_face(kind, face)
        if (kind, face) not in self.classes:
            self.classes.append((kind, face))
        idx = self.classes.index((kind, face))
        ink = feat.ink.reshape(1, -1) if feat.ink.ndim == 1 else feat.ink[:1]
        sil = feat.sil.reshape(1, -1) if feat.sil.ndim == 1 else feat.sil[:1]
        self.ink = np.vstack([self.ink, ink.astype(np.float32)])
        self.sil = np.vstack([self.sil, sil.astype(np.float32)])
        self.colour = np.vstack([self.colour, feat.colour.reshape(1, 3)])
        self.ink_frac = np.append(self.ink_frac, np.float32(feat.ink_frac))
        gem = gem_colour_features(feat) if kind == "gem" else np.zeros(3, np.float32)
        self.gem = np.vstack([self.gem, gem.reshape(1, 3)])
        row = np.asarray(plain, np.float32).reshape(1, 3) if kind == "gem" and plain is not None \
            else np.full((1, 3), np.nan, np.float32)
        self.gem_plain = np.vstack([self.gem_plain, row])
        self.label = np.append(self.label, idx)
        emb = default_embedder() if feat.crop is not None else None
        if emb is not None and feat.crop is not None:
            if self.embed_model != emb.model_id or self.emb.shape[1] != emb.dim:
                # vectors of another network are not comparable: the earlier views keep none
                self.embed_model = emb.model_id
                self.emb = np.full((len(self.label) - 1, emb.dim), np.nan, np.float32)
            vec = emb.embed_crops(feat.crop[None])
            self.emb = np.vstack([self.emb, vec.astype(np.float32)])
            self.emb_colour = np.vstack([self.emb_colour, centre_colour(feat.crop).reshape(1, 3)])
            self.emb_body = np.vstack([self.emb_body, dominant_colour(feat.crop).reshape(1, 3)])
            self.emb_ink = np.vstack([self.emb_ink, ink_views(feat.crop[None], EMBED_FACTOR)])
        else:
            self.emb = np.vstack([self.emb, np.full((1, self.emb.shape[1]), np.nan, np.float32)])
            self.emb_colour = np.vstack([self.emb_colour, np.zeros((1, 3), np.float32)])
            self.emb_body = np.vstack([self.emb_body, np.full((1, 3), np.nan, np.float32)])
            self.emb_ink = np.vstack([self.emb_ink, np.full((1, GLYPH_INK_SIZE ** 2), np.nan, np.float32)])

    def remove(self, kind: str, face: int | str | None = None) -> int:
        """Forget the templates of one face (or of the whole kind); returns how many."""
        keep = np.ones(len(self.label), bool)
        for i, (k, f) in enumerate(self.classes):
            if k == kind and (face is None or f == parse_face(kind, face)):
                keep &= self.label != i
        n = int((~keep).sum())
        self._subset(keep)
        return n

    def _subset(self, keep: np.ndarray) -> None:
        self._changed()
        self._aligned_emb()
        self.emb, self.emb_colour, self.emb_body = self.emb[keep], self.emb_colour[keep], self.emb_body[keep]
        self.emb_ink, self.gem_plain = self.emb_ink[keep], self.gem_plain[keep]
        used = sorted(set(int(v) for v in self.label[keep]))
        remap = {old: new for new, old in enumerate(used)}
        self.classes = [self.classes[i] for i in used]
        self.ink, self.sil, self.colour = self.ink[keep], self.sil[keep], self.colour[keep]
        self.ink_frac, self.gem = self.ink_frac[keep], self.gem[keep]
        self.label = np.array([remap[int(v)] for v in self.label[keep]], np.int64)

    def merged(self, other: "Enrollment") -> "Enrollment":
        """This store plus ``other``'s templates for the kinds this one lacks."""
        out = Enrollment(list(self.classes), self.ink.copy(), self.sil.copy(), self.colour.copy(),
                         self.ink_frac.copy(), self.gem.copy(), self.label.copy(), self.source)
        out.emb, out.emb_colour, out.embed_model = self.emb.copy(), self.emb_colour.copy(), self.embed_model
        out.emb_body, out.emb_ink, out.gem_plain = self.emb_body.copy(), self.emb_ink.copy(), self.gem_plain.copy()
        out._aligned_emb()
        other_emb = other.emb if other.emb.shape[0] == len(other.label) else np.zeros((len(other.label), 0))
        other_body = other.emb_body if other.emb_body.shape[0] == len(other.label) \
            else np.full((len(other.label), 3), np.nan, np.float32)
        other_ink = other.emb_ink if other.emb_ink.shape == (len(other.label), GLYPH_INK_SIZE ** 2) \
            else np.full((len(other.label), GLYPH_INK_SIZE ** 2), np.nan, np.float32)
        other_plain = other.gem_plain if other.gem_plain.shape == (len(other.label), 3) \
            else np.full((len(other.label), 3), np.nan, np.float32)
        same_net = other.embed_model == out.embed_model or not out.embed_model
        if not out.embed_model and other.embed_model:  # this store has no vectors: take the other's network
            out.embed_model = other.embed_model
            out.emb = np.full((len(out.label), other_emb.shape[1]), np.nan, np.float32)
        mine = set(self.kinds())
        for i, (k, f) in enumerate(other.classes):
            if k in mine:
                continue
            rows = np.nonzero(other.label == i)[0]
            if (k, f) not in out.classes:
                out.classes.append((k, f))
            idx = out.classes.index((k, f))
            out.ink = np.vstack([out.ink, other.ink[rows]])
            out.sil = np.vstack([out.sil, other.sil[rows]])
            out.colour = np.vstack([out.colour, other.colour[rows]])
            out.ink_frac = np.concatenate([out.ink_frac, other.ink_frac[rows]])
            out.gem = np.vstack([out.gem, other.gem[rows]])
            out.gem_plain = np.vstack([out.gem_plain, other_plain[rows]])
            out.label = np.concatenate([out.label, np.full(len(rows), idx, np.int64)])
            vec = other_emb[rows] if same_net and other_emb.shape[1] == out.emb.shape[1] \
                else np.full((len(rows), out.emb.shape[1]), np.nan, np.float32)
            out.emb = np.vstack([out.emb, vec.astype(np.float32)])
            out.emb_colour = np.vstack([out.emb_colour, other.emb_colour[rows] if len(other.emb_colour) == len(
                other.label) else np.zeros((len(rows), 3), np.float32)])
            out.emb_body = np.vstack([out.emb_body, other_body[rows]])
            out.emb_ink = np.vstack([out.emb_ink, other_ink[rows]])
        out.players_kinds = tuple(sorted(set(self.own_kinds()) | {k for k in other.own_kinds() if k not in mine}))
        return out

    def gem_samples(self) -> tuple[np.ndarray, list[str]]:
        rows = [i for i in range(len(self.label)) if self.classes[int(self.label[i])][0] == "gem"]
        return self.gem[rows], [str(self.classes[int(self.label[i])][1]) for i in rows]

    def _coloured_gems(self) -> list[tuple[int, str, bool]]:
        """(row, colour, whether it has a plain-photo colour) of every view of a
        coloured gem (not the clear one)."""
        self._aligned_emb()
        return [(i, str(face), bool(np.isfinite(self.gem_plain[i]).all())) for i, lab in enumerate(self.label)
                for kind, face in [self.classes[int(lab)]] if kind == "gem" and face != CLEAR_GEM]

    def gems_without_plain(self) -> list[str]:
        """The coloured gems (not the clear one) with an enrolled view that has no
        plain-photo colour (:attr:`gem_plain`): a store made before it was kept. A plain
        photo reads them by the shipped colours until they are enrolled again."""
        return sorted({colour for _, colour, plain in self._coloured_gems() if not plain})

    def players_gem_colours(self) -> dict[str, np.ndarray]:
        """The players' own gem colours as a plain photo measures them: colour name ->
        K x 3 Lab of its views (:attr:`gem_plain`), for the colours taught from their
        photos (:meth:`own_kinds`) since the plain colour is kept; empty otherwise. Not
        the clear gem (``temps``): its colour is the floor's, which a plain photo's gem
        reader would then read in any round pale thing (the shipped colours have none).
        Memoised: the same dict until the store changes.

        >>> e = Enrollment(classes=[("gem", "hiver")], label=np.zeros(1, np.int64))
        >>> e.gem_plain = np.array([[50.0, 0.0, -40.0]], np.float32)
        >>> {k: v.tolist() for k, v in e.players_gem_colours().items()}
        {'hiver': [[50.0, 0.0, -40.0]]}
        >>> e.source = "synthetic"; e._changed(); e.players_gem_colours()
        {}
        """
        if self._gem_views is None:
            out: dict[str, list[np.ndarray]] = {}
            if "gem" in self.own_kinds():
                for i, colour, plain in self._coloured_gems():
                    if plain:
                        out.setdefault(colour, []).append(self.gem_plain[i])
            self._gem_views = {k: np.asarray(v, np.float32) for k, v in out.items()}
        return self._gem_views

    # -- disk ------------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        path = Path(path)
        if path.suffix != ".npz":
            path = path / ENROLLMENT_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        self._aligned_emb()
        np.savez_compressed(tmp, ink=self.ink.astype(np.float16), sil=self.sil.astype(np.float16),
                            colour=self.colour, ink_frac=self.ink_frac, gem=self.gem, label=self.label,
                            emb=self.emb.astype(np.float16), emb_colour=self.emb_colour.astype(np.float16),
                            emb_body=self.emb_body.astype(np.float16), emb_ink=self.emb_ink.astype(np.float16),
                            gem_plain=self.gem_plain,
                            meta=np.array(json.dumps({"classes": self.classes, "source": self.source,
                                                      "version": DEFAULT_VERSION, "ink_size": INK_SIZE,
                                                      "sil_size": SIL_SIZE, "embed_model": self.embed_model})))
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: Path) -> "Enrollment":
        path = Path(path)
        if path.is_dir():
            path = path / ENROLLMENT_FILE
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                if (meta.get("ink_size") != INK_SIZE or meta.get("sil_size") != SIL_SIZE
                        or meta.get("version") != DEFAULT_VERSION):
                    raise EnrollmentError(f"{path} was made by another version of the reader: enroll again")
                classes = [(str(k), int(f) if isinstance(f, int) else str(f)) for k, f in meta["classes"]]
                out = cls(classes, z["ink"].astype(np.float32), z["sil"].astype(np.float32),
                          z["colour"].astype(np.float32), z["ink_frac"].astype(np.float32),
                          z["gem"].astype(np.float32), z["label"].astype(np.int64), str(meta.get("source", "user")))
                if "emb" in z.files and "emb_colour" in z.files:  # a store made before the embedding has none
                    out.emb = z["emb"].astype(np.float32)
                    out.emb_colour = z["emb_colour"].astype(np.float32)
                    out.embed_model = str(meta.get("embed_model", ""))
                if "emb_body" in z.files:  # else NaN rows (:meth:`_aligned_emb`): no colour gate
                    out.emb_body = z["emb_body"].astype(np.float32)
                if "emb_ink" in z.files:  # else NaN rows: no ink check
                    out.emb_ink = z["emb_ink"].astype(np.float32)
                if "gem_plain" in z.files:  # else NaN rows: the shipped gem colours on a plain photo
                    out.gem_plain = z["gem_plain"].astype(np.float32)
                out._aligned_emb()
                return out
        except FileNotFoundError:
            raise EnrollmentError(f"no enrollment at {path}") from None
        except (KeyError, ValueError, OSError) as exc:
            raise EnrollmentError(f"unreadable enrollment {path}: {exc}") from None


def _cache_dir() -> Path:
    env = os.environ.get("COMPANION_CACHE")
    if env:
        return Path(env)
    import platformdirs  # only when no cache folder is given

    return Path(platformdirs.user_cache_dir("companion"))


def _render_enrollment(views: int = DEFAULT_VIEWS, progress: Progress | None = None,
                       only: Sequence[tuple[str, int | str]] | None = None) -> Enrollment:
    layout = MarkerLayout(tray_mm=(64.0, 64.0))
    spec = SceneSpec(size=(256, 256), markers=False, crop_to_tray=True, reflections=False)
    enr = Enrollment(source="synthetic")
    total = len(only if only is not None else CLASSES) * views
    n = 0
    for ci, (kind, face) in enumerate(CLASSES):
        if only is not None and (kind, face) not in only:
            continue
        for v in range(views):
            seed = 100_000 + ci * 97 + v
            scene = render_tray(seed, objects=[(kind, face)], spec=spec, layout=layout)
            blobs, bg = find_objects(scene.image, scene.background, px_per_mm=4.0)
            if len(blobs) == 1:
                enr.add(kind, face, extract(scene.image, bg, blobs[0], rotated=False))
            n += 1
            if progress:
                progress(n, total, f"{kind}/{face}")
    return enr


PACKAGED = Path(__file__).resolve().parent / "data" / f"enroll-synth-v{DEFAULT_VERSION}.npz"
_DEFAULT: Enrollment | None = None


def default_enrollment(cache_dir: Path | None = None, progress: Progress | None = None,
                       regenerate: bool = False) -> Enrollment:
    """The enrollment rendered from :mod:`vision.synth`.

    Shipped in the package (``vision/data``, 0.66 MB); when missing it is rendered once
    (about 10 s) into the cache folder. ``regenerate`` renders it again.
    """
    global _DEFAULT
    if not regenerate and cache_dir is None and _DEFAULT is not None:
        return _DEFAULT
    folder = Path(cache_dir) if cache_dir else _cache_dir() / "vision"
    path = folder / f"enroll-synth-v{DEFAULT_VERSION}.npz"
    for candidate in ([] if regenerate else [PACKAGED, path]):
        if candidate.exists():
            try:
                _DEFAULT = Enrollment.load(candidate)
                return _DEFAULT
            except EnrollmentError:
                continue
    enr = _render_enrollment(progress=progress)
    try:
        enr.save(path)
    except OSError:  # read-only cache: keep it in memory
        pass
    if cache_dir is None:
        _DEFAULT = enr
    return enr


def iter_classes(store: Enrollment) -> Iterable[tuple[str, int | str, int]]:
    for (k, f), n in store.counts().items():
        yield k, f, n
