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
- Any game event whose ``data`` has ``"corrects": N`` is an **amendment**: it stands for
  event ``N`` of the current game (same type, its own ``data`` without ``corrects``, source
  ``correction``), and everything that followed ``N`` is folded again on top of it. So a
  die corrected after the result re-derives the result (a failure becomes a success, the
  wound is never taken) instead of landing in whatever step the game is at now. Nothing
  is rewritten: the frames of the original events stay, the amendment adds one frame
  holding the re-derived state (undo removes it and brings the uncorrected table back).
  A later amendment of the same ``N`` supersedes the earlier one. When an event that
  followed ``N`` no longer fits the corrected roll (a die it gave is no longer asked
  for), the amendment is refused, changes nothing, and says which event and why: undo
  the events from that one on, then correct ``N``.

Everything else is routed to the current game by its type prefix.
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import CompanionError, EventError, RuleError
from .events import Event, Source
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
            frame = self.frames[-1]
            msg = text(f"Annulé : {_label(frame, 'fr')}", f"Undone: {_label(frame, 'en')}")
            return None, Applied(event, (Outcome("undo", msg, {"seq": last.seq}),), undone=last)
        if event.type == "table.new_game":
            return self._new_game(event)
        if "corrects" in event.data:
            return self._amend(event)
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

    def _amend(self, event: Event) -> tuple[Frame, Applied]:
        """See the module docstring: event ``corrects`` folded again with new data."""
        target = event.data.get("corrects")
        if not isinstance(target, int) or isinstance(target, bool):
            raise EventError("'corrects' is the sequence number (an integer) of the event it corrects")
        top = self.top
        if top is None or top.game is None:
            raise _refusal("aucune partie en cours : rien à corriger", "no game is running: nothing to correct")
        start = max((i for i, f in enumerate(self.frames) if f.event.type == "table.new_game"), default=0)
        index = next((i for i in range(len(self.frames) - 1, start, -1)
                      if self.frames[i].event.seq == target and "corrects" not in self.frames[i].event.data), None)
        if index is None:
            raise _refusal(
                f"le jet n°\u00a0{target} ne peut pas être corrigé : il n'appartient pas à la partie en cours"
                " (annulé, d'une partie précédente ou inconnu)",
                f"event {target} cannot be corrected: it is not an event of the game in progress"
                " (undone, from an earlier game, or unknown)",
            )
        original = self.frames[index].event
        if original.type != event.type:
            raise EventError(f"event {target} is a {original.type!r}, not a {event.type!r}: a correction keeps its type")
        data = {k: v for k, v in event.data.items() if k != "corrects"}
        amended = Event(original.type, data, Source.CORRECTION, original.seq, original.at, original.by)
        scratch = Table(frames=self.frames[:index])
        try:
            first = scratch.apply(amended)
        except CompanionError as exc:
            fr, en = _both(exc)
            raise _refusal(f"la correction du jet n°\u00a0{target} est refusée : {fr}",
                           f"the correction of event {target} is refused: {en}") from None
        outcomes = list(first.outcomes)
        refolded = 0
        for later in self.frames[index + 1:]:
            if later.event.data.get("corrects") == target:
                continue  # an earlier correction of the same event: superseded by this one
            try:
                applied = scratch.apply(later.event)
            except CompanionError as exc:
                fr, en = _both(exc)
                raise _refusal(
                    f"le jet n°\u00a0{target} ne peut pas être corrigé ainsi : l'événement n°\u00a0{later.event.seq} qui l'a"
                    f" suivi ne s'accorde plus avec lui ({fr}) ; annulez les événements depuis le n°\u00a0{later.event.seq},"
                    f" puis corrigez le jet n°\u00a0{target}",
                    f"event {target} cannot be corrected this way: event {later.event.seq} that followed it no"
                    f" longer fits ({en}); undo the events from no. {later.event.seq} on, then correct roll {target}",
                ) from None
            outcomes.extend(applied.outcomes)
            refolded += 1
        new_top = scratch.top
        assert new_top is not None
        head = Outcome(
            "correction",
            text(
                f"Jet n°\u00a0{target} corrigé : son résultat est recalculé"
                + (f", ainsi que les {refolded} événement(s) qui ont suivi." if refolded else "."),
                f"Roll no. {target} corrected: its result is worked out again"
                + (f", and so are the {refolded} event(s) that followed." if refolded else "."),
            ),
            {"corrects": target, "refolded": refolded},
        )
        frame = Frame(event, new_top.game, new_top.options, new_top.seed, new_top.state, (head, *outcomes))
        return frame, Applied(event, frame.outcomes)

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


_VERBS = {
    "dice": ("les dés", "the dice"), "roll": ("le lancer", "the roll"), "reroll": ("la relance", "the re-roll"),
    "correct": ("la correction", "the correction"), "draw": ("le tirage", "the draw"),
    "setup_draw": ("le tirage", "the draw"), "choose": ("le choix", "the choice"),
    "test": ("le test", "the test"), "new_game": ("la nouvelle partie", "the new game"),
}


def _refusal(fr: str, en: str) -> RuleError:
    """A refusal of the table in both languages (``"fr / en"``, the two apart in ``text``)."""
    err = RuleError(f"{fr} / {en}", rule="correction")
    err.text = {"fr": fr, "en": en}  # type: ignore[attr-defined]
    return err


def _both(exc: CompanionError) -> tuple[str, str]:
    """The French and English message of a refusal (the same text twice when it has one)."""
    said = getattr(exc, "text", None)
    if isinstance(said, Mapping) and said.get("fr") and said.get("en"):
        return str(said["fr"]), str(said["en"])
    return str(exc), str(exc)


def _label(frame: Frame, lang: str) -> str:
    """What an undone event was, as the players saw it: its first outcome's sentence
    (shortened), with its number; never the internal event type alone."""
    ev = frame.event
    num = f"n°\u00a0{ev.seq}" if lang == "fr" else f"no. {ev.seq}"
    target = ev.data.get("corrects")
    if isinstance(target, int):
        return (f"la correction du jet n°\u00a0{target} ({num})" if lang == "fr"
                else f"the correction of roll no. {target} ({num})")
    said = next((o.text.get(lang) for o in frame.outcomes if o.text.get(lang)), None)
    if said:
        said = said.strip()
        if len(said) > 90:
            said = said[:89].rstrip(" ,;:") + "…"
        inner = f"«\u00a0{said}\u00a0»" if lang == "fr" else f"“{said}”"
    else:
        verb = _VERBS.get(ev.type.rsplit(".", 1)[-1], ("l'action", "the action"))
        inner = verb[0] if lang == "fr" else verb[1]
    return f"{inner} ({num})" if ev.seq is not None else inner
