"""Symbol dice on a plain photo: the glyph embedding against the players' enrolled faces.

A plug-in of :class:`vision.reader.Reader` (its ``ObjectClassifier``): each candidate a
detector gives is cut as the other classifiers cut it (a square 1.3 times its side,
48 px), embedded (:class:`vision.embed.Embedder`) and read against the prototypes of the
enrolled faces of the symbol kinds (the three blue péripétie dice ``lieu``,
``adversaire``, ``epreuve``, the yellow ``recompense``, the red ``sentence``, and any
custom die enrolled under those kinds) by the open-set rule of :func:`vision.embed.decide`:

- close to one face's prototype in absolute terms (that face's own spread) and ahead
  of the next face, and its ink where that face's enrolled views have theirs
  (:func:`vision.glyph_ink.read_stands`; the embedding alone read real d6 of one colour
  as a neighbouring face): ``read``;
- otherwise ``pending``, with the leading faces as candidates;
- far from every prototype (or of a body colour no enrolled view has): not claimed
  (``None``): a pip d6, a candy or the tray floor is no symbol die. A candidate of a
  colour no enrolled view has (:func:`vision.embed.usable_mask`) is not even embedded.

It runs *on request* (``on_request``): when the game's step expects one of its
``kinds``. The enrollment is asked for at each call (``enrollment`` may be a callable:
the reader's, which the players may extend while the table runs); its prototypes are
memoised by the store. With no enrolled vector for these kinds (a store made before the
embedding) it claims nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from .detect import Candidate
from .embed import (NONE, READ, SYMBOL_KINDS, EmbedParams, Embedder, centre_colours, decide, default_embedder,
                    dominant_colours, usable_mask)
from .glyph_ink import read_stands
from .result import STATUS_PENDING, STATUS_READ, ObjectRead

if TYPE_CHECKING:  # pragma: no cover
    from .enroll import Enrollment

__all__ = ["SymbolClassifier"]


class SymbolClassifier:
    """Symbol dice read few-shot through the glyph embedding (see the module doc)."""

    kinds: tuple[str, ...] = SYMBOL_KINDS
    on_request = True
    #: Its reads are open-set (close to an enrolled face, else pending or unclaimed): one
    #: stands against a read of another kind (:func:`vision.reader.best_claim`).
    open_set = True

    def __init__(self, enrollment: "Enrollment | Callable[[], Enrollment]",
                 embedder: Embedder | None = None, params: EmbedParams | None = None,
                 sources: Sequence[str] | None = None) -> None:
        self._enrollment = enrollment
        emb = embedder or default_embedder()
        if emb is None:
            from .nets import ModelError

            raise ModelError("vision/models/glyph_embed.onnx or glyph_embed.json missing")
        self.embedder = emb
        self.params = params or emb.params
        #: Claim only candidates of these ``Candidate.source`` (None: every candidate).
        self.sources = None if sources is None else tuple(sources)

    def enrollment(self) -> "Enrollment":
        e = self._enrollment
        return e() if callable(e) else e

    def reading(self, kinds: Sequence[str]) -> "SymbolClassifier":
        """The same reader against the enrolled faces of ``kinds`` instead (the players'
        own numeral dice: :class:`vision.numerals.NumeralClassifier`)."""
        from copy import copy

        view = copy(self)
        view.kinds = tuple(kinds)
        return view

    def may_be_one(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> list[bool]:
        """Whether each candidate's own colour (:func:`vision.embed.dominant_colours`)
        comes within the body gate of a view of some enrolled face of its kinds; True
        where nothing is enrolled or a view's colour is unknown (nothing rules it out)."""
        protos = self.enrollment().glyph_prototypes(self.kinds)
        if not protos or not candidates:
            return [True] * len(candidates)
        crops = self.embedder.crops(frame, [(c.cx, c.cy, c.side) for c in candidates])
        ok = usable_mask(protos, self.params, None, dominant_colours(crops, self.embedder.factor))
        return [bool(row.any()) for row in ok]

    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]] = ()) -> list[ObjectRead | None]:
        """One :class:`ObjectRead` per candidate, or ``None`` when it is no enrolled symbol die.

        ``bodies`` is not used: the colours are taken from the crop itself
        (:func:`vision.embed.centre_colour`, :func:`vision.embed.dominant_colours`), as
        they were for the enrolled views."""
        out: list[ObjectRead | None] = [None] * len(candidates)
        mine = [i for i, c in enumerate(candidates) if self.sources is None or c.source in self.sources]
        if not mine:
            return out
        protos = self.enrollment().glyph_prototypes(self.kinds)
        if not protos:
            return out
        factor = self.embedder.factor
        crops = self.embedder.crops(frame, [(candidates[i].cx, candidates[i].cy, candidates[i].side) for i in mine])
        ok = usable_mask(protos, self.params, centre_colours(crops, factor), dominant_colours(crops, factor))
        near = [j for j in range(len(crops)) if ok[j].any()]
        vectors = self.embedder.embed_crops(crops[near])  # the others are no enrolled symbol die
        for j, v in zip(near, vectors):
            usable = [p for p, keep in zip(protos, ok[j]) if keep]
            m = decide(v, usable, self.params)  # colours gated above
            i = mine[j]
            if m.status == NONE or m.kind is None:
                continue
            box = candidates[i].box
            if m.status == READ and m.face is not None and read_stands(
                    crops[j], usable, m, self.params.ink_floor, self.params.ink_margin, factor):
                out[i] = ObjectRead(m.kind, m.face, box, m.confidence, STATUS_READ)
            else:
                cands = tuple((f, s) for k, f, s in m.candidates if k == m.kind)
                out[i] = ObjectRead(m.kind, None, box, m.confidence, STATUS_PENDING, cands)
        return out
