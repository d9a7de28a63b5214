"""The table service: the log, the fold and the live feed, behind one lock.

:class:`TableService` is what the web app, the tray and the camera talk to. It has no
Flask in it, so it is tested directly. ``submit`` is the only way in:

1. parse and check the event against the folded table (the rules run first: a refused
   event is never written);
2. append it to the SQLite log (one transaction; acknowledged only once on disk);
3. keep its frame in the fold and publish the result to every subscriber (tablets).

Start-up folds the log from its latest valid snapshot (:mod:`companion.snapshots`): the
cost of start-up, of a state read and of a submit does not grow with the log. An event the
current rules refuse on replay (a log written by another version, say) is kept in the log
and reported in ``table.skipped``; play goes on.
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from .errors import CompanionError, InvariantError
from .events import Event, Source, parse_event
from .log import TableLog
from .snapshots import SNAPSHOT_EVERY, SnapshotStore, open_table
from .table import Applied, Table, history_entry

__all__ = ["TableService", "Broker", "Subscription"]


@dataclass(eq=False)
class Subscription:
    """One listener (a tablet's event stream). ``queue`` holds ``(name, json_text)``."""

    queue: "queue.Queue[tuple[str, str]]"
    dropped: int = 0
    #: Called (from the publishing thread) after each message is queued: an event-loop
    #: server waits on this instead of holding a thread in ``queue.get``.
    wake: Callable[[], None] | None = None
    #: Set when the server shuts down: the stream ends.
    closed: bool = False


class Broker:
    """Fan-out of published messages to subscribers, with bounded queues.

    A tablet that stops reading (asleep, gone) is dropped once its queue is full, so a
    slow client never blocks the table; on reconnecting it refetches the whole state.
    """

    def __init__(self, maxsize: int = 256) -> None:
        self._subs: set[Subscription] = set()
        self._lock = threading.Lock()
        self._maxsize = maxsize

    def subscribe(self) -> Subscription:
        sub = Subscription(queue.Queue(self._maxsize))
        with self._lock:
            self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subs.discard(sub)

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._subs)

    def publish(self, name: str, payload: Mapping[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            try:
                sub.queue.put_nowait((name, data))
            except queue.Full:
                sub.dropped += 1
                self.unsubscribe(sub)
                try:  # tell the client to resync when it comes back
                    sub.queue.get_nowait()
                    sub.queue.put_nowait(("resync", "{}"))
                except (queue.Empty, queue.Full):
                    pass
            if sub.wake is not None:
                sub.wake()


class TableService:
    """One table: its log on disk, its folded state, its live feed."""

    def __init__(self, log_path: str | Path, history_limit: int = 60, snapshot_every: int = SNAPSHOT_EVERY,
                 keep_frames: int = 64, max_frames: int = 256) -> None:
        self.log = TableLog(log_path)
        self.snapshots = SnapshotStore(self.log, every=snapshot_every)
        keep = max(keep_frames, history_limit)
        self.table: Table = open_table(self.log, self.snapshots, keep=keep, max_frames=max(keep, max_frames))
        self.broker = Broker()
        self.history_limit = history_limit
        self._lock = threading.RLock()
        #: Device status shown on every tablet (tray, camera): name -> dict.
        self.devices: dict[str, dict[str, Any]] = {}
        self._listeners: list[Callable[[Applied], None]] = []
        #: Bumped by every change the state's JSON shows; keys the cached text.
        self._changes = 0
        self._state_text: tuple[tuple[int, int, int], str] | None = None

    # -- reading --------------------------------------------------------------------
    def state_json(self) -> dict[str, Any]:
        with self._lock:
            out = self.table.to_json(history_limit=self.history_limit)
        out["devices"] = dict(self.devices)
        out["problems"] = list(self.log.problems) + list(self.snapshots.problems)
        out["read_only"] = bool(self.log.damaged)
        return out

    def state_text(self) -> str:
        """:meth:`state_json` as JSON text, encoded once per change of the table (a state
        read between two events costs a lookup, however many tablets ask)."""
        key = (self._changes, len(self.log.problems), len(self.snapshots.problems))
        cached = self._state_text
        if cached is not None and cached[0] == key:
            return cached[1]
        text = json.dumps(self.state_json(), ensure_ascii=False, separators=(",", ":"))
        self._state_text = (key, text)
        return text

    def events_json(self, after: int = 0) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.log.events(after=after)]

    def log_page(self, before: int | None = None, limit: int = 50) -> dict[str, Any]:
        """One page of the log, newest first: ``limit`` stored events before ``before``
        with what each did and whether it still counts (``undone``: cancelled by an undo;
        ``refused``: set aside on replay). Costs the page, whatever the log's length."""
        limit = max(0, min(limit, 500))
        events = self.log.page(before, limit + 1)
        more = len(events) > limit
        events = events[:limit]
        with self._lock:
            refused = {e.seq for e, _ in self.table.skipped}
            effective = {e.seq: self.table.is_effective(e.seq) for e in events if e.seq is not None}
            outcomes = self.snapshots.outcomes(effective)
        entries = []
        for ev in events:
            seq = ev.seq or 0  # stored events always have one
            entry = history_entry(ev, ())
            entry["outcomes"] = outcomes.get(seq, [])
            entry["refused"] = seq in refused
            entry["undone"] = not entry["refused"] and ev.type != "undo" and not effective.get(seq, False)
            entries.append(entry)
        return {"events": entries, "before": events[-1].seq if events else None, "more": more}

    # -- writing --------------------------------------------------------------------
    def submit(self, obj: Any, source: Source | None = None, by: str | None = None) -> Applied:
        """Check, store and publish one event given as a JSON-like object or Event.

        Raises :class:`CompanionError` (a ``ValueError``) with a clear message when the
        event is malformed or refused; then nothing is written or published.
        """
        return self._submit(obj, source, by, None)

    def fate(self, client_id: str) -> dict[str, Any] | None:
        """What became of the post with ``client_id``: its stored event (and outcomes
        while it is on the table), or None if it was never recorded."""
        with self._lock:
            seq = self.log.seq_for(client_id)
            if seq is None:
                return None
            for frame in reversed(self.table.frames):
                if frame.event.seq == seq:
                    return Applied(frame.event, frame.outcomes).to_json()
            for ev in self.log.events(after=seq - 1):
                return {"event": ev.to_json(), "outcomes": [], "on_table": False}
            return {"event": {"seq": seq}, "outcomes": []}

    def submit_once(self, obj: Any, client_id: str | None, source: Source | None = None,
                    by: str | None = None) -> tuple[Applied | dict[str, Any], bool]:
        """:meth:`submit` for a post that may be a retry: with a ``client_id`` already
        stored, nothing is entered again and ``(fate, True)`` is returned (the stored
        event as JSON); else ``(applied, False)``."""
        if client_id is not None:
            with self._lock:
                known = self.fate(client_id)
                if known is not None:
                    return known, True
                return self._submit(obj, source, by, client_id), False
        return self._submit(obj, source, by, None), False

    def _submit(self, obj: Any, source: Source | None, by: str | None, client_id: str | None) -> Applied:
        event = obj if isinstance(obj, Event) else parse_event(obj)
        if event.seq is not None or event.at is not None:
            # Sequence and time are the log's to give.
            event = Event(event.type, event.data, event.source, None, None, event.by)
        if source is not None:
            event = Event(event.type, event.data, source, None, None, event.by)
        if by is not None:
            event = Event(event.type, event.data, event.source, None, None, by)
        with self._lock:
            seq = self.log.next_seq()
            # The rules run once, before the write: a refused event is never stored.
            prepared = self.table.prepare(event.with_seq(seq))
            stored = self.log.append(event, client_id)
            if stored.seq != seq:  # another writer took that number: fold again with ours
                prepared = self.table.prepare(stored)
            applied = self.table.commit(prepared, stored)
            self._changes += 1
            self.snapshots.note(applied)
            if stored.seq is None:
                raise InvariantError("the log stored an event without a sequence number")
            self.snapshots.maybe_snapshot(self.table, stored.seq)
            payload = {"applied": applied.to_json(), "state": self.table.to_json(history_limit=self.history_limit)}
            payload["state"]["devices"] = dict(self.devices)
            self.broker.publish("table", payload)
        for listener in list(self._listeners):
            try:
                listener(applied)
            except Exception:  # a listener's bug must not break the table
                pass
        return applied

    def on_applied(self, listener: Callable[[Applied], None]) -> None:
        self._listeners.append(listener)

    def set_device(self, name: str, status: Mapping[str, Any]) -> None:
        """Record a device's status (connected, message...) and tell every tablet."""
        self.devices[name] = dict(status)
        self._changes += 1
        self.broker.publish("devices", {"devices": dict(self.devices)})

    def close(self) -> None:
        self.snapshots.close()
        self.log.close()


def load_json_file(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CompanionError(f"cannot read {path}: {exc}") from None
