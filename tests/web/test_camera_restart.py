"""SIGKILL during play: the restarted server resumes where it was, nothing acknowledged lost."""

from __future__ import annotations

import json
import urllib.request

from tests.helpers import Server


def post(srv: Server, path: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(srv.base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Table-Pin": srv.pin})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, json.loads(r.read())


def wait_read(srv: Server, after: int, timeout: float = 20) -> dict:
    """The first camera read after ``after`` that has its photo (re-checked at each message
    of the server's live stream)."""
    def done() -> dict | None:
        reads = srv.get("/api/roll")["reads"]
        return reads[-1] if reads and reads[-1]["id"] > after and reads[-1].get("photo") else None

    return srv.wait_until(done, timeout)


def test_sigkill_mid_game_then_restart_resumes(tmp_path) -> None:
    with Server("--demo", "--game", "shayo", "--data", str(tmp_path)) as srv:
        post(srv, "/api/roll/shake", {})
        rec = wait_read(srv, 0)
        before = srv.get("/api/state")
        log_before = srv.get("/api/log")["events"]
        srv.kill()  # SIGKILL: no clean shutdown
    with Server("--demo", "--data", str(tmp_path)) as srv2:
        after = srv2.get("/api/state")
        assert after["last_seq"] == before["last_seq"]
        assert after["state"] == before["state"]
        assert srv2.get("/api/log")["events"] == log_before
        reads = srv2.get("/api/roll")["reads"]
        assert reads[-1]["id"] == rec["id"] and reads[-1]["status"] == rec["status"]
        with urllib.request.urlopen(srv2.base + f"/photos/{rec['photo']}.jpg", timeout=5) as r:
            assert r.read(2) == b"\xff\xd8"
        # play goes on after the restart: the table accepts a change (here an undo,
        # valid whatever step the camera read left the game at)
        code, body = srv2.post({"type": "undo", "data": {"seq": after["last_seq"]}})
        assert code == 201, body
        assert srv2.get("/api/state")["last_seq"] != after["last_seq"]
