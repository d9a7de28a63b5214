"""The tablet at the three sizes (portrait tablet 800×1280, landscape 1280×800, phone
390×844), against `companion serve --demo`, one test per game:

- after every roll the outcome is on screen without scrolling, and undo is in reach;
- the photo leaves the game near the top of the page;
- a die corrected on the photo, then undone: the photo shows the die as read again;
- the PIN asked for by an action carries that action out (no second tap);
- boxes on the photo are centred on the dice, also on the phone;
- a new game is set up in the page (no browser pop-up), the previous photo goes;
- the journal lists the roll, how each die was known, the undo; filter and exports;
- the statistics page shows the dice.

Screenshots go to ``$COMPANION_SHOTS`` when set (the issue's notes), else to tmp_path.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from tests.helpers import Server

pytestmark = pytest.mark.browser

SIZES = [(800, 1280), (1280, 800), (390, 844)]
CAMERA_EVENT = {"peripeties": "peripeties.dice", "wuxia": "wuxia.roll", "shayo": "shayo.roll", "espri": "espri.draw"}


def shots_dir(tmp_path: Path) -> Path:
    d = Path(os.environ.get("COMPANION_SHOTS") or tmp_path / "shots")
    d.mkdir(parents=True, exist_ok=True)
    return d


def open_pages(browser, srv):
    pages = {}
    for w, h in SIZES:
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR")
        pg = ctx.new_page()
        pg.js_errors = []
        pg.dialogs = []
        pg.on("pageerror", lambda exc, pg=pg: pg.js_errors.append(str(exc)))
        pg.on("dialog", lambda d, pg=pg: (pg.dialogs.append(d.message), d.dismiss()))
        pg.goto(srv.base + "/")
        pg.wait_for_selector('[data-test="live"][data-state="live"]')
        pg.wait_for_selector('[data-test="demo-roll"]')
        pages[(w, h)] = pg
    return pages


def login_in_dialog(pg, pin: str) -> None:
    pg.wait_for_selector('[data-test="pin-dialog"][open]')
    pg.fill('[data-test="pin-input"]', pin)
    pg.click('[data-test="pin-submit"]')
    pg.wait_for_selector('[data-test="pin-open"][data-state="unlocked"]')


def wait_read(pg, before) -> str:
    pg.wait_for_function(
        "(b) => { const p = document.querySelector('[data-test=photo]'); const s = document.querySelector('[data-test=read-status]');"
        " return p && p.dataset.read !== String(b) && s && s.dataset.status !== 'error' && p.querySelector('img')"
        " && p.querySelector('img').complete; }", arg=before, timeout=30000)
    return pg.get_attribute('[data-test="read-status"]', "data-status")


def current_read(pg):
    loc = pg.locator('[data-test="photo"]')
    return loc.get_attribute("data-read") if loc.count() else None


def roll_applied(pg) -> None:
    for _ in range(4):  # a die hidden by another: roll again, as players would
        before = current_read(pg)
        pg.click('[data-test="demo-roll"]')
        if wait_read(pg, before) == "applied":
            return
        pg.click('[data-test="discard-read"]')
    raise AssertionError(pg.inner_text('[data-test="read-status"]'))


def last_text(srv) -> tuple[int, str]:
    last = srv.get("/api/state")["history"][-1]
    return last["seq"], " · ".join(o["text"]["fr"] for o in last["outcomes"] if o.get("text"))


def in_view(pg, selector: str) -> bool:
    return pg.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect();"
                       " return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0"
                       " && r.right <= window.innerWidth; }", selector)


def check_outcome_in_view(pages, srv) -> None:
    seq, text = last_text(srv)
    for (w, h), pg in pages.items():
        pg.wait_for_function(f"document.querySelector('[data-test=last-result]').dataset.seq === '{seq}'")
        assert pg.evaluate("window.scrollY") == 0
        shown = pg.inner_text('[data-test="last-result-text"]')
        assert shown == text, (w, h, shown, text)
        assert in_view(pg, '[data-test="last-result"]'), (w, h)
        assert in_view(pg, '[data-test="undo"]'), (w, h)
        # the game starts near the top: the photo no longer pushes it down the page
        top = pg.evaluate("document.getElementById('game').getBoundingClientRect().top")
        assert top < (0.25 if w > h else 0.7) * h, (w, h, top)


def check_boxes_centred(pg) -> None:
    """Every box on the photo is centred on the object the reader found (its box in the
    read), within 2 px, even where a box is widened to a finger's 48 px."""
    out = pg.evaluate("""() => {
      const img = document.querySelector('[data-test=photo] img');
      const r = img.getBoundingClientRect();
      return Array.from(document.querySelectorAll('[data-test=die-box]')).map((b) => {
        const br = b.getBoundingClientRect();
        return [br.left + br.width / 2 - r.left, br.top + br.height / 2 - r.top, r.width, r.height, br.width];
      });
    }""")
    recs = pg.evaluate("fetch('/api/roll?n=1').then(r => r.json())")["reads"]
    objs = recs[-1]["objects"]
    size = recs[-1]["size"]
    assert len(out) == len(objs)
    widened = 0
    for (cx, cy, w, h, bw), o in zip(out, objs):
        x, y, bwid, bh = o["box"]
        ex, ey = (x + bwid / 2) * w / size[0], (y + bh / 2) * h / size[1]
        assert abs(cx - ex) <= 2 and abs(cy - ey) <= 2, (cx, cy, ex, ey)
        widened += bwid * w / size[0] < 47
    return widened


