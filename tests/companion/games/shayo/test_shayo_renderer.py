"""The tablet renderer ``web/static/games/shayo.js`` in headless chromium.

The web core is not needed: a minimal stand-in of its ``Companion`` contract (``h``,
``t``, ``tr``, ``bars``, ``send``) is served with the real rules behind ``/api/state``
and ``/api/events``, so the test drives the real renderer against the real game.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.errors import CompanionError
from companion.events import parse_event
from companion.table import Table

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[4]
JS = ROOT / "web" / "static" / "games" / "shayo.js"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

PAGE = """<!doctype html><html lang="fr"><head><meta charset="utf-8"></head><body>
<div id="msg" data-test="msg"></div><div id="root"></div>
<script>
window.Companion = { games: {}, registerGame: function (n, g) { this.games[n] = g; } };
function h(tag, attrs) {
  var el = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) {
    var v = attrs[k];
    if (k.indexOf("on") === 0 && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v);
  });
  for (var i = 2; i < arguments.length; i++) {
    var c = arguments[i];
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}
var lang = new URLSearchParams(location.search).get("lang") || "fr";
var ctx = { lang: lang, canEdit: true, h: h,
  t: function (fr, en) { return lang === "fr" ? fr : en; },
  tr: function (o) { return o[lang]; },
  bars: function (entries) {
    var d = h("div", {"data-test": "bars"});
    entries.forEach(function (e) { d.appendChild(h("div", {}, e[0] + " " + Math.round(1000 * e[1]) / 10)); });
    return d; },
  send: function (type, data, opts) {
    var body = {type: type, data: data, source: (opts && opts.source) || "manual"};
    return fetch("/api/events", {method: "POST", body: JSON.stringify(body)})
      .then(function (r) { return r.json(); })
      .then(function (j) { document.getElementById("msg").textContent = j.error || ""; load(); return j.error ? null : j; });
  } };
