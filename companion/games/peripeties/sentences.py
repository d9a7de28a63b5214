"""Failure: the sentence die (R19-R22) and death (R23)."""

from __future__ import annotations

from ..base import de
from ..refusal import malformed
from .common import Out, put
from .setup import to_hand
from .state import Character, State, evolve
from .steps import current, finish, note, set_sub

__all__ = ["apply_sentence", "kill"]


# -- sentences ------------------------------------------------------------------------
def apply_sentence(state: State, key: str, out: Out) -> State:
    ch = current(state)
    o = state.options
    if key == "voyage":  # R20
        ch = evolve(ch, immobilised=ch.immobilised + 1, stay_turn=state.turn)
        state = note(
            put(state, ch), out, "sentence.immobilised",
            f"{ch.card.name} reçoit un jeton Immobilisé : pas de voyage ce tour (R20).",
            f"{ch.card.name} gets an Immobilised token: no travel this turn (R20).",
            character=ch.id,
        )
        return finish(state, out)
    if key == "blessure":  # R22
        ch = evolve(ch, wounds=ch.wounds + 1)
        if ch.effective_combat <= o.death_at:
            state = note(
                state, out, "sentence.wound",
                f"Blessure incapacitante : le combat {de(ch.card.name)} tombe à {ch.effective_combat} (R22).",
                f"Crippling wound: {ch.card.name}'s combat falls to {ch.effective_combat} (R22).",
                character=ch.id, combat=ch.effective_combat,
            )
            return finish(kill(state, ch, out), out)
        state = note(
            put(state, ch), out, "sentence.wound",
            f"Blessure incapacitante : jeton -2, combat effectif {ch.effective_combat} (R22).",
            f"Crippling wound: -2 token, effective combat {ch.effective_combat} (R22).",
            character=ch.id, combat=ch.effective_combat,
        )
        return finish(state, out)
    if key == "taels":  # R19
        if ch.taels == 0:
            # With no tael, any fine is more than the character holds: the D10 is not
            # needed [Inferred]; it pays nothing and the sentence die is re-rolled (P11).
            state = note(
                state, out, "sentence.fine_empty",
                f"{ch.card.name} n'a aucun tael : rien à payer, relancez le dé de sentence (R19).",
                f"{ch.card.name} has no tael: nothing to pay, re-roll the sentence die (R19).",
                character=ch.id,
            )
            return set_sub(state, "sentence_reroll")
        state = note(state, out, "sentence.fine_roll", "Amende : lancez un D10 (R19).", "Fine: roll a d10 (R19).",
                      character=ch.id)
        return set_sub(state, "fine")
    if key == "bagne":  # R21
        brothers = tuple(b.id for b in ch.brothers)
        ch = evolve(ch, brothers=())
        state = put(state, ch)
        if brothers:
            if o.bagne_brothers == "hand":
                state = to_hand(state, ch.player, brothers)
            else:
                state = evolve(state, discard=state.discard + brothers)
        where_fr = "dans la main du joueur" if o.bagne_brothers == "hand" else "à la défausse"
        where_en = "to the player's hand" if o.bagne_brothers == "hand" else "to the discard pile"
        state = note(
            state, out, "sentence.bagne",
            f"{ch.card.name} est condamné au bagne. Frères jurés : {len(brothers)}, {where_fr}. "
            "Le joueur suivant choisit une case libre ; lancez un D4 (R21).",
            f"{ch.card.name} is sentenced to penal servitude. Sworn brothers: {len(brothers)}, {where_en}. "
            "The next player picks a free cell; roll a d4 (R21).",
            character=ch.id, brothers=list(brothers),
        )
        return set_sub(state, "prison")
    raise malformed(f"peine inconnue {key!r}", f"unknown sentence {key!r}")


def kill(state: State, ch: Character, out: Out) -> State:
    """R23: the card, its tokens and its sworn brothers go to the discard pile."""
    cards = (ch.card.id, *(b.id for b in ch.brothers))
    state = evolve(
        state,
        characters=tuple(c for c in state.characters if c.id != ch.id),
        dead=state.dead + (ch,),
        discard=state.discard + cards,
    )
    return note(
        state, out, "death",
        f"{ch.card.name} meurt : sa carte, ses jetons et ses frères jurés sont défaussés, sa figurine quitte le plateau (R23).",
        f"{ch.card.name} dies: card, tokens and sworn brothers are discarded, the figure leaves the board (R23).",
        character=ch.id,
    )
