"""Combat: initiative and action passes (R10, R11), attacks, defence and damage (R12–R17).

An attack is an exchange of up to three rolls, each a test of the roll sequence:

1. ``shayo.attack``: a test of (attribute) under (combat skill), difficulty 5 in melee
   (option ``melee_difficulty``) or given at range; power / finesse raise it (R12).
   No success: a miss.
2. ``shayo.defend`` (a test of the defender; defence is an action, R14) or
   ``shayo.no_defence``. Each defence success cancels one attack success; if any remain
   the attack hits (R15).
3. The damage roll: weapon dice + margin (A10) (+ power bonus), every die counts (A11),
   difficulty = the armour's protection SD (or ``unarmoured_sd``). Damage = successes +
   weapon fixed damage − armour fixed protection (finesse ignores it), at least 0. It
   ticks the target's life boxes; 2 life lines + 1 box in one attack is a grave wound
   (R16, option ``grave_wound_lines``); one blow above a solidity wears it by 1 (R17).
"""

from __future__ import annotations


from typing import Any, Mapping

from ..refusal import broken, malformed, refuse
from ..base import Outcome, text, de
from .dice import Count
from .sheet import Armour, Character, Weapon
from .state import Exchange, ShayoState, Test, Turn, character
from .testflow import explain, parse_dice, rating, start_test

from .values import MAX_DIFFICULTY, MAX_VALUE, evolve

#: Most actions a combatant may have in a round (no rule gives a maximum).
MAX_ACTIONS = 10
__all__ = ["initiative", "next_action", "attack", "defend", "no_defence", "resolved",
           "life_line", "apply_damage", "buy_extra_action"]

EXTRA_ACTION_KI = 5  # R6.4


# -- initiative -------------------------------------------------------------------------
def _combatant(state: ShayoState, c: Any) -> tuple[str, int, tuple[int, ...], int]:
    """One combatant of ``shayo.initiative``: name, score (d10 + attribute − encumbrance,
    R10), tie-break dice (A9) and actions."""
    if not isinstance(c, Mapping) or not isinstance(c.get("name"), str):
        raise malformed("chaque combattant a besoin d'un « name »", "each combatant needs a 'name'")
    name = c["name"]
    die = parse_dice([c.get("die")], "die")[0] if isinstance(c.get("die"), int) else None
    if die is None:
        raise malformed(
            f"{name} : « die » doit être le d10 lancé pour l'initiative",
            f"{name}: 'die' must be the d10 rolled for initiative",
        )
    attr_raw = c.get("attribute", state.options["initiative_attribute"])
    who = name if name in state.characters else None
    _, attr = rating(state, who, attr_raw, "attribute")
    enc_default = state.characters[name].encumbrance if who else 0
    enc = c.get("encumbrance", enc_default)
    if not isinstance(enc, int) or isinstance(enc, bool) or not 0 <= enc <= MAX_VALUE:
        raise malformed(
            f"{name} : l'encombrement doit être un entier de 0 à {MAX_VALUE}, pas {enc!r}",
            f"{name}: encumbrance must be a whole number from 0 to {MAX_VALUE}, not {enc!r}",
        )
    tb = parse_dice(c.get("tiebreak", []), "tiebreak")
    acts = c.get("actions", 1)
    if not isinstance(acts, int) or isinstance(acts, bool) or not 1 <= acts <= MAX_ACTIONS:
        raise malformed(
            f"{name} : « actions » doit être un entier de 1 à {MAX_ACTIONS}, pas {acts!r}",
            f"{name}: 'actions' must be a whole number from 1 to {MAX_ACTIONS}, not {acts!r}",
        )
    return name, die + attr - enc, tb, acts


