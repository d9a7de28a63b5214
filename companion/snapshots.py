"""Snapshots of the fold: start-up and undo that do not grow with the log.

A long campaign's log only grows; folding all of it at every start costs 0.125 ms per
event (12 s at 100,000 events), and keeping a frame per event costs memory. So the table
keeps, beside its log ``table.sqlite``, a cache ``table.snapshots.sqlite``:

- ``snapshots``: every :data:`SNAPSHOT_EVERY` events of the log, the table after that
  event: the sequence numbers of the effective events (delta-coded, compressed), the top
  :attr:`~companion.table.Table.keep` frames and the events set aside as refused. Each is
  stamped with :func:`rules_version`, a hash of the rules' source code and data, and with
  a fingerprint of the log's event it was taken after.
- ``outcomes``: what every applied event did, one compressed batch per interval between
  snapshots, written with the snapshot that ends it, so history pages
  (``/api/log?before=...``) show outcomes without folding anything.

Start-up (:func:`open_table`) takes the latest snapshot whose stamp is this rules code's
and whose event is still the log's, and folds only the events after it. A snapshot of
other rules code is never trusted: it is deleted and the fold is done again from the
first event, writing new snapshots as it goes. The cache may be deleted at any time; it
only costs one long start-up. The log stays the only record of play.

The payload is a :mod:`pickle` of the table's own frozen values. Only the companion
writes it, in the table's own data folder, next to the log it could rewrite anyway.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.util
import json
import pickle
import sqlite3
import sys
import threading
import zlib
from array import array
from itertools import accumulate
from pathlib import Path
from typing import Any, Iterable, Sequence

from .errors import CompanionError, InvariantError
from .events import Event
from .games import GAMES, Outcome
from .log import TableLog
from .table import Applied, Frame, Table

__all__ = [
    "SNAPSHOT_EVERY", "SnapshotStore", "open_table", "rules_version", "snapshot_path", "fingerprint",
]

#: Events of the log between two snapshots.
SNAPSHOT_EVERY = 500
#: Events read from the log at a time when folding a tail.
_CHUNK = 5000
#: Snapshots older than this many intervals are thinned to one in ten.
_KEEP_RECENT = 10

_SCHEMA = """
CREATE TABLE IF NOT EXISTS snapshots (
    seq         INTEGER PRIMARY KEY,
    version     TEXT NOT NULL,
    depth       INTEGER NOT NULL,
    top_seq     INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    payload     BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS outcomes (
    first   INTEGER PRIMARY KEY,
    last    INTEGER NOT NULL,
    version TEXT NOT NULL,
    data    BLOB NOT NULL
);
"""

_ROOT = Path(__file__).resolve().parent
_RULES_FILES = ("table.py", "events.py", "errors.py", "dice.py", "snapshots.py", "games", "odds", "data")
_version_cache: dict[tuple[tuple[str, str], ...], str] = {}


def rules_version() -> str:
    """A hash of the code and data the fold depends on: the table, the events, the
    registered games' packages (plug-ins too), this module (the snapshot format) and the
    Python version. Any change to a rule, however small, gives another version, so no
    snapshot outlives its rules."""
    key = tuple(sorted(GAMES.items()))
    if key in _version_cache:
        return _version_cache[key]
    h = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}\n".encode())
    files: set[Path] = set()
    for name in _RULES_FILES:
        path = _ROOT / name
        if path.is_dir():
            files.update(p for p in path.rglob("*") if p.is_file())
        else:
            files.add(path)
    for target in GAMES.values():
        files.update(_module_files(target.split(":", 1)[0]))
    for path in sorted(files):
        if path.suffix in (".pyc", ".pyo") or "__pycache__" in path.parts:
            continue
        # The name inside the package (not where it is installed), then the content.
        name = str(path.relative_to(_ROOT)) if path.is_relative_to(_ROOT) else path.name
        h.update(name.encode() + b"\0")
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"missing")
        h.update(b"\0")
    version = h.hexdigest()[:32]
    _version_cache[key] = version
    return version


def _module_files(module: str) -> list[Path]:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return []
    if spec is None or spec.origin is None:
        return []
    if spec.submodule_search_locations:
        return [p for loc in spec.submodule_search_locations for p in Path(loc).rglob("*.py")]
    return [Path(spec.origin)]


def fingerprint(event: Event) -> str:
    """What ties a snapshot to its log: a hash of the event it was taken after."""
    text = json.dumps(event.to_json(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def snapshot_path(log_path: Path) -> Path:
    """``table.sqlite`` -> ``table.snapshots.sqlite`` in the same folder."""
    return log_path.with_name(log_path.stem + ".snapshots" + (log_path.suffix or ".sqlite"))


def _encode_seqs(seqs: Sequence[int]) -> bytes:
    deltas = array("q", (b - a for a, b in zip([0, *seqs], seqs)))
    return zlib.compress(deltas.tobytes(), 6)


def _decode_seqs(blob: bytes) -> array[int]:
    deltas = array("q")
    deltas.frombytes(zlib.decompress(blob))
    return array("q", accumulate(deltas))


class SnapshotStore:
    """The snapshot cache of one log; the :class:`~companion.table.FrameSource` of the
    server's table. Thread-safe (one lock); every failure to write only costs speed."""

    def __init__(self, log: TableLog, path: str | Path | None = None, every: int = SNAPSHOT_EVERY,
                 version: str | None = None) -> None:
        self.log = log
        self.path = Path(path) if path is not None else snapshot_path(log.path)
        self.every = max(1, every)
        self.version = version or rules_version()
        #: Problems with the cache itself (shown with the log's, never fatal).
        self.problems: list[str] = []
        self.last_seq = 0
        self._pending: dict[int, tuple[Outcome, ...]] = {}
        self._batch: tuple[int, int, dict[int, tuple[Outcome, ...]]] | None = None  # the last batch read
        self._lock = threading.Lock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        for attempt in (1, 2):
            try:
                db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.executescript(_SCHEMA)
                db.execute("SELECT COUNT(*) FROM snapshots").fetchone()
                return db
            except sqlite3.DatabaseError as exc:
                if attempt == 2:
                    raise CompanionError(f"cannot open the snapshot cache {self.path}: {exc}") from None
                self.problems.append(f"snapshot cache {self.path.name} unreadable ({exc}): rebuilt")
                for suffix in ("", "-wal", "-shm"):
                    Path(str(self.path) + suffix).unlink(missing_ok=True)
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- start-up -----------------------------------------------------------------
    def load(self, table: Table) -> int:
        """Restore ``table`` from the latest valid snapshot; return the sequence number
        the log must be folded after (0: no valid snapshot, fold everything)."""
        with self._lock:
            self._db.execute("DELETE FROM snapshots WHERE version != ?", (self.version,))
            self._db.execute("DELETE FROM outcomes WHERE version != ?", (self.version,))
            rows = self._db.execute("SELECT seq, fingerprint FROM snapshots ORDER BY seq DESC").fetchall()
        for seq, fp in rows:
            at = list(self.log.events(after=seq - 1, upto=seq))
            if not at or fingerprint(at[0]) != fp:
                continue  # the log is not the one this snapshot was taken of (restored, replaced)
            restored = self._payload(seq)
            if restored is None:
                continue
            seqs, frames, skipped, problems = restored
            table.restore(seqs, frames, skipped)
            for p in problems:
                if p not in self.log.problems:
                    self.log.problems.append(p)
            self._forget_after(seq)
            self.last_seq = seq
            folded_after: int = seq
            return folded_after
        self._forget_after(0)
        return 0

    def _forget_after(self, seq: int) -> None:
        with self._lock:
            self._db.execute("DELETE FROM snapshots WHERE seq > ?", (seq,))
            self._db.execute("DELETE FROM outcomes WHERE last > ?", (seq,))
        self._batch = None
        self._pending = {k: v for k, v in self._pending.items() if k <= seq}

    def _payload(self, seq: int) -> tuple[array[int], list[Frame], list[tuple[Event, str]], list[str]] | None:
        with self._lock:
            row = self._db.execute("SELECT payload FROM snapshots WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            return None
        try:
            obj = pickle.loads(zlib.decompress(row[0]))
            return _decode_seqs(obj["seqs"]), list(obj["frames"]), list(obj["skipped"]), list(obj["problems"])
        except Exception as exc:  # a damaged cache row: fold from an older one instead
            self.problems.append(f"snapshot after event {seq} unreadable ({type(exc).__name__}): not used")
            return None

    # -- FrameSource --------------------------------------------------------------
    def base(self, seqs: Sequence[int], depth: int) -> tuple[int, list[Frame]]:
        """The latest snapshot whose effective events are a prefix of ``seqs[:depth]``.

        Sequence numbers are never reused, so a snapshot whose top event is still at the
        same depth of the stack has exactly the same events below it."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, depth, top_seq FROM snapshots WHERE depth > 0 AND depth <= ?"
                " ORDER BY depth DESC, seq DESC", (depth,)).fetchall()
        for seq, d, top_seq in rows:
            if seqs[d - 1] != top_seq:
                continue
            restored = self._payload(seq)
            if restored is not None and restored[1] and restored[1][-1].event.seq == top_seq:
                return d, restored[1]
        return 0, []

    def events(self, seqs: Sequence[int]) -> list[Event]:
        if not seqs:
            return []
        wanted = set(seqs)
        out: list[Event] = []
        lo = seqs[0] - 1
        while lo < seqs[-1]:
            hi = min(seqs[-1], lo + _CHUNK)
            out.extend(e for e in self.log.events(after=lo, upto=hi) if e.seq in wanted)
            lo = hi
        return out

    # -- writing ------------------------------------------------------------------
    def note(self, applied: Applied) -> None:
        """Remember what an applied event did (stored with the next snapshot)."""
        seq = applied.event.seq
        if seq is not None:
            self._pending[seq] = applied.outcomes

    def due(self, seq: int) -> bool:
        return seq - self.last_seq >= self.every

    def maybe_snapshot(self, table: Table, seq: int) -> None:
        if self.due(seq):
            self.snapshot(table, seq)

    def snapshot(self, table: Table, seq: int) -> None:
        """Store ``table`` as it is after the log's event ``seq`` (already in the log)."""
        at = list(self.log.events(after=seq - 1, upto=seq))
        if not at:
            return
        payload = zlib.compress(pickle.dumps({
            "seqs": _encode_seqs(table.seqs),
            "frames": table.frames[-table.keep:],
            "skipped": table.skipped,
            "problems": list(self.log.problems),
        }, protocol=pickle.HIGHEST_PROTOCOL), 1)
        top_seq = table.seqs[-1] if table.depth else 0
        pending = {s: o for s, o in self._pending.items() if s <= seq}
        batch = zlib.compress(pickle.dumps(pending, protocol=pickle.HIGHEST_PROTOCOL), 1)
        old = self.every * _KEEP_RECENT
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)",
                                 (seq, self.version, table.depth, top_seq, fingerprint(at[0]), payload))
                if pending:
                    self._db.execute("INSERT OR REPLACE INTO outcomes VALUES (?, ?, ?, ?)",
                                     (min(pending), max(pending), self.version, batch))
                # Old snapshots are only bases for deep undos: keep one in ten of them.
                self._db.execute(
                    "DELETE FROM snapshots WHERE seq < ? AND seq NOT IN"
                    " (SELECT MAX(seq) FROM snapshots WHERE seq < ? GROUP BY seq / ?)",
                    (seq - old, seq - old, old))
                self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            try:
                with self._lock:
                    self._db.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass
            self.problems.append(f"snapshot after event {seq} not written ({exc})")
            return
        for s in pending:
            self._pending.pop(s, None)
        self.last_seq = seq

    # -- history ------------------------------------------------------------------
    def outcomes(self, seqs: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
        """What the events ``seqs`` did, for those applied and remembered."""
        out: dict[int, list[dict[str, Any]]] = {}
        missing = []
        for s in seqs:
            if s in self._pending:
                out[s] = [o.to_json() for o in self._pending[s]]
            else:
                missing.append(s)
        if not missing:
            return out
        batches = [self._batch] if self._batch is not None else []
        if not batches or not all(batches[0][0] <= s <= batches[0][1] for s in missing):
            with self._lock:
                rows = self._db.execute("SELECT first, last, data FROM outcomes WHERE last >= ? AND first <= ?",
                                        (min(missing), max(missing))).fetchall()
            batches = []
            for first, last, data in rows:
                try:
                    batches.append((first, last, pickle.loads(zlib.decompress(data))))
                except Exception:  # a damaged cache row: those outcomes are not shown
                    continue
            if batches:
                self._batch = batches[-1]  # a page usually falls in one batch: the next reuses it
        for _, _, found in batches:
            out.update((s, [o.to_json() for o in found[s]]) for s in missing if s in found)
        return out


def open_table(log: TableLog, store: SnapshotStore, keep: int = 64, max_frames: int = 256) -> Table:
    """The table of ``log``: the latest valid snapshot and the events after it folded
    (refused ones set aside in ``table.skipped``, as :meth:`Table.replay` does), with
    new snapshots written as the fold passes them."""
    table = Table(source=store, keep=keep, max_frames=max_frames)
    after = store.load(table)
    fold_log(table, store, after)
    return table


def fold_log(table: Table, store: SnapshotStore, after: int) -> None:
    """Fold the log's events after ``after`` into ``table`` (read a chunk at a time).

    Far from the end of the log only one snapshot in ten is written: the others would be
    thinned out at once (old snapshots only serve deep undos)."""
    last = store.log.last_seq()
    recent = last - store.every * _KEEP_RECENT
    # a damaged log is folded from what can be read; that fold is not one to cache
    cache = not store.log.damaged
    gc_was_on = gc.isenabled()
    gc.disable()  # the fold makes no cycles; the collector would only walk the states
    try:
        while after < last:
            upto = min(last, after + _CHUNK)
            for ev in store.log.events(after=after, upto=upto):
                try:
                    store.note(table.apply(ev))
                except CompanionError as exc:
                    table.skipped.append((ev, str(exc)))
                if ev.seq is None:
                    raise InvariantError("an event read from the log has no sequence number")
                if cache and (ev.seq > recent or ev.seq - store.last_seq >= store.every * _KEEP_RECENT):
                    store.maybe_snapshot(table, ev.seq)
            after = upto
    finally:
        if gc_was_on:
            gc.enable()
