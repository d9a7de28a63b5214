"""The state's JSON text is encoded once per change, and never served stale."""

from __future__ import annotations

import json

from companion.service import TableService


def test_state_text_follows_every_change(tmp_path):
    s = TableService(tmp_path / "table.sqlite")
    assert json.loads(s.state_text())["game"] is None
    s.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    first = s.state_text()
    assert s.state_text() is first  # no change: the same text, not encoded again
    assert json.loads(first)["state"]["total"] == 0
    s.submit({"type": "dummy.add", "data": {"n": 4}})
    assert json.loads(s.state_text())["state"]["total"] == 4
    s.set_device("tray", {"connected": False})
    assert json.loads(s.state_text())["devices"] == {"tray": {"connected": False}}
    s.log.problems.append("event 9: unreadable, skipped")
    assert json.loads(s.state_text())["problems"] == ["event 9: unreadable, skipped"]
    assert json.loads(s.state_text()) == json.loads(json.dumps(s.state_json()))
    s.close()
