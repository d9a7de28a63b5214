"""The camera endpoints: reads, photos, corrections (PIN and CSRF), demo roll, calibration
and enrollment steps, against a demo camera and the real reader."""

from __future__ import annotations

import time

import pytest

from companion.roll.demo import demo_events
from companion.app.wiring import start_devices
from companion.service import TableService
from web.app import create_app

pytest.importorskip("cv2")
PIN = "2468"
H = {"X-Table-Pin": PIN}


@pytest.fixture
def setup(tmp_path):
    service = TableService(tmp_path / "table.sqlite")
    for ev in demo_events("espri"):
        service.submit(ev)
    devs = start_devices(service, tmp_path, camera="demo", tray="none", gpio="none", demo=True)
    app = create_app({"SERVICE": service, "TABLE_PIN": PIN, "DEVICES": devs, "DEMO": True})
    yield app.test_client(), devs, service
    devs.stop()
    service.close()


def wait_read(devs, after=0, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        recent = devs.roll.records.recent(1)
        if recent and recent[-1]["id"] > after and recent[-1].get("photo"):
            return recent[-1]
        time.sleep(0.05)
    raise AssertionError("no read")


def test_demo_roll_photo_and_correction(setup) -> None:
    client, devs, service = setup
    assert client.get("/api/roll").json["camera"]["connected"] is True
    assert client.post("/api/roll/shake", json={}).status_code == 401  # the PIN is needed
    r = client.post("/api/roll/shake", json={}, headers=H)
    assert r.status_code == 202 and all(k == "gem" for k, _ in r.json["objects"])
    rec = wait_read(devs)
    photo = client.get(f"/photos/{rec['photo']}.jpg")
    assert photo.status_code == 200 and photo.data[:2] == b"\xff\xd8"
    assert client.get("/photos/nope.jpg").status_code == 404
    state = client.get("/api/roll").json
    assert state["reads"][-1]["id"] == rec["id"] and state["demo"] is True
    if rec["status"] == "applied":
        last = service.table.history()[-1]
        assert last["type"] == "espri.draw" and last["source"] == "camera"
        i = rec["used"][0]
        other = "hiver" if rec["objects"][i]["value"] != "hiver" else "ete"
        r = client.post("/api/roll/correct", json={"read": rec["id"], "index": i, "value": other}, headers=H)
        assert r.status_code == 200, r.json
        last = service.table.history()[-1]
        assert last["source"] == "correction" and other in last["data"]["gems"]
    bad = client.post("/api/roll/correct", json={"read": rec["id"], "index": 99, "value": "ete"}, headers=H)
    assert bad.status_code == 400 and "no object" in bad.json["error"]


def test_calibration_and_enrollment_steps(setup) -> None:
    client, devs, service = setup
    c = client.get("/api/camera/check").json
    assert c["markers"]["ok"] and c["markers"]["found"] == [0, 1, 2, 3]
    assert client.get("/api/camera/preview.jpg").data[:2] == b"\xff\xd8"
    assert client.post("/api/camera/background", json={}).status_code == 401
    r = client.post("/api/camera/background", json={}, headers=H)
    assert r.status_code == 200 and r.json["markers"] == [0, 1, 2, 3]
    before = client.get("/api/camera/enrollment").json
    assert before["progress"] == 0.0
    # the empty tray holds no die: enrolling says so and changes nothing
    r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 3}, headers=H)
    assert r.status_code == 400 and "Aucun objet" in r.json["error"] and "no object" in r.json["error"]
    for bad in ([1, 2, 3], ["a", 1, 1, 1], [0, 0, -5, 5], "1,2,3,4"):
        r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 3, "box": bad}, headers=H)
        assert r.status_code == 400 and "box" in r.json["error"], bad
    # a non-finite number is no JSON: refused before it reaches the box
    r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 3, "box": [0, 0, float("inf"), 4]}, headers=H)
    assert r.status_code == 400
    assert client.get("/api/camera/enrollment").json == before
    # one die in the tray: one view learnt, progress moves
    devs.camera.source.prepare([("d6", 3)], seed=5)
    devs.camera.source.wait_ready(20)
    r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 3}, headers=H)
    assert r.status_code == 200, r.json
    d6 = next(k for k in r.json["kinds"] if k["kind"] == "d6")
    assert next(f for f in d6["faces"] if f["face"] == 3)["views"] == 1
    assert r.json["progress"] > 0
    # two dice: which one is meant must be said (a tap on the photo sends its box)
    devs.camera.source.prepare([("d6", 3), ("d6", 5)], seed=6)
    devs.camera.source.wait_ready(20)
    r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 5}, headers=H)
    assert r.status_code == 400 and "touchez" in r.json["error"]
    five = next(lab for lab in devs.camera.source.scene.labels if lab.value == 5)
    r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 5, "box": list(five.box)}, headers=H)
    assert r.status_code == 200, r.json
    d6 = next(k for k in r.json["kinds"] if k["kind"] == "d6")
    assert next(f for f in d6["faces"] if f["face"] == 5)["views"] == 1
    # a tap on the preview (fractions of the photo) says the same
    fw, fh = devs.camera.source.scene.image.shape[1], devs.camera.source.scene.image.shape[0]
    three = next(lab for lab in devs.camera.source.scene.labels if lab.value == 3)
    at = [three.center[0] / fw, three.center[1] / fh]
    r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 3, "at": at}, headers=H)
    assert r.status_code == 200, r.json
    d6 = next(k for k in r.json["kinds"] if k["kind"] == "d6")
    assert next(f for f in d6["faces"] if f["face"] == 3)["views"] == 2
    for bad in ([2, 0.5], [0.5], "0.5,0.5", [-0.1, 0.1]):
        r = client.post("/api/camera/enroll", json={"kind": "d6", "face": 3, "at": bad}, headers=H)
        assert r.status_code == 400 and "tap" in r.json["error"], bad
    # the learnt views of a face, as a picture (two views of the 3: two tiles)
    png = client.get("/api/camera/enrollment/views.png?kind=d6&face=3")
    assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"
    import cv2
    import numpy as np

    tiles = cv2.imdecode(np.frombuffer(png.data, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert tiles.shape[1] == 2 * tiles.shape[0]
    assert client.get("/api/camera/enrollment/views.png?kind=d6&face=6").status_code == 404
    assert client.get("/api/camera/enrollment/views.png?kind=d8&face=1").status_code == 404
    assert client.get("/calibrate").status_code == 200


def test_welcome_page_for_the_pi_display(tmp_path) -> None:
    service = TableService(tmp_path / "t.sqlite")
    app = create_app({"SERVICE": service, "TABLE_PIN": PIN})
    client = app.test_client()
    local = client.get("/welcome", environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_data(as_text=True)
    assert PIN in local and "welcome-url" in local
    remote = client.get("/welcome", environ_base={"REMOTE_ADDR": "192.168.1.20"}).get_data(as_text=True)
    assert PIN not in remote  # the PIN is for the Pi's own screen only
    try:
        import qrcode  # noqa: F401
    except ImportError:
        return
    assert "<svg" in local and "welcome-qr" in local
    service.close()


def test_demo_new_game_comes_with_its_example_set_up(setup) -> None:
    client, devs, service = setup
    r = client.post("/api/demo/game", json={"game": "wuxia"}, headers=H)
    assert r.status_code == 201
    assert service.state_json()["state"]["expects"]["step"] == "roll"  # a pool waits for the camera
    assert client.post("/api/demo/game", json={"game": "nope"}, headers=H).status_code == 400
    app = create_app({"SERVICE": service, "TABLE_PIN": PIN})  # not a demo
    assert app.test_client().post("/api/demo/game", json={"game": "wuxia"}, headers=H).status_code == 404
