"""PIN guessing (issue 15): from 13 addresses, 100 guesses found a 4-digit PIN in 0.19 s.
Now a table-wide throttle with doubling waits sits beside the per-address one, generated
PINs have 6 digits, a short --pin needs --weak-pin, and a waiting address is told how
long. During a wait the right PIN is refused too (see web.auth for why); a tablet that
already has the PIN plays on."""

from __future__ import annotations

import re

from companion.app.serve import PIN_DIGITS, check_pin_strength, load_settings
from tests.helpers import run_cli
from tests.web.conftest import PIN
from web.auth import PER_ADDRESS, TABLE_WIDE, Throttle, wait_text


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_per_address_waits_double():
    clock = Clock()
    th = Throttle(per_address=3, table_wide=1000, base_s=30, clock=clock)
    waits = []
    for _ in range(4):
        for _ in range(3):
            assert th.wait_s("10.0.0.2") == 0
            th.fail("10.0.0.2")
        waits.append(th.wait_s("10.0.0.2"))
        clock.t += waits[-1]
    assert waits == [30, 60, 120, 240]
    assert th.wait_s("10.0.0.3") == 0  # another address is not held


def test_table_wide_throttle_holds_every_address_but_the_pi_itself():
    clock = Clock()
    th = Throttle(per_address=5, table_wide=20, base_s=30, clock=clock)
    checked = 0
    for i in range(100):  # the attack of the issue: 13 addresses, 100 guesses at once
        addr = f"10.0.0.{i % 13 + 1}"
        if th.wait_s(addr) == 0:
            checked += 1
            th.fail(addr)
    assert checked == 20
    assert th.wait_s("10.0.0.99") == 30  # a new address waits too
    assert th.wait_s("127.0.0.1") == 0  # the Pi's own screen is not held table-wide
    clock.t += 30
    for i in range(20):
        th.fail(f"10.0.1.{i}")
    assert th.wait_s("10.0.0.99") == 60  # and the next table-wide wait is twice as long


def test_guessing_through_the_app_from_13_addresses(app):
    clients = [app.test_client() for _ in range(13)]
    statuses = []
    for i in range(100):
        c = clients[i % 13]
        guess = f"{i:06d}"
        r = c.post("/api/events", json={"type": "undo"},
                   headers={"X-Table-Pin": guess}, environ_base={"REMOTE_ADDR": f"10.1.0.{i % 13 + 1}"})
        statuses.append(r.status_code)
    assert statuses.count(403) == TABLE_WIDE and statuses.count(429) == 100 - TABLE_WIDE


def test_locked_out_address_is_told_how_long_and_the_right_pin_waits_too(client, service):
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    for _ in range(PER_ADDRESS):
        r = client.post("/login", json={"pin": "000000"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 429  # the last wrong one starts the wait
    r = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert r.status_code == 429 and r.headers["Retry-After"] == "30"
    body = r.get_json()
    assert body["retry_after"] == 30 and body["message"]["fr"] == "Trop d'essais : réessayez dans 30\u00a0s."
    assert body["message"]["en"] == "Too many tries: try again in 30 s."


def test_a_tablet_with_the_pin_plays_on_during_a_table_wide_wait(app, service):
    tablet = app.test_client()
    page = tablet.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    assert tablet.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token}).status_code == 200
    attacker = app.test_client()
    for i in range(TABLE_WIDE + 5):
        attacker.post("/api/events", json={"type": "undo"}, headers={"X-Table-Pin": "999999"},
                      environ_base={"REMOTE_ADDR": f"10.2.0.{i}"})
    r = tablet.post("/api/events", json={"type": "table.new_game", "data": {"game": "dummy"}},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 201


def test_wait_text_is_french_typography():
    assert wait_text(30)["fr"] == "Trop d'essais : réessayez dans 30\u00a0s."
    assert wait_text(150)["fr"].endswith("2\u00a0min 30\u00a0s.")
    assert wait_text(3600)["en"] == "Too many tries: try again in 1 h."


def test_generated_pin_has_six_digits(tmp_path):
    pin = load_settings(tmp_path)["pin"]
    assert len(pin) == PIN_DIGITS == 6 and pin.isdigit()


def test_short_pin_refused_without_weak_pin(tmp_path):
    import pytest

    from companion.errors import CompanionError

    with pytest.raises(CompanionError, match="--weak-pin"):
        check_pin_strength("1", weak_ok=False)
    check_pin_strength("1", weak_ok=True)
    check_pin_strength("246810", weak_ok=False)
    proc = run_cli("serve", "--pin", "1", "--data", str(tmp_path), "--port", "0", "--host", "127.0.0.1", check=False)
    assert proc.returncode == 1 and "--weak-pin" in proc.stderr
