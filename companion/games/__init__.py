"""The games, found by name (python-chess ``find_variant`` style).

Modules are imported only when a game is asked for, so ``companion odds wuxia`` does not
pay for ESPRI's tables, and nothing here imports OpenCV or Flask.
"""

from __future__ import annotations

import importlib
import importlib.util
import os

from ..errors import EventError, bilingual
from .base import Game, Outcome, text

__all__ = ["GAMES", "register_game", "find_game", "Game", "Outcome", "text", "game_names"]

#: name -> "module:attribute" of the Game instance.
GAMES: dict[str, str] = {
    "peripeties": "companion.games.peripeties:GAME",
    "wuxia": "companion.games.wuxia:GAME",
    "shayo": "companion.games.shayo:GAME",
    "espri": "companion.games.espri:GAME",
}

_cache: dict[str, Game] = {}


def register_game(name: str, target: str) -> None:
    """Add a game found at ``"module:attribute"`` (plug-ins, tests)."""
    GAMES[name] = target
    _cache.pop(name, None)


def game_names() -> list[str]:
    """Names of the games whose module is present in this installation."""
    names = []
    for name, target in GAMES.items():
        module = target.split(":", 1)[0]
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def find_game(name: str) -> Game:
    """The game registered under ``name``; :class:`EventError` if there is none."""
    if name in _cache:
        return _cache[name]
    target = GAMES.get(name)
    if target is None:
        raise bilingual(EventError, f"jeu inconnu {name!r}\u202f; jeux connus\u202f: {', '.join(GAMES)}",
                        f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    module_name, attr = target.split(":", 1)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise bilingual(EventError, f"le jeu {name!r} n'est pas disponible dans cette installation",
                            f"game {name!r} is not available in this installation") from None
        raise
    game: Game = getattr(module, attr)
    _cache[name] = game
    return game


# Plug-in games (and the test game): COMPANION_EXTRA_GAMES="name=module:attr,..."
for _item in filter(None, os.environ.get("COMPANION_EXTRA_GAMES", "").split(",")):
    _name, _, _target = _item.partition("=")
    if _name and ":" in _target:
        register_game(_name.strip(), _target.strip())
