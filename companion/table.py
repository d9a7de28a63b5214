"""The table: a pure fold of the games' rules over the table log.

:class:`Table` holds one frame per effective event (the event, the game state after it,
its outcomes). Undo pops a frame; nothing is rewritten. Because game states are immutable
values that share structure, keeping every frame costs little and makes undo O(1).

Table-level events:

- ``table.new_game`` ``{"game": NAME, "options": {...}, "seed": INT}`` starts a game
  (options are merged with the game's defaults; ``seed`` feeds the software's dice).
- ``undo`` ``{"seq": N}`` (``seq`` optional) cancels the last effective event; when
  ``seq`` is given it must be that event's sequence number, so two tablets pressing undo
  at once cancel one event, not two.

Everything else is routed to the current game by its type prefix.
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import CompanionError, EventError, RuleError
from .events import Event
from .games import Outcome, find_game, text
from .games.base import Game

__all__ = ["Table", "Frame", "Applied", "event_rng"]


class _LazyRandom(random.Random):
    """A ``random.Random`` seeded from text on first use: most events roll nothing, and
    seeding from a string (SHA-512) would cost half of a long replay."""

    def __init__(self, seed_text: str) -> None:
        self._seed_text: str | None = seed_text
        super().__init__(0)

    def _ensure(self) -> None:
        if self._seed_text is not None:
            text, self._seed_text = self._seed_text, None
            super().seed(text)

    def random(self) -> float:
        self._ensure()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._ensure()
        return super().getrandbits(k)

    def getstate(self):  # type: ignore[no-untyped-def]
        self._ensure()
        return super().getstate()


def event_rng(seed: int, seq: int | None) -> random.Random:
    """The random generator the rules get for one event: fixed by the seed and seq."""
    return _LazyRandom(f"{seed}:{seq if seq is not None else 0}")


@dataclass(frozen=True)
class Frame:
    """One effective event and the table after it."""

    event: Event
    game: str | None
    options: Mapping[str, Any]
    seed: int
    state: Any
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True)
class Applied:
    """What one accepted event did (returned to the API and published to tablets)."""

    event: Event
    outcomes: tuple[Outcome, ...]
    undone: Event | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "event": self.event.to_json(),
            "outcomes": [o.to_json() for o in self.outcomes],
        }
        if self.undone is not None:
            out["undone"] = self.undone.to_json()
        return out


@dataclass
class Table:
    """The folded table. Not thread-safe: the service serialises access."""

    frames: list[Frame] = field(default_factory=list)
    #: Events of the log that could not be applied on replay (kept, never deleted).
    skipped: list[tuple[Event, str]] = field(default_factory=list)

    # -- reading ------------------------------------------------------------------
    @property
    def top(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    @property
    def game_name(self) -> str | None:
        return self.top.game if self.top else None

    @property
    def game(self) -> Game | None:
        name = self.game_name
        return find_game(name) if name else None

    @property
    def state(self) -> Any:
        return self.top.state if self.top else None

    # -- folding ------------------------------------------------------------------
    def preview(self, event: Event) -> Applied:
        """Apply ``event`` without keeping it: raises if the rules refuse it."""
        return self.prepare(event)[1]

    def prepare(self, event: Event) -> tuple[Frame | None, Applied]:
        """Run the rules on ``event`` without keeping the result; :meth:`commit` keeps it.

        Lets the service write the event to the log between the two without running the
        rules twice. Raises :class:`CompanionError` when the rules refuse the event.
        """
        return self._step(event)

    def commit(self, prepared: tuple[Frame | None, Applied], stored: Event) -> Applied:
        """Keep a prepared event, now stored as ``stored`` (same event, with its time).

        The rules never read ``at``, so the prepared state is the state of ``stored``.
        """
        frame, applied = prepared
        if stored.type == "undo":
            self.frames.pop()
        else:
            assert frame is not None
            self.frames.append(Frame(stored, frame.game, frame.options, frame.seed, frame.state, frame.outcomes))
        return Applied(stored, applied.outcomes, applied.undone)

    def apply(self, event: Event) -> Applied:
        """Apply and keep ``event``; raises :class:`CompanionError` and changes nothing."""
        return self.commit(self._step(event), event)

    def _step(self, event: Event) -> tuple[Frame | None, Applied]:
        if event.type == "undo":
            if not self.frames:
                raise RuleError("nothing to undo", rule="undo")
            last = self.frames[-1].event
            want = event.data.get("seq")
            if want is not None and want != last.seq:
                raise RuleError(
                    f"undo of event {want} refused: the last event is now {last.seq}"
                    " (someone else changed the table first)",
                    rule="undo",
                )
            msg = text(f"Annulé : {_label(last)}", f"Undone: {_label(last)}")
            return None, Applied(event, (Outcome("undo", msg, {"seq": last.seq}),), undone=last)
        if event.type == "table.new_game":
            return self._new_game(event)
        top = self.top
        if top is None or top.game is None:
            raise RuleError("no game is running: start one with a 'table.new_game' event", rule="table")
        if event.game != top.game:
            raise EventError(
                f"event {event.type!r} is not an event of the current game ({top.game})"
            )
        game = find_game(top.game)
        state, outcomes = game.apply(top.state, event, event_rng(top.seed, event.seq))
        frame = Frame(event, top.game, top.options, top.seed, state, tuple(outcomes))
        return frame, Applied(event, tuple(outcomes))

    def _new_game(self, event: Event) -> tuple[Frame, Applied]:
        name = event.data.get("game")
        if not isinstance(name, str):
            raise EventError("table.new_game needs 'game': the name of a game")
        game = find_game(name)
        raw = event.data.get("options", {}) or {}
        if not isinstance(raw, Mapping):
            raise EventError("'options' must be a JSON object")
        defaults = game.default_options()
        unknown = set(raw) - set(defaults)
        if unknown:
            raise EventError(
                f"unknown option(s) for {name}: {', '.join(sorted(unknown))};"
                f" known: {', '.join(sorted(defaults))}"
            )
        options = {**defaults, **raw}
        seed = event.data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise EventError("'seed' must be an integer")
        state = game.new_state(options, event_rng(seed, event.seq))
        title = game.title
        out = Outcome(
            "table.new_game",
            text(f"Nouvelle partie : {title.get('fr', name)}", f"New game: {title.get('en', name)}"),
            {"game": name},
        )
        return Frame(event, name, options, seed, state, (out,)), Applied(event, (out,))

    def replay(self, events: Iterable[Event], strict: bool = False) -> "Table":
        """Fold a whole log. With ``strict`` the first refused event raises; otherwise it
        is set aside in :attr:`skipped` (the log keeps it) and the fold goes on."""
        # The fold keeps one immutable state per event and frees nothing: the cyclic
        # garbage collector would only walk them over and over (a third of a long replay).
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            for ev in events:
                try:
                    self.apply(ev)
                except CompanionError as exc:
                    if strict:
                        where = f"event {ev.seq}" if ev.seq is not None else f"event {ev.type!r}"
                        raise type(exc)(f"{where}: {exc}") from None
                    self.skipped.append((ev, str(exc)))
        finally:
            if gc_was_on:
                gc.enable()
        return self

    # -- output -------------------------------------------------------------------
    def history(self) -> list[dict[str, Any]]:
        return [
            {
                "seq": f.event.seq,
                "type": f.event.type,
                "source": f.event.source.value,
                "at": f.event.at,
                "data": dict(f.event.data),
                "outcomes": [o.to_json() for o in f.outcomes],
            }
            for f in self.frames
        ]

    def to_json(self, history_limit: int | None = None) -> dict[str, Any]:
        top = self.top
        game = self.game
        hist = self.history()
        if history_limit is not None:
            hist = hist[-history_limit:]
        return {
            "game": top.game if top else None,
            "title": dict(game.title) if game else None,
            "options": dict(top.options) if top else {},
            "last_seq": top.event.seq if top else None,
            "events": len(self.frames),
            "state": game.state_json(top.state) if (game and top) else None,
            "history": hist,
            "skipped": [{"event": e.to_json(), "error": msg} for e, msg in self.skipped],
        }

    def describe(self, lang: str = "fr") -> str:
        game = self.game
        if game is None or self.top is None:
            return "Aucune partie en cours." if lang == "fr" else "No game running."
        return game.describe(self.top.state, lang)


def _label(ev: Event) -> str:
    return f"#{ev.seq} {ev.type}" if ev.seq is not None else ev.type
