"""Character decks: the bandit cards' numbers, as data (spec 1.6).

Deck file format (JSON, ``"format": "peripeties-deck"``)::

    {"name": {"fr": ..., "en": ...}, "example": true,
     "cards": [{"id": "song-jiang", "name": "Song Jiang",
                "nickname": {"fr": "Pluie opportune", "en": "Timely Rain"},
                "rank": 1, "star": "celeste", "combat": 3, "esprit": 6, "magie": 2,
                "lieu": "ville"}, ...]}

- ``rank``: an integer from 0 to 999 (:data:`RANK_RANGE`); only compared between cards
  (option ``rank_order`` says whether 1 is the most senior, the default, or the most junior).
- ``star``: ``celeste`` (rolls a D12) or ``terrestre`` (rolls a D10).
- ``combat``, ``esprit``, ``magie``: integers from -99 to 99 (:data:`STAT_RANGE`). The spec
  assumes no range; these bounds only refuse typing mistakes (a difficulty is at most 20).
- ``name`` (and each ``nickname``): at most 80 characters.
- ``lieu``: the favoured location, a location face key (``montagne``, ``ville``,
  ``temple``, ``auberge``, ``foret``, ``etang``; labels and accents are accepted).
- ``id`` is optional (made from the name); ``nickname`` is optional.

The packaged ``companion/data/decks/example.json`` holds example values only (names from
the 108 Stars tradition, invented numbers). A table's own deck reaches the rules inside
the log (option ``deck`` or event ``peripeties.deck``), so a log replays alike anywhere.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from ...dice import DiceError, fold_text
from ...errors import bilingual
from ..refusal import malformed
from .state import LOCATIONS, Card

__all__ = ["RANK_RANGE", "STAT_RANGE", "NAME_MAX", "EXAMPLE_DECK_PATH", "card_from_json", "cards_from_json", "example_cards", "slug", "parse_location"]

EXAMPLE_DECK_PATH = Path(__file__).resolve().parents[2] / "data" / "decks" / "example.json"

CARD_FIELDS = ("id", "name", "nickname", "rank", "star", "combat", "esprit", "magie", "lieu")
#: The ranks a card may have (R16 compares them; the 108 Stars run 1-108).
RANK_RANGE = (0, 999)
#: The values of a characteristic (R10 adds it to a roll against a difficulty of 2-20).
STAT_RANGE = (-99, 99)
#: The longest card name or nickname.
NAME_MAX = 80


def slug(name: str) -> str:
    """``"Song Jiang"`` -> ``"song-jiang"`` (accents dropped).

    >>> slug("Hu Sanniang"), slug("Wú Yòng!"), slug("???")
    ('hu-sanniang', 'wu-yong', 'card')
    """
    s = unicodedata.normalize("NFKD", name.casefold())
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s or "card"


_LOCATION_ALIASES = {
    fold_text(x): key
    for key, names in {
        "montagne": ("montagne", "mountain"),
        "ville": ("ville", "town", "village"),
        "temple": ("temple",),
        "auberge": ("auberge", "inn"),
        "foret": ("foret", "forest"),
        "etang": ("etang", "pond", "marais", "marsh"),
    }.items()
    for x in names
}


def _fr(where: str) -> str:
    """Where a card's problem is, in French (``"deck: card 3 (Wu)"`` -> ``"paquet : carte 3 (Wu)"``)."""
    fr = re.sub(r"\bcharacter\b", "personnage", re.sub(r"\bcard\b", "carte", re.sub(r"\bdeck\b", "paquet", where)))
    return fr.replace(": ", "\u202f: ")


def parse_location(value: Any, where: str) -> str:
    if isinstance(value, str) and fold_text(value) in _LOCATION_ALIASES:
        return _LOCATION_ALIASES[fold_text(value)]
    raise malformed(f"{_fr(where)}\u202f: le lieu favori «\u202flieu\u202f» doit être l'un de {', '.join(LOCATIONS)}, pas {value!r}",
                    f"{where}: favoured location 'lieu' must be one of {', '.join(LOCATIONS)}, not {value!r}")


def _int(obj: Mapping[str, Any], key: str, where: str, bounds: tuple[int, int]) -> int:
    """An integer field of a card, within ``bounds`` (a digit string is accepted).

    >>> _int({"rank": "12"}, "rank", "card", RANK_RANGE)
    12
    >>> _int({"rank": -5}, "rank", "card (Wu)", RANK_RANGE)
    Traceback (most recent call last):
    ...
    companion.errors.EventError: carte (Wu) : « rank » doit être un entier de 0 à 999, pas -5 / card (Wu): 'rank' must be an integer from 0 to 999, not -5
    """
    lo, hi = bounds
    v = obj.get(key)
    if isinstance(v, str) and re.fullmatch(r"-?\d{1,6}", v.strip()):
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise malformed(f"{_fr(where)}\u202f: «\u202f{key}\u202f» doit être un entier de {lo} à {hi}, pas {v!r}",
                        f"{where}: '{key}' must be an integer from {lo} to {hi}, not {v!r}")
    return v


