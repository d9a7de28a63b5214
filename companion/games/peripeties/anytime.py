"""Choices that may come at any time: bribery (R21.5, D8), healing (R22.4, D18), the
convict's cell (D9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import de
from ..refusal import malformed
from .common import Out, int_field, need_character, put, refuse
from .state import Character, State, evolve
from .steps import finish

__all__ = ["on_bribe", "on_heal", "on_cell", "bribe_max"]


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


def _bribe_payer(state: State, convict: Character, data: Mapping[str, Any]) -> Character:
    """D8: who pays: the convict, or (``bribe_payer: player``) another character of its player."""
    if "payer" not in data:
        return convict
    payer = need_character(state, data, "payer")
    if payer.id != convict.id and all(p.id != payer.id for p in _payers(state, convict)):
        raise refuse("D8", f"{payer.card.name} ne peut pas payer pour {convict.card.name} à cette table", f"{payer.card.name} cannot pay for {convict.card.name} at this table (bribe_payer)")
    return payer


def _pay_bribe(state: State, ch: Character, payer: Character, turns: int, out: Out) -> State:
    """R21.5: ``turns`` × the rate in taels, the D4 lowered by ``turns``, never below 1."""
    if ch.prison - turns < 1:
        raise refuse(
            "R21",
            f"le D4 du bagne montre {ch.prison}\u202f: on ne peut pas descendre en dessous d'un tour",
            f"the prison die shows {ch.prison}: it can be lowered to 1 at most, never below",
        )
    cost = turns * state.options.bribe_rate
    if payer.taels < cost:
        raise refuse("R21", f"{payer.card.name} a {payer.taels} taels\u202f; {turns} tour(s) coûtent {cost}", f"{payer.card.name} has {payer.taels} taels; {turns} turn(s) cost {cost}")
    payer = evolve(payer, taels=payer.taels - cost)
    state = put(state, payer)
    ch = state.character(ch.id) or ch
    ch = evolve(ch, prison=ch.prison - turns)
    state = put(state, ch)
    out.add(
        "prison.bribe",
        f"{payer.card.name} verse {cost} taels au directeur : le D4 {de(ch.card.name)} passe à {ch.prison} (R21).",
        f"{payer.card.name} pays {cost} taels to the warden: {ch.card.name}'s d4 goes down to {ch.prison} (R21).",
        character=ch.id, payer=payer.id, paid=cost, prison=ch.prison,
    )
    return state


def on_bribe(state: State, data: Mapping[str, Any], out: Out) -> State:
    """R21.5/D8: lower the prison D4 by ``turns`` for ``turns`` × 10 taels; never below 1."""
    ch = need_character(state, data)
    ep = state.episode
    in_bribe_step = ep is not None and ep.sub == "bribe" and ep.character == ch.id
    if state.options.bribe_timing == "sentence" and not in_bribe_step:
        raise refuse("D8", "à cette table, on ne corrompt qu'au moment de la condamnation", "at this table bribes are paid only when the sentence is given")
    if ch.prison <= 0:
        rolling = ep is not None and ep.sub == "prison"
        raise refuse("R21", f"{ch.card.name} n'est pas au bagne" + ("\u202f: lancez d'abord le D4" if rolling else ""),
                     f"{ch.card.name} is not in prison" + (" yet: roll the d4 first" if rolling else ""))
    turns = int_field(data, "turns", 0 if in_bribe_step else 1, 4, 1)
    payer = _bribe_payer(state, ch, data)
    if turns:
        state = _pay_bribe(state, ch, payer, turns, out)
    if in_bribe_step:
        return finish(state, out)
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
        raise malformed("«\u202fcell\u202f» doit être le nom d'une case (1 à 40 caractères)", "'cell' must be the name of a cell (1-40 characters)")
    ch = evolve(ch, cell=cell.strip())
    out.add("prison.cell", f"Le bagnard {ch.card.name} est placé sur la case {ch.cell} (D9).",
            f"The convict {ch.card.name} is placed on cell {ch.cell} (D9).", character=ch.id, cell=ch.cell)
    return put(state, ch)
