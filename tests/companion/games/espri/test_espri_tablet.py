"""The ESPRI tablet renderer (``web/static/games/espri.js``) in headless Debian chromium,
against a minimal stand-in of the core page's ``Companion`` API (the BRIEF's contract):
the page draws the real ``state_json``, taps are turned into events, the events go through
the real rules, and the new state is drawn again. Skipped without chromium/playwright."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.events import Event, Source
from companion.table import Table

from tests.companion.games.espri.test_espri_flow import guardian

ROOT = Path(__file__).resolve().parents[4]
JS = ROOT / "web" / "static" / "games" / "espri.js"
CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")

DOM_JS = (ROOT / "web" / "static" / "dom.js").read_text(encoding="utf-8")

HARNESS = """<!doctype html><html><head><meta charset="utf-8"></head><body><div id="game"></div>
<script>""" + DOM_JS + """</script>
<script>
window.sent = [];
const lang = "fr";
const { h, bars } = Dom;  // the page's own helpers (web/static/dom.js)
const games = {};
window.Companion = { registerGame(name, r) { games[name] = r; }, refresh() {} };
window.renderTable = (table) => {
  const root = document.getElementById("game");
  root.replaceChildren();
  const ctx = { lang, t: (fr, en) => fr, tr: (o) => (o ? o.fr : ""), h, bars, canEdit: true, table,
    send: async (type, data, opts) => { window.sent.push({type, data, opts}); return {ok: true}; } };
  games.espri.render(root, table, ctx);
};
</script></body></html>"""


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    """A harness page on the shared chromium (tests/conftest.py)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(5000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_content(HARNESS)
    pg.add_script_tag(content=JS.read_text(encoding="utf-8"))
    pg.js_errors = errors
    yield pg
    context.close()


class Session:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.table = Table()
        self.seq = 0
        page.evaluate("window.sent = []")

    def apply(self, type_: str, data: dict[str, Any], source: str = "manual") -> None:
        self.seq += 1
        self.table.apply(Event(type_, data, Source(source), self.seq))

    def draw(self) -> None:
        self.page.evaluate("t => window.renderTable(t)", json.loads(json.dumps(self.table.to_json())))
        assert self.page.js_errors == []

    def forward(self) -> dict[str, Any]:
        """Apply what the page sent, through the real rules, then redraw."""
        sent = self.page.evaluate("window.sent.splice(0)")
        assert len(sent) == 1, sent
        src = (sent[0].get("opts") or {}).get("source", "manual")
        self.apply(sent[0]["type"], sent[0]["data"], src)
        self.draw()
        return sent[0]

    def tap(self, test_id: str) -> None:
        self.page.click(f'[data-test="{test_id}"]')


@pytest.mark.browser
def test_board_and_a_whole_appel_by_taps(page: Any) -> None:
    s = Session(page)
    s.apply("table.new_game", {"game": "espri", "seed": 3})
    s.apply("espri.character", guardian("deva", "hiver", {"hiver": 3}, 2, prayers=["temps"]))
    s.apply("espri.character", guardian("ceres", "automne", {"automne": 3}, 2, prayers=[]))
    s.apply("espri.set_quadrant", {"season": "hiver", "cells": ["hiver", "rupture"], "nymph": 0})
    s.draw()
    assert page.locator("[data-test^=espri-cell-]").count() == 84
    assert page.get_attribute('[data-test="espri-cell-hiver-2"]', "data-gem") == "rupture"
    assert page.get_attribute('[data-test="espri-nymph-hiver"]', "data-cell") == "0"
    assert "Météo 1" in page.text_content('[data-test="espri-weather-hiver"]')
    assert page.locator('[data-test="espri-odds"] [data-test="odds-bars"]').count() == 4
    assert page.inner_text('[data-test="espri-pool-hiver"]').endswith("11")
    assert page.locator('[data-test="espri-prayers-deva"] .dot').count() == 1

    # the GM announces: Hiver, led by Déva
    s.tap("espri-season-hiver")
    s.tap("espri-leader-deva")
    s.tap("espri-appel-send")
    sent = s.forward()
    assert sent["data"] == {"season": "hiver", "leader": "deva", "helpers": [], "talent": True}
    assert page.get_attribute('[data-test="espri-expects"]', "data-step") == "draw"

    # tap the drawn colours
    assert page.is_disabled('[data-test="espri-entry-send"]')
    s.tap("espri-gem-temps")
    s.tap("espri-gem-printemps")
    assert page.is_disabled('[data-test="espri-gem-hiver"]')  # two gems only
    s.tap("espri-entry-send")
    assert s.forward()["data"] == {"gems": ["temps", "printemps"]}

    # every legal selection with its result; choose one
    labels = page.locator("[data-test^=espri-selection-]").all_inner_texts()
    assert len(labels) == 3 and any("Réussite" in t for t in labels)
    s.tap("espri-selection-printemps+temps:up")
    assert s.forward()["data"] == {"selection": "printemps+temps:up"}
    assert page.get_attribute('[data-test="espri-cell-hiver-3"]', "data-gem") == "temps"
    assert page.get_attribute('[data-test="espri-nymph-hiver"]', "data-cell") == "2"
    assert "Réussite" in page.inner_text('[data-test="espri-last-appel"]')
    assert page.get_attribute('[data-test="espri-expects"]', "data-step") == "appel"


@pytest.mark.browser
def test_correction_and_gm_choice(page: Any) -> None:
    s = Session(page)
    s.apply("table.new_game", {"game": "espri", "seed": 3})
    s.apply("espri.character", guardian("a", "hiver", {"hiver": 1}, 2, prayers=[]))
    s.apply("espri.appel", {"season": "hiver", "leader": "a", "difficulty": 3})
    s.apply("espri.draw", {"gems": ["ete", "ete"]}, "camera")
    s.draw()
    assert "MJ" in page.inner_text('[data-test="espri-choose"]')
    page.click('[data-test="espri-correct"] summary')
    page.click('[data-test="espri-correct"] [data-test="espri-gem-hiver"]')
    page.click('[data-test="espri-correct"] [data-test="espri-gem-ete"]')
    page.click('[data-test="espri-correct"] [data-test="espri-entry-send"]')
    sent = s.forward()
    assert sent["data"]["gems"] == ["hiver", "ete"] and sent["opts"]["source"] == "correction"
    keys = {t.get_attribute("data-test") for t in page.locator("[data-test^=espri-selection-]").all()}
    assert keys == {"espri-selection-hiver", "espri-selection-ete"}


@pytest.mark.browser
def test_setup_by_taps(page: Any) -> None:
    s = Session(page)
    s.apply("table.new_game", {"game": "espri", "seed": 3})
    s.apply("espri.character", guardian("annick", "automne", {"automne": 3}, 2, harmony=5))
    s.draw()
    assert page.get_attribute('[data-test="espri-expects"]', "data-step") == "setup_draw"
    for g in ("printemps", "rupture", "hiver", "temps", "ete"):
        page.click(f'[data-test="espri-entry"] [data-test="espri-gem-{g}"]')
    page.click('[data-test="espri-entry"] [data-test="espri-entry-send"]')
    assert s.forward()["data"] == {"character": "annick", "gems": ["printemps", "rupture", "hiver", "temps", "ete"]}
    # keep two: the Rupture is not offered
    gems = [b.get_attribute("data-gem") for b in page.locator("[data-test^=espri-pick-]").all()
            if b.get_attribute("data-gem")]
    assert "rupture" not in gems and len(gems) == 4
    s.tap(f"espri-pick-{gems.index('printemps')}")
    s.tap(f"espri-pick-{gems.index('hiver')}")
    s.tap("espri-pick-send")
    assert sorted(s.forward()["data"]["keep"]) == ["hiver", "printemps"]
    assert page.get_attribute('[data-test="espri-cell-automne-1"]', "data-gem") == "rupture"
    s.tap("espri-setup-gm")
    s.forward()
    assert page.get_attribute('[data-test="espri-expects"]', "data-step") == "appel"
    assert page.locator("[data-test^=espri-cell-][data-gem=rupture]").count() == 5
