"""The HTTP API used by the tablet page and by tests.

- ``GET /api/state``: the folded table as JSON (``?history=N`` recent entries).
- ``GET /api/log?before=SEQ&limit=N``: one page of history from the log, newest first
  (each event with its outcomes, ``undone``/``refused`` marks; ``before`` of the next
  page, ``more``). Without ``before``/``limit``: the stored events (``?after=SEQ``).
- ``POST /api/events``: append one event (JSON body). 201 with the outcome; 400 with a
  clear message (``error`` in English, ``message`` in French and English); 401/403
  without the PIN.
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

from companion.errors import CompanionError, RuleError

from .app import get_service
from .auth import require_pin

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
    out = service.state_json()
    limit = request.args.get("history", type=int)
    if limit is not None and limit >= 0:
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
    after = request.args.get("after", default=0, type=int)
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
    if not request.is_json:
        return _bad_request(ValueError("send the event as JSON (Content-Type: application/json)"))
    try:
        body = request.get_json(silent=False)
    except Exception:
        return _bad_request(ValueError("the request body is not valid JSON"))
    try:
        applied = get_service().submit(body, by=request.headers.get("X-Client"))
    except CompanionError as exc:
        return _bad_request(exc)
    resp = jsonify(applied.to_json())
    resp.status_code = 201
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
def events() -> Response:
    service = get_service()
    ping = float(current_app.config.get("SSE_PING_S", 15.0))

    def stream() -> Iterator[str]:
        sub = service.broker.subscribe()
        try:
            hello = {"state": service.state_json()}
            yield "retry: 2000\n"
            yield _sse("hello", json.dumps(hello, ensure_ascii=False, separators=(",", ":")))
            while True:
                try:
                    name, data = sub.queue.get(timeout=ping)
                except queue.Empty:
                    yield ": ping\n\n"
                    continue
                yield _sse(name, data)
                if name == "resync":
                    return
        finally:
            service.broker.unsubscribe(sub)

    resp = Response(stream_with_context(stream()), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def _sse(name: str, data: str) -> str:
    return f"event: {name}\ndata: {data}\n\n"
