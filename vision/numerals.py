"""Read numeral dice with small networks trained on rendered numerals.

Two networks, each run by ``cv2.dnn`` on the crop the reader cuts around a candidate (the
same cut as the pip reader's, :func:`vision.pips.crop`: a square 1.3 times the die's
side, 48 x 48):

* ``numerals_d10.onnx`` (``numerals.json``): the d10. 11 probabilities: the digit on the
  top face, 0..9 (0 is the d10's 10; a die printing "10" reads the same), and "other /
  not a numeral";
* ``numerals_poly.onnx`` (``numerals_poly.json``): the other numeral dice, d4, d8, d12,
  d20 (and a d6 printed with numerals, when asked for: the pip d6 is
  :mod:`vision.pips`'s). 21 probabilities: the number 1..20 and "other".

They learnt from rendered faces only (:mod:`vision.train.numeral_faces`: many fonts,
colours, materials, rotations, 6 and 9 underlined, blur, noise, JPEG) and from real
crops of things that are no numeral (pip dice, candies, tray floor).

Open-set honesty (thresholds in each ``.json``, tuned on a validation set the network did
not learn from, :mod:`vision.train.train_numerals`):

- "other" at least ``other``: the candidate is not claimed (``None``: not a numeral die);
- the best number is ``read`` only if its probability is at least ``confidence`` (clear
  in absolute terms) AND beats the second by ``margin`` (far from the next); else
  ``pending`` with its best candidates, for the players to confirm;
- the die's kind is the step's: a number is read when exactly one of the kinds the step
  expects shows it (:meth:`NumeralClassifier.for_kinds`). A number none of them shows
  (a 17 when the step expects d12: another die) is not claimed; one that several show
  (a 7 when the step expects d10 and d12) is pending: the network reads the number, not
  the die's shape.

No real photo of a numeral die exists in the shared data: the figures are on held-out
renders in fonts of another family than the training ones (``docs/vision/numerals.md``). The
players' enrollment (:mod:`vision.faces`) stays the reader of numeral dice on a
calibrated tray; the networks are a second opinion there (:func:`combine_numeral`: they
can only stop a guess) and the readers of the candidates a detector gives on a plain
photo. There the players' own enrolled dice decide between the numbers the networks
hesitate over (:func:`players_pick`) and can stop their reads (:func:`combine_numeral`).
They run on request only (``on_request``): when the step expects their kinds.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .catalog import NUMERAL_FACES, numeral_kinds_of
from .detect import Candidate
from .errors import VisionError
from .nets import MODELS_DIR, load_net, load_settings
from .result import STATUS_PENDING, STATUS_READ, ObjectRead

if TYPE_CHECKING:  # pragma: no cover
    from .symbols import SymbolClassifier

__all__ = ["NumeralClassifier", "PolyNumerals", "decide_all", "combine_numeral", "players_pick", "available",
           "poly_available", "OTHER", "DEFAULT_KINDS"]

OTHER = 10
#: A die the networks leave pending is read when the players' own enrolled faces lean
#: to the networks' best number, that number at this or more (:func:`players_pick`)
PLAYERS_FLOOR = 0.6
#: ... and the players' best face at least this far (cosine similarity) over their next
PLAYERS_MARGIN = 0.05
SETTINGS = "numerals.json"
POLY_SETTINGS = "numerals_poly.json"
#: The kinds the table's reader asks the numeral networks for by default: every numeral
#: die but the d6, whose reader is the pip networks' (a numeral d6 is read when a
#: :class:`NumeralClassifier` is made with ``kinds`` holding ``"d6"``).
DEFAULT_KINDS = ("d4", "d8", "d10", "d12", "d20")


def available(models: Path = MODELS_DIR) -> bool:
    """True when the d10 network and its settings are installed."""
    return (models / SETTINGS).is_file() and (models / "numerals_d10.onnx").is_file()


def poly_available(models: Path = MODELS_DIR) -> bool:
    """True when the network of the other numeral dice and its settings are installed."""
    return (models / POLY_SETTINGS).is_file() and (models / "numerals_poly.onnx").is_file()


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True), np.float64)


def _looked_again(run: Any, crops: np.ndarray, p: np.ndarray, other: int, other_at: float,
                  below: float | None) -> np.ndarray:
    """``p`` (N x classes, "other" last at index ``other``) with each crop whose best
    number is under ``below``, and not already "other" at ``other_at``, classified again
    by ``run`` in its three other quarter turns and the four answers averaged: a die's
    number reads the same turned (a numeral die lands at any angle, and the networks
    learnt every angle), so turns that disagree lower the confidence and turns that agree
    raise it. ``below`` None: no second look.

    >>> run = lambda c: np.tile([[0.98, 0.01, 0.01]], (len(c), 1))  # every turn says "0" at 0.98
    >>> p = np.array([[0.90, 0.05, 0.05], [0.10, 0.10, 0.80], [0.99, 0.0, 0.01]])
    >>> _looked_again(run, np.zeros((3, 4, 4, 3), np.uint8), p, 2, 0.3, 0.97).round(3).tolist()
    [[0.96, 0.02, 0.02], [0.1, 0.1, 0.8], [0.99, 0.0, 0.01]]
    """
    if below is None or not len(p):
        return p
    unsure = np.nonzero((p[:, :other].max(axis=1) < below) & (p[:, other] < other_at))[0]
    if not len(unsure):
        return p
    again = crops[unsure]
    q = sum(np.asarray(run(np.ascontiguousarray(np.rot90(again, k, axes=(1, 2))))) for k in (1, 2, 3))
    out = np.array(p, copy=True)
    out[unsure] = (out[unsure] + q) / 4
    return out


def _thresholds(cfg: dict[str, Any]) -> dict[str, float]:
    thr = cfg.get("thresholds", {})
    return {"other": float(thr.get("other", 0.5)), "confidence": float(thr.get("confidence", 0.95)),
            "margin": float(thr.get("margin", 0.5))}


class PolyNumerals:
    """The network of the d4, d6, d8, d12 and d20 (numbers 1..20 and "other")."""

    def __init__(self, settings: dict[str, Any] | None = None, models: Path = MODELS_DIR) -> None:
        cfg = settings if settings is not None else load_settings(models / POLY_SETTINGS)
        self.classes: list[int | None] = list(cfg.get("classes", [*range(1, 21), None]))
        if len(self.classes) < 2 or self.classes[-1] is not None:
            raise VisionError(f"{POLY_SETTINGS}: the last class must be null (other), got {self.classes[-1:]}")
        self.other = len(self.classes) - 1
        self.kinds = tuple(str(k) for k in cfg.get("kinds", ("d4", "d6", "d8", "d12", "d20")))
        self.net = load_net(models / str(cfg.get("model", "numerals_poly.onnx")))
        self.thresholds = _thresholds(cfg)

    def probabilities_of_crops(self, crops: np.ndarray) -> np.ndarray:
        """N x 21 probabilities of N x 48 x 48 x 3 uint8 BGR crops."""
        from .pips import to_blob

        if not len(crops):
            return np.zeros((0, self.other + 1))
        return _softmax(self.net(to_blob(crops)).astype(np.float64))

    def decide(self, p: np.ndarray) -> tuple[str, list[tuple[int, float]]] | None:
        """``None`` (other), or (``read`` | ``pending``, the numbers best first with their
        probability: one when read, up to three when pending)."""
        if not np.isfinite(p).all() or float(p[self.other]) >= self.thresholds["other"]:
            return None
        numbers = p[:self.other]
        order = np.argsort(-numbers)
        conf = float(numbers[order[0]])
        ok = conf >= self.thresholds["confidence"] and conf - float(numbers[order[1]]) >= self.thresholds["margin"]
        ranked = [(int(v), round(float(numbers[k]), 4)) for k in order[:3]
                  if (v := self.classes[int(k)]) is not None and (k == order[0] or numbers[k] >= 0.01)]
        return (STATUS_READ, ranked[:1]) if ok else (STATUS_PENDING, ranked)


def decide_all(p: np.ndarray, thr: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """For N x (K + 1) probabilities (K numbers, then "other"): (read: bool N, best number
    class 0..K-1: int N), by the rule of :meth:`NumeralClassifier.decide` (vectorised, for
    tuning)."""
    other = p.shape[1] - 1
    digits = p[:, :other]
    order = np.argsort(-digits, axis=1)
    best = order[:, 0]
    top = digits[np.arange(len(p)), best]
    second = digits[np.arange(len(p)), order[:, 1]]
    read = (p[:, other] < thr["other"]) & (top >= thr["confidence"]) & (top - second >= thr["margin"])
    return read, best


class NumeralClassifier:
    """Numeral dice from rendered-numeral training; a plug-in of :class:`vision.reader.Reader`
    (``kinds``: the d10, and the d4, d8, d12, d20 when ``numerals_poly.onnx`` is installed;
    it runs when a step expects one of them, and reads for the kinds the step expects:
    :meth:`for_kinds`).

    ``poly``: the other dice's network (default: the installed one, if any; ``False``:
    none, the d10 only). ``kinds``: the kinds it reads (default :data:`DEFAULT_KINDS`, as
    far as the networks read them). ``players``: the glyph reader of the enrolled faces
    (the reader's :class:`vision.symbols.SymbolClassifier`), asked about every die of a
    kind the players taught from their own dice (:meth:`_with_players`); None: the
    networks alone."""

    #: The reader's calibrated-tray path finds its numeral plug-in by this.
    kind = "d10"
    on_request = True

    def __init__(self, settings: dict[str, Any] | None = None, models: Path = MODELS_DIR,
                 sources: Sequence[str] | None = None, poly: "PolyNumerals | bool | None" = None,
                 kinds: Sequence[str] | None = None, players: "SymbolClassifier | None" = None) -> None:
        self.players = players
        #: The bars of :func:`players_pick` (tuned: ``eval_d10_detector --tune-players``).
        self.players_floor = PLAYERS_FLOOR
        self.players_margin = PLAYERS_MARGIN
        cfg = settings if settings is not None else load_settings(models / SETTINGS)
        self.classes: list[int | None] = list(cfg.get("classes", [10, 1, 2, 3, 4, 5, 6, 7, 8, 9, None]))
        if len(self.classes) != OTHER + 1:
            raise VisionError(f"{SETTINGS}: expected 11 classes, got {len(self.classes)}")
        self.net = load_net(models / str(cfg.get("model", "numerals_d10.onnx")))
        self.size = int(cfg.get("crop", 48))
        self.factor = float(cfg.get("crop_factor", 1.3))
        self.thresholds = _thresholds(cfg)
        #: A crop whose best digit is under this is looked at again in its other quarter
        #: turns (:func:`_looked_again`; ``tta_below`` in ``numerals.json``, None: never).
        below = cfg.get("tta_below")
        self.tta_below: float | None = None if below is None else float(below)
        #: Claim only candidates of these ``Candidate.source`` (None: every candidate).
        self.sources = None if sources is None else tuple(sources)
        if poly is None:
            poly = poly_available(models)
        self.poly: PolyNumerals | None = PolyNumerals(models=models) if poly is True else (poly or None)
        readable = {"d10"} | set(self.poly.kinds if self.poly is not None else ())
        wanted = DEFAULT_KINDS if kinds is None else tuple(kinds)
        unknown = [k for k in wanted if k not in NUMERAL_FACES]
        if unknown:
            raise VisionError(f"no numeral die kind {', '.join(unknown)}; expected some of {', '.join(NUMERAL_FACES)}")
        #: The kinds it reads (the reader runs it when a step expects one of them).
        self.kinds: tuple[str, ...] = tuple(k for k in NUMERAL_FACES if k in wanted and k in readable)
        #: The kinds the step expects (:meth:`for_kinds`); all of :attr:`kinds` when not told.
        self.expected: tuple[str, ...] = self.kinds

    def beside(self, boxes: Sequence[tuple[int, int, int, int]]) -> "NumeralClassifier":
        """The same networks on the d6 path of a step expecting d6 and d10, beside the
        numeral path (which claimed the dice at ``boxes``): there a numeral claim only
        contests a d6 read, so the d10 network looks once (its second look,
        :attr:`tta_below`, made such a step 70-77 ms instead of 62-65 for 0.8 points,
        7 December 2026)."""
        from copy import copy

        view = copy(self)
        view.tta_below = None
        return view

    def for_kinds(self, kinds: "Sequence[str] | set[str] | frozenset[str]") -> "NumeralClassifier":
        """The same networks, reading for a step that expects ``kinds`` (those of them it
        reads): the kind of a die is the one of these that shows the number read."""
        from copy import copy

        view = copy(self)
        view.expected = tuple(k for k in self.kinds if k in kinds)
        return view

    def probabilities_of_crops(self, crops: np.ndarray) -> np.ndarray:
        """N x 11 probabilities of N x 48 x 48 x 3 uint8 BGR crops; a crop the network is
        unsure of (best digit under :attr:`tta_below`) is looked at again in its three
        other quarter turns (:func:`_looked_again`)."""
        from .pips import to_blob

        if not len(crops):
            return np.zeros((0, OTHER + 1))

        def run(c: np.ndarray) -> np.ndarray:
            return _softmax(self.net(to_blob(c)).astype(np.float64))

        return _looked_again(run, crops, run(crops), OTHER, self.thresholds["other"], self.tta_below)

    def crops(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
        from .pips import crop

        if not candidates:
            return np.zeros((0, self.size, self.size, 3), np.uint8)
        return np.stack([crop(frame, c.cx, c.cy, c.side, self.size, self.factor) for c in candidates])

    def probabilities(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> np.ndarray:
        """N x 11 probabilities of the d10 network for ``candidates``."""
        return self.probabilities_of_crops(self.crops(frame, candidates))

    def kind_claims(self, frame: np.ndarray, candidates: Sequence[Candidate]) -> list[ObjectRead]:
        """The d10 network's word on each candidate's kind alone: a pending d10 claim with
        no face (confidence 0) whose :attr:`ObjectRead.kind_confidence` is 1 - its
        "other" probability, for :func:`vision.claims.best_claim` to weigh against
        another reader's read (:meth:`vision.reader.Reader._no_d10_as_d6`)."""
        p = self.probabilities(frame, candidates)
        return [ObjectRead(self.kind, None, c.box, 0.0, STATUS_PENDING, kind_confidence=1.0 - float(q[OTHER]))
                for c, q in zip(candidates, p)]

    def classify(self, frame: np.ndarray, candidates: Sequence[Candidate],
                 bodies: Sequence[tuple[float, float, float]] = ()) -> list[ObjectRead | None]:
        """One :class:`ObjectRead` per candidate, or ``None`` when it is no numeral die
        of the kinds expected."""
        mine = [i for i, c in enumerate(candidates) if self.sources is None or c.source in self.sources]
        out = self.classify_crops(self.crops(frame, [candidates[i] for i in mine]),
                                  [candidates[i].box for i in mine], len(candidates), mine)
        return self._with_players(frame, candidates, out)

    def _with_players(self, frame: np.ndarray, candidates: Sequence[Candidate],
                      reads: list[ObjectRead | None]) -> list[ObjectRead | None]:
        """``reads`` weighed against the players' own dice, for the kinds they taught
        from their photos (:meth:`vision.enroll.Enrollment.own_kinds`): a pending die is
        read when their enrolled faces lean to the networks' best number
        (:func:`players_pick`); a read die is pending when their faces read another
        number (:func:`combine_numeral`: two readers that disagree never make a read).
        The networks learnt rendered dice; the players' views, the look of the dice on
        this table."""
        if self.players is None:
            return reads
        taught = [k for k in self.expected if k in self.players.enrollment().own_kinds()]
        ask = [i for i, o in enumerate(reads) if o is not None and o.kind in taught]
        if not ask:
            return reads
        out = list(reads)
        theirs = self.players.reading(taught).classify(frame, [candidates[i] for i in ask])
        for i, claim in zip(ask, theirs):
            read = out[i]
            if read is not None and read.status == STATUS_READ:
                out[i] = combine_numeral(read, claim)
            elif read is not None:
                out[i] = players_pick(read, claim, self.players_floor, self.players_margin)
        return out

    def classify_crops(self, crops: np.ndarray, boxes: Sequence[tuple[int, int, int, int]],
                       n: int | None = None, where: Sequence[int] | None = None) -> list[ObjectRead | None]:
        """The reads of ``crops`` (48 x 48 BGR, the reader's cut), at ``where`` of ``n``."""
        where = list(range(len(crops))) if where is None else list(where)
        out: list[ObjectRead | None] = [None] * (len(crops) if n is None else n)
        if not len(crops) or not self.expected:
            return out
        d10 = [self.decide(b, p) for b, p in zip(boxes, self.probabilities_of_crops(crops))] \
            if "d10" in self.expected else [None] * len(crops)
        others = [k for k in self.expected if k != "d10"]
        poly: list[tuple[str, list[tuple[int, float]], float] | None] = [None] * len(crops)
        if others and self.poly is not None:
            other = self.poly.other
            poly = [None if (d := self.poly.decide(p)) is None else (*d, 1.0 - float(p[other]))
                    for p in self.poly.probabilities_of_crops(crops)]
        for i, box, a, b in zip(where, boxes, d10, poly):
            out[i] = self._merge(box, a, b)
        return out

    def _merge(self, box: tuple[int, int, int, int], d10: ObjectRead | None,
               poly: tuple[str, list[tuple[int, float]], float] | None) -> ObjectRead | None:
        """One read from the d10 network's and the other network's (the latter's
        decision with 1 - its "other" probability; see the module docstring). Its kind
        confidence is the surer network's that the die is a numeral die at all."""
        if self.expected == ("d10",):
            return d10  # the d10 alone: its network's read as it is
        ranked: dict[int, float] = {}
        reads: set[int] = set()
        sure = max((d10.kind_confidence or 0.0) if d10 is not None else 0.0, poly[2] if poly is not None else 0.0)
        if d10 is not None:
            for v, c in (d10.candidates or ((d10.value, d10.confidence),)):
                if isinstance(v, int):
                    ranked[v] = max(ranked.get(v, 0.0), float(c))
            if d10.status == STATUS_READ and isinstance(d10.value, int):
                reads.add(d10.value)
        if poly is not None:
            status, numbers, _ = poly
            for v, c in numbers:
                ranked[v] = max(ranked.get(v, 0.0), c)
            if status == STATUS_READ:
                reads.add(numbers[0][0])
        if d10 is None and poly is None:
            return None
        # the kinds expected that can show each number (the d10 network reads for d10 only)
        def kinds_of(v: int) -> list[str]:
            return numeral_kinds_of(v, self.expected)

        best = sorted(ranked.items(), key=lambda kv: -kv[1])
        if len(reads) == 1:
            v = next(iter(reads))
            kinds = kinds_of(v)
            if not kinds:
                return None  # a number no expected die shows: another die
            if len(kinds) == 1:
                return ObjectRead(kinds[0], v, box, ranked[v], STATUS_READ, kind_confidence=sure)
        cands = tuple((v, c) for v, c in best if kinds_of(v))[:3]
        if not cands:
            return None
        kind = kinds_of(cands[0][0])[0]
        return ObjectRead(kind, None, box, cands[0][1], STATUS_PENDING, cands, kind_confidence=sure)

    def decide(self, box: tuple[int, int, int, int], p: np.ndarray) -> ObjectRead | None:
        """The read of one crop's probabilities (see the module docstring)."""
        if not np.isfinite(p).all() or float(p[OTHER]) >= self.thresholds["other"]:
            return None
        digits = p[:OTHER]
        order = np.argsort(-digits)
        conf = float(digits[order[0]])
        ok = conf >= self.thresholds["confidence"] and conf - float(digits[order[1]]) >= self.thresholds["margin"]
        value = self.classes[int(order[0])]
        sure = 1.0 - float(p[OTHER])  # a d10, whichever face: weighed against other kinds' reads
        if ok:
            return ObjectRead(self.kind, value, box, conf, STATUS_READ, kind_confidence=sure)
        cands = tuple((v, round(float(digits[k]), 4)) for k in order[:3]
                      if digits[k] >= 0.01 and (v := self.classes[int(k)]) is not None)
        return ObjectRead(self.kind, None, box, conf, STATUS_PENDING, cands, kind_confidence=sure)


def players_pick(net: ObjectRead, players: ObjectRead | None, floor: float = PLAYERS_FLOOR,
                 margin: float = PLAYERS_MARGIN) -> ObjectRead:
    """The read of a die the networks left pending (``net``, with the numbers they
    hesitated between as candidates, best first), given what the players' own enrolled
    faces say of it (``players``: :class:`vision.symbols.SymbolClassifier` against the
    enrolled views of the kind, its candidates ``(face, similarity)``). The die is read
    when both lean to the same number: the networks' best number, at ``floor`` or more,
    is the players' faces' read, or their best face by at least ``margin`` (cosine
    similarity) over the next. Anything else leaves the networks' pending read as it was.
    Two learners that never saw each other's data (rendered dice; the players' photos
    of their own) agreeing is the evidence; one of them alone is not.

    The bars are tuned on rendered trays of their own (``python -m
    vision.train.eval_d10_detector --tune-players``; white d10, and black d10 with white
    numbers, each enrolled as ``companion vision enroll`` enrolls photos): the lowest
    network floor that reads no die wrong there with no margin, and the lowest margin
    with no floor, each one step up (0.55 -> 0.6; 0.05, the last tried). A looser rule
    (the players' read among any of the networks' candidates) read a 3 as a 5 the
    network put at 0.02.

    Measured on held-out rendered trays (``bench_d10_plain.py --players``), 497 d10:
    white d10 taught from the players' photos, 400 -> 432 read right automatically;
    black d10 with white numbers, which the network reads worse, 208 -> 262; none read
    wrong, no detection added (7 December 2026).

    >>> net = ObjectRead("d10", None, (0, 0, 9, 9), 0.7, "pending", ((9, 0.7), (6, 0.2)))
    >>> players_pick(net, ObjectRead("d10", 9, (0, 0, 9, 9), 0.96)).value
    9
    >>> players_pick(net, ObjectRead("d10", None, (0, 0, 9, 9), 0.4, "pending", ((9, 0.93), (6, 0.87)))).value
    9
    >>> players_pick(net, ObjectRead("d10", None, (0, 0, 9, 9), 0.4, "pending", ((9, 0.93), (6, 0.9)))) == net
    True
    >>> players_pick(net, ObjectRead("d10", 6, (0, 0, 9, 9), 0.96)) == net  # not the networks' best
    True
    >>> unsure = ObjectRead("d10", None, (0, 0, 9, 9), 0.5, "pending", ((9, 0.5), (6, 0.4)))
    >>> players_pick(unsure, ObjectRead("d10", 9, (0, 0, 9, 9), 0.96)) == unsure
    True
    >>> players_pick(net, None) == net
    True
    """
    if players is None or players.kind != net.kind or not net.candidates:
        return net
    best, p = net.candidates[0]
    if p < floor:
        return net
    if players.status == STATUS_READ:
        agree = players.value == best
    else:
        sims = [s for _, s in players.candidates] + [0.0]
        agree = bool(players.candidates) and players.candidates[0][0] == best and sims[0] - sims[1] >= margin
    return replace(net, value=best, confidence=p, status=STATUS_READ, candidates=()) if agree else net


def combine_numeral(lead: ObjectRead, check: ObjectRead | None) -> ObjectRead:
    """The read of a numeral die from the reader that leads (``lead``) and a second
    opinion on the same crop (``check``) that can only stop a guess: when ``check``
    *reads* another number, the die is pending with both numbers as candidates;
    otherwise ``lead`` stands (``check`` unsure, or seeing no numeral, says nothing).

    On a calibrated tray the players' enrolled faces lead and the network checks (asked
    for the enrolled kind only: :meth:`NumeralClassifier.for_kinds`): the enrollment
    learnt the players' own dice, the network rendered ones. On a plain photo the network
    leads and the players' views check the dice it reads
    (:meth:`NumeralClassifier._with_players`).

    >>> a = ObjectRead("d10", 7, (0, 0, 9, 9), 0.9)
    >>> combine_numeral(a, ObjectRead("d10", 7, (0, 0, 9, 9), 0.97)).status
    'read'
    >>> b = combine_numeral(a, ObjectRead("d10", 1, (0, 0, 9, 9), 0.97))
    >>> b.status, b.value, [v for v, _ in b.candidates]
    ('pending', None, [1, 7])
    >>> combine_numeral(a, None) == a
    True
    """
    if check is None or check.status != STATUS_READ or lead.value is None or check.value == lead.value:
        return lead
    cands: dict[int | str, float] = {}
    for o in (check, lead):
        for v, c in (o.candidates or ((o.value, o.confidence),)):
            if v is not None:
                cands[v] = max(cands.get(v, 0.0), float(c))
    ranked = tuple(sorted(cands.items(), key=lambda kv: -kv[1])[:3])
    return replace(lead, value=None, confidence=min(lead.confidence, check.confidence), status=STATUS_PENDING,
                   candidates=ranked)
