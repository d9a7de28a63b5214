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
from bisect import bisect_left
from array import array
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Protocol, Sequence

from .errors import CompanionError, EventError, InvariantError, LogError, RuleError, bilingual, texts
from .events import Event, Source
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


#: How far back an amendment may reach, in effective events (a table restarted from a
#: snapshot keeps at least this many frames: :attr:`Table.keep`).
AMEND_WINDOW = 64


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
            if frame is None:
                raise InvariantError(f"event {stored.seq} was prepared without its frame")
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
        if self.source is None:
            raise InvariantError("the window can be refilled only from a snapshot source")
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
            top = self._next_frame(top, ev, frames)
            frames.append(top)
            if len(frames) > self.max_frames:
                del frames[0]
        self.frames = frames

    def _step(self, event: Event) -> tuple[Frame | None, Applied]:
        if event.type == "undo":
            if not self.frames:
                raise bilingual(RuleError, "rien à annuler", "nothing to undo", rule="undo")
            last = self.frames[-1].event
            want = event.data.get("seq")
            if want is not None and want != last.seq:
                raise bilingual(
                    RuleError,
                    f"annulation de l'événement n°\u00a0{want} refusée\u202f: le dernier événement est maintenant"
                    f" le n°\u00a0{last.seq} (quelqu'un d'autre a modifié la table avant)",
                    f"undo of event {want} refused: the last event is now {last.seq}"
                    " (someone else changed the table first)",
                    rule="undo",
                )
            frame = self.frames[-1]
            msg = text(f"Annulé : {_label(frame, 'fr')}", f"Undone: {_label(frame, 'en')}")
            return None, Applied(event, (Outcome("undo", msg, {"seq": last.seq}),), undone=last)
        frame = self._next_frame(self.top, event)
        return frame, Applied(event, frame.outcomes)

    def _next_frame(self, top: Frame | None, event: Event, frames: Sequence[Frame] | None = None) -> Frame:
        """The frame ``event`` (not an undo) makes on top of ``top`` (the last of
        ``frames``, by default the table's own); raises if refused."""
        if event.type == "table.new_game":
            return self._new_game(event)
        if "corrects" in event.data:
            return self._amend(event, self.frames if frames is None else frames)
        if top is None or top.game is None:
            raise bilingual(RuleError, "aucune partie en cours\u202f: commencez-en une (événement «\u202ftable.new_game\u202f»)",
                            "no game is running: start one with a 'table.new_game' event", rule="table")
        if event.game != top.game:
            raise bilingual(EventError, f"l'événement {event.type!r} n'appartient pas à la partie en cours ({top.game})",
                            f"event {event.type!r} is not an event of the current game ({top.game})")
        game = find_game(top.game)
        state, outcomes = game.apply(top.state, event, event_rng(top.seed, event.seq))
        return Frame(event, top.game, top.options, top.seed, state, tuple(outcomes))

    def _new_game(self, event: Event) -> Frame:
        name = event.data.get("game")
        if not isinstance(name, str):
            raise bilingual(EventError, "table.new_game demande «\u202fgame\u202f»\u202f: le nom d'un jeu",
                            "table.new_game needs 'game': the name of a game")
        game = find_game(name)
        options = checked_options(name, event.data, game.default_options())
        seed = event.data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not -SEED_LIMIT < seed < SEED_LIMIT:
            raise bilingual(EventError, "Le germe («\u202fseed\u202f») doit être un nombre entier (moins de 19 chiffres).",
                             "'seed' must be a whole number (under 19 digits).")
        state = game.new_state(options, event_rng(seed, event.seq))
        title = game.title
        out = Outcome(
            "table.new_game",
            text(f"Nouvelle partie : {title.get('fr', name)}", f"New game: {title.get('en', name)}"),
            {"game": name},
        )
        return Frame(event, name, options, seed, state, (out,))

    def _amend(self, event: Event, frames: Sequence[Frame]) -> Frame:
        """See the module docstring: event ``corrects`` folded again with new data, on
        ``frames`` (the table's, or those a re-fold is building)."""
        target = event.data.get("corrects")
        if not isinstance(target, int) or isinstance(target, bool):
            raise bilingual(EventError, "«\u202fcorrects\u202f» est le numéro (un entier) de l'événement corrigé",
                            "'corrects' is the sequence number (an integer) of the event it corrects")
        frames = list(frames)
        index = _amended_index(frames, target)
        original = frames[index].event
        if original.type != event.type:
            raise bilingual(EventError, f"l'événement n°\u00a0{target} est un {original.type!r}, pas un {event.type!r}\u202f:"
                            " une correction garde son type",
                            f"event {target} is a {original.type!r}, not a {event.type!r}: a correction keeps its type")
        data = {k: v for k, v in event.data.items() if k != "corrects"}
        amended = Event(original.type, data, Source.CORRECTION, original.seq, original.at, original.by)
        scratch = Table(frames=frames[:index])
        try:
            first = scratch.apply(amended)
        except CompanionError as exc:
            fr, en = texts(exc)["fr"], texts(exc)["en"]
            raise _refusal(f"la correction du jet n°\u00a0{target} est refusée\u202f: {fr}",
                           f"the correction of event {target} is refused: {en}") from None
        outcomes = list(first.outcomes)
        refolded = _refold(scratch, frames[index + 1:], target, outcomes)
        new_top = scratch.top
        if new_top is None:  # pragma: no cover - scratch holds at least the amended frame
            raise LogError("the amended table has no frame")
        head = _correction_head(target, refolded)
        return Frame(event, new_top.game, new_top.options, new_top.seed, new_top.state, (head, *outcomes))

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
                        raise _located(exc, ev) from None
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


