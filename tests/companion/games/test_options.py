"""The one options mechanism (companion.games.options): each option stated once, as a
dataclass field; unknown options and bad values are refused with a message naming them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from companion.errors import EventError
from companion.games.options import default_options, option, option_form, option_specs, parse_options


@dataclass(frozen=True)
class Opts:
    mode: str = option("add", decision="D3", choices=("add", "replace"), fr="Mode", en="Mode")
    cap: int = option(4, decision="R18", lo=0, hi=10, fr="Plafond", en="Cap")
    ratio: float = option(0.5, lo=0.0, hi=1.0, fr="Part", en="Share")
    strict: bool = option(True, fr="Strict", en="Strict")
    seasons: list = option(["spring", "summer"], fr="Saisons", en="Seasons",  # type: ignore[type-arg]
                           check=lambda v: None if isinstance(v, list) and all(isinstance(x, str) for x in v)
                           else ("l'option seasons est une liste de noms", "option seasons must be a list of names"))


def test_defaults_come_from_the_fields_once() -> None:
    assert default_options(Opts) == {"mode": "add", "cap": 4, "ratio": 0.5, "strict": True,
                                     "seasons": ["spring", "summer"]}
    assert Opts() == parse_options(Opts, {}, "g")
    assert [s.kind for s in option_specs(Opts)] == ["enum", "int", "float", "bool", "data"]


def test_list_defaults_are_not_shared() -> None:
    d = default_options(Opts)
    d["seasons"].append("winter")
    assert default_options(Opts)["seasons"] == ["spring", "summer"]
    assert Opts().seasons is not Opts().seasons


@pytest.mark.parametrize("raw, words", [
    ({"colour": 1}, "unknown option(s) for g: colour"),
    ({"mode": "both"}, "option mode (D3) must be one of add, replace"),
    ({"cap": 11}, "from 0 to 10"),
    ({"cap": -5}, "from 0 to 10"),
    ({"cap": True}, "whole number"),
    ({"cap": 2.5}, "whole number"),
    ({"cap": 10 ** 9}, "from 0 to 10"),
    ({"ratio": math.nan}, "a number from 0 to 1"),
    ({"strict": "yes"}, "true or false"),
    ({"strict": 1}, "true or false"),
    ({"seasons": "spring"}, "list of names"),
])
def test_bad_values_are_refused_by_name(raw: dict, words: str) -> None:
    with pytest.raises(EventError) as err:
        parse_options(Opts, raw, "g")
    assert words in str(err.value)


@pytest.mark.parametrize("raw", [[], "x", None, 3])
def test_options_must_be_an_object(raw: object) -> None:
    with pytest.raises(EventError, match="must be an object"):
        parse_options(Opts, raw, "g")  # type: ignore[arg-type]


def test_enum_does_not_take_a_lookalike_of_another_type() -> None:
    @dataclass(frozen=True)
    class Flag:
        n: int = option(1, choices=(1, 2), fr="n", en="n")

    with pytest.raises(EventError):
        parse_options(Flag, {"n": True}, "g")
    assert parse_options(Flag, {"n": 2}, "g").n == 2


def test_the_form_lists_tappable_options_with_labels() -> None:
    form = option_form(Opts)
    assert [o["name"] for o in form] == ["mode", "cap", "ratio", "strict"]
    cap = form[1]
    assert cap["lo"] == 0 and cap["hi"] == 10 and cap["label"] == {"fr": "Plafond", "en": "Cap"}


@pytest.mark.parametrize("game", ["peripeties", "wuxia", "shayo", "espri"])
def test_every_game_states_its_options_once_in_one_dataclass(game: str) -> None:
    from companion.games import find_game

    g = find_game(game)
    assert g.options_class is not None
    assert g.default_options() == default_options(g.options_class)  # the defaults come from the fields
    specs = option_specs(g.options_class)
    assert specs and all(s.fr and s.en and s.fr != s.en for s in specs)
    assert option_form(g.options_class), "the tablet's set-up shows the options by a tap"
    assert all(s.lo is not None and s.hi is not None for s in specs if s.kind == "int"), "every number has a range"


@pytest.mark.parametrize("game", ["peripeties", "wuxia", "shayo", "espri"])
def test_every_choice_of_every_option_is_offered_in_words(game: str) -> None:
    """The set-up form shows each choice in words, never its key ("at_least", "fewer")."""
    import re

    from companion.games import find_game

    for o in option_form(find_game(game).options_class):
        if o["kind"] != "enum":
            continue
        assert o["choice_labels"] is not None and len(o["choice_labels"]) == len(o["choices"]), o["name"]
        for key, words in zip(o["choices"], o["choice_labels"]):
            for lang in ("fr", "en"):
                assert words[lang], (o["name"], key)
                if isinstance(key, str) and "_" in key:
                    assert key not in words[lang] and key not in o["label"][lang], (o["name"], key)
        shown = [w["fr"] for w in o["choice_labels"]]
        assert len(set(shown)) == len(shown), o["name"]  # two choices never read alike
        assert not re.search(r"\b(at_least|above)\b", o["label"]["fr"])
