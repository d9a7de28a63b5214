"""Reading a table log row by row, so that a damaged page loses only its own rows.

SQLite keeps rows in pages; a damaged page makes every query that crosses it fail with
"database disk image is malformed". :func:`salvage_db` reads rows a chunk of sequence
numbers at a time, and one at a time within a chunk that fails. :class:`~companion.log.TableLog`
uses it to open a damaged log read-only; :mod:`companion.recover` to write a new one.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from .errors import EventError
from .events import Event, parse_event

__all__ = ["Salvage", "salvage_db"]

#: Sequence numbers read per query (one at a time inside a chunk that fails).
_CHUNK = 256
#: Missing numbers in a row that end the search when the last number given is unknown.
_GAP = 5000


@dataclass
class Salvage:
    """What could be read from a log."""

    events: list[Event] = field(default_factory=list)
    #: Sequence numbers whose row could not be read (or decoded).
    lost: list[int] = field(default_factory=list)
    client_ids: list[tuple[str, int]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    last_seq: int = 0


def _row_event(row: tuple[Any, ...]) -> Event:
    seq, at, etype, source, by, data = row
    obj: dict[str, Any] = {"seq": seq, "at": at, "type": etype, "source": source, "data": json.loads(data)}
    if by is not None:
        obj["by"] = by
    return parse_event(obj)


def _last_seq(db: sqlite3.Connection) -> int:
    best = 0
    for sql in ("SELECT seq FROM sqlite_sequence WHERE name='events'", "SELECT max(seq) FROM events"):
        try:
            row = db.execute(sql).fetchone()
            if row and row[0]:
                best = max(best, int(row[0]))
        except sqlite3.DatabaseError:
            pass
    return best


def salvage_db(db: sqlite3.Connection) -> Salvage:
    """Every readable event of an open connection: read a chunk of numbers at a time,
    and one row at a time within a chunk that crosses a damaged page."""
    out = Salvage()
    known = _last_seq(db)
    sql = "SELECT seq, at, type, source, by, data FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq"
    start, misses = 1, 0
    while True:
        if start > known and misses >= (_CHUNK if known else _GAP):
            break
        end = start + _CHUNK - 1
        try:
            rows = db.execute(sql, (start, end)).fetchall()
            # A scan across a damaged interior page may skip rows without an error: a
            # chunk that should be full (numbers have no holes) is read again row by row.
            whole = len(rows) == min(end, known) - start + 1 or start > known
        except sqlite3.DatabaseError:
            whole = False
        if not whole:
            rows = []
            for seq in range(start, end + 1):
                try:
                    row = db.execute(sql, (seq, seq)).fetchone()
                except sqlite3.DatabaseError:
                    continue
                if row is not None:
                    rows.append(row)
        misses = misses + _CHUNK if not rows else 0
        for row in rows:
            seq = int(row[0])
            out.last_seq = max(out.last_seq, seq)
            try:
                out.events.append(_row_event(row))
            except (ValueError, EventError) as exc:
                out.problems.append(f"event {seq}: unreadable ({exc})")
        start = end + 1
    # Rows are never deleted and the sequence has no holes, so every number up to the
    # last one given that was not read was lost with its page (or was already missing
    # from an earlier recovery: the report of that one says so).
    out.last_seq = max(out.last_seq, known)
    readable = {ev.seq for ev in out.events}
    out.lost = [s for s in range(1, out.last_seq + 1) if s not in readable]
    try:
        for cid, s in db.execute("SELECT id, seq FROM client_ids"):
            out.client_ids.append((str(cid), int(s)))
    except sqlite3.DatabaseError:
        out.problems.append("the client ids (retry protection) could not be read; they are not needed to play")
    return out
