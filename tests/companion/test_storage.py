"""Storage that never loses a table (issue 15): a missing or empty log where a table was
played refuses to start; damaged pages start read-only and ``companion recover`` saves
every readable event; backups through SQLite's backup API, and restore.

The short version of benchmarks/bench_storage_faults.py."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from companion.backup import AutoBackup, backup, list_backups, restore
from companion.errors import CompanionError, LogError
from companion.log import TableLog
from companion.recover import damage, recover, salvage
from companion.app.serve import check_log_present
from companion.service import TableService
from tests.helpers import run_cli

PAGE = 4096


def make_table(folder: Path, events: int = 600) -> Path:
    """A played table: settings.json and a log of ``events`` (a new game, then adds)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"pin": "135790", "secret_key": "k"}))
    path = folder / "table.sqlite"
    TableLog(path).close()
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    db.execute("INSERT INTO events (at, type, source, data) VALUES ('2026-12-01T20:00:00Z', 'table.new_game', "
               "'manual', '{\"game\":\"dummy\",\"options\":{\"cap\":100000}}')")
    for i in range(events - 1):
        db.execute("INSERT INTO events (at, type, source, data) VALUES (?, 'dummy.add', 'manual', ?)",
                   ("2026-12-01T20:00:01Z", json.dumps({"n": i % 6 + 1})))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


def damage_pages(path: Path, pages: tuple[int, ...] = (5, 12, 20), size: int = 300) -> None:
    """What the issue did: overwrite ``size`` bytes inside pages 5, 12 and 20."""
    rng = random.Random(15)
    with path.open("r+b") as fh:
        for page in pages:
            fh.seek((page - 1) * PAGE + 100)
            fh.write(rng.randbytes(size))


# -- a missing or empty log ----------------------------------------------------------
@pytest.mark.parametrize("how", ["deleted", "empty"])
def test_missing_or_empty_log_where_a_table_was_refuses_to_start(tmp_path, how):
    folder = tmp_path / "table"
    log = make_table(folder, 20)
    backup(folder, "daily")
    if how == "deleted":
        log.unlink()
    else:
        log.write_bytes(b"")
    proc = run_cli("serve", "--data", str(folder), "--host", "127.0.0.1", "--port", "0", "--camera", "none",
                   "--tray", "none", check=False)
    assert proc.returncode == 1
    assert "companion restore --data" in proc.stderr and "--new-table" in proc.stderr
    assert ("missing" if how == "deleted" else "empty") in proc.stderr
    assert not log.exists() or log.stat().st_size == 0  # nothing was started over it
    # The way back it names works.
    run_cli("restore", "--data", str(folder))
    with TableLog(folder / "table.sqlite") as restored:
        assert restored.count() == 20


def test_a_new_folder_or_new_table_starts(tmp_path):
    check_log_present(tmp_path / "fresh", new_table=False)  # no settings.json: a first start
    folder = tmp_path / "t"
    make_table(folder, 3).unlink()
    with pytest.raises(CompanionError):
        check_log_present(folder, new_table=False)
    check_log_present(folder, new_table=True)


# -- damaged pages ---------------------------------------------------------------------
def test_damaged_pages_start_read_only_with_what_can_be_read(tmp_path):
    path = make_table(tmp_path / "t", 1749)
    damage_pages(path)
    assert damage(path)
    service = TableService(path)
    try:
        assert service.log.damaged
        got = salvage(path)
        assert 1600 < len(got.events) < 1749 and got.lost and got.last_seq == 1749
        assert service.table.frames  # the readable events are folded
        assert service.state_json()["read_only"] is True
        assert any("damaged" in p for p in service.log.problems)
        assert any(f"event {got.lost[0]}:" in p for p in service.log.problems)
        with pytest.raises(LogError, match="read-only"):
            service.submit({"type": "dummy.add", "data": {"n": 1}})
    finally:
        service.close()


def test_a_read_only_table_answers_503_on_the_tablet(tmp_path):
    from web.app import create_app

    path = make_table(tmp_path / "t", 800)
    damage_pages(path)
    service = TableService(path)
    try:
        client = create_app({"SERVICE": service, "TABLE_PIN": "135790"}).test_client()
        assert client.get("/api/state").status_code == 200
        r = client.post("/api/events", json={"type": "dummy.add", "data": {"n": 1}}, headers={"X-Table-Pin": "135790"})
        assert r.status_code == 503 and r.json["reason"] == "read_only"
        assert "companion recover" in r.json["message"]["fr"]
    finally:
        service.close()


