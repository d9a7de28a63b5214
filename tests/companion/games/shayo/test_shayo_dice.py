"""Keep and count on real dice (R2, A1, A2), and robustness of the game to any input."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.events import parse_event
from companion.games.shayo.dice import best_keep, check_keep, count
from companion.table import Table

SCOPES = ("all_rolled", "kept_only", "ones_forced_kept")


@settings(max_examples=80, deadline=None)
@given(dice=st.lists(st.integers(1, 10), min_size=0, max_size=7), keep=st.integers(0, 8),
       d=st.integers(2, 11), scope=st.sampled_from(SCOPES), data=st.data())
def test_best_keep_is_the_best_allowed_keep(dice: list[int], keep: int, d: int, scope: str, data: st.DataObject) -> None:
    cancelled = [v == 1 and data.draw(st.booleans()) for v in dice]
    best = count(dice, cancelled, best_keep(dice, cancelled, keep, scope), d, scope).net
    size = max(0, min(keep, len(dice)))
    nets = []
    for chosen in itertools.combinations(range(len(dice)), size):
        try:
            kept = check_keep(dice, cancelled, keep, scope, list(chosen))
        except CompanionError:
            continue
        c = count(dice, cancelled, kept, d, scope)
        assert c.net == max(0, c.successes - c.ones) and c.cancelled == c.successes - c.net
        nets.append(c.net)
    assert nets and best == max(nets)


def test_ones_cancel_even_unkept_by_default() -> None:
    dice = [8, 3, 1, 6]
    kept = best_keep(dice, [False] * 4, 2, "all_rolled")
    assert [dice[i] for i in kept] == [8, 6]
    c = count(dice, [False] * 4, kept, 6, "all_rolled")
    assert (c.successes, c.ones, c.cancelled, c.net) == (2, 1, 1, 1)
    # a cancelled 1 (signature) no longer counts
    assert count(dice, [False, False, True, False], kept, 6, "all_rolled").net == 2


_VERBS = ["test", "roll", "keep", "signature", "correct", "ki", "cancel", "attack", "defend", "no_defence",
          "craft", "improve", "spend_ki", "refresh_ki", "health", "initiative", "next_action",
          "character", "edit_character", "remove_character", "fly"]
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["Aiko", "agi", "kenjutsu", "katana", "relance_echec", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["who", "dice", "attribute", "skill", "difficulty", "ki", "rolled", "kept", "signature",
                         "values", "index", "value", "target", "weapon", "amount", "use", "name", "object",
                         "quality", "boxes", "from", "surpass", "combatants", "die"]), inner, max_size=5),
    max_leaves=12)


@settings(max_examples=60, deadline=None)
@given(events=st.lists(st.tuples(st.sampled_from(_VERBS), _values), max_size=25), seed=st.integers(0, 5))
def test_any_input_is_accepted_or_refused_cleanly(events: list, seed: int) -> None:
    table = Table()
    table.apply(parse_event({"type": "table.new_game", "data": {"game": "shayo", "seed": seed}, "seq": 1}))
    table.apply(parse_event({"type": "shayo.character", "seq": 2, "data": {
        "name": "Aiko", "attributes": {"INS": 3, "AGI": 4}, "skills": {"Kenjutsu": 3},
        "signatures": {"kenjutsu": ["relance_echec"]}, "weapons": {"katana": {"dice": 2}}}}))
    rng = random.Random(seed)
    seq = 2
    for verb, raw in events:
        data = raw if isinstance(raw, dict) else {"dice": [rng.randint(1, 10) for _ in range(rng.randint(0, 6))]}
        seq += 1
        ev = parse_event({"type": f"shayo.{verb}", "data": data, "seq": seq})
        before = table.state
        try:
            table.apply(ev)
        except CompanionError:
            assert table.state is before
        table.to_json()  # the tablet's view always renders


def _plausible(rng: random.Random, state: dict) -> tuple[str, dict]:
    """An event a player could send now, driven by ``expects``."""
    exp = state["expects"]
    step = exp["step"]
    if step == "roll":
        n = exp["dice"][0]["count"]
        if rng.random() < 0.15 and "shayo.ki" in exp["choices"]:
            return "shayo.ki", {"rolled": rng.randint(0, 2), "kept": rng.randint(0, 2), "surpass": rng.random() < 0.5}
        return "shayo.roll", {"dice": [rng.randint(0, 10) for _ in range(n + (rng.random() < 0.05))]}
    if step == "signatures":
        if exp["signatures"] and rng.random() < 0.7:
            s = rng.choice(exp["signatures"])
            dice = rng.sample(s["dice"], 1)
            return "shayo.signature", {"signature": s["id"], "dice": dice, "values": [rng.randint(1, 10)]}
        return "shayo.keep", {}
    if step == "keep":
        return "shayo.keep", {}
    if step == "defence":
        if rng.random() < 0.5:
            return "shayo.no_defence", {}
        return "shayo.defend", {"attribute": "AGI", "skill": "Esquive"}
    if state["can_correct"] and rng.random() < 0.2:
        return "shayo.correct", {"index": 0, "value": rng.randint(1, 10)}
    r = rng.random()
    if r < 0.35:
        return "shayo.test", {"who": rng.choice(["Aiko", "Ren"]), "attribute": "AGI", "skill": "Kenjutsu",
                              "difficulty": rng.randint(2, 12), "ki": {"rolled": rng.randint(0, 1), "kept": rng.randint(0, 1)},
                              "modifiers": {"rolled": rng.randint(-2, 1)}}
    if r < 0.65:
        return "shayo.attack", {"who": "Aiko", "target": "Ren", "attribute": "AGI", "skill": "Kenjutsu", "weapon": "katana",
                                "option": rng.choice(["normal", "force", "finesse"])}
    if r < 0.75:
        return "shayo.craft", {"who": "Aiko", "object": f"objet{rng.randint(0, 3)}", "attribute": "AGI", "skill": "Kenjutsu",
                               "quality": rng.choice(["mediocre", "normal", "superior"]), "difficulty": rng.randint(4, 8), "required": 3}
    if r < 0.85:
        return "shayo.improve", {"who": "Aiko", "object": f"objet{rng.randint(0, 3)}", "attribute": "AGI", "skill": "Kenjutsu",
                                 "improvement": rng.choice(["solidite", "de_lance", "degats_fixes"]),
                                 "duration": rng.choice(["permanent", "combat"]), "difficulty": 6}
    if r < 0.92:
        return "shayo.spend_ki", {"who": "Ren", "use": "manoeuvre", "amount": rng.randint(1, 4), "surpass": True}
    return "shayo.refresh_ki", {}


def test_plausible_play_never_crashes_and_undo_is_free() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        table = Table()
        table.apply(parse_event({"type": "table.new_game", "data": {"game": "shayo", "seed": seed,
                                 "options": {"tens_reroll": rng.choice(["explode", "extra_die"])}}, "seq": 1}))
        sigs = ["relance_echec", "plus_1", "relance_10", "annule_1"]
        for seq, ch in enumerate([
            {"name": "Aiko", "attributes": {"INS": 3, "AGI": 4}, "skills": {"Kenjutsu": 5},
             "signatures": {"kenjutsu": rng.sample(sigs, 2)}, "weapons": {"katana": {"dice": 2, "fixed": 1, "solidity": 2}}},
            {"name": "Ren", "attributes": {"INS": 2, "AGI": 3}, "skills": {"Kenjutsu": 2, "Esquive": 2},
             "armour": {"sd": 6, "protection": 1, "solidity": 2}}], start=2):
            table.apply(parse_event({"type": "shayo.character", "data": ch, "seq": seq}))
        seq = 3
        accepted = 0
        for _ in range(150):
            etype, data = _plausible(rng, table.to_json()["state"])
            seq += 1
            before = table.state
            try:
                table.apply(parse_event({"type": etype, "data": data, "seq": seq}))
                accepted += 1
            except CompanionError:
                assert table.state is before
                continue
            if rng.random() < 0.05:  # undo restores the previous state object itself
                seq += 1
                table.apply(parse_event({"type": "undo", "data": {}, "seq": seq}))
                assert table.state is before
        assert accepted > 75
