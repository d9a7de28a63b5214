"""The turn: the episode step character by character (R2-R4), then the travel phase.

``peripeties.next_turn`` ends the setup or the travel phase and starts the next turn's
episode step. The characters are queued in turn order (players in order, each player's
characters in their order, R2/D15). At the head of the queue an Immobilised character
discards its tokens (R3) and a convict lowers its D4 (R4) with no input needed; the first
character free to play gets an :class:`Episode` waiting for its dice. When the queue is
empty the travel phase begins (not described by the spec: the companion only shows who
may move and how far, and waits for ``peripeties.next_turn``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import de
from ..refusal import malformed
from .common import Out, put, refuse
from .state import Episode, State, evolve

__all__ = ["next_turn", "advance", "finish_episode", "drop_from_turn", "choose_next_character"]


def next_turn(state: State, data: Mapping[str, Any], out: Out) -> State:
    if state.phase == "episodes":
        who = state.current.card.name if state.current else "?"
        raise refuse("R2", f"l'étape des péripéties n'est pas finie\u202f: {who} résout encore sa péripétie", f"the episode step is not over: {who} is still resolving an episode")
    if not state.characters:
        raise refuse("R2", "aucun personnage en jeu\u202f: ajoutez d'abord des personnages", "no character in play: add characters first")
    if state.phase == "travel" and state.options.banquet_token == "discard_after_travel":
        for ch in state.characters:
            if ch.banquet_turn == state.turn and ch.banquets > 0:
                state = put(state, evolve(ch, banquets=ch.banquets - 1))
    turn = state.turn + 1
    order = {p: i for i, p in enumerate(state.players)}
    queue = tuple(c.id for c in sorted(state.characters, key=lambda c: order.get(c.player, len(order))))
    out.add("turn.start", f"Tour {turn} : étape des péripéties.", f"Turn {turn}: episode step.", turn=turn)
    state = evolve(state, turn=turn, phase="episodes", queue=queue, episode=None)
    return advance(state, out)


def advance(state: State, out: Out) -> State:
    """Process the head of the queue until a character must play an episode (R3, R4)."""
    queue = state.queue
    o = state.options
    while queue:
        ch = state.character(queue[0])
        if ch is None:  # dead or removed meanwhile
            queue = queue[1:]
            continue
        handled = False
        if ch.immobilised > 0:  # R3
            out.add(
                "immobilised.discarded",
                f"{ch.card.name} défausse {ch.immobilised} jeton(s) Immobilisé : pas de péripétie ce tour (R3).",
                f"{ch.card.name} discards {ch.immobilised} Immobilised token(s): no episode this turn (R3).",
                character=ch.id,
            )
            ch = evolve(ch, immobilised=0)
            handled = True
        if ch.prison > 0 and (not handled or o.immobilised_and_prison == "both"):  # R4, D19
            left = ch.prison - 1
            if left == 0:
                out.add(
                    "prison.freed",
                    f"{ch.card.name} est libéré du bagne : pas de péripétie ce tour, mais peut voyager (R4).",
                    f"{ch.card.name} is freed: no episode this turn, but may travel (R4).",
                    character=ch.id,
                )
                ch = evolve(ch, prison=0, cell=None)
            else:
                out.add(
                    "prison.wait",
                    f"{ch.card.name} purge sa peine : encore {left} tour(s) au bagne, ni péripétie ni voyage (R4).",
                    f"{ch.card.name} serves the sentence: {left} more turn(s) in prison, no episode, no travel (R4).",
                    character=ch.id,
                    left=left,
                )
                ch = evolve(ch, prison=left, stay_turn=state.turn)
            handled = True
        if handled:
            state = put(state, ch)
            queue = queue[1:]
            continue
        out.add(
            "episode.start",
            f"Péripétie {de(ch.card.name)} ({ch.player}) : lancez les dés.",
            f"{ch.card.name}'s episode ({ch.player}): roll the dice.",
            character=ch.id,
            player=ch.player,
        )
        return evolve(state, queue=queue, episode=Episode(character=ch.id, turn=state.turn, name=ch.card.name))
    out.add(
        "travel.start",
        f"Fin des péripéties du tour {state.turn} : phase de voyage.",
        f"Episodes of turn {state.turn} done: travel phase.",
        turn=state.turn,
    )
    return evolve(state, queue=(), episode=None, phase="travel")


def finish_episode(state: State, out: Out) -> State:
    """The current episode is over: keep it as the last one and move to the next character."""
    return advance(evolve(state, queue=state.queue[1:], episode=None, last=state.episode), out)


def drop_from_turn(state: State, cid: str, out: Out) -> State:
    """A character left play (removed, dead): take it out of this turn's queue."""
    if cid not in state.queue:
        return state
    if state.queue and state.queue[0] == cid and state.episode is not None:
        return advance(evolve(state, queue=state.queue[1:], episode=None), out)
    return evolve(state, queue=tuple(q for q in state.queue if q != cid))


def choose_next_character(state: State, cid: Any, out: Out) -> State:
    """R2 [Decision]: a player resolves their characters in the order they choose. Before
    any die of the current episode is entered, the current player may switch to another
    of their characters still waiting this turn."""
    ep = state.episode
    if ep is None or state.current is None:
        raise refuse("R2", "aucune péripétie n'attend de personnage maintenant", "no episode is waiting for a character now")
    if ep.sub != "dice" or any((ep.lieu, ep.adversaire, ep.epreuve, ep.rewards, ep.sentences, ep.difficulty, ep.detail)):
        raise refuse("R2", "des dés sont déjà saisis pour cette péripétie\u202f: annulez-les d'abord", "dice are already entered for this episode: undo them first")
    target = state.character(cid) if isinstance(cid, str) else None
    if target is None:
        raise malformed(f"pas de personnage {cid!r}", f"no character {cid!r}")
    if cid not in state.queue:
        raise refuse("R2", f"{cid} a déjà joué ce tour (ou est arrivé après son début)", f"{cid} has already played this turn (or joined after it began)")
    owner = state.current.player
    if target.player != owner:
        raise refuse("R2", f"{target.card.name} appartient à {target.player}\u202f; c'est au tour {de(owner)}", f"{target.card.name} belongs to {target.player}; it is {owner}'s turn")
    if cid == ep.character:
        return state
    queue = (cid,) + tuple(q for q in state.queue if q != cid)
    state = evolve(state, queue=queue, episode=None)
    return advance(state, out)
