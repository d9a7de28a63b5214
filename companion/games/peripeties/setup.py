"""Players, characters and the deck: the events that set the table up (and fix it).

- ``peripeties.add_player {"name"}``, ``peripeties.remove_player {"name"}``
- ``peripeties.order {"players": [...], "characters": [...]}`` (R2, D15: turn order)
- ``peripeties.add_character {"player", "card": ID}`` (a deck card) or
  ``{"player", "name", "rank", "star", "combat", "esprit", "magie", "lieu"}`` (custom
  values), plus optional tokens (see :data:`TOKEN_FIELDS`) and ``"id"``
- ``peripeties.edit_character {"character", ...any card field or token...}``
- ``peripeties.remove_character {"character", "to": "discard"|"pile"|"hand"}``
- ``peripeties.deck {"cards": [...]}`` (setup only: replaces the deck, reshuffles)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..refusal import malformed
from .common import Out, int_field, need_character, put, refuse
from .deck import card_from_json, cards_from_json, slug
from .flow import drop_from_turn
from .state import Card, Character, MAX_BROTHERS, State, TRIALS, evolve

__all__ = [
    "add_player",
    "remove_player",
    "set_order",
    "add_character",
    "edit_character",
    "remove_character",
    "load_deck",
    "TOKEN_FIELDS",
    "validate_tokens",
    "to_hand",
]

TOKEN_FIELDS = ("xp", "wounds", "banquets", "gourds", "taels", "immobilised", "prison", "brothers")
_CARD_EDIT_FIELDS = ("name", "nickname", "rank", "star", "combat", "esprit", "magie", "lieu")


def _player_name(data: Mapping[str, Any], key: str) -> str:
    name = data.get(key)
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 40:
        raise malformed(f"«\u202f{key}\u202f» doit être un nom de joueur (1 à 40 caractères)", f"'{key}' must be a player's name (1-40 characters)")
    return name.strip()


def add_player(state: State, data: Mapping[str, Any], out: Out) -> State:
    name = _player_name(data, "name")
    if name in state.players:
        raise refuse("R2", f"il y a déjà un joueur nommé {name}", f"there is already a player called {name}")
    out.add("player.added", f"{name} rejoint la table.", f"{name} joins the table.", player=name)
    return evolve(state, players=state.players + (name,))


def remove_player(state: State, data: Mapping[str, Any], out: Out) -> State:
    name = _player_name(data, "name")
    if name not in state.players:
        raise malformed(f"aucun joueur nommé {name}", f"no player called {name}")
    if any(c.player == name for c in state.characters):
        raise refuse("R2", f"{name} a encore des personnages en jeu\u202f: retirez-les d'abord", f"{name} still has characters in play: remove them first")
    out.add("player.removed", f"{name} quitte la table.", f"{name} leaves the table.", player=name)
    return evolve(
        state,
        players=tuple(p for p in state.players if p != name),
        hands=tuple((p, h) for p, h in state.hands if p != name),
    )


def set_order(state: State, data: Mapping[str, Any], out: Out) -> State:
    """R2/D15: players in turn order; optionally the characters' order (within a player)."""
    players = data.get("players")
    if players is not None:
        if not isinstance(players, list) or sorted(map(str, players)) != sorted(state.players) or len(set(players)) != len(players):
            raise malformed(f"«\u202fplayers\u202f» doit nommer chaque joueur une fois\u202f: {', '.join(state.players)}",
                            f"'players' must list every player once: {', '.join(state.players)}")
        state = evolve(state, players=tuple(players))
    chars = data.get("characters")
    if chars is not None:
        ids = [c.id for c in state.characters]
        if not isinstance(chars, list) or sorted(map(str, chars)) != sorted(ids) or len(set(chars)) != len(chars):
            raise malformed(f"«\u202fcharacters\u202f» doit nommer chaque personnage une fois\u202f: {', '.join(ids)}",
                            f"'characters' must list every character once: {', '.join(ids)}")
        by_id = {c.id: c for c in state.characters}
        state = evolve(state, characters=tuple(by_id[i] for i in chars))
    if players is None and chars is None:
        raise malformed("peripeties.order demande «\u202fplayers\u202f» ou «\u202fcharacters\u202f» (ou les deux)",
                        "peripeties.order needs 'players' and/or 'characters'")
    out.add(
        "order",
        "Ordre du tour : " + ", ".join(state.players),
        "Turn order: " + ", ".join(state.players),
        players=list(state.players),
    )
    return state


