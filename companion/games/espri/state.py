"""ESPRI values: gems, the pool, the board, the Nymphs, the characters (spec sections 1-2).

Everything here is an immutable value (frozen dataclasses and tuples). A new state shares
every part it did not change with the previous one, so the table can keep one state per
event cheaply (undo is O(1)).

Gem keys are the ones the camera reader uses: ``printemps, ete, automne, hiver, temps,
rupture`` (R1: green, yellow, red, blue, clear, violet; 12 of each by default).

The 72-gem invariant (R1): every gem is in exactly one place: the pool, one board cell,
one character's Prayers, or, during an Appel, the leader's hand (the drawn gems and any
Prayer gem added to them, and a first gem set aside by a redraw under option
``redraw_first_gem = "aside"``). :func:`gem_census` counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, TypeVar

from ...errors import RuleError
from ..refusal import refuse
from .options import Options

__all__ = [
    "GEMS", "SEASONS", "BOARD_ORDER", "RESULTS", "GEM_NAMES", "RESULT_NAMES", "NYMPHS",
    "CF", "F", "BS", "S", "CS", "relation", "Quadrant", "Board", "Effect", "Resonance",
    "Character", "Appel", "EspriState", "replace", "pool_take", "pool_add", "gem_census", "check_gem",
    "check_season", "bilingual", "shown", "counts_of", "MAX_SCORE", "MAX_POINTS", "MAX_EFFECT",
]

#: Gem keys, in the order of the pool counts.
GEMS: tuple[str, ...] = ("printemps", "ete", "automne", "hiver", "temps", "rupture")
#: The four Seasons in their natural cycle (1.2): Hiver -> Printemps -> Été -> Automne.
SEASONS: tuple[str, ...] = ("hiver", "printemps", "ete", "automne")
#: Quadrants clockwise from the top-left corner (1.3).
BOARD_ORDER: tuple[str, ...] = ("automne", "hiver", "printemps", "ete")
_GEM_INDEX = {g: i for i, g in enumerate(GEMS)}

GEM_NAMES: Mapping[str, Mapping[str, str]] = {
    "printemps": {"fr": "Printemps", "en": "Spring", "colour_fr": "vert", "colour_en": "green"},
    "ete": {"fr": "Été", "en": "Summer", "colour_fr": "jaune", "colour_en": "yellow"},
    "automne": {"fr": "Automne", "en": "Autumn", "colour_fr": "rouge", "colour_en": "red"},
    "hiver": {"fr": "Hiver", "en": "Winter", "colour_fr": "bleu", "colour_en": "blue"},
    "temps": {"fr": "Temps", "en": "Time", "colour_fr": "transparent", "colour_en": "clear"},
    "rupture": {"fr": "Rupture", "en": "Rupture", "colour_fr": "violet", "colour_en": "violet"},
}
NYMPHS: Mapping[str, str] = {"automne": "Ailma", "hiver": "Mÿelta", "printemps": "Liana", "ete": "Fÿrellya"}

#: The sheets' scale (1.4): a Season score, Dévotion or a Resonance maximum is 0 to 10
#: whatever the caps (they apply on top, option ``enforce_score_caps``).
MAX_SCORE = 10
#: Harmony and Rupture points (R32, R33) are 0 to 99.
MAX_POINTS = 99
#: A temporary bonus or malus (R15), and its bound, is -20 to +20: beyond that it changes
#: nothing an Appel can draw (|N| > 12 is automatic, E8).
MAX_EFFECT = 20

#: The result ladder (R19): Critical Failure < Failure < Bitter Success < Success < Critical Success.
CF, F, BS, S, CS = 0, 1, 2, 3, 4
RESULTS: tuple[str, ...] = ("critical_failure", "failure", "bitter_success", "success", "critical_success")
RESULT_NAMES: Mapping[str, Mapping[str, str]] = {
    "critical_failure": {"fr": "Échec Critique", "en": "Critical Failure"},
    "failure": {"fr": "Échec", "en": "Failure"},
    "bitter_success": {"fr": "Réussite Amère", "en": "Bitter Success"},
    "success": {"fr": "Réussite", "en": "Success"},
    "critical_success": {"fr": "Réussite Critique", "en": "Critical Success"},
}


_T = TypeVar("_T")


def replace(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for these frozen dataclasses, without re-running
    ``__init__`` (about ten times faster: a 10,000-event replay must take under a second).
    Only known field names are accepted."""
    d = obj.__dict__
    for k in changes:
        if k not in d:
            raise TypeError(f"{type(obj).__name__} has no field {k!r}")
    new = object.__new__(type(obj))
    new.__dict__.update(d)
    new.__dict__.update(changes)
    return new


