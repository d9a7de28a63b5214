"""The table PIN and CSRF tokens.

Anyone on the LAN may look; changing anything needs the table PIN:

- an API client sends it in the ``X-Table-Pin`` header (no CSRF token needed: a
  cross-site page cannot set that header without the server's consent);
- the tablet page logs in once (``POST /login`` with the PIN and the CSRF token) and then
  sends ``X-CSRF-Token`` with every change.

No PIN -> 401; a wrong PIN or a missing/wrong CSRF token -> 403. After
:data:`MAX_FAILURES` wrong PINs from one address within a minute, that address waits
(429) for the rest of the minute.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from functools import wraps
from typing import Any, Callable, TypeVar

from flask import current_app, jsonify, request, session

__all__ = ["csrf_token", "check_pin", "require_pin", "is_authenticated", "MAX_FAILURES"]

MAX_FAILURES = 8
WINDOW_S = 60.0

F = TypeVar("F", bound=Callable[..., Any])


class _Limiter:
    def __init__(self) -> None:
        self._fails: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def blocked(self, addr: str) -> bool:
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._fails.get(addr, []) if now - t < WINDOW_S]
            self._fails[addr] = recent
            return len(recent) >= MAX_FAILURES

    def fail(self, addr: str) -> None:
        with self._lock:
            self._fails.setdefault(addr, []).append(time.monotonic())


def _limiter() -> _Limiter:
    ext = current_app.extensions
    if "companion_limiter" not in ext:
        ext["companion_limiter"] = _Limiter()
    return ext["companion_limiter"]


def csrf_token() -> str:
    """The session's CSRF token (created on first use)."""
    tok = session.get("csrf")
    if not tok:
        tok = secrets.token_urlsafe(24)
        session["csrf"] = tok
    return tok


def check_pin(candidate: str | None) -> bool:
    pin = str(current_app.config["TABLE_PIN"])
    return candidate is not None and hmac.compare_digest(str(candidate).strip(), pin)


def is_authenticated() -> bool:
    return bool(session.get("pin_ok"))


def _error(status: int, fr: str, en: str) -> Any:
    resp = jsonify({"error": en, "message": {"fr": fr, "en": en}})
    resp.status_code = status
    return resp


def require_pin(view: F) -> F:
    """Guard a view that changes the table."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        addr = request.remote_addr or "?"
        header = request.headers.get("X-Table-Pin")
        if header is not None:
            if _limiter().blocked(addr):
                return _error(429, "Trop d'essais : attendez une minute.", "Too many tries: wait a minute.")
            if not check_pin(header):
                _limiter().fail(addr)
                return _error(403, "Code de table incorrect.", "Wrong table PIN.")
            return view(*args, **kwargs)
        if not is_authenticated():
            return _error(401, "Entrez le code de la table pour modifier la partie.",
                          "Enter the table PIN to change the game.")
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
        expected = session.get("csrf")
        if not sent or not expected or not hmac.compare_digest(sent, expected):
            return _error(403, "Jeton de sécurité manquant ou périmé : rechargez la page.",
                          "Missing or stale security token: reload the page.")
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def login(pin: str | None) -> tuple[bool, int]:
    """Check a PIN typed on the tablet; returns (ok, http status)."""
    addr = request.remote_addr or "?"
    if _limiter().blocked(addr):
        return False, 429
    if check_pin(pin):
        session["pin_ok"] = True
        session.permanent = True
        return True, 200
    _limiter().fail(addr)
    return False, 403
