"""A damaged table log: find out, read what can be read, and write it to a new log.

SQLite keeps rows in pages; a damaged page (a bad SD card, a write torn by a power cut on
cheap flash) makes every query that crosses it fail with "database disk image is
malformed", so a plain ``SELECT`` reads nothing. Here rows are read one at a time by
their sequence number: a row on a damaged page is lost, every other row is read.

- :func:`damage` says whether a log file is damaged (SQLite's ``quick_check``);
- :func:`salvage` reads every readable event of a damaged (or sound) log, read-only;
- :func:`recover` writes the salvaged events, with their own sequence numbers (the
  rules' dice depend on them, and undo names them), to a new log and says what was lost;
- ``companion recover`` does it for a table's folder: the damaged file is kept beside,
  renamed, never deleted.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sqlite3
from pathlib import Path
from typing import Any

from .datadir import default_data_dir
from .errors import CompanionError, LogError
from .log import TableLog
from .salvage import Salvage, salvage_db

__all__ = ["damage", "salvage", "recover", "Salvage", "register"]

def _open_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


def damage(path: str | Path) -> list[str]:
    """SQLite's own check of the file: ``[]`` when sound, else what it found."""
    try:
        db = _open_ro(Path(path))
        try:
            rows = db.execute("PRAGMA quick_check").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    found = [str(r[0]) for r in rows]
    return [] if found == ["ok"] else found


def salvage(path: str | Path) -> Salvage:
    """Read a log file read-only and return every event that can be read."""
    try:
        db = _open_ro(Path(path))
    except sqlite3.DatabaseError as exc:
        raise LogError(f"cannot open {path}: {exc}") from None
    try:
        return salvage_db(db)
    except sqlite3.DatabaseError as exc:  # e.g. the first page itself is gone
        raise LogError(f"nothing can be read from {path}: {exc}") from None
    finally:
        db.close()


def recover(src: str | Path, dst: str | Path) -> dict[str, Any]:
    """Write every readable event of ``src`` to a new log ``dst``; return the report."""
    src, dst = Path(src), Path(dst)
    if dst.exists():
        raise CompanionError(f"{dst} already exists: choose another file")
    got = salvage(src)
    with TableLog(dst) as new:  # the schema
        pass
    db = sqlite3.connect(str(dst), isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        for ev in got.events:
            db.execute("INSERT INTO events (seq, at, type, source, by, data) VALUES (?, ?, ?, ?, ?, ?)",
                       (ev.seq, ev.at or "", ev.type, ev.source.value, ev.by,
                        json.dumps(dict(ev.data), ensure_ascii=False, separators=(",", ":"))))
        readable = {ev.seq for ev in got.events}
        for cid, s in got.client_ids:
            if s in readable:
                db.execute("INSERT OR IGNORE INTO client_ids VALUES (?, ?)", (cid, s))
        # The next event continues after the last one ever given, read or lost.
        db.execute("INSERT OR REPLACE INTO sqlite_sequence (name, seq) VALUES ('events', ?)", (got.last_seq,))
        db.execute("COMMIT")
    finally:
        db.close()
    return {
        "source": str(src), "recovered_to": str(dst), "events_read": len(got.events),
        "events_lost": len(got.lost), "lost_seqs": got.lost, "last_seq": got.last_seq,
        "problems": got.problems,
    }


def _ranges(seqs: list[int]) -> str:
    out: list[str] = []
    for s in seqs:
        if out and out[-1].split("-")[-1] == str(s - 1):
            out[-1] = out[-1].split("-")[0] + f"-{s}"
        else:
            out.append(str(s))
    return ", ".join(out)


def _cmd_recover(args: argparse.Namespace) -> int:
    data_dir = Path(args.data) if args.data else default_data_dir()
    log_path = data_dir / "table.sqlite"
    if not log_path.exists():
        raise CompanionError(f"no table log in {data_dir}")
    found = damage(log_path)
    if not found and not args.force:
        print(f"{log_path}: no damage found; nothing to do (--force to rewrite it anyway)")
        return 0
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    new = data_dir / f"table.recovered-{stamp}.sqlite"
    report = recover(log_path, new)
    kept = data_dir / f"table.damaged-{stamp}.sqlite"
    for suffix in ("", "-wal", "-shm"):
        part = Path(str(log_path) + suffix)
        if part.exists():
            part.replace(Path(str(kept) + suffix))
    new.replace(log_path)
    report["damaged_file_kept_as"] = str(kept)
    report["damage"] = found[:20]
    (data_dir / f"recover-{stamp}.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"Journal réparé / log recovered: {report['events_read']} événements lus / events read, "
          f"{report['events_lost']} perdus / lost")
    if report["lost_seqs"]:
        print(f"  perdus / lost: #{_ranges(report['lost_seqs'])}")
    for p in report["problems"]:
        print(f"  {p}")
    print(f"  l'ancien fichier est gardé / the damaged file is kept: {kept}")
    print(f"  rapport / report: {data_dir / f'recover-{stamp}.json'}")
    print("  relancez / restart: companion serve" + (f" --data {data_dir}" if args.data else ""))
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("recover", help="salvage every readable event of a damaged table log into a new log")
    p.add_argument("--data", type=Path, default=None, help="the table's folder (default: the per-user data folder)")
    p.add_argument("--force", action="store_true", help="rewrite the log even if no damage is found")
    p.set_defaults(func=_cmd_recover)


