"""After the roll: success (reward R12-R16, experience R18) or failure (sentence
R19-R22, death R23); and the choices that may come at any time: bribery (R21, D8),
healing (R22.4, D18), the convict's cell (D9).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...dice import DiceError
from ...errors import EventError
from .common import Out, int_field, need_character, put, refuse
from .dice_input import DieIn
from .flow import finish_episode
from .model import Card, Character, MAX_BROTHERS, State, TRIALS, evolve
from .odds import is_success
from .trial import modifiers

__all__ = ["resolve", "consequence_die", "choose_card", "on_bribe", "on_heal", "on_cell", "is_junior", "kill", "bribe_max"]

_WORDS = {"combat": ("combat", "combat"), "esprit": ("esprit", "mind"), "magie": ("magie", "magic")}


def _note(state: State, out: Out, kind: str, fr: str, en: str, **data: Any) -> State:
    out.add(kind, fr, en, **data)
    ep = state.episode
    if ep is None:
        return state
    return evolve(state, episode=evolve(ep, notes=ep.notes + ((kind, fr, en),)))


def _cur(state: State) -> Character:
    ch = state.current
    assert ch is not None
    return ch


def _sub(state: State, sub: str) -> State:
    ep = state.episode
    assert ep is not None
    return evolve(state, episode=evolve(ep, sub=sub))


def _finish(state: State, out: Out) -> State:
    return finish_episode(state, out)


# -- the roll -------------------------------------------------------------------------
def resolve(state: State, rng: random.Random, out: Out) -> State:
    """R10/R11: total, naturals, success or failure, then the consequences."""
    ep = state.episode
    ch = _cur(state)
    assert ep is not None and ep.roll is not None and ep.epreuve is not None
    o = state.options
    mods = modifiers(o, ch, ep, ep.gourds, ep.brother)
    m = sum(x.value for x in mods)
    diff = ep.difficulty_total or 0
    ok, natural = is_success(ep.roll, ch.card.die, m, diff, o.naturals == "override")
    total = ep.roll + m
    if ep.gourds:  # R14: the gourd is drunk whatever the result (P1d)
        ch = evolve(ch, gourds=ch.gourds - ep.gourds)
        state = put(state, ch)
    state = evolve(state, episode=evolve(ep, total=total, success=ok, natural=natural))
    why_fr = {"max": f" (maximum naturel : {ep.roll} au D{ch.card.die})", "one": " (1 naturel)"}.get(natural or "", "")
    why_en = {"max": f" (natural maximum: {ep.roll} on the d{ch.card.die})", "one": " (natural 1)"}.get(natural or "", "")
    detail = " + ".join(f"{x.value}" for x in mods)
    state = _note(
        state,
        out,
        "trial.success" if ok else "trial.failure",
        f"{ch.card.name} : {ep.roll} + {detail} = {total} contre {diff} → {'réussite' if ok else 'échec'}{why_fr}.",
        f"{ch.card.name}: {ep.roll} + {detail} = {total} against {diff} → {'success' if ok else 'failure'}{why_en}.",
        character=ch.id,
        roll=ep.roll,
        die=ch.card.die,
        modifier=m,
        total=total,
        difficulty=diff,
        success=ok,
        natural=natural,
        modifiers=[x.to_json() for x in mods],
        gourds=ep.gourds,
        brother=ep.brother,
    )
    if ok:
        state = _experience(state, out)
        reward = ep.reward
        assert reward is not None
        return apply_reward(state, reward, rng, out)
    sentence = ep.sentence
    assert sentence is not None
    return apply_sentence(state, sentence, out)


def _experience(state: State, out: Out) -> State:
    """R18 + D12: +1 on the trial's characteristic, within the caps."""
    ep = state.episode
    ch = _cur(state)
    assert ep is not None and ep.epreuve is not None
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
        return _note(
            state,
            out,
            "xp.capped",
            f"Expérience au plafond : pas de jeton +1 (R18).",
            f"Experience at its cap: no +1 token (R18).",
            character=ch.id,
            trial=trial,
        )
    ch = ch.with_xp(target, ch.xp_of(target) + 1)
    state = put(state, ch)
    fr, en = _WORDS[target]
    return _note(
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
    ch = _cur(state)
    if key == "banquet":  # R13
        ch = evolve(ch, banquets=ch.banquets + 1, banquet_turn=state.turn)
        state = _note(
            put(state, ch), out, "reward.banquet",
            f"Banquet ! {ch.card.name} avancera de deux cases au voyage de ce tour (R13).",
            f"Banquet! {ch.card.name} moves two cells in this turn's travel (R13).",
            character=ch.id,
        )
        return _finish(state, out)
    if key == "gourde":  # R14
        ch = evolve(ch, gourds=ch.gourds + 1)
        state = _note(
            put(state, ch), out, "reward.gourd",
            f"Une gourde d'arak pour {ch.card.name} (R14).", f"A gourd of arak for {ch.card.name} (R14).",
            character=ch.id,
        )
        return _finish(state, out)
    if key == "taels":  # R15
        state = _note(state, out, "reward.taels_roll", "Taels d'argent : lancez un D10 (R15).",
                      "Silver taels: roll a d10 (R15).", character=ch.id)
        return _sub(state, "reward_taels")
    if key == "frere":  # R16
        if len(ch.brothers) >= MAX_BROTHERS:
            state = _note(
                state, out, "reward.reroll_needed",
                f"{ch.card.name} a déjà six frères jurés : relancez le dé de récompense (R16).",
                f"{ch.card.name} already has six sworn brothers: re-roll the reward die (R16).",
                character=ch.id,
            )
            return _sub(state, "reward_reroll")
        if state.options.brother_draw == "table":
            state = _note(state, out, "reward.brother_draw", "Frère juré : piochez une carte bandit et saisissez-la (R16).",
                          "Sworn brother: draw a bandit card and enter it (R16).", character=ch.id)
            return _sub(state, "brother_card")
        return _draw_brother(state, rng, out)
    raise EventError(f"unknown reward {key!r}")


def is_junior(state: State, card: Card, main: Card) -> bool:
    """R16/D5: may ``card`` become ``main``'s sworn brother (a lower rank)?"""
    o = state.options
    if card.rank == main.rank:
        return o.equal_rank == "accept"
    if o.rank_order == "1_is_highest":
        return card.rank > main.rank
    return card.rank < main.rank


def _take_brother(state: State, card: Card, out: Out) -> State:
    ch = _cur(state)
    ch = evolve(ch, brothers=ch.brothers + (card,))
    state = put(state, ch)
    return _note(
        state, out, "reward.brother",
        f"{card.name} (rang {card.rank}) devient le frère juré de {ch.card.name} (R16).",
        f"{card.name} (rank {card.rank}) becomes {ch.card.name}'s sworn brother (R16).",
        character=ch.id, card=card.id,
    )


def _reject(state: State, card: Card, out: Out) -> State:
    state = evolve(state, discard=state.discard + (card.id,))
    return _note(
        state, out, "reward.card_rejected",
        f"{card.name} (rang {card.rank}) n'est pas de rang inférieur : défaussé (R16, D5).",
        f"{card.name} (rank {card.rank}) is not of lower rank: discarded (R16, D5).",
        card=card.id,
    )


def _draw_brother(state: State, rng: random.Random, out: Out) -> State:
    """R16 with the software's shuffled pile: draw until a card of lower rank (D5)."""
    main = _cur(state).card
    reshuffled = False
    while True:
        if not state.pile:
            if state.options.empty_pile == "reshuffle" and state.discard and not reshuffled:
                pile = list(state.discard)
                rng.shuffle(pile)
                state = evolve(state, pile=tuple(pile), discard=())
                state = _note(state, out, "deck.reshuffled", "Pioche épuisée : la défausse est remélangée (D5).",
                              "Draw pile exhausted: the discard pile is reshuffled (D5).")
                reshuffled = True
                continue
            state = _note(state, out, "reward.no_brother", "La pioche est épuisée : pas de frère juré (D5).",
                          "The draw pile is exhausted: no sworn brother (D5).")
            return _finish(state, out)
        card = state.deck[state.pile[0]]
        state = evolve(state, pile=state.pile[1:])
        if is_junior(state, card, main):
            return _finish(_take_brother(state, card, out), out)
        state = _reject(state, card, out)


def choose_card(state: State, card_id: Any, rng: random.Random, out: Out) -> State:
    """brother_draw=table: the card drawn at the table (``null``: the pile is empty)."""
    ep = state.episode
    if ep is None or ep.sub != "brother_card":
        raise refuse("R16", "aucune carte bandit n'est en cours de pioche", "no bandit card is being drawn now")
    if card_id is None:
        state = _note(state, out, "reward.no_brother", "Pioche épuisée : pas de frère juré (D5).",
                      "Draw pile exhausted: no sworn brother (D5).")
        return _finish(state, out)
    if not isinstance(card_id, str) or card_id not in state.deck:
        raise EventError(f"no card {card_id!r} in the deck")
    if card_id not in state.pile:
        in_discard = card_id in state.discard
        raise refuse(
            "R16",
            f"la carte {card_id} est {'dans la défausse' if in_discard else 'en jeu'}, pas dans la pioche",
            f"the card {card_id} is {'in the discard pile' if in_discard else 'in play'}, not in the draw pile",
        )
    card = state.deck[card_id]
    state = evolve(state, pile=tuple(x for x in state.pile if x != card_id))
    if is_junior(state, card, _cur(state).card):
        return _finish(_take_brother(state, card, out), out)
    return _reject(state, card, out)


# -- sentences ------------------------------------------------------------------------
def apply_sentence(state: State, key: str, out: Out) -> State:
    ch = _cur(state)
    o = state.options
    if key == "voyage":  # R20
        ch = evolve(ch, immobilised=ch.immobilised + 1, stay_turn=state.turn)
        state = _note(
            put(state, ch), out, "sentence.immobilised",
            f"{ch.card.name} reçoit un jeton Immobilisé : pas de voyage ce tour (R20).",
            f"{ch.card.name} gets an Immobilised token: no travel this turn (R20).",
            character=ch.id,
        )
        return _finish(state, out)
    if key == "blessure":  # R22
        ch = evolve(ch, wounds=ch.wounds + 1)
        if ch.effective_combat <= o.death_at:
            state = _note(
                state, out, "sentence.wound",
                f"Blessure incapacitante : le combat de {ch.card.name} tombe à {ch.effective_combat} (R22).",
                f"Crippling wound: {ch.card.name}'s combat falls to {ch.effective_combat} (R22).",
                character=ch.id, combat=ch.effective_combat,
            )
            return _finish(kill(state, ch, out), out)
        state = _note(
            put(state, ch), out, "sentence.wound",
            f"Blessure incapacitante : jeton -2, combat effectif {ch.effective_combat} (R22).",
            f"Crippling wound: -2 token, effective combat {ch.effective_combat} (R22).",
            character=ch.id, combat=ch.effective_combat,
        )
        return _finish(state, out)
    if key == "taels":  # R19
        if ch.taels == 0:
            # With no tael, any fine is more than the character holds: the D10 is not
            # needed [Inferred]; it pays nothing and the sentence die is re-rolled (P11).
            state = _note(
                state, out, "sentence.fine_empty",
                f"{ch.card.name} n'a aucun tael : rien à payer, relancez le dé de sentence (R19).",
                f"{ch.card.name} has no tael: nothing to pay, re-roll the sentence die (R19).",
                character=ch.id,
            )
            return _sub(state, "sentence_reroll")
        state = _note(state, out, "sentence.fine_roll", "Amende : lancez un D10 (R19).", "Fine: roll a d10 (R19).",
                      character=ch.id)
        return _sub(state, "fine")
    if key == "bagne":  # R21
        brothers = tuple(b.id for b in ch.brothers)
        ch = evolve(ch, brothers=())
        state = put(state, ch)
        if brothers:
            if o.bagne_brothers == "hand":
                from .setup import to_hand

                state = to_hand(state, ch.player, brothers)
            else:
                state = evolve(state, discard=state.discard + brothers)
        where_fr = "dans la main du joueur" if o.bagne_brothers == "hand" else "à la défausse"
        where_en = "to the player's hand" if o.bagne_brothers == "hand" else "to the discard pile"
        state = _note(
            state, out, "sentence.bagne",
            f"{ch.card.name} est condamné au bagne. Frères jurés : {len(brothers)}, {where_fr}. "
            "Le joueur suivant choisit une case libre ; lancez un D4 (R21).",
            f"{ch.card.name} is sentenced to penal servitude. Sworn brothers: {len(brothers)}, {where_en}. "
            "The next player picks a free cell; roll a d4 (R21).",
            character=ch.id, brothers=list(brothers),
        )
        return _sub(state, "prison")
    raise EventError(f"unknown sentence {key!r}")


def kill(state: State, ch: Character, out: Out) -> State:
    """R23: the card, its tokens and its sworn brothers go to the discard pile."""
    cards = (ch.card.id, *(b.id for b in ch.brothers))
    state = evolve(
        state,
        characters=tuple(c for c in state.characters if c.id != ch.id),
        dead=state.dead + (ch,),
        discard=state.discard + cards,
    )
    return _note(
        state, out, "death",
        f"{ch.card.name} meurt : sa carte, ses jetons et ses frères jurés sont défaussés, sa figurine quitte le plateau (R23).",
        f"{ch.card.name} dies: card, tokens and sworn brothers are discarded, the figure leaves the board (R23).",
        character=ch.id,
    )


# -- the dice of the consequences -----------------------------------------------------
_SUB_KIND = {
    "reward_taels": ("d10", "taels"),
    "fine": ("d10", "taels"),
    "reward_reroll": ("recompense", "recompense"),
    "sentence_reroll": ("sentence", "sentence"),
    "prison": ("d4", "prison"),
}


def consequence_die(state: State, item: DieIn, rng: random.Random, out: Out) -> State:
    ep = state.episode
    assert ep is not None
    want = _SUB_KIND.get(ep.sub)
    if want is None:
        raise refuse("input", f"aucun dé n'est attendu à cette étape ({ep.sub})", f"no die is expected at this step ({ep.sub})")
    kind, slot = want
    if (item.kind is not None and item.kind != kind) or (item.slot is not None and item.slot != slot):
        raise refuse("input", f"cette étape attend un {kind} ({slot}), pas {item.kind or item.slot}", f"this step waits for a {kind} ({slot}), not {item.kind or item.slot}")
    try:
        value = state.dice[kind].parse(item.value)
    except DiceError as exc:
        raise EventError(str(exc)) from None
    ch = _cur(state)
    if ep.sub == "reward_taels":  # R15
        ch = evolve(ch, taels=ch.taels + int(value))
        state = evolve(put(state, ch), episode=evolve(ep, taels_rolls=ep.taels_rolls + (int(value),)))
        state = _note(state, out, "reward.taels", f"{ch.card.name} gagne {value} taels (total {ch.taels}) (R15).",
                      f"{ch.card.name} gains {value} taels (total {ch.taels}) (R15).", character=ch.id, taels=int(value))
        return _finish(state, out)
    if ep.sub == "reward_reroll":  # R16.1
        state = evolve(state, episode=evolve(ep, rewards=ep.rewards + (str(value),), story=None))
        face = state.dice["recompense"].face(value)
        state = _note(state, out, "reward.reroll", f"Dé de récompense relancé : {face.fr}.",
                      f"Reward die re-rolled: {face.en}.", value=value, rule="R16")
        return apply_reward(state, str(value), rng, out)
    if ep.sub == "fine":  # R19
        k = int(value)
        state = evolve(state, episode=evolve(ep, taels_rolls=ep.taels_rolls + (k,)))
        short = ch.taels < k if state.options.fine_shortfall == "fewer" else ch.taels <= k
        if not short:
            ch = evolve(ch, taels=ch.taels - k)
            state = _note(put(state, ch), out, "sentence.fine",
                          f"{ch.card.name} paie {k} taels (reste {ch.taels}) (R19).",
                          f"{ch.card.name} pays {k} taels ({ch.taels} left) (R19).", character=ch.id, paid=k)
            return _finish(state, out)
        paid = ch.taels
        ch = evolve(ch, taels=0)
        state = _note(put(state, ch), out, "sentence.fine_short",
                      f"Amende de {k} : {ch.card.name} paie tout ce qu'il a ({paid}) ; relancez le dé de sentence (R19).",
                      f"Fine of {k}: {ch.card.name} pays all they have ({paid}); re-roll the sentence die (R19).",
                      character=ch.id, paid=paid, fine=k)
        return _sub(state, "sentence_reroll")
    if ep.sub == "sentence_reroll":  # R19: applied in addition
        state = evolve(state, episode=evolve(ep, sentences=ep.sentences + (str(value),), sentence_index=ep.sentence_index + 1))
        face = state.dice["sentence"].face(value)
        state = _note(state, out, "sentence.reroll", f"Dé de sentence relancé : {face.fr}.",
                      f"Sentence die re-rolled: {face.en}.", value=value, rule="R19")
        return apply_sentence(state, str(value), out)
    # prison: R21.4
    d4 = int(value)
    ch = evolve(ch, prison=d4, stay_turn=state.turn)
    state = _note(put(state, ch), out, "sentence.prison",
                  f"{ch.card.name} est au bagne pour {d4} tour(s) (D4 posé sur la carte) (R21).",
                  f"{ch.card.name} is in prison for {d4} turn(s) (d4 placed on the card) (R21).",
                  character=ch.id, prison=d4)
    if state.options.bribe_timing == "sentence" and d4 > 1 and bribe_max(state, ch) > 0:
        return _sub(state, "bribe")
    return _finish(state, out)


# -- bribery, healing, the convict's cell ---------------------------------------------
def _payers(state: State, convict: Character) -> list[Character]:
    if state.options.bribe_payer == "player":
        return [c for c in state.characters if c.player == convict.player]
    return [convict]


def bribe_max(state: State, convict: Character) -> int:
    """The most prison turns one payer can buy off now (R21.5, D8)."""
    rate = state.options.bribe_rate
    best = max((p.taels for p in _payers(state, convict)), default=0)
    return max(0, min(convict.prison - 1, best // rate))


def on_bribe(state: State, data: Mapping[str, Any], out: Out) -> State:
    """R21.5/D8: lower the prison D4 by ``turns`` for ``turns`` × 10 taels; never below 1."""
    ch = need_character(state, data)
    o = state.options
    ep = state.episode
    in_bribe_step = ep is not None and ep.sub == "bribe" and ep.character == ch.id
    if o.bribe_timing == "sentence" and not in_bribe_step:
        raise refuse("D8", "à cette table, on ne corrompt qu'au moment de la condamnation", "at this table bribes are paid only when the sentence is given")
    if ch.prison <= 0:
        raise refuse("R21", f"{ch.card.name} n'est pas au bagne" + (" : lancez d'abord le D4" if ep and ep.sub == "prison" else ""),
                     f"{ch.card.name} is not in prison" + (" yet: roll the d4 first" if ep and ep.sub == "prison" else ""))
    turns = int_field(data, "turns", 0 if in_bribe_step else 1, 4, 1)
    payer = ch
    if "payer" in data:
        payer = need_character(state, data, "payer")
        if payer.id != ch.id and all(p.id != payer.id for p in _payers(state, ch)):
            raise refuse("D8", f"{payer.card.name} ne peut pas payer pour {ch.card.name} à cette table", f"{payer.card.name} cannot pay for {ch.card.name} at this table (bribe_payer)")
    if turns:
        if ch.prison - turns < 1:
            raise refuse(
                "R21",
                f"le D4 du bagne montre {ch.prison} : on ne peut pas descendre en dessous d'un tour",
                f"the prison die shows {ch.prison}: it can be lowered to 1 at most, never below",
            )
        cost = turns * o.bribe_rate
        if payer.taels < cost:
            raise refuse("R21", f"{payer.card.name} a {payer.taels} taels ; {turns} tour(s) coûtent {cost}", f"{payer.card.name} has {payer.taels} taels; {turns} turn(s) cost {cost}")
        payer = evolve(payer, taels=payer.taels - cost)
        state = put(state, payer)
        ch = state.character(ch.id) or ch
        ch = evolve(ch, prison=ch.prison - turns)
        state = put(state, ch)
        out.add(
            "prison.bribe",
            f"{payer.card.name} verse {cost} taels au directeur : le D4 de {ch.card.name} passe à {ch.prison} (R21).",
            f"{payer.card.name} pays {cost} taels to the warden: {ch.card.name}'s d4 goes down to {ch.prison} (R21).",
            character=ch.id, payer=payer.id, paid=cost, prison=ch.prison,
        )
    if in_bribe_step:
        return _finish(state, out)
    return state


def on_heal(state: State, data: Mapping[str, Any], out: Out) -> State:
    """R22.4/D18: spend a banquet token to discard a -2 token."""
    ch = need_character(state, data)
    if state.options.heal_timing == "travel" and state.phase != "travel":
        raise refuse("D18", "à cette table, on soigne pendant la phase de voyage", "at this table wounds are healed during the travel phase")
    if ch.wounds <= 0:
        raise refuse("R22", f"{ch.card.name} n'a pas de jeton -2 à soigner", f"{ch.card.name} has no -2 token to heal")
    if ch.banquets <= 0:
        raise refuse("R22", f"{ch.card.name} n'a pas de jeton banquet à dépenser", f"{ch.card.name} has no banquet token to spend")
    ch = evolve(ch, wounds=ch.wounds - 1, banquets=ch.banquets - 1)
    out.add(
        "heal",
        f"{ch.card.name} dépense un banquet et défausse un jeton -2 (combat effectif {ch.effective_combat}) (R22).",
        f"{ch.card.name} spends a banquet and discards a -2 token (effective combat {ch.effective_combat}) (R22).",
        character=ch.id,
    )
    return put(state, ch)


def on_cell(state: State, data: Mapping[str, Any], out: Out) -> State:
    """D9: the cell the next player moved the convict to (recorded, not validated)."""
    ch = need_character(state, data)
    ep = state.episode
    sentenced_now = ep is not None and ep.character == ch.id and ep.sub in ("prison", "bribe")
    if ch.prison <= 0 and not sentenced_now:
        raise refuse("R21", f"{ch.card.name} n'est pas au bagne", f"{ch.card.name} is not a convict")
    cell = data.get("cell")
    if not isinstance(cell, str) or not cell.strip() or len(cell) > 40:
        raise EventError("'cell' must be the name of a cell (1-40 characters)")
    ch = evolve(ch, cell=cell.strip())
    out.add("prison.cell", f"Le bagnard {ch.card.name} est placé sur la case {ch.cell} (D9).",
            f"The convict {ch.card.name} is placed on cell {ch.cell} (D9).", character=ch.id, cell=ch.cell)
    return put(state, ch)
