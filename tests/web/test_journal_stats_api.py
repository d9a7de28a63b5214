"""The journal, statistics and set-up endpoints (read-only: no PIN needed to look)."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

from companion.roll.demo import demo_events


def play(service, game: str, *extra: dict) -> None:
    for ev in demo_events(game):
        service.submit(ev)
    for ev in extra:
        service.submit(ev)


def test_journal_pages_newest_first_with_who_and_how(service, client) -> None:
    play(service, "wuxia", {"type": "wuxia.roll", "data": {"dice": [1, 9, 3, 7, 4]}, "source": "camera"},
         {"type": "wuxia.correct", "data": {"index": 3, "value": 8}, "source": "correction"},
         {"type": "undo"})
    j = client.get("/api/journal?limit=2").get_json()
    assert [e["seq"] for e in j["entries"]] == [7, 6]
    undo, corr = j["entries"]
    assert undo["undoes"] == 6 and corr["undone_by"] == 7 and corr["text"]["fr"].endswith("(annulé)")
    assert corr["dice"][0]["how"] == "corrigé" and corr["who"] == ["Lin Mei"]
    assert j["next_before"] == 6 and j["people"] == ["Lin Mei", "Wei le Rouge"]
    older = client.get(f"/api/journal?limit=2&before={j['next_before']}").get_json()
    assert [e["seq"] for e in older["entries"]] == [5, 4]
    roll = older["entries"][0]
    assert [d["how"] for d in roll["dice"]] == ["lu"] * 5 and roll["dice"][1]["label"]["fr"] == "D10 9"
    wei = client.get("/api/journal?who=Wei+le+Rouge").get_json()["entries"]
    assert wei and all("Wei le Rouge" in e["who"] for e in wei)
    assert client.get("/api/journal?limit=0").status_code == 200  # clamped, not an error


def test_journal_exports(service, client) -> None:
    play(service, "shayo")
    r = client.get("/journal.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv" and "attachment" in r.headers["Content-Disposition"]
    text = r.data.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows[0] == ["n°", "heure (UTC)", "qui", "quoi", "dés", "comment", "état"]
    assert len(rows) == 1 + len(demo_events("shayo"))
    assert any("Aiko" in row[2] for row in rows[1:])
    data = json.loads(client.get("/journal.json?who=Aiko").data)
    assert data and all("Aiko" in e["who"] for e in data) and data[0]["seq"] < data[-1]["seq"]
    page = client.get("/journal/print").data.decode()
    assert page.count("<tr") == 1 + len(demo_events("shayo")) and "<script" not in page


def test_stats_and_histogram_svg(service, client) -> None:
    play(service, "shayo", {"type": "shayo.roll", "data": {"dice": [8, 3, 1, 6, 2]}, "source": "camera"},
         {"type": "shayo.correct", "data": {"index": 3, "value": 9}, "source": "correction"})
    dice = client.get("/api/stats").get_json()["dice"]
    (d10,) = dice
    assert d10["die"] == "d10" and d10["counts"]["camera"]["9"] == 1
    assert d10["misreads"] == [{"face": 9, "read_as": 6, "times": 1}]
    assert d10["verdicts"]["all"]["level"] == "few"
    r = client.get("/stats/d10.svg?group=all")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    svg = ET.fromstring(r.data)
    assert svg.tag.endswith("svg") and len([e for e in svg.iter() if e.tag.endswith("rect")]) >= 4
    assert client.get("/stats/d10.svg?group=nonsense").status_code == 400
    assert client.get("/stats/d7.svg").status_code == 404


def test_set_up_offers_the_sheets_of_earlier_games_and_labelled_options(service, client) -> None:
    play(service, "shayo")
    assert client.get("/api/setup/shayo").get_json()["sheets"] == []  # the running game's own sheets
    service.submit({"type": "table.new_game", "data": {"game": "shayo"}})
    info = client.get("/api/setup/shayo").get_json()
    assert [s["name"] for s in info["sheets"]] == ["Aiko", "Hiro", "Ren"]
    assert info["sheets"][0]["type"] == "shayo.character"
    pp = client.get("/api/setup/peripeties").get_json()
    opt = {o["name"]: o for o in pp["options"]}
    assert opt["brother_mode"]["choices"] == ["add", "replace"] and opt["brother_mode"]["label"]["fr"]
    assert "deck" not in opt  # free-form data stays in the advanced editor
    assert client.get("/api/setup/nope").status_code == 404


def test_favicon_and_labels(client) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    labels = client.get("/api/labels").get_json()
    assert labels["faces"]["gem"]["ete"] == ["Été", "Summer"] and labels["kinds"]["recompense"][0] == "Dé de récompense"


def test_no_inline_script_or_handler_in_the_pages(client) -> None:
    import re

    for url in ("/", "/journal", "/stats", "/calibrate", "/journal/print"):
        html = client.get(url).data.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\son[a-z]+\s*=", html), url


def test_setup_doctests() -> None:
    import doctest

    import web.setup

    result = doctest.testmod(web.setup)
    assert result.attempted > 0 and result.failed == 0
