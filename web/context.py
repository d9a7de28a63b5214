"""The table service of the app that serves the current request.

:func:`web.app.create_app` hangs the :class:`~companion.service.TableService` on the app
(``app.extensions["companion"]``); the blueprints find it here, so that they need not
import the factory that registers them.
"""

from __future__ import annotations

from flask import Flask, current_app

from companion.service import TableService

__all__ = ["get_service"]


def get_service(app: Flask | None = None) -> TableService:
    service: TableService = (app or current_app).extensions["companion"]
    return service