def initiative(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, list[Outcome]]:
    """R10: 1d10 + an attribute − encumbrance, decreasing order. A9: ties are broken by
    ``tiebreak`` re-rolls, then by the order the players list the combatants in."""
    raw = data.get("combatants")
    if not isinstance(raw, list) or not raw:
        raise malformed(
            "« combatants » doit être une liste non vide de {name, die, attribute, encumbrance}",
            "'combatants' must be a non-empty list of {name, die, attribute, encumbrance}",
        )
    rows = []
    natural: dict[str, int] = {}
    for pos, c in enumerate(raw):
        name, score, tb, acts = _combatant(state, c)
        natural[name] = acts
        rows.append((name, score, tb, pos))
    names = [r[0] for r in rows]
    if len(set(names)) != len(names):
        raise malformed("un combattant est nommé deux fois", "a combatant is listed twice")
    rows.sort(key=lambda r: (-r[1], tuple(-x for x in r[2]), r[3]))
    ties = []
    for a, b in zip(rows, rows[1:]):
        if a[1] == b[1] and a[2] == b[2]:
            ties.append([a[0], b[0]])
    names_sorted = [r[0] for r in rows]
    turn = Turn(tuple(names_sorted), {r[0]: r[1] for r in rows}, dict(natural), natural=dict(natural))
    order = ", ".join(f"{r[0]} ({r[1]})" for r in rows)
    out = [Outcome("initiative", text(f"Ordre d'initiative : {order}", f"Initiative order: {order}"),
                   {"order": names_sorted, "scores": dict(turn.scores), "ties": ties})]
    if ties:
        pairs = "; ".join(" = ".join(t) for t in ties)
        out.append(Outcome("initiative.tie", text(
            f"Égalité ({pairs}) : relancez un d10 (tiebreak) ou choisissez l'ordre.",
            f"Tie ({pairs}): re-roll a d10 (tiebreak) or choose the order."), {"ties": ties}))
    return evolve(state, turn=turn), out


def next_action(state: ShayoState) -> tuple[ShayoState, list[Outcome]]:
    """R11: everyone acts once in order, then those with a 2nd action, and so on."""
    turn = state.turn
    if turn is None:
        raise refuse(
            "R10",
            "pas encore d'ordre d'initiative (shayo.initiative)",
            "no initiative order yet (shayo.initiative)",
        )
    acting = [n for n in turn.order if turn.actions.get(n, 1) >= turn.pass_no]
    if turn.index + 1 < len(acting):
        turn = evolve(turn, index=turn.index + 1)
    elif any(v > turn.pass_no for v in turn.actions.values()):
        turn = evolve(turn, pass_no=turn.pass_no + 1, index=0)
    else:
        turn = evolve(turn, turn=turn.turn + 1, pass_no=1, index=0, actions=dict(turn.natural))
    who = turn.current
    return evolve(state, turn=turn), [Outcome("turn.next", text(
        f"Tour {turn.turn}, round {turn.pass_no} : à {who} d'agir.",
        f"Turn {turn.turn}, round {turn.pass_no}: {who} acts."), {"current": who, "turn": turn.turn, "pass": turn.pass_no})]


def buy_extra_action(state: ShayoState, who: str) -> ShayoState:
    """R6.4: an extra action (its Ki is paid by the caller); no manoeuvre nor spell on it."""
    if state.turn is not None and who in state.turn.actions:
        actions = {**state.turn.actions, who: state.turn.actions[who] + 1}
        state = evolve(state, turn=evolve(state.turn, actions=actions))
    return state


