"""The camera path knows no game: each game supplies its matcher and its demo roll
through its game object (``camera``), and a new game plugs in without editing it."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

import companion.games as games
from companion.games import GAMES, register_game
from companion.games.camera import DemoObj, Match, Obj
from companion.app.democam import demo_objects
from companion.roll.demo import demo_events
from companion.roll.match import CAMERA_EVENTS, correction_event, match_read

ROOT = Path(__file__).resolve().parents[3]


def test_the_camera_path_names_no_game() -> None:
    names = re.compile("|".join(["p[ée]rip[ée]ties", "wuxia", "shayo", "espri"]), re.IGNORECASE)
    for path in ("companion/roll/match.py", "companion/app/democam.py", "companion/roll/demo.py",
                 "vision/demo_camera.py"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert names.findall(text) == [], path


class _Coin:
    """A camera plug-in for a game of heads or tails (one ``d2`` per step)."""

    event = "coin.flip"

    def match(self, expects: Mapping[str, Any], state: Mapping[str, Any], objects: list[Obj],
              previous: Mapping[str, Any]) -> Match:
        return Match("ready", "coin.flip", {"face": objects[0]["value"]}, used=[0])

    def ready_data(self, m: Match, objects: Sequence[Obj]) -> dict[str, Any]:
        return {"face": objects[m.used[0]]["value"], "corrected": True}

    def demo_objects(self, state: Mapping[str, Any], faces: Mapping[str, Sequence[int | str]],
                     rng: random.Random) -> list[DemoObj]:
        return [("d6", rng.choice(faces["d6"]))]


class _CoinGame:
    name = "coin"
    title = {"fr": "Pile ou face", "en": "Heads or tails"}
    expects_steps = ()
    camera = _Coin()
    options_class = None


COIN = _CoinGame()


def test_a_new_game_plugs_its_camera_in_through_its_game_object() -> None:
    register_game("coin", f"{__name__}:COIN")
    try:
        assert CAMERA_EVENTS["coin"] == "coin.flip"
        m = match_read("coin", {"expects": {}}, [{"kind": "d2", "value": 1}])
        assert (m.status, m.type, m.data) == ("ready", "coin.flip", {"face": 1})
        rec = {"type": "coin.flip", "seq": 4, "used": [0], "objects": [{"kind": "d2", "value": 2}]}
        assert correction_event(rec, 0) == ("coin.flip", {"face": 2, "corrected": True, "corrects": 4})
        (kind, face), = demo_objects("coin", {}, random.Random(1))
        assert kind == "d6" and 1 <= int(face) <= 6
        assert demo_events("coin") == []  # no demo log shipped
    finally:
        GAMES.pop("coin")
        games._cache.pop("coin", None)


def test_every_game_is_a_game_with_its_plug_ins() -> None:
    from companion.games import Game, find_game
    from tests.companion.dummy_game import GAME as DUMMY

    for name in ("peripeties", "wuxia", "shayo", "espri"):
        assert isinstance(find_game(name), Game)
    assert isinstance(DUMMY, Game) and DUMMY.camera is None


def test_a_game_without_a_camera_reads_nothing() -> None:
    assert match_read("nosuchgame", {}, []).status == "idle"
    assert demo_objects("nosuchgame", {}, random.Random(0)) == []
    assert "nosuchgame" not in CAMERA_EVENTS
    assert set(CAMERA_EVENTS) >= {"peripeties", "wuxia", "shayo", "espri"}


def test_a_pool_demo_rolls_nothing_once_the_dice_are_in() -> None:
    # a rolled Shayo test lists its faces under "dice": the demo has no die to roll
    state = {"expects": {"step": "signatures", "dice": [8, 3, 2], "keep": 2}}
    assert demo_objects("shayo", state, random.Random(0)) == []
    assert len(demo_objects("shayo", {"expects": {"step": "roll", "dice": [{"kind": "d10", "count": 3}]}},
                            random.Random(0))) == 3
