"""The journal: every event of the table, in words, for people (``static/journal.js``).

- ``GET /journal``: the page (filter by player or character, export buttons);
- ``GET /api/journal?before=SEQ&limit=N&who=NAME``: entries newest first, paged like
  ``/api/log`` (``next_before`` is the ``before`` of the next page, null at the end),
  and ``people``, everyone the journal names (for the filter);
- ``GET /journal.csv``, ``GET /journal.json`` (``?who=``): the whole journal to keep;
- ``GET /journal/print`` (``?who=``): a printable page.

Built on the table log itself (every event, the undone ones too) and the outcomes of the
events in effect; nothing here changes the table.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from companion.journal import Entry, filter_entries, journal, people, to_csv, to_json_text

from .auth import csrf_token, is_authenticated
from .context import get_service
from .pages import _lang as lang

bp = Blueprint("journal", __name__)

MAX_LIMIT = 500


def table_inputs(service: Any) -> tuple[list[Any], dict[int, Any], dict[int, str], dict[str, str], list[tuple[Any, Any]]]:
    """The log's events, the outcomes of the events in effect, the refused ones, the
    characters' names, and the effective ``(event, outcomes)`` frames, read under the
    service's lock."""
    with service._lock:
        frames = [(f.event, f.outcomes) for f in service.table.frames]
        refused = {ev.seq: msg for ev, msg in service.table.skipped if ev.seq is not None}
        top, game = service.table.top, service.table.game
        state = game.state_json(top.state) if (game is not None and top is not None) else {}
    events = list(service.log.events())
    outcomes = {ev.seq: outs for ev, outs in frames if ev.seq is not None}
    names: dict[str, str] = {}
    deck = ((state or {}).get("deck") or {}).get("cards") or []
    for c in [*deck, *((state or {}).get("characters") or [])]:
        if not isinstance(c, dict) or not isinstance(c.get("id"), str):
            continue
        card: dict[str, Any] = c["card"] if isinstance(c.get("card"), dict) else c  # Péripéties: the card's name
        if isinstance(card.get("name"), str):
            names[c["id"]] = str(card["name"])
    return events, outcomes, refused, names, frames


def _entries() -> list[Entry]:
    events, outcomes, refused, names, _ = table_inputs(get_service())
    return journal(events, outcomes, refused, names)


def _lang() -> str:
    return lang()


@bp.get("/journal")
def page() -> str:
    return render_template("journal.html", lang=_lang(), csrf=csrf_token(), can_edit=is_authenticated())


@bp.get("/api/journal")
def api_journal() -> Any:
    entries = _entries()
    who = request.args.get("who") or None
    before = request.args.get("before", type=int)
    limit = max(1, min(MAX_LIMIT, request.args.get("limit", default=100, type=int)))
    page = filter_entries(entries, who, before, limit + 1)
    more = len(page) > limit
    page = page[:limit]
    return jsonify({"entries": [e.to_json() for e in page], "people": people(entries),
                    "next_before": page[-1].seq if (more and page) else None})


@bp.get("/journal.csv")
def export_csv() -> Response:
    lang = _lang()
    entries = filter_entries(_entries(), request.args.get("who") or None)
    entries.reverse()
    body = "\ufeff" + to_csv(entries, lang)  # the BOM: spreadsheets then read the accents right
    return Response(body, mimetype="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="journal.csv"'})


@bp.get("/journal.json")
def export_json() -> Response:
    entries = filter_entries(_entries(), request.args.get("who") or None)
    entries.reverse()
    return Response(to_json_text(entries), mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="journal.json"'})


@bp.get("/journal/print")
def printable() -> str:
    who = request.args.get("who") or None
    entries = filter_entries(_entries(), who)
    entries.reverse()
    return render_template("journal_print.html", lang=_lang(), entries=entries, who=who)
