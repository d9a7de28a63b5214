"""Wuxia events on the sheets: create, edit, remove; play counters (wounds, panic, Chi,
Destiny Dice). Pure handlers ``(state, data) -> (state, outcomes)`` used by :mod:`.game`."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..base import Outcome, text
from ..refusal import malformed, refuse
from .flow import destiny_on_test
from .sheet import Character, fold_name, secondary, sheet_from_data
from .state import WuxiaState
from .state import evolve as replace

__all__ = ["Handler", "SHEET_HANDLERS"]

Handler = Callable[[WuxiaState, Mapping[str, Any]], tuple[WuxiaState, list[Outcome]]]


#: The largest step of a counter (wounds, panic, Chi, Destiny Dice) one event may move: no
#: rule gives one; it keeps a typo such as 10**9 off the sheet.
MAX_STEP = 1000


def _int(v: Any, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise malformed(f"« {what} » doit être un nombre entier, pas {v!r}", f"{what} must be an integer, not {v!r}")
    if not -MAX_STEP <= v <= MAX_STEP:
        raise malformed(
            f"« {what} » doit être entre {-MAX_STEP} et {MAX_STEP}, pas {v}",
            f"{what} must be from {-MAX_STEP} to {MAX_STEP}, not {v}",
        )
    return v


def _char(state: WuxiaState, name: Any) -> Character:
    if not isinstance(name, str) or not name.strip():
        raise malformed("« who » doit nommer un personnage", "'who' must name a character")
    c = state.character(name)
    if c is None:
        known = ", ".join(x.name for x in state.characters) or "none yet"
        raise refuse(
            "R1",
            f"aucun personnage nommé {name!r} (connus : {known})",
            f"no character named {name!r} (known: {known})",
        )
    return c


def _put_char(state: WuxiaState, c: Character, old: str | None = None) -> WuxiaState:
    key = fold_name(old or c.name)
    chars = tuple(c if fold_name(x.name) == key else x for x in state.characters)
    return replace(state, characters=chars)


# -- sheets ------------------------------------------------------------------------
def _character_new(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    c = sheet_from_data(data, state.options)
    if state.character(c.name) is not None:
        raise refuse("R1", f"un personnage nommé {c.name} existe déjà", f"a character named {c.name} already exists")
    state = replace(state, characters=state.characters + (c,))
    sec = secondary(c, state.options)
    msg = text(f"Fiche créée : {c.name} (Chi {sec['chi']}, Seuil de Mort {sec['death_threshold']}).",
               f"Sheet created: {c.name} (Chi {sec['chi']}, death threshold {sec['death_threshold']}).")
    return state, [Outcome("character.new", msg, {"who": c.name, **sec})]


def _character_edit(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    old = _char(state, data.get("name"))
    c = sheet_from_data(data, state.options, base=old)
    if fold_name(c.name) != fold_name(old.name) and state.character(c.name) is not None:
        raise refuse("R1", f"un personnage nommé {c.name} existe déjà", f"a character named {c.name} already exists")
    if state.mode != "none" and any(t.who == old.name for t in state.tests) and c.name != old.name:
        raise refuse(
            "R1",
            "renommez un personnage entre deux actions, pas pendant son test",
            "rename a character between actions, not during their test",
        )
    if state.combat is not None and state.combat.fighter(old.name) and c.name != old.name:
        raise refuse("R12", "renommez un personnage hors d'un combat", "rename a character outside a fight")
    state = _put_char(state, c, old.name)
    return state, [Outcome("character.edit", text(f"Fiche modifiée : {c.name}.", f"Sheet edited: {c.name}."), {"who": c.name})]


def _character_remove(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    c = _char(state, data.get("name"))
    if any(t.who == c.name for t in state.tests) or (state.combat and state.combat.fighter(c.name)):
        raise refuse("R1", f"{c.name} est dans l'action en cours", f"{c.name} is in the current action")
    state = replace(state, characters=tuple(x for x in state.characters if x.name != c.name))
    return state, [Outcome("character.remove", text(f"Fiche retirée : {c.name}.", f"Sheet removed: {c.name}."), {"who": c.name})]


def _counter(field: str, fr: str, en: str) -> Handler:
    def handle(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
        c = _char(state, data.get("who"))
        amount = _int(data.get("amount"), "amount")
        before = secondary(c, state.options)
        value = getattr(c, field) + amount
        if value < 0:
            raise refuse(
                "R5",
                f"{c.name} : la valeur « {fr} » ne peut pas descendre sous 0",
                f"{c.name}'s {en} cannot go below 0",
            )
        if field == "chi_spent" and value > before["chi"]:
            raise refuse(
                "R5",
                f"il reste {before['chi_left']} Chi à {c.name}, pas {amount}",
                f"{c.name} has {before['chi_left']} Chi left, not {amount}",
            )
        nc = replace(c, **{field: value})
        after = secondary(nc, state.options)
        state = _put_char(state, nc)
        shown = after["chi_left"] if field == "chi_spent" else value
        outs = [Outcome(f"character.{field}", text(f"{c.name} : {fr} {shown}.", f"{c.name}: {en} {shown}."),
                        {"who": c.name, "value": shown})]
        if after["dead"] and not before["dead"]:
            outs.append(Outcome("character.dead", text(f"{c.name} atteint son Seuil de Mort ({after['death_threshold']}).",
                                                        f"{c.name} reaches the death threshold ({after['death_threshold']})."), {"who": c.name}))
        for key, fr2, en2 in (("wound_thresholds_reached", "seuil de blessure", "wound threshold"),
                              ("panic_thresholds_reached", "seuil de panique", "panic threshold")):
            for t in after[key]:
                if t not in before[key]:
                    outs.append(Outcome(f"character.{key[:-9]}", text(f"{c.name} franchit le {fr2} {t}.", f"{c.name} reaches {en2} {t}."),
                                        {"who": c.name, "threshold": t}))
        return state, outs

    return handle


def _destiny_award(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    c = _char(state, data.get("who"))
    n = _int(data.get("award", 1), "award")
    if c.destiny + n < 0:
        raise refuse(
            "R11",
            f"{c.name} n'a que {c.destiny} Dé(s) de Destinée",
            f"{c.name} has only {c.destiny} Destiny Dice",
        )
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise malformed("« reason » doit être un texte", "reason must be a text")
    nc = replace(c, destiny=c.destiny + n)
    state = _put_char(state, nc)
    msg = text(f"{c.name} reçoit {n} Dé(s) de Destinée (total {nc.destiny}). {reason}".strip(),
               f"{c.name} gets {n} Destiny Dice (total {nc.destiny}). {reason}".strip())
    return state, [Outcome("destiny.award", msg, {"who": c.name, "destiny": nc.destiny})]


def _destiny_spend(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    c = _char(state, data.get("who"))
    n = _int(data.get("count", 1), "count")
    if n < 1:
        raise malformed("« count » doit valoir au moins 1", "count must be at least 1")
    if n > c.destiny:
        raise refuse(
            "R11",
            f"{c.name} a {c.destiny} Dé(s) de Destinée, pas {n}",
            f"{c.name} has {c.destiny} Destiny Dice, not {n}",
        )
    effect = state.options["destiny_effect"]
    idx = next((i for i, t in enumerate(state.tests) if t.who == c.name and not t.closed), None)
    if effect != "record" and idx is None:
        raise refuse(
            "R11",
            f"{c.name} n'a pas de test en cours où dépenser des Dés de Destinée",
            f"{c.name} has no test in progress to spend Destiny Dice on",
        )
    state = _put_char(state, replace(c, destiny=c.destiny - n))
    if idx is not None:
        tests = list(state.tests)
        tests[idx] = destiny_on_test(tests[idx], n, state.options)
        state = replace(state, tests=tuple(tests))
    if effect == "extra_die":
        fr, en = f"+{n} d10 à lancer", f"+{n} d10 to roll"
    elif effect == "reroll":
        fr, en = f"{n} relance(s) de n'importe quel dé", f"{n} re-roll(s) of any die"
    else:
        fr, en = "effet décidé par le MJ (règle non précisée, W6)", "effect decided by the GM (rule not given, W6)"
    msg = text(f"{c.name} dépense {n} Dé(s) de Destinée : {fr}.", f"{c.name} spends {n} Destiny Dice: {en}.")
    return state, [Outcome("destiny.spend", msg, {"who": c.name, "count": n, "effect": effect, "destiny": c.destiny - n})]


SHEET_HANDLERS: dict[str, Handler] = {
    "character_new": _character_new,
    "character_edit": _character_edit,
    "character_remove": _character_remove,
    "wound": _counter("wounds", "blessures", "wounds"),
    "panic": _counter("panic", "panique", "panic"),
    "chi": _counter("chi_spent", "Chi restant", "Chi left"),
    "destiny": _destiny_award,
    "destiny_spend": _destiny_spend,
}