# -- attack -----------------------------------------------------------------------------
def _weapon(state: ShayoState, attacker: str | None, raw: Any) -> tuple[str | None, Weapon]:
    if raw is None:
        return None, Weapon(dice=0, fixed=0)
    if isinstance(raw, str):
        if attacker is None:
            raise malformed(
                "une arme donnée par son nom demande la fiche de l'attaquant (« who »)",
                "a weapon given by name needs the attacker's sheet ('who')",
            )
        w = character(state, attacker).weapons.get(raw)
        if w is None:
            raise refuse("R16", f"{attacker} n'a pas d'arme {raw!r}", f"{attacker} has no weapon {raw!r}")
        if w.broken:
            raise refuse("R17", f"l'arme {raw} de {attacker} est brisée (R17)", f"{attacker}'s {raw} is broken (R17)")
        return raw, w
    if isinstance(raw, Mapping):
        dice, fixed = raw.get("dice", 1), raw.get("fixed", 0)
        if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_VALUE for x in (dice, fixed)):
            raise malformed(
                f"« dice » et « fixed » d'une arme doivent être des entiers de 0 à {MAX_VALUE}, pas {dice!r} et {fixed!r}",
                f"weapon 'dice' and 'fixed' must be whole numbers from 0 to {MAX_VALUE}, not {dice!r} and {fixed!r}",
            )
        return None, Weapon(dice=dice, fixed=fixed)
    raise malformed(
        "« weapon » est le nom d'une arme de la fiche ou {dice, fixed}",
        "'weapon' is a weapon name from the sheet or {dice, fixed}",
    )


def attack(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, list[Outcome]]:
    if state.exchange is not None:
        raise refuse(
            "R13",
            "une attaque est déjà en cours de résolution (ou annulez-la avec shayo.cancel)",
            "an attack is already being resolved (or shayo.cancel it)",
        )
    who = data.get("who")
    target = data.get("target")
    if target is not None and not isinstance(target, str):
        raise malformed("« target » doit être un nom", "'target' must be a name")
    option = data.get("option", "normal")
    if option not in ("normal", "force", "finesse"):
        raise malformed(
            "« option » doit valoir normal, force ou finesse",
            "'option' must be normal, force or finesse",
        )
    rng = data.get("range", "melee")
    if rng not in ("melee", "ranged"):
        raise malformed("« range » doit valoir melee ou ranged", "'range' must be melee or ranged")
    opts = state.options
    notes = []
    if rng == "melee":
        difficulty = opts["melee_difficulty"]
    else:
        d = data.get("difficulty")
        if not isinstance(d, int) or isinstance(d, bool) or not 2 <= d <= MAX_DIFFICULTY:
            raise malformed(
                f"une attaque à distance demande sa « difficulty » (elle dépend de la portée, R13), de 2 à {MAX_DIFFICULTY}, pas {d!r}",
                f"a ranged attack needs its 'difficulty' (it depends on the range, R13), from 2 to {MAX_DIFFICULTY}, not {d!r}",
            )
        difficulty = d
    bonus_dice = 0
    ignore = False
    if option == "force":
        difficulty += int(opts["power_attack"].get("difficulty", 1))
        bonus_dice = int(opts["power_attack"].get("damage_dice", 1))
        notes.append(f"en force +{opts['power_attack'].get('difficulty', 1)}")
    elif option == "finesse":
        difficulty += int(opts["finesse_attack"].get("difficulty", 1))
        ignore = bool(opts["finesse_attack"].get("ignore_protection", True))
        notes.append(f"en finesse +{opts['finesse_attack'].get('difficulty', 1)}")
    wname, weapon = _weapon(state, who, data.get("weapon"))
    armour = _target_armour(state, target, data.get("target_armour"))
    state = start_test(state, data, "attack", difficulty, notes)
    ex = Exchange(who, target, option, wname, weapon.dice, weapon.fixed, bonus_dice, ignore, "attack",
                  target_armour=armour)
    return evolve(state, exchange=ex), [Outcome("attack.declared", text(
        f"Attaque ({option}) {de(who or '?')} sur {target or '?'} : difficulté {difficulty}.",
        f"{option.capitalize()} attack by {who or '?'} on {target or '?'}: difficulty {difficulty}."),
        {"difficulty": difficulty, "option": option})]