function load() {
  fetch("/api/state").then(function (r) { return r.json(); }).then(function (table) {
    var root = document.getElementById("root"); root.innerHTML = "";
    var div = document.createElement("div"); root.appendChild(div);
    Companion.games.shayo.render(div, table, ctx);
  });
}
</script><script src="/dom.js"></script><script src="/shayo.js"></script><script>load();</script></body></html>"""


class _Server:
    def __init__(self) -> None:
        self.table = Table()
        self.seq = 0
        self.lock = threading.Lock()

    def apply(self, obj: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.seq += 1
            try:
                return self.table.apply(parse_event({**obj, "seq": self.seq})).to_json()
            except CompanionError as exc:
                self.seq -= 1
                return {"error": str(exc)}


@pytest.fixture()
def site() -> Iterator[tuple[str, _Server]]:
    srv = _Server()
    srv.apply({"type": "table.new_game", "data": {"game": "shayo", "seed": 1}})
    srv.apply({"type": "shayo.character", "data": {
        "name": "Aiko", "attributes": {"INS": 3, "AGI": 4}, "skills": {"Kenjutsu": 3, "Méditation": 1},
        "signatures": {"kenjutsu": ["relance_echec"]}, "aspect_value": 2, "weapons": {"katana": {"dice": 2, "fixed": 1}}}})
    srv.apply({"type": "shayo.character", "data": {
        "name": "Ren", "attributes": {"INS": 2, "AGI": 3}, "skills": {"Kenjutsu": 2, "Esquive": 2},
        "armour": {"sd": 6, "protection": 2}}})

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, body: bytes, ctype: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802
            if self.path == "/api/state":
                self._send(json.dumps(srv.table.to_json()).encode(), "application/json")
            elif self.path == "/shayo.js":
                self._send(JS.read_bytes(), "text/javascript")
            elif self.path == "/dom.js":  # the page's shared helpers (percentages in French)
                self._send((JS.parent.parent / "dom.js").read_bytes(), "text/javascript")
            else:
                self._send(PAGE.encode(), "text/html")

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            self._send(json.dumps(srv.apply(body)).encode(), "application/json")

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/", srv
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture()
def page(site: tuple[str, _Server], browser: Any) -> Iterator[Any]:
    """A page on the shared chromium (tests/conftest.py), which skips without it."""
    context = browser.new_context()
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15000)
    yield pg
    context.close()
    assert errors == []


def _start_test(page: Any) -> None:
    page.select_option("[data-test=shayo-form-who]", "Aiko")
    page.select_option("[data-test=shayo-form-attribute]", "agi")
    page.select_option("[data-test=shayo-form-skill]", "kenjutsu")
    page.fill("[data-test=shayo-form-difficulty]", "7")
    page.click("[data-test=shayo-start-test]")
    page.wait_for_selector("[data-test=shayo-step-roll]")


def test_odds_ki_pool_signature_and_outcome(site: tuple[str, _Server], page: Any) -> None:
    url, srv = site
    page.goto(url)
    page.wait_for_selector("[data-test=shayo-step-idle]")
    assert page.inner_text("[data-test=shayo-char-ki-Aiko]").startswith("Ki personnel 6/6")
    _start_test(page)
    odds = srv.table.to_json()["state"]["expects"]["odds"]
    # French typography: decimal comma, narrow no-break space before %
    shown = re.search(r"([0-9]+(?:,[0-9])?)\u202f%", page.inner_text("[data-test=shayo-odds]"))
    assert shown and abs(float(shown.group(1).replace(",", ".")) - 100 * odds["success"]) <= 0.051
    page.click("[data-test=shayo-ki-kept-plus]")
    page.wait_for_function("document.querySelector('[data-test=shayo-ki]').innerText.includes('1 dé gardé en plus')")
    assert srv.table.to_json()["state"]["expects"]["keep"] == 4
    for face in (8, 3, 1, 6):
        page.click(f"[data-test=shayo-face-{face}]")
    page.click("[data-test=shayo-roll-submit]")
    page.wait_for_selector("[data-test=shayo-step-signatures]")
    page.click("[data-test=shayo-sig-relance_echec]")
    page.click("[data-test=shayo-sig-die-1]")
    page.click("[data-test=shayo-sig-face-9]")
    page.click("[data-test=shayo-sig-apply]")
    page.wait_for_selector("[data-test=shayo-last]")
    last = srv.table.to_json()["state"]["last"]
    assert last["dice"] == [8, 9, 1, 6] and last["net"] == 1 and last["cancelled"] == 1
    assert "annulés par les 1 : 1" in page.inner_text("[data-test=shayo-last-cancelled]")
    assert page.inner_text("[data-test=shayo-last-outcome]") == "Réussite"
    assert last["meaning"]["fr"] in page.inner_text("[data-test=shayo-last-meaning]")
    assert page.inner_text("[data-test=msg]") == ""


def test_attack_defence_damage_and_correction(site: tuple[str, _Server], page: Any) -> None:
    url, srv = site
    page.goto(url + "?lang=en")
    page.wait_for_selector("[data-test=shayo-step-idle]")
    page.click("[data-test=shayo-new-attack]")
    page.select_option("[data-test=shayo-form-who]", "Aiko")
    page.select_option("[data-test=shayo-form-target]", "Ren")
    page.select_option("[data-test=shayo-form-attribute]", "agi")
    page.select_option("[data-test=shayo-form-skill]", "kenjutsu")
    page.click("[data-test=shayo-start-attack]")
    page.wait_for_selector("[data-test=shayo-step-roll]")
    for face in (9, 6, 3, 2):  # 2 successes for 3 keep slots: the re-roll could help
        page.click(f"[data-test=shayo-face-{face}]")
    page.click("[data-test=shayo-roll-submit]")
    page.wait_for_selector("[data-test=shayo-step-signatures]")
    page.click("[data-test=shayo-keep-best]")
    page.wait_for_selector("[data-test=shayo-step-defence]")
    page.click("[data-test=shayo-no-defence]")
    page.wait_for_function("document.querySelector('[data-test=shayo-step-roll] h3')"
                           " && document.querySelector('[data-test=shayo-step-roll] h3').innerText.startsWith('Damage')")
    for face in (7, 2, 9, 1):  # katana 2 dice + margin 2
        page.click(f"[data-test=shayo-face-{face}]")
    page.click("[data-test=shayo-roll-submit]")
    page.wait_for_selector("[data-test=shayo-step-idle]")
    assert srv.table.to_json()["state"]["last"]["damage"] == 0  # 2 - one 1 + 1 fixed - 2
    page.click("[data-test=shayo-fix-open]")
    page.click("[data-test=shayo-fix-die-3]")
    page.click("[data-test=shayo-fix-face-8]")
    page.wait_for_function("document.querySelector('[data-test=shayo-char-health-Ren]').innerText.includes('2/20')")
    assert srv.table.to_json()["state"]["last"]["damage"] == 2


def test_spend_ki_as_a_choice(site: tuple[str, _Server], page: Any) -> None:
    url, srv = site
    page.goto(url)
    page.wait_for_selector("[data-test=shayo-spend-Aiko]")
    page.select_option("[data-test=shayo-spend-use-Aiko]", "extra_action")
    page.select_option("[data-test=shayo-spend-source-Aiko]", "group")
    page.click("[data-test=shayo-spend-submit-Aiko]")
    page.wait_for_function("document.querySelector('[data-test=shayo-group-pool]').innerText.includes('0/5')")
    hist = srv.table.history()[-1]
    assert hist["type"] == "shayo.spend_ki" and hist["data"]["from"] == {"group": 5}
    page.select_option("[data-test=shayo-spend-use-Aiko]", "manoeuvre")
    page.fill("[data-test=shayo-spend-amount-Aiko]", "9")
    page.select_option("[data-test=shayo-spend-source-Aiko]", "auto")  # personal 6 + group 0 < 9
    page.click("[data-test=shayo-spend-submit-Aiko]")
    page.wait_for_function("document.querySelector('[data-test=msg]').innerText.length > 0")
    assert "not enough Ki" in page.inner_text("[data-test=msg]")


def _roll_then_declare(page: Any, url: str, die: int) -> None:
    """Aiko's test rolled 8 3 1 6 by hand, then relance_echec on ``die`` sent to the tray."""
    page.goto(url)
    page.wait_for_selector("[data-test=shayo-step-idle]")
    _start_test(page)
    for face in (8, 3, 1, 6):
        page.click(f"[data-test=shayo-face-{face}]")
    page.click("[data-test=shayo-roll-submit]")
    _declare(page, die)