def _cards_in_use(state: State) -> set[str]:
    used = set()
    for c in state.characters:
        used.add(c.card.id)
        used.update(b.id for b in c.brothers)
    return used


def _take_card(state: State, cid: str) -> State:
    """Remove a card id from the pile, the discard pile or a hand."""
    return evolve(
        state,
        pile=tuple(x for x in state.pile if x != cid),
        discard=tuple(x for x in state.discard if x != cid),
        hands=tuple((p, tuple(x for x in h if x != cid)) for p, h in state.hands),
    )


def validate_tokens(state: State, ch: Character) -> None:
    """Tokens are never negative; experience within its caps (R18); alive (R22)."""
    o = state.options
    for f in ("wounds", "banquets", "gourds", "taels", "immobilised"):
        if getattr(ch, f) < 0:
            raise refuse("R22" if f == "wounds" else "tokens", f"{ch.card.name}\u202f: {f} ne peut pas être négatif", f"{ch.card.name}: {f} cannot be negative")
    if not 0 <= ch.prison <= 4:
        raise refuse("R21", f"{ch.card.name}\u202f: le D4 du bagne montre 1 à 4 (0 = libre), pas {ch.prison}", f"{ch.card.name}: the prison D4 shows 1-4 (0 = free), not {ch.prison}")
    if any(x < 0 or x > o.xp_cap_each for x in ch.xp) or ch.xp_total > o.xp_cap_total:
        raise refuse(
            "R18",
            f"{ch.card.name}\u202f: l'expérience est plafonnée à +{o.xp_cap_each} par caractéristique et +{o.xp_cap_total} au total",
            f"{ch.card.name}: experience must stay within +{o.xp_cap_each} per characteristic and +{o.xp_cap_total} in total",
        )
    if ch.effective_combat <= o.death_at:
        raise refuse(
            "R22",
            f"{ch.card.name}\u202f: un combat effectif de {ch.effective_combat} signifierait la mort",
            f"{ch.card.name}: effective combat {ch.effective_combat} would mean death; a living character needs more",
        )
    if len(ch.brothers) > MAX_BROTHERS:
        raise refuse("R16", f"{ch.card.name}\u202f: {MAX_BROTHERS} frères jurés au plus", f"{ch.card.name}: at most {MAX_BROTHERS} sworn brothers")


def _apply_tokens(ch: Character, data: Mapping[str, Any]) -> Character:
    changes: dict[str, Any] = {}
    if "xp" in data:
        xp = data["xp"]
        if isinstance(xp, Mapping):
            unknown = set(xp) - set(TRIALS)
            if unknown:
                raise malformed(f"les clés de «\u202fxp\u202f» sont {', '.join(TRIALS)}, pas {', '.join(sorted(unknown))}",
                                f"'xp' keys are {', '.join(TRIALS)}, not {', '.join(sorted(unknown))}")
            vals = [int_field(xp, t, 0, 100, ch.xp_of(t)) for t in TRIALS]
        elif isinstance(xp, list) and len(xp) == 3:
            vals = [int_field({"xp": v}, "xp", 0, 100) for v in xp]
        else:
            raise malformed("«\u202fxp\u202f» vaut {\"combat\": n, \"esprit\": n, \"magie\": n} ou une liste de trois nombres",
                            "'xp' must be {\"combat\": n, \"esprit\": n, \"magie\": n} or a list of three")
        changes["xp"] = (vals[0], vals[1], vals[2])
    for f in ("wounds", "banquets", "gourds", "taels", "immobilised"):
        if f in data:
            changes[f] = int_field(data, f, 0, 10_000)
    if "prison" in data:
        changes["prison"] = int_field(data, "prison", 0, 4) if data["prison"] is not None else 0
    return evolve(ch, **changes) if changes else ch


