"""The tablet renderer ``web/static/games/wuxia.js`` in headless chromium.

A small harness page stands in for the core page: it implements the renderer contract
(``Companion.registerGame``, ``ctx.h``/``t``/``tr``/``bars``/``send``) and sends every event
to a real :class:`~companion.table.Table` in this process (``page.expose_function``), then
re-renders with the new ``/api/state``-shaped JSON. So the clicks go through the real rules.
Skipped cleanly without ``/usr/bin/chromium`` or playwright.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.errors import CompanionError
from companion.events import Event, Source
from companion.table import Table

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[4]
CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

DOM_JS = (ROOT / "web" / "static" / "dom.js").read_text(encoding="utf-8")

HARNESS = """<!doctype html><html><head><meta charset="utf-8"></head><body><div id="game"></div><script>""" + DOM_JS + """</script><script>
"use strict";
const Companion = (() => {
  const games = {}; let table = null; const lang = "fr";
  const t = (fr, en) => (lang === "en" ? en : fr);
  const tr = (o) => (o ? (o[lang] || o.fr || "") : "");
  const { h, bars } = Dom;  // the page's own helpers (web/static/dom.js)
  async function send(type, data, opts) {
    const out = JSON.parse(await window.pySend(type, JSON.stringify(data || {}), (opts && opts.source) || "manual"));
    if (!out.ok) { window.lastError = out.error; return null; }
    table = out.table; render(); return out;
  }
  function render() {
    const root = document.getElementById("game"); root.replaceChildren();
    games[table.game].render(root, table, { lang, t, tr, h, bars, send, canEdit: true, table });
  }
  return { registerGame: (n, r) => { games[n] = r; }, show: (tb) => { table = tb; render(); } };
})();
</script></body></html>"""


class Harness:
    def __init__(self, browser: Any) -> None:
        self.table = Table()
        self.seq = 0
        self.push("table.new_game", {"game": "wuxia", "seed": 3})
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(5000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.expose_function("pySend", self._send)
        self.page.set_content(HARNESS)
        self.page.add_script_tag(content=(ROOT / "web/static/games/wuxia.js").read_text(encoding="utf-8"))
        self.show()

    def push(self, etype: str, data: dict[str, Any], source: str = "manual") -> None:
        self.seq += 1
        self.table.apply(Event(etype, data, Source(source), seq=self.seq))

    def _send(self, etype: str, data: str, source: str) -> str:
        try:
            self.push(etype, json.loads(data), source)
        except CompanionError as exc:
            return json.dumps({"ok": False, "error": str(exc)})
        return json.dumps({"ok": True, "table": self.table.to_json()})

    def show(self) -> None:
        self.page.evaluate("tb => Companion.show(tb)", self.table.to_json())

    def click(self, test: str) -> None:
        self.page.click(f'[data-test="{test}"]')

    def state(self) -> dict[str, Any]:
        return self.table.to_json()["state"]


@pytest.fixture
def h(browser: Any) -> Iterator[Harness]:
    harness = Harness(browser)
    yield harness
    harness.context.close()


def test_sheet_test_odds_dice_and_reroll(h: Harness) -> None:
    # Create a character from the form.
    h.click("wuxia-new-char")
    h.page.fill('[data-test="wuxia-char-name"]', "Lin")
    for k, v in {"metal": 4, "feu": 5, "terre": 6, "eau": 3, "bois": 4}.items():
        h.page.fill(f'[data-test="wuxia-char-attr-{k}"]', str(v))
    h.page.uncheck('[data-test="wuxia-char-check"]')
    h.page.fill('[data-test="wuxia-char-skills"]', "Chasseur; metier; 5\nTir à l'arc; narrow; ; Chasseur")
    h.click("wuxia-char-save")
    assert h.state()["characters"][0]["name"] == "Lin"
    assert h.page.locator('[data-test="wuxia-char-Lin"]').count() == 1
    assert "Seuil de Mort 33" in h.page.inner_text('[data-test="wuxia-char-Lin"]')
    # Start a test: Feu with the specialisation, SR 12.
    h.page.select_option('[data-test="wuxia-test-who"]', "Lin")
    h.page.select_option('[data-test="wuxia-test-skill"]', "Tir à l'arc")
    h.page.select_option('[data-test="wuxia-test-sr"]', "12")
    h.click("wuxia-start-test")
    test = h.state()["tests"][0]
    assert (test["how"], test["threshold"], test["rerolls"]) == ("specialisation", 7, 2)
    bars = h.page.locator('[data-test="wuxia-odds"] [data-p]')
    assert abs(float(bars.first.get_attribute("data-p")) - h.state()["expects"]["odds"]["success"]) < 1e-12
    # Tap five faces and enter them.
    assert h.page.is_disabled('[data-test="wuxia-submit-dice"]')
    for f in (1, 9, 3, 7, 4):
        h.click(f"wuxia-face-{f}")
    h.click("wuxia-submit-dice")
    res = h.state()["tests"][0]["result"]
    assert (res["successes"], res["ones"], res["outcome"]) == (2, 1, "success")
    assert "réussite" in h.page.inner_text('[data-test="wuxia-result-0"]')
    assert "one" in h.page.get_attribute('[data-test="wuxia-die-0-0"]', "class")
    # Re-roll the 1 and the 3, then tap their new faces.
    h.click("wuxia-die-0-0")
    h.click("wuxia-die-0-2")
    h.click("wuxia-reroll-0")
    assert h.state()["expects"]["step"] == "reroll_dice"
    h.click("wuxia-face-7")
    h.click("wuxia-face-10")
    h.click("wuxia-submit-dice")
    assert h.state()["tests"][0]["faces"] == [7, 9, 10, 7, 4]
    assert "4 succès" in h.page.inner_text('[data-test="wuxia-result-0"]')
    # A Destiny Die from the sheet, spent on the test.
    h.click("wuxia-destiny-plus-Lin")
    h.click("wuxia-destiny-0")
    assert h.state()["tests"][0]["destiny_spent"] == 1
    # A correction goes in as a correction.
    h.click("wuxia-correct-0")
    for f in (2, 9, 10, 7, 4):
        h.click(f"wuxia-face-{f}")
    h.click("wuxia-submit-dice")
    assert h.table.top.event.source is Source.CORRECTION
    h.click("wuxia-accept-0")
    assert h.state()["tests"][0]["closed"] is True
    assert h.errors == []


def test_fight_round_on_the_tablet(h: Harness) -> None:
    for name, metal in (("Ana", 3), ("Bo", 3)):
        h.push("wuxia.character_new", {"name": name, "check": False,
                                       "attributes": {"metal": metal, "feu": 4, "terre": 4, "eau": 3, "bois": 3}})
    h.show()
    h.page.click('[data-test="wuxia-combat-setup"] summary')
    h.page.check('[data-test="wuxia-fight-on-Ana"]')
    h.page.check('[data-test="wuxia-fight-on-Bo"]')
    h.click("wuxia-combat-start")
    assert h.state()["combat"]["phase"] == "initiative"
    for faces in ((10, 2, 2), (2, 2, 2)):
        for f in faces:
            h.click(f"wuxia-face-{f}")
        h.click("wuxia-submit-dice")
    assert h.state()["expects"]["step"] == "initiative"
    h.page.fill('[data-test="wuxia-alloc-Ana"] input >> nth=0', "0")
    h.page.fill('[data-test="wuxia-alloc-Ana"] input >> nth=2', "1")
    h.click("wuxia-alloc-send-Ana")
    assert h.state()["combat"]["phase"] == "actions"
    h.page.select_option('[data-test="wuxia-attacker"]', "Ana")
    h.page.select_option('[data-test="wuxia-defender"]', "Bo")
    h.click("wuxia-attack-send")
    for faces in ((9, 10, 2, 2), (2, 2, 2, 2)):
        for f in faces:
            h.click(f"wuxia-face-{f}")
        h.click("wuxia-submit-dice")
    assert h.state()["expects"]["step"] == "defend"
    h.click("wuxia-defend-send")
    assert h.state()["expects"]["step"] == "invest"
    h.page.fill('[data-test="wuxia-invest-critique"]', "1")
    h.click("wuxia-invest-send")
    bo = next(c for c in h.state()["characters"] if c["name"] == "Bo")
    assert bo["wounds"] == 1  # ND 0 - AR 0 + Critique 1
    assert h.errors == []
