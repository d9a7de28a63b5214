"""Success: experience (R18, D12) and the reward die (R12-R16, D5, D16)."""

from __future__ import annotations

import random
from typing import Any

from ..base import de
from ..refusal import malformed
from .common import Out, need_episode, put, refuse
from .state import MAX_BROTHERS, TRIALS, Card, State, evolve
from .steps import current, finish, note, set_sub

__all__ = ["experience", "apply_reward", "is_junior", "choose_card"]

_WORDS = {"combat": ("combat", "combat"), "esprit": ("esprit", "mind"), "magie": ("magie", "magic")}


def experience(state: State, out: Out) -> State:
    """R18 + D12: +1 on the trial's characteristic, within the caps."""
    ep, ch = need_episode(state)
    if ep.epreuve is None:
        raise refuse("R18", "pas d'expérience sans épreuve", "no experience without a trial")
    o = state.options
    trial = ep.epreuve
    target: str | None = None
    if ch.xp_total < o.xp_cap_total:
        if ch.xp_of(trial) < o.xp_cap_each:
            target = trial
        elif o.xp_at_cap == "lowest":
            below = [t for t in TRIALS if ch.xp_of(t) < o.xp_cap_each]
            if below:
                target = min(below, key=lambda t: (ch.xp_of(t), TRIALS.index(t)))
    if target is None:
        return note(
            state,
            out,
            "xp.capped",
            "Expérience au plafond : pas de jeton +1 (R18).",
            "Experience at its cap: no +1 token (R18).",
            character=ch.id,
            trial=trial,
        )
    ch = ch.with_xp(target, ch.xp_of(target) + 1)
    state = put(state, ch)
    fr, en = _WORDS[target]
    return note(
        state,
        out,
        "xp.gain",
        f"+1 d'expérience en {fr} (désormais +{ch.xp_of(target)}).",
        f"+1 experience in {en} (now +{ch.xp_of(target)}).",
        character=ch.id,
        trial=target,
        xp=ch.xp_of(target),
    )


# -- rewards --------------------------------------------------------------------------
def apply_reward(state: State, key: str, rng: random.Random, out: Out) -> State:
    ch = current(state)
    if key == "banquet":  # R13
        ch = evolve(ch, banquets=ch.banquets + 1, banquet_turn=state.turn)
        state = note(
            put(state, ch), out, "reward.banquet",
            f"Banquet ! {ch.card.name} avancera de deux cases au voyage de ce tour (R13).",
            f"Banquet! {ch.card.name} moves two cells in this turn's travel (R13).",
            character=ch.id,
        )
        return finish(state, out)
    if key == "gourde":  # R14
        ch = evolve(ch, gourds=ch.gourds + 1)
        state = note(
            put(state, ch), out, "reward.gourd",
            f"Une gourde d'arak pour {ch.card.name} (R14).", f"A gourd of arak for {ch.card.name} (R14).",
            character=ch.id,
        )
        return finish(state, out)
    if key == "taels":  # R15
        state = note(state, out, "reward.taels_roll", "Taels d'argent : lancez un D10 (R15).",
                      "Silver taels: roll a d10 (R15).", character=ch.id)
        return set_sub(state, "reward_taels")
    if key == "frere":  # R16
        if len(ch.brothers) >= MAX_BROTHERS:
            state = note(
                state, out, "reward.reroll_needed",
                f"{ch.card.name} a déjà six frères jurés : relancez le dé de récompense (R16).",
                f"{ch.card.name} already has six sworn brothers: re-roll the reward die (R16).",
                character=ch.id,
            )
            return set_sub(state, "reward_reroll")
        if state.options.brother_draw == "table":
            state = note(state, out, "reward.brother_draw", "Frère juré : piochez une carte bandit et saisissez-la (R16).",
                          "Sworn brother: draw a bandit card and enter it (R16).", character=ch.id)
            return set_sub(state, "brother_card")
        return _draw_brother(state, rng, out)
    raise malformed(f"récompense inconnue {key!r}", f"unknown reward {key!r}")


def is_junior(state: State, card: Card, main: Card) -> bool:
    """R16/D5: may ``card`` become ``main``'s sworn brother (a lower rank)?"""
    o = state.options
    if card.rank == main.rank:
        return o.equal_rank == "accept"
    if o.rank_order == "1_is_highest":
        return card.rank > main.rank
    return card.rank < main.rank


def _take_brother(state: State, card: Card, out: Out) -> State:
    ch = current(state)
    ch = evolve(ch, brothers=ch.brothers + (card,))
    state = put(state, ch)
    return note(
        state, out, "reward.brother",
        f"{card.name} (rang {card.rank}) devient le frère juré {de(ch.card.name)} (R16).",
        f"{card.name} (rank {card.rank}) becomes {ch.card.name}'s sworn brother (R16).",
        character=ch.id, card=card.id,
    )


def _reject(state: State, card: Card, out: Out) -> State:
    state = evolve(state, discard=state.discard + (card.id,))
    return note(
        state, out, "reward.card_rejected",
        f"{card.name} (rang {card.rank}) n'est pas de rang inférieur : défaussé (R16, D5).",
        f"{card.name} (rank {card.rank}) is not of lower rank: discarded (R16, D5).",
        card=card.id,
    )


def _draw_brother(state: State, rng: random.Random, out: Out) -> State:
    """R16 with the software's shuffled pile: draw until a card of lower rank (D5)."""
    main = current(state).card
    reshuffled = False
    while True:
        if not state.pile:
            if state.options.empty_pile == "reshuffle" and state.discard and not reshuffled:
                pile = list(state.discard)
                rng.shuffle(pile)
                state = evolve(state, pile=tuple(pile), discard=())
                state = note(state, out, "deck.reshuffled", "Pioche épuisée : la défausse est remélangée (D5).",
                              "Draw pile exhausted: the discard pile is reshuffled (D5).")
                reshuffled = True
                continue
            state = note(state, out, "reward.no_brother", "La pioche est épuisée : pas de frère juré (D5).",
                          "The draw pile is exhausted: no sworn brother (D5).")
            return finish(state, out)
        card = state.deck[state.pile[0]]
        state = evolve(state, pile=state.pile[1:])
        if is_junior(state, card, main):
            return finish(_take_brother(state, card, out), out)
        state = _reject(state, card, out)


def choose_card(state: State, card_id: Any, rng: random.Random, out: Out) -> State:
    """brother_draw=table: the card drawn at the table (``null``: the pile is empty)."""
    ep = state.episode
    if ep is None or ep.sub != "brother_card":
        raise refuse("R16", "aucune carte bandit n'est en cours de pioche", "no bandit card is being drawn now")
    if card_id is None:
        state = note(state, out, "reward.no_brother", "Pioche épuisée : pas de frère juré (D5).",
                      "Draw pile exhausted: no sworn brother (D5).")
        return finish(state, out)
    if not isinstance(card_id, str) or card_id not in state.deck:
        raise malformed(f"pas de carte {card_id!r} dans le paquet", f"no card {card_id!r} in the deck")
    if card_id not in state.pile:
        in_discard = card_id in state.discard
        raise refuse(
            "R16",
            f"la carte {card_id} est {'dans la défausse' if in_discard else 'en jeu'}, pas dans la pioche",
            f"the card {card_id} is {'in the discard pile' if in_discard else 'in play'}, not in the draw pile",
        )
    card = state.deck[card_id]
    state = evolve(state, pile=tuple(x for x in state.pile if x != card_id))
    if is_junior(state, card, current(state).card):
        return finish(_take_brother(state, card, out), out)
    return _reject(state, card, out)
