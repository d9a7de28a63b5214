"""The table: a pure fold of the games' rules over the table log.

:class:`Table` holds one frame per effective event (the event, the game state after it,
its outcomes). Undo pops a frame; nothing is rewritten. Game states are immutable values
that share structure, so a frame costs little and undo is O(1).

A table on its own keeps every frame (``companion replay``, tests). A table given a
:class:`FrameSource` (the server's: the log and its snapshots, see
:mod:`companion.snapshots`) keeps only the frames of the recent effective events,
between ``keep`` and ``max_frames`` of them, and the sequence numbers of all of them
(8 bytes each). When undo brings the window under ``keep`` frames while older effective
events remain, it asks the source for the latest snapshot whose stack is a prefix of its
own and folds the events between again: the same rules on the same events with the same
seeds give the same frames.

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
from bisect import bisect_left
from array import array
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Protocol, Sequence

from .errors import CompanionError, EventError, LogError, RuleError
from .events import Event
from .games import Outcome, find_game, text
from .games.base import Game

__all__ = ["Table", "Frame", "Applied", "FrameSource", "event_rng"]


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


class FrameSource(Protocol):
    """Where a bounded :class:`Table` finds the frames it no longer keeps."""

    def base(self, seqs: Sequence[int], depth: int) -> tuple[int, list[Frame]]:
        """Frames ending at some depth ``d <= depth`` of the stack ``seqs`` (the last of
        them is the frame of ``seqs[d - 1]``), or ``(0, [])`` to fold from the start."""
        ...

    def events(self, seqs: Sequence[int]) -> list[Event]:
        """The stored events with these sequence numbers, in order."""
        ...


@dataclass
class Table:
    """The folded table. Not thread-safe: the service serialises access.

    :attr:`frames` holds the frames of the last effective events (all of them without a
    ``source``); :attr:`seqs` the sequence numbers of every effective event.
    """

    frames: list[Frame] = field(default_factory=list)
    #: Events of the log that could not be applied on replay (kept, never deleted).
    skipped: list[tuple[Event, str]] = field(default_factory=list)
    #: Where frames older than the window are rebuilt from; ``None`` keeps every frame.
    source: FrameSource | None = None
    #: With a source: frames always kept (at least the history shown on the tablet)...
    keep: int = 64
    #: ...and at most this many.
    max_frames: int = 256
    seqs: "array[int]" = field(default_factory=lambda: array("q"))
    #: How many times undo had to fold again from a snapshot (for tests and benchmarks).
    refills: int = 0

    # -- reading ------------------------------------------------------------------
    @property
    def top(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    @property
    def depth(self) -> int:
        """The number of effective events (the frames kept may be fewer)."""
        return len(self.seqs)

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

    def is_effective(self, seq: int) -> bool:
        """Whether the event ``seq`` is one of the effective events (not undone, not an
        undo, not refused). The stack's sequence numbers increase: a binary search."""
        i = bisect_left(self.seqs, seq)
        return i < len(self.seqs) and self.seqs[i] == seq

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
            self.seqs.pop()
            if self.source is not None and len(self.frames) < min(self.depth, self.keep):
                self._refill()
        else:
            assert frame is not None
            self._push(Frame(stored, frame.game, frame.options, frame.seed, frame.state, frame.outcomes))
        return Applied(stored, applied.outcomes, applied.undone)

    def apply(self, event: Event) -> Applied:
        """Apply and keep ``event``; raises :class:`CompanionError` and changes nothing."""
        return self.commit(self._step(event), event)

    def restore(self, seqs: Sequence[int], frames: Sequence[Frame], skipped: Sequence[tuple[Event, str]]) -> None:
        """Start from a snapshot: the stack's sequence numbers and its top frames."""
        self.seqs = array("q", seqs)
        self.frames = list(frames)
        self.skipped = list(skipped)

    def _push(self, frame: Frame) -> None:
        self.frames.append(frame)
        self.seqs.append(frame.event.seq if frame.event.seq is not None else -1)
        if self.source is not None and len(self.frames) > self.max_frames:
            del self.frames[: len(self.frames) - self.max_frames]

    def _refill(self) -> None:
        """Rebuild the window after undo went under it: from the latest snapshot whose
        stack is a prefix of ours, fold our effective events above it again."""
        assert self.source is not None
        self.refills += 1
        depth = self.depth
        base_depth, frames = self.source.base(self.seqs, depth)
        wanted = self.seqs[base_depth:depth]
        events = self.source.events(wanted)
        if [e.seq for e in events] != list(wanted):
            raise LogError("the table log lacks events the table was folded from; restart the companion")
        top = frames[-1] if frames else None
        frames = list(frames[-self.max_frames:])
        for ev in events:
            top = self._next_frame(top, ev)
            frames.append(top)
            if len(frames) > self.max_frames:
                del frames[0]
        self.frames = frames

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
        frame = self._next_frame(self.top, event)
        return frame, Applied(event, frame.outcomes)

    def _next_frame(self, top: Frame | None, event: Event) -> Frame:
        """The frame ``event`` (not an undo) makes on top of ``top``; raises if refused."""
        if event.type == "table.new_game":
            return self._new_game(event)
        if top is None or top.game is None:
            raise RuleError("no game is running: start one with a 'table.new_game' event", rule="table")
        if event.game != top.game:
            raise EventError(
                f"event {event.type!r} is not an event of the current game ({top.game})"
            )
        game = find_game(top.game)
        state, outcomes = game.apply(top.state, event, event_rng(top.seed, event.seq))
        return Frame(event, top.game, top.options, top.seed, state, tuple(outcomes))

    def _new_game(self, event: Event) -> Frame:
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
        return Frame(event, name, options, seed, state, (out,))

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
    def history(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The last ``limit`` effective events with their outcomes, oldest first (every
        frame kept by default). Older ones are paged from the log (``/api/log``)."""
        frames = self.frames if limit is None else self.frames[-limit:] if limit > 0 else []
        return [history_entry(f.event, f.outcomes) for f in frames]

    def to_json(self, history_limit: int | None = None) -> dict[str, Any]:
        top = self.top
        game = self.game
        return {
            "game": top.game if top else None,
            "title": dict(game.title) if game else None,
            "options": dict(top.options) if top else {},
            "last_seq": top.event.seq if top else None,
            "events": self.depth,
            "state": game.state_json(top.state) if (game and top) else None,
            "history": self.history(history_limit),
            "skipped": [{"event": e.to_json(), "error": msg} for e, msg in self.skipped],
        }

    def describe(self, lang: str = "fr") -> str:
        game = self.game
        if game is None or self.top is None:
            return "Aucune partie en cours." if lang == "fr" else "No game running."
        return game.describe(self.top.state, lang)


def history_entry(event: Event, outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """One line of the tablet's history: the event and what it did."""
    return {
        "seq": event.seq,
        "type": event.type,
        "source": event.source.value,
        "at": event.at,
        "data": dict(event.data),
        "outcomes": [o.to_json() for o in outcomes],
    }


def _label(ev: Event) -> str:
    return f"#{ev.seq} {ev.type}" if ev.seq is not None else ev.type
