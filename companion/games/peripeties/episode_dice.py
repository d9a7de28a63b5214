"""The episode dice (R5-R8): merging what each event brings, corrections, what is
still missing, and the suggested narration once they are complete (R9)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import de
from ...dice import DiceError
from ...errors import RuleError
from ..refusal import malformed, rewrap
from .common import Out, need_episode, refuse
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


def _left_over_d10(ep: Episode, items: list[DieIn], unroled_d10: list[int]) -> int | None:
    """A camera read of the whole tray shows the two difficulty D10s again: the index of
    the one D10 that is not among them (the trial roll), or None."""
    left = list(ep.difficulty)
    extra = []
    for i in unroled_d10:
        if items[i].value in left:
            left.remove(items[i].value)
        else:
            extra.append(i)
    return extra[0] if not left and len(extra) == 1 else None


def _trial_d10(ep: Episode, items: list[DieIn]) -> int | None:
    """Once the episode dice are complete, which unroled D10 is the trial roll (refused
    with R10 later for a celestial star, who rolls a D12)."""
    unroled_d10 = [i for i, it in enumerate(items) if it.slot is None and it.kind == "d10"]
    if len(unroled_d10) == 1:
        return unroled_d10[0]
    if ep.difficulty_kind == "d10" and len(unroled_d10) == len(ep.difficulty) + 1:
        return _left_over_d10(ep, items, unroled_d10)
    return None


def _inferred_slot(kind: str | None, pre_roll: bool, is_trial_d10: bool) -> str | None:
    """The role of a die sent without one, from its kind and the step."""
    if kind in SYMBOL_SLOTS:
        return kind if pre_roll else None
    if kind == "d6":
        return "difficulty" if pre_roll else None
    if kind == "d12":
        return "trial"
    if kind == "d10" and pre_roll:
        return "trial" if is_trial_d10 else "difficulty"
    return None


_EPISODE_SLOTS = frozenset({*SYMBOL_SLOTS, "difficulty", "detail"})


def _rerolls_beside_trial(ep: Episode, episode: list[DieIn], later: list[DieIn]) -> tuple[list[DieIn], list[DieIn]]:
    """With the trial roll in the same event, a reward/sentence die that differs from the
    one entered is a re-roll of the consequences (R16, R19), not a conflict."""
    entered = {"recompense": ep.reward, "sentence": ep.sentence}
    moved = [it for it in episode if it.kind in entered and it.value != entered[it.kind]]
    if not moved:
        return episode, later
    return [it for it in episode if it not in moved], moved + later


def split(state: State, ep: Episode, items: list[DieIn]) -> tuple[list[DieIn], list[DieIn], list[DieIn]]:
    """(episode dice, trial die, later dice) of an event, by role or inferred."""
    pre_roll = ep.roll is None and ep.sub in ("dice", "trial")
    trial_d10 = _trial_d10(ep, items) if pre_roll and ep.sub == "trial" else None
    episode: list[DieIn] = []
    trial: list[DieIn] = []
    later: list[DieIn] = []
    for i, it in enumerate(items):
        slot = it.slot if it.slot is not None else _inferred_slot(it.kind, pre_roll, i == trial_d10)
        if pre_roll and slot in _EPISODE_SLOTS:
            episode.append(it if it.slot else make_die(it.kind, it.value, None if it.kind == "d6" else slot))
        elif slot == "trial" and ep.roll is None:
            trial.append(it)
        else:
            later.append(it)
    if trial and ep.sub == "trial":
        episode, later = _rerolls_beside_trial(ep, episode, later)
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
        f"{word[0]} est déjà saisi ({old})\u202f; pour le changer en {new}, faites une correction",
        f"{word[1]} is already entered ({old}); to change it to {new}, send a correction (source 'correction')",
    )


@dataclass
class _Symbols:
    """The symbol dice of the episode while an event is merged into them."""

    blue: dict[str, Any]  # lieu, adversaire, epreuve
    rewards: tuple[str, ...]
    sentences: tuple[str, ...]


def _merge_reward(state: State, ch: Character, acc: _Symbols, v: str, correction: bool, out: Out) -> None:
    """The reward die: a correction replaces it; with six sworn brothers a new face is its
    re-roll (R16); otherwise the same face again is harmless, another one a conflict."""
    rewards = acc.rewards
    if correction or not rewards:
        acc.rewards = (v,)
    elif reward_reroll_pending(state, ch, rewards):
        acc.rewards = rewards + (v,)
        face = state.dice["recompense"].face(v)
        out.add(
            "reward.reroll",
            f"Dé de récompense relancé (six frères jurés déjà) : {face.fr}.",
            f"Reward die re-rolled (six sworn brothers already): {face.en}.",
            value=v,
            rule="R16",
        )
    elif rewards[-1] != v:
        raise _conflict(_SLOT_WORDS["recompense"], rewards[-1], v)


def _merge_sentence(state: State, ch: Character, acc: _Symbols, v: str, correction: bool, out: Out) -> None:
    """The sentence die (its re-rolls come after the roll, R19)."""
    if correction or not acc.sentences:
        acc.sentences = (v,)
    elif acc.sentences[0] != v:
        raise _conflict(_SLOT_WORDS["sentence"], acc.sentences[0], v)


def _merge_blue(slot: str, acc: _Symbols, v: str, correction: bool) -> None:
    """A blue die (R5): entered once; another face needs a correction."""
    old = acc.blue[slot]
    if old is not None and old != v and not correction:
        raise _conflict(_SLOT_WORDS[slot], old, v)
    acc.blue[slot] = v


_MERGE_SYMBOL = {"recompense": _merge_reward, "sentence": _merge_sentence}


def _merge_symbols(state: State, ch: Character, ep: Episode, items: list[DieIn], correction: bool, out: Out) -> _Symbols:
    acc = _Symbols({"lieu": ep.lieu, "adversaire": ep.adversaire, "epreuve": ep.epreuve}, ep.rewards, ep.sentences)
    for it in items:
        if it.kind not in SYMBOL_SLOTS:
            continue
        merge_one = _MERGE_SYMBOL.get(it.kind)
        if merge_one is not None:
            merge_one(state, ch, acc, it.value, correction, out)
        else:
            _merge_blue(it.kind, acc, it.value, correction)
    return acc


def _difficulty_kind(epreuve: str | None) -> str | None:
    """R6: the kind of the difficulty dice a trial calls for (None while unknown).

    >>> _difficulty_kind("magie"), _difficulty_kind("combat"), _difficulty_kind(None)
    ('d6', 'd10', None)
    """
    return None if epreuve is None else ("d6" if epreuve == "magie" else "d10")


def _difficulty_die(state: State, it: DieIn, expected: str | None) -> tuple[str, int]:
    """One difficulty die (R6): its kind (given, or the one the trial calls for) and face."""
    dkind = it.kind or expected
    if dkind is None:
        raise malformed("donnez le dé d'épreuve (epreuve) avant la difficulté ou avec elle, ou la sorte des dés de difficulté",
                        "give the trial die (epreuve) before or with the difficulty, or the difficulty dice's kind")
    if dkind not in ("d10", "d6"):
        raise refuse("R6", f"la difficulté se lance avec 2D10 (combat, esprit) ou 2D6 (magie), pas un {dkind}",
                     f"the difficulty is rolled with 2D10 (combat, mind) or 2D6 (magic), not a {dkind}")
    return dkind, int(state.dice[dkind].parse(it.value))


def _detail_die(state: State, it: DieIn) -> int:
    """One detail die (R8): a D6."""
    if it.kind not in (None, "d6"):
        raise refuse("R8", f"le dé de détail est un D6, pas un {it.kind}", f"the detail die is a D6, not a {it.kind}")
    return int(state.dice["d6"].parse(it.value))


def _numeric_dice(state: State, items: list[DieIn], epreuve: str | None, have_diff: int) -> tuple[list[tuple[str, int]], list[int]]:
    """The difficulty dice (kind, face) and the detail dice of an event. An unroled D6 is
    difficulty while a magic trial still lacks its two dice, else detail."""
    expected = _difficulty_kind(epreuve)
    new_diff: list[tuple[str, int]] = []
    new_detail: list[int] = []
    try:
        for it in items:
            if it.kind in SYMBOL_SLOTS:
                continue
            role = it.slot
            if role is None:  # an unroled d6
                role = "difficulty" if epreuve == "magie" and have_diff + len(new_diff) < 2 else "detail"
            if role == "difficulty":
                new_diff.append(_difficulty_die(state, it, expected))
            elif role == "detail":
                new_detail.append(_detail_die(state, it))
    except DiceError as exc:
        raise rewrap(exc) from None
    return new_diff, new_detail


def _read_again(ep: Episode, new_diff: list[tuple[str, int]]) -> bool:
    """The same two difficulty dice read again (still in the tray): harmless."""
    diff = ep.difficulty
    return len(diff) == 2 and {k for k, _ in new_diff} == {ep.difficulty_kind} and sorted(v for _, v in new_diff) == sorted(diff)


def _merge_difficulty(ep: Episode, new_diff: list[tuple[str, int]], correction: bool) -> tuple[tuple[int, ...], str | None]:
    """R6: the difficulty dice after the event: two dice of one kind at most."""
    diff, diff_kind = ep.difficulty, ep.difficulty_kind
    if not new_diff:
        return diff, diff_kind
    kinds = {k for k, _ in new_diff}
    if len(kinds) > 1:
        raise refuse("R6", "les deux dés de difficulté sont de même sorte\u202f: 2D10 ou 2D6", "the two difficulty dice are of one kind: 2D10 or 2D6")
    kind = kinds.pop()
    base = () if correction else diff
    if base and diff_kind != kind:
        raise refuse("R6", f"la difficulté a déjà des dés {diff_kind}\u202f; faites une correction pour les changer",
                     f"the difficulty already has {diff_kind} dice; send a correction to change them")
    diff = base + tuple(v for _, v in new_diff)
    if len(diff) > 2:
        if correction:
            raise refuse("R6", "la difficulté, c'est deux dés, pas plus", "the difficulty is two dice, not more")
        shown = " + ".join(map(str, base))
        raise refuse(
            "input",
            f"la difficulté est déjà saisie ({shown})\u202f; faites une correction pour la changer",
            f"the difficulty is already entered ({shown}); send a correction to change it",
        )
    return diff, kind


def _fit_trial(epreuve: str | None, diff: tuple[int, ...], diff_kind: str | None, entered: bool,
               out: Out) -> tuple[tuple[int, ...], str | None]:
    """R6: difficulty dice of the wrong kind for the trial are refused when entered now;
    when the trial die changed under them, they are dropped and rolled again."""
    expected = _difficulty_kind(epreuve)
    if expected is None or diff_kind is None or diff_kind == expected:
        return diff, diff_kind
    need = "2D6." if expected == "d6" else "2D10."
    if entered:
        word = {"magie": "magic", "combat": "combat"}.get(epreuve or "", "mind")
        dice = "2D6 (2-12)" if expected == "d6" else "2D10 (2-20)"
        raise refuse(
            "R6",
            f"la difficulté d'une épreuve {de(trial_fr(epreuve))} se lance avec {dice}, pas des {diff_kind}",
            f"a {word} trial's difficulty is rolled with {dice}, not {diff_kind}s",
        )
    out.add(
        "difficulty.reroll",
        "L'épreuve a changé : relancez la difficulté avec " + need,
        "The trial changed: roll the difficulty again with " + need,
        rule="R6",
    )
    return (), None


def _merge_detail(state: State, ep: Episode, new_detail: list[int], correction: bool) -> tuple[int, ...]:
    """D14: the detail D6s after the event (as many as the table plays with)."""
    detail = ep.detail
    if not new_detail or (not correction and tuple(new_detail) == detail):
        return detail  # none, or read again: harmless
    n = _DETAIL_MAX[state.options.detail_dice]
    if n == 0:
        raise refuse("D14", "cette table joue sans D6 de détail", "this table plays without the detail D6 (option detail_dice)")
    detail = (() if correction else detail) + tuple(new_detail)
    if len(detail) > n:
        raise refuse("D14", f"{n} D6 de détail à cette table\u202f; faites une correction pour le changer", f"{n} detail D6 at this table; send a correction to change it")
    return detail


def _announce_ready(ch: Character, ep: Episode, correction: bool, out: Out) -> None:
    """The episode dice are complete (R9): the narration, or the trial and difficulty."""
    story = ep.story or {}
    epreuve = ep.epreuve
    total = ep.difficulty_total
    scale = 12 if epreuve == "magie" else 20
    tag_fr = " (corrigé)" if correction else ""
    tag_en = " (corrected)" if correction else ""
    out.add(
        "episode.ready",
        (story.get("fr") or f"Épreuve {de(trial_fr(epreuve))}, difficulté {total}/{scale}.") + tag_fr,
        (story.get("en") or f"{trial_en(epreuve)} trial, difficulty {total}/{scale}.") + tag_en,
        character=ch.id,
        lieu=ep.lieu,
        adversaire=ep.adversaire,
        epreuve=epreuve,
        difficulty=total,
        scale=scale,
        recompense=ep.reward,
        sentence=ep.sentence,
        narration={"fr": story.get("fr", ""), "en": story.get("en", "")},
        corrected=correction,
    )


def _announce_missing(ch: Character, missing: list[str], correction: bool, out: Out) -> None:
    miss_fr = ", ".join(MISSING_WORDS[m][0] for m in missing)
    miss_en = ", ".join(MISSING_WORDS[m][1] for m in missing)
    tag = " (correction)" if correction else ""
    out.add(
        "episode.dice",
        f"Dés saisis{tag} ; il manque : {miss_fr}.",
        f"Dice entered{tag}; missing: {miss_en}.",
        character=ch.id,
        missing=missing,
    )


def merge(state: State, items: list[DieIn], correction: bool, replace_all: bool, out: Out) -> State:
    """The episode dice of one event merged into the episode (R5-R8): symbols, then the
    difficulty and the detail dice; then what is still missing, or the narration (R9)."""
    ep, ch = need_episode(state)
    if replace_all:
        ep = Episode(character=ep.character, turn=ep.turn, name=ep.name, gourds=ep.gourds, brother=ep.brother)
    sym = _merge_symbols(state, ch, ep, items, correction, out)
    epreuve = sym.blue["epreuve"]
    new_diff, new_detail = _numeric_dice(state, items, epreuve, 0 if correction else len(ep.difficulty))
    if new_diff and not correction and _read_again(ep, new_diff):
        new_diff = []
    diff, diff_kind = _merge_difficulty(ep, new_diff, correction)
    diff, diff_kind = _fit_trial(epreuve, diff, diff_kind, bool(new_diff), out)
    detail = _merge_detail(state, ep, new_detail, correction)
    new_ep = evolve(
        ep,
        lieu=sym.blue["lieu"],
        adversaire=sym.blue["adversaire"],
        epreuve=epreuve,
        rewards=sym.rewards,
        sentences=sym.sentences,
        difficulty=diff,
        difficulty_kind=diff_kind,
        detail=detail,
        gourds=ep.gourds if epreuve == "combat" else 0,
        corrected=ep.corrected or correction,
        story=None,
    )
    missing = missing_dice(state, new_ep)
    if missing:
        new_ep = evolve(new_ep, sub="dice")
    else:
        new_ep = evolve(new_ep, sub="trial", story=episode_narration(state, new_ep))
    state = evolve(state, episode=new_ep)
    if "recompense_reroll" in missing and ep.rewards != sym.rewards:
        out.add(
            "reward.reroll_needed",
            f"{ch.card.name} a déjà six frères jurés : relancez le dé de récompense (R16).",
            f"{ch.card.name} already has six sworn brothers: re-roll the reward die (R16).",
            rule="R16",
        )
    if missing:
        _announce_missing(ch, missing, correction, out)
    else:
        _announce_ready(ch, new_ep, correction, out)
    return state


def trial_fr(t: str | None) -> str:
    """The trial's word in French (``"?"`` while unknown).

    >>> trial_fr("esprit"), trial_fr(None)
    ('esprit', '?')
    """
    return {"combat": "combat", "esprit": "esprit", "magie": "magie"}.get(t or "", "?")


def trial_en(t: str | None) -> str:
    """The trial's word in English, capitalised (``"?"`` while unknown).

    >>> trial_en("esprit"), trial_en("magie")
    ('Mind', 'Magic')
    """
    return {"combat": "Combat", "esprit": "Mind", "magie": "Magic"}.get(t or "", "?")
