from __future__ import annotations

import json
import sqlite3

from companion.app.doctor import FAIL, OK, WARN, run_checks
from companion.service import TableService
from tests.helpers import run_cli


def test_doctor_reports_each_check_as_json(tmp_path):
    out = json.loads(run_cli("doctor", "--data", str(tmp_path), "--json").stdout)
    names = {c["name"]: c for c in out}
    assert {"python", "libraries", "disk", "network", "log"} <= set(names)
    assert all(c["status"] in (OK, WARN, FAIL) for c in out)
    assert names["log"]["status"] == OK


def test_doctor_flags_a_damaged_log_without_touching_it(tmp_path):
    s = TableService(tmp_path / "table.sqlite")
    s.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    s.submit({"type": "dummy.add", "data": {"n": 2}})
    s.close()
    db = sqlite3.connect(tmp_path / "table.sqlite")
    db.execute("UPDATE events SET data='{broken' WHERE seq=2")
    db.commit()
    db.close()
    log = {c.name: c for c in run_checks(tmp_path)}["log"]
    assert log.status == WARN and "1" in log.en
    (tmp_path / "table.sqlite").unlink()
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"table.sqlite{suffix}").unlink(missing_ok=True)
    (tmp_path / "table.sqlite").write_bytes(b"garbage" * 200)
    assert {c.name: c for c in run_checks(tmp_path)}["log"].status == FAIL


def test_doctor_speaks_one_language_at_a_time(tmp_path):
    """French by default, hints included; English with --lang en (issue 14)."""
    fr = run_cli("doctor", "--data", str(tmp_path), check=False).stdout.splitlines()
    en = run_cli("doctor", "--data", str(tmp_path), "--lang", "en", check=False).stdout.splitlines()
    assert len(fr) == len(en)
    hints = [(a, b) for a, b in zip(fr, en) if "→" in a]
    for a, b in hints:
        assert a != b, f"hint not translated: {a}"
    assert any("disque" in line for line in fr) and not any(" disk " in line for line in fr)
    assert all("Gio" not in line or "." not in line.split("Gio")[0][-6:] for line in fr)


def test_a_check_hint_falls_back_to_the_language_it_has():
    from companion.app.doctor import Check

    both = Check("x", WARN, "a", "b", "do this", "faites ceci")
    assert (both.hint("fr"), both.hint("en")) == ("faites ceci", "do this")
    assert Check("x", WARN, "a", "b", "do this").hint("fr") == "do this"