@pytest.mark.parametrize("game", ["peripeties", "wuxia", "shayo", "espri"])
def test_a_turn_at_three_sizes(browser, tmp_path, game):
    shots = shots_dir(tmp_path)
    with Server("--demo", "--game", game, "--data", str(tmp_path / "table")) as srv:
        pages = open_pages(browser, srv)
        phone, land, portrait = pages[(390, 844)], pages[(1280, 800)], pages[(800, 1280)]
        # the roll asks for the PIN, and is carried out once it is given: one tap
        before = current_read(phone)
        phone.click('[data-test="demo-roll"]')
        login_in_dialog(phone, srv.pin)
        status = wait_read(phone, before)
        land.click('[data-test="pin-open"]')
        login_in_dialog(land, srv.pin)
        if status != "applied":
            land.wait_for_selector('[data-test="discard-read"]')
            land.click('[data-test="discard-read"]')
            roll_applied(land)
        assert srv.get("/api/state")["history"][-1]["type"] == CAMERA_EVENT[game]
        check_outcome_in_view(pages, srv)
        for (w, h), pg in pages.items():
            wait_read(pg, None)
            pg.screenshot(path=str(shots / f"{game}-roll-{w}x{h}.png"))
        check_boxes_centred(phone)
        check_boxes_centred(land)

        if game != "espri":
            # a die corrected on the photo, then the correction undone from the bottom bar
            boxes = land.locator('[data-test="die-box"][data-status="read"]')
            box = land.locator('[data-test="die-box"][data-kind="lieu"]').first if game == "peripeties" else boxes.first
            idx = box.get_attribute("data-index")
            old = box.inner_text().strip()
            box.click()
            land.wait_for_selector('[data-test="face-picker"]')
            picker = land.inner_text('[data-test="face-picker"]')
            assert "Pas un dé" in picker and " gem " not in picker
            faces = land.locator('[data-test="face-picker"] .choice:not(.selected)')
            new = faces.first.inner_text().strip()
            faces.first.click()
            sel = f'[data-test="die-box"][data-index="{idx}"]'
            for pg in pages.values():
                pg.wait_for_selector(f'{sel}[data-status="corrected"]')
            assert land.inner_text(sel).strip() == new
            assert srv.get("/api/state")["history"][-1]["source"] == "correction"
            check_outcome_in_view(pages, srv)
            for (w, h), pg in pages.items():
                pg.screenshot(path=str(shots / f"{game}-correction-{w}x{h}.png"))
            phone.click('[data-test="undo"]')  # the bottom bar of the phone
            for pg in pages.values():  # the photo no longer shows the undone "corrigé" value
                pg.wait_for_selector(f'{sel}[data-status="read"]')
                assert pg.inner_text(sel).strip() == old
            assert srv.get("/api/state")["history"][-1]["source"] == "camera"
        else:
            picker_box = land.locator('[data-test="die-box"]').first
            picker_box.click()
            picker = land.inner_text('[data-test="face-picker"]')
            assert "gemme" in picker and "Pas une gemme" in picker and "Pas un dé" not in picker
            assert "Tirer les gemmes" in land.inner_text('[data-test="demo-roll"]')
            land.screenshot(path=str(shots / "espri-correction-1280x800.png"))  # a gem's colours offered

        # the journal: the camera's roll with its dice as read, the undo
        land.goto(srv.base + "/journal")
        land.wait_for_selector('[data-test="journal-entry"]')
        roll_seq = next(e["seq"] for e in reversed(srv.get("/api/log")["events"])
                        if e["type"] == CAMERA_EVENT[game] and e["source"] == "camera")
        entry = land.locator(f'[data-test="journal-entry"][data-seq="{roll_seq}"]')
        assert entry.locator('[data-test="journal-die"][data-how="lu"]').count() >= 1
        if game != "espri":
            assert land.locator('[data-test="journal-entry"][data-undone="yes"]').count() == 1
            assert land.locator('[data-test="journal-die"][data-how="corrigé"]').count() >= 1
        land.screenshot(path=str(shots / f"{game}-journal-1280x800.png"), full_page=False)
        people = [o for o in land.eval_on_selector_all('[data-test="journal-who"] option', "os => os.map(o => o.value)") if o]
        assert people, "the journal names the players and characters"
        land.select_option('[data-test="journal-who"]', people[0])
        land.wait_for_function("(p) => Array.from(document.querySelectorAll('[data-test=journal-entry]')).length > 0"
                               " && Array.from(document.querySelectorAll('[data-test=journal-who-names]'))"
                               ".every(e => e.textContent.split(', ').includes(p))", arg=people[0])
        # the exports follow the filter once its page has come back (an entry without a
        # name, the new game, made the wait above pass on the unfiltered page too)
        land.wait_for_function("() => document.querySelector('[data-test=journal-csv]').href.includes('who=')")
        csv_resp = land.request.get(srv.base + land.get_attribute('[data-test="journal-csv"]', "href"))
        assert csv_resp.status == 200 and "text/csv" in csv_resp.headers["content-type"]
        rows = list(csv.reader(io.StringIO(csv_resp.text().lstrip("\ufeff")), delimiter=";"))
        assert rows[0][:4] == ["n°", "heure (UTC)", "qui", "quoi"]
        assert len(rows) > 1 and all(people[0] in r[2].split(", ") for r in rows[1:])

        # the statistics of what was rolled
        land.goto(srv.base + "/stats")
        land.wait_for_selector('[data-test="die-stats"]')
        land.wait_for_function("Array.from(document.querySelectorAll('[data-test=die-hist]')).every(i => i.complete && i.naturalWidth > 0)")
        land.screenshot(path=str(shots / f"{game}-stats-1280x800.png"))
        for pg in pages.values():
            assert pg.js_errors == [] and pg.dialogs == []
        # every style comes from a file (the strict Content-Security-Policy allows no inline <style>)
        portrait.wait_for_selector('#game > *')
        assert portrait.evaluate("document.querySelectorAll('style').length") == 0
        assert portrait.evaluate(f"!!document.querySelector('link[data-game-css=\"{game}\"]').sheet.cssRules.length")


