"""Match a camera read against what the current game step expects.

:func:`match_read` is pure: ``(game, state_json, objects, previous) -> Match``. It says
which event the read becomes (``type`` and ``data``), which objects it used, and whether
the read can go to the rules at once (``ready``) or must wait for the players
(``pending``: a die read with low confidence, a die count that does not fit the step, a
die the step does not expect). It never guesses: a die whose face is unknown keeps the
read pending until a player taps it on the photo and picks the face.

Each game supplies its matcher: the ``camera`` attribute of the game object (a
:class:`companion.games.camera.Camera`, in the game's ``camera`` module, whose docstring
says which steps it reads and the event a read becomes). A game without one reads no
dice by camera. This module names no game.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from ..errors import EventError
from ..games import GAMES, find_game
from ..games.base import text
from ..games.camera import Camera, Match, Obj

__all__ = ["Match", "match_read", "correction_event", "expected_kinds", "CAMERA_EVENTS", "ready_data",
           "camera_of"]


def camera_of(game: str | None) -> Camera | None:
    """The camera plug-in of ``game`` (None for an unknown game or one without)."""
    try:
        found = find_game(game or "")
    except (EventError, ImportError):
        return None
    camera: Camera | None = getattr(found, "camera", None)
    return camera


class _CameraEvents(Mapping[str, str]):
    """game -> the event its dice read becomes, from each game's camera plug-in."""

    def _events(self) -> dict[str, str]:
        out = {}
        for name in GAMES:
            camera = camera_of(name)
            if camera is not None:
                out[name] = camera.event
        return out

    def __getitem__(self, game: str) -> str:
        return self._events()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._events())

    def __len__(self) -> int:
        return len(self._events())


#: The event each game's dice read becomes (for the benchmark, tests and the demo).
CAMERA_EVENTS: Mapping[str, str] = _CameraEvents()


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


def match_read(game: str | None, state: Mapping[str, Any] | None, objects: Sequence[Obj],
               previous: Mapping[str, Any] | None = None) -> Match:
    """See the module docstring. ``state`` is the game's ``state_json``; ``previous`` the
    last read record applied at this table (for re-rolls that leave kept dice in place)."""
    expects = (state or {}).get("expects") or {}
    camera = camera_of(game)
    if camera is None:
        return Match("idle", message=text("Ce jeu ne lit pas les dés à la caméra.", "This game does not read dice by camera."))
    return camera.match(expects, state or {}, list(objects), previous or {})


def ready_data(m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
    """The event data of a match whose pending objects have all been corrected (by the
    plug-in of the game its event belongs to)."""
    camera = camera_of((m.type or "").partition(".")[0]) if m.type else None
    if camera is None:
        return dict(m.data)
    return camera.ready_data(m, objects)


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
