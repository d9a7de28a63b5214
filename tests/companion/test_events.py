from __future__ import annotations

import pytest

from companion.errors import EventError
from companion.events import Event, Source, event_from_json_line, parse_event


@pytest.mark.parametrize(
    "obj, message",
    [
        ([], "JSON object"),
        ({}, "needs a 'type'"),
        ({"type": ""}, "needs a 'type'"),
        ({"type": "Bad Type"}, "malformed event type"),
        ({"type": "a.b", "data": [1]}, "'data' must be a JSON object"),
        ({"type": "a.b", "source": "telepathy"}, "unknown source"),
        ({"type": "a.b", "seq": 0}, "positive integer"),
        ({"type": "a.b", "seq": True}, "positive integer"),
        ({"type": "a.b", "colour": "red"}, "unknown event field"),
        ({"type": "a.b", "at": 5}, "ISO 8601"),
    ],
)
def test_malformed_envelopes_are_refused_with_a_message(obj, message):
    with pytest.raises(EventError, match=message):
        parse_event(obj)


def test_round_trip_and_game_prefix():
    ev = parse_event({"type": "peripeties.episode", "data": {"lieu": "montagne"}, "source": "camera", "seq": 3})
    assert ev.game == "peripeties"
    assert ev.source is Source.CAMERA
    assert parse_event(ev.to_json()) == ev
    assert Event("undo").game is None
    assert Event("table.new_game").game is None


def test_json_line_errors_name_the_line():
    with pytest.raises(EventError, match="line 7: not valid JSON"):
        event_from_json_line('{"type": ', 7)
    with pytest.raises(EventError, match="line 2: unknown source"):
        event_from_json_line('{"type": "a.b", "source": "x"}', 2)