def _target_armour(state: ShayoState, target: str | None, raw: Any) -> tuple[int, int] | None:
    """The armour of a target without a sheet: ``{"sd", "protection"}`` in the event."""
    if raw is None:
        return None
    if target is not None and target in state.characters:
        raise malformed(
            "la cible a une fiche : son armure vient de la fiche",
            "the target has a sheet: its armour comes from it",
        )
    if not isinstance(raw, Mapping):
        raise malformed("« target_armour » doit être {sd, protection}", "'target_armour' must be {sd, protection}")
    sd, prot = raw.get("sd", state.options["unarmoured_sd"]), raw.get("protection", 0)
    if (not all(isinstance(x, int) and not isinstance(x, bool) for x in (sd, prot))
            or not 2 <= sd <= MAX_DIFFICULTY or not 0 <= prot <= MAX_VALUE):
        raise malformed(
            f"« target_armour » demande des entiers sd de 2 à {MAX_DIFFICULTY} et protection de 0 à {MAX_VALUE}, pas {sd!r} et {prot!r}",
            f"'target_armour' needs whole numbers sd 2-{MAX_DIFFICULTY} and protection 0-{MAX_VALUE}, not {sd!r} and {prot!r}",
        )
    return sd, prot


def defend(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, list[Outcome]]:
    ex = state.exchange
    if ex is None or ex.step != "defence" or state.test is not None:
        raise refuse("R14", "aucune attaque n'attend de défense", "no attack is waiting for a defence")
    data = dict(data)
    data.setdefault("who", ex.target)
    diff = data.get("difficulty", state.options["defence_difficulty"])
    if not isinstance(diff, int) or isinstance(diff, bool) or not 2 <= diff <= MAX_DIFFICULTY:
        raise malformed(
            f"la « difficulty » de la défense doit être un entier de 2 à {MAX_DIFFICULTY}, pas {diff!r}",
            f"defence 'difficulty' must be a whole number from 2 to {MAX_DIFFICULTY}, not {diff!r}",
        )
    state = start_test(state, data, "defence", diff)
    return state, [Outcome("defence.declared", text(
        f"{data.get('who') or 'Le défenseur'} se défend (une action) : difficulté {diff}.",
        f"{data.get('who') or 'The defender'} defends (an action): difficulty {diff}."), {"difficulty": diff})]


def no_defence(state: ShayoState) -> tuple[ShayoState, list[Outcome]]:
    ex = state.exchange
    if ex is None or ex.step != "defence" or state.test is not None:
        raise refuse("R14", "aucune attaque n'attend de défense", "no attack is waiting for a defence")
    return _after_defence(state, ex, 0)


def _armour_of(state: ShayoState, ex: Exchange) -> tuple[int, int, Armour | None]:
    if ex.target and ex.target in state.characters:
        arm = state.characters[ex.target].armour
        if arm is not None and not arm.broken:
            return arm.sd, arm.protection, arm
    if ex.target_armour:
        return ex.target_armour[0], ex.target_armour[1], None
    return state.options["unarmoured_sd"], 0, None


