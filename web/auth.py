"""The table PIN and CSRF tokens.

Anyone on the LAN may look; changing anything needs the table PIN:

- an API client sends it in the ``X-Table-Pin`` header (no CSRF token needed: a
  cross-site page cannot set that header without the server's consent);
- the tablet page logs in once (``POST /login`` with the PIN and the CSRF token) and then
  sends ``X-CSRF-Token`` with every change (logging out too).

No PIN -> 401; a wrong PIN or a missing/wrong CSRF token -> 403.

Guessing is throttled twice (:class:`Throttle`):

- **per address**: after :data:`PER_ADDRESS` wrong PINs that address waits, 30 s the
  first time and twice as long each time after (up to an hour);
- **table-wide**: after :data:`TABLE_WIDE` wrong PINs from all addresses together within
  a minute, every address waits, with the same doubling back-off. The Pi itself
  (``127.0.0.1``, ``::1``: its own screen) is not held by the table-wide wait, only by its
  own.

A waiting address gets 429 with ``Retry-After`` and is told how long to wait. During a
wait **no PIN is checked, so the right PIN is refused too**: a throttle that still
accepted the right PIN would let a guesser go on at full speed and keep the ones that
work. A tablet that already has the PIN keeps it (its session), so a table under attack
plays on; a new tablet waits, or is unlocked from the Pi's own screen.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from dataclasses import dataclass
from functools import wraps
from typing import Any, Callable, TypeVar

from flask import current_app, jsonify, request, session

__all__ = ["csrf_token", "check_pin", "require_pin", "require_csrf", "is_authenticated", "Throttle",
           "PER_ADDRESS", "TABLE_WIDE", "wait_text"]

PER_ADDRESS = 5
TABLE_WIDE = 20
WINDOW_S = 60.0
BASE_WAIT_S = 30.0
MAX_WAIT_S = 3600.0
#: Addresses the table-wide wait does not hold: the Pi's own screen.
LOCAL = frozenset({"127.0.0.1", "::1"})

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class _Lock:
    fails: list[float]
    until: float = 0.0
    locks: int = 0


class Throttle:
    """Per-address and table-wide limits on wrong PINs, with doubling waits.

    ``clock`` is injected (tests step it by hand)."""

    def __init__(self, per_address: int = PER_ADDRESS, table_wide: int = TABLE_WIDE, window_s: float = WINDOW_S,
                 base_s: float = BASE_WAIT_S, max_s: float = MAX_WAIT_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_address, self.table_wide, self.window_s = per_address, table_wide, window_s
        self.base_s, self.max_s, self.clock = base_s, max_s, clock
        self._addr: dict[str, _Lock] = {}
        self._table = _Lock([])
        self._lock = threading.Lock()

    def _backoff(self, locks: int) -> float:
        delay: float = min(self.max_s, self.base_s * 2 ** min(locks, 30))
        return delay

    def wait_s(self, addr: str) -> float:
        """Seconds ``addr`` must wait before its next try (0: it may try now)."""
        now = self.clock()
        with self._lock:
            own = self._addr.get(addr)
            wait = max(0.0, own.until - now) if own else 0.0
            if addr not in LOCAL:
                wait = max(wait, self._table.until - now)
            return wait

    def fail(self, addr: str) -> None:
        now = self.clock()
        with self._lock:
            for st, limit in ((self._addr.setdefault(addr, _Lock([])), self.per_address), (self._table, self.table_wide)):
                st.fails = [t for t in st.fails if now - t < self.window_s] + [now]
                if len(st.fails) >= limit:
                    st.until = now + self._backoff(st.locks)
                    st.locks += 1
                    st.fails = []
            if len(self._addr) > 10_000:  # forget old quiet addresses
                for a in [a for a, st in self._addr.items() if st.until < now and not st.fails][:5000]:
                    del self._addr[a]

    def success(self, addr: str) -> None:
        with self._lock:
            self._addr.pop(addr, None)


def wait_text(seconds: float) -> dict[str, str]:
    """How long to wait, said in French and English (``2 min 30 s``)."""
    s = max(1, int(math.ceil(seconds)))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    nb = "\u00a0"
    parts = [f"{h}{nb}h"] if h else []
    if m:
        parts.append(f"{m}{nb}min")
    if sec and not h:
        parts.append(f"{sec}{nb}s")
    text = " ".join(parts)
    return {"fr": f"Trop d'essais : réessayez dans {text}.", "en": f"Too many tries: try again in {text.replace(nb, ' ')}."}


def _throttle() -> Throttle:
    ext = current_app.extensions
    if "companion_throttle" not in ext:
        ext["companion_throttle"] = Throttle()
    throttle: Throttle = ext["companion_throttle"]
    return throttle


def csrf_token() -> str:
    """The session's CSRF token (created on first use)."""
    tok = session.get("csrf")
    if not tok:
        tok = secrets.token_urlsafe(24)
        session["csrf"] = tok
    return tok


def check_pin(candidate: Any) -> bool:
    pin = str(current_app.config["TABLE_PIN"])
    return isinstance(candidate, str) and hmac.compare_digest(candidate.strip().encode(), pin.encode())


def is_authenticated() -> bool:
    return bool(session.get("pin_ok"))


def _error(status: int, fr: str, en: str) -> Any:
    resp = jsonify({"error": en, "message": {"fr": fr, "en": en}})
    resp.status_code = status
    return resp


def too_many(wait_s: float) -> Any:
    msg = wait_text(wait_s)
    resp = jsonify({"ok": False, "error": msg["en"], "message": msg, "retry_after": int(math.ceil(wait_s))})
    resp.status_code = 429
    resp.headers["Retry-After"] = str(int(math.ceil(wait_s)))
    return resp


def _csrf_ok() -> bool:
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
    expected = session.get("csrf")
    return bool(sent and expected and isinstance(sent, str) and hmac.compare_digest(sent.encode(), expected.encode()))


def require_pin(view: F) -> F:
    """Guard a view that changes the table."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        addr = request.remote_addr or "?"
        header = request.headers.get("X-Table-Pin")
        if header is not None:
            wait = _throttle().wait_s(addr)
            if wait > 0:
                return too_many(wait)
            if not check_pin(header):
                _throttle().fail(addr)
                return _error(403, "Code de table incorrect.", "Wrong table PIN.")
            _throttle().success(addr)
            return view(*args, **kwargs)
        if not is_authenticated():
            return _error(401, "Entrez le code de la table pour modifier la partie.",
                          "Enter the table PIN to change the game.")
        if not _csrf_ok():
            return _error(403, "Jeton de sécurité manquant ou périmé : rechargez la page.",
                          "Missing or stale security token: reload the page.")
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def require_csrf(view: F) -> F:
    """Guard a view that needs the page's CSRF token but not the PIN (logout)."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not _csrf_ok():
            return _error(403, "Jeton de sécurité manquant ou périmé : rechargez la page.",
                          "Missing or stale security token: reload the page.")
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def login(pin: Any) -> tuple[bool, int, float]:
    """Check a PIN typed on the tablet; returns (ok, http status, seconds to wait)."""
    addr = request.remote_addr or "?"
    wait = _throttle().wait_s(addr)
    if wait > 0:
        return False, 429, wait
    if check_pin(pin):
        _throttle().success(addr)
        session["pin_ok"] = True
        session.permanent = True
        return True, 200, 0.0
    _throttle().fail(addr)
    wait = _throttle().wait_s(addr)
    return False, (429 if wait > 0 else 403), wait
