"""Péripéties: the episode step of the bandits' board game (spec ``rules/peripeties.md``).

Registered as ``companion.games.peripeties:GAME``. Every die is rolled by the players and
entered as an event (camera read, tap, or typed); only the bandit draw pile is shuffled
by the software, with the rng the table gives. See ``docs/peripeties.md`` (how to play,
options) and ``docs/events-peripeties.md`` (every event).
"""

from .game import EVENT_TYPES, Peripeties

__all__ = ["GAME", "EVENT_TYPES", "Peripeties"]

GAME = Peripeties()

