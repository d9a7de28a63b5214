"""A tiny game for testing the table machinery without any real rule set.

``dummy.add {"n": INT}`` adds ``n`` (1..6) to a total; ``dummy.roll`` adds a number the
software rolls with the injected rng (a die nobody owns).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion.errors import EventError, RuleError
from companion.events import Event
from companion.games.base import Outcome, text
from companion.games.options import default_options, option, parse_options


@dataclass(frozen=True)
class DummyState:
    total: int = 0
    rolls: tuple[int, ...] = ()
    cap: int = 100


@dataclass(frozen=True)
class DummyOptions:
    cap: int = option(100, lo=1, hi=10**12, fr="Total à ne pas dépasser", en="Total not to pass")


class DummyGame:
    name = "dummy"
    title = {"fr": "Jeu d'essai", "en": "Test game"}
    expects_steps = ()  # no typed expects: left out of the schema
    camera = None  # reads nothing by camera
    options_class = DummyOptions

    def default_options(self) -> dict[str, Any]:
        return default_options(DummyOptions)

    def new_state(self, options: Mapping[str, Any], rng: random.Random) -> DummyState:
        return DummyState(cap=parse_options(DummyOptions, options, self.name).cap)

    def apply(self, state: DummyState, event: Event, rng: random.Random) -> tuple[DummyState, list[Outcome]]:
        if event.type == "dummy.add":
            n = event.data.get("n")
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 6:
                raise EventError("dummy.add needs 'n', a die face 1..6")
        elif event.type == "dummy.roll":
            n = rng.randint(1, 6)
        else:
            raise EventError(f"unknown event type {event.type!r}")
        if state.total + n > state.cap:
            raise RuleError(f"the total may not pass {state.cap}", rule="CAP")
        new = replace(state, total=state.total + n, rolls=state.rolls + (n,))
        return new, [Outcome("dummy.added", text(f"+{n} (total {new.total})", f"+{n} (total {new.total})"), {"n": n})]

    def state_json(self, state: DummyState) -> dict[str, Any]:
        return {"total": state.total, "rolls": list(state.rolls), "expects": {"step": "add", "dice": [{"kind": "d6"}]}}

    def describe(self, state: DummyState, lang: str = "fr") -> str:
        return f"total {state.total}"


GAME = DummyGame()
