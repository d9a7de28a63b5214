"""The interface every game implements, and the values it returns.

A game is a small object registered by name (see :mod:`companion.games`). Its rules are
pure: ``apply(state, event, rng)`` returns the next state and the outcomes, or raises
:class:`~companion.errors.RuleError` / :class:`~companion.errors.EventError` and changes
nothing. States are immutable values (frozen dataclasses, tuples): the table keeps one per
event to make undo free, so they must share structure rather than be deep-copied.

Randomness: when software must roll a die nobody owns (the bandit draw pile's shuffle,
say), the game uses the ``rng`` it is given and nothing else. The table derives that
``rng`` from the table seed and the event's sequence number, so replaying a log gives the
same state, byte for byte.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol, runtime_checkable

from ..events import Event

if TYPE_CHECKING:
    from .camera import Camera
    from .expects import Step

__all__ = ["Outcome", "Game", "text", "percent", "de"]


def text(fr: str, en: str) -> dict[str, str]:
    """A message in both languages of the tablet (French first: it is the default)."""
    return {"fr": fr, "en": en}


def percent(p: float, lang: str = "fr", digits: int = 1) -> str:
    """A probability as a percentage in the tablet's typography: French ``"96,9 %"``
    (decimal comma, narrow no-break space U+202F before %), English ``"96.9%"``.

    >>> percent(0.9694, "fr"), percent(0.9694, "en"), percent(0.75, "fr", 0)
    ('96,9\u202f%', '96.9%', '75\u202f%')
    """
    shown = f"{100 * float(p):.{digits}f}"
    if lang == "en":
        return shown + "%"
    return shown.replace(".", ",") + "\u202f%"


def de(word: object) -> str:
    """French "de" before a word, elided before a vowel: ``de("escalade")`` is
    ``"d'escalade"``, ``de("Kenjutsu")`` is ``"de Kenjutsu"``.

    >>> de("escalade"), de("Aiko"), de("Hu Sanniang"), de(17)
    ("d'escalade", "d'Aiko", 'de Hu Sanniang', 'de 17')
    """
    w = str(word)
    return ("d'" if w[:1].casefold() in "aeiouyàâäéèêëîïôöûüœ" else "de ") + w


@dataclass(frozen=True)
class Outcome:
    """Something that happened, to show the players.

    ``kind`` is a stable machine name (``"trial.success"``, ``"reward.banquet"``...);
    ``text`` holds the sentence in French and English; ``data`` carries the numbers a page
    may draw (totals, odds, dice...). Everything is JSON-serialisable.
    """

    kind: str
    text: Mapping[str, str]
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": dict(self.text), "data": dict(self.data)}


@runtime_checkable
class Game(Protocol):
    """One rule set. Implementations are small classes with no mutable attributes."""

    #: Registry name, also the prefix of the game's event types (``"peripeties"``).
    name: str
    #: Display names: ``{"fr": ..., "en": ...}``.
    title: Mapping[str, str]
    #: The classes ``state_json()["expects"]`` is built from, one per step (frozen
    #: dataclasses on :class:`companion.games.expects.Step`): the JSON schema the page's
    #: tests check is exported from them (``python -m companion.games.expects_schema``).
    expects_steps: tuple[type[Step], ...]
    #: The game's camera plug-in (its matcher, corrected reads, demo rolls; see
    #: :class:`companion.games.camera.Camera`), or None when it reads nothing by camera.
    camera: Camera | None
    #: The game's options: a frozen dataclass with one field per option, each stated once
    #: with its default, decision and labels (:mod:`companion.games.options`); the
    #: defaults, the check in ``new_state`` and the tablet's set-up form come from it.
    #: ``None`` for a game with no options.
    options_class: type | None

    def default_options(self) -> dict[str, Any]:
        """The spec's decisions as named options with their defaults (JSON values)."""
        ...

    def new_state(self, options: Mapping[str, Any], rng: random.Random) -> Any:
        """The state at the start of a game. ``options`` are already merged with defaults.

        Raise :class:`~companion.errors.EventError` for an unknown or ill-typed option.
        """
        ...

    def apply(self, state: Any, event: Event, rng: random.Random) -> tuple[Any, list[Outcome]]:
        """Fold one event of this game into the state. Pure; raises on bad input."""
        ...

    def state_json(self, state: Any) -> dict[str, Any]:
        """The state as JSON for ``GET /api/state`` and ``companion replay --json``.

        Must include ``"expects"``: what input the current step waits for (which dice,
        which choice, who decides), so the tablet and the camera know what to ask for:
        the ``to_json()`` of one of :attr:`expects_steps`.
        """
        ...

    def describe(self, state: Any, lang: str = "fr") -> str:
        """A readable summary of the state for ``companion replay`` (plain text)."""
        ...