def relation(gem: str, called: str) -> str:
    """How a Season gem stands to the Called Season (1.2, E2): called/adjacent/opposite."""
    d = (SEASONS.index(gem) - SEASONS.index(called)) % 4
    return "called" if d == 0 else "opposite" if d == 2 else "adjacent"


#: The French of the words ``check_gem`` and ``check_season`` name what they check with.
_WHAT_FR = {"gem": "gemme", "season": "Saison", "tutelary Season": "Saison tutélaire",
            "Called Season": "Saison appelée", "quadrant": "quadrant", "Nymph": "Nymphe"}


def shown(value: Any) -> str:
    """A value in a message, cut short when it is huge (a 400-digit number, a long text)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"{'-' if value < 0 else ''}10^{int(value.bit_length() * 0.30103)}"
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "…"


def bilingual(rule: str, fr: str, en: str) -> RuleError:
    """A refusal in both languages naming its rule: the message is ``"fr / en"``,
    ``error.text`` holds them apart for a page that shows one language."""
    return refuse(rule, fr, en)


def check_gem(gem: Any, what: str = "gem") -> str:
    """A gem key (R1): one of :data:`GEMS`, else refused."""
    if not isinstance(gem, str) or gem not in _GEM_INDEX:
        fr = _WHAT_FR.get(what, what)
        raise bilingual("R1", f"{fr} inconnue {shown(gem)}\u202f: les gemmes sont {', '.join(GEMS)}",
                        f"unknown {what} {shown(gem)}; gems are {', '.join(GEMS)}")
    return gem


def check_season(season: Any, what: str = "season") -> str:
    """A Season key (1.2): one of :data:`SEASONS`, else refused."""
    if not isinstance(season, str) or season not in SEASONS:
        fr = _WHAT_FR.get(what, what)
        raise bilingual("R1", f"{fr} inconnue {shown(season)}\u202f: les Saisons sont {', '.join(SEASONS)}",
                        f"unknown {what} {shown(season)}; Seasons are {', '.join(SEASONS)}")
    return season


def counts_of(gems: Iterable[str]) -> tuple[int, ...]:
    out = [0] * len(GEMS)
    for g in gems:
        out[_GEM_INDEX[g]] += 1
    return tuple(out)


def pool_take(pool: tuple[int, ...], gems: Iterable[str]) -> tuple[int, ...]:
    """The pool after taking ``gems`` out; RuleError (R1) naming the gem it lacks."""
    wanted = counts_of(check_gem(g) for g in gems)
    for i, (have, want) in enumerate(zip(pool, wanted)):
        if want > have:
            raise bilingual(
                "R1", f"la pioche a {have} gemme(s) {GEMS[i]}, pas {want}\u202f: une gemme ne se tire que de la"
                " pioche (les 72 gemmes se conservent)",
                f"the pool holds {have} {GEMS[i]} gem(s), not {want}: a gem can only be drawn"
                " from the pool (72-gem conservation)")
    return tuple(h - w for h, w in zip(pool, wanted))


def pool_add(pool: tuple[int, ...], gems: Iterable[str]) -> tuple[int, ...]:
    out = list(pool)
    for g in gems:
        out[_GEM_INDEX[g]] += 1
    return tuple(out)


@dataclass(frozen=True)
class Quadrant:
    """One Season's path: cells 1..L (index 0 of ``cells`` is cell 1), and its Nymph.

    Cell 0 is the start cell (not a path cell); the last cell is the world cell (E3).
    """

    season: str
    cells: tuple[str | None, ...]
    nymph: int = 0

    @property
    def length(self) -> int:
        return len(self.cells)

    def gem_at(self, cell: int) -> str | None:
        return self.cells[cell - 1] if 1 <= cell <= len(self.cells) else None

    def with_cell(self, cell: int, gem: str | None) -> "Quadrant":
        cells = list(self.cells)
        cells[cell - 1] = gem
        return Quadrant(self.season, tuple(cells), self.nymph)

    @property
    def weather(self) -> int:
        """Rupture gems anywhere on the path (R10)."""
        return sum(1 for g in self.cells if g == "rupture")

    def paved(self) -> list[int]:
        return [i + 1 for i, g in enumerate(self.cells) if g is not None]

    def gems(self) -> list[str]:
        return [g for g in self.cells if g is not None]


@dataclass(frozen=True)
class Board:
    """The four quadrants, in :data:`BOARD_ORDER`."""

    quadrants: tuple[Quadrant, ...]

    @staticmethod
    def empty(length: int) -> "Board":
        return Board(tuple(Quadrant(s, (None,) * length) for s in BOARD_ORDER))

    def q(self, season: str) -> Quadrant:
        return self.quadrants[BOARD_ORDER.index(season)]

    def with_q(self, quad: Quadrant) -> "Board":
        i = BOARD_ORDER.index(quad.season)
        return Board(self.quadrants[:i] + (quad,) + self.quadrants[i + 1:])

    def gems(self) -> list[str]:
        return [g for q in self.quadrants for g in q.cells if g is not None]


@dataclass(frozen=True)
class Effect:
    """A temporary bonus (+) or malus (-) on a Season score (R15), optionally bounded (E17).

    ``season`` None = every Season. ``minimum``: the effect cannot bring the score below
    it; ``maximum``: cannot bring it above it.
    """

    value: int
    season: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "season": self.season, "minimum": self.minimum,
                "maximum": self.maximum, "label": self.label}


@dataclass(frozen=True)
class Resonance:
    """A Relationship towards another person, with its Resonance counter (R29, R30, E24)."""

    other: str
    current: int
    maximum: int
    nature: str = ""
    recharged_day: int | None = None


@dataclass(frozen=True)
class Character:
    """A Guardian of a Season, or a Priestess (``season`` None: her Season is Time)."""

    id: str
    name: str
    role: str  # "guardian" | "priestess"
    season: str | None
    scores: tuple[int, int, int, int]  # in SEASONS order
    devotion: int
    harmony: int = 0
    rupture: int = 0
    prayers: tuple[str, ...] = ()
    talents: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    resonance: tuple[Resonance, ...] = ()
    fallen: bool = False
    set_up: bool = False

    def score(self, season: str) -> int:
        return self.scores[SEASONS.index(season)]

    @property
    def own_gem(self) -> str:
        """The gem of the character's own Season (Time for a Priestess)."""
        return self.season if self.season is not None else "temps"

    def nymph_for(self, called: str) -> str:
        """The tutelary Nymph: its Season's; a Priestess's is the Called Season's (R22 NB)."""
        return self.season if self.season is not None else called

    def resonance_with(self, other: str) -> Resonance | None:
        for r in self.resonance:
            if r.other == other:
                return r
        return None

    def with_resonance(self, res: Resonance) -> "Character":
        items = tuple(res if r.other == res.other else r for r in self.resonance)
        if res.other not in {r.other for r in self.resonance}:
            items = items + (res,)
        return replace(self, resonance=items)


