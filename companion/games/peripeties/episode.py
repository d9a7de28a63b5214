"""An episode's dice (R5-R8), the player's choices and the trial roll (R10, R11).

``peripeties.dice`` feeds the current step: first the episode dice (three blue dice,
reward, sentence, difficulty, optional detail D6), then the trial die, then whatever
die the consequences ask for (tael D10, prison D4, re-rolled reward/sentence die). One
event may carry the dice of several steps; every die must be used, or the whole event
is refused.

Corrections: before the trial roll, an event with ``"source": "correction"`` replaces
the dice it names (with ``"replace": true``, it replaces every die of the episode).
Without it, a die entered twice with a different face is refused (so a stray camera
read never silently overwrites a die); the same face again is harmless.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...dice import DiceError
from ...errors import EventError, RuleError
from ...events import Event, Source
from .common import Out, refuse
from .consequences import consequence_die, resolve
from .dice_input import SYMBOL_SLOTS, DieIn, parse_dice_event
from .model import Character, Episode, MAX_BROTHERS, State, evolve
from .narration import narrate
from .trial import modifiers

__all__ = ["on_dice", "on_choose", "missing_dice", "reward_reroll_pending", "episode_narration"]

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


def _split(state: State, ep: Episode, items: list[DieIn]) -> tuple[list[DieIn], list[DieIn], list[DieIn]]:
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
            episode.append(it if it.slot else DieIn(it.kind, it.value, None if it.kind == "d6" else slot))
        elif slot == "trial" and ep.roll is None:
            trial.append(it)
        else:
            later.append(it)
    return episode, trial, later


_MISSING_WORDS = {
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


def _merge(state: State, items: list[DieIn], correction: bool, replace_all: bool, out: Out) -> State:
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
                f"la difficulté d'une épreuve de {_trial_fr(epreuve)} se lance avec {need}, pas des {diff_kind}",
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
    )
    state = evolve(state, episode=new_ep)
    missing = missing_dice(state, new_ep)
    new_ep = evolve(new_ep, sub="dice" if missing else "trial", story=None)
    if not missing:
        new_ep = evolve(new_ep, story=episode_narration(state, new_ep))
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
            (story.get("fr") or f"Épreuve de {_trial_fr(epreuve)}, difficulté {total}/{scale}.") + tag_fr,
            (story.get("en") or f"{_trial_en(epreuve)} trial, difficulty {total}/{scale}.") + tag_en,
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
        miss_fr = ", ".join(_MISSING_WORDS[m][0] for m in missing)
        miss_en = ", ".join(_MISSING_WORDS[m][1] for m in missing)
        out.add(
            "episode.dice",
            "Dés saisis" + (" (correction)" if correction else "") + f" ; il manque : {miss_fr}.",
            "Dice entered" + (" (correction)" if correction else "") + f"; missing: {miss_en}.",
            character=ch.id,
            missing=missing,
        )
    return state


def _trial_fr(t: str | None) -> str:
    return {"combat": "combat", "esprit": "esprit", "magie": "magie"}.get(t or "", "?")


def _trial_en(t: str | None) -> str:
    return {"combat": "Combat", "esprit": "Mind", "magie": "Magic"}.get(t or "", "?")


def _apply_choices(state: State, choices: Mapping[str, Any]) -> State:
    """Gourd and sworn brother, declared before the roll (R14, R17, D3, D7)."""
    ep = state.episode
    ch = state.current
    assert ep is not None and ch is not None
    o = state.options
    if ep.roll is not None and ep.sub != "gourd":
        raise refuse("D7", "le jet d'épreuve est fait : les choix se font avant", "the trial is already rolled: choices are made before the roll")
    gourds, brother = ep.gourds, ep.brother
    if "gourd" in choices:
        g = choices["gourd"]
        if isinstance(g, bool):
            g = int(g)
        if not isinstance(g, int) or g < 0:
            raise EventError("'gourd' is true/false or a number of gourds")
        if g:
            if ep.epreuve is None:
                raise refuse("R14", "la gourde ne sert qu'au combat : saisissez d'abord le dé d'épreuve", "the gourd only helps in a combat trial: enter the trial die first")
            if ep.epreuve != "combat":
                raise refuse("R14", "la gourde d'arak ne sert qu'aux épreuves de combat", "the gourd of arak only helps in a combat trial")
            if g > ch.gourds:
                raise refuse("R14", f"{ch.card.name} a {ch.gourds} jeton(s) gourde, pas {g}", f"{ch.card.name} has {ch.gourds} gourd token(s), not {g}")
            if g > o.gourds_per_trial:
                raise refuse("D7", f"{o.gourds_per_trial} gourde(s) au plus par épreuve à cette table", f"at most {o.gourds_per_trial} gourd(s) per trial at this table")
        gourds = g
    if "brother" in choices:
        b = choices["brother"]
        if b is not None:
            if o.brothers_per_trial < 1:
                raise refuse("D3", "à cette table, les frères jurés n'aident pas aux épreuves", "sworn brothers are not used in trials at this table")
            if not isinstance(b, str) or all(x.id != b for x in ch.brothers):
                names = ", ".join(x.id for x in ch.brothers) or "none"
                raise refuse("R17", f"{b!r} n'est pas un frère juré de {ch.card.name} (frères : {names})", f"{b!r} is not a sworn brother of {ch.card.name} (brothers: {names})")
        brother = b
    return evolve(state, episode=evolve(ep, gourds=gourds, brother=brother))


def _roll(state: State, item: DieIn, rng: random.Random, out: Out) -> State:
    ep = state.episode
    ch = state.current
    assert ep is not None and ch is not None
    if ep.sub != "trial":
        missing = missing_dice(state, ep)
        raise refuse("R10", "les dés de la péripétie ne sont pas complets (il manque : " + ", ".join(_MISSING_WORDS[m][0] for m in missing) + ")",
                     "the episode's dice are not complete (missing: " + ", ".join(_MISSING_WORDS[m][1] for m in missing) + "); roll the trial after them")
    die = f"d{ch.card.die}"
    if item.kind is not None and item.kind != die:
        star_fr = "astre céleste : il lance un D12" if die == "d12" else "astre terrestre : il lance un D10"
        star_en = "celestial star: it rolls a D12" if die == "d12" else "terrestrial star: it rolls a D10"
        raise refuse("R10", f"{ch.card.name} est un {star_fr} pour l'épreuve, pas un {item.kind}",
                     f"{ch.card.name} is a {star_en} for the trial, not a {item.kind}")
    try:
        value = int(state.dice[die].parse(item.value))
    except DiceError as exc:
        raise EventError(str(exc)) from None
    ep = evolve(ep, roll=value)
    state = evolve(state, episode=ep)
    o = state.options
    if o.gourd_timing == "after" and ep.epreuve == "combat" and ep.gourds == 0 and ch.gourds > 0 and o.gourds_per_trial > 0:
        from .odds import is_success

        mod = sum(m.value for m in modifiers(o, ch, ep, 0, ep.brother))
        diff = ep.difficulty_total or 0
        ok, natural = is_success(value, ch.card.die, mod, diff, o.naturals == "override")
        if not ok and natural is None:
            out.add(
                "trial.gourd_choice",
                f"Jet de {value} : boire la gourde (+5) changerait l'issue. Choisissez (D7).",
                f"Rolled {value}: drinking the gourd (+5) would change the outcome. Choose (D7).",
                roll=value,
            )
            return evolve(state, episode=evolve(ep, sub="gourd"))
    return resolve(state, rng, out)


def _check_character(state: State, data: Mapping[str, Any]) -> None:
    """An optional ``character`` in a dice event names whose episode it is for: a tablet
    that sent it for an episode already over is refused instead of feeding the next."""
    cid = data.get("character")
    if cid is None or state.current is None:
        return
    if cid != state.current.id:
        now = state.current.card.name
        raise refuse("input", f"ces dés étaient pour {cid}, mais c'est la péripétie de {now}",
                     f"these dice were for {cid}, but this is {now}'s episode")


def on_dice(state: State, event: Event, rng: random.Random, out: Out) -> State:
    ep = state.episode
    if ep is None or state.current is None:
        fr, en = ("mise en place", "setup") if state.phase == "setup" else ("phase de voyage", "the travel phase")
        raise refuse("R2", f"aucun dé n'est attendu maintenant ({fr}) : commencez le tour suivant",
                     f"no die is expected now ({en}): start the next turn with peripeties.next_turn")
    data = event.data
    _check_character(state, data)
    correction = event.source == Source.CORRECTION
    replace_all = data.get("replace", False)
    if not isinstance(replace_all, bool):
        raise EventError("'replace' must be true or false")
    if replace_all and not correction:
        raise EventError("'replace' is for corrections: send it with source 'correction'")
    items = parse_dice_event(data, state.dice)
    choices = {k: data[k] for k in ("gourd", "brother") if k in data}
    cid = ep.character
    episode_items, trial_items, later = _split(state, ep, items)
    if (correction or replace_all) and ep.roll is not None and (episode_items or replace_all):
        raise refuse("input", "le jet d'épreuve est fait : les dés ne se corrigent plus (utilisez Annuler)", "the trial is already rolled: the episode dice can no longer be corrected (use undo)")
    if episode_items or replace_all:
        state = _merge(state, episode_items, correction, replace_all, out)
    if choices:
        state = _apply_choices(state, choices)
    if len(trial_items) > 1:
        raise refuse("R10", "l'épreuve se joue sur un seul dé", "the trial is one die")
    if trial_items:
        state = _roll(state, trial_items[0], rng, out)
    for it in later:
        ep2 = state.episode
        if ep2 is None or ep2.character != cid:
            raise refuse("input", "plus de dés que la péripétie n'en demande : vérifiez les dés et renvoyez-les", "more dice than this episode needed: check the dice and send them again")
        state = consequence_die(state, it, rng, out)
    return state


def on_choose(state: State, event: Event, rng: random.Random, out: Out) -> State:
    """``peripeties.choose``: ``character`` (R2 order), ``gourd``/``brother`` (before the
    roll; ``gourd`` after it with gourd_timing=after), ``card`` (a drawn bandit card,
    brother_draw=table)."""
    from .consequences import choose_card
    from .flow import choose_next_character

    data = event.data
    unknown = set(data) - {"character", "gourd", "brother", "card"}
    if unknown or not data:
        raise EventError("peripeties.choose takes 'character', 'gourd', 'brother' or 'card'")
    ep = state.episode
    if ep is None:
        raise refuse("R2", "rien à choisir : aucune péripétie en cours", "nothing to choose now: no episode in progress")
    if "character" in data:
        return choose_next_character(state, data["character"], out)
    if "card" in data:
        return choose_card(state, data["card"], rng, out)
    if ep.sub == "gourd":
        if set(data) != {"gourd"}:
            raise EventError("after the roll only the gourd can be chosen")
        state = _apply_choices(state, data)
        return resolve(state, rng, out)
    if ep.sub not in ("dice", "trial"):
        raise refuse("D7", "le jet d'épreuve est fait : les choix se font avant", "the trial is already rolled: choices are made before the roll")
    state = _apply_choices(state, data)
    ep2 = state.episode
    ch = state.current
    assert ep2 is not None and ch is not None
    bname = next((b.name for b in ch.brothers if b.id == ep2.brother), None)
    out.add(
        "trial.choice",
        f"Choix : {ep2.gourds} gourde(s), " + (f"avec {bname}." if bname else "sans frère juré."),
        f"Choice: {ep2.gourds} gourd(s), " + (f"with {bname}." if bname else "no sworn brother."),
        gourd=ep2.gourds,
        brother=ep2.brother,
    )
    return state
