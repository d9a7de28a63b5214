"""The Game object of Péripéties: dispatch of the events to the rule modules."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ...dice import DiceError, default_dice, dice_from_json
from ..refusal import malformed, rewrap
from ...events import Event
from ..base import Outcome
from .common import Out, with_recent
from .anytime import on_bribe, on_cell, on_heal
from .deck import cards_from_json, example_cards
from .episode import on_choose, on_dice
from .flow import next_turn
from .state import State
from .options import Options, default_options, parse_options
from .setup import (
    add_character,
    add_player,
    edit_character,
    load_deck,
    remove_character,
    remove_player,
    set_order,
)
from .view import describe, state_json
from .camera import CAMERA
from .expects import STEPS as EXPECTS_STEPS

__all__ = ["Peripeties", "EVENT_TYPES"]

Handler = Callable[[State, Event, random.Random, Out], State]


def _data_only(fn: Callable[[State, Mapping[str, Any], Out], State]) -> Handler:
    return lambda s, e, r, o: fn(s, e.data, o)


_HANDLERS: dict[str, Handler] = {
    "add_player": _data_only(add_player),
    "remove_player": _data_only(remove_player),
    "order": _data_only(set_order),
    "add_character": _data_only(add_character),
    "edit_character": _data_only(edit_character),
    "remove_character": _data_only(remove_character),
    "deck": lambda s, e, r, o: load_deck(s, e.data, o, r),
    "next_turn": _data_only(next_turn),
    "dice": on_dice,
    "choose": on_choose,
    "bribe": _data_only(on_bribe),
    "heal": _data_only(on_heal),
    "cell": _data_only(on_cell),
}

#: Every event type of the game (see docs/events-peripeties.md).
EVENT_TYPES: tuple[str, ...] = tuple(f"peripeties.{v}" for v in _HANDLERS)


class Peripeties:
    """Péripéties: the episode step of the bandits' board game (spec rules/peripeties.md)."""

    name = "peripeties"
    title = {"fr": "Péripéties", "en": "Péripéties (episodes)"}
    #: What ``expects`` may be (the JSON schema's step classes) and the camera plug-in.
    expects_steps = EXPECTS_STEPS
    camera = CAMERA
    #: The options, one field each (:mod:`companion.games.options`).
    options_class = Options

    def default_options(self) -> dict[str, Any]:
        return default_options()

    def new_state(self, options: Mapping[str, Any], rng: random.Random) -> State:
        opts = parse_options(options)
        try:
            dice = default_dice() if opts.dice_faces is None else dice_from_json(opts.dice_faces, "option dice_faces")
        except DiceError as exc:
            raise rewrap(exc) from None
        if opts.deck == "example":
            cards = example_cards()
        elif opts.deck in ("none", None):
            cards = ()
        else:
            cards = cards_from_json(opts.deck, "option deck")
        pile = [c.id for c in cards]
        rng.shuffle(pile)
        return State(options=opts, dice=dice, deck={c.id: c for c in cards}, pile=tuple(pile))

    def apply(self, state: State, event: Event, rng: random.Random) -> tuple[State, list[Outcome]]:
        verb = event.type.split(".", 1)[1] if "." in event.type else ""
        handler = _HANDLERS.get(verb)
        if handler is None:
            known = ", ".join(EVENT_TYPES)
            raise malformed(f"événement inconnu {event.type!r}\u202f; événements de Péripéties\u202f: {known}",
                            f"unknown event {event.type!r}; Péripéties events: {known}")
        out = Out()
        new = handler(state, event, rng, out)
        return with_recent(state, new, out), list(out)

    def state_json(self, state: State) -> dict[str, Any]:
        return state_json(state)

    def describe(self, state: State, lang: str = "fr") -> str:
        return describe(state, lang)