_VERBS = {
    "dice": ("les dés", "the dice"), "roll": ("le lancer", "the roll"), "reroll": ("la relance", "the re-roll"),
    "correct": ("la correction", "the correction"), "draw": ("le tirage", "the draw"),
    "setup_draw": ("le tirage", "the draw"), "choose": ("le choix", "the choice"),
    "test": ("le test", "the test"), "new_game": ("la nouvelle partie", "the new game"),
}


#: A ``table.new_game`` seed lies strictly between -SEED_LIMIT and SEED_LIMIT.
SEED_LIMIT = 2 ** 63

_KINDS = {"null": ("vide (null)", "null"), "bool": ("oui/non", "yes/no"), "number": ("un nombre", "a number"),
          "string": ("un texte", "a text"), "array": ("une liste", "a list"), "object": ("un objet", "an object")}


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object" if isinstance(value, Mapping) else type(value).__name__


def checked_options(game: str, data: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a ``table.new_game`` merged over the game's defaults, checked the
    same way for every game before the game sees them: an object (absent means the
    defaults), no unknown name, no null where the default is not null, yes/no where the
    default is yes/no and a number where it is a number. A game's own checks
    (ranges, choices: :func:`companion.games.options.parse_options`) come after."""
    raw = data.get("options", {}) if "options" in data else {}
    if not isinstance(raw, Mapping):
        fr, en = _KINDS.get(_json_kind(raw), (type(raw).__name__, type(raw).__name__))
        raise bilingual(EventError, f"Les options de la partie doivent être un objet ({{…}}), pas {fr}.",
                         f"The game's options must be an object ({{…}}), not {en}.")
    unknown = sorted(str(k) for k in raw if k not in defaults)
    if unknown:
        known = ", ".join(sorted(defaults)) or "—"
        raise bilingual(EventError, f"Option inconnue pour {game}\u202f: {', '.join(unknown)} (connues\u202f: {known}).",
                         f"unknown option(s) for {game}: {', '.join(unknown)}; known: {known}")
    for key, value in raw.items():
        want, got = _json_kind(defaults[key]), _json_kind(value)
        # yes/no and numbers are what they are; a text default may name what an object
        # or a list gives inline (a deck, a dice file): the game checks those
        if want == got or want == "null" or (got != "null" and want not in ("bool", "number")):
            continue
        wfr, wen = _KINDS.get(want, (want, want))
        gfr, gen = _KINDS.get(got, (got, got))
        raise bilingual(EventError, f"L'option «\u00a0{key}\u00a0» de {game} doit être {wfr}, pas {gfr}.",
                         f"option {key!r} of {game} must be {wen}, not {gen}")
    return {**defaults, **raw}


def _amended_index(frames: Sequence[Frame], target: int) -> int:
    """Where event ``target`` is in ``frames``: an event of the game in progress, among the
    last :data:`AMEND_WINDOW` effective ones, not itself a correction."""
    top = frames[-1] if frames else None
    if top is None or top.game is None:
        raise _refusal("aucune partie en cours\u202f: rien à corriger", "no game is running: nothing to correct")
    start = max((i for i, f in enumerate(frames) if f.event.type == "table.new_game"), default=0)
    # only the last AMEND_WINDOW effective events: the frames a table restarted from a
    # snapshot always holds, so that an amendment replays as it was applied
    start = max(start, len(frames) - AMEND_WINDOW - 1)
    index = next((i for i in range(len(frames) - 1, start, -1)
                  if frames[i].event.seq == target and "corrects" not in frames[i].event.data), None)
    if index is None:
        raise _refusal(
            f"le jet n°\u00a0{target} ne peut pas être corrigé\u202f: il n'appartient pas à la partie en cours"
            f" (annulé, d'une partie précédente, inconnu, ou plus de {AMEND_WINDOW} événements en arrière\u202f:"
            " annulez jusqu'à lui)",
            f"event {target} cannot be corrected: it is not an event of the game in progress"
            f" (undone, from an earlier game, unknown, or more than {AMEND_WINDOW} events back: undo back to it)",
        )
    return index


def _refold(scratch: "Table", later_frames: Sequence[Frame], target: int, outcomes: list[Outcome]) -> int:
    """Apply again on ``scratch`` the events that followed the corrected one, their
    outcomes added to ``outcomes``; how many were folded again. An earlier correction of
    the same event is superseded by this one (skipped)."""
    refolded = 0
    for later in later_frames:
        if later.event.data.get("corrects") == target:
            continue
        try:
            applied = scratch.apply(later.event)
        except CompanionError as exc:
            fr, en = texts(exc)["fr"], texts(exc)["en"]
            raise _refusal(
                f"le jet n°\u00a0{target} ne peut pas être corrigé ainsi\u202f: l'événement n°\u00a0{later.event.seq} qui l'a"
                f" suivi ne s'accorde plus avec lui ({fr})\u202f; annulez les événements depuis le n°\u00a0{later.event.seq},"
                f" puis corrigez le jet n°\u00a0{target}",
                f"event {target} cannot be corrected this way: event {later.event.seq} that followed it no"
                f" longer fits ({en}); undo the events from no. {later.event.seq} on, then correct roll {target}",
            ) from None
        outcomes.extend(applied.outcomes)
        refolded += 1
    return refolded


def _correction_head(target: int, refolded: int) -> Outcome:
    """The outcome that heads an amendment's: which roll, how many events folded again."""
    return Outcome(
        "correction",
        text(
            f"Jet n°\u00a0{target} corrigé : son résultat est recalculé"
            + (f", ainsi que les {refolded} événement(s) qui ont suivi." if refolded else "."),
            f"Roll no. {target} corrected: its result is worked out again"
            + (f", and so are the {refolded} event(s) that followed." if refolded else "."),
        ),
        {"corrects": target, "refolded": refolded},
    )


def _refusal(fr: str, en: str) -> RuleError:
    """A refusal of the table in both languages (``"fr / en"``, the two apart in ``text``)."""
    return bilingual(RuleError, fr, en, rule="correction")


def _located(exc: CompanionError, ev: Event) -> CompanionError:
    """``exc`` with the event it refused named first, in both its languages (its class and
    rule kept: a replay stops on it)."""
    where = f"event {ev.seq}" if ev.seq is not None else f"event {ev.type!r}"
    fr_where = f"événement n°\u00a0{ev.seq}" if ev.seq is not None else f"événement {ev.type!r}"
    fr, en = texts(exc)["fr"], texts(exc)["en"]
    kwargs = {"rule": exc.rule} if isinstance(exc, RuleError) else {}
    return bilingual(type(exc), f"{fr_where}\u202f: {fr}", f"{where}: {en}", **kwargs)


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