def test_export_of_a_damaged_log_gives_the_readable_events(tmp_path):
    path = make_table(tmp_path / "t", 1749)
    damage_pages(path)
    proc = run_cli("export", str(path), check=False)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(lines) == len(salvage(path).events)
    assert "damaged" in proc.stderr


def test_companion_recover_saves_every_readable_event_and_reports_the_rest(tmp_path):
    folder = tmp_path / "t"
    path = make_table(folder, 1749)
    damage_pages(path)
    before = salvage(path)
    proc = run_cli("recover", "--data", str(folder))
    assert "perdus / lost" in proc.stdout
    assert not damage(path)  # the folder's log is the new, sound one
    kept = list(folder.glob("table.damaged-*.sqlite"))
    assert len(kept) == 1 and damage(kept[0])  # the damaged file is kept, not deleted
    report = json.loads(next(folder.glob("recover-*.json")).read_text())
    assert report["events_read"] == len(before.events) and report["lost_seqs"] == before.lost
    service = TableService(path)
    try:
        assert [e.seq for e in service.log.events()] == [e.seq for e in before.events]  # their own numbers
        applied = service.submit({"type": "dummy.add", "data": {"n": 2}})
        assert applied.event.seq == 1750  # after the last number ever given, lost or not
    finally:
        service.close()


def test_recover_refuses_to_overwrite(tmp_path):
    path = make_table(tmp_path / "t", 10)
    other = tmp_path / "exists.sqlite"
    other.write_bytes(b"x")
    with pytest.raises(CompanionError):
        recover(path, other)


# -- backups -------------------------------------------------------------------------
def test_backup_while_playing_and_restore(tmp_path):
    folder = tmp_path / "t"
    path = make_table(folder, 50)
    service = TableService(path)
    try:
        copy = backup(folder, "manual")
        service.submit({"type": "dummy.add", "data": {"n": 1}})  # after the backup
        assert not damage(copy)
    finally:
        service.close()
    out = restore(folder, copy)
    assert out["events"] == 50 and Path(out["previous_log_kept_as"]).exists()
    with TableLog(path) as log:
        assert log.count() == 50
    with TableLog(out["previous_log_kept_as"]) as old:
        assert old.count() == 51


def test_backups_roll_and_a_damaged_log_is_not_backed_up(tmp_path):
    import datetime as dt

    folder = tmp_path / "t"
    path = make_table(folder, 1000)
    t0 = dt.datetime(2026, 12, 1, 20, 0)
    for i in range(5):
        backup(folder, "daily", keep=3, now=lambda i=i: t0 + dt.timedelta(days=i))
    names = [p.name for p in list_backups(folder)]
    assert len(names) == 3 and names[0].startswith("table-20261203")
    damage_pages(path)
    with pytest.raises(LogError, match="damaged"):
        backup(folder, "daily")
    assert len(list_backups(folder)) == 3


def test_automatic_backups_daily_and_at_each_new_game(tmp_path):
    folder = tmp_path / "t"
    path = make_table(folder, 5)
    messages: list[str] = []
    clock = [1e10]
    auto = AutoBackup(folder, report=messages.append, clock=lambda: clock[0])
    assert auto.daily_if_due() is not None  # none yet
    clock[0] = list_backups(folder)[-1].stat().st_mtime + 3600
    assert auto.daily_if_due() is None  # one an hour old
    clock[0] += 24 * 3600
    assert auto.daily_if_due() is not None
    service = TableService(path)
    try:
        threads = []
        service.on_applied(lambda a: threads.append(auto.on_applied(a)))
        service.submit({"type": "dummy.add", "data": {"n": 1}})
        service.submit({"type": "table.new_game", "data": {"game": "dummy"}})
        started = [t for t in threads if t is not None]
        assert len(started) == 1
        started[0].join(30)
    finally:
        service.close()
    assert [p.name.endswith("-new-game.sqlite") for p in list_backups(folder)].count(True) == 1
    assert messages == []
