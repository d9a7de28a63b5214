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

from ..base import de
from ...dice import DiceError
from ..refusal import malformed, rewrap
from ...events import Event, Source
from .common import Out, need_episode, refuse
from .consequences import accepts, consequence_die, resolve
from .dice_input import DieIn, parse_dice_event
from .flow import choose_next_character
from .episode_dice import MISSING_WORDS, episode_narration, merge, missing_dice, reward_reroll_pending, split
from .odds import is_success
from .rewards import choose_card
from .state import Character, Episode, State, evolve
from .trial import modifiers

__all__ = ["on_dice", "on_choose", "missing_dice", "reward_reroll_pending", "episode_narration"]


def _gourd_choice(state: State, ep: Episode, ch: Character, g: Any) -> int:
    """R14/D7: how many gourds are drunk on this trial (``true`` is one)."""
    if isinstance(g, bool):
        g = int(g)
    if not isinstance(g, int) or g < 0:
        raise malformed("«\u202fgourd\u202f» vaut true ou false, ou un nombre de gourdes", "'gourd' is true/false or a number of gourds")
    if not g:
        return 0
    o = state.options
    if ep.epreuve is None:
        raise refuse("R14", "la gourde ne sert qu'au combat\u202f: saisissez d'abord le dé d'épreuve", "the gourd only helps in a combat trial: enter the trial die first")
    if ep.epreuve != "combat":
        raise refuse("R14", "la gourde d'arak ne sert qu'aux épreuves de combat", "the gourd of arak only helps in a combat trial")
    if g > ch.gourds:
        raise refuse("R14", f"{ch.card.name} a {ch.gourds} jeton(s) gourde, pas {g}", f"{ch.card.name} has {ch.gourds} gourd token(s), not {g}")
    if g > o.gourds_per_trial:
        raise refuse("D7", f"{o.gourds_per_trial} gourde(s) au plus par épreuve à cette table", f"at most {o.gourds_per_trial} gourd(s) per trial at this table")
    return g


def _brother_choice(state: State, ch: Character, b: Any) -> str | None:
    """R17/D3: the sworn brother whose value is used (``null``: none)."""
    if b is None:
        return None
    if state.options.brothers_per_trial < 1:
        raise refuse("D3", "à cette table, les frères jurés n'aident pas aux épreuves", "sworn brothers are not used in trials at this table")
    if not isinstance(b, str) or all(x.id != b for x in ch.brothers):
        names = ", ".join(x.id for x in ch.brothers) or "none"
        raise refuse("R17", f"{b!r} n'est pas un frère juré {de(ch.card.name)} (frères\u202f: {names})", f"{b!r} is not a sworn brother of {ch.card.name} (brothers: {names})")
    return b


def _apply_choices(state: State, choices: Mapping[str, Any]) -> State:
    """Gourd and sworn brother, declared before the roll (R14, R17, D3, D7)."""
    ep, ch = need_episode(state)
    if ep.roll is not None and ep.sub != "gourd":
        raise refuse("D7", "le jet d'épreuve est fait\u202f: les choix se font avant", "the trial is already rolled: choices are made before the roll")
    gourds = _gourd_choice(state, ep, ch, choices["gourd"]) if "gourd" in choices else ep.gourds
    brother = _brother_choice(state, ch, choices["brother"]) if "brother" in choices else ep.brother
    return evolve(state, episode=evolve(ep, gourds=gourds, brother=brother))


def _gourd_would_help(state: State, ep: Episode, ch: Character, value: int) -> bool:
    """D7 with gourd_timing=after: a combat roll that failed, not by a natural 1, could
    still be turned by drinking a gourd."""
    o = state.options
    if not (o.gourd_timing == "after" and ep.epreuve == "combat" and ep.gourds == 0 and ch.gourds > 0 and o.gourds_per_trial > 0):
        return False
    mod = sum(m.value for m in modifiers(o, ch, ep, 0, ep.brother))
    ok, natural = is_success(value, ch.card.die, mod, ep.difficulty_total or 0, o.naturals == "override")
    return not ok and natural is None


