"""Property tests over random event sequences driven by ``expects``.

Each step either answers what the state expects (random faces, random choices) or sends
junk; invariants hold after every accepted event, refused events change nothing, and
replaying the accepted log gives the same table, byte for byte.
"""

from __future__ import annotations

import json
import random
from typing import Any, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.events import Event, parse_event
from companion.games import find_game
from companion.table import Table

from tests.companion.games.peripeties.test_peripeties_kit import DECK

FACES = {
    "lieu": ["montagne", "ville", "temple", "auberge", "foret", "etang"],
    "adversaire": ["mandarin", "soldats", "bandits", "animal", "paysans", "nature"],
    "epreuve": ["combat", "combat", "combat", "esprit", "esprit", "magie"],
    "recompense": ["banquet", "banquet", "gourde", "gourde", "taels", "frere"],
    "sentence": ["voyage", "voyage", "taels", "bagne", "blessure", "blessure"],
}
SIDES = {"d4": 4, "d6": 6, "d10": 10, "d12": 12}


class Chooser:
    """Where the random choices of the driver come from (hypothesis or a seeded rng)."""

    def __init__(self, data: st.DataObject | None = None, rnd: random.Random | None = None) -> None:
        self.data, self.rnd = data, rnd

    def pick(self, seq: Sequence[Any]) -> Any:
        seq = list(seq)
        return self.data.draw(st.sampled_from(seq)) if self.data else self.rnd.choice(seq)  # type: ignore[union-attr]

    def int(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi)) if self.data else self.rnd.randint(lo, hi)  # type: ignore[union-attr]

    def bool(self) -> bool:
        return self.int(0, 1) == 1


def _value(c: Chooser, kind: str) -> Any:
    if kind in FACES:
        return c.pick(FACES[kind])
    return c.int(1, SIDES[kind])


def plausible(js: dict[str, Any], c: Chooser) -> tuple[str, dict[str, Any], str]:
    """An event answering the current step (type, data, source)."""
    exp = js["expects"]
    step = exp["step"]
    chars = js["characters"]
    if step == "setup" or (step == "travel" and c.int(0, 9) == 0):
        if not chars or (len(chars) < 4 and c.bool()):
            player = c.pick(["A", "B", "C"])
            data = {
                "player": player,
                "name": c.pick(["Wu", "Lin", "Hu", "Sun", "Li"]),
                "rank": c.int(1, 10),
                "star": c.pick(["celeste", "terrestre"]),
                "combat": c.int(1, 7),
                "esprit": c.int(0, 7),
                "magie": c.int(0, 7),
                "lieu": c.pick(FACES["lieu"]),
                "taels": c.int(0, 30),
                "gourds": c.int(0, 2),
                "banquets": c.int(0, 2),
            }
            return "peripeties.add_character", data, "manual"
    if step in ("setup", "travel"):
        if chars and c.int(0, 4) == 0:
            who = c.pick(chars)
            verb = c.pick(["heal", "bribe"])
            return f"peripeties.{verb}", {"character": who["id"]}, "manual"
        return "peripeties.next_turn", {}, "manual"
    if step in ("trial", "gourd", "brother_card", "bribe") and exp["choices"] and c.bool():
        ch = c.pick(exp["choices"])
        val = c.pick(ch["values"])
        return ch["event"], {"character": exp["character"], "turns": val} if ch["name"] == "bribe" else {ch["field"]: val}, "manual"
    if step == "prison" and c.int(0, 3) == 0:
        return "peripeties.cell", {"character": exp["character"], "cell": "C1"}, "manual"
    if step == "bribe":
        return "peripeties.bribe", {"character": exp["character"], "turns": 0}, "manual"
    if step == "brother_card":
        return "peripeties.choose", {"card": c.pick(exp["choices"][0]["values"])}, "manual"
    if step == "gourd":
        return "peripeties.choose", {"gourd": 0}, "manual"
    wanted = exp["dice"]
    have = exp.get("have", {})
    dice = []
    epreuve = have.get("epreuve")
    for d in wanted:
        if d.get("optional") and c.bool():
            continue
        if "if" in d:
            if epreuve is None or epreuve not in d["if"]["epreuve"]:
                continue
        n = d["count"] if c.int(0, 3) else 1  # sometimes only part of the dice
        for _ in range(n):
            v = _value(c, d["kind"])
            if d["kind"] == "epreuve":
                epreuve = v
            dice.append({"kind": d["kind"], "value": v, "role": d["role"]})
    if not dice:
        return "peripeties.next_turn", {}, "manual"
    source = "camera" if c.bool() else "manual"
    return "peripeties.dice", {"dice": dice}, source


