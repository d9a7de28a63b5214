"""The values of a Péripéties table: cards, characters, the episode in progress, the state.

Everything is frozen; updates make new values with :func:`dataclasses.replace` and share
the rest (the table keeps one state per event).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, TypeVar

from ...dice import DiceSet
from .options import Options

__all__ = [
    "evolve",
    "TRIALS",
    "LOCATIONS",
    "STARS",
    "MAX_BROTHERS",
    "Card",
    "Character",
    "Episode",
    "State",
]

_T = TypeVar("_T")


def evolve(obj: _T, **changes: Any) -> _T:
    """A copy of a frozen dataclass with some fields changed, sharing the rest.

    Like :func:`dataclasses.replace` but without re-running ``__init__``: the rules make
    thousands of these per replay and ``replace`` was most of the replay time. Field
    names are still checked (an unknown name would make the new ``__dict__`` larger).
    """
    src = obj.__dict__
    d = {**src, **changes}
    if len(d) != len(src):
        raise TypeError(f"unknown field(s) for {type(obj).__name__}: {sorted(set(changes) - set(src))}")
    new = object.__new__(type(obj))
    object.__setattr__(new, "__dict__", d)
    return new


TRIALS: tuple[str, ...] = ("combat", "esprit", "magie")
LOCATIONS: tuple[str, ...] = ("montagne", "ville", "temple", "auberge", "foret", "etang")
STARS: tuple[str, ...] = ("celeste", "terrestre")
#: R16: at most six sworn brothers under one main character.
MAX_BROTHERS = 6


@dataclass(frozen=True)
class Card:
    """A bandit card (spec 1.6): the numbers come from a deck file or the players."""

    id: str
    name: str
    rank: int
    star: str  # "celeste" (D12) | "terrestre" (D10)
    combat: int
    esprit: int
    magie: int
    lieu: str  # favoured location, a location face key
    nickname_fr: str = ""
    nickname_en: str = ""
    custom: bool = False  # typed by the players rather than taken from the deck

    @property
    def die(self) -> int:
        """R10: sides of the trial die: D12 for a celestial star, D10 for a terrestrial."""
        return 12 if self.star == "celeste" else 10

    def stat(self, trial: str) -> int:
        return int(getattr(self, trial))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "rank": self.rank,
            "star": self.star,
            "die": f"d{self.die}",
            "combat": self.combat,
            "esprit": self.esprit,
            "magie": self.magie,
            "lieu": self.lieu,
        }
        if self.nickname_fr or self.nickname_en:
            out["nickname"] = {"fr": self.nickname_fr, "en": self.nickname_en}
        if self.custom:
            out["custom"] = True
        return out


@dataclass(frozen=True)
class Character:
    """A main character in play: its card, its tokens and its sworn brothers."""

    id: str
    player: str
    card: Card
    xp: tuple[int, int, int] = (0, 0, 0)  # +1 tokens on combat, esprit, magie (R18)
    wounds: int = 0  # -2 tokens (R22)
    banquets: int = 0
    gourds: int = 0
    taels: int = 0
    immobilised: int = 0  # Immobilised tokens (R20)
    prison: int = 0  # the D4 on the card; 0 = free (R21, R4)
    cell: str | None = None  # D9: the cell the next player chose for the convict
    brothers: tuple[Card, ...] = ()
    banquet_turn: int = 0  # turn in which a banquet was won: moves 2 cells that turn (R13)
    stay_turn: int = 0  # turn in which it may not travel (R20, R21, R4)

    def xp_of(self, trial: str) -> int:
        return self.xp[TRIALS.index(trial)]

    @property
    def xp_total(self) -> int:
        return sum(self.xp)

    @property
    def effective_combat(self) -> int:
        """R22.2 / D11: combat + its +1 tokens - 2 per wound."""
        return self.card.combat + self.xp[0] - 2 * self.wounds

    def with_xp(self, trial: str, value: int) -> "Character":
        i = TRIALS.index(trial)
        xp = list(self.xp)
        xp[i] = value
        return evolve(self, xp=(xp[0], xp[1], xp[2]))


@dataclass(frozen=True)
class Episode:
    """The episode of the current character, from its dice to its consequences.

    ``sub`` is the sub-step: ``dice`` (waiting for the episode dice), ``trial`` (dice
    complete, waiting for the trial roll and the player's choices), ``gourd`` (D7 after
    the roll), ``reward_taels``, ``reward_reroll``, ``brother_card``, ``fine``,
    ``sentence_reroll``, ``prison``, ``bribe``.
    """

    character: str
    sub: str = "dice"
    turn: int = 0
    name: str = ""  # the character's name when the episode began (it may die)
    lieu: str | None = None
    adversaire: str | None = None
    epreuve: str | None = None
    rewards: tuple[str, ...] = ()  # the reward die, then its re-rolls (R16, D16)
    sentences: tuple[str, ...] = ()  # the sentence die, then its re-rolls (R19)
    difficulty: tuple[int, ...] = ()
    difficulty_kind: str | None = None  # "d10" | "d6"
    detail: tuple[int, ...] = ()
    corrected: bool = False
    gourds: int = 0  # gourds declared for the trial
    brother: str | None = None  # id of the sworn brother whose value is used
    roll: int | None = None
    total: int | None = None
    success: bool | None = None
    natural: str | None = None  # "max" | "one" | None
    taels_rolls: tuple[int, ...] = ()  # D10s rolled for tael rewards/fines
    sentence_index: int = 0  # which sentence of the chain is being applied
    notes: tuple[tuple[str, str, str], ...] = ()  # (kind, fr, en) results, for the record
    story: Mapping[str, Any] | None = None  # the suggested narration, once the dice are complete

    @property
    def reward(self) -> str | None:
        return self.rewards[-1] if self.rewards else None

    @property
    def sentence(self) -> str | None:
        return self.sentences[0] if self.sentences else None

    @property
    def difficulty_total(self) -> int | None:
        return sum(self.difficulty) if len(self.difficulty) == 2 else None


@dataclass(frozen=True)
class State:
    """The whole table of Péripéties."""

    options: Options
    dice: DiceSet
    deck: Mapping[str, Card]  # every card known at the table (deck file + custom cards)
    pile: tuple[str, ...] = ()  # bandit draw pile, top first
    discard: tuple[str, ...] = ()
    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (player, card ids) D17
    players: tuple[str, ...] = ()
    characters: tuple[Character, ...] = ()
    dead: tuple[Character, ...] = ()
    turn: int = 0
    phase: str = "setup"  # "setup" | "episodes" | "travel"
    queue: tuple[str, ...] = ()  # characters still to resolve this turn; queue[0] is current
    episode: Episode | None = None
    last: Episode | None = None  # the last resolved episode (summarised by the view)
    recent: tuple[Any, ...] = ()  # the last outcomes (Outcome values)
    meta: Mapping[str, Any] = field(default_factory=dict)

    def character(self, cid: str) -> Character | None:
        for c in self.characters:
            if c.id == cid:
                return c
        return None

    def hand(self, player: str) -> tuple[str, ...]:
        for p, cards in self.hands:
            if p == player:
                return cards
        return ()

    def next_player(self, player: str) -> str:
        """D15: the player after ``player`` in turn order (the same one when alone)."""
        if self.options.next_player == "self" or player not in self.players:
            return player
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    @property
    def current(self) -> Character | None:
        if self.episode is None:
            return None
        return self.character(self.episode.character)
