"""Rolling backups of the table log, through SQLite's backup API, and restoring one.

A backup is a whole, consistent copy of ``table.sqlite`` taken while the table plays
(SQLite's online backup reads one snapshot; writers are not stopped), kept in the
table's folder under ``backups/``:

- ``companion serve`` takes one at start when none is less than a day old, then once a
  day while it runs, and at each new game (``table.new_game``);
- ``companion backup`` takes one now (``--list`` shows them);
- ``companion restore [FILE]`` puts one back (the newest without ``FILE``), after
  checking it; the log it replaces is kept beside, renamed, never deleted.

The newest :data:`KEEP` backups are kept; older ones are removed. A damaged log is never
backed up (it would push a good backup out).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .datadir import default_data_dir
from .errors import CompanionError, LogError
from .recover import damage

__all__ = ["backup", "list_backups", "restore", "AutoBackup", "register", "KEEP"]

KEEP = 30
DAY_S = 24 * 3600.0


def _backups_dir(data_dir: Path) -> Path:
    return data_dir / "backups"


def list_backups(data_dir: str | Path) -> list[Path]:
    """The table's backups, oldest first."""
    d = _backups_dir(Path(data_dir))
    return sorted(d.glob("table-*.sqlite")) if d.is_dir() else []


def backup(data_dir: str | Path, reason: str = "manual", keep: int = KEEP,
           now: Callable[[], _dt.datetime] = _dt.datetime.now) -> Path:
    """Copy ``DATA_DIR/table.sqlite`` to ``DATA_DIR/backups/`` and prune; return the copy."""
    data_dir = Path(data_dir)
    src = data_dir / "table.sqlite"
    if not src.exists() or src.stat().st_size == 0:
        raise CompanionError(f"no table log to back up in {data_dir}")
    found = damage(src)
    if found:
        raise LogError(f"{src} is damaged: not backed up (run `companion recover`)")
    out_dir = _backups_dir(data_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = now().strftime("%Y%m%d-%H%M%S-%f")
    dst = out_dir / f"table-{stamp}-{reason}.sqlite"
    tmp = dst.with_suffix(".partial")
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(str(tmp))
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
    except sqlite3.DatabaseError as exc:
        tmp.unlink(missing_ok=True)
        raise LogError(f"backup failed: {exc}") from None
    finally:
        source.close()
    tmp.replace(dst)
    for old in list_backups(data_dir)[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)
    return dst


def _check_backup(path: Path) -> int:
    """The number of events in a backup, after checking it is whole."""
    found = damage(path)
    if found:
        raise LogError(f"{path} is damaged: {found[0].splitlines()[-1]}; choose another backup")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise LogError(f"{path} is not a table log: {exc}") from None
    finally:
        db.close()


def restore(data_dir: str | Path, source: str | Path | None = None) -> dict[str, Any]:
    """Put a backup back as ``DATA_DIR/table.sqlite`` (stop ``companion serve`` first).

    The current log, if any, is kept as ``table.before-restore-STAMP.sqlite``."""
    data_dir = Path(data_dir)
    if source is None:
        found = list_backups(data_dir)
        if not found:
            raise CompanionError(f"no backup in {_backups_dir(data_dir)}")
        src = found[-1]
    else:
        src = Path(source)
        if not src.exists():
            raise CompanionError(f"no such backup: {src}")
    events = _check_backup(src)
    log = data_dir / "table.sqlite"
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = None
    if log.exists():
        kept = data_dir / f"table.before-restore-{stamp}.sqlite"
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(log) + suffix)
            if part.exists():
                part.replace(Path(str(kept) + suffix))
    tmp = data_dir / "table.restoring"
    s = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    try:
        t = sqlite3.connect(str(tmp))
        try:
            s.backup(t)
        finally:
            t.close()
    finally:
        s.close()
    tmp.replace(log)
    return {"restored_from": str(src), "events": events, "previous_log_kept_as": str(kept) if kept else None}


class AutoBackup:
    """The backups ``companion serve`` takes by itself: at start (when the newest is
    older than a day), daily, and at each new game. Failures are reported, never raised
    into play."""

    def __init__(self, data_dir: Path, report: Callable[[str], None], interval_s: float = 3600.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.data_dir = Path(data_dir)
        self.report = report
        self.interval_s = interval_s
        self.clock = clock
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def newest_age_s(self) -> float | None:
        found = list_backups(self.data_dir)
        return self.clock() - found[-1].stat().st_mtime if found else None

    def take(self, reason: str) -> Path | None:
        with self._lock:
            try:
                return backup(self.data_dir, reason)
            except CompanionError as exc:
                self.report(f"backup ({reason}) not taken: {exc}")
                return None

    def daily_if_due(self) -> Path | None:
        age = self.newest_age_s()
        if age is None or age >= DAY_S:
            return self.take("daily")
        return None

    def on_applied(self, applied: Any) -> threading.Thread | None:
        """A :meth:`TableService.on_applied` listener: back up at each new game (in a
        thread of its own: the post that started the game does not wait for it)."""
        if getattr(applied.event, "type", None) != "table.new_game":
            return None
        t = threading.Thread(target=self.take, args=("new-game",), daemon=True)
        t.start()
        return t

    def start(self) -> None:
        self.daily_if_due()

        def loop() -> None:
            while not self._stop.wait(self.interval_s):
                self.daily_if_due()

        self._thread = threading.Thread(target=loop, name="auto-backup", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()


# -- command line ---------------------------------------------------------------------
def _data_dir(args: argparse.Namespace) -> Path:
    return Path(args.data) if args.data else default_data_dir()


def _cmd_backup(args: argparse.Namespace) -> int:
    data_dir = _data_dir(args)
    if args.list:
        found = list_backups(data_dir)
        for p in found:
            print(p)
        if not found:
            print(f"aucune sauvegarde / no backup in {_backups_dir(data_dir)}")
        return 0
    dst = backup(data_dir, "manual")
    print(f"sauvegarde / backup: {dst}")
    return 0


def _cmd_restore(args: argparse.Namespace) -> int:
    out = restore(_data_dir(args), args.backup)
    print(f"restauré / restored: {out['restored_from']} ({out['events']} événements / events)")
    if out["previous_log_kept_as"]:
        print(f"  l'ancien journal est gardé / the previous log is kept: {out['previous_log_kept_as']}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("backup", help="back up the table log now (SQLite backup API) or --list the backups")
    p.add_argument("--data", type=Path, default=None, help="the table's folder (default: the per-user data folder)")
    p.add_argument("--list", action="store_true", help="list the backups, oldest first")
    p.set_defaults(func=_cmd_backup)
    p = sub.add_parser("restore", help="put a backup back as the table log (stop `companion serve` first)")
    p.add_argument("backup", nargs="?", type=Path, default=None, help="the backup file (default: the newest)")
    p.add_argument("--data", type=Path, default=None, help="the table's folder (default: the per-user data folder)")
    p.set_defaults(func=_cmd_restore)