def test_new_game_set_up_in_the_page_and_the_old_photo_goes(browser, tmp_path):
    shots = shots_dir(tmp_path)
    with Server("--demo", "--game", "shayo", "--data", str(tmp_path / "table")) as srv:
        pages = open_pages(browser, srv)
        land = pages[(1280, 800)]
        land.click('[data-test="pin-open"]')
        login_in_dialog(land, srv.pin)
        roll_applied(land)
        # typed dice of this game
        assert srv.post({"type": "undo"})[0] == 201
        assert srv.post({"type": "shayo.roll", "data": {"dice": [8, 3, 1, 6, 2]}})[0] == 201
        land.wait_for_selector('[data-test="typed-dice"]')
        # restart the game already running: asked in the page, never with confirm()
        for (w, h), pg in pages.items():
            pg.click('[data-test="new-game-shayo"]')
            pg.wait_for_selector('[data-test="setup-confirm"]')
            assert "s'arrête ici" in pg.inner_text('[data-test="setup-confirm"]')
            pg.screenshot(path=str(shots / f"shayo-setup-{w}x{h}.png"))
            if pg is not land:
                pg.click('[data-test="setup-cancel"]')
        land.uncheck('[data-test="setup-demo-cast"]')
        n_games = [e["type"] for e in srv.get("/api/log")["events"]].count("table.new_game")
        land.click('[data-test="setup-start"]')
        land.wait_for_selector('[data-test="setup-players"]')
        # Shayo's sheets have no player field: the players step says the names stay here
        assert "ne notent pas qui joue" in land.inner_text('[data-test="setup-players-note"]')
        land.fill('[data-test="setup-player-name"]', "Chloé")
        land.click('[data-test="setup-players-next"]')
        land.wait_for_selector('[data-test="setup-sheets"]')
        assert "Chloé" in land.inner_text('[data-test="setup-cast"]')
        log = srv.get("/api/log")["events"]
        assert [e["type"] for e in log].count("table.new_game") == n_games + 1
        assert srv.get("/api/state")["state"]["characters"] == []  # no demo cast: it was unticked
        for pg in pages.values():  # the previous game's photo and typed dice are gone
            pg.wait_for_function("!document.querySelector('[data-test=photo]') && !document.querySelector('[data-test=typed-dice]')")
        # bring back a sheet from the game before
        names = land.locator('[data-test="setup-sheet"] strong').all_inner_texts()
        assert "Aiko" in names
        land.locator('[data-test="setup-sheet"]', has_text="Aiko").locator('[data-test="setup-sheet-use"]').click()
        land.wait_for_function("Companion.table.state.characters.some(c => c.name === 'Aiko')")
        land.wait_for_selector('[data-test="setup-sheet"]:has-text("Ren")')
        assert land.locator('[data-test="setup-sheet"]', has_text="Aiko").count() == 0  # at the table now
        land.screenshot(path=str(shots / "shayo-setup-players-1280x800.png"))
        land.click('[data-test="setup-done"]')
        land.wait_for_selector('[data-test="setup"]', state="hidden")
        # Shayo's "se dépasser" is a touch target
        h = land.evaluate("(() => { const l = document.querySelector('[data-test=shayo-surpass-label]');"
                          " return l ? [l.getBoundingClientRect().height, document.querySelector('[data-test=shayo-surpass]')"
                          ".getBoundingClientRect().width] : null; })()")
        if h is not None:
            assert h[0] >= 44 and h[1] >= 24
        assert land.request.get(srv.base + "/favicon.ico").status == 200
        for pg in pages.values():
            assert pg.js_errors == [] and pg.dialogs == []


