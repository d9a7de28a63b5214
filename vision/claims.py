"""Weighing the claims of several readers on the same object (pure functions).

Used by the plain-photo path (:mod:`vision.reader`) and the calibrated tray's d6
(:mod:`vision.tray_learned`): which claims are on the same object (:func:`overlap`), and which
of them stands (:func:`best_claim`).
"""

from __future__ import annotations

import math
from typing import Collection, Sequence

from .result import STATUS_PENDING, STATUS_READ, ObjectRead

__all__ = ["CONTEST", "KIND_SURE", "best_claim", "overlap", "centre_gap"]

#: A pending claim of another kind at this confidence or more contests a read
#: (:func:`best_claim`). Measured (``benchmarks/bench_peripeties_plain.py``, 60 plain
#: rendered trays of d6 and symbol dice): the pip networks read 22 of 299 symbol dice as
#: d6 faces with no contest, 4 at 0.8, 1 at 0.65. The symbol reader claims 36 of the 379
#: held-aside real d6, at 0.71 at most: at 0.65 a Péripéties step reads 359 of them
#: automatically against 360 for a d6 step, with the same one silent error.
CONTEST = 0.65

#: A pending claim whose reader is this sure of the object's *kind*
#: (:attr:`ObjectRead.kind_confidence`), unsure as it may be of the face, contests a read
#: of another kind too. The numeral networks say "a d10, face unknown" of a d10 whose
#: number is blurred or small, where the pip networks, which know six faces and "no
#: die" but never saw a d10, read it as a d6 showing 1 (a dark mark in the middle) at up
#: to 0.99. Chosen on 60 rendered d10 pools the benchmarks never read (seeds 100,500 on),
#: as rendered and under the issue's transforms, against the 1,108 real d6 of the
#: training photos as taken and under the simulated cameras of
#: ``bench_other_cameras.py``, each read in a step expecting d6 and d10: of the d6 reads
#: over a d10 with a numeral claim beside them, 36 of 50 had that claim at 0.97 or more;
#: of the right reads of real d6 with one, 1 of 135 (30 and 0 at 0.98; 45 and 9 at 0.95).
#: A numeral claim at any kind confidence made 6 points of the simulated webcam's real
#: d6 pending (7 December 2026, seventeenth session).
KIND_SURE = 0.97


def best_claim(claims: Sequence[ObjectRead], open_set: Collection[str] = ()) -> ObjectRead:
    """One object from the claims of several classifiers on the same candidate: a read
    beats a pending, then the more confident wins; but two classifiers that both *read*
    it, as different things (a d6 4 and a d10 4, a "lieu" face and a d12 1), make it
    pending: neither is sure enough to overrule the other. So does a reader of another
    kind that finds it close to one of its faces without being sure (pending at
    :data:`CONTEST` or more), or sure of its kind but not of its face (at
    :data:`KIND_SURE` or more): the pip networks read rendered blue "épreuve" dice as
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

    >>> from dataclasses import replace
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
    >>> d10 = ObjectRead("d10", None, (0, 0, 9, 9), 0.3, STATUS_PENDING, ((8, 0.3), (3, 0.2)), kind_confidence=0.99)
    >>> best_claim([ObjectRead("d6", 1, (0, 0, 9, 9), 0.99), d10]).status   # surely a d10, so not a d6 1
    'pending'
    >>> best_claim([d6, replace(d10, kind_confidence=0.9)]) is d6
    True
    >>> unsure = ObjectRead("d6", None, (0, 0, 9, 9), 0.9, STATUS_PENDING, ((1, 0.9),))
    >>> best_claim([unsure, lieu]).status, best_claim([unsure, lieu], open_set={"lieu"}) is lieu
    ('pending', True)
    """
    top = max(claims, key=lambda o: (o.status == STATUS_READ, o.confidence))
    reads = {(o.kind, o.value) for o in claims if o.status == STATUS_READ}
    sure = [o for o in claims if o.status == STATUS_READ and o.kind in open_set]
    if len(sure) == 1 and all(o is sure[0] or o.kind not in open_set for o in claims):
        return sure[0]
    contest = any(o.kind != top.kind and (o.confidence >= CONTEST or (o.kind_confidence or 0.0) >= KIND_SURE)
                  for o in claims if o.status != STATUS_READ)
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
