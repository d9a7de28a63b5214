"""Weighing the claims of several readers on the same object (pure functions).

Used by the plain-photo path (:mod:`vision.reader`) and the calibrated tray's d6
(:mod:`vision.tray_learned`): which claims are on the same object (:func:`overlap`), and which
of them stands (:func:`best_claim`).
"""

from __future__ import annotations

import math
from typing import Collection, Sequence

from .result import STATUS_PENDING, STATUS_READ, ObjectRead

__all__ = ["CONTEST", "best_claim", "overlap", "centre_gap"]

#: A pending claim of another kind at this confidence or more contests a read
#: (:func:`best_claim`). Measured (``benchmarks/bench_peripeties_plain.py``, 60 plain
#: rendered trays of d6 and symbol dice): the pip networks read 22 of 299 symbol dice as
#: d6 faces with no contest, 4 at 0.8, 1 at 0.65. The symbol reader claims 36 of the 379
#: held-aside real d6, at 0.71 at most: at 0.65 a Péripéties step reads 359 of them
#: automatically against 360 for a d6 step, with the same one silent error.
CONTEST = 0.65


def best_claim(claims: Sequence[ObjectRead], open_set: Collection[str] = ()) -> ObjectRead:
    """One object from the claims of several classifiers on the same candidate: a read
    beats a pending, then the more confident wins; but two classifiers that both *read*
    it, as different things (a d6 4 and a d10 4, a "lieu" face and a d12 1), make it
    pending: neither is sure enough to overrule the other. So does a reader of another
    kind that finds it close to one of its faces without being sure (pending at
    :data:`CONTEST` or more): the pip networks read rendered blue "épreuve" dice as
    d6 faces (an "esprit" as a 1 at 0.94) where the symbol reader found them close to
    their own face.

    One exception: a read by a reader of the ``open_set`` kinds (one that compares the
    die with the players' own enrolled faces and refuses what is not close to one of
    them, :class:`vision.symbols.SymbolClassifier`) stands against the claims of readers
    of other kinds, sure or not. The pip networks know six faces and "no die"; they
    never saw a symbol die, so their confidence on one means nothing, above their read
    bar or below it, while a symbol read means "this die looks like that enrolled face,
    within its own views' spread". So the reader does not even ask them about a die
    the symbol reader reads (:meth:`Reader._classify`). Measured
    (``benchmarks/bench_peripeties_plain.py``, 60 plain rendered trays): symbol dice
    read right 50 of 299 without the exception, 98 with it against a read, silently
    wrong 1 either way; the 379 held-aside real d6 in such a step read the same (359
    right, the same one silent error). Against a pending claim too (6 December 2026):
    102 to 105 right, still 1 silently wrong; the real d6 unchanged (356 right, 0 silent).

    >>> d6 = ObjectRead("d6", 4, (0, 0, 9, 9), 0.9)
    >>> best_claim([ObjectRead("d6", 4, (0, 0, 9, 9), 0.5, STATUS_PENDING, ((4, 0.5),)), d6]).status
    'read'
    >>> both = best_claim([d6, ObjectRead("d10", 7, (0, 0, 9, 9), 0.95)])
    >>> both.kind, both.status, both.value, both.candidates
    ('d10', 'pending', None, ((7, 0.95),))
    >>> best_claim([d6, ObjectRead("d6", 4, (1, 1, 8, 8), 0.7)]) is d6
    True
    >>> best_claim([d6, ObjectRead("lieu", None, (0, 0, 9, 9), 0.96, STATUS_PENDING, (("temple", 0.96),))]).status
    'pending'
    >>> best_claim([d6, ObjectRead("lieu", None, (0, 0, 9, 9), 0.6, STATUS_PENDING, (("temple", 0.6),))]) is d6
    True
    >>> lieu = ObjectRead("lieu", "temple", (0, 0, 9, 9), 0.8)
    >>> best_claim([d6, lieu]).status, best_claim([d6, lieu], open_set={"lieu"}) is lieu
    ('pending', True)
    >>> unsure = ObjectRead("d6", None, (0, 0, 9, 9), 0.9, STATUS_PENDING, ((1, 0.9),))
    >>> best_claim([unsure, lieu]).status, best_claim([unsure, lieu], open_set={"lieu"}) is lieu
    ('pending', True)
    """
    top = max(claims, key=lambda o: (o.status == STATUS_READ, o.confidence))
    reads = {(o.kind, o.value) for o in claims if o.status == STATUS_READ}
    sure = [o for o in claims if o.status == STATUS_READ and o.kind in open_set]
    if len(sure) == 1 and all(o is sure[0] or o.kind not in open_set for o in claims):
        return sure[0]
    contest = any(o.kind != top.kind and o.confidence >= CONTEST for o in claims if o.status != STATUS_READ)
    if len(reads) < 2 and not (reads and contest):
        return top
    same = [o for o in claims if o.kind == top.kind and o.status == STATUS_READ]
    ranked = tuple(sorted({(o.value, round(float(o.confidence), 4)) for o in same if o.value is not None},
                          key=lambda vc: -vc[1]))[:3]
    return ObjectRead(top.kind, None, top.box, min(o.confidence for o in claims if o.status == STATUS_READ),
                      STATUS_PENDING, ranked)


def centre_gap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The distance between the centres of two boxes (x, y, w, h)."""
    return math.hypot(a[0] + a[2] / 2 - b[0] - b[2] / 2, a[1] + a[3] / 2 - b[1] - b[3] / 2)


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Boxes whose centres are within half the larger side: the same object (two
    readers' claims on it are weighed together).

    >>> overlap((0, 0, 20, 20), (8, 2, 20, 20)), overlap((0, 0, 20, 20), (12, 0, 20, 20))
    (True, False)
    """
    return centre_gap(a, b) < 0.5 * max(a[2], a[3], b[2], b[3])
