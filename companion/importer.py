"""``companion import LOG.jsonl --data DIR``: a JSON-lines log into a table's folder.

Each line is checked as the server checks a submitted event: its envelope
(:func:`~companion.events.event_from_json_line`), then the rules, on the table as it
stands after the lines before it. A refused line is reported with its line number and
left out; the others are stored in batched transactions (one per :data:`BATCH` events,
``synchronous=FULL``), and snapshots are written as the fold passes them, so the first
``companion serve`` on the folder starts at once.

Sequence numbers: a line's number in the file is its ``seq``, or the number after the
previous line's (as :func:`~companion.log.read_jsonl` numbers them, refused lines
included). An event keeps it when it is above every event already stored (the software's
dice are seeded by it, so the fold gives the same state as ``companion replay`` of the
file); otherwise it takes the next free number, and an ``undo`` naming a renumbered event
by ``seq`` is renumbered with it.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterable

from .errors import CompanionError, EventError, bilingual
from .events import Event, event_from_json_line
from .log import TableLog, utc_now
from .snapshots import SnapshotStore, open_table

__all__ = ["ImportReport", "import_lines", "import_file", "BATCH"]

#: Events per transaction.
BATCH = 1000


@dataclass
class ImportReport:
    """What an import did: how many events were stored, which lines were refused."""

    imported: int = 0
    #: ``(line number, message)`` of every refused line, in order.
    refused: list[tuple[int, str]] = field(default_factory=list)
    first_seq: int | None = None
    last_seq: int | None = None


def import_file(path: Path, data_dir: Path, progress: Callable[[int], None] | None = None) -> ImportReport:
    """Import the JSON-lines file ``path`` into ``data_dir/table.sqlite``."""
    if not path.exists():
        raise bilingual(CompanionError, f"pas de fichier {path}", f"no such file: {path}")
    try:
        with path.open(encoding="utf-8") as fh:
            return import_lines(fh, data_dir / "table.sqlite", progress)
    except UnicodeDecodeError as exc:
        raise bilingual(CompanionError, f"{path} n'est pas un texte UTF-8 ({exc.reason}, octet {exc.start})",
                        f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def import_lines(lines: IO[str] | Iterable[str], log_path: Path,
                 progress: Callable[[int], None] | None = None) -> ImportReport:
    """Check and store every line of a JSON-lines log at the end of ``log_path``."""
    report = ImportReport()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    gc_was_on = gc.isenabled()
    gc.disable()  # as in every long fold: no cycles are made, the collector would only walk states
    with TableLog(log_path) as log:
        store = SnapshotStore(log)
        try:
            table = open_table(log, store)
            next_seq = log.next_seq()
            renumbered: dict[int, int] = {}
            file_seq = 0  # the file's own numbering: a line without seq is the next number
            batch: list[Event] = []

            def flush() -> None:
                if batch:
                    log.append_batch(batch)
                    batch.clear()

            for lineno, line in enumerate(lines, 1):
                stripped = line.strip()
                if not stripped or stripped.startswith("#"):
                    continue
                try:
                    ev = event_from_json_line(stripped, lineno)
                    if ev.seq is not None and ev.seq <= file_seq:
                        raise bilingual(EventError, f"les numéros d'événement doivent croître (reçu {ev.seq} après {file_seq})",
                                        f"event sequence numbers must increase (got {ev.seq} after {file_seq})")
                    file_seq = ev.seq if ev.seq is not None else file_seq + 1
                    seq = file_seq if file_seq >= next_seq else next_seq
                    data = ev.data
                    if ev.type == "undo" and isinstance(data.get("seq"), int) and data["seq"] in renumbered:
                        data = {**data, "seq": renumbered[data["seq"]]}
                    stored = Event(ev.type, data, ev.source, seq, ev.at or utc_now(), ev.by)
                    applied = table.apply(stored)
                except CompanionError as exc:
                    msg = str(exc)
                    report.refused.append((lineno, msg if msg.startswith(("line ", "ligne ")) else f"line {lineno}: {msg}"))
                    continue
                if file_seq != seq:
                    renumbered[file_seq] = seq
                store.note(applied)
                batch.append(stored)
                next_seq = seq + 1
                report.imported += 1
                report.first_seq = report.first_seq or seq
                report.last_seq = seq
                if len(batch) >= BATCH or store.due(seq):
                    flush()  # a snapshot names an event already in the log
                    store.maybe_snapshot(table, seq)
                    if progress is not None:
                        progress(report.imported)
            flush()
        finally:
            store.close()
            if gc_was_on:
                gc.enable()
    return report
