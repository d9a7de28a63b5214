from __future__ import annotations

import io
import sqlite3

import pytest

from companion.errors import EventError, LogError
from companion.events import Event, Source
from companion.log import TableLog, read_jsonl, write_jsonl


def test_append_gives_seq_and_time_and_reads_back(tmp_path):
    with TableLog(tmp_path / "t.sqlite") as log:
        a = log.append(Event("table.new_game", {"game": "dummy"}))
        b = log.append(Event("dummy.add", {"n": 3}, Source.CAMERA, by="tablet"))
        assert (a.seq, b.seq) == (1, 2)
        assert a.at and a.at.endswith("Z")
        assert log.next_seq() == 3
        back = list(log.events())
        assert back == [a, b]
        assert list(log.events(after=1)) == [b]


def test_wal_mode_and_full_sync(tmp_path):
    with TableLog(tmp_path / "t.sqlite") as log:
        assert log._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_corrupt_row_is_reported_and_skipped_not_deleted(tmp_path):
    path = tmp_path / "t.sqlite"
    with TableLog(path) as log:
        log.append(Event("table.new_game", {"game": "dummy"}))
        log.append(Event("dummy.add", {"n": 1}))
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET data='{not json' WHERE seq=2")
    db.commit()
    db.close()
    with TableLog(path) as log:
        events = list(log.events())
        assert [e.seq for e in events] == [1]
        assert "event 2: unreadable" in log.problems[0]
        assert log.count() == 2


def test_not_a_database_gives_a_clear_error(tmp_path):
    path = tmp_path / "t.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LogError, match="cannot open the table log"):
        TableLog(path)


def test_jsonl_round_trip_comments_and_numbering():
    text = '# a comment\n\n{"type": "table.new_game", "data": {"game": "dummy"}}\n{"type": "dummy.add", "data": {"n": 2}}\n'
    events = read_jsonl(io.StringIO(text))
    assert [e.seq for e in events] == [1, 2]
    out = io.StringIO()
    write_jsonl(events, out)
    assert read_jsonl(io.StringIO(out.getvalue())) == events


def test_jsonl_bad_line_strict_and_lenient():
    text = '{"type": "table.new_game"}\n{oops\n{"type": "dummy.add"}\n'
    with pytest.raises(EventError, match="line 2"):
        read_jsonl(io.StringIO(text))
    assert len(read_jsonl(io.StringIO(text), strict=False)) == 2
    with pytest.raises(EventError, match="must increase"):
        read_jsonl(io.StringIO('{"type": "a.b", "seq": 3}\n{"type": "a.b", "seq": 2}\n'))
