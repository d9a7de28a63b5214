"""SIGKILL the real server in the middle of play: nothing acknowledged is lost."""

from __future__ import annotations

import threading

from tests.helpers import Server


def test_sigkill_mid_play_loses_no_acknowledged_event(tmp_path):
    data = tmp_path / "table"
    acked: list[int] = []
    srv = Server("--data", str(data))
    try:
        status, _ = srv.post({"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 100000}}})
        assert status == 201
        stop = threading.Event()

        def play() -> None:
            while not stop.is_set():
                try:
                    status, body = srv.post({"type": "dummy.add", "data": {"n": 1}})
                except OSError:
                    return
                if status == 201:
                    acked.append(body["event"]["seq"])

        players = [threading.Thread(target=play) for _ in range(3)]
        for p in players:
            p.start()
        while len(acked) < 40:
            pass
        srv.kill()  # SIGKILL while requests are in flight
        stop.set()
        for p in players:
            p.join(10)
    finally:
        srv.stop()

    with Server("--data", str(data)) as again:
        stored = {e["seq"] for e in again.get("/api/log")["events"]}
        assert set(acked) <= stored, f"lost acknowledged events: {sorted(set(acked) - stored)}"
        state = again.get("/api/state")
        assert state["state"]["total"] == len(stored) - 1
        # Play goes on where it was.
        status, body = again.post({"type": "dummy.add", "data": {"n": 2}})
        assert status == 201 and body["event"]["seq"] == max(stored) + 1
