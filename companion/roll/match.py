"""Match a camera read against what the current game step expects.

:func:`match_read` is pure: ``(game, state_json, objects, previous) -> Match``. It says
which event the read becomes (``type`` and ``data``), which objects it used, and whether
the read can go to the rules at once (``ready``) or must wait for the players
(``pending``: a die read with low confidence, a die count that does not fit the step, a
die the step does not expect). It never guesses: a die whose face is unknown keeps the
read pending until a player taps it on the photo and picks the face.

What each game's step expects (``state_json()["expects"]``) and the event a read becomes:

=============  ==============================================  =========================
game           step                                            event
=============  ==============================================  =========================
peripeties     ``event == "peripeties.dice"`` (episode, trial,  ``peripeties.dice``
               taels, prison, re-rolls)                         ``{"dice": [{kind, value,
                                                                box, confidence}]}``
wuxia          ``roll``, ``reroll_dice``, ``extra_dice``        ``wuxia.roll {"dice"}``
shayo          ``roll``, ``reroll_dice`` (a declared re-roll    ``shayo.roll {"dice"}`` /
               signature)                                       ``shayo.signature
                                                                {"signature", "dice",
                                                                "values"}``
espri          ``draw`` / ``setup_draw``                        ``espri.draw {"gems"}`` /
                                                                ``espri.setup_draw``
=============  ==============================================  =========================

Decisions:

- Péripéties: every die of a kind the step expects *or has already entered* is sent (the
  rules take a read of the whole tray: dice already entered with the same face are
  harmless, a re-rolled reward/sentence die is the re-roll). Other objects (gems, a die
  kind the step has no use for) are marked ``unexpected`` and left out; they do not block.
- Pools (Wuxia, Shayo): the number of d10 read must be the number the step waits for.
  For a re-roll (Wuxia's chosen dice or extra dice, a Shayo re-roll signature), the
  players may roll only the new dice in the tray *or* leave the kept dice where they lie:
  when the read holds the whole pool, the dice that did not move and show the same face
  as in the previous read are the kept ones, and the others are the new dice (matched to
  the re-rolled positions by distance). A read records where it saw each kept die, so
  the next re-roll of the same test can leave them in place again. When the whole pool
  is seen but a kept die moved, the read is pending and says so.
- ESPRI: the number of gems must be the number the step draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

__all__ = ["Match", "match_read", "correction_event", "expected_kinds", "CAMERA_EVENTS", "text2"]

#: The event each game's dice read becomes (for the benchmark, tests and the demo).
CAMERA_EVENTS = {"peripeties": "peripeties.dice", "wuxia": "wuxia.roll", "shayo": "shayo.roll",
                 "espri": "espri.draw"}

Obj = dict[str, Any]


def text2(fr: str, en: str) -> dict[str, str]:
    return {"fr": fr, "en": en}


def expected_kinds(state: Mapping[str, Any] | None) -> frozenset[str] | None:
    """The object kinds the current step expects (``expects["dice"]`` kinds, ``gem`` when
    it draws gems), for the reader to look for; None when the step says nothing (read
    everything the reader knows).

    >>> sorted(expected_kinds({"expects": {"dice": [{"kind": "d10", "count": 5}]}}))
    ['d10']
    >>> sorted(expected_kinds({"expects": {"gems": 3}}))
    ['gem']
    >>> expected_kinds({}) is None
    True
    """
    expects = (state or {}).get("expects") or {}
    if not isinstance(expects, Mapping):
        return None
    kinds = {str(d.get("kind")) for d in expects.get("dice") or [] if isinstance(d, Mapping) and d.get("kind")}
    if expects.get("gems"):
        kinds.add("gem")
    return frozenset(kinds) or None


@dataclass
class Match:
    """What a read becomes. ``status``: ``ready``, ``pending`` or ``idle`` (the step
    expects no dice: the read is only shown)."""

    status: str
    type: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    used: list[int] = field(default_factory=list)  # indices of the objects sent
    unexpected: list[int] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)  # pool positions of the used objects
    message: dict[str, str] = field(default_factory=dict)
    kept: list[int] = field(default_factory=list)  # a re-roll read: the kept dice seen in place (not sent)
    kept_positions: list[int] = field(default_factory=list)  # and their pool positions


def _center(o: Obj) -> tuple[float, float]:
    x, y, w, h = o.get("box") or (0, 0, 0, 0)
    return x + w / 2, y + h / 2


def _pending(o: Obj) -> bool:
    return o.get("value") is None or o.get("status") == "pending"


def _die_json(o: Obj) -> Obj:
    out: Obj = {"kind": o["kind"], "value": o["value"]}
    if o.get("box") is not None:
        out["box"] = [int(v) for v in o["box"]]
    if o.get("confidence") is not None:
        out["confidence"] = float(o["confidence"])
    return out


def match_read(game: str | None, state: Mapping[str, Any] | None, objects: Sequence[Obj],
               previous: Mapping[str, Any] | None = None) -> Match:
    """See the module docstring. ``state`` is the game's ``state_json``; ``previous`` the
    last read record applied at this table (for re-rolls that leave kept dice in place)."""
    expects = (state or {}).get("expects") or {}
    fn = _GAMES.get(game or "")
    if fn is None:
        return Match("idle", message=text2("Ce jeu ne lit pas les dés à la caméra.", "This game does not read dice by camera."))
    return fn(expects, state or {}, list(objects), previous or {})


def _idle(expects: Mapping[str, Any]) -> Match:
    return Match("idle", message=text2("Le jeu n'attend pas de dés maintenant : lecture affichée seulement.",
                                       "The game expects no dice now: the read is only shown."))


def _finish(m: Match, objects: Sequence[Obj]) -> Match:
    if any(_pending(objects[i]) for i in m.used):
        m.status = "pending"
        if not m.message:
            m.message = text2("Touchez les dés incertains sur la photo pour choisir leur face.",
                              "Tap the uncertain dice on the photo to pick their face.")
    return m


# -- Péripéties ------------------------------------------------------------------------
def _peripeties(expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj], prev: Mapping[str, Any]) -> Match:
    if expects.get("event") != "peripeties.dice" or not expects.get("dice"):
        return _idle(expects)
    kinds = {d.get("kind") for d in expects.get("dice", [])}
    have = expects.get("have") or {}
    for role in ("lieu", "adversaire", "epreuve", "recompense", "sentence"):
        if role in have:
            kinds.add(role)
    if "difficulty" in have:
        kinds.update({"d10", "d6"})
    m = Match("ready", "peripeties.dice")
    for i, o in enumerate(objects):
        (m.used if o.get("kind") in kinds else m.unexpected).append(i)
    if not m.used:
        m.status = "pending"
        m.message = text2("Aucun des dés attendus n'a été vu : relancez ou saisissez-les.",
                          "None of the expected dice was seen: roll again or enter them.")
        return m
    m.data = {"dice": [_die_json(objects[i]) for i in m.used if not _pending(objects[i])]}
    return _finish(m, objects)


# -- pools of d10 -----------------------------------------------------------------------
def _count_msg(want: int, got: int, what: tuple[str, str]) -> dict[str, str]:
    return text2(f"{want} {what[0]} attendu(s), {got} lu(s) : touchez la photo pour corriger, ou saisissez-les.",
                 f"{want} {what[1]} expected, {got} read: tap the photo to correct, or enter them.")


def _pool(objects: list[Obj], kind: str) -> tuple[list[int], list[int]]:
    used = [i for i, o in enumerate(objects) if o.get("kind") == kind]
    other = [i for i, o in enumerate(objects) if o.get("kind") != kind]
    return used, other


def _layout(prev: Mapping[str, Any]) -> dict[int, Obj]:
    """Where the previous read saw each pool position: the dice it sent and the kept dice
    it recognised in place."""
    objs = prev.get("objects") or []
    pairs = [*zip(prev.get("positions") or [], prev.get("used") or []),
             *zip(prev.get("kept_positions") or [], prev.get("kept") or [])]
    return {int(p): objs[i] for p, i in pairs if 0 <= i < len(objs)}


Found = tuple[list[int], list[int], list[int], list[int]]


def _kept_in_place(objects: list[Obj], used: list[int], prev: Mapping[str, Any], faces: Sequence[int],
                   moved: Sequence[int], fresh: Sequence[int]) -> Found | None:
    """A re-roll read that shows the whole pool: ``faces`` is the pool before the re-roll,
    the dice at ``moved`` were rolled again and the new faces go to the positions
    ``fresh`` (``moved`` itself, or new positions for dice added to the pool). Returns the
    read objects that are the new dice and their positions, then the kept dice and
    theirs; None when it cannot be told."""
    kept_pos = [p for p in range(len(faces)) if p not in moved]
    if len(used) != len(kept_pos) + len(fresh):
        return None
    by_pos = _layout(prev)
    free = list(used)
    kept = []
    for p in kept_pos:
        o = by_pos.get(p)
        if o is None:
            return None
        cx, cy = _center(o)
        r = max(8.0, 0.5 * max((o.get("box") or [0, 0, 16, 16])[2:]))
        best = None
        for i in free:
            nx, ny = _center(objects[i])
            d = ((nx - cx) ** 2 + (ny - cy) ** 2) ** 0.5
            if d <= r and objects[i].get("value") == faces[p] and (best is None or d < best[0]):
                best = (d, i)
        if best is None:
            return None
        free.remove(best[1])
        kept.append(best[1])
    # match the moved dice to the re-rolled positions, nearest old position first
    out_used, out_pos = [], []
    for p in fresh:
        o = by_pos.get(p)
        cx, cy = _center(o) if o else (0.0, 0.0)
        j = min(free, key=lambda i: (_center(objects[i])[0] - cx) ** 2 + (_center(objects[i])[1] - cy) ** 2)
        free.remove(j)
        out_used.append(j)
        out_pos.append(p)
    return out_used, out_pos, kept, kept_pos


def _rerolled(m: Match, objects: list[Obj], used: list[int], prev: Mapping[str, Any], faces: Sequence[int],
              moved: Sequence[int], fresh: Sequence[int]) -> list[int]:
    """A re-roll read: the new dice alone, or the whole pool with the kept dice where they
    lay (see :func:`_kept_in_place`). Sets the positions (and the kept dice) on ``m``;
    returns the read objects that are the new dice."""
    m.positions = list(fresh[:len(used)])
    if len(used) == len(fresh):
        return used
    found = _kept_in_place(objects, used, prev, faces, moved, fresh)
    if found is None:
        if faces and len(used) == len(faces) - len(moved) + len(fresh):
            seen = _layout(prev)
            why = ("les dés gardés n'y sont pas tous à leur place (même endroit, même face)",
                   "the kept dice are not all where they were (same place, same face)")
            if any(p not in seen for p in range(len(faces)) if p not in moved):
                why = ("la caméra n'a pas vu où sont les dés gardés (lancer saisi, ou dés hors du plateau)",
                       "the camera did not see where the kept dice lie (a typed roll, or dice out of the tray)")
            m.message = text2(
                f"Toute la réserve est sur la photo, mais {why[0]} : impossible de dire quels dés ont été relancés."
                " Touchez chaque dé gardé et choisissez « Pas un dé », ou sortez les dés gardés et relancez seulement"
                " les autres, ou saisissez les faces.",
                f"The whole pool is on the photo, but {why[1]}: which dice were re-rolled cannot be told. Tap each"
                " kept die and choose \"Not a die\", or take the kept dice out and roll only the others, or enter"
                " the faces.")
        return used
    new, m.positions, m.kept, m.kept_positions = found
    m.unexpected = sorted(m.unexpected + m.kept)
    m.message = text2("Dés gardés reconnus à leur place ; seuls les dés relancés sont pris.",
                      "Kept dice recognised where they lie; only the re-rolled dice are taken.")
    return new


def _pool_values(m: Match, objects: list[Obj], used: list[int], want: int, key: str = "dice") -> Match:
    """The d10 values of a pool step into ``m.data[key]``; pending unless there are
    ``want`` of them, each read with confidence."""
    m.used = used
    if len(used) != want:
        m.status = "pending"
        m.message = m.message or _count_msg(want, len(used), ("d10", "d10"))
        return m
    m.data[key] = [int(objects[i]["value"]) if not _pending(objects[i]) else None for i in used]
    return _finish(m, objects)


def _d10_wanted(expects: Mapping[str, Any]) -> int:
    return sum(int(d.get("count", 0)) for d in expects.get("dice", []) if d.get("kind") == "d10")


def _wuxia(expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj], prev: Mapping[str, Any]) -> Match:
    step = expects.get("step")
    if step not in ("roll", "reroll_dice", "extra_dice"):
        return _idle(expects)
    want = _d10_wanted(expects)
    used, other = _pool(objects, "d10")
    m = Match("ready", "wuxia.roll", unexpected=other)
    if expects.get("who"):
        m.data["who"] = expects["who"]
    test_i = expects.get("test")
    tests = state.get("tests") or []
    test = tests[test_i] if isinstance(test_i, int) and 0 <= test_i < len(tests) else {}
    faces = list((test.get("faces") if isinstance(test, dict) else None) or [])
    if step == "roll":
        m.positions = list(range(len(used)))
    elif step == "reroll_dice":
        indices = list(expects.get("indices") or [])
        used = _rerolled(m, objects, used, prev, faces, indices, indices)
    else:
        used = _rerolled(m, objects, used, prev, faces, [], list(range(len(faces), len(faces) + want)))
    return _pool_values(m, objects, used, want)


def _shayo(expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj], prev: Mapping[str, Any]) -> Match:
    step = expects.get("step")
    if step not in ("roll", "reroll_dice"):
        return _idle(expects)
    want = _d10_wanted(expects)
    used, other = _pool(objects, "d10")
    if step == "roll":
        m = Match("ready", "shayo.roll", unexpected=other, positions=list(range(len(used))))
        return _pool_values(m, objects, used, want)
    # a declared re-roll signature: its dice rolled again (or, for an "extra_die" 10, new dice)
    faces = list(expects.get("faces") or [])
    indices = list(expects.get("indices") or [])
    sig = (expects.get("signature") or {}).get("id")
    m = Match("ready", "shayo.signature", unexpected=other, data={"signature": sig, "dice": indices})
    if expects.get("mode") == "extra_die":
        used = _rerolled(m, objects, used, prev, faces, [], list(range(len(faces), len(faces) + want)))
    else:
        used = _rerolled(m, objects, used, prev, faces, indices, indices)
    return _pool_values(m, objects, used, want, "values")


def _espri(expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj], prev: Mapping[str, Any]) -> Match:
    step = expects.get("step")
    if step not in ("draw", "setup_draw"):
        return _idle(expects)
    want = int(expects.get("gems") or 0)
    used, other = _pool(objects, "gem")
    etype = "espri.draw" if step == "draw" else "espri.setup_draw"
    m = Match("ready", etype, used=used, unexpected=other, positions=list(range(len(used))))
    if len(used) != want:
        m.status = "pending"
        m.message = _count_msg(want, len(used), ("gemme(s)", "gem(s)"))
        return m
    m.data = {"gems": [objects[i]["value"] for i in used]}
    if step == "setup_draw":
        m.data["character"] = expects.get("character")
    return _finish(m, objects)


_GAMES = {"peripeties": _peripeties, "wuxia": _wuxia, "shayo": _shayo, "espri": _espri}


def ready_data(m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
    """The event data of a match whose pending objects have all been corrected."""
    if m.type == "peripeties.dice":
        return {"dice": [_die_json(objects[i]) for i in m.used]}
    if m.type in ("wuxia.roll", "shayo.roll", "shayo.signature"):
        key = "values" if m.type == "shayo.signature" else "dice"
        return {**m.data, key: [int(objects[i]["value"]) for i in m.used]}
    if m.type in ("espri.draw", "espri.setup_draw"):
        out2: dict[str, Any] = {"gems": [objects[i]["value"] for i in m.used]}
        if m.type == "espri.setup_draw":
            out2["character"] = m.data.get("character")
        return out2
    return dict(m.data)


def correction_event(record: Mapping[str, Any], index: int) -> tuple[str, dict[str, Any]] | None:
    """The event correcting object ``index`` of an *applied* read (its new value is
    already in ``record["objects"]``): the read's own event again, with every die as it
    now stands and ``"corrects"`` naming the event the read became. The table folds it in
    place of that event and re-derives what followed (see :mod:`companion.table`), so a
    die corrected after the result amends that result, in every game. None when the
    object was not part of the event, or the read has no event number."""
    etype = record.get("type")
    seq = record.get("seq")
    used = list(record.get("used") or [])
    if index not in used or not isinstance(etype, str) or not isinstance(seq, int):
        return None
    m = Match("ready", etype, data=dict(record.get("data") or {}), used=used)
    data = ready_data(m, record.get("objects") or [])
    data["corrects"] = seq
    return etype, data