def _declare(page: Any, die: int) -> None:
    page.wait_for_selector("[data-test=shayo-step-signatures]")
    page.click("[data-test=shayo-sig-relance_echec]")
    assert page.is_disabled("[data-test=shayo-sig-declare]")  # no die chosen yet
    page.click(f"[data-test=shayo-sig-die-{die}]")
    page.click("[data-test=shayo-sig-declare]")
    page.wait_for_selector("[data-test=shayo-step-reroll]")


def test_a_re_roll_declared_for_the_tray_then_typed_or_withdrawn(site: tuple[str, _Server], page: Any) -> None:
    url, srv = site
    _roll_then_declare(page, url, 1)
    assert page.inner_text("[data-test=shayo-reroll-text]") == "Relancez 1 dé : position 2"
    assert "target" in page.get_attribute("[data-test=shayo-reroll-die-1]", "class")
    assert srv.table.history()[-1]["type"] == "shayo.signature_declare"
    # withdrawn: back to the signatures; declared again, then the face typed by hand
    page.click("[data-test=shayo-reroll-withdraw]")
    _declare(page, 3)
    assert page.is_disabled("[data-test=shayo-reroll-submit]")
    page.click("[data-test=shayo-reroll-face-9]")
    assert page.is_disabled("[data-test=shayo-reroll-face-2]")  # one die: one face
    page.click("[data-test=shayo-reroll-submit]")
    page.wait_for_selector("[data-test=shayo-last]")
    last = srv.table.to_json()["state"]["last"]
    assert last["dice"] == [8, 3, 1, 9] and last["signatures"][0]["before"] == [6]
    assert srv.table.history()[-1]["data"] == {"values": [9]}
    assert page.inner_text("[data-test=msg]") == ""


def test_the_companion_rolls_a_declared_re_roll_in_english(site: tuple[str, _Server], page: Any) -> None:
    url, srv = site
    _roll_then_declare(page, url + "?lang=en", 1)
    assert page.inner_text("[data-test=shayo-reroll-text]") == "Re-roll 1 die: position 2"
    assert "Pick up this die and roll it in the tray" in page.inner_text("[data-test=shayo-step-reroll]")
    page.click("[data-test=shayo-reroll-system]")
    page.wait_for_selector("[data-test=shayo-last]")
    hist = srv.table.history()[-1]
    assert hist["type"] == "shayo.signature" and hist["source"] == "system"
    assert page.inner_text("[data-test=msg]") == ""
