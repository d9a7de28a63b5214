"""What the tablet's set-up flow needs (``static/setup.js``), and the words for dice.

- ``GET /api/labels``: die kinds and faces in French and English (never the keys).
- ``GET /api/setup/<game>``: the game's options as a form (kind, choices, default and a
  French and English label where the game documents them; the others stay at their
  defaults and are listed for the advanced editor), and the character sheets of earlier
  games of the same kind in this table's log, to bring back.

Starting the game is an ordinary ``table.new_game`` event (``POST /api/events``); a
sheet brought back is its game's ordinary creation event. Nothing here changes the table.
"""

from __future__ import annotations

from typing import Any, Iterable

from flask import Blueprint, jsonify

from companion.errors import CompanionError
from companion.events import Event

from .context import get_service

bp = Blueprint("setup", __name__)

#: The event that creates a character sheet in each game, and the field naming it.
SHEET_EVENTS: dict[str, tuple[str, str]] = {
    "peripeties": ("peripeties.add_character", "card"),
    "wuxia": ("wuxia.character_new", "name"),
    "shayo": ("shayo.character", "name"),
    "espri": ("espri.character", "name"),
}


@bp.get("/api/labels")
def labels() -> Any:
    from companion.dicelabels import labels_json

    resp = jsonify(labels_json())
    resp.headers["Cache-Control"] = "max-age=3600"
    return resp


def option_form(game: str) -> list[dict[str, Any]]:
    """The options a table can set by a tap: those of the game's ``options_class`` with a
    closed set of values, a number or yes/no (see :mod:`companion.games.options`)."""
    from companion.games import find_game
    from companion.games.options import option_form as form

    cls = find_game(game).options_class
    return form(cls) if cls is not None else []


def earlier_sheets(events: Iterable[Event], game: str, current_start: int | None) -> list[dict[str, Any]]:
    """The last creation event of each character of ``game`` in the log, from games
    before the one now running (``current_start`` is its ``table.new_game`` seq).

    >>> evs = [Event("table.new_game", {"game": "shayo"}, seq=1),
    ...        Event("shayo.character", {"name": "Aiko", "attributes": {"AGI": 3}}, seq=2),
    ...        Event("shayo.character", {"name": "Aiko", "attributes": {"AGI": 4}}, seq=3),
    ...        Event("table.new_game", {"game": "shayo"}, seq=4),
    ...        Event("shayo.character", {"name": "Ren"}, seq=5)]
    >>> [(s["name"], s["data"]["attributes"]) for s in earlier_sheets(evs, "shayo", 4)]
    [('Aiko', {'AGI': 4})]
    """
    etype, key = SHEET_EVENTS.get(game, ("", ""))
    found: dict[str, dict[str, Any]] = {}
    for ev in events:
        if current_start is not None and ev.seq is not None and ev.seq >= current_start:
            break
        if ev.type != etype:
            continue
        name = ev.data.get(key) or ev.data.get("name") or ev.data.get("id")
        if not isinstance(name, str) or not name:
            continue
        found[name] = {"name": name, "type": etype, "data": dict(ev.data), "seq": ev.seq, "at": ev.at}
    return sorted(found.values(), key=lambda s: str(s["name"]))


@bp.get("/api/setup/<game>")
def setup_info(game: str) -> Any:
    from companion.games import find_game

    try:
        g = find_game(game)
    except CompanionError as exc:
        return jsonify({"error": str(exc), "message": {"fr": f"Jeu inconnu : {game}", "en": f"Unknown game: {game}"}}), 404
    service = get_service()
    with service._lock:
        start = next((f.event.seq for f in reversed(service.table.frames) if f.event.type == "table.new_game"), None)
        running = service.table.game_name
    sheets = earlier_sheets(service.log.events(), game, start if running == game else None)
    return jsonify({"game": game, "title": dict(g.title), "options": option_form(game),
                    "defaults": g.default_options(), "sheets": sheets})