def _set_brothers(state: State, ch: Character, data: Mapping[str, Any]) -> tuple[State, Character]:
    """``brothers``: deck card ids placed under the character (a table joined mid-game,
    or a fix). Cards leave the pile/discard/hands; brothers no longer listed are discarded."""
    if "brothers" not in data:
        return state, ch
    ids = data["brothers"]
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids) or len(set(ids)) != len(ids):
        raise malformed("«\u202fbrothers\u202f» doit être une liste d'identifiants de cartes distincts",
                        "'brothers' must be a list of distinct card ids")
    if len(ids) > MAX_BROTHERS:
        raise refuse("R16", f"{MAX_BROTHERS} frères jurés au plus", f"at most {MAX_BROTHERS} sworn brothers")
    in_use = _cards_in_use(state) - {b.id for b in ch.brothers}
    for x in ids:
        if x not in state.deck:
            raise malformed(f"pas de carte {x!r} dans le paquet", f"no card {x!r} in the deck")
        if x in in_use or x == ch.card.id:
            raise refuse("R16", f"la carte {x} est déjà en jeu", f"the card {x} is already in play")
    dropped = tuple(b.id for b in ch.brothers if b.id not in ids)
    for x in ids:
        state = _take_card(state, x)
    state = evolve(state, discard=state.discard + dropped)
    return state, evolve(ch, brothers=tuple(state.deck[x] for x in ids))


def _card_changes(card: Card, data: Mapping[str, Any], where: str) -> Card:
    merged = card.to_json()
    merged.pop("die", None)
    merged.pop("custom", None)
    for f in _CARD_EDIT_FIELDS:
        if f in data:
            merged[f] = data[f]
    new = card_from_json(merged, where, custom=card.custom)
    return evolve(new, id=card.id)


def _deck_card(state: State, card_ref: Any) -> tuple[State, Card]:
    """A card of the deck not in play (R16), taken from the pile, discard pile or hands."""
    if not isinstance(card_ref, str) or card_ref not in state.deck:
        raise malformed(f"pas de carte {card_ref!r} dans le paquet\u202f; donnez l'identifiant d'une carte ou ses valeurs",
                        f"no card {card_ref!r} in the deck; use a card id or give the card's values")
    if card_ref in _cards_in_use(state):
        raise refuse("R16", f"la carte {card_ref} est déjà en jeu", f"the card {card_ref} is already in play")
    card = state.deck[card_ref]
    return _take_card(state, card.id), card


def _new_card(state: State, data: Mapping[str, Any]) -> tuple[State, Card]:
    """The card of a new character: a deck card (``card``: its id, maybe with some values
    changed), a card given whole (``card``: an object), or custom values."""
    card_ref = data.get("card")
    if card_ref is None:
        fields = {k: data[k] for k in _CARD_EDIT_FIELDS if k in data}
        return state, card_from_json(fields, "add_character", custom=True)
    if isinstance(card_ref, Mapping):
        card = card_from_json(card_ref, "card", custom=True)
    else:
        state, card = _deck_card(state, card_ref)
    if set(data) & set(_CARD_EDIT_FIELDS):
        card = _card_changes(card, data, "add_character")
    return state, card


def _new_id(state: State, data: Mapping[str, Any], card: Card) -> tuple[str, int]:
    """The new character's id: ``id`` if given (refused when taken), else the card's id
    or its name's slug, numbered ``-2``, ``-3``... when taken; and the next number (a
    custom card's id goes on counting from it)."""
    cid = data.get("id", card.id if data.get("card") is not None else slug(card.name))
    if not isinstance(cid, str) or not cid:
        raise malformed("«\u202fid\u202f» doit être un texte non vide", "'id' must be a non-empty string")
    base = cid
    n = 2
    taken = {c.id for c in state.characters} | {c.id for c in state.dead}
    while cid in taken:
        if "id" in data:
            raise refuse("R2", f"il y a déjà un personnage {cid!r}", f"there is already a character {cid!r}")
        cid = f"{base}-{n}"
        n += 1
    return cid, n


def _with_custom_card(state: State, card: Card, n: int) -> tuple[State, Card]:
    """A custom card joins the table's cards under a unique id."""
    card_id = card.id
    while card_id in state.deck:
        card_id = f"{card.id}-{n}"
        n += 1
    card = evolve(card, id=card_id, custom=True)
    return evolve(state, deck={**state.deck, card.id: card}), card


