"""What every request goes through before a view: the Host allow-list, the Origin check
of state-changing requests, the security headers (CSP), and the live-stream gate.

- **Host allow-list** (against DNS rebinding): ``localhost``, the machine's hostname and
  ``hostname.local``, ``ALLOWED_HOSTS`` from the config, and any IP address (the Pi's own,
  loopback: a rebinding attack makes the browser send the attacker's *name*, never an
  address, and the Pi's address may change with DHCP while it runs). Anything else: 421
  (Misdirected Request) with a message.
- **Origin check**: a POST/PUT/PATCH/DELETE whose ``Origin`` (or, without one,
  ``Referer``) is not this very host is refused with 403. A request with neither (curl,
  the tray, tests) passes: the PIN and CSRF token still guard it.
- **CSP**: scripts and styles from the Pi only; no inline script, no ``eval``; nothing
  from outside; no framing.
- **Streams**: at most ``STREAMS_PER_ADDRESS`` live-update streams per address and
  ``MAX_STREAMS`` in all; beyond that ``/events`` answers 429 with a message.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import Flask, jsonify, request

__all__ = ["install", "StreamGate", "CSP", "allowed_hosts"]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def _message(status: int, fr: str, en: str) -> Any:
    resp = jsonify({"error": en, "message": {"fr": fr, "en": en}})
    resp.status_code = status
    return resp


class StreamGate:
    """Counts open live-update streams per address; refuses past the caps."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self._open: dict[str, int] = {}
        self._lock = threading.Condition()

    def acquire(self, addr: str) -> bool:
        with self._lock:
            n = self._open.get(addr, 0)
            if n >= self.per_address or sum(self._open.values()) >= self.total:
                return False
            self._open[addr] = n + 1
            return True

    def release(self, addr: str) -> None:
        with self._lock:
            n = self._open.get(addr, 0) - 1
            if n > 0:
                self._open[addr] = n
            else:
                self._open.pop(addr, None)
            self._lock.notify_all()

    def wait_below(self, addr: str, n: int, timeout: float) -> bool:
        """Wait until fewer than ``n`` streams are open from ``addr`` (for tests)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._open.get(addr, 0) < n, timeout)

    def count(self, addr: str | None = None) -> int:
        with self._lock:
            return self._open.get(addr, 0) if addr is not None else sum(self._open.values())


def _machine_names() -> set[str]:
    names = {"localhost"}
    try:
        host = socket.gethostname()
        if host:
            names |= {host.lower(), f"{host.lower()}.local"}
    except OSError:
        pass
    return names


def allowed_hosts(app: Flask) -> set[str]:
    cached = app.extensions.get("companion_hosts")
    if cached is None:
        cached = _machine_names() | {h.lower() for h in app.config.get("ALLOWED_HOSTS", ())}
        app.extensions["companion_hosts"] = cached
    return cached


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):  # [::1]:8080
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _host_ok(app: Flask, host: str) -> bool:
    name = _host_name(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True  # an address typed as such: a rebinding page can only send a name
    except ValueError:
        pass
    hosts = allowed_hosts(app)
    return "*" in hosts or name in hosts


def install(app: Flask) -> None:
    app.config.setdefault("STREAMS_PER_ADDRESS", 8)
    app.config.setdefault("MAX_STREAMS", 400)
    app.config.setdefault("ALLOWED_HOSTS", ())
    app.extensions["companion_streams"] = StreamGate(int(app.config["STREAMS_PER_ADDRESS"]),
                                                     int(app.config["MAX_STREAMS"]))

    @app.before_request
    def _check() -> Any:
        if not _host_ok(app, request.host):
            return _message(421, "Adresse inconnue de ce compagnon : ouvrez-le par son adresse sur le réseau.",
                            "This companion does not answer to that host name: open it by its LAN address.")
        if request.method in _UNSAFE:
            origin = request.headers.get("Origin")
            if origin is None:
                origin = request.headers.get("Referer")
            if origin is not None and not _same_origin(origin, request.host):
                return _message(403, "Requête venue d'un autre site : refusée.",
                                "Request from another site: refused.")
        return None

    @app.after_request
    def _headers(resp: Any) -> Any:
        resp.headers.setdefault("Content-Security-Policy", CSP)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp


def _same_origin(origin: str, host: str) -> bool:
    if origin == "null":
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def stream_gate(app: Flask) -> StreamGate:
    gate: StreamGate = app.extensions["companion_streams"]
    return gate


ReleaseFn = Callable[[], None]
