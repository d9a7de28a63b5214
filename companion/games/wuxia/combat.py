"""Combat (R12-R15): initiative, Defence Dice, group reserve, attacks, damage.

The round (R12, R13): every fighter tests Métal against SR 10 - their combat skill
(``combat_sr``). A would-be critical failure only yields 0 successes (W10; with
``initiative_can_crit`` it is also announced as a critical failure for the GM). Each
fighter then shares their successes between +1 Initiative (``initiative_per_success``),
extra actions (one each) and Defence Dice; all successes must be placed. Fighters act in
decreasing Initiative = Métal + bought Initiative; ties keep the listed order.

An attack (R14) is an opposed test: attacker Feu (+ any group reserve dice added), and
defender Terre (minus an Estourbir malus), each against SR 10 - own martial skill.
Once both pools are in (re-rolls allowed until then), the defender may spend Defence
Dice and group reserve dice, each cancelling one attacker success. The attacker wins iff
their remaining successes beat the defender's (W11; a critical failure cannot win, W7);
the extra successes (difference, or difference - 1 with ``attack_extra``) are invested
in Defence Dice, group reserve dice, manoeuvres (``manoeuvre_cost`` each; Estourbir
-``stun_terre`` Terre per success next round, Intimidation +``intimidation_panic``
Panic, Critique +``critical_damage`` damage, Attaque précise recorded) or the weapon's
soul (recorded). Damage (R15, W12): ND - AR, at least 0, once per won attack, added to
the defender's wound level; death at the death threshold (W9).

Group reserve (W13): one die per success invested, for the attacker's side; a die may
later be added to an attack pool or spent like a Defence Die, by another character of
the side (``group_reserve_self_use`` lifts that).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Outcome, text
from ..refusal import broken, french_name, malformed, refuse
from .flow import make_test, result_of, settled
from .sheet import Character, fold_name, secondary
from .state import Attack, Combat, Fighter, PoolTest, WuxiaState
from .state import evolve as replace

__all__ = ["start_combat", "allocate_initiative", "start_attack", "defend", "invest", "spend_action",
           "next_round", "after_dice", "combat_json", "MANOEUVRES"]

MANOEUVRES = {
    "attaque_precise": {"fr": "Attaque précise", "en": "Precise attack"},
    "estourbir": {"fr": "Estourbir", "en": "Stun"},
    "critique": {"fr": "Critique", "en": "Critical"},
    "intimidation": {"fr": "Intimidation", "en": "Intimidation"},
}


#: The largest combat value an event may give (weapon ND, armour, successes shared or
#: invested, dice): no rule gives one beyond a pool's 60 dice; it keeps 10**9 out.
MAX_VALUE = 60
#: French names of the fields named in the refusals.
_FR_NAMES = ((r"weapon nd", "ND de l'arme"), (r"successes in (.+)", r"succès en \1"))


def _int(v: Any, what: str, lo: int = 0, hi: int = MAX_VALUE) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise malformed(
            f"« {french_name(what, _FR_NAMES)} » doit être un nombre entier de {lo} à {hi}, pas {v!r}",
            f"{what} must be a whole number from {lo} to {hi}, not {v!r}",
        )
    return v


def _need_char(state: WuxiaState, name: Any) -> Character:
    if not isinstance(name, str):
        raise malformed("il faut le nom d'un personnage", "a character's name is needed")
    c = state.character(name)
    if c is None:
        raise refuse(
            "R1",
            f"aucun personnage nommé {name!r} : créez d'abord sa fiche",
            f"no character named {name!r}: create the sheet first",
        )
    return c


def _need_combat(state: WuxiaState, phase: str | None = None) -> Combat:
    if state.combat is None:
        raise refuse(
            "R12",
            "aucun combat en cours : commencez-en un avec wuxia.combat_start",
            "no fight in progress: start one with wuxia.combat_start",
        )
    if phase is not None and state.combat.phase != phase:
        raise refuse(
            "R13",
            f"le round en est à l'étape « {state.combat.phase} », pas « {phase} »",
            f"the round is at the '{state.combat.phase}' step, not '{phase}'",
        )
    return state.combat


def _fighter(combat: Combat, name: Any) -> Fighter:
    if not isinstance(name, str):
        raise malformed("il faut le nom d'un combattant", "a fighter's name is needed")
    f = combat.fighter(name)
    if f is None:
        raise refuse("R12", f"{name} n'est pas dans ce combat", f"{name} is not in this fight")
    return f


def _set_fighter(combat: Combat, f: Fighter) -> Combat:
    return replace(combat, fighters=tuple(f if x.name == f.name else x for x in combat.fighters))


def _alive(state: WuxiaState, name: str) -> bool:
    c = state.character(name)
    return c is not None and not secondary(c, state.options)["dead"]


def _initiative_tests(state: WuxiaState, combat: Combat) -> tuple[PoolTest, ...]:
    tests = []
    for f in combat.fighters:
        if not _alive(state, f.name):
            continue
        c = state.character(f.name)
        spec = {"competence": f.competence, "sr": state.options["combat_sr"], "rerolls": f.rerolls}
        tests.append(make_test(spec, c, state.options, attribute="metal", label="initiative"))
    return tuple(tests)


def start_combat(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    if state.combat is not None:
        raise refuse(
            "R12",
            "un combat est déjà en cours : terminez-le d'abord (wuxia.combat_end)",
            "a fight is already in progress: end it first (wuxia.combat_end)",
        )
    raw = data.get("fighters")
    if not isinstance(raw, list) or len(raw) < 2:
        raise malformed(
            "« fighters » doit lister au moins deux combattants : {who, side, skill ou competence, weapon, armour}",
            "'fighters' must list at least two fighters: {who, side, skill or competence, weapon, armour}",
        )
    fighters: list[Fighter] = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise malformed(
                "chaque combattant est un objet {who, side, skill|competence, weapon : {nd, soul}, armour}",
                "each fighter is an object {who, side, skill|competence, weapon: {nd, soul}, armour}",
            )
        c = _need_char(state, item.get("who"))
        if any(f.name == c.name for f in fighters):
            raise malformed(f"{c.name} est nommé deux fois", f"{c.name} is listed twice")
        spec = {k: item[k] for k in ("skill", "competence", "rerolls", "specialisation") if k in item}
        t = make_test({**spec, "sr": state.options["combat_sr"]}, c, state.options, attribute="metal")
        weapon = item.get("weapon") or {}
        if not isinstance(weapon, Mapping):
            raise malformed("« weapon » doit être un objet {nd, soul}", "weapon must be an object {nd, soul}")
        soul = weapon.get("soul")
        if soul is not None and not isinstance(soul, str):
            raise malformed("l'âme d'une arme est un texte", "a weapon's soul is a text")
        side = item.get("side", "heroes")
        if not isinstance(side, str) or not side:
            raise malformed("« side » doit être un nom", "side must be a name")
        fighters.append(Fighter(
            name=c.name, side=side, competence=t.competence, skill=t.skill, how=t.how, rerolls=t.rerolls,
            weapon_nd=_int(weapon.get("nd", 0), "weapon nd"), weapon_soul=soul,
            armour=_int(item.get("armour", 0), "armour"), initiative=c.attribute("metal"),
        ))
    combat = Combat(round=1, fighters=tuple(fighters), phase="initiative")
    tests = _initiative_tests(state, combat)
    state = replace(state, combat=combat, mode="initiative", tests=tests, extra={})
    msg = text("Combat : round 1 — test d'Initiative (Métal, SR 10 − compétence martiale) pour chacun.",
               "Fight: round 1 — everyone tests Initiative (Metal, SR 10 − martial skill).")
    return state, [Outcome("combat.round", msg, {"round": 1})]


def next_round(state: WuxiaState) -> tuple[WuxiaState, list[Outcome]]:
    combat = _need_combat(state)
    if combat.attack is not None:
        raise refuse("R14", "finissez d'abord l'attaque en cours", "finish the attack in progress first")
    keep = state.options["defence_dice_persist"]
    fighters = tuple(
        replace(f, initiative=(state.character(f.name) or _need_char(state, f.name)).attribute("metal"),
                init_successes=None, allocated=False, actions=1, actions_used=0,
                defence_dice=f.defence_dice if keep else 0, stun=f.stun_next, stun_next=0)
        for f in combat.fighters
    )
    combat = replace(combat, round=combat.round + 1, fighters=fighters, phase="initiative")
    tests = _initiative_tests(state, combat)
    state = replace(state, combat=combat, mode="initiative", tests=tests)
    n = combat.round
    return state, [Outcome("combat.round", text(f"Round {n} : tests d'Initiative.", f"Round {n}: Initiative tests."), {"round": n})]


def end_combat(state: WuxiaState) -> tuple[WuxiaState, list[Outcome]]:
    _need_combat(state)
    state = replace(state, combat=None, mode="none", tests=())
    return state, [Outcome("combat.end", text("Fin du combat.", "The fight is over."), {})]


def _init_successes(test: PoolTest, state: WuxiaState) -> tuple[int, bool]:
    res = result_of(test, state.options)
    if res is None:  # pragma: no cover - an invariant of the rules
        raise broken("res is not None")
    if res.outcome == "critical":
        return 0, True
    return res.successes, False


def after_dice(state: WuxiaState) -> tuple[WuxiaState, list[Outcome]]:
    """Move the combat on when the pools it waits for are all in."""
    combat = state.combat
    if combat is None or not settled(state.tests):
        return state, []
    if state.mode == "initiative" and combat.phase == "initiative":
        fighters = list(combat.fighters)
        parts_fr, parts_en = [], []
        for t in state.tests:
            s, crit = _init_successes(t, state)
            f = combat.fighter(t.who or "")
            if f is None:  # pragma: no cover - an invariant of the rules
                raise broken("f is not None")
            fighters[fighters.index(f)] = replace(f, init_successes=s, allocated=(s == 0))
            tag_fr = " (échec critique)" if crit and state.options["initiative_can_crit"] else ""
            tag_en = " (critical failure)" if crit and state.options["initiative_can_crit"] else ""
            parts_fr.append(f"{f.name} {s}{tag_fr}")
            parts_en.append(f"{f.name} {s}{tag_en}")
        combat = replace(combat, fighters=tuple(fighters), phase="allocate")
        combat = _maybe_actions(combat)
        msg = text("Succès d'Initiative : " + ", ".join(parts_fr) + ". À répartir : Initiative, actions, Dés de Défense.",
                   "Initiative successes: " + ", ".join(parts_en) + ". Share them: Initiative, actions, Defence Dice.")
        outs = [Outcome("combat.initiative", msg, {"round": combat.round})]
        if combat.phase == "actions":  # nobody had a success to share
            outs.append(_order_outcome(combat))
            return replace(state, combat=combat, mode="none", tests=()), outs
        return replace(state, combat=combat), outs
    if state.mode == "attack" and combat.attack is not None and combat.attack.phase == "roll":
        a_res = result_of(state.tests[0], state.options)
        d_res = result_of(state.tests[1], state.options)
        if a_res is None or d_res is None:  # pragma: no cover - an invariant of the rules
            raise broken("a_res is not None and d_res is not None")
        attack = replace(combat.attack, phase="defend")
        combat = replace(combat, attack=attack)
        att, dfn = attack.attacker, attack.defender
        f = _fighter(combat, dfn)
        msg = text(
            f"{att} : {a_res.successes} succès ; {dfn} : {d_res.successes} succès. {dfn} peut dépenser"
            f" des Dés de Défense ({f.defence_dice}) pour annuler des succès de l'attaquant.",
            f"{att}: {a_res.successes} successes; {dfn}: {d_res.successes} successes. {dfn} may spend"
            f" Defence Dice ({f.defence_dice}) to cancel attacker successes.",
        )
        return replace(state, combat=combat), [Outcome("attack.rolled", msg, {"attacker": a_res.successes, "defender": d_res.successes})]
    return state, []


def _maybe_actions(combat: Combat) -> Combat:
    if combat.phase == "allocate" and all(f.allocated or f.init_successes is None for f in combat.fighters):
        return replace(combat, phase="actions")
    return combat


def _order_outcome(combat: Combat) -> Outcome:
    order = ", ".join(f"{x.name} ({x.initiative})" for x in combat.order())
    return Outcome("combat.order", text(f"Ordre d'action : {order}.", f"Order of action: {order}."),
                   {"order": [x.name for x in combat.order()]})


def allocate_initiative(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    combat = _need_combat(state, "allocate")
    f = _fighter(combat, data.get("who"))
    if f.init_successes is None:
        raise refuse(
            "R13",
            f"{f.name} n'a pas de test d'initiative ce round",
            f"{f.name} has no initiative test this round",
        )
    if f.allocated and f.init_successes == 0:
        raise refuse("R13", f"{f.name} n'a aucun succès à répartir", f"{f.name} has no success to share")
    i = _int(data.get("initiative", 0), "initiative")
    a = _int(data.get("actions", 0), "actions")
    d = _int(data.get("defence", 0), "defence")
    if i + a + d != f.init_successes:
        raise refuse(
            "R13",
            f"{f.name} a {f.init_successes} succès à répartir ; {i} + {a} + {d} donnés",
            f"{f.name} has {f.init_successes} success(es) to share; {i} + {a} + {d} given",
        )
    c = _need_char(state, f.name)
    nf = replace(f, initiative=c.attribute("metal") + i * state.options["initiative_per_success"],
                 actions=1 + a, defence_dice=(f.defence_dice if state.options["defence_dice_persist"] else 0) + d,
                 allocated=True)
    combat = _maybe_actions(_set_fighter(combat, nf))
    state = replace(state, combat=combat)
    msg = text(f"{f.name} : Initiative {nf.initiative}, {nf.actions} action(s), {nf.defence_dice} Dé(s) de Défense.",
               f"{f.name}: Initiative {nf.initiative}, {nf.actions} action(s), {nf.defence_dice} Defence Dice.")
    outs = [Outcome("combat.allocate", msg, {"who": f.name, "initiative": nf.initiative, "actions": nf.actions,
                                             "defence_dice": nf.defence_dice})]
    if combat.phase == "actions":
        outs.append(_order_outcome(combat))
        state = replace(state, mode="none", tests=())
    return state, outs


def _group_usable(combat: Combat, who: Fighter, options: Mapping[str, Any]) -> list[int]:
    return [i for i, (side, by) in enumerate(combat.group)
            if side == who.side and (options["group_reserve_self_use"] or by != who.name)]


def _take_group(combat: Combat, who: Fighter, n: int, options: Mapping[str, Any]) -> Combat:
    if n == 0:
        return combat
    usable = _group_usable(combat, who, options)
    if n > len(usable):
        raise refuse(
            "R14",
            f"{who.name} peut utiliser {len(usable)} dé(s) de la réserve de groupe, pas {n}",
            f"{who.name} may use {len(usable)} die/dice of the group reserve, not {n}",
        )
    drop = set(usable[:n])
    return replace(combat, group=tuple(g for i, g in enumerate(combat.group) if i not in drop))


def _actions_left(f: Fighter) -> int:
    return f.actions - f.actions_used


def spend_action(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    combat = _need_combat(state, "actions")
    if combat.attack is not None:
        raise refuse("R14", "finissez d'abord l'attaque en cours", "finish the attack in progress first")
    f = _fighter(combat, data.get("who"))
    if _actions_left(f) <= 0:
        raise refuse("R13", f"{f.name} n'a plus d'action ce round", f"{f.name} has no action left this round")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise malformed("« note » doit être un texte", "note must be a text")
    combat = _set_fighter(combat, replace(f, actions_used=f.actions_used + 1))
    return replace(state, combat=combat), [Outcome("combat.action", text(f"{f.name} agit. {note}".strip(), f"{f.name} acts. {note}".strip()), {"who": f.name})]


def start_attack(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    combat = _need_combat(state, "actions")
    if combat.attack is not None:
        raise refuse("R14", "une attaque est déjà en cours de résolution", "an attack is already being resolved")
    att = _fighter(combat, data.get("attacker"))
    dfn = _fighter(combat, data.get("defender"))
    if att.name == dfn.name:
        raise refuse("R14", "un combattant ne peut pas s'attaquer lui-même", "a fighter cannot attack themself")
    if _actions_left(att) <= 0:
        raise refuse("R13", f"{att.name} n'a plus d'action ce round", f"{att.name} has no action left this round")
    if not _alive(state, dfn.name) or not _alive(state, att.name):
        raise refuse("W9", "les morts ne combattent pas", "the dead do not fight")
    g = _int(data.get("group_dice", 0), "group_dice")
    combat = _take_group(combat, att, g, state.options)
    nd = _int(data.get("nd", att.weapon_nd), "nd")
    ar = _int(data.get("armour", dfn.armour), "armour")
    opts = state.options
    sr = opts["combat_sr"]
    ta = make_test({"competence": att.competence, "sr": sr, "rerolls": att.rerolls}, state.character(att.name), opts,
                   attribute="feu", label="attack", dice_bonus=g)
    td = make_test({"competence": dfn.competence, "sr": sr, "rerolls": dfn.rerolls}, state.character(dfn.name), opts,
                   attribute="terre", label="defence", attribute_malus=dfn.stun)
    combat = _set_fighter(combat, replace(att, actions_used=att.actions_used + 1))
    combat = replace(combat, attack=Attack(att.name, dfn.name, group_dice=g, nd=nd, armour=ar))
    state = replace(state, combat=combat, mode="attack", tests=(ta, td))
    stun = f" (Terre −{dfn.stun}, estourbi)" if dfn.stun else ""
    stun_en = f" (Earth −{dfn.stun}, stunned)" if dfn.stun else ""
    msg = text(f"{att.name} attaque {dfn.name} : {ta.dice} d10 (Feu) contre {td.dice} d10 (Terre){stun}.",
               f"{att.name} attacks {dfn.name}: {ta.dice} d10 (Fire) against {td.dice} d10 (Earth){stun_en}.")
    return state, [Outcome("attack.start", msg, {"attacker": att.name, "defender": dfn.name})]


def defend(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    combat = _need_combat(state, "actions")
    at = combat.attack
    if at is None or at.phase != "defend":
        raise refuse(
            "R14",
            "aucune attaque n'attend la défense : les deux réserves doivent d'abord être lancées",
            "no attack waits for the defence: both pools must be rolled first",
        )
    dfn = _fighter(combat, at.defender)
    k = _int(data.get("defence", 0), "defence")
    g = _int(data.get("group", 0), "group")
    if k > dfn.defence_dice:
        raise refuse(
            "R14",
            f"{dfn.name} a {dfn.defence_dice} Dé(s) de Défense, pas {k}",
            f"{dfn.name} has {dfn.defence_dice} Defence Dice, not {k}",
        )
    combat = _take_group(combat, dfn, g, state.options)
    combat = _set_fighter(combat, replace(dfn, defence_dice=dfn.defence_dice - k))
    opts = state.options
    a_res = result_of(state.tests[0], opts)
    d_res = result_of(state.tests[1], opts)
    if a_res is None or d_res is None:  # pragma: no cover - an invariant of the rules
        raise broken("a_res is not None and d_res is not None")
    a_score = max(0, a_res.successes - k - g)
    d_score = d_res.successes
    a_crit = a_res.outcome == "critical" and opts["contest_critical_loses"]
    wins = a_score > d_score and not a_crit
    tests = tuple(replace(t, closed=True) for t in state.tests)
    data_out = {"attacker_successes": a_res.successes, "cancelled": k + g, "defender_successes": d_score, "won": wins}
    if not wins:
        combat = replace(combat, attack=None)
        why_fr = " (échec critique)" if a_crit else ""
        why_en = " (critical failure)" if a_crit else ""
        msg = text(f"{at.defender} pare : {a_score} succès{why_fr} contre {d_score}. Pas de dommage.",
                   f"{at.defender} holds: {a_score} successes{why_en} against {d_score}. No damage.")
        return replace(state, combat=combat, tests=tests, mode="none"), [Outcome("attack.parried", msg, data_out)]
    extra = a_score - d_score - (1 if opts["attack_extra"] == "difference_minus_one" else 0)
    at = replace(at, phase="invest", defence_used=k, group_defence_used=g, extra=extra)
    combat = replace(combat, attack=at)
    state = replace(state, combat=combat, tests=tests)
    msg = text(f"{at.attacker} touche : {a_score} succès contre {d_score}, {extra} succès à investir.",
               f"{at.attacker} hits: {a_score} successes against {d_score}, {extra} extra success(es) to invest.")
    data_out["extra"] = extra
    outs = [Outcome("attack.hit", msg, data_out)]
    if extra == 0:
        state, more = invest(state, {})
        outs += more
    return state, outs


def _manoeuvres(man: Any, opts: Mapping[str, Any]) -> dict[str, int]:
    """The successes invested per manoeuvre, each at least its cost (R14)."""
    if not isinstance(man, Mapping):
        raise malformed(
            "« manoeuvres » doit être un objet {nom : succès}",
            "manoeuvres must be an object {name: successes}",
        )
    mans: dict[str, int] = {}
    for k, v in man.items():
        key = fold_name(str(k)).replace(" ", "_")
        if key not in MANOEUVRES:
            raise malformed(
                f"manœuvre inconnue {k!r} ; attendu : {', '.join(MANOEUVRES)}",
                f"unknown manoeuvre {k!r}; expected {', '.join(MANOEUVRES)}",
            )
        n = _int(v, f"successes in {k}")
        if 0 < n < opts["manoeuvre_cost"]:
            raise refuse(
                "R14",
                f"une manœuvre coûte {opts['manoeuvre_cost']} succès",
                f"a manoeuvre costs {opts['manoeuvre_cost']} success(es)",
            )
        if n:
            mans[key] = n
    return mans


def _investment_parts(at: Attack, att: Fighter, damage: int, mans: Mapping[str, int], opts: Mapping[str, Any],
                      soul: int, d: int, g: int) -> tuple[list[str], list[str]]:
    """What the extra successes bought, in French and English (for the outcome)."""
    parts_fr = [f"{damage} dommage(s) (ND {at.nd} − AR {at.armour}"
                + (f" + Critique {mans['critique'] * opts['critical_damage']}" if "critique" in mans else "") + ")"]
    parts_en = [f"{damage} damage (ND {at.nd} − AR {at.armour}"
                + (f" + Critical {mans['critique'] * opts['critical_damage']}" if "critique" in mans else "") + ")"]
    for k, n in mans.items():
        if k != "critique":
            parts_fr.append(f"{MANOEUVRES[k]['fr']} ×{n}")
            parts_en.append(f"{MANOEUVRES[k]['en']} ×{n}")
    if soul:
        parts_fr.append(f"âme de l'arme ({att.weapon_soul}) ×{soul}")
        parts_en.append(f"weapon soul ({att.weapon_soul}) ×{soul}")
    if d:
        parts_fr.append(f"+{d} Dé(s) de Défense")
        parts_en.append(f"+{d} Defence Dice")
    if g:
        parts_fr.append(f"+{g} dé(s) à la réserve de groupe")
        parts_en.append(f"+{g} group reserve dice")
    return parts_fr, parts_en


def invest(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    combat = _need_combat(state, "actions")
    at = combat.attack
    if at is None or at.phase != "invest":
        raise refuse(
            "R14",
            "aucune attaque gagnée n'attend ses succès en plus",
            "no won attack waits for its extra successes",
        )
    opts = state.options
    d = _int(data.get("defence", 0), "defence")
    g = _int(data.get("group", 0), "group")
    soul = _int(data.get("soul", 0), "soul")
    mans = _manoeuvres(data.get("manoeuvres", {}) or {}, opts)
    used = d + g + soul + sum(mans.values())
    if used > at.extra:
        raise refuse(
            "R14",
            f"{used} succès investi(s), {at.extra} disponible(s)",
            f"{used} successes invested, {at.extra} available",
        )
    att = _fighter(combat, at.attacker)
    dfn = _fighter(combat, at.defender)
    if soul and not att.weapon_soul:
        raise refuse(
            "R14",
            f"l'arme de {att.name} n'a pas d'âme à éveiller",
            f"{att.name}'s weapon has no soul to awaken",
        )
    att = replace(att, defence_dice=att.defence_dice + d)
    combat = _set_fighter(combat, att)
    combat = replace(combat, group=combat.group + ((att.side, att.name),) * g)
    stun = mans.get("estourbir", 0) * opts["stun_terre"]
    if stun:
        combat = _set_fighter(combat, replace(dfn, stun_next=dfn.stun_next + stun))
    damage = 0
    if at.extra > 0 or not opts["damage_needs_extra"]:
        damage = max(0, at.nd - at.armour) + mans.get("critique", 0) * opts["critical_damage"]
    panic = mans.get("intimidation", 0) * opts["intimidation_panic"]
    chars = state.characters
    target = state.character(dfn.name)
    if target is None:  # pragma: no cover - a fighter is always a character of the table
        raise refuse("R12", f"{dfn.name} n'a pas de fiche", f"{dfn.name} has no sheet")
    before = secondary(target, opts)
    new_t = replace(target, wounds=target.wounds + damage, panic=target.panic + panic)
    chars = tuple(new_t if c.name == target.name else c for c in chars)
    after = secondary(new_t, opts)
    combat = replace(combat, attack=None)
    state = replace(state, characters=chars, combat=combat, mode="none", tests=())
    parts_fr, parts_en = _investment_parts(at, att, damage, mans, opts, soul, d, g)
    msg = text(f"{at.attacker} → {at.defender} : " + ", ".join(parts_fr) + f". Blessures {new_t.wounds}/{after['death_threshold']}.",
               f"{at.attacker} → {at.defender}: " + ", ".join(parts_en) + f". Wounds {new_t.wounds}/{after['death_threshold']}.")
    outs = [Outcome("attack.damage", msg, {"damage": damage, "wounds": new_t.wounds, "manoeuvres": mans, "soul": soul,
                                           "defence": d, "group": g, "stun": stun, "panic": panic})]
    if after["dead"] and not before["dead"]:
        outs.append(Outcome("character.dead", text(f"{new_t.name} atteint son Seuil de Mort.", f"{new_t.name} reaches the death threshold."),
                            {"who": new_t.name}))
    for t in after["wound_thresholds_reached"]:
        if t not in before["wound_thresholds_reached"]:
            outs.append(Outcome("character.wound_threshold", text(f"{new_t.name} franchit le seuil de blessure {t}.",
                                                                    f"{new_t.name} reaches wound threshold {t}."), {"who": new_t.name, "threshold": t}))
    return state, outs


def combat_json(state: WuxiaState) -> dict[str, Any] | None:
    combat = state.combat
    if combat is None:
        return None
    at = combat.attack
    return {
        "round": combat.round,
        "phase": combat.phase,
        "order": [f.name for f in combat.order()],
        "fighters": [
            {
                "name": f.name, "side": f.side, "competence": f.competence, "skill": f.skill, "initiative": f.initiative,
                "init_successes": f.init_successes, "allocated": f.allocated, "actions": f.actions,
                "actions_left": _actions_left(f), "defence_dice": f.defence_dice, "stun": f.stun, "stun_next": f.stun_next,
                "weapon": {"nd": f.weapon_nd, "soul": f.weapon_soul}, "armour": f.armour,
                "alive": _alive(state, f.name),
                "group_usable": len(_group_usable(combat, f, state.options)),
            }
            for f in combat.fighters
        ],
        "group_reserve": [{"side": s, "by": b} for s, b in combat.group],
        "attack": None if at is None else {
            "attacker": at.attacker, "defender": at.defender, "phase": at.phase, "nd": at.nd, "armour": at.armour,
            "group_dice": at.group_dice, "extra": at.extra,
        },
    }


def next_actor(state: WuxiaState) -> str | None:
    """Who acts next: in Initiative order, the first with the fewest actions used that
    still has one (extra actions come after everyone's first) [Decision]."""
    combat = state.combat
    if combat is None:
        return None
    cands = [f for f in combat.order() if _actions_left(f) > 0 and _alive(state, f.name)]
    if not cands:
        return None
    least = min(f.actions_used for f in cands)
    return next(f.name for f in cands if f.actions_used == least)
