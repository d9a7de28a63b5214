"""What a game's camera plug-in is made of: :class:`Match` (what a read becomes), the
:class:`Camera` protocol a game implements (its matcher, the event data of a corrected
read, the objects its demo rolls), and the helpers the games share to match a read.

Pure: no I/O, no vision. :mod:`companion.roll.match` finds a game's plug-in through its
``camera`` attribute; each game's ``camera`` module implements it, and its docstring
says what each step expects and the event a read becomes.

Pools (Wuxia, Shayo): the number of d10 read must be the number the step waits for.
For a re-roll, the players may roll only the new dice in the tray *or* leave the kept
dice where they lie: when the read holds the whole pool, the dice that did not move and
show the same face as in the previous read are the kept ones, and the others are the new
dice (matched to the re-rolled positions by distance). A read records where it saw each
kept die, so the next re-roll of the same test can leave them in place again. When the
whole pool is seen but a kept die moved, the read is pending and says so
(:func:`rerolled`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

__all__ = ["Match", "Camera", "Obj", "DemoObj", "idle", "finish", "pending", "die_json", "count_msg",
           "pool", "rerolled", "pool_values", "d10_wanted", "d10_demo"]

#: A read object: ``{"kind", "value", "box", "confidence", "status"}``.
Obj = dict[str, Any]
#: What a demo roll shows: ``(kind, face)``.
DemoObj = tuple[str, "int | str"]


def _text(fr: str, en: str) -> dict[str, str]:
    # companion.games.base.text, which this module cannot import: base names the Camera
    # protocol defined here (an import cycle)
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
    kept: list[int] = field(default_factory=list)  # a re-roll read: the kept dice seen in place (not sent)
    kept_positions: list[int] = field(default_factory=list)  # and their pool positions


def _center(o: Obj) -> tuple[float, float]:
    x, y, w, h = o.get("box") or (0, 0, 0, 0)
    return x + w / 2, y + h / 2


def pending(o: Obj) -> bool:
    return o.get("value") is None or o.get("status") == "pending"


def die_json(o: Obj) -> Obj:
    out: Obj = {"kind": o["kind"], "value": o["value"]}
    if o.get("box") is not None:
        out["box"] = [int(v) for v in o["box"]]
    if o.get("confidence") is not None:
        out["confidence"] = float(o["confidence"])
    return out




class Camera(Protocol):
    """A game's camera plug-in (the game's ``camera`` attribute)."""

    #: The event a first dice read of the game becomes (the demo stops before it).
    event: str

    def match(self, expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj],
              previous: Mapping[str, Any]) -> Match:
        """What the read ``objects`` become for the step ``expects`` of the game's
        ``state`` (its ``state_json``); ``previous``: the last read record applied."""
        ...

    def ready_data(self, m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
        """The event data of a match whose pending objects have all been corrected."""
        ...

    def demo_objects(self, state: Mapping[str, Any], faces: Mapping[str, Sequence[int | str]],
                     rng: random.Random) -> list[DemoObj]:
        """What a demo roll shows for the current step (random faces among ``faces``, the
        faces the reader knows for each kind)."""
        ...


def idle(expects: Mapping[str, Any]) -> Match:
    return Match("idle", message=_text("Le jeu n'attend pas de dés maintenant : lecture affichée seulement.",
                                       "The game expects no dice now: the read is only shown."))


def finish(m: Match, objects: Sequence[Obj]) -> Match:
    if any(pending(objects[i]) for i in m.used):
        m.status = "pending"
        if not m.message:
            m.message = _text("Touchez les dés incertains sur la photo pour choisir leur face.",
                              "Tap the uncertain dice on the photo to pick their face.")
    return m


# -- pools of d10 -----------------------------------------------------------------------
def count_msg(want: int, got: int, what: tuple[str, str]) -> dict[str, str]:
    return _text(f"{want} {what[0]} attendu(s), {got} lu(s) : touchez la photo pour corriger, ou saisissez-les.",
                 f"{want} {what[1]} expected, {got} read: tap the photo to correct, or enter them.")


def pool(objects: list[Obj], kind: str) -> tuple[list[int], list[int]]:
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


def rerolled(m: Match, objects: list[Obj], used: list[int], prev: Mapping[str, Any], faces: Sequence[int],
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
            m.message = _text(
                f"Toute la réserve est sur la photo, mais {why[0]} : impossible de dire quels dés ont été relancés."
                " Touchez chaque dé gardé et choisissez « Pas un dé », ou sortez les dés gardés et relancez seulement"
                " les autres, ou saisissez les faces.",
                f"The whole pool is on the photo, but {why[1]}: which dice were re-rolled cannot be told. Tap each"
                " kept die and choose \"Not a die\", or take the kept dice out and roll only the others, or enter"
                " the faces.")
        return used
    new, m.positions, m.kept, m.kept_positions = found
    m.unexpected = sorted(m.unexpected + m.kept)
    m.message = _text("Dés gardés reconnus à leur place ; seuls les dés relancés sont pris.",
                      "Kept dice recognised where they lie; only the re-rolled dice are taken.")
    return new


def pool_values(m: Match, objects: list[Obj], used: list[int], want: int, key: str = "dice") -> Match:
    """The d10 values of a pool step into ``m.data[key]``; pending unless there are
    ``want`` of them, each read with confidence."""
    m.used = used
    if len(used) != want:
        m.status = "pending"
        m.message = m.message or count_msg(want, len(used), ("d10", "d10"))
        return m
    m.data[key] = [int(objects[i]["value"]) if not pending(objects[i]) else None for i in used]
    return finish(m, objects)


def d10_wanted(expects: Mapping[str, Any]) -> int:
    """How many d10 the step waits for (entries that are not a die are ignored)."""
    return sum(int(d.get("count", 0)) for d in expects.get("dice") or []
               if isinstance(d, Mapping) and d.get("kind") == "d10")


def d10_demo(expects: Mapping[str, Any], rng: random.Random) -> list[DemoObj]:
    """A pool's demo roll: the step's d10 count (for a re-roll, only the dice rolled
    again, as players who take the kept dice out of the tray would)."""
    return [("d10", rng.randint(1, 10)) for _ in range(d10_wanted(expects))]