JUNK = st.sampled_from([
    ("peripeties.dice", {"lieu": "lune"}),
    ("peripeties.dice", {"trial": 13}),
    ("peripeties.dice", {"taels": 4}),
    ("peripeties.choose", {"gourd": 3}),
    ("peripeties.bribe", {"character": "nobody"}),
    ("peripeties.next_turn", {}),
    ("peripeties.heal", {"character": "wu"}),
    ("peripeties.dice", {"dice": [{"kind": "d20", "value": 1}]}),
    ("peripeties.edit_character", {"character": "wu", "taels": -3}),
    ("peripeties.teleport", {}),
])


def check_invariants(table: Table, dead_seen: set[str]) -> None:
    st_ = table.state
    o = st_.options
    for c in st_.characters:
        assert c.taels >= 0 and c.gourds >= 0 and c.banquets >= 0 and c.wounds >= 0
        assert all(0 <= x <= o.xp_cap_each for x in c.xp) and sum(c.xp) <= o.xp_cap_total
        assert len(c.brothers) <= 6
        assert c.effective_combat > o.death_at
        assert 0 <= c.prison <= 4
        assert c.id not in dead_seen
    for d in st_.dead:
        dead_seen.add(d.id)
    if st_.last is not None:
        assert st_.last.name and st_.last.turn >= 1 and st_.last.success is not None
    assert not (set(st_.queue) & dead_seen)
    if st_.episode is not None:
        assert st_.episode.character not in dead_seen
    # cards: no card both in play and in a pile
    in_play = [c.card.id for c in st_.characters] + [b.id for c in st_.characters for b in c.brothers]
    assert len(in_play) == len(set(in_play))
    piles = set(st_.pile) | set(st_.discard) | {x for _, h in st_.hands for x in h}
    assert not (set(in_play) & piles)


OPTIONS = st.fixed_dictionaries({}, optional={
    "empty_pile": st.sampled_from(["stop", "reshuffle"]),
    "brother_draw": st.sampled_from(["software", "table"]),
    "gourd_timing": st.sampled_from(["before", "after"]),
    "bribe_timing": st.sampled_from(["any", "sentence"]),
    "reward_reroll": st.sampled_from(["on_read", "on_apply"]),
    "xp_at_cap": st.sampled_from(["lost", "lowest"]),
    "equal_rank": st.sampled_from(["reject", "accept"]),
})


@settings(max_examples=int(__import__("os").environ.get("PERIPETIES_EXAMPLES", "30")), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.integers(0, 2**16), OPTIONS)
def test_random_games_keep_invariants_and_replay(data: st.DataObject, seed: int, options: dict[str, Any]) -> None:
    table = Table()
    seq = 0
    accepted: list[Event] = []

    def send(etype: str, payload: dict[str, Any], source: str = "manual") -> bool:
        nonlocal seq
        ev = parse_event({"type": etype, "data": payload, "source": source, "seq": seq + 1})
        try:
            table.apply(ev)
        except CompanionError:
            return False
        seq += 1
        accepted.append(ev)
        return True

    assert send("table.new_game", {"game": "peripeties", "seed": seed, "options": {"deck": DECK, "empty_pile": "reshuffle", **options}})
    dead_seen: set[str] = set()
    chooser = Chooser(data=data)
    for _ in range(chooser.int(10, 45)):
        js = table.to_json()["state"]
        if chooser.int(0, 7) == 0:
            etype, payload = data.draw(JUNK)
            before = json.dumps(table.to_json(), sort_keys=True)
            if not send(etype, payload):
                assert json.dumps(table.to_json(), sort_keys=True) == before
            continue
        etype, payload, source = plausible(js, chooser)
        send(etype, payload, source)
        check_invariants(table, dead_seen)
    again = Table().replay(accepted, strict=True)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(table.to_json(), sort_keys=True)
    g = find_game("peripeties")
    assert g.describe(table.state, "fr") and g.describe(table.state, "en")


def test_driver_reaches_deep_steps() -> None:
    """The random driver above is not stuck in setup: a seeded run resolves episodes."""
    chooser = Chooser(rnd=random.Random(5))
    table = Table()
    table.apply(parse_event({"type": "table.new_game", "data": {"game": "peripeties", "seed": 5, "options": {"deck": DECK}}, "seq": 1}))
    seq = 1
    steps = set()
    for _ in range(400):
        js = table.to_json()["state"]
        steps.add(js["expects"]["step"])
        etype, payload, source = plausible(js, chooser)
        try:
            table.apply(parse_event({"type": etype, "data": payload, "source": source, "seq": seq + 1}))
            seq += 1
        except CompanionError:
            pass
        check_invariants(table, set())
    assert {"episode", "trial", "travel"} <= steps
    assert table.state.turn >= 3
