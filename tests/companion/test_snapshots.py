"""Snapshots of the fold: start-up from the latest valid one, never trusted across rules
code or logs, undo past them, and the same bytes as a fold from the first event."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import snapshots
from companion.events import Event, parse_event
from companion.games import register_game
from companion.log import TableLog, read_jsonl
from companion.service import TableService
from companion.snapshots import SnapshotStore, open_table, rules_version, snapshot_path
from companion.table import Table

ROOT = Path(__file__).resolve().parents[2]
#: Real logs of the four games, the material of the random logs below.
EXAMPLES = {p.name: read_jsonl(p.open(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*.jsonl"))}


def dump(table: Table, limit: int) -> str:
    return json.dumps(table.to_json(history_limit=limit), ensure_ascii=False)


def reference(log_path: Path) -> Table:
    """The fold from the first event, every frame kept: what snapshots must reproduce."""
    with TableLog(log_path) as log:
        return Table().replay(list(log.events()))


def dummy_campaign(service: TableService, adds: int) -> None:
    service.submit({"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 10**9}, "seed": 3}})
    for i in range(adds):
        service.submit({"type": "dummy.roll"} if i % 3 == 0 else {"type": "dummy.add", "data": {"n": 1 + i % 6}})


def test_restart_folds_only_the_events_after_the_latest_snapshot(tmp_path):
    path = tmp_path / "table.sqlite"
    s = TableService(path, snapshot_every=5)
    dummy_campaign(s, 22)  # 23 events: snapshots after 5, 10, 15, 20
    expected = dump(s.table, 60)
    s.close()
    # Damage an event the snapshot covers: a fold from the first event would now set it
    # aside and report it; the fold from the snapshot never reads it.
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET data = 'not json' WHERE seq = 2")
    db.commit()
    db.close()
    again = TableService(path, snapshot_every=5)
    assert again.snapshots.last_seq == 20
    assert again.log.problems == []
    assert dump(again.table, 60) == expected
    again.close()
    assert any("event 2: unreadable" in p for p in _problems_of_full_fold(path))


def _problems_of_full_fold(path: Path) -> list[str]:
    log = TableLog(path)
    list(log.events())
    log.close()
    return log.problems


def test_a_snapshot_of_other_rules_code_is_deleted_and_rebuilt(tmp_path):
    path = tmp_path / "table.sqlite"
    s = TableService(path, snapshot_every=4)
    dummy_campaign(s, 12)
    expected = dump(s.table, 60)
    s.close()
    cache = sqlite3.connect(snapshot_path(path))
    # Stamp every snapshot as written by other rules code, and make its state wrong.
    rows = cache.execute("SELECT seq, payload FROM snapshots").fetchall()
    assert rows
    cache.execute("UPDATE snapshots SET version = 'older-rules'")
    cache.commit()
    cache.close()
    again = TableService(path, snapshot_every=4)
    assert dump(again.table, 60) == expected
    cache = sqlite3.connect(snapshot_path(path))
    versions = {v for (v,) in cache.execute("SELECT version FROM snapshots")}
    cache.close()
    assert versions == {rules_version()}  # rebuilt with this code, the old ones gone
    again.close()


def test_rules_version_changes_with_a_games_source(tmp_path, monkeypatch):
    pkg = tmp_path / "plug_game_v"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("GAME = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    register_game("plugv", "plug_game_v:GAME")
    try:
        before = rules_version()
        (pkg / "__init__.py").write_text("GAME = None  # a rule changed\n")
        snapshots._version_cache.clear()
        assert rules_version() != before
    finally:
        from companion.games import GAMES

        GAMES.pop("plugv", None)
        snapshots._version_cache.clear()


def test_a_snapshot_of_another_log_is_not_used(tmp_path):
    path = tmp_path / "table.sqlite"
    s = TableService(path, snapshot_every=3)
    dummy_campaign(s, 8)
    s.close()
    cache = snapshot_path(path)
    keep = cache.read_bytes()
    for p in tmp_path.iterdir():
        p.unlink()
    cache.write_bytes(keep)  # the cache survives, the log is another one (same length)
    with TableLog(path) as log:
        log.append(Event("table.new_game", {"game": "dummy"}))
        for _ in range(8):
            log.append(Event("dummy.add", {"n": 6}))
    again = TableService(path, snapshot_every=3)
    assert again.table.state.total == 48
    assert dump(again.table, 60) == dump(reference(path), 60)
    again.close()


def test_undo_past_snapshots_folds_again_from_the_one_before(tmp_path):
    path = tmp_path / "table.sqlite"
    s = TableService(path, snapshot_every=4, keep_frames=3, max_frames=5, history_limit=3)
    dummy_campaign(s, 30)
    assert len(s.table.frames) <= 5
    totals = []
    for _ in range(20):
        s.submit({"type": "undo", "data": {"seq": s.table.top.event.seq}})
        totals.append(s.table.state.total)
        assert dump(s.table, 3) == dump(reference(path), 3)
    assert s.table.refills > 0
    assert totals == sorted(totals, reverse=True) and len(set(totals)) == 20
    s.close()


def test_log_pages_mark_undone_and_refused_events_and_carry_outcomes(tmp_path):
    path = tmp_path / "table.sqlite"
    with TableLog(path) as log:
        for obj in ({"type": "table.new_game", "data": {"game": "dummy", "options": {"cap": 10}}},
                    {"type": "dummy.add", "data": {"n": 6}}, {"type": "dummy.add", "data": {"n": 6}}):
            log.append(parse_event(obj))  # the third passes the cap: refused on replay
    s = TableService(path, snapshot_every=2)
    s.submit({"type": "dummy.add", "data": {"n": 1}})
    s.submit({"type": "undo"})
    page = s.log_page(limit=3)
    assert [e["seq"] for e in page["events"]] == [5, 4, 3] and page["more"] and page["before"] == 3
    assert [(e["undone"], e["refused"]) for e in page["events"]] == [(False, False), (True, False), (False, True)]
    assert page["events"][0]["outcomes"][0]["kind"] == "undo"
    assert page["events"][1]["outcomes"][0]["text"]["en"] == "+1 (total 7)"
    older = s.log_page(before=page["before"], limit=3)
    assert [e["seq"] for e in older["events"]] == [2, 1] and not older["more"]
    assert older["events"][0]["outcomes"][0]["text"]["fr"] == "+6 (total 6)"
    s.close()


def test_import_equals_the_server_fold(tmp_path):
    from companion.importer import import_lines

    lines = (ROOT / "examples" / "peripeties-demo.jsonl").read_text(encoding="utf-8").splitlines()
    report = import_lines(lines + ['{"type": "peripeties.dice", "data": {"dice": "x"}}', "{oops"],
                          tmp_path / "table.sqlite")
    assert report.imported == len(EXAMPLES["peripeties-demo.jsonl"])
    assert [n for n, _ in report.refused] == [len(lines) + 1, len(lines) + 2]
    n = len(lines) + 2  # numbered once, in each language ("ligne 24 : JSON invalide … / line 24: not valid JSON …")
    assert report.refused[1][1].startswith(f"ligne {n}\u202f: JSON invalide")
    assert f" / line {n}: not valid JSON" in report.refused[1][1]
    s = TableService(tmp_path / "table.sqlite")
    replayed = Table().replay(EXAMPLES["peripeties-demo.jsonl"])
    assert json.dumps(s.table.to_json(60)["state"]) == json.dumps(replayed.to_json(60)["state"])
    s.close()


# -- the property: the same bytes with and without snapshots ---------------------------
ops = st.lists(
    st.one_of(
        st.just(("next",)), st.just(("next",)), st.just(("next",)),
        st.just(("undo",)),
        st.tuples(st.just("repeat"), st.integers(min_value=1, max_value=4)),
        st.just(("restart",)),
    ),
    min_size=1, max_size=45,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    files=st.lists(st.sampled_from(sorted(EXAMPLES)), min_size=1, max_size=3),
    actions=ops,
    written=st.integers(min_value=0, max_value=30),
    every=st.integers(min_value=1, max_value=6),
    keep=st.integers(min_value=1, max_value=4),
    extra=st.integers(min_value=0, max_value=4),
)
def test_replay_is_byte_identical_with_and_without_snapshots(files, actions, written, every, keep, extra):
    """Random logs of the four games (their example logs, cut, with undos, repeated
    events and restarts): the first ``written`` actions go straight into the log (so some
    are refused on replay), the others are played live. Tiny snapshot intervals and
    windows force every path: snapshots, restarts from them, undo past them."""
    material: list[Event] = [e for name in files for e in EXAMPLES[name]]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table.sqlite"

        def open_service() -> TableService:
            return TableService(path, history_limit=keep, snapshot_every=every, keep_frames=keep,
                                max_frames=keep + extra)

        raw: TableLog | None = TableLog(path)
        s: TableService | None = None
        pos = 0
        sent: list[Event] = []
        for i, op in enumerate(actions):
            if i == written and raw is not None:
                raw.close()
                raw, s = None, open_service()
            if op[0] == "restart":
                if s is not None:
                    s.close()
                    s = open_service()
                continue
            if op[0] == "next":
                if pos >= len(material):
                    continue
                ev, pos = material[pos], pos + 1
            elif op[0] == "undo":
                ev = Event("undo")
            else:
                if len(sent) < op[1]:
                    continue
                ev = sent[-op[1]]
            sent.append(ev)
            if raw is not None:
                raw.append(Event(ev.type, ev.data, ev.source))
                continue
            assert s is not None
            try:
                s.submit({"type": ev.type, "data": dict(ev.data), "source": ev.source.value})
            except ValueError:
                pass  # refused live: not stored, as on the tablet
            assert len(s.table.frames) <= keep + extra
        if raw is not None:
            raw.close()
            s = open_service()
        assert s is not None
        live = dump(s.table, keep)
        s.close()
        ref = reference(path)
        assert live == dump(ref, keep)
        again = open_service()
        assert dump(again.table, keep) == dump(ref, keep)
        # History pages carry the outcomes the full fold computed for each effective event.
        page = again.log_page(limit=500)["events"]
        by_seq = {f.event.seq: json.dumps([o.to_json() for o in f.outcomes]) for f in ref.frames}
        for entry in page:
            assert entry["undone"] == (entry["type"] != "undo" and not entry["refused"] and entry["seq"] not in by_seq)
            if entry["seq"] in by_seq:
                assert json.dumps(entry["outcomes"]) == by_seq[entry["seq"]]
        again.close()


def test_a_store_without_snapshots_folds_from_the_first_event(tmp_path):
    log = TableLog(tmp_path / "t.sqlite")
    for ev in EXAMPLES["wuxia-session.jsonl"]:
        log.append(Event(ev.type, ev.data, ev.source))
    store = SnapshotStore(log, every=10**9)
    table = open_table(log, store)
    assert store.last_seq == 0
    assert dump(table, 60) == dump(Table().replay(list(log.events())), 60)
    store.close()
    log.close()


def test_a_long_log_folded_at_once_keeps_recent_snapshots_and_one_in_ten_before(tmp_path):
    path = tmp_path / "table.sqlite"
    with TableLog(path) as log:
        log.append(Event("table.new_game", {"game": "dummy", "options": {"cap": 10**6}}))
        for i in range(199):
            log.append(Event("dummy.add", {"n": 1 + i % 6}))
    s = TableService(path, snapshot_every=4, keep_frames=3, max_frames=5, history_limit=3)
    cache = sqlite3.connect(snapshot_path(path))
    seqs = [seq for (seq,) in cache.execute("SELECT seq FROM snapshots ORDER BY seq")]
    cache.close()
    assert seqs[-10:] == list(range(164, 201, 4))  # every 4 events near the end...
    assert seqs[:-10] == [40, 80, 120, 160]  # ...one in ten before
    for _ in range(120):  # undo far below the recent snapshots
        s.submit({"type": "undo"})
    assert dump(s.table, 3) == dump(reference(path), 3)
    old = s.log_page(before=12, limit=11)["events"]
    assert [e["seq"] for e in old] == list(range(11, 0, -1))
    assert all(e["outcomes"] for e in old) and not any(e["undone"] for e in old)
    s.close()
