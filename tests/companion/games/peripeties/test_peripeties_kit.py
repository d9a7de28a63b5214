"""Helpers for the Péripéties tests (no tests here): a table driven through
:class:`companion.table.Table`, the same path the server and ``companion replay`` use."""

from __future__ import annotations

import json
from typing import Any

from companion.events import parse_event
from companion.table import Applied, Table

#: A small deck with known numbers (test fixtures, like the spec's hypothetical cards).
DECK = {
    "cards": [
        {"id": "chef", "name": "Chef", "rank": 1, "star": "celeste", "combat": 5, "esprit": 5, "magie": 5, "lieu": "ville"},
        {"id": "b2", "name": "Frère Deux", "rank": 2, "star": "terrestre", "combat": 2, "esprit": 4, "magie": 1, "lieu": "montagne"},
        {"id": "b3", "name": "Frère Trois", "rank": 3, "star": "terrestre", "combat": 3, "esprit": 2, "magie": 2, "lieu": "foret"},
        {"id": "b4", "name": "Frère Quatre", "rank": 4, "star": "terrestre", "combat": 1, "esprit": 1, "magie": 3, "lieu": "etang"},
        {"id": "b5", "name": "Frère Cinq", "rank": 5, "star": "terrestre", "combat": 2, "esprit": 2, "magie": 2, "lieu": "temple"},
        {"id": "b6", "name": "Frère Six", "rank": 6, "star": "terrestre", "combat": 2, "esprit": 3, "magie": 1, "lieu": "auberge"},
        {"id": "b7", "name": "Frère Sept", "rank": 7, "star": "terrestre", "combat": 1, "esprit": 1, "magie": 1, "lieu": "ville"},
        {"id": "b8", "name": "Frère Huit", "rank": 8, "star": "terrestre", "combat": 1, "esprit": 2, "magie": 1, "lieu": "montagne"},
        {"id": "b9", "name": "Frère Neuf", "rank": 9, "star": "terrestre", "combat": 3, "esprit": 1, "magie": 1, "lieu": "foret"},
    ]
}

#: The spec's hypothetical P1 character: terrestrial (D10), combat 5, favoured Forêt.
HERO = {"name": "Héros", "rank": 0, "star": "terrestre", "combat": 5, "esprit": 3, "magie": 2, "lieu": "foret"}

P1_DICE = {"lieu": "montagne", "adversaire": "animal", "epreuve": "combat", "recompense": "banquet",
           "sentence": "blessure", "difficulty": [7, 8]}
P2_DICE = {"lieu": "ville", "adversaire": "mandarin", "epreuve": "esprit", "recompense": "frere",
           "sentence": "taels", "difficulty": [3, 5]}


class T:
    """A table with short-hands: ``t.ev("dice", lieu=...)`` sends ``peripeties.dice``."""

    def __init__(self, seed: int = 1, options: dict[str, Any] | None = None, deck: Any = DECK) -> None:
        self.table = Table()
        self.seq = 0
        opts = {"deck": deck, **(options or {})}
        self.raw("table.new_game", {"game": "peripeties", "seed": seed, "options": opts})

    def raw(self, etype: str, data: dict[str, Any], source: str = "manual") -> Applied:
        self.seq += 1
        ev = parse_event({"type": etype, "data": data, "source": source, "seq": self.seq})
        try:
            return self.table.apply(ev)
        except Exception:
            self.seq -= 1
            raise

    def ev(self, verb: str, source: str = "manual", **data: Any) -> Applied:
        return self.raw(f"peripeties.{verb}", data, source)

    # -- reading ----------------------------------------------------------------------
    @property
    def js(self) -> dict[str, Any]:
        return self.table.to_json()["state"]

    @property
    def expects(self) -> dict[str, Any]:
        return self.js["expects"]

    @property
    def step(self) -> str:
        return self.expects["step"]

    def char(self, cid: str) -> dict[str, Any]:
        for c in self.js["characters"]:
            if c["id"] == cid:
                return c
        raise KeyError(cid)

    def tokens(self, cid: str) -> dict[str, Any]:
        return self.char(cid)["tokens"]

    def dump(self) -> str:
        return json.dumps(self.table.to_json(), sort_keys=True, ensure_ascii=False)


def kinds(applied: Applied) -> list[str]:
    return [o.kind for o in applied.outcomes]


def hero_table(tokens: dict[str, Any] | None = None, options: dict[str, Any] | None = None, **card: Any) -> T:
    """One player, the P1 hero (id ``heros``), turn 1 started: the episode waits for dice."""
    t = T(options=options)
    t.ev("add_character", player="Alice", id="heros", **{**HERO, **card}, **(tokens or {}))
    t.ev("next_turn")
    return t