def add_character(state: State, data: Mapping[str, Any], out: Out) -> State:
    player = _player_name(data, "player")
    if player not in state.players:
        state = add_player(state, {"name": player}, out)
    state, card = _new_card(state, data)
    cid, n = _new_id(state, data, card)
    if card.custom:
        state, card = _with_custom_card(state, card, n)
    ch = _apply_tokens(Character(cid, player, card), data)
    state, ch = _set_brothers(state, ch, data)
    validate_tokens(state, ch)
    out.add(
        "character.added",
        f"{card.name} entre en jeu pour {player}.",
        f"{card.name} enters play for {player}.",
        character=cid,
        player=player,
    )
    return evolve(state, characters=state.characters + (ch,))


def edit_character(state: State, data: Mapping[str, Any], out: Out) -> State:
    ch = need_character(state, data)
    allowed = {"character", "player", *_CARD_EDIT_FIELDS, *TOKEN_FIELDS}
    unknown = set(data) - allowed
    if unknown:
        names, editable = ", ".join(sorted(unknown)), ", ".join(sorted(allowed - {"character"}))
        raise malformed(f"champ(s) inconnu(s) {names}\u202f; modifiables\u202f: {editable}",
                        f"unknown field(s) {names}; editable: {editable}")
    new = ch
    if set(data) & set(_CARD_EDIT_FIELDS):
        new = evolve(new, card=_card_changes(ch.card, data, f"character {ch.id}"))
    if "player" in data:
        player = _player_name(data, "player")
        if player not in state.players:
            raise malformed(f"aucun joueur nommé {player}", f"no player called {player}")
        new = evolve(new, player=player)
    new = _apply_tokens(new, data)
    state, new = _set_brothers(state, new, data)
    validate_tokens(state, new)
    out.add("character.edited", f"{new.card.name} : fiche modifiée.", f"{new.card.name}: card edited.", character=ch.id)
    state = put(state, new)
    ep = state.episode
    if ep is not None and ep.character == new.id and ep.roll is None:
        # Choices declared for the coming roll must still be possible (R14, R17).
        gourds = min(ep.gourds, new.gourds)
        brother = ep.brother if any(b.id == ep.brother for b in new.brothers) else None
        if (gourds, brother) != (ep.gourds, ep.brother):
            state = evolve(state, episode=evolve(ep, gourds=gourds, brother=brother))
    return state


def remove_character(state: State, data: Mapping[str, Any], out: Out) -> State:
    ch = need_character(state, data)
    to = data.get("to", "discard")
    if to not in ("discard", "pile", "hand"):
        raise malformed("«\u202fto\u202f» vaut discard, pile ou hand", "'to' must be discard, pile or hand")
    cards = (ch.card.id, *(b.id for b in ch.brothers))
    state = evolve(state, characters=tuple(c for c in state.characters if c.id != ch.id))
    if to == "discard":
        state = evolve(state, discard=state.discard + cards)
    elif to == "pile":
        state = evolve(state, pile=state.pile + cards)
    else:
        state = _to_hand(state, ch.player, cards)
    out.add("character.removed", f"{ch.card.name} quitte le jeu.", f"{ch.card.name} leaves play.", character=ch.id)
    return drop_from_turn(state, ch.id, out)


def _to_hand(state: State, player: str, cards: tuple[str, ...]) -> State:
    hands = dict(state.hands)
    hands[player] = hands.get(player, ()) + cards
    return evolve(state, hands=tuple(hands.items()))


def load_deck(state: State, data: Mapping[str, Any], out: Out, rng: random.Random) -> State:
    """Setup only: replace the deck by the given cards and shuffle a new draw pile."""
    if state.phase != "setup" or state.characters:
        raise refuse("1.6", "le paquet ne se remplace qu'à la mise en place, avant d'ajouter des personnages", "the deck can only be replaced during setup, before any character is added")
    cards = cards_from_json(data, "peripeties.deck")
    pile = [c.id for c in cards]
    rng.shuffle(pile)
    out.add(
        "deck.loaded",
        f"Paquet chargé : {len(cards)} cartes, pioche mélangée.",
        f"Deck loaded: {len(cards)} cards, draw pile shuffled.",
        cards=len(cards),
    )
    return evolve(state, deck={c.id: c for c in cards}, pile=tuple(pile), discard=(), hands=())


#: Used by the consequences (R21: brothers return to the player's hand, D17).
to_hand = _to_hand
