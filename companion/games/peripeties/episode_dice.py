"""The episode dice (R5-R8): merging what each event brings, corrections, what is
still missing, and the suggested narration once they are complete (R9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import de
from ...dice import DiceError
from ...errors import EventError, RuleError
from .common import Out, refuse
from .dice_input import SYMBOL_SLOTS, DieIn, make_die
from .state import MAX_BROTHERS, Character, Episode, State, evolve
from .narration import narrate

__all__ = ["merge", "split", "missing_dice", "reward_reroll_pending", "episode_narration", "MISSING_WORDS", "trial_fr", "trial_en"]


_DETAIL_MAX = {"one": 1, "two": 2, "none": 0}

_SLOT_WORDS = {
    "lieu": ("le dé de lieu", "the location die"),
    "adversaire": ("le dé d'adversaire", "the adversary die"),
    "epreuve": ("le dé d'épreuve", "the trial die"),
    "recompense": ("le dé de récompense", "the reward die"),
    "sentence": ("le dé de sentence", "the sentence die"),
}


def reward_reroll_pending(state: State, ch: Character, rewards: tuple[str, ...], at_read: bool = True) -> bool:
    """R16/D16: a sworn-brother reward for a character who already has six must be
    re-rolled (when read, by default)."""
    if at_read and state.options.reward_reroll != "on_read":
        return False
    return bool(rewards) and rewards[-1] == "frere" and len(ch.brothers) >= MAX_BROTHERS


def missing_dice(state: State, ep: Episode) -> list[str]:
    """Roles still missing before the trial can be rolled."""
    ch = state.character(ep.character)
    miss = [s for s in ("lieu", "adversaire", "epreuve") if getattr(ep, s) is None]
    if not ep.rewards:
        miss.append("recompense")
    elif ch is not None and reward_reroll_pending(state, ch, ep.rewards):
        miss.append("recompense_reroll")
    if not ep.sentences:
        miss.append("sentence")
    if len(ep.difficulty) < 2:
        miss.append("difficulty")
    return miss


def episode_narration(state: State, ep: Episode) -> Mapping[str, Any] | None:
    if ep.story is not None:
        return ep.story
    if ep.lieu is None or ep.adversaire is None or ep.epreuve is None:
        return None
    ch = state.character(ep.character)
    return narrate(
        ep.name or (ch.card.name if ch else ep.character),
        ep.lieu,
        ep.adversaire,
        ep.epreuve,
        ep.difficulty_total,
        ep.reward,
        ep.sentence,
        ep.detail,
        state.options.detail_dice,
    )


def split(state: State, ep: Episode, items: list[DieIn]) -> tuple[list[DieIn], list[DieIn], list[DieIn]]:
    """(episode dice, trial die, later dice) of an event, by role or inferred."""
    pre_roll = ep.roll is None and ep.sub in ("dice", "trial")
    unroled_d10 = [i for i, it in enumerate(items) if it.slot is None and it.kind == "d10"]
    trial_d10: int | None = None
    if pre_roll and ep.sub == "trial":
        # Once the episode dice are complete, a lone D10 is the trial roll (refused with
        # R10 for a celestial star, who rolls a D12). A camera read of the whole tray
        # also shows the two difficulty dice: the D10 left over is the trial roll.
        if len(unroled_d10) == 1:
            trial_d10 = unroled_d10[0]
        elif ep.difficulty_kind == "d10" and len(unroled_d10) == len(ep.difficulty) + 1:
            left = list(ep.difficulty)
            extra = []
            for i in unroled_d10:
                if items[i].value in left:
                    left.remove(items[i].value)
                else:
                    extra.append(i)
            if not left and len(extra) == 1:
                trial_d10 = extra[0]
    episode, trial, later = [], [], []
    for i, it in enumerate(items):
        slot = it.slot
        if slot is None:
            if it.kind in SYMBOL_SLOTS:
                slot = it.kind if pre_roll else None
            elif it.kind == "d6":
                slot = "difficulty" if pre_roll else None
            elif it.kind == "d12":
                slot = "trial"
            elif it.kind == "d10" and pre_roll:
                slot = "trial" if i == trial_d10 else "difficulty"
        if pre_roll and slot in (*SYMBOL_SLOTS, "difficulty", "detail"):
            episode.append(it if it.slot else make_die(it.kind, it.value, None if it.kind == "d6" else slot))
        elif slot == "trial" and ep.roll is None:
            trial.append(it)
        else:
            later.append(it)
    if trial and ep.sub == "trial":
        # With the trial roll in the same event, a reward/sentence die that differs from
        # the one entered is a re-roll of the consequences (R16, R19), not a conflict.
        entered = {"recompense": ep.reward, "sentence": ep.sentence}
        moved = [it for it in episode if it.kind in entered and it.value != entered[it.kind]]
        if moved:
            episode = [it for it in episode if it not in moved]
            later = moved + later
    return episode, trial, later


MISSING_WORDS = {
    "lieu": ("lieu", "location"),
    "adversaire": ("adversaire", "adversary"),
    "epreuve": ("épreuve", "trial"),
    "recompense": ("récompense", "reward"),
    "recompense_reroll": ("relance de la récompense", "reward re-roll"),
    "sentence": ("sentence", "sentence"),
    "difficulty": ("difficulté", "difficulty"),
}


def _conflict(word: tuple[str, str], old: Any, new: Any) -> RuleError:
    return refuse(
        "input",
        f"{word[0]} est déjà saisi ({old}) ; pour le changer en {new}, faites une correction",
        f"{word[1]} is already entered ({old}); to change it to {new}, send a correction (source 'correction')",
    )


def merge(state: State, items: list[DieIn], correction: bool, replace_all: bool, out: Out) -> State:
    ep = state.episode
    ch = state.current
    assert ep is not None and ch is not None
    o = state.options
    if replace_all:
        ep = Episode(character=ep.character, turn=ep.turn, name=ep.name, gourds=ep.gourds, brother=ep.brother)
    vals: dict[str, Any] = {"lieu": ep.lieu, "adversaire": ep.adversaire, "epreuve": ep.epreuve}
    rewards, sentences = ep.rewards, ep.sentences
    for it in items:
        if it.kind not in SYMBOL_SLOTS:
            continue
        slot, v = it.kind, it.value
        if slot == "recompense":
            if correction:
                rewards = (v,)
            elif not rewards:
                rewards = (v,)
            elif reward_reroll_pending(state, ch, rewards):
                rewards = rewards + (v,)
                out.add(
                    "reward.reroll",
                    f"Dé de récompense relancé (six frères jurés déjà) : {state.dice['recompense'].face(v).fr}.",
                    f"Reward die re-rolled (six sworn brothers already): {state.dice['recompense'].face(v).en}.",
                    value=v,
                    rule="R16",
                )
            elif rewards[-1] != v:
                raise _conflict(_SLOT_WORDS[slot], rewards[-1], v)
        elif slot == "sentence":
            if correction or not sentences:
                sentences = (v,)
            elif sentences[0] != v:
                raise _conflict(_SLOT_WORDS[slot], sentences[0], v)
        else:
            old = vals[slot]
            if old is not None and old != v and not correction:
                raise _conflict(_SLOT_WORDS[slot], old, v)
            vals[slot] = v
    epreuve = vals["epreuve"]
    expected = None if epreuve is None else ("d6" if epreuve == "magie" else "d10")
    new_diff: list[tuple[str, int]] = []
    new_detail: list[int] = []
    have_diff = 0 if correction else len(ep.difficulty)
    try:
        for it in items:
            if it.kind in SYMBOL_SLOTS:
                continue
            role = it.slot
            if role is None:  # an unroled d6
                role = "difficulty" if epreuve == "magie" and have_diff + len(new_diff) < 2 else "detail"
            if role == "difficulty":
                dkind = it.kind or expected
                if dkind is None:
                    raise EventError("give the trial die (epreuve) before or with the difficulty, or the difficulty dice's kind")
                if dkind not in ("d10", "d6"):
                    raise refuse("R6", f"la difficulté se lance avec 2D10 (combat, esprit) ou 2D6 (magie), pas un {dkind}",
                                 f"the difficulty is rolled with 2D10 (combat, mind) or 2D6 (magic), not a {dkind}")
                new_diff.append((dkind, int(state.dice[dkind].parse(it.value))))
            elif role == "detail":
                if it.kind not in (None, "d6"):
                    raise refuse("R8", f"le dé de détail est un D6, pas un {it.kind}", f"the detail die is a D6, not a {it.kind}")
                new_detail.append(int(state.dice["d6"].parse(it.value)))
    except DiceError as exc:
        raise EventError(str(exc)) from None
    diff, diff_kind = ep.difficulty, ep.difficulty_kind
    if new_diff and not correction and len(diff) == 2 and {k for k, _ in new_diff} == {diff_kind} \
            and sorted(v for _, v in new_diff) == sorted(diff):
        new_diff = []  # the same two dice read again (still in the tray): harmless
    if new_diff:
        kinds = {k for k, _ in new_diff}
        if len(kinds) > 1:
            raise refuse("R6", "les deux dés de difficulté sont de même sorte : 2D10 ou 2D6", "the two difficulty dice are of one kind: 2D10 or 2D6")
        kind = kinds.pop()
        base = () if correction else diff
        if base and diff_kind != kind:
            raise refuse("R6", f"la difficulté a déjà des dés {diff_kind} ; faites une correction pour les changer",
                         f"the difficulty already has {diff_kind} dice; send a correction to change them")
        diff = base + tuple(v for _, v in new_diff)
        diff_kind = kind
        if len(diff) > 2:
            if correction:
                raise refuse("R6", "la difficulté, c'est deux dés, pas plus", "the difficulty is two dice, not more")
            shown = " + ".join(map(str, base))
            raise refuse(
                "input",
                f"la difficulté est déjà saisie ({shown}) ; faites une correction pour la changer",
                f"the difficulty is already entered ({shown}); send a correction to change it",
            )
    if expected is not None and diff_kind is not None and diff_kind != expected:
        if new_diff:
            word = "magic" if epreuve == "magie" else ("combat" if epreuve == "combat" else "mind")
            need = "2D6 (2-12)" if expected == "d6" else "2D10 (2-20)"
            raise refuse(
                "R6",
                f"la difficulté d'une épreuve {de(trial_fr(epreuve))} se lance avec {need}, pas des {diff_kind}",
                f"a {word} trial's difficulty is rolled with {need}, not {diff_kind}s",
            )
        out.add(
            "difficulty.reroll",
            "L'épreuve a changé : relancez la difficulté avec " + ("2D6." if expected == "d6" else "2D10."),
            "The trial changed: roll the difficulty again with " + ("2D6." if expected == "d6" else "2D10."),
            rule="R6",
        )
        diff, diff_kind = (), None
    detail = ep.detail
    if new_detail and not correction and tuple(new_detail) == detail:
        new_detail = []  # read again: harmless
    if new_detail:
        n = _DETAIL_MAX[o.detail_dice]
        if n == 0:
            raise refuse("D14", "cette table joue sans D6 de détail", "this table plays without the detail D6 (option detail_dice)")
        detail = (() if correction else detail) + tuple(new_detail)
        if len(detail) > n:
            raise refuse("D14", f"{n} D6 de détail à cette table ; faites une correction pour le changer", f"{n} detail D6 at this table; send a correction to change it")
    gourds = ep.gourds if epreuve == "combat" else 0
    new_ep = evolve(
        ep,
        lieu=vals["lieu"],
        adversaire=vals["adversaire"],
        epreuve=epreuve,
        rewards=rewards,
        sentences=sentences,
        difficulty=diff,
        difficulty_kind=diff_kind,
        detail=detail,
        gourds=gourds,
        corrected=ep.corrected or correction,
        story=None,
    )
    missing = missing_dice(state, new_ep)
    if missing:
        new_ep = evolve(new_ep, sub="dice")
    else:
        new_ep = evolve(new_ep, sub="trial", story=episode_narration(state, new_ep))
    state = evolve(state, episode=new_ep)
    if "recompense_reroll" in missing and not (ep.rewards == rewards):
        out.add(
            "reward.reroll_needed",
            f"{ch.card.name} a déjà six frères jurés : relancez le dé de récompense (R16).",
            f"{ch.card.name} already has six sworn brothers: re-roll the reward die (R16).",
            rule="R16",
        )
    if not missing:
        story = new_ep.story or {}
        total = new_ep.difficulty_total
        scale = 12 if epreuve == "magie" else 20
        tag_fr = " (corrigé)" if correction else ""
        tag_en = " (corrected)" if correction else ""
        out.add(
            "episode.ready",
            (story.get("fr") or f"Épreuve {de(trial_fr(epreuve))}, difficulté {total}/{scale}.") + tag_fr,
            (story.get("en") or f"{trial_en(epreuve)} trial, difficulty {total}/{scale}.") + tag_en,
            character=ch.id,
            lieu=new_ep.lieu,
            adversaire=new_ep.adversaire,
            epreuve=epreuve,
            difficulty=total,
            scale=scale,
            recompense=new_ep.reward,
            sentence=new_ep.sentence,
            narration={"fr": story.get("fr", ""), "en": story.get("en", "")},
            corrected=correction,
        )
    else:
        miss_fr = ", ".join(MISSING_WORDS[m][0] for m in missing)
        miss_en = ", ".join(MISSING_WORDS[m][1] for m in missing)
        out.add(
            "episode.dice",
            "Dés saisis" + (" (correction)" if correction else "") + f" ; il manque : {miss_fr}.",
            "Dice entered" + (" (correction)" if correction else "") + f"; missing: {miss_en}.",
            character=ch.id,
            missing=missing,
        )
    return state


def trial_fr(t: str | None) -> str:
    return {"combat": "combat", "esprit": "esprit", "magie": "magie"}.get(t or "", "?")


def trial_en(t: str | None) -> str:
    return {"combat": "Combat", "esprit": "Mind", "magie": "Magic"}.get(t or "", "?")
