"""The table log: an append-only event store in SQLite, and JSON-lines logs.

SQLite in WAL mode with ``synchronous=FULL``: :meth:`TableLog.append` returns only after
the event's transaction is on disk, so a power cut (or SIGKILL) on the Pi loses nothing
that was acknowledged. Nothing is ever updated or deleted: undo and corrections are
events too.

A row that cannot be decoded (a corrupt line) is reported and skipped on reading, never
deleted: :meth:`TableLog.events` yields what it can and collects the problems in
:attr:`TableLog.problems`.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
import threading
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from .errors import EventError, InvariantError, LogError
from .events import Event, event_from_json_line, parse_event
from .salvage import Salvage, salvage_db

__all__ = ["TableLog", "read_jsonl", "write_jsonl", "load_events", "utc_now"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq    INTEGER PRIMARY KEY AUTOINCREMENT,
    at     TEXT NOT NULL,
    type   TEXT NOT NULL,
    source TEXT NOT NULL,
    by     TEXT,
    data   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS client_ids (id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
"""


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class TableLog:
    """Append-only SQLite event store. Safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.problems: list[str] = []
        #: What SQLite's check found wrong with the file; a damaged log is read-only
        #: (see :mod:`companion.recover`).
        self.damaged: list[str] = []
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            if self.path.stat().st_size > 0:
                found = [str(r[0]) for r in self._db.execute("PRAGMA quick_check").fetchall()]
                if found != ["ok"]:
                    self.damaged = found
                    first = found[0].replace("*** in database main ***", "").strip().splitlines()[0]
                    self.problems.append(f"the table log is damaged ({first}): read-only; what can be read is "
                                         "shown; run `companion recover` to save it into a new log")
                    return
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise LogError(
                    f"{self.path} was written by a newer companion (schema {row[0]}); upgrade first"
                )
        except sqlite3.DatabaseError as exc:
            raise LogError(f"cannot open the table log {self.path}: {exc}; restore a backup with "
                           "`companion restore` (see docs/storage.md)") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "TableLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def append(self, event: Event, client_id: str | None = None) -> Event:
        """Store ``event`` in its own transaction; return it with ``seq`` and ``at``.

        ``client_id`` (the id a tablet gave its post) is stored in the same transaction,
        so a retry of the same post can be recognised (:meth:`seq_for`) even after a
        restart. The event itself, and so every export and replay, is unchanged.
        """
        if self.damaged:
            raise LogError("the table log is damaged and read-only: run `companion recover`")
        at = event.at or utc_now()
        payload = json.dumps(dict(event.data), ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    cur = self._db.execute(
                        "INSERT INTO events (at, type, source, by, data) VALUES (?, ?, ?, ?, ?)",
                        (at, event.type, event.source.value, event.by, payload),
                    )
                    if client_id is not None:
                        self._db.execute("INSERT INTO client_ids VALUES (?, ?)", (client_id, cur.lastrowid))
                    self._db.execute("COMMIT")
                except BaseException:
                    # Whatever failed (a disk error, text SQLite cannot encode), the
                    # transaction must not stay open for the next event.
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.DatabaseError as exc:
                raise LogError(f"could not write to the table log: {exc}") from None
            except (UnicodeError, ValueError) as exc:
                raise EventError(f"the event cannot be stored: {exc}") from None
        seq = cur.lastrowid
        if seq is None:
            raise InvariantError("SQLite gave no row id for the event just inserted")
        return event.with_seq(seq, at)

    def _salvaged(self) -> Salvage:
        """A damaged log read row by row (see :mod:`companion.salvage`)."""
        with self._lock:
            return salvage_db(self._db)

    def seq_for(self, client_id: str) -> int | None:
        """The seq of the event stored with ``client_id``, or None."""
        if self.damaged:
            return None
        with self._lock:
            row = self._db.execute("SELECT seq FROM client_ids WHERE id=?", (client_id,)).fetchone()
        return int(row[0]) if row else None

    def next_seq(self) -> int:
        """The sequence number the next appended event will get."""
        if self.damaged:
            raise LogError("the table log is damaged and read-only: run `companion recover`")
        with self._lock:
            row = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name='events'").fetchone()
        return (row[0] if row else 0) + 1

    def last_seq(self) -> int:
        """The highest sequence number stored (of the readable rows, on a damaged log)."""
        if self.damaged:
            return max((e.seq or 0 for e in self._salvaged().events), default=0)
        return self.next_seq() - 1

    def count(self) -> int:
        if self.damaged:
            return len(self._salvaged().events)
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def events(self, after: int = 0, upto: int | None = None) -> Iterator[Event]:
        """Stored events with ``after < seq <= upto`` in order (every one by default);
        undecodable rows are skipped and reported. A damaged log is read row by row."""
        top = upto if upto is not None else 2**62
        if self.damaged:
            got = self._salvaged()
            for text in [f"event {seq}: on a damaged page, unreadable, skipped" for seq in got.lost
                         if after < seq <= top]:
                if text not in self.problems:
                    self.problems.append(text)
            return iter([e for e in got.events if after < (e.seq or 0) <= top])
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, at, type, source, by, data FROM events WHERE seq > ? AND seq <= ? ORDER BY seq",
                (after, top),
            ).fetchall()
        return self._decode(rows)

    def page(self, before: int | None = None, limit: int = 50) -> list[Event]:
        """At most ``limit`` stored events with ``seq < before``, newest first (one page of
        history: an index range, whatever the log's length)."""
        if self.damaged:
            got = [e for e in self._salvaged().events if (e.seq or 0) < (before if before is not None else 2**62)]
            return list(reversed(got))[: max(0, limit)]
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, at, type, source, by, data FROM events WHERE seq < ? ORDER BY seq DESC LIMIT ?",
                (before if before is not None else 2**62, max(0, limit)),
            ).fetchall()
        return list(self._decode(rows))

    def append_batch(self, events: Iterable[Event]) -> None:
        """Store events that already carry their ``seq`` (increasing, above every stored
        one) and ``at`` in one transaction: the bulk path of ``companion import``."""
        if self.damaged:
            raise LogError("the table log is damaged and read-only: run `companion recover`")
        rows = [(ev.seq, ev.at or utc_now(), ev.type, ev.source.value, ev.by,
                 json.dumps(dict(ev.data), ensure_ascii=False, separators=(",", ":"))) for ev in events]
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT INTO events (seq, at, type, source, by, data) VALUES (?, ?, ?, ?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.DatabaseError:
                    pass
                raise LogError(f"could not write to the table log: {exc}") from None

    def _decode(self, rows: list[tuple[int, str, str, str, str | None, str]]) -> Iterator[Event]:
        for seq, at, etype, source, by, data in rows:
            try:
                obj = {"seq": seq, "at": at, "type": etype, "source": source, "data": json.loads(data)}
                if by is not None:
                    obj["by"] = by
                yield parse_event(obj)
            except (json.JSONDecodeError, EventError) as exc:
                self.problems.append(f"event {seq}: unreadable, skipped ({exc})")


def read_jsonl(stream: IO[str] | Iterable[str], strict: bool = True) -> list[Event]:
    """Parse a JSON-lines log. Blank lines and lines starting with ``#`` are comments.

    With ``strict`` a bad line raises :class:`EventError` naming the line; otherwise bad
    lines are skipped.
    """
    events: list[Event] = []
    for lineno, line in enumerate(stream, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            events.append(event_from_json_line(stripped, lineno))
        except EventError:
            if strict:
                raise
    # Give events without a seq consecutive numbers, as the SQLite log would.
    out: list[Event] = []
    last = 0
    for ev in events:
        if ev.seq is None:
            ev = ev.with_seq(last + 1)
        elif ev.seq <= last:
            raise EventError(f"event sequence numbers must increase (got {ev.seq} after {last})")
        last = ev.seq or last
        out.append(ev)
    return out


def write_jsonl(events: Iterable[Event], stream: IO[str]) -> None:
    for ev in events:
        stream.write(json.dumps(ev.to_json(), ensure_ascii=False) + "\n")


def load_events(path: Path, strict: bool, warn: Callable[[str], None]) -> list[Event]:
    """The events of a table log (``.sqlite``, ``.db``, ``.sqlite3``) or of a JSON-lines
    file (``strict``: a bad line raises, else it is skipped); ``warn`` hears each problem
    found in a SQLite log. Used by ``companion replay``, ``export`` and ``stats``."""
    if not path.exists():
        raise LogError(f"no such file: {path}")
    if path.suffix in {".sqlite", ".db", ".sqlite3"}:
        with TableLog(path) as log:
            events = list(log.events())
            for problem in log.problems:
                warn(problem)
            return events
    with path.open(encoding="utf-8") as fh:
        return read_jsonl(fh, strict=strict)