def parse_star(value: Any, where: str) -> str:
    if isinstance(value, str):
        f = fold_text(value)
        for star, names in (("celeste", ("celeste", "celestial", "d12")), ("terrestre", ("terrestre", "terrestrial", "d10"))):
            if f in names:
                return star
    raise malformed(f"{_fr(where)}\u202f: «\u202fstar\u202f» doit valoir celeste ou terrestre, pas {value!r}",
                    f"{where}: 'star' must be celeste or terrestre, not {value!r}")


def card_from_json(obj: Any, where: str = "card", custom: bool = False) -> Card:
    """One card; :class:`EventError` says which field is wrong."""
    if not isinstance(obj, Mapping):
        raise malformed(f"{_fr(where)}\u202f: une carte est un objet JSON", f"{where}: a card is a JSON object")
    unknown = set(obj) - set(CARD_FIELDS)
    if unknown:
        names, fields = ", ".join(sorted(unknown)), ", ".join(CARD_FIELDS)
        raise malformed(f"{_fr(where)}\u202f: champ(s) de carte inconnu(s) {names}\u202f; champs\u202f: {fields}",
                        f"{where}: unknown card field(s) {names}; fields: {fields}")
    name = obj.get("name")
    if not isinstance(name, str) or not name.strip():
        raise malformed(f"{_fr(where)}\u202f: une carte demande un «\u202fname\u202f»", f"{where}: a card needs a 'name'")
    if len(name.strip()) > NAME_MAX:
        raise malformed(f"{_fr(where)}\u202f: le «\u202fname\u202f» d'une carte a au plus {NAME_MAX} caractères, pas {len(name.strip())}",
                        f"{where}: a card's 'name' has at most {NAME_MAX} characters, not {len(name.strip())}")
    where = f"{where} ({name})"
    cid = obj.get("id", slug(name))
    if not isinstance(cid, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", cid):
        raise malformed(f"{_fr(where)}\u202f: «\u202fid\u202f» s'écrit en minuscules, chiffres, «\u202f-\u202f» ou «\u202f_\u202f»",
                        f"{where}: 'id' must be lower-case letters, digits, '-' or '_'")
    nick = obj.get("nickname")
    nfr = nen = ""
    if nick is not None:
        if isinstance(nick, str):
            nfr = nen = nick
        elif isinstance(nick, Mapping) and isinstance(nick.get("fr", ""), str) and isinstance(nick.get("en", ""), str):
            nfr, nen = nick.get("fr", ""), nick.get("en", "")
        else:
            raise malformed(f"{_fr(where)}\u202f: «\u202fnickname\u202f» est un texte ou {{\"fr\", \"en\"}}",
                            f"{where}: 'nickname' must be a string or {{\"fr\", \"en\"}}")
        if max(len(nfr), len(nen)) > NAME_MAX:
            raise malformed(f"{_fr(where)}\u202f: un «\u202fnickname\u202f» a au plus {NAME_MAX} caractères",
                            f"{where}: a 'nickname' has at most {NAME_MAX} characters")
    return Card(
        id=cid,
        name=name.strip(),
        rank=_int(obj, "rank", where, RANK_RANGE),
        star=parse_star(obj.get("star"), where),
        combat=_int(obj, "combat", where, STAT_RANGE),
        esprit=_int(obj, "esprit", where, STAT_RANGE),
        magie=_int(obj, "magie", where, STAT_RANGE),
        lieu=parse_location(obj.get("lieu"), where),
        nickname_fr=nfr,
        nickname_en=nen,
        custom=custom,
    )


def cards_from_json(obj: Any, where: str = "deck") -> tuple[Card, ...]:
    """A deck file's content (or just its list of cards) -> cards, ids unique."""
    cards_raw = obj.get("cards") if isinstance(obj, Mapping) else obj
    if not isinstance(cards_raw, list):
        raise malformed(f"{_fr(where)}\u202f: un paquet est un objet JSON avec une liste «\u202fcards\u202f»",
                        f"{where}: a deck is a JSON object with a list of 'cards'")
    cards = tuple(card_from_json(c, f"{where}: card {i}") for i, c in enumerate(cards_raw, 1))
    seen: set[str] = set()
    for c in cards:
        if c.id in seen:
            raise malformed(f"{_fr(where)}\u202f: deux cartes ont l'identifiant {c.id!r}", f"{where}: two cards have the id {c.id!r}")
        seen.add(c.id)
    return cards


@lru_cache(maxsize=1)
def example_cards() -> tuple[Card, ...]:
    """The packaged example deck (read once; it is part of the program's data)."""
    try:
        obj = json.loads(EXAMPLE_DECK_PATH.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:  # pragma: no cover - packaging error
        raise bilingual(DiceError, f"impossible de lire le paquet d'exemple {EXAMPLE_DECK_PATH}\u202f: {exc}",
                        f"cannot read the example deck {EXAMPLE_DECK_PATH}: {exc}") from None
    return cards_from_json(obj, str(EXAMPLE_DECK_PATH))
