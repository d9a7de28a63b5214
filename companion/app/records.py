"""Read records: the photo, what was read, how it matched, and what became of it.

A record is a JSON object, kept in memory (the last :attr:`ReadRecords.keep`) and
appended to ``reads.jsonl`` in the camera folder each time it changes (the last line of
an id wins), so a pending read survives a restart. The table log stays the spine: the
event a read became is in the log, with its ``source``; a record only adds the photo,
the boxes and the per-die state for the tablet.

Record fields: ``id``, ``at`` (ISO time), ``photo`` (photo id or None), ``size``
``[w, h]``, ``objects`` (``{kind, value, box, confidence, status, candidates?}``; status
``read``, ``pending``, ``corrected``, ``unexpected`` or ``ignored``), ``status``
(``pending``, ``applied``, ``refused``, ``shown``, ``discarded``, ``superseded``, ``undone``, ``error``), ``type`` and
``data`` (the event), ``used`` (object indices sent), ``positions`` (their pool
positions), ``seq`` (the log event it became), ``message`` ``{fr, en}``, ``game``,
``timings`` (ms per stage), ``corrections`` (the log events correcting it), ``closed``
(a later game started: no longer shown). A corrected object keeps ``read_value`` (what
the camera read) and ``undo`` (its state before each correction event, to put back when
that event is undone).
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..errors import InvariantError

__all__ = ["ReadRecords"]


class ReadRecords:
    def __init__(self, path: str | Path | None, keep: int = 50, max_bytes: int = 8 * 2**20) -> None:
        self.path = Path(path) if path else None
        self.keep = keep
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._recs: "OrderedDict[int, dict[str, Any]]" = OrderedDict()
        self._next = 1
        if self.path is not None and self.path.exists():
            self._load()

    def _load(self) -> None:
        if self.path is None:
            raise InvariantError("read records without a file cannot be loaded")
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return
        for line in lines:
            try:
                rec = json.loads(line)
                rid = int(rec["id"])
            except (ValueError, KeyError, TypeError):
                continue  # a torn last line after a crash
            self._recs[rid] = rec
            self._recs.move_to_end(rid)
            self._next = max(self._next, rid + 1)
        while len(self._recs) > self.keep:
            self._recs.popitem(last=False)

    def new_id(self) -> int:
        with self._lock:
            rid = self._next
            self._next += 1
            return rid

    def put(self, rec: dict[str, Any]) -> None:
        line = json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            self._recs[int(rec["id"])] = rec
            self._recs.move_to_end(int(rec["id"]))
            while len(self._recs) > self.keep:
                self._recs.popitem(last=False)
            if self.path is None:
                return
            try:
                if self.path.exists() and self.path.stat().st_size > self.max_bytes:
                    self._compact()
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write(line)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError:
                pass  # the photo and the read are extras; the table log holds the play

    def _compact(self) -> None:
        if self.path is None:
            raise InvariantError("read records without a file cannot be compacted")
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for rec in self._recs.values():
                f.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
        os.replace(tmp, self.path)

    def get(self, rid: int) -> dict[str, Any] | None:
        with self._lock:
            rec = self._recs.get(int(rid))
            return json.loads(json.dumps(rec)) if rec is not None else None

    def recent(self, n: int = 10) -> list[dict[str, Any]]:
        with self._lock:
            return [json.loads(json.dumps(r)) for r in list(self._recs.values())[-n:]]

    def last(self, **match: Any) -> dict[str, Any] | None:
        with self._lock:
            for rec in reversed(self._recs.values()):
                if all(rec.get(k) == v for k, v in match.items()):
                    copy: dict[str, Any] = json.loads(json.dumps(rec))
                    return copy
        return None