def test_peripeties_set_up_options_and_first_roll(browser, tmp_path):
    shots = shots_dir(tmp_path)
    with Server("--data", str(tmp_path / "table")) as srv:
        ctx = browser.new_context(viewport={"width": 800, "height": 1280}, locale="fr-FR")
        pg = ctx.new_page()
        dialogs: list[str] = []
        pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        pg.goto(srv.base + "/")
        pg.wait_for_selector('[data-test="live"][data-state="live"]')
        assert pg.locator('[data-test="setup-demo-cast"]').count() == 0
        pg.click('[data-test="new-game-peripeties"]')
        login_in_dialog_if_asked = pg.locator('[data-test="setup-start"]')
        pg.wait_for_selector('[data-test="setup-options"]')
        pg.click('[data-test="setup-options"] summary')
        label = pg.inner_text('[data-test="setup-options"]')
        assert "brother_mode" not in label and "frère juré" in label.lower()
        pg.select_option('[data-test="setup-opt-brother_mode"]', index=1)
        pg.screenshot(path=str(shots / "peripeties-setup-800x1280.png"))
        login_in_dialog_if_asked.click()
        login_in_dialog(pg, srv.pin)  # the start asked for the PIN, and happens once it is given
        pg.wait_for_selector('[data-test="pp-add-character"]')
        new_game = [e for e in srv.get("/api/log")["events"] if e["type"] == "table.new_game"]
        assert len(new_game) == 1 and new_game[0]["data"]["options"] == {"brother_mode": "replace"}
        assert srv.get("/api/state")["state"]["characters"] == []  # no demo cast outside --demo
        # the players step: named once, then offered by every character form
        pg.wait_for_selector('[data-test="setup-players"]')
        pg.fill('[data-test="setup-player-name"]', "Alice")
        pg.click('[data-test="setup-players-next"]')
        pg.wait_for_selector('[data-test="setup-cast"]')
        pg.click('[data-test="pp-add-character"]')
        pg.select_option('[data-test="pp-form-card"]', "lin-chong")
        assert pg.input_value('[data-test="pp-form-player"]') == "Alice"  # offered, not typed
        pg.click('[data-test="pp-form-submit"]')
        pg.wait_for_selector('[data-test="pp-card-lin-chong"]')
        # removing a character is asked in the page too
        pg.click('[data-test="pp-edit-lin-chong"]')
        pg.click('[data-test="pp-form-remove"]')
        assert "Retirer Lin Chong du jeu ?" in pg.inner_text('[data-test="pp-form-remove-ask"]')
        pg.click('[data-test="pp-form-remove-no"]')
        pg.click('[data-test="pp-form-cancel"]')
        assert pg.locator('[data-test="pp-card-lin-chong"]').count() == 1
        pg.click('[data-test="setup-done"]')
        pg.wait_for_function("Companion.table.state.expects.step === 'episode'")
        pg.wait_for_selector('[data-test="setup"]', state="hidden")
        assert dialogs == []
        ctx.close()


