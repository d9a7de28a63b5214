"""The HTTP API used by the tablet page and by tests.

- ``GET /api/state``: the folded table as JSON (``?history=N`` recent entries).
- ``GET /api/log?before=SEQ&limit=N``: one page of history from the log, newest first
  (each event with its outcomes, ``undone``/``refused`` marks; ``before`` of the next
  page, ``more``). Without ``before``/``limit``: the stored events (``?after=SEQ``).
- ``POST /api/events``: append one event (JSON body, at most 64 KB, optional client
  ``id``). 201 with the outcome; 200 ``duplicate`` for a retry already stored; 400 with
  a clear message (``error`` in English, ``message`` in French and English); 401/403
  without the PIN; 413 too large; 503 when the log cannot be written (full disk).
- ``GET /api/events/ID``: the fate of the post with client id ``ID``.
- ``GET /events``: Server-Sent Events: ``table`` (an event was applied: the result and
  the new state), ``devices`` (tray/camera status), ``resync`` (refetch the state).
- ``GET /api/games``: the games this installation knows.
- ``GET /api/dice``: the die kinds and their faces (for the tap-to-enter buttons).
"""

from __future__ import annotations

import json
import queue
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from companion.errors import CompanionError, LogError, RuleError

from .auth import require_pin
from .context import get_service
from .errors import storage_error
from .server import EVENT_BODY_LIMIT
from .validate import BadInput, check_client_id, check_json, int_arg, parse_json

bp = Blueprint("api", __name__)


def _bad_request(exc: Exception) -> Any:
    msg = str(exc)
    texts = getattr(exc, "text", None)
    if isinstance(texts, dict) and texts.get("fr") and texts.get("en"):
        message = {"fr": str(texts["fr"]), "en": str(texts["en"])}
    else:
        message = {"fr": msg, "en": msg}
    body: dict[str, Any] = {"error": msg, "message": message}
    if isinstance(exc, RuleError) and exc.rule:
        body["rule"] = exc.rule
    resp = jsonify(body)
    resp.status_code = 400
    return resp


@bp.get("/api/state")
def state() -> Any:
    service = get_service()
    if "history" not in request.args:  # the usual read: the text encoded once per change
        return Response(service.state_text(), mimetype="application/json")
    try:
        limit = int_arg(request.args.get("history"), "history", -1, 0, 100_000)
    except BadInput as exc:
        return _bad_request(exc)
    out = service.state_json()
    if limit >= 0:
        out["history"] = out["history"][-limit:] if limit else []
    return jsonify(out)


@bp.get("/api/log")
def log() -> Any:
    if "before" in request.args or "limit" in request.args:
        before = _positive(request.args.get("before"))
        limit = _positive(request.args.get("limit", "50"))
        if limit is None or ("before" in request.args and before is None):
            bad = ValueError("'before' and 'limit' must be positive integers")
            bad.text = {"fr": "«\u202fbefore\u202f» et «\u202flimit\u202f» doivent être des entiers positifs.",  # type: ignore[attr-defined]
                        "en": "'before' and 'limit' must be positive integers."}
            return _bad_request(bad)
        return jsonify(get_service().log_page(before=before, limit=limit))
    try:
        after = int_arg(request.args.get("after"), "after", 0, 0, 2 ** 63 - 1)
    except BadInput as exc:
        return _bad_request(exc)
    return jsonify({"events": get_service().events_json(after=after)})


def _positive(raw: str | None) -> int | None:
    """``raw`` as a positive integer, or ``None``."""
    if raw is None or not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        return None
    value = int(raw)
    return value if value >= 1 else None


