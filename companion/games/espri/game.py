"""The ESPRI game object: options (:mod:`.options`), the event dispatch,
and the 72-gem invariant check after every event."""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from ..refusal import malformed, refuse
from ...events import Event
from ..base import Outcome
from . import appel, people, resolve, setup
from .options import OPTION_SPECS, Options, default_options, parse_options
from .state import GEMS, Board, EspriState, gem_census
from .view import describe, state_json
from .camera import CAMERA
from .expects import STEPS as EXPECTS_STEPS

__all__ = ["EspriGame", "GAME", "OPTIONS", "Options"]

#: The options by name (derived from :class:`~.options.Options`).
OPTIONS = {s.name: s for s in OPTION_SPECS}

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
    #: The options, one field each (:mod:`companion.games.options`).
    options_class = Options
    #: What ``expects`` may be (the JSON schema's step classes) and the camera plug-in.
    expects_steps = EXPECTS_STEPS
    camera = CAMERA

    def default_options(self) -> dict[str, Any]:
        return default_options()

    def new_state(self, options: Mapping[str, Any], rng: random.Random) -> EspriState:
        opts = parse_options(options)
        return EspriState(options=opts, pool=(opts.gems_per_colour,) * len(GEMS), board=Board.empty(opts.path_length))

    def apply(self, state: EspriState, event: Event, rng: random.Random) -> tuple[EspriState, list[Outcome]]:
        handler = HANDLERS.get(event.type)
        if handler is None:
            raise malformed(f"événement ESPRI inconnu {event.type!r}\u202f; connus\u202f: {', '.join(sorted(HANDLERS))}",
                            f"unknown ESPRI event {event.type!r}; known: {', '.join(sorted(HANDLERS))}")
        new, outs = handler(state, event, rng)
        total = sum(gem_census(new).values())
        expected = state.options.gems_per_colour * len(GEMS)
        if total != expected:  # pragma: no cover - a bug, never a user error
            raise refuse("R1", f"erreur interne\u202f: {total} gemmes comptées, pas {expected}",
                         f"internal error: {total} gems accounted for, not {expected}")
        return new, outs

    def state_json(self, state: EspriState) -> dict[str, Any]:
        return state_json(state)

    def describe(self, state: EspriState, lang: str = "fr") -> str:
        return describe(state, lang)


GAME = EspriGame()
