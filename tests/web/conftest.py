from __future__ import annotations

import threading
from typing import Iterator

import pytest

from companion.service import TableService
from web.app import create_app

PIN = "2468"


@pytest.fixture
def service(tmp_path) -> Iterator[TableService]:
    s = TableService(tmp_path / "table.sqlite")
    yield s
    s.close()


@pytest.fixture
def app(service):
    return create_app({"SERVICE": service, "TABLE_PIN": PIN, "SSE_PING_S": 0.2})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def live_server(app):
    """The app under web.server on a free loopback port, as ``companion serve`` runs it."""
    from web.server import create_server

    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    thread.join(10)