@dataclass(frozen=True)
class Appel:
    """An Appel in progress (R9-R25). ``step`` is what it waits for:

    ``draw`` (the drawn gems), ``choose`` (the placed gems), ``extras`` (Success extra
    gems, R23), ``keep_prayer`` (Critical Failure Prayer, R22), ``rupture_removal``
    (Critical Success, R22).
    """

    season: str
    leader: str
    helpers: tuple[tuple[str, str], ...]
    talent: bool
    difficulty: int
    difficulty_source: str  # "weather" | "given"
    score: int  # leader's effective Called Season score (R15)
    n: int
    temptation: int = 0
    step: str = "draw"
    draw_count: int = 0
    chooser: str = "leader"
    redraw_by: str | None = None
    automatic: str | None = None  # "critical_success" | "critical_failure"
    hand: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()
    redrawn: bool = False
    prayer: str | None = None
    result: int | None = None
    selection: Mapping[str, Any] | None = None
    extras_count: int = 0
    removed: tuple[str, ...] = ()
    record: Mapping[str, Any] = field(default_factory=dict)
    passive: bool = False


@dataclass(frozen=True)
class EspriState:
    """The whole table. ``options`` are the game's validated options (:mod:`.options`)."""

    options: Options
    pool: tuple[int, ...]
    board: Board
    characters: tuple[Character, ...] = ()
    appel: Appel | None = None
    last_appel: Mapping[str, Any] | None = None
    day: int = 1
    world_events: tuple[str, ...] = ()
    #: A set-up draw waiting for the keep/place choice (R7): (character id, gems).
    setup_hand: tuple[str, tuple[str, ...]] | None = None
    gm_setup_done: bool = False

    def char(self, cid: Any) -> Character:
        for c in self.characters:
            if c.id == cid:
                return c
        known = ", ".join(c.id for c in self.characters)
        fr_known = known or "aucun pour l'instant"
        raise bilingual("R2", f"personnage inconnu {cid!r} (connus\u202f: {fr_known})",
                        f"unknown character {cid!r} (known: {known or 'none yet'})")

    def with_char(self, ch: Character) -> "EspriState":
        return replace(self, characters=tuple(ch if c.id == ch.id else c for c in self.characters))


def gem_census(state: EspriState) -> dict[str, int]:
    """Where the gems are, by place: pool, board, prayers, hand (R1 invariant)."""
    hand = 0
    if state.appel is not None:
        hand = len(state.appel.hand) + len(state.appel.aside) + (1 if state.appel.prayer else 0)
    if state.setup_hand is not None:
        hand += len(state.setup_hand[1])
    return {
        "pool": sum(state.pool),
        "board": len(state.board.gems()),
        "prayers": sum(len(c.prayers) for c in state.characters),
        "hand": hand,
    }