def test_players_step_names_the_table_then_each_sheet_offers_them(browser, tmp_path):
    """Issue 14 item 7: players, their characters, then the first roll. The players named
    in the set-up are offered by the game's character form (Péripéties records them in
    ``player``), one after the other; the step fits the three sizes."""
    shots = shots_dir(tmp_path)
    with Server("--data", str(tmp_path / "table")) as srv:
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.goto(srv.base + "/")
        pg.wait_for_selector('[data-test="live"][data-state="live"]')
        pg.click('[data-test="new-game-peripeties"]')
        pg.wait_for_selector('[data-test="setup-options"]')
        pg.click('[data-test="setup-start"]')
        login_in_dialog(pg, srv.pin)
        pg.wait_for_selector('[data-test="setup-players"]')
        assert pg.inner_text('[data-test="setup-steps"] li.current') == "2. Joueurs"
        pg.fill('[data-test="setup-player-name"]', "  Alice ")
        pg.click('[data-test="setup-player-add"]')
        pg.locator('[data-test="setup-player-name"]').nth(1).fill("Bruno")
        pg.click('[data-test="setup-player-add"]')
        pg.locator('[data-test="setup-player-name"]').nth(2).fill("alice")  # the same player twice: kept once
        pg.click('[data-test="setup-player-add"]')
        pg.locator('[data-test="setup-player-name"]').nth(2).fill("Chloé")
        for w, h in SIZES:
            pg.set_viewport_size({"width": w, "height": h})
            pg.locator('[data-test="setup"]').scroll_into_view_if_needed()
            box = pg.locator('[data-test="setup-players-next"]').bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= w  # nothing cut off at the side
            assert pg.evaluate("document.documentElement.scrollWidth") <= w
            pg.screenshot(path=str(shots / f"setup-players-{w}x{h}.png"))
        pg.set_viewport_size({"width": 1280, "height": 800})
        pg.click('[data-test="setup-players-next"]')
        pg.wait_for_selector('[data-test="setup-cast"]')
        cast = pg.locator('[data-test="setup-cast"] li').all_inner_texts()
        assert cast == ["Alice — pas encore de personnage", "Bruno — pas encore de personnage",
                        "Chloé — pas encore de personnage"]
        assert srv.get("/api/state")["state"]["characters"] == []  # naming players sends nothing
        # each new sheet starts with the next player who has none, and lists them all
        for card, player in (("lin-chong", "Alice"), ("wu-yong", "Bruno")):
            pg.click('[data-test="pp-add-character"]')
            pg.select_option('[data-test="pp-form-card"]', card)
            assert pg.input_value('[data-test="pp-form-player"]') == player
            assert pg.get_attribute('[data-test="pp-form-player"]', "list") == "setup-player-list"
            pg.click('[data-test="pp-form-submit"]')
            pg.wait_for_selector(f'[data-test="pp-card-{card}"]')
            pg.wait_for_selector(f'[data-test="setup-cast"] li[data-player="{player}"]:not(:has-text("pas encore"))')
        assert pg.evaluate("[...document.querySelectorAll('#setup-player-list option')].map(o => o.value)") == [
            "Alice", "Bruno", "Chloé"]
        chars = srv.get("/api/state")["state"]["characters"]
        assert [(c["id"], c["player"]) for c in chars] == [("lin-chong", "Alice"), ("wu-yong", "Bruno")]
        assert "Lin Chong" in pg.inner_text('[data-test="setup-cast"] li[data-player="Alice"]')
        pg.evaluate("document.getElementById('setup').scrollIntoView({block: 'start'})")
        pg.screenshot(path=str(shots / "setup-characters-1280x800.png"))
        # the names are remembered by the tablet for the next set-up
        pg.click('[data-test="setup-back-players"]')
        assert pg.locator('[data-test="setup-player-name"]').evaluate_all("els => els.map(e => e.value)") == [
            "Alice", "Bruno", "Chloé"]
        pg.click('[data-test="setup-players-next"]')
        pg.click('[data-test="setup-done"]')
        pg.wait_for_function("Companion.table.state.expects.step === 'episode'")
        pg.wait_for_selector('[data-test="setup"]', state="hidden")
        assert errors == []
        ctx.close()


