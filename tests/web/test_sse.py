from __future__ import annotations

import json
import threading
import urllib.request

from tests.web.conftest import PIN


def _post(base, body):
    req = urllib.request.Request(base + "/api/events", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.status


def _read_events(resp, want: int) -> list[tuple[str, dict]]:
    out, name, data = [], None, []
    while len(out) < want:
        line = resp.readline().decode().rstrip("\n")
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "" and name:
            out.append((name, json.loads("".join(data))))
            name, data = None, []
    return out


def test_every_listener_gets_hello_then_each_applied_event(live_server):
    streams = [urllib.request.urlopen(live_server + "/events", timeout=5) for _ in range(3)]
    hellos = [_read_events(s, 1)[0] for s in streams]
    assert all(name == "hello" for name, _ in hellos)
    assert _post(live_server, {"type": "table.new_game", "data": {"game": "dummy"}}) == 201
    for n in (1, 2, 3):
        assert _post(live_server, {"type": "dummy.add", "data": {"n": n}}) == 201
    for s in streams:
        got = _read_events(s, 4)
        assert [name for name, _ in got] == ["table"] * 4
        assert [p["applied"]["event"]["seq"] for _, p in got] == [1, 2, 3, 4]
        assert got[-1][1]["state"]["state"]["total"] == 6
        s.close()


def test_device_status_is_pushed(live_server, service):
    s = urllib.request.urlopen(live_server + "/events", timeout=5)
    _read_events(s, 1)
    threading.Timer(0.05, lambda: service.set_device("tray", {"connected": False})).start()
    name, payload = _read_events(s, 1)[0]
    assert name == "devices" and payload["devices"]["tray"]["connected"] is False
    s.close()
