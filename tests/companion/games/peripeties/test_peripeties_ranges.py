"""Range checks per rule (issue 15): a value out of its range is refused with a message
that names it, and the table is left as it was; a value in range is accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError, EventError
from companion.games.peripeties.deck import NAME_MAX, RANK_RANGE, STAT_RANGE
from companion.games.peripeties.options import OPTION_SPECS

from tests.companion.games.peripeties.test_peripeties_kit import HERO, P1_DICE, T

ROOT = Path(__file__).resolve().parents[4]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

#: Integers that no range accepts, beside the ones just outside it.
HUGE = st.sampled_from([10**9, -(10**9), 10**30, -(10**30)])


def refused(t: T, verb: str, source: str = "manual", **data: Any) -> CompanionError:
    """The event is refused and changes nothing."""
    before = t.dump()
    with pytest.raises(CompanionError) as e:
        t.ev(verb, source=source, **data)
    assert t.dump() == before, "a refused event changed the state"
    return e.value


def _outside(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.one_of(st.integers(max_value=lo - 1), st.integers(min_value=hi + 1), HUGE)


def hero_on_trial() -> T:
    """Héros (D10) with its episode dice entered: the next die is the trial roll."""
    t = T()
    t.ev("add_character", player="Alice", **HERO)
    t.ev("next_turn")
    t.ev("dice", **P1_DICE)
    assert t.step == "trial"
    return t


# -- card values ------------------------------------------------------------------------
@FAST
@given(field=st.sampled_from(["rank", "combat", "esprit", "magie"]), data=st.data())
def test_card_value_out_of_range_refused_naming_it(field: str, data: st.DataObject) -> None:
    lo, hi = RANK_RANGE if field == "rank" else STAT_RANGE
    value = data.draw(_outside(lo, hi))
    t = T()
    err = refused(t, "add_character", player="Alice", **{**HERO, field: value})
    assert isinstance(err, EventError)
    assert f"'{field}'" in str(err) and str(value) in str(err) and f"from {lo} to {hi}" in str(err)


@FAST
@given(rank=st.integers(*RANK_RANGE), combat=st.integers(1, STAT_RANGE[1]),
       esprit=st.integers(*STAT_RANGE), magie=st.integers(*STAT_RANGE))
def test_card_values_in_range_accepted(rank: int, combat: int, esprit: int, magie: int) -> None:
    t = T()
    t.ev("add_character", player="Alice", **{**HERO, "rank": rank, "combat": combat, "esprit": esprit, "magie": magie})
    card = t.char("heros")["card"]
    assert (card["rank"], card["combat"], card["esprit"], card["magie"]) == (rank, combat, esprit, magie)


def test_issue_15_examples_refused_everywhere_a_card_comes_from() -> None:
    # rank -5 and combat 10^9 were accepted (issue 15)
    t = T()
    assert "-5" in str(refused(t, "add_character", player="Alice", **{**HERO, "rank": -5}))
    assert str(10**9) in str(refused(t, "add_character", player="Alice", **{**HERO, "combat": 10**9}))
    t.ev("add_character", player="Alice", **HERO)
    assert "-5" in str(refused(t, "edit_character", character="heros", rank=-5))
    assert "'magie'" in str(refused(t, "edit_character", character="heros", magie="-100"))
    bad_deck = {"cards": [{**HERO, "id": "x", "rank": -5}]}
    with pytest.raises(EventError, match="'rank' must be an integer from 0 to 999, not -5"):
        T(deck=bad_deck)
    t2 = T(deck="none")
    assert "-5" in str(refused(t2, "deck", cards=bad_deck["cards"]))


def test_card_name_length() -> None:
    t = T()
    refused(t, "add_character", player="Alice", **{**HERO, "name": "N" * (NAME_MAX + 1)})
    refused(t, "add_character", player="Alice", **{**HERO, "nickname": "N" * (NAME_MAX + 1)})
    t.ev("add_character", player="Alice", **{**HERO, "name": "N" * NAME_MAX})


# -- tokens ---------------------------------------------------------------------------------
@FAST
@given(field=st.sampled_from(["wounds", "banquets", "gourds", "taels", "immobilised"]),
       value=_outside(0, 10_000))
def test_tokens_out_of_range_refused(field: str, value: int) -> None:
    t = T()
    t.ev("add_character", player="Alice", **HERO)
    err = refused(t, "edit_character", character="heros", **{field: value})
    assert f"'{field}'" in str(err) and str(value) in str(err)


@pytest.mark.parametrize("text", ["²", "٣", "9" * 5000, "1e3", "--1"])
def test_token_as_odd_text_is_an_event_error(text: str) -> None:
    # "²" is a digit for str.isdigit() and int() refused it with a bare ValueError; 5,000
    # digits passed the test too and int() refused them (Python's 4,300-digit limit)
    t = T()
    t.ev("add_character", player="Alice", **HERO)
    assert isinstance(refused(t, "edit_character", character="heros", taels=text), EventError)


def test_prison_die_on_the_card() -> None:
    t = T()
    t.ev("add_character", player="Alice", **HERO)
    assert "5" in str(refused(t, "edit_character", character="heros", prison=5))
    t.ev("edit_character", character="heros", prison=4)
    assert t.tokens("heros")["prison"] == 4


# -- die faces ------------------------------------------------------------------------------
def test_d10_face_of_11_by_hand_refused() -> None:
    t = hero_on_trial()
    err = refused(t, "dice", trial=11)
    assert "1-10" in str(err) and "11" in str(err)
    t.ev("dice", trial=0)  # a D10's 0 is its 10: the natural maximum
    assert t.js["last"]["roll"] == 10


@FAST
@given(role=st.sampled_from(["trial", "taels", "difficulty", "detail", "prison"]),
       value=st.one_of(st.integers(max_value=-1), st.integers(min_value=13), HUGE),
       as_text=st.booleans(), source=st.sampled_from(["manual", "camera", "correction"]))
def test_die_face_out_of_range_refused_naming_it(role: str, value: int, as_text: bool, source: str) -> None:
    t = T()
    t.ev("add_character", player="Alice", **HERO)
    t.ev("next_turn")
    raw: Any = str(value) if as_text and value >= 0 else value
    data: dict[str, Any] = {**P1_DICE, role: raw} if role in ("difficulty", "detail") else {role: raw}
    if role == "difficulty":
        data["difficulty"] = [raw, 5]
    err = refused(t, "dice", source=source, **data)
    assert isinstance(err, CompanionError)
    if not as_text and abs(value) < 10**6:
        assert str(value) in str(err), str(err)


@FAST
@given(value=st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=6),
                       st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2)),
       role=st.sampled_from(["lieu", "adversaire", "epreuve", "recompense", "sentence",
                             "difficulty", "detail", "trial", "taels", "prison", "dice"]))
def test_any_value_in_a_dice_event_is_refused_or_accepted_never_a_crash(value: Any, role: str) -> None:
    t = T()
    t.ev("add_character", player="Alice", **HERO)
    t.ev("next_turn")
    before = t.dump()
    try:
        t.ev("dice", **{role: value})
    except CompanionError:
        assert t.dump() == before


# -- options ----------------------------------------------------------------------------------
INT_OPTIONS = [s for s in OPTION_SPECS if s.kind == "int"]


@pytest.mark.parametrize("spec", INT_OPTIONS, ids=lambda s: s.name)
def test_every_int_option_has_a_range_and_its_ends_are_accepted(spec: Any) -> None:
    assert spec.lo is not None and spec.hi is not None and spec.lo <= spec.default <= spec.hi
    for ok in (spec.lo, spec.hi):
        T(options={spec.name: int(ok)})
    for bad in (int(spec.lo) - 1, int(spec.hi) + 1, 10**9):
        with pytest.raises(EventError, match=f"option {spec.name} .*not {bad}"):
            T(options={spec.name: bad})


def test_docs_options_table_shows_each_range() -> None:
    doc = (ROOT / "docs" / "peripeties.md").read_text(encoding="utf-8")
    for spec in INT_OPTIONS:
        row = f"| `{spec.name}` | `{json.dumps(spec.default)}` | integer from {int(spec.lo)} to {int(spec.hi)} |"
        assert row in doc, row
