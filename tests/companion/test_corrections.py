"""A correction after the result amends the roll it corrects (``"corrects": N``) and
re-derives what followed from it, in every game; or it is refused and says why.

The property tested on every demo and example log: correcting roll N at the end of the
log gives the table that a log with the right faces from the start would have given (or,
when a later event no longer fits, a refusal that names it and changes nothing).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError, RuleError
from companion.events import Event, Source, event_from_json_line
from companion.games import find_game
from companion.table import Table

from tests.companion.games.peripeties.test_peripeties_kit import P1_DICE, P2_DICE, T

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted([*(ROOT / "companion" / "data" / "demo").glob("*.jsonl"), *(ROOT / "examples").glob("*.jsonl")])
ROLLS = ("peripeties.dice", "wuxia.roll", "shayo.roll", "shayo.signature", "espri.draw", "espri.setup_draw")
GEMS = ("printemps", "ete", "automne", "hiver", "temps", "rupture")


def load(path: Path) -> list[Event]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    return [event_from_json_line(ln).with_seq(i) for i, ln in enumerate(lines, 1)]


def changed(data: dict[str, Any]) -> dict[str, Any] | None:
    """The same roll with its first die showing another face (None: no die to change)."""
    d = json.loads(json.dumps(data))
    for key in ("dice", "values"):
        dice = d.get(key)
        if isinstance(dice, list) and dice:
            if all(isinstance(v, int) for v in dice) and key != "dice" or (key == "dice" and isinstance(dice[0], int)):
                dice[0] = dice[0] % 10 + 1
                return d
            for die in dice:
                if isinstance(die, dict) and die.get("kind") in ("d10", "d12") and isinstance(die.get("value"), int):
                    die["value"] = die["value"] % 10 + 1
                    return d
    if isinstance(d.get("trial"), int):
        d["trial"] = d["trial"] % 10 + 1
        return d
    gems = d.get("gems")
    if isinstance(gems, list) and gems:
        gems[0] = GEMS[(GEMS.index(gems[0]) + 1) % len(GEMS)] if gems[0] in GEMS else "hiver"
        return d
    return None


def state_of(t: Table) -> str:
    game = t.game
    assert game is not None and t.state is not None
    return json.dumps(game.state_json(t.state), sort_keys=True, ensure_ascii=False, default=str)


def cases() -> list[tuple[str, int]]:
    out = []
    for path in LOGS:
        events = load(path)
        rolls = [i for i, e in enumerate(events) if e.type in ROLLS and changed(dict(e.data)) is not None]
        out += [(path.name, i) for i in rolls[:4]]
    return out


@pytest.mark.parametrize("name,index", cases())
def test_a_correction_at_the_end_equals_the_right_read_from_the_start(name: str, index: int) -> None:
    path = next(p for p in LOGS if p.name == name)
    events = load(path)
    target = events[index]
    new = changed(dict(target.data))
    assert new is not None
    # the log as it would have been, had the camera read the right face
    right = [*events[:index], Event(target.type, new, Source.CORRECTION, target.seq, target.at, target.by),
             *events[index + 1:]]
    straight = Table().replay(right)
    played = Table().replay(events)
    assert played.game_name is not None
    fix = Event(target.type, {**new, "corrects": target.seq}, Source.CORRECTION, len(events) + 1)
    if len(straight.skipped) > len(played.skipped):
        before = state_of(played)
        with pytest.raises(RuleError) as err:
            played.apply(fix)
        assert err.value.rule == "correction" and f"{target.seq}" in str(err.value)
        assert state_of(played) == before and len(played.frames) == len(events) - len(played.skipped)
    else:
        try:
            played.apply(fix)
        except CompanionError as exc:  # the corrected roll itself is refused: both paths agree
            assert straight.skipped and straight.skipped[0][0].seq == target.seq, str(exc)
            return
        assert state_of(played) == state_of(straight)
        # undo takes the correction back: the table as it was played
        played.apply(Event("undo", {}, seq=len(events) + 2))
        assert state_of(played) == state_of(Table().replay(events))


def test_every_game_has_a_correction_case() -> None:
    games = {find_game(e.game or "").name for name, i in cases()
             for e in [load(next(p for p in LOGS if p.name == name))[i]]}
    assert games == {"peripeties", "wuxia", "shayo", "espri"}


# -- Péripéties: the case, a trial die corrected after the result ------------------------
def test_peripeties_trial_corrected_after_the_result_amends_that_episode() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    t.ev("add_character", player="Bruno", card="b3")
    t.ev("next_turn")
    t.ev("dice", **P1_DICE)  # combat against 15; Frère Deux has combat 2
    trial = t.ev("dice", source="camera", dice=[{"kind": "d10", "value": 5}])
    assert any(o.kind == "character.dead" or "meurt" in o.text["fr"] for o in trial.outcomes)
    assert [c["id"] for c in t.js["characters"]] == ["b3"]
    t.ev("dice", **P2_DICE)  # the next episode's dice, already on the table
    fix = t.raw("peripeties.dice", {"dice": [{"kind": "d10", "value": 10}], "corrects": trial.event.seq}, "correction")
    said = " ".join(o.text["fr"] for o in fix.outcomes)
    assert fix.outcomes[0].kind == "correction" and "réussite" in said
    # Frère Deux lives and has his reward; the failure and the wound are gone
    assert [c["id"] for c in t.js["characters"]] == ["b2", "b3"]
    assert t.tokens("b2")["wounds"] == 0 and t.tokens("b2")["banquets"] == 1
    # Frère Trois's episode is untouched: his dice are still his, nothing was added to them
    assert t.expects["character"] == "b3"
    have = t.expects["have"]
    assert (have["lieu"], have["difficulty"]) == ("ville", [3, 5])
    # undo takes the correction back
    undo = t.raw("undo", {})
    assert undo.outcomes[0].text["fr"].startswith("Annulé : la correction du jet n°")
    assert [c["id"] for c in t.js["characters"]] == ["b3"]


def test_peripeties_correction_that_no_later_event_fits_is_refused_and_says_why() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    t.ev("add_character", player="Bruno", card="b3")
    t.ev("next_turn")
    t.ev("dice", **{**P1_DICE, "recompense": "taels"})
    trial = t.ev("dice", trial=10)  # success: the tael D10 comes next
    t.ev("dice", taels=4)
    before = t.dump()
    with pytest.raises(RuleError) as err:
        t.raw("peripeties.dice", {"trial": 1, "corrects": trial.event.seq}, "correction")  # now a failure
    msg = str(err.value)
    assert err.value.rule == "correction" and f"n°\u00a0{trial.event.seq + 1}" in msg and "annulez les événements depuis" in msg
    assert t.dump() == before


def test_a_correction_without_its_roll_never_feeds_the_next_episode() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    t.ev("add_character", player="Bruno", card="b3")
    t.ev("next_turn")
    t.ev("dice", **P1_DICE)
    t.ev("dice", trial=9)
    assert t.expects["character"] == "b3"
    before = t.dump()
    with pytest.raises(RuleError) as err:
        t.ev("dice", source="correction", replace=True, dice=[{"kind": "d10", "value": 8}])
    assert "rien à corriger" in str(err.value)
    assert t.dump() == before


def test_a_second_correction_of_the_same_roll_supersedes_the_first() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    t.ev("add_character", player="Bruno", card="b3")
    t.ev("next_turn")
    t.ev("dice", **P1_DICE)
    trial = t.ev("dice", trial=5)
    t.raw("peripeties.dice", {"trial": 10, "corrects": trial.event.seq}, "correction")
    assert [c["id"] for c in t.js["characters"]] == ["b2", "b3"]
    t.ev("dice", **P2_DICE)
    t.raw("peripeties.dice", {"trial": 4, "corrects": trial.event.seq}, "correction")
    assert [c["id"] for c in t.js["characters"]] == ["b3"]  # dead again: the 4 fails
    assert t.expects["have"]["lieu"] == "ville"


def test_unknown_or_mistyped_target_is_refused() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    with pytest.raises(RuleError):
        t.raw("peripeties.dice", {"trial": 4, "corrects": 99}, "correction")
    with pytest.raises(CompanionError):
        t.raw("peripeties.dice", {"trial": 4, "corrects": 2}, "correction")  # 2 is an add_character
    with pytest.raises(CompanionError):
        t.raw("peripeties.dice", {"trial": 4, "corrects": "2"}, "correction")


# -- ESPRI, Wuxia, Shayo: a correction never lands in the next roll -----------------------------
def test_espri_draw_correction_after_the_appel_never_becomes_the_next_draw() -> None:
    from tests.companion.games.espri.test_espri_flow import Play, guardian

    p = Play()
    p.send("character", **guardian("deva", "hiver", {"hiver": 3}, 2, prayers=[], talents=["Abri"]))
    p.send("set_quadrant", season="hiver", cells=["hiver", "rupture"], nymph=0)
    p.send("appel", season="hiver", leader="deva")
    drawn = p.send("draw", gems=["temps", "printemps"], source="camera")
    p.send("choose", selection="printemps")
    p.send("appel", season="hiver", leader="deva")  # the next Appel waits for its draw
    before = p.table.state
    with pytest.raises(RuleError) as err:
        p.send("draw", source="correction", gems=["hiver", "hiver"], correction=True)
    assert "corrects" in str(err.value) and p.table.state is before
    # named, the correction amends the first Appel: the choice that followed no longer fits
    with pytest.raises(RuleError) as err:
        p.send("draw", source="correction", gems=["hiver", "temps"], corrects=drawn.event.seq)
    assert err.value.rule == "correction" and "printemps" in str(err.value)


def test_wuxia_and_shayo_say_how_to_correct_a_finished_roll() -> None:
    t = Table()
    t.apply(Event("table.new_game", {"game": "wuxia", "seed": 1}, seq=1))
    t.apply(Event("wuxia.test", {"dice": 3, "sr": 10, "competence": 2}, seq=2))
    roll = t.apply(Event("wuxia.roll", {"dice": [1, 1, 3]}, Source.CAMERA, seq=3))
    assert any("critique" in o.text["fr"] or "critical" in o.text["en"] for o in roll.outcomes)
    t.apply(Event("wuxia.accept", {}, seq=4))
    with pytest.raises(RuleError) as err:
        t.apply(Event("wuxia.correct", {"index": 0, "value": 9}, Source.CORRECTION, seq=5))
    assert "corrects" in str(err.value)
    fix = t.apply(Event("wuxia.roll", {"dice": [9, 1, 3], "corrects": 3}, Source.CORRECTION, seq=5))
    assert fix.outcomes[0].kind == "correction"
    assert not any("critique" in o.text["fr"] for o in fix.outcomes[1:])


def test_undo_names_what_it_undid_in_words() -> None:
    t = T()
    t.ev("add_character", player="Alice", card="b2")
    t.ev("next_turn")
    dice = t.ev("dice", **P1_DICE)
    undo = t.raw("undo", {})
    fr, en = undo.outcomes[0].text["fr"], undo.outcomes[0].text["en"]
    assert "peripeties" not in fr and "#" not in fr and "peripeties" not in en
    said = dice.outcomes[-1].text["fr"]
    assert fr.startswith("Annulé : «\u00a0") and fr.endswith(f"(n°\u00a0{dice.event.seq})")
    assert said[:40] in fr and en.startswith("Undone: “")


@pytest.mark.parametrize("name,index", cases()[::3])
def test_an_amendment_replays_the_same_from_a_snapshot(tmp_path: Path, name: str, index: int) -> None:
    """The server's table keeps a window of frames and restarts from snapshots: an
    amendment applied live gives, after a restart from a snapshot, the same table as a
    fold of the whole log with every frame kept."""
    from companion.service import TableService

    path = next(p for p in LOGS if p.name == name)
    events = load(path)
    target = events[index]
    new = changed(dict(target.data))
    assert new is not None
    db = tmp_path / "table.sqlite"
    s = TableService(db, snapshot_every=3)
    for ev in events:
        try:
            s.submit({"type": ev.type, "data": dict(ev.data), "source": ev.source.value})
        except ValueError:
            pass
    seq = next(e.seq for e in s.log.events() if e.type == target.type and e.data == target.data)
    try:
        s.submit({"type": target.type, "data": {**new, "corrects": seq}, "source": "correction"})
    except ValueError:
        pass  # refused live: nothing stored, nothing to replay
    live = state_of(s.table)
    s.close()
    again = TableService(db, snapshot_every=3)
    assert state_of(again.table) == live
    full = Table().replay(list(again.log.events()))
    again.close()
    assert state_of(full) == live