def _after_defence(state: ShayoState, ex: Exchange, defence_net: int) -> tuple[ShayoState, list[Outcome]]:
    remaining = max(0, ex.attack_net - defence_net)
    if remaining == 0:
        out = Outcome("attack.miss", text(
            f"La défense annule les {ex.attack_net} succès de l'attaque : raté, pas de dégâts.",
            f"The defence cancels all {ex.attack_net} attack successes: a miss, no damage."),
            {"attack": ex.attack_net, "defence": defence_net, "remaining": 0})
        return evolve(state, exchange=None), [out]
    margin = remaining - 1 if state.options["margin"] == "remaining_minus_one" else remaining
    dice = ex.weapon_dice + margin + ex.bonus_dice
    sd, prot, _ = _armour_of(state, ex)
    test = Test(kind="damage", who=ex.attacker, attribute_name=None, skill_name=None, attribute=dice,
                skill=dice, difficulty=sd, keep_all=True, ones_cancel=state.options["damage_ones_cancel"],
                label=f"dégâts : {ex.weapon_dice} (arme) + {margin} (marge)" + (f" + {ex.bonus_dice} (force)" if ex.bonus_dice else ""),
                label_en=f"damage: {ex.weapon_dice} (weapon) + {margin} (margin)" + (f" + {ex.bonus_dice} (power)" if ex.bonus_dice else ""))
    new_ex = evolve(ex, step="damage", defence_net=defence_net)
    out = Outcome("attack.hit", text(
        f"Touché ! {remaining} succès restent (marge {margin}) : lancez {dice} dés de dégâts contre SD {sd}.",
        f"Hit! {remaining} successes remain (margin {margin}): roll {dice} damage dice against SD {sd}."),
        {"attack": ex.attack_net, "defence": defence_net, "remaining": remaining, "margin": margin,
         "damage_dice": dice, "sd": sd})
    state = evolve(state, exchange=new_ex, test=test)
    if dice == 0:
        from .testflow import resolve_empty
        st, t, c = resolve_empty(state)
        return _damage(st, t, c, [out])
    return state, [out]


# -- life lines -------------------------------------------------------------------------------
def life_line(ch: Character, damage: int | None = None) -> int:
    """Index of the life line holding the last ticked box (0 when unhurt)."""
    d = ch.damage if damage is None else damage
    total = 0
    for i, b in enumerate(ch.life_boxes):
        total += b
        if d <= total:
            return i
    return len(ch.life_boxes) - 1


def apply_damage(state: ShayoState, name: str, boxes: int) -> tuple[ShayoState, dict[str, Any]]:
    """Tick ``boxes`` on ``name``'s life lines; report the line reached and a grave wound
    (R16: one attack fills ``grave_wound_lines`` lines + 1 box, counted from the line where
    the first new box falls)."""
    ch = state.characters[name]
    start = ch.damage
    boxes = min(boxes, ch.health_boxes - start)
    first_line = life_line(ch, start + 1) if boxes else life_line(ch)
    span = sum(ch.life_boxes[first_line:first_line + state.options["grave_wound_lines"]])
    grave = boxes >= span + 1 and first_line + state.options["grave_wound_lines"] <= len(ch.life_boxes)
    ch = evolve(ch, damage=start + boxes, grave_wounds=ch.grave_wounds + (1 if grave else 0))
    line = life_line(ch)
    labels = state.options["life_lines"]
    label = labels[line] if line < len(labels) else {"fr": f"ligne {line + 1}", "en": f"line {line + 1}"}
    info = {"target": name, "boxes": boxes, "damage": ch.damage, "line": line,
            "line_label": {"fr": label.get("fr"), "en": label.get("en")}, "grave_wound": grave,
            "out": ch.damage >= ch.health_boxes}
    return state.with_character(ch), info


def _wear(state: ShayoState, ex: Exchange, raw_damage: int) -> tuple[ShayoState, list[Outcome]]:
    """R17 [Decision]: a blow whose damage exceeds a solidity lowers it by 1; 0 breaks."""
    out: list[Outcome] = []
    if not state.options["solidity_loss"]:
        return state, out
    if ex.attacker is not None and ex.attacker in state.characters and ex.weapon:
        ch = state.characters[ex.attacker]
        w = ch.weapons[ex.weapon]
        if raw_damage > w.solidity and not w.broken:
            w = evolve(w, solidity=w.solidity - 1, broken=w.solidity - 1 <= 0)
            state = state.with_character(evolve(ch, weapons={**ch.weapons, ex.weapon: w}))
            out.append(Outcome("solidity.weapon", text(
                f"{ex.weapon} s'use : solidité {w.solidity}" + (" — brisée !" if w.broken else "."),
                f"{ex.weapon} wears: solidity {w.solidity}" + (" — broken!" if w.broken else ".")),
                {"weapon": ex.weapon, "solidity": w.solidity, "broken": w.broken}))
    if ex.target is not None and ex.target in state.characters:
        ch = state.characters[ex.target]
        a = ch.armour
        if a is not None and not a.broken and raw_damage > a.solidity:
            a = evolve(a, solidity=a.solidity - 1, broken=a.solidity - 1 <= 0)
            state = state.with_character(evolve(ch, armour=a))
            out.append(Outcome("solidity.armour", text(
                f"L'armure {de(ex.target)} s'use : solidité {a.solidity}" + (" — brisée !" if a.broken else "."),
                f"{ex.target}'s armour wears: solidity {a.solidity}" + (" — broken!" if a.broken else ".")),
                {"target": ex.target, "solidity": a.solidity, "broken": a.broken}))
    return state, out


