"""The Flask application factory.

``create_app(config)`` builds the app for one table. Services hang on the app
(``app.extensions["companion"]``), never on module globals, so tests make as many apps
as they like. Config keys:

- ``SERVICE``: a :class:`companion.service.TableService` (else one is made in
  ``DATA_DIR``/table.sqlite);
- ``DATA_DIR``: the table's folder (log, settings);
- ``TABLE_PIN``: the PIN that changing anything needs (required);
- ``SECRET_KEY``: signs the tablet's session cookie (else a random one per start);
- ``DEMO``: show the demo banner (and the demo "roll" button);
- ``DEVICES``: a :class:`companion.app.wiring.Devices` (camera, tray, roll service);
  without it the camera endpoints answer 404 and the page shows no camera panel.

- ``STREAMS_PER_ADDRESS`` / ``MAX_STREAMS``: caps on live-update streams (see
  :mod:`web.guard`); ``ALLOWED_HOSTS``: host names served besides the machine's own.

Never run with Flask's debug mode: ``companion serve`` runs it under :mod:`web.server`.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

from companion.service import TableService

from . import api, camera, errors, guard, journal, pages, setup, stats
from .context import get_service
from .server import PHOTO_BODY_LIMIT

__all__ = ["create_app", "get_service"]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        SECRET_KEY=secrets.token_hex(32),
        TABLE_PIN=None,
        DATA_DIR=None,
        DEMO=False,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        SSE_PING_S=15.0,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=PHOTO_BODY_LIMIT,
    )
    if config:
        app.config.update(dict(config))
    app.debug = False
    if not app.config.get("TABLE_PIN"):
        raise ValueError("create_app needs TABLE_PIN: changing the table must be protected")
    service = app.config.get("SERVICE")
    if service is None:
        data_dir = app.config.get("DATA_DIR")
        if not data_dir:
            raise ValueError("create_app needs SERVICE or DATA_DIR")
        service = TableService(Path(data_dir) / "table.sqlite")
    app.extensions["companion"] = service

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(camera.bp)
    for extra in (setup, journal, stats):  # the set-up flow, the journal, the dice statistics
        app.register_blueprint(extra.bp)

    guard.install(app)
    errors.install(app)

    return app
