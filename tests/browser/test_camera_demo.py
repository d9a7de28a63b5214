"""Camera-assisted play in a real browser: `companion serve --demo` for each game, the
"roll" button shakes the emulated tray over a rendered tray, the read goes through the
camera path to the rules; a die is corrected by tapping it on the photo; a step is undone."""

from __future__ import annotations

import pytest

from tests.helpers import Server

pytestmark = pytest.mark.browser

CAMERA_EVENT = {"peripeties": "peripeties.dice", "wuxia": "wuxia.roll", "shayo": "shayo.roll", "espri": "espri.draw"}


def login(page, pin: str) -> None:
    page.click('[data-test="pin-open"]')
    page.fill('[data-test="pin-input"]', pin)
    page.click('[data-test="pin-submit"]')
    page.wait_for_selector('[data-test="pin-dialog"]:not([open])', state="attached")


def roll(page) -> str:
    before = page.locator('[data-test="photo"]').get_attribute("data-read") if page.locator('[data-test="photo"]').count() else None
    page.click('[data-test="demo-roll"]')
    page.wait_for_function(
        "(b) => { const p = document.querySelector('[data-test=photo]'); const s = document.querySelector('[data-test=read-status]');"
        " return p && p.dataset.read !== b && s && s.dataset.status !== 'error' && p.querySelector('img'); }",
        arg=before, timeout=20000)
    return page.get_attribute('[data-test="read-status"]', "data-status")


def open_demo(page, srv) -> None:
    page.goto(srv.base + "/")
    page.wait_for_selector('[data-test="live"][data-state="live"]')
    page.wait_for_selector('[data-test="demo-roll"]')
    login(page, srv.pin)


def roll_until_applied(page) -> None:
    status = roll(page)
    for _ in range(3):  # a die hidden by another one: roll again, as players would
        if status == "applied":
            break
        page.click('[data-test="discard-read"]')
        status = roll(page)
    assert status == "applied", page.inner_text('[data-test="read-status"]')


def pick_face(page, box, face) -> None:
    """Tap ``box`` on the photo and give its die ``face``: wait until it shows corrected."""
    idx = box.get_attribute("data-index")
    box.click()
    page.click(f'[data-test="face-picker"] [data-test="face-{face}"]')
    page.wait_for_selector(f'[data-test="die-box"][data-index="{idx}"][data-status="corrected"]')


@pytest.mark.parametrize("game", ["peripeties", "wuxia", "shayo", "espri"])
def test_demo_turn_through_the_camera(page, tmp_path, game):
    with Server("--demo", "--game", game, "--data", str(tmp_path)) as srv:
        open_demo(page, srv)
        n_hist = page.locator('[data-test="history-item"]').count()
        roll_until_applied(page)
        page.wait_for_function(f"document.querySelectorAll('[data-test=history-item]').length > {n_hist}")
        last = srv.get("/api/state")["history"][-1]
        assert last["type"] == CAMERA_EVENT[game] and last["source"] == "camera"
        boxes = page.locator('[data-test="die-box"][data-status="read"]')
        assert boxes.count() >= 1
        if game in ("wuxia", "shayo"):
            # tap the first die on the photo and give it another face
            box = boxes.first
            new = int(box.inner_text().strip()) % 10 + 1
            read_seq = srv.get("/api/state")["history"][-1]["seq"]
            pick_face(page, box, new)
            last = srv.get("/api/state")["history"][-1]
            # the read's own event again, amending the roll it corrects (issue 14)
            assert last["source"] == "correction" and last["type"] == CAMERA_EVENT[game]
            assert last["data"]["corrects"] == read_seq and new in last["data"]["dice"]
        if game == "peripeties":
            # tap the location die on the photo and give it another face: a correction
            box = page.locator('[data-test="die-box"][data-kind="lieu"]').first
            old = srv.get("/api/state")["state"]["expects"]["have"]["lieu"]
            new = "ville" if old != "ville" else "temple"
            read_seq = srv.get("/api/state")["history"][-1]["seq"]
            pick_face(page, box, new)
            last = srv.get("/api/state")["history"][-1]
            assert last["source"] == "correction" and last["type"] == "peripeties.dice"
            assert last["data"]["corrects"] == read_seq
            assert srv.get("/api/state")["state"]["expects"]["have"]["lieu"] == new
        # undo the last step from the tablet
        n = page.locator('[data-test="history-item"]').count()
        seq = srv.get("/api/state")["history"][-1]["seq"]
        page.click('[data-test="undo"]')
        page.wait_for_function(f"document.querySelectorAll('[data-test=history-item]').length !== {n}"
                               f" || !document.querySelector('[data-test=history-item][data-seq=\"{seq}\"]')")
        assert [e["type"] for e in srv.get("/api/log")["events"]][-1] == "undo"
        if game == "peripeties":
            # the undo took back the correction; take back the camera read too
            assert srv.get("/api/state")["state"]["expects"]["have"]["lieu"] == old
            assert srv.post({"type": "undo"})[0] == 201
            # the same step typed by hand instead: its dice show as typed
            code, out = srv.post({"type": "peripeties.dice", "data": {
                "lieu": "ville", "adversaire": "mandarin", "epreuve": "esprit", "recompense": "gourde",
                "sentence": "taels", "difficulty": [8, 9]}})
            assert code == 201, out
            page.wait_for_selector('[data-test="typed-dice"] [data-status="typed"]')
            assert page.locator('[data-test="typed-dice"] [data-test="die-chip"]').count() == 7
        if game == "espri":
            # the demo's "new game" buttons start each game with its example set-up
            page.click('[data-test="new-game-wuxia"]')
            assert page.is_checked('[data-test="setup-demo-cast"]')  # the demo's cast, in the demo only
            page.click('[data-test="setup-start"]')
            page.wait_for_function("document.getElementById('title').textContent.includes('Wuxia')")
            # the example set-up arrives event by event: wait for its last step
            page.wait_for_function("Companion.table.state && Companion.table.state.expects"
                                   " && Companion.table.state.expects.step === 'roll'", timeout=10000)
            assert srv.get("/api/state")["state"]["expects"]["step"] == "roll"
        assert page.js_errors == []


