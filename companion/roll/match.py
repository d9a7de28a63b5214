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
shayo          ``roll``                                         ``shayo.roll {"dice"}``
espri          ``draw`` / ``setup_draw``                        ``espri.draw {"gems"}`` /
                                                                ``espri.setup_draw``
=============  ==============================================  =========================

Decisions:

- Péripéties: every die of a kind the step expects *or has already entered* is sent (the
  rules take a read of the whole tray: dice already entered with the same face are
  harmless, a re-rolled reward/sentence die is the re-roll). Other objects (gems, a die
  kind the step has no use for) are marked ``unexpected`` and left out; they do not block.
- Pools (Wuxia, Shayo): the number of d10 read must be the number the step waits for.
  For a Wuxia re-roll, the players may re-roll only the chosen dice in the tray *or*
  leave the kept dice where they lie: when the read holds the whole pool, the dice that
  did not move and show the same face as in the previous read are the kept ones, and the
  others are the re-rolled dice (matched to the re-rolled positions by distance).
- ESPRI: the number of gems must be the number the step draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

__all__ = ["Match", "match_read", "correction_event", "CAMERA_EVENTS", "text2"]

#: The event each game's dice read becomes (for the benchmark, tests and the demo).
CAMERA_EVENTS = {"peripeties": "peripeties.dice", "wuxia": "wuxia.roll", "shayo": "shayo.roll",
                 "espri": "espri.draw"}

Obj = dict[str, Any]


def text2(fr: str, en: str) -> dict[str, str]:
    return {"fr": fr, "en": en}


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


def _kept_in_place(objects: list[Obj], used: list[int], prev: Mapping[str, Any], pool_size: int,
                   indices: Sequence[int], faces: Sequence[int] | None) -> tuple[list[int], list[int]] | None:
    """For a re-roll read that shows the whole pool: which read objects are the re-rolled
    dice, and their pool positions. None when it cannot be told."""
    old = [o for o in prev.get("objects", []) if o.get("kind") == "d10"]
    old_pos = prev.get("positions") or []
    if len(used) != pool_size or len(old) != pool_size or len(old_pos) != pool_size:
        return None
    by_pos = {p: o for p, o in zip(old_pos, [prev["objects"][i] for i in prev.get("used", [])])} \
        if len(prev.get("used", [])) == pool_size else {p: o for p, o in zip(old_pos, old)}
    free = list(used)
    for p in range(pool_size):
        if p in indices:
            continue
        o = by_pos.get(p)
        if o is None:
            return None
        want = faces[p] if faces is not None and p < len(faces) else o.get("value")
        cx, cy = _center(o)
        r = max(8.0, 0.5 * max((o.get("box") or [0, 0, 16, 16])[2:]))
        best = None
        for i in free:
            nx, ny = _center(objects[i])
            d = ((nx - cx) ** 2 + (ny - cy) ** 2) ** 0.5
            if d <= r and objects[i].get("value") == want and (best is None or d < best[0]):
                best = (d, i)
        if best is None:
            return None
        free.remove(best[1])
    if len(free) != len(indices):
        return None
    # match the moved dice to the re-rolled positions, nearest old position first
    out_used, out_pos = [], []
    remaining = list(free)
    for p in indices:
        o = by_pos.get(p)
        cx, cy = _center(o) if o else (0.0, 0.0)
        j = min(remaining, key=lambda i: (_center(objects[i])[0] - cx) ** 2 + (_center(objects[i])[1] - cy) ** 2)
        remaining.remove(j)
        out_used.append(j)
        out_pos.append(p)
    return out_used, out_pos


