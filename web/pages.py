"""The tablet pages: the table, and the PIN login."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, send_from_directory, session
from markupsafe import Markup

from companion.games import game_names

from .addresses import lan_addresses
from .auth import csrf_token, is_authenticated, login, require_csrf, too_many
from .validate import BadInput, request_json

bp = Blueprint("pages", __name__)


def _lang() -> str:
    lang = request.args.get("lang") or request.cookies.get("lang")
    if lang in ("fr", "en"):
        return lang
    best = request.accept_languages.best_match(["fr", "en"])
    return "en" if best == "en" else "fr"


@bp.get("/")
def table() -> str:
    games = game_names()
    static = Path(current_app.static_folder or "static") / "games"
    return render_template(
        "table.html",
        lang=_lang(),
        csrf=csrf_token(),
        can_edit=is_authenticated(),
        demo=bool(current_app.config.get("DEMO")),
        games=games,
        # a game without a page of its own (a test game) is shown as its state: no 404
        scripts=[g for g in games if (static / f"{g}.js").exists()],
        styles=[g for g in games if (static / f"{g}.css").exists()],
    )


@bp.post("/login")
def do_login() -> Any:
    data: Any
    if request.is_json:
        try:
            data = request_json(request.get_data(cache=True))
        except BadInput as exc:
            return jsonify({"ok": False, "error": str(exc), "message": dict(exc.text)}), 400
    else:
        data = request.form
    sent = request.headers.get("X-CSRF-Token") or data.get("csrf_token")
    if not sent or sent != session.get("csrf"):
        return jsonify({"ok": False, "error": "missing or stale security token: reload the page",
                        "message": {"fr": "Jeton de sécurité périmé : rechargez la page.",
                                    "en": "Stale security token: reload the page."}}), 403
    ok, status, wait = login(data.get("pin"))
    if ok:
        return jsonify({"ok": True, "csrf": csrf_token()})
    if status == 429:
        return too_many(wait)
    msg = {"fr": "Code incorrect.", "en": "Wrong PIN."}
    return jsonify({"ok": False, "error": msg["en"], "message": msg}), status


@bp.post("/logout")
@require_csrf
def do_logout() -> Any:
    session.pop("pin_ok", None)
    return jsonify({"ok": True})


@bp.get("/favicon.ico")
def favicon() -> Any:
    """The tab's icon (an SVG: every browser the tablets run takes it at this address)."""
    resp = send_from_directory(current_app.static_folder or "static", "favicon.svg", mimetype="image/svg+xml",
                               max_age=86400)
    return resp


@bp.get("/healthz")
def healthz() -> Any:
    return jsonify({"ok": True})


@bp.get("/welcome")
def welcome() -> Any:
    """For the Pi's own display (a kiosk browser on http://localhost:8080/welcome): the
    address for the tablets as text and as a QR code (for tablets that cannot resolve
    ``.local`` names), and the table PIN, shown only to the Pi itself (loopback)."""
    port = request.host.rsplit(":", 1)[1] if ":" in request.host else "80"
    addrs = [f"http://{a}:{port}/" for a in lan_addresses()]
    host = socket.gethostname()
    mdns = f"http://{host}.local:{port}/"
    url = addrs[0] if addrs else mdns
    svg = ""
    try:
        import qrcode  # optional (the [pi] extra): imported when the page is asked for
        import qrcode.image.svg

        svg = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=12).to_string(encoding="unicode")
    except ImportError:
        svg = ""
    local = request.remote_addr in ("127.0.0.1", "::1")
    pin = str(current_app.config.get("TABLE_PIN")) if local else None
    html = render_template("welcome.html", lang=_lang(), url=url, addrs=addrs, mdns=mdns,
                           qr=Markup(svg), pin=pin)
    return Response(html, mimetype="text/html")