@bp.post("/api/events")
@require_pin
def post_event() -> Any:
    """Append one event. The body may carry ``"id"``: the client's id for this post
    (8-64 of ``A-Z a-z 0-9 - _``). A post whose id is already stored enters nothing and
    answers 200 with ``"duplicate": true`` and the stored event; ``GET
    /api/events/ID`` tells the fate of a post the client gave up on."""
    if not request.is_json:
        return _bad_request(BadInput("send the event as JSON (Content-Type: application/json)",
                                     "Envoyez l'événement en JSON (Content-Type: application/json)."))
    if (request.content_length or 0) > EVENT_BODY_LIMIT:
        return _too_large()
    raw = request.get_data(cache=False)
    if len(raw) > EVENT_BODY_LIMIT:
        return _too_large()
    try:
        body = parse_json(raw)
        client_id = None
        if isinstance(body, dict) and "id" in body:
            body = dict(body)
            client_id = check_client_id(body.pop("id"))
        by = request.headers.get("X-Client")
        if by is not None:
            check_json({"by": by})
        # a retry of a stored post gives its stored fate (a dict), a new one what was applied
        result, _duplicate = get_service().submit_once(body, client_id, by=by)
    except LogError as exc:
        return storage_error(exc)
    except CompanionError as exc:
        return _bad_request(exc)
    if isinstance(result, dict):
        return jsonify({**result, "duplicate": True, "id": client_id})
    out = result.to_json()
    if client_id is not None:
        out["id"] = client_id
    resp = jsonify(out)
    resp.status_code = 201
    return resp


@bp.get("/api/events/<client_id>")
def event_fate(client_id: str) -> Any:
    """The fate of a post by its client id: 200 with the stored event, or 404."""
    try:
        check_client_id(client_id)
    except BadInput as exc:
        return _bad_request(exc)
    fate = get_service().fate(client_id)
    if fate is None:
        resp = jsonify({"recorded": False, "id": client_id, "error": "no event was recorded with this id",
                        "message": {"fr": "Aucun événement enregistré avec cet identifiant.",
                                    "en": "No event was recorded with this id."}})
        resp.status_code = 404
        return resp
    return jsonify({**fate, "recorded": True, "id": client_id})


def _too_large() -> Any:
    kb = EVENT_BODY_LIMIT // 1024
    resp = jsonify({"error": f"event too large (limit {kb} KB)",
                    "message": {"fr": f"Événement trop grand (limite : {kb} Ko).",
                                "en": f"Event too large (limit {kb} KB)."}})
    resp.status_code = 413
    return resp


@bp.get("/api/games")
def games() -> Any:
    from companion.games import GAMES, find_game, game_names

    out = []
    for name in game_names():
        try:
            g = find_game(name)
        except CompanionError:
            continue
        out.append({"name": name, "title": dict(g.title), "options": g.default_options()})
    return jsonify({"games": out, "known": list(GAMES)})


@bp.get("/api/dice")
def dice() -> Any:
    try:
        from companion import dice as dice_mod
    except ImportError:
        return jsonify({"kinds": []})
    loader = getattr(dice_mod, "dice_json", None)
    if loader is None:
        return jsonify({"kinds": []})
    return jsonify(loader())


@bp.get("/events")
def events() -> Any:
    from .guard import stream_gate

    service = get_service()
    ping = float(current_app.config.get("SSE_PING_S", 15.0))
    gate = stream_gate(current_app)
    addr = request.remote_addr or "?"
    if not gate.acquire(addr):
        resp = jsonify({"error": "too many live streams from this address",
                        "message": {"fr": "Trop de pages ouvertes depuis cet appareil : fermez-en une.",
                                    "en": "Too many pages open on this device: close one."}})
        resp.status_code = 429
        resp.headers["Retry-After"] = "10"
        return resp
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            gate.release(addr)

    try:
        sub = service.broker.subscribe()
        hello = {"state": service.state_json()}
    except Exception:
        release()
        raise
    first = ["retry: 2000\n", _sse("hello", json.dumps(hello, ensure_ascii=False, separators=(",", ":")))]

    def close() -> None:
        service.broker.unsubscribe(sub)
        release()

    handoff = request.environ.get("companion.sse")
    if handoff is not None:  # the event-loop server (web.server) streams it: no thread held
        handoff(sub, first, ping, close)
        resp = Response(b"", mimetype="text/event-stream")
    else:  # any other WSGI server: one thread per stream
        def stream() -> Iterator[str]:
            try:
                yield from first
                while not sub.closed:
                    try:
                        name, data = sub.queue.get(timeout=ping)
                    except queue.Empty:
                        yield ": ping\n\n"
                        continue
                    yield _sse(name, data)
                    if name == "resync":
                        return
            finally:
                close()

        resp = Response(stream_with_context(stream()), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def _sse(name: str, data: str) -> str:
    return f"event: {name}\ndata: {data}\n\n"