def test_shayo_signature_re_roll_through_the_camera(page, tmp_path):
    """A Shayo re-roll signature sent to the tray: the demo "roll" renders the declared
    die alone, the camera reads it, the signature completes; its face is then corrected
    on the photo and the step undone."""
    with Server("--demo", "--game", "shayo", "--data", str(tmp_path)) as srv:
        open_demo(page, srv)
        # the pool typed (so the test knows it), then the re-roll of the 3 through the tray
        assert srv.post({"type": "shayo.roll", "data": {"dice": [8, 3, 1, 6, 2]}})[0] == 201
        page.wait_for_selector('[data-test="shayo-step-signatures"]')
        page.click('[data-test="shayo-sig-relance_echec"]')
        page.click('[data-test="shayo-sig-die-1"]')
        page.click('[data-test="shayo-sig-declare"]')
        page.wait_for_selector('[data-test="shayo-step-reroll"]')
        assert page.inner_text('[data-test="shayo-reroll-text"]') == "Relancez 1 dé : position 2"
        roll_until_applied(page)
        last = srv.get("/api/state")["history"][-1]
        assert last["type"] == "shayo.signature" and last["source"] == "camera"
        assert last["data"]["signature"] == "relance_echec" and last["data"]["dice"] == [1]
        (face,) = last["data"]["values"]
        page.wait_for_selector('[data-test="shayo-last"]')
        assert srv.get("/api/state")["state"]["last"]["dice"][1] == face
        # the re-rolled die tapped on the photo: its face corrected, the test counted again
        new = face % 10 + 1
        pick_face(page, page.locator('[data-test="die-box"][data-status="read"]').first, new)
        last = srv.get("/api/state")["history"][-1]
        read_seq = srv.get("/api/state")["history"][-2]["seq"]
        assert last["type"] == "shayo.signature" and last["source"] == "correction"
        assert last["data"] == {"signature": "relance_echec", "dice": [1], "values": [new], "corrects": read_seq}
        assert srv.get("/api/state")["state"]["last"]["dice"][1] == new
        # undo the correction and the camera's re-roll: the die is awaited again
        assert srv.post({"type": "undo"})[0] == 201
        page.wait_for_function(f"!document.querySelector('[data-test=history-item][data-seq=\"{last['seq']}\"]')")
        page.click('[data-test="undo"]')
        page.wait_for_selector('[data-test="shayo-step-reroll"]')
        assert srv.get("/api/state")["state"]["expects"]["step"] == "reroll_dice"
        assert page.js_errors == []
