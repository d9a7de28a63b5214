"""Every error answered as JSON with a message in French and English, never an HTML
page or a traceback: HTTP errors (404, 405, 413...) keep their status; a table log that
cannot be written (full disk, read-only table) is 503 and says so; anything unexpected
is a 500 with a short message (and the traceback on the server's stderr)."""

from __future__ import annotations

import sys
import traceback
from typing import Any

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.errors import LogError

__all__ = ["install", "storage_error", "STORAGE_FULL"]

STORAGE_FULL = {"fr": "La carte mémoire du compagnon est pleine : rien n'a été enregistré. "
                      "Libérez de la place (anciennes sauvegardes, photos) puis réessayez.",
                "en": "The companion's storage is full: nothing was recorded. "
                      "Free some space (old backups, photos) and try again."}
_STORAGE = {"fr": "Le compagnon ne peut pas enregistrer pour l'instant : rien n'a été enregistré.",
            "en": "The companion cannot record right now: nothing was recorded."}
_READ_ONLY = {"fr": "Le journal de la table est endommagé : le compagnon est en lecture seule. "
                    "Lancez « companion recover » sur le Pi.",
              "en": "The table log is damaged: the companion is read-only. Run “companion recover” on the Pi."}

_HTTP_TEXTS = {
    400: ("Requête invalide.", "Bad request."),
    404: ("Introuvable.", "Not found."),
    405: ("Méthode non permise ici.", "Method not allowed here."),
    413: ("Requête trop grande.", "Request too large."),
    415: ("Type de contenu non pris en charge.", "Unsupported content type."),
    429: ("Trop de requêtes : patientez.", "Too many requests: wait a little."),
}


def _json(status: int, en: str, message: dict[str, str], **extra: Any) -> Any:
    resp = jsonify({"error": en, "message": message, **extra})
    resp.status_code = status
    return resp


def storage_error(exc: BaseException) -> Any:
    """The 503 answer for a write the table log could not take."""
    text = str(exc).lower()
    if "full" in text or "no space" in text:
        return _json(503, "storage full: nothing was recorded", STORAGE_FULL, reason="storage_full")
    if "read-only" in text or "readonly" in text:
        return _json(503, "the table is read-only (damaged log): nothing was recorded", _READ_ONLY,
                     reason="read_only")
    return _json(503, f"could not record: {exc}", _STORAGE, reason="storage")


def install(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        status = exc.code or 500
        if isinstance(exc, RequestEntityTooLarge):
            kb = int(app.config.get("MAX_CONTENT_LENGTH") or 0) // 1024
            return _json(413, f"request body too large (limit {kb} KB)",
                         {"fr": f"Requête trop grande (limite : {kb} Ko).", "en": f"Request too large (limit {kb} KB)."})
        fr, en = _HTTP_TEXTS.get(status, (exc.name, exc.name))
        return _json(status, en, {"fr": fr, "en": en})

    @app.errorhandler(LogError)
    def _log(exc: LogError) -> Any:
        return storage_error(exc)

    @app.errorhandler(Exception)
    def _other(exc: Exception) -> Any:
        if isinstance(exc, HTTPException):  # pragma: no cover - handled above
            return _http(exc)
        traceback.print_exception(exc, file=sys.stderr)
        return _json(500, "internal error", {"fr": "Erreur interne du compagnon.",
                                             "en": "Internal error of the companion."})