def _wuxia(expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj], prev: Mapping[str, Any]) -> Match:
    step = expects.get("step")
    if step not in ("roll", "reroll_dice", "extra_dice"):
        return _idle(expects)
    want = sum(int(d.get("count", 0)) for d in expects.get("dice", []) if d.get("kind") == "d10")
    used, other = _pool(objects, "d10")
    m = Match("ready", "wuxia.roll", unexpected=other)
    test_i = expects.get("test")
    tests = state.get("tests") or []
    test = tests[test_i] if isinstance(test_i, int) and 0 <= test_i < len(tests) else {}
    if step == "roll":
        m.positions = list(range(len(used)))
    elif step == "reroll_dice":
        indices = list(expects.get("indices") or [])
        m.positions = indices[:len(used)]
        if len(used) != want:
            faces = test.get("faces") if isinstance(test, dict) else None
            found = _kept_in_place(objects, used, prev, len(faces or []), indices, faces)
            if found is not None:
                kept = [i for i in used if i not in found[0]]
                used, m.positions = found
                m.unexpected = sorted(other + kept)
                m.message = text2("Dés gardés reconnus à leur place ; seuls les dés relancés sont pris.",
                                  "Kept dice recognised where they lie; only the re-rolled dice are taken.")
    else:
        base = len((test or {}).get("faces") or [])
        m.positions = list(range(base, base + len(used)))
    m.used = used
    if len(used) != want:
        m.status = "pending"
        m.message = _count_msg(want, len(used), ("d10", "d10"))
        return m
    m.data = {"dice": [int(objects[i]["value"]) if not _pending(objects[i]) else None for i in used]}
    if expects.get("who"):
        m.data["who"] = expects["who"]
    return _finish(m, objects)


def _shayo(expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj], prev: Mapping[str, Any]) -> Match:
    if expects.get("step") != "roll":
        return _idle(expects)
    want = sum(int(d.get("count", 0)) for d in expects.get("dice", []) if d.get("kind") == "d10")
    used, other = _pool(objects, "d10")
    m = Match("ready", "shayo.roll", used=used, unexpected=other, positions=list(range(len(used))))
    if len(used) != want:
        m.status = "pending"
        m.message = _count_msg(want, len(used), ("d10", "d10"))
        return m
    m.data = {"dice": [int(objects[i]["value"]) if not _pending(objects[i]) else None for i in used]}
    return _finish(m, objects)


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
    if m.type in ("wuxia.roll", "shayo.roll"):
        out = {"dice": [int(objects[i]["value"]) for i in m.used]}
        if "who" in m.data:
            out["who"] = m.data["who"]
        return out
    if m.type in ("espri.draw", "espri.setup_draw"):
        out2: dict[str, Any] = {"gems": [objects[i]["value"] for i in m.used]}
        if m.type == "espri.setup_draw":
            out2["character"] = m.data.get("character")
        return out2
    return dict(m.data)


def correction_event(record: Mapping[str, Any], index: int) -> tuple[str, dict[str, Any]] | None:
    """The game event correcting object ``index`` of an *applied* read (its new value is
    already in ``record["objects"]``). None when that game cannot correct it afterwards."""
    etype = record.get("type")
    objects = record.get("objects") or []
    used = list(record.get("used") or [])
    if index not in used:
        return None
    k = used.index(index)
    if etype == "peripeties.dice":
        return "peripeties.dice", {"dice": [_die_json(objects[i]) for i in used], "replace": True}
    if etype == "wuxia.roll":
        pos = (record.get("positions") or [])[k] if k < len(record.get("positions") or []) else k
        data: dict[str, Any] = {"index": int(pos), "value": int(objects[index]["value"])}
        who = (record.get("data") or {}).get("who")
        if who:
            data["who"] = who
        return "wuxia.correct", data
    if etype == "shayo.roll":
        return "shayo.correct", {"index": k, "value": int(objects[index]["value"])}
    if etype == "espri.draw":
        return "espri.draw", {"gems": [objects[i]["value"] for i in used]}
    if etype == "espri.setup_draw":
        return "espri.setup_draw", {"character": (record.get("data") or {}).get("character"),
                                    "gems": [objects[i]["value"] for i in used]}
    return None
