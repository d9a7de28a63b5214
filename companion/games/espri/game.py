"""The ESPRI game object: options (the spec's decisions, section 5), the event dispatch,
and the 72-gem invariant check after every event."""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from ...errors import EventError, RuleError
from ...events import Event
from ..base import Outcome
from . import appel, people, resolve, setup
from .state import GEMS, Board, EspriState, gem_census
from .view import describe, state_json

__all__ = ["EspriGame", "GAME", "OPTIONS"]

#: name -> (default, allowed values or a type, spec reference). Defaults are the spec's.
OPTIONS: dict[str, tuple[Any, Any, str]] = {
    "gems_per_colour": (12, int, "R1: 6 colours x 12"),
    "path_length": (21, int, "E3: 21 cells, the last is the world cell"),
    "halo_cells": ([4, 8, 12, 16, 20], list, "1.3: 5 haloed cells per path, plus the world cell (positions not in the source; cosmetic)"),
    "adjacent_modifier": ("one_degree", ("one_degree", "two_up_one_down"), "E5"),
    "fixed_criticals": (False, bool, "E5"),
    "max_draw": (12, int, "R12 / E8: never more than 12 gems"),
    "automatic_success_draw": (True, bool, "E8: draw 12 gems on an automatic Critical Success"),
    "redraw_first_gem": ("pool", ("pool", "aside"), "E6"),
    "gm_chooses_minus_one_with_prayer": (False, bool, "E7"),
    "unplaced_prayer": ("pool", ("pool", "owner"), "E10"),
    "success_extras_score": ("unmodified", ("unmodified", "modified"), "E11"),
    "rupture_blocks_standing_nymph": (False, bool, "E12b"),
    "rupture_removal_timing": ("after_advance", ("after_advance", "before_advance"), "E15"),
    "bounded_effects_order": ("minima_first", ("minima_first", "maxima_first"), "E17"),
    "resonance_score": ("tutelary", ("tutelary", "called"), "E18"),
    "harmony_cost_per_gem": (1, int, "E19"),
    "caterpillar": (False, bool, "R36"),
    "caterpillar_gem": ("farthest_behind", ("farthest_behind", "nearest_behind"), "E22"),
    "between_sessions": ("whole_board", ("whole_board", "nymphs_only"), "E26"),
    "no_talent_penalty": (1, int, "R24 / E27"),
    "setup_gm_ruptures": (4, int, "R7.5"),
    "communion_pool_max": (12, int, "R35"),
    "enforce_score_caps": (True, bool, "1.4"),
}

Handler = Callable[[EspriState, Event, random.Random], tuple[EspriState, list[Outcome]]]

HANDLERS: dict[str, Handler] = {
    "espri.character": setup.character,
    "espri.relationship": setup.relationship,
    "espri.setup_draw": setup.setup_draw,
    "espri.setup_keep": setup.setup_keep,
    "espri.setup_gm": setup.setup_gm,
    "espri.set_quadrant": setup.set_quadrant,
    "espri.nymph": setup.nymph,
    "espri.remove": setup.remove,
    "espri.new_day": setup.new_day,
    "espri.new_session": setup.new_session,
    "espri.appel": appel.announce,
    "espri.temptation": appel.temptation,
    "espri.draw": appel.draw,
    "espri.redraw": appel.redraw,
    "espri.prayer": appel.prayer,
    "espri.choose": appel.choose,
    "espri.extras": resolve.extras,
    "espri.keep_prayer": resolve.keep_prayer,
    "espri.remove_rupture": resolve.remove_rupture,
    "espri.cancel": appel.cancel,
    "espri.effect": people.effect,
    "espri.effect_clear": people.effect_clear,
    "espri.harmony": people.harmony,
    "espri.rupture": people.rupture,
    "espri.harmony_gift": people.harmony_gift,
    "espri.save": people.save,
    "espri.recharge": people.recharge,
    "espri.communion": people.communion,
    "espri.redeem": people.redeem,
}


class EspriGame:
    """ESPRI: gems drawn from the bag, the board, the Nymphs and the Appel."""

    name = "espri"
    title = {"fr": "ESPRI", "en": "ESPRI"}

    def default_options(self) -> dict[str, Any]:
        return {k: (list(v[0]) if isinstance(v[0], list) else v[0]) for k, v in OPTIONS.items()}

    def new_state(self, options: Mapping[str, Any], rng: random.Random) -> EspriState:
        opts = self.default_options()
        for key, value in options.items():
            if key not in OPTIONS:
                raise EventError(f"unknown ESPRI option {key!r}")
            _default, allowed, ref = OPTIONS[key]
            if isinstance(allowed, tuple):
                if value not in allowed:
                    raise EventError(f"option {key} ({ref}) is one of {', '.join(map(str, allowed))}, not {value!r}")
            elif allowed is bool:
                if not isinstance(value, bool):
                    raise EventError(f"option {key} ({ref}) is true or false")
            elif allowed is int:
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise EventError(f"option {key} ({ref}) is an integer >= 0")
            elif allowed is list and not (isinstance(value, list) and all(isinstance(x, int) for x in value)):
                raise EventError(f"option {key} ({ref}) is a list of cell numbers")
            opts[key] = value
        if not 1 <= opts["path_length"] <= 60:
            raise EventError("option path_length is 1-60")
        if not 1 <= opts["max_draw"] <= 72:
            raise EventError("option max_draw is 1-72")
        per = opts["gems_per_colour"]
        return EspriState(options=opts, pool=(per,) * len(GEMS), board=Board.empty(opts["path_length"]))

    def apply(self, state: EspriState, event: Event, rng: random.Random) -> tuple[EspriState, list[Outcome]]:
        handler = HANDLERS.get(event.type)
        if handler is None:
            raise EventError(f"unknown ESPRI event {event.type!r}; known: {', '.join(sorted(HANDLERS))}")
        new, outs = handler(state, event, rng)
        total = sum(gem_census(new).values())
        expected = state.options["gems_per_colour"] * len(GEMS)
        if total != expected:  # pragma: no cover - a bug, never a user error
            raise RuleError(f"internal error: {total} gems accounted for, not {expected}", rule="R1")
        return new, outs

    def state_json(self, state: EspriState) -> dict[str, Any]:
        return state_json(state)

    def describe(self, state: EspriState, lang: str = "fr") -> str:
        return describe(state, lang)


GAME = EspriGame()
