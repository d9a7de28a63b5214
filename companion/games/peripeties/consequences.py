"""After the roll: success or failure (R10, R11), then the dice the consequences ask for
(tael D10, re-rolled reward or sentence die, prison D4). The consequences themselves are
in :mod:`.rewards` (R12-R18) and :mod:`.sentences` (R19-R23); bribery, healing and the
convict's cell in :mod:`.anytime`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..base import de
from ...dice import DiceError
from ..refusal import rewrap
from .anytime import bribe_max
from .common import Out, need_episode, put, refuse
from .dice_input import DieIn
from .state import Character, Episode, State, evolve
from .odds import is_success
from .rewards import apply_reward, experience
from .sentences import apply_sentence
from .steps import finish, note, set_sub
from .trial import modifiers

__all__ = ["accepts", "resolve", "consequence_die"]


# -- the roll -------------------------------------------------------------------------
def resolve(state: State, rng: random.Random, out: Out) -> State:
    """R10/R11: total, naturals, success or failure, then the consequences."""
    ep, ch = need_episode(state)
    if ep.roll is None or ep.epreuve is None or ep.reward is None or ep.sentence is None:
        raise refuse("R10", "l'épreuve ne se résout qu'après ses dés et le jet", "the trial is resolved only after its dice and the roll")
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
    state = note(
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
        state = experience(state, out)
        return apply_reward(state, ep.reward, rng, out)
    return apply_sentence(state, ep.sentence, out)


# -- the dice of the consequences -----------------------------------------------------
_SUB_KIND = {
    "reward_taels": ("d10", "taels"),
    "fine": ("d10", "taels"),
    "reward_reroll": ("recompense", "recompense"),
    "sentence_reroll": ("sentence", "sentence"),
    "prison": ("d4", "prison"),
}


def accepts(ep: Episode, item: DieIn) -> bool:
    """Is ``item`` the die the consequence step ``ep.sub`` waits for?"""
    want = _SUB_KIND.get(ep.sub)
    if want is None:
        return False
    kind, slot = want
    return (item.kind is None or item.kind == kind) and (item.slot is None or item.slot == slot)


def _taels_won(state: State, ep: Episode, ch: Character, value: Any, rng: random.Random, out: Out) -> State:
    """R15: the D10 of a tael reward."""
    ch = evolve(ch, taels=ch.taels + int(value))
    state = evolve(put(state, ch), episode=evolve(ep, taels_rolls=ep.taels_rolls + (int(value),)))
    state = note(state, out, "reward.taels", f"{ch.card.name} gagne {value} taels (total {ch.taels}) (R15).",
                 f"{ch.card.name} gains {value} taels (total {ch.taels}) (R15).", character=ch.id, taels=int(value))
    return finish(state, out)


def _reward_rerolled(state: State, ep: Episode, ch: Character, value: Any, rng: random.Random, out: Out) -> State:
    """R16.1: the reward die re-rolled (six sworn brothers already)."""
    state = evolve(state, episode=evolve(ep, rewards=ep.rewards + (str(value),), story=None))
    face = state.dice["recompense"].face(value)
    state = note(state, out, "reward.reroll", f"Dé de récompense relancé : {face.fr}.",
                 f"Reward die re-rolled: {face.en}.", value=value, rule="R16")
    return apply_reward(state, str(value), rng, out)


def _fine(state: State, ep: Episode, ch: Character, value: Any, rng: random.Random, out: Out) -> State:
    """R19/D10: the D10 of a fine; short of taels, pay everything and re-roll the sentence."""
    k = int(value)
    state = evolve(state, episode=evolve(ep, taels_rolls=ep.taels_rolls + (k,)))
    short = ch.taels < k if state.options.fine_shortfall == "fewer" else ch.taels <= k
    if not short:
        ch = evolve(ch, taels=ch.taels - k)
        state = note(put(state, ch), out, "sentence.fine",
                     f"{ch.card.name} paie {k} taels (reste {ch.taels}) (R19).",
                     f"{ch.card.name} pays {k} taels ({ch.taels} left) (R19).", character=ch.id, paid=k)
        return finish(state, out)
    paid = ch.taels
    ch = evolve(ch, taels=0)
    state = note(put(state, ch), out, "sentence.fine_short",
                 f"Amende {de(k)} : {ch.card.name} paie tout ce qu'il a ({paid}) ; relancez le dé de sentence (R19).",
                 f"Fine of {k}: {ch.card.name} pays all they have ({paid}); re-roll the sentence die (R19).",
                 character=ch.id, paid=paid, fine=k)
    return set_sub(state, "sentence_reroll")


def _sentence_rerolled(state: State, ep: Episode, ch: Character, value: Any, rng: random.Random, out: Out) -> State:
    """R19: the sentence die re-rolled, applied in addition."""
    state = evolve(state, episode=evolve(ep, sentences=ep.sentences + (str(value),), sentence_index=ep.sentence_index + 1))
    face = state.dice["sentence"].face(value)
    state = note(state, out, "sentence.reroll", f"Dé de sentence relancé : {face.fr}.",
                 f"Sentence die re-rolled: {face.en}.", value=value, rule="R19")
    return apply_sentence(state, str(value), out)


def _prison(state: State, ep: Episode, ch: Character, value: Any, rng: random.Random, out: Out) -> State:
    """R21.4: the D4 placed on the card; bribery may follow at once (D8)."""
    d4 = int(value)
    ch = evolve(ch, prison=d4, stay_turn=state.turn)
    state = note(put(state, ch), out, "sentence.prison",
                 f"{ch.card.name} est au bagne pour {d4} tour(s) (D4 posé sur la carte) (R21).",
                 f"{ch.card.name} is in prison for {d4} turn(s) (d4 placed on the card) (R21).",
                 character=ch.id, prison=d4)
    if state.options.bribe_timing == "sentence" and d4 > 1 and bribe_max(state, ch) > 0:
        return set_sub(state, "bribe")
    return finish(state, out)


_Step = Callable[[State, Episode, Character, Any, random.Random, Out], State]

#: The step after the roll that waits for a die: what it applies.
_CONSEQUENCE: dict[str, _Step] = {
    "reward_taels": _taels_won,
    "reward_reroll": _reward_rerolled,
    "fine": _fine,
    "sentence_reroll": _sentence_rerolled,
    "prison": _prison,
}


def consequence_die(state: State, item: DieIn, rng: random.Random, out: Out) -> State:
    """A die the consequences ask for (:data:`_SUB_KIND`), applied by its step."""
    ep, ch = need_episode(state)
    want = _SUB_KIND.get(ep.sub)
    if want is None:
        raise refuse("input", f"aucun dé n'est attendu à cette étape ({ep.sub})", f"no die is expected at this step ({ep.sub})")
    kind, slot = want
    if (item.kind is not None and item.kind != kind) or (item.slot is not None and item.slot != slot):
        raise refuse("input", f"cette étape attend un {kind} ({slot}), pas {item.kind or item.slot}", f"this step waits for a {kind} ({slot}), not {item.kind or item.slot}")
    try:
        value = state.dice[kind].parse(item.value)
    except DiceError as exc:
        raise rewrap(exc) from None
    return _CONSEQUENCE[ep.sub](state, ep, ch, value, rng, out)