def _roll(state: State, item: DieIn, rng: random.Random, out: Out) -> State:
    """R10: the trial roll, on the die of the character's star; then the outcome."""
    ep, ch = need_episode(state)
    if ep.sub != "trial":
        missing = missing_dice(state, ep)
        raise refuse("R10", "les dés de la péripétie ne sont pas complets (il manque\u202f: " + ", ".join(MISSING_WORDS[m][0] for m in missing) + ")",
                     "the episode's dice are not complete (missing: " + ", ".join(MISSING_WORDS[m][1] for m in missing) + "); roll the trial after them")
    die = f"d{ch.card.die}"
    if item.kind is not None and item.kind != die:
        star_fr = "astre céleste : il lance un D12" if die == "d12" else "astre terrestre : il lance un D10"
        star_en = "celestial star: it rolls a D12" if die == "d12" else "terrestrial star: it rolls a D10"
        raise refuse("R10", f"{ch.card.name} est un {star_fr} pour l'épreuve, pas un {item.kind}",
                     f"{ch.card.name} is a {star_en} for the trial, not a {item.kind}")
    try:
        value = int(state.dice[die].parse(item.value))
    except DiceError as exc:
        raise rewrap(exc) from None
    ep = evolve(ep, roll=value)
    state = evolve(state, episode=ep)
    if _gourd_would_help(state, ep, ch, value):
        out.add(
            "trial.gourd_choice",
            f"Jet {de(value)} : boire la gourde (+5) changerait l'issue. Choisissez (D7).",
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
        raise refuse("input", f"ces dés étaient pour {cid}, mais c'est la péripétie {de(now)}",
                     f"these dice were for {cid}, but this is {now}'s episode")


def _episode_waiting(state: State) -> tuple[Episode, Character]:
    """R2: dice are expected only during an episode."""
    ep = state.episode
    ch = state.current
    if ep is None or ch is None:
        fr, en = ("mise en place", "setup") if state.phase == "setup" else ("phase de voyage", "the travel phase")
        raise refuse("R2", f"aucun dé n'est attendu maintenant ({fr})\u202f: commencez le tour suivant",
                     f"no die is expected now ({en}): start the next turn with peripeties.next_turn")
    return ep, ch


def _replace_all(ep: Episode, ch: Character, data: Mapping[str, Any], correction: bool) -> bool:
    """``"replace": true``: a correction of every die of the episode in progress."""
    replace_all = data.get("replace", False)
    if not isinstance(replace_all, bool):
        raise malformed("«\u202freplace\u202f» doit valoir true ou false", "'replace' must be true or false")
    if replace_all and not correction:
        raise malformed("«\u202freplace\u202f» sert aux corrections\u202f: envoyez-le avec la source «\u202fcorrection\u202f»",
                        "'replace' is for corrections: send it with source 'correction'")
    if replace_all and ep.sub == "dice" and not any((ep.lieu, ep.adversaire, ep.epreuve, ep.rewards, ep.sentences, ep.difficulty, ep.detail)):
        # A correction of a roll already resolved (the episode before this one) must name
        # it ("corrects": its number): it never becomes the dice of the next episode.
        name = ch.card.name
        raise refuse("input", f"aucun dé n'est encore saisi pour la péripétie {de(name)}\u202f: rien à"
                     " corriger ici\u202f; pour corriger un jet déjà joué, indiquez son numéro («\u202fcorrects\u202f»)",
                     f"no die is entered yet for {name}'s episode: nothing to correct here;"
                     " to correct a roll already played, give its number ('corrects')")
    return replace_all


def _consequence_dice(state: State, cid: str, later: list[DieIn], rng: random.Random, out: Out) -> State:
    """The dice after the roll, each fed to the step that waits for it (the keyed form
    has no order: ``{"taels": 7, "sentence": "voyage"}`` follows the R19 chain)."""
    while later:
        ep = state.episode
        if ep is None or ep.character != cid:
            raise refuse("input", "plus de dés que la péripétie n'en demande\u202f: vérifiez les dés et renvoyez-les", "more dice than this episode needed: check the dice and send them again")
        i = next((k for k, it in enumerate(later) if accepts(ep, it)), 0)
        state = consequence_die(state, later.pop(i), rng, out)
    return state


def on_dice(state: State, event: Event, rng: random.Random, out: Out) -> State:
    """``peripeties.dice``: the episode dice, the choices, the trial roll and the dice of
    the consequences, in that order; every die must be used."""
    ep, ch = _episode_waiting(state)
    data = event.data
    _check_character(state, data)
    correction = event.source == Source.CORRECTION
    replace_all = _replace_all(ep, ch, data, correction)
    items = parse_dice_event(data, state.dice)
    choices = {k: data[k] for k in ("gourd", "brother") if k in data}
    episode_items, trial_items, later = split(state, ep, items)
    if (correction or replace_all) and ep.roll is not None and (episode_items or replace_all):
        raise refuse("input", "le jet d'épreuve est fait\u202f: les dés ne se corrigent plus (utilisez Annuler)", "the trial is already rolled: the episode dice can no longer be corrected (use undo)")
    if episode_items or replace_all:
        state = merge(state, episode_items, correction, replace_all, out)
    if choices:
        state = _apply_choices(state, choices)
    if len(trial_items) > 1:
        raise refuse("R10", "l'épreuve se joue sur un seul dé", "the trial is one die")
    if trial_items:
        state = _roll(state, trial_items[0], rng, out)
    return _consequence_dice(state, ep.character, later, rng, out)


def on_choose(state: State, event: Event, rng: random.Random, out: Out) -> State:
    """``peripeties.choose``: ``character`` (R2 order), ``gourd``/``brother`` (before the
    roll; ``gourd`` after it with gourd_timing=after), ``card`` (a drawn bandit card,
    brother_draw=table)."""
    data = event.data
    unknown = set(data) - {"character", "gourd", "brother", "card"}
    if unknown or not data:
        raise malformed("peripeties.choose prend «\u202fcharacter\u202f», «\u202fgourd\u202f», «\u202fbrother\u202f» ou «\u202fcard\u202f»",
                        "peripeties.choose takes 'character', 'gourd', 'brother' or 'card'")
    ep = state.episode
    if ep is None:
        raise refuse("R2", "rien à choisir\u202f: aucune péripétie en cours", "nothing to choose now: no episode in progress")
    if "character" in data:
        return choose_next_character(state, data["character"], out)
    if "card" in data:
        return choose_card(state, data["card"], rng, out)
    if ep.sub == "gourd":
        if set(data) != {"gourd"}:
            raise malformed("après le jet, seule la gourde peut être choisie", "after the roll only the gourd can be chosen")
        state = _apply_choices(state, data)
        return resolve(state, rng, out)
    if ep.sub not in ("dice", "trial"):
        raise refuse("D7", "le jet d'épreuve est fait\u202f: les choix se font avant", "the trial is already rolled: choices are made before the roll")
    state = _apply_choices(state, data)
    ep2, ch = need_episode(state)
    bname = next((b.name for b in ch.brothers if b.id == ep2.brother), None)
    out.add(
        "trial.choice",
        f"Choix : {ep2.gourds} gourde(s), " + (f"avec {bname}." if bname else "sans frère juré."),
        f"Choice: {ep2.gourds} gourd(s), " + (f"with {bname}." if bname else "no sworn brother."),
        gourd=ep2.gourds,
        brother=ep2.brother,
    )
    return state