@pytest.mark.parametrize("game", ["wuxia", "shayo", "espri"])
def test_each_game_sets_its_options_by_a_tap_in_words(browser, tmp_path, game):
    """Wuxia, Shayo and ESPRI had only the JSON editor: their options are now labelled
    inputs in French, at every size, and the value tapped is the one the game starts with."""
    from companion.games import find_game
    from companion.games.options import option_form

    form = option_form(find_game(game).options_class)
    assert form
    first = form[0]
    shots = shots_dir(tmp_path)
    with Server("--data", str(tmp_path / "table")) as srv:
        for w, h in SIZES:
            ctx = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR")
            pg = ctx.new_page()
            errors: list[str] = []
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(srv.base + "/")
            pg.wait_for_selector('[data-test="live"][data-state="live"]')
            pg.click(f'[data-test="new-game-{game}"]')
            pg.wait_for_selector('[data-test="setup-options"]')
            pg.click('[data-test="setup-options"] summary')
            text = pg.inner_text('[data-test="setup-options"]')
            for o in form:  # every option in words, none by its key
                assert o["label"]["fr"].split(" (")[0][:20] in text, o["name"]
                assert o["name"] not in text, o["name"]
                box = pg.locator(f'[data-test="setup-opt-{o["name"]}"]').bounding_box()
                assert box is not None and box["height"] >= 20
            pg.screenshot(path=str(shots / f"{game}-setup-options-{w}x{h}.png"), full_page=True)
            assert errors == []
            if (w, h) != SIZES[-1]:
                ctx.close()
                continue
            # on the phone: change the first option and start the game with it
            sel = f'[data-test="setup-opt-{first["name"]}"]'
            if first["kind"] == "bool":
                pg.click(sel)
                want = not first["default"]
            elif first["kind"] == "enum":
                index = 1 if first["choices"][0] == first["default"] else 0
                pg.select_option(sel, index=index)
                want = first["choices"][index]
            else:
                want = first["default"] + 1 if first["hi"] is None or first["default"] < first["hi"] else first["default"] - 1
                pg.fill(sel, str(want))
                pg.dispatch_event(sel, "change")
            pg.click('[data-test="setup-start"]')
            login_in_dialog(pg, srv.pin)
            pg.wait_for_selector('[data-test="setup-players"]')
            started = [e for e in srv.get("/api/log")["events"] if e["type"] == "table.new_game"]
            assert len(started) == 1 and started[0]["data"]["game"] == game
            assert started[0]["data"]["options"] == {first["name"]: want}
            ctx.close()