def _damage(state: ShayoState, test: Test, c: Count, pre: list[Outcome]) -> tuple[ShayoState, list[Outcome]]:
    ex = state.exchange
    if ex is None:  # pragma: no cover - an invariant of the rules
        raise broken("ex is not None")
    sd, prot, _ = _armour_of(state, ex)
    protection = 0 if ex.ignore_protection else prot
    raw = c.net + ex.weapon_fixed
    dmg = max(0, raw - protection)
    extra: dict[str, Any] = {"damage": dmg, "fixed": ex.weapon_fixed, "protection": protection,
                             "protection_ignored": ex.ignore_protection and prot > 0, "target": ex.target}
    outs = list(pre)
    fr = f"{c.net} succès + {ex.weapon_fixed} fixes − {protection} protection = {dmg} case(s) de dégâts"
    en = f"{c.net} successes + {ex.weapon_fixed} fixed − {protection} protection = {dmg} box(es) of damage"
    if ex.target is not None and ex.target in state.characters and dmg:
        state, info = apply_damage(state, ex.target, dmg)
        extra["health"] = info
        fr += f" ; {ex.target} : {info['line_label']['fr']}"
        en += f"; {ex.target}: {info['line_label']['en']}"
        if info["grave_wound"]:
            outs.append(Outcome("grave_wound", text(f"Blessure grave pour {ex.target} !",
                                                    f"Grave wound for {ex.target}!"), info))
    meaning = text(fr + ".", en + ".")
    last = explain(test, c, meaning, {"exchange": ex.to_json(), **extra})
    state, wear = _wear(state, ex, raw)
    outs.insert(len(pre), Outcome("damage", meaning, {"damage": dmg, "net": c.net, "target": ex.target}))
    return evolve(state, exchange=None, last=last), outs + wear


def resolved(state: ShayoState, test: Test, c: Count) -> tuple[ShayoState, list[Outcome]]:
    """Continue the exchange after one of its tests was counted."""
    ex = state.exchange
    if ex is None:  # pragma: no cover - an invariant of the rules
        raise broken("ex is not None")
    if test.kind == "attack":
        if c.net == 0:
            meaning = text("Aucun succès : l'attaque rate.", "No success: the attack misses.")
            return evolve(state, exchange=None, last=explain(test, c, meaning, {"exchange": ex.to_json()})), [
                Outcome("attack.miss", meaning, {"net": 0})]
        ex = evolve(ex, attack_net=c.net, step="defence")
        meaning = text(
            f"{c.net} succès d'attaque. Le défenseur peut se défendre (une action) : chaque succès en annule un.",
            f"{c.net} attack successes. The defender may defend (an action): each success cancels one.")
        return evolve(state, exchange=ex, last=explain(test, c, meaning, {"exchange": ex.to_json()})), [
            Outcome("attack.successes", meaning, {"net": c.net})]
    if test.kind == "defence":
        meaning = text(f"Défense : {c.net} succès annulent autant de succès d'attaque.",
                       f"Defence: {c.net} successes cancel as many attack successes.")
        state = evolve(state, last=explain(test, c, meaning, {"exchange": ex.to_json()}))
        return _after_defence(state, ex, c.net)
    return _damage(state, test, c, [])
