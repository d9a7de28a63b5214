"""`companion serve` wires the devices named by the environment (the CLI options fall back
to $COMPANION_CAMERA, $COMPANION_TRAY, $COMPANION_GPIO)."""

from __future__ import annotations

import json
import urllib.request

from tests.helpers import Server


def test_serve_reads_with_the_camera_named_by_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_CAMERA", "synthetic:3")
    monkeypatch.setenv("COMPANION_TRAY", "none")
    monkeypatch.setenv("COMPANION_GPIO", "none")
    with Server("--data", str(tmp_path)) as srv:
        st = srv.get("/api/roll")
        assert st["camera"] == {"connected": True, "spec": "synthetic:3", "message": ""} and st["demo"] is False
        req = urllib.request.Request(srv.base + "/api/roll/shake", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": srv.pin})
        try:
            urllib.request.urlopen(req, timeout=5)
            raise AssertionError("the roll button is for the demo")
        except urllib.error.HTTPError as exc:
            assert exc.code == 400
        req = urllib.request.Request(srv.base + "/api/roll/read", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": srv.pin})
        assert urllib.request.urlopen(req, timeout=5).status == 202
        reads = srv.wait_until(lambda: srv.get("/api/roll")["reads"])
        assert reads and reads[-1]["objects"]  # a rendered tray, read; no game: shown only
        assert reads[-1]["status"] == "shown"
        assert json.dumps(srv.get("/api/state")["history"]) == "[]"  # nothing appended
