"""A full Péripéties turn for three characters, played on the tablet page by taps, with a
correction and an undo, against the real server (``companion serve`` in a subprocess)."""

from __future__ import annotations

import pytest

from tests.helpers import Server

pytestmark = pytest.mark.browser


def expects(page) -> dict:
    return page.evaluate("Companion.table && Companion.table.state ? Companion.table.state.expects : null")


def wait_step(page, step: str, character: str | None = None) -> None:
    cond = f"Companion.table && Companion.table.state && Companion.table.state.expects.step === '{step}'"
    if character:
        cond += f" && Companion.table.state.expects.character === '{character}'"
    page.wait_for_function(cond, timeout=10000)


def tap(page, test: str) -> None:
    page.click(f'[data-test="{test}"]')


def login(page, pin: str) -> None:
    tap(page, "pin-open")
    page.fill('[data-test="pin-input"]', pin)
    tap(page, "pin-submit")
    page.wait_for_selector('[data-test="pin-open"][data-state="unlocked"]')


def add_character(page, card: str, player: str) -> None:
    tap(page, "pp-add-character")
    page.select_option('[data-test="pp-form-card"]', card)
    page.fill('[data-test="pp-form-player"]', player)
    tap(page, "pp-form-submit")
    page.wait_for_selector(f'[data-test="pp-card-{card}"]')


def enter_episode(page, lieu: str, difficulty: tuple[int, int]) -> None:
    for test in (f"pp-die-lieu-0-{lieu}", "pp-die-adversaire-0-animal", "pp-die-epreuve-0-combat",
                 "pp-die-recompense-0-banquet", "pp-die-sentence-0-voyage",
                 f"pp-die-difficulty-0-{difficulty[0]}", f"pp-die-difficulty-1-{difficulty[1]}"):
        tap(page, test)
    tap(page, "pp-confirm")


def roll_trial(page, value: int) -> None:
    tap(page, f"pp-die-trial-0-{value}")
    tap(page, "pp-confirm")


def test_three_characters_play_a_turn_with_a_correction_and_an_undo(page, tmp_path):
    with Server("--data", str(tmp_path)) as srv:
        page.goto(srv.base + "/")
        page.wait_for_selector('[data-test="live"][data-state="live"]')
        login(page, srv.pin)
        tap(page, "new-game-peripeties")
        tap(page, "setup-start")
        page.wait_for_selector('[data-test="pp-add-character"]')
        add_character(page, "lin-chong", "Alice")
        add_character(page, "wu-yong", "Bruno")
        add_character(page, "gongsun-sheng", "Chloé")
        tap(page, "pp-next-turn")

        # Lin Chong: the dice, then a correction of the location before the roll.
        wait_step(page, "episode", "lin-chong")
        enter_episode(page, "montagne", (5, 6))
        wait_step(page, "trial", "lin-chong")
        assert "11" in page.inner_text('[data-test="pp-episode"]')  # difficulty 5 + 6
        assert page.locator('[data-test="pp-odds"]').count() == 1
        tap(page, "pp-correct")
        tap(page, "pp-die-lieu-0-ville")
        tap(page, "pp-correction-confirm")
        page.wait_for_function("Companion.table.state.expects.have.lieu === 'ville'")
        roll_trial(page, 12)  # natural max on his D12: success
        wait_step(page, "episode", "wu-yong")
        assert page.locator('[data-test="pp-last-result"]').count() == 1

        # Wu Yong: a roll entered wrong, undone, entered again.
        enter_episode(page, "temple", (9, 9))
        wait_step(page, "trial", "wu-yong")
        roll_trial(page, 1)  # natural 1: failure, Immobilised
        wait_step(page, "episode", "gongsun-sheng")
        tap(page, "undo")
        wait_step(page, "trial", "wu-yong")
        roll_trial(page, 12)  # natural max this time
        wait_step(page, "episode", "gongsun-sheng")

        # Gongsun Sheng.
        enter_episode(page, "foret", (2, 3))
        wait_step(page, "trial", "gongsun-sheng")
        roll_trial(page, 8)
        page.wait_for_function("Companion.table.state.expects.step === 'travel'")

        state = srv.get("/api/state")["state"]
        chars = {c["id"]: c for c in state["characters"]}
        log = srv.get("/api/log")["events"]
        sources = [e["source"] for e in log if e["type"] == "peripeties.dice"]
        assert "correction" in sources
        assert [e["type"] for e in log].count("undo") == 1
        # Every character played and won (natural 12s, and 8 + 2 against 5), so each has
        # a banquet and one combat experience token, and nobody is immobilised.
        for cid in ("lin-chong", "wu-yong", "gongsun-sheng"):
            tokens = chars[cid]["tokens"]
            assert tokens["banquets"] == 1, (cid, tokens)
            assert tokens["xp"]["combat"] == 1, (cid, tokens)
            assert tokens["immobilised"] == 0, (cid, tokens)
        assert page.js_errors == []
