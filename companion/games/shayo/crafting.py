"""Crafting: creating an object (R18, R19) and improving one (R20, R21).

Both are extended tests: one roll per period of work (its length and SD depend on the
object type: data of the event), successes accumulate until the required number.

- Creation: the target quality sets the successes required and the object's potential
  creation points (option ``quality_table``, placeholders until the rulebook's table,
  A14) and the minimum mastery (2/2/3/4, R19.2; mastery = the crafting skill's level).
  Each period with no (net) success lowers the final quality by one step; below mediocre
  the quality stays mediocre and the object is flagged for the GM (option
  ``below_mediocre`` ``"clamp"``), or the work is ruined (``"ruined"``).
- Improvement: the cost in PC comes from :data:`COSTS` (R21, reproduced exactly) and is
  taken from the object's creation points; it takes one slot (option
  ``improvement_slots`` per quality, permanent P or temporary T; several Solidité
  improvements share one slot); working on a superior object needs mastery 3, on an
  exceptional one 4 (R20). Successes required = cost × ``improvement_successes_per_pc``
  (A14) unless the event gives ``required``. A period without success: the improvement
  fails, the PC and the work are lost (S11); a critical failure (option
  ``critical_failure``, A14) also breaks the object (repairable).
"""

from __future__ import annotations


from typing import Any, Mapping

from ..refusal import broken, malformed, refuse
from ..base import Outcome, text
from .dice import Count
from .options import QUALITIES
from .state import CraftedObject, Project, ShayoState, Test, character
from .testflow import explain, rating

from .values import MAX_DIFFICULTY, evolve

#: Most successes a work may require (no rule gives a maximum; the quality table's is 12).
MAX_REQUIRED = 1000
__all__ = ["COSTS", "DURATIONS", "cost_of", "craft", "improve", "resolved", "is_critical", "end", "use_improvement"]

#: R21: improvement -> (fr, en, permanent, single use, combat, scene), in PC.
COSTS: Mapping[str, tuple[str, str, int, int, int, int]] = {
    "solidite": ("+1 à la Solidité", "+1 solidity", 4, 1, 2, 3),
    "de_lance": ("+1D (lancé) à une Compétence", "+1 die rolled for a skill", 5, 1, 2, 3),
    "de_garde": ("+1D (gardé) à une Compétence", "+1 die kept for a skill", 6, 2, 3, 4),
    "signature": ("+1 Signature à une Compétence", "+1 signature for a skill", 5, 1, 2, 3),
    "degats_fixes": ("+1 aux dégâts fixes (arme)", "+1 fixed damage (weapon)", 7, 3, 4, 5),
    "degats_variables": ("+1D aux dégâts variables (arme)", "+1 die of variable damage (weapon)", 5, 1, 2, 3),
    "sd_protection": ("+1 au SD de la protection (armure)", "+1 protection difficulty (armour)", 6, 2, 3, 4),
    "protection_fixe": ("+1 à la Protection fixe (armure)", "+1 fixed protection (armour)", 7, 3, 4, 5),
    "ki_manoeuvre": ("-1 Ki à dépenser pour une manœuvre", "-1 Ki to spend on a manoeuvre", 6, 2, 3, 4),
    "ki_sortilege": ("-1 Ki à dépenser pour un sortilège", "-1 Ki to spend on a spell", 6, 2, 3, 4),
}

#: Durations, in the table's column order. A15: "action" is the single-use column.
DURATIONS = ("permanent", "single_use", "combat", "scene")
_DURATION_ALIASES = {"action": "single_use", "permanente": "permanent", "usage_unique": "single_use",
                     "scene": "scene", "scène": "scene"}
_QUALITY_FR = {"mediocre": "médiocre", "normal": "normale", "superior": "supérieure", "exceptional": "exceptionnelle"}
_QUALITY_EN = {"mediocre": "mediocre", "normal": "normal", "superior": "superior", "exceptional": "exceptional"}


def cost_of(improvement: str, duration: str) -> int:
    """R21 look-up: PC cost of one improvement for one duration."""
    if improvement not in COSTS:
        raise refuse(
            "R21",
            f"amélioration inconnue {improvement!r} ; connues : {', '.join(COSTS)}",
            f"unknown improvement {improvement!r}; known: {', '.join(COSTS)}",
        )
    d = _DURATION_ALIASES.get(duration, duration)
    if d not in DURATIONS:
        raise refuse(
            "R21",
            f"durée inconnue {duration!r} ; connues : {', '.join(DURATIONS)} (ou action)",
            f"unknown duration {duration!r}; known: {', '.join(DURATIONS)} (or action)",
        )
    row = COSTS[improvement]
    return (row[2], row[3], row[4], row[5])[DURATIONS.index(d)]


def is_critical(c: Count, predicate: str) -> bool:
    """A14 [Decision]: critical failure of a crafting period."""
    if predicate == "ones_and_no_success":
        return c.ones >= 1 and c.successes == 0
    return c.ones > c.successes


def _number(raw: Any, what: str, lo: float = 0) -> float:
    if not isinstance(raw, (int, float)) or isinstance(raw, bool) or raw < lo:
        raise malformed(f"« {what} » doit être un nombre ≥ {lo}", f"{what} must be a number >= {lo}")
    return raw


def _period_test(state: ShayoState, p: Project) -> Test:
    ch = state.characters.get(p.crafter)
    sigs = ch.signatures_for(p.skill_name) if (ch is not None and p.skill_name) else ()
    return Test(kind=p.kind, who=p.crafter, attribute_name=p.attribute_name, skill_name=p.skill_name,
                attribute=p.attribute, skill=p.skill, difficulty=p.difficulty, signatures=sigs,
                label=f"{p.object} : période {len(p.periods) + 1}",
                label_en=f"{p.object}: period {len(p.periods) + 1}")


def _common(state: ShayoState, data: Mapping[str, Any]) -> tuple[str, str, None]:
    if state.project is not None or state.test is not None:
        raise refuse(
            "R19",
            "finissez (ou annulez avec shayo.cancel) d'abord le travail ou le test en cours",
            "finish (or shayo.cancel) the work or test in progress first",
        )
    who = character(state, data.get("who"), rule="R19").name
    obj = data.get("object")
    if not isinstance(obj, str) or not obj.strip():
        raise malformed("donnez l'« object » (son nom)", "give the 'object' (its name)")
    return who, obj.strip(), None


def craft(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, list[Outcome]]:
    who, obj, _ = _common(state, data)
    if obj in state.objects:
        raise refuse("R19", f"un objet nommé {obj!r} existe déjà", f"an object named {obj!r} already exists")
    quality = data.get("quality", "normal")
    if quality not in QUALITIES:
        raise malformed(
            f"« quality » doit être l'un de {', '.join(QUALITIES)}",
            f"'quality' must be one of {', '.join(QUALITIES)}",
        )
    attr_name, attr = rating(state, who, data.get("attribute"), "attribute")
    skill_name, mastery = rating(state, who, data.get("skill"), "skill")
    need = int(state.options["mastery"][quality])
    if mastery < need:
        raise refuse(
            "R19",
            f"un objet de qualité {quality} demande une maîtrise de {need} ; {who} a {mastery}",
            f"a {quality} object needs mastery {need}; {who} has {mastery}",
        )
    difficulty = data.get("difficulty")
    if not isinstance(difficulty, int) or isinstance(difficulty, bool) or not 2 <= difficulty <= MAX_DIFFICULTY:
        raise malformed(
            f"donnez la « difficulty » du type d'objet (SD par période, un entier de 2 à {MAX_DIFFICULTY}), pas {difficulty!r}",
            f"give the object type's 'difficulty' (SD per period, a whole number from 2 to {MAX_DIFFICULTY}), not {difficulty!r}",
        )
    required = data.get("required", state.options["quality_table"][quality]["successes"])
    if not isinstance(required, int) or isinstance(required, bool) or not 1 <= required <= MAX_REQUIRED:
        raise malformed(
            f"les succès « required » doivent être un entier de 1 à {MAX_REQUIRED}, pas {required!r}",
            f"'required' successes must be a whole number from 1 to {MAX_REQUIRED}, not {required!r}",
        )
    hours = _number(data.get("period_hours", 1), "'period_hours'")
    kind = data.get("kind", "other")
    if kind not in ("weapon", "armour", "other"):
        raise malformed("« kind » doit valoir weapon, armour ou other", "'kind' must be weapon, armour or other")
    p = Project("craft", who, obj, quality, quality, required, difficulty, hours, attr_name, skill_name,
                attr, mastery, object_kind=kind)
    out = Outcome("craft.started", text(
        f"{who} fabrique {obj} ({_QUALITY_FR[quality]}) : {required} succès à cumuler, SD {difficulty}, {hours:g} h par période.",
        f"{who} crafts {obj} ({_QUALITY_EN[quality]}): {required} successes to accumulate, SD {difficulty}, {hours:g} h per period."),
        p.to_json())
    return evolve(state, project=p, test=_period_test(state, p)), [out]


def _improved_object(state: ShayoState, data: Mapping[str, Any], name: str, who: str) -> CraftedObject:
    """The object to improve: the one of that name, or a new one of the given quality
    (normal by default, R18); a broken object cannot be improved (R20)."""
    obj = state.objects.get(name)
    if obj is None:
        quality = data.get("quality", "normal")  # R18: equipment is normal by default
        if quality not in QUALITIES:
            raise malformed(
                f"« quality » doit être l'un de {', '.join(QUALITIES)}",
                f"'quality' must be one of {', '.join(QUALITIES)}",
            )
        obj = CraftedObject(name, str(data.get("kind", "other")), quality, who,
                            int(state.options["quality_table"][quality]["pc"]))
    if obj.broken:
        raise refuse("R20", f"{name} est brisé : réparez-le d'abord", f"{name} is broken: repair it first")
    return obj


def _check_room(state: ShayoState, obj: CraftedObject, key: str, duration: str, cost: int) -> None:
    """R20, R21: a free slot of the improvement's class, and the PC to pay for it."""
    name = obj.name
    cls = "P" if duration == "permanent" else "T"
    slots = int(state.options["improvement_slots"][obj.quality][cls])
    same_class = [(k, d) for k, d in obj.improvements if ("P" if d == "permanent" else "T") == cls]
    used = len([k for k, _ in same_class if k != "solidite"]) + (1 if any(k == "solidite" for k, _ in same_class) else 0)
    shares = key == "solidite" and any(k == "solidite" for k, _ in same_class)
    if not shares and used >= slots:
        raise refuse(
            "R20",
            f"{name} ({obj.quality}) n'a plus d'emplacement {cls} libre ({slots} en tout)",
            f"{name} ({obj.quality}) has no free {cls} slot ({slots} in all)",
        )
    if cost > obj.pc:
        raise refuse(
            "R21",
            f"{COSTS[key][0]} coûte {cost} PC ; il en reste {obj.pc} à {name}",
            f"{COSTS[key][0]} costs {cost} PC; {name} has {obj.pc} left",
        )


def _work_numbers(state: ShayoState, data: Mapping[str, Any], cost: int) -> tuple[int, int]:
    """The work's difficulty per period and the successes it requires (R20, A14)."""
    difficulty = data.get("difficulty")
    if not isinstance(difficulty, int) or isinstance(difficulty, bool) or not 2 <= difficulty <= MAX_DIFFICULTY:
        raise malformed(
            f"donnez la « difficulty » (SD par période, un entier de 2 à {MAX_DIFFICULTY}), pas {difficulty!r}",
            f"give the 'difficulty' (SD per period, a whole number from 2 to {MAX_DIFFICULTY}), not {difficulty!r}",
        )
    required = data.get("required", cost * int(state.options["improvement_successes_per_pc"]))
    if not isinstance(required, int) or isinstance(required, bool) or not 1 <= required <= MAX_REQUIRED:
        raise malformed(
            f"les succès « required » doivent être un entier de 1 à {MAX_REQUIRED}, pas {required!r}",
            f"'required' successes must be a whole number from 1 to {MAX_REQUIRED}, not {required!r}",
        )
    return difficulty, required


def improve(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, list[Outcome]]:
    who, name, _ = _common(state, data)
    key = data.get("improvement")
    duration = _DURATION_ALIASES.get(data.get("duration", "permanent"), data.get("duration", "permanent"))
    if not isinstance(key, str) or not isinstance(duration, str):
        raise malformed(
            "donnez « improvement » (une clé de la table des coûts) et « duration »",
            "give 'improvement' (a key of the cost table) and 'duration'",
        )
    cost = cost_of(key, duration)
    obj = _improved_object(state, data, name, who)
    attr_name, attr = rating(state, who, data.get("attribute"), "attribute")
    skill_name, mastery = rating(state, who, data.get("skill"), "skill")
    need = {"superior": 3, "exceptional": 4}.get(obj.quality, int(state.options["mastery"]["mediocre"]))
    if mastery < need:
        raise refuse(
            "R20",
            f"travailler un objet de qualité {obj.quality} demande une maîtrise de {need} ; {who} a {mastery}",
            f"working on a {obj.quality} object needs mastery {need}; {who} has {mastery}",
        )
    _check_room(state, obj, key, duration, cost)
    difficulty, required = _work_numbers(state, data, cost)
    hours = _number(data.get("period_hours", 1), "'period_hours'")
    p = Project("improve", who, name, obj.quality, obj.quality, required, difficulty, hours, attr_name,
                skill_name, attr, mastery, improvement=key, duration=duration, cost=cost, object_kind=obj.kind)
    state = evolve(state, objects={**state.objects, name: obj}, project=p, test=_period_test(state, p))
    return state, [Outcome("improve.started", text(
        f"{who} améliore {name} : {COSTS[key][0]} ({duration}), {cost} PC, {required} succès à cumuler.",
        f"{who} improves {name}: {COSTS[key][1]} ({duration}), {cost} PC, {required} successes to accumulate."),
        p.to_json())]


def resolved(state: ShayoState, test: Test, c: Count) -> tuple[ShayoState, list[Outcome]]:
    """Book one period of the project; start the next one or finish."""
    p = state.project
    if p is None:  # pragma: no cover - an invariant of the rules
        raise broken("p is not None")
    p = evolve(p, periods=p.periods + (c.net,), accumulated=p.accumulated + c.net)
    critical = is_critical(c, state.options["critical_failure"]) and c.net == 0
    hours = p.period_hours * len(p.periods)
    if p.kind == "improve":
        return _improve_period(state, p, test, c, critical, hours)
    outs: list[Outcome] = []
    flagged = False
    if c.net == 0:
        i = QUALITIES.index(p.quality)
        if i == 0:
            if state.options["below_mediocre"] == "ruined":
                meaning = text(f"Période sans succès sous la qualité médiocre : {p.object} est raté ({hours:g} h perdues).",
                               f"A period without success below mediocre: {p.object} is ruined ({hours:g} h lost).")
                last = explain(test, c, meaning, {"project": p.to_json(), "critical": critical})
                return evolve(state, project=None, last=last), [Outcome("craft.ruined", meaning, p.to_json())]
            flagged = True
        else:
            p = evolve(p, quality=QUALITIES[i - 1])
        outs.append(Outcome("craft.quality_drop", text(
            f"Aucun succès : la qualité finale tombe à {_QUALITY_FR[p.quality]}" + (" (signalé au MJ : déjà médiocre)" if flagged else "") + ".",
            f"No success: the final quality drops to {_QUALITY_EN[p.quality]}" + (" (flagged for the GM: already mediocre)" if flagged else "") + "."),
            {"quality": p.quality, "flagged": flagged}))
    if p.accumulated >= p.required:
        pc = int(state.options["quality_table"][p.quality]["pc"])
        obj = CraftedObject(p.object, p.object_kind, p.quality, p.crafter, pc, flagged=_was_flagged(p))
        meaning = text(
            f"{p.object} est terminé : qualité {_QUALITY_FR[p.quality]}, {len(p.periods)} période{'s' if len(p.periods) > 1 else ''} ({hours:g} h), {pc} PC.",
            f"{p.object} is finished: {_QUALITY_EN[p.quality]} quality, {len(p.periods)} periods ({hours:g} h), {pc} PC.")
        last = explain(test, c, meaning, {"project": p.to_json(), "critical": critical})
        outs.append(Outcome("craft.done", meaning, {**p.to_json(), "pc": pc}))
        return evolve(state, project=None, objects={**state.objects, p.object: obj}, last=last), outs
    meaning = text(
        f"{c.net} succès cette période : {p.accumulated}/{p.required} ({hours:g} h). Période suivante.",
        f"{c.net} successes this period: {p.accumulated}/{p.required} ({hours:g} h). Next period.")
    last = explain(test, c, meaning, {"project": p.to_json(), "critical": critical, "flagged": flagged})
    outs.insert(0, Outcome("craft.period", meaning, p.to_json()))
    return evolve(state, project=p, test=_period_test(state, p), last=last), outs


def _was_flagged(p: Project) -> bool:
    """A clamp happened earlier in this project: more zero periods than steps above mediocre."""
    zeros = sum(1 for n in p.periods if n == 0)
    return zeros > QUALITIES.index(p.target_quality)


def _improve_period(state: ShayoState, p: Project, test: Test, c: Count, critical: bool, hours: float) -> tuple[ShayoState, list[Outcome]]:
    obj = state.objects[p.object]
    label_fr, label_en = COSTS[p.improvement or ""][0], COSTS[p.improvement or ""][1]
    if c.net == 0:
        obj = evolve(obj, pc=obj.pc - p.cost, broken=obj.broken or critical)
        fr = f"Période sans succès : l'amélioration ({label_fr}) échoue ; temps ({hours:g} h), matériel et {p.cost} PC perdus."
        en = f"A period without success: the improvement ({label_en}) fails; time ({hours:g} h), materials and {p.cost} PC lost."
        if critical:
            fr += f" Échec critique : {p.object} est cassé (réparable)."
            en += f" Critical failure: {p.object} is broken (repairable)."
        meaning = text(fr, en)
        last = explain(test, c, meaning, {"project": p.to_json(), "critical": critical})
        return (evolve(state, project=None, objects={**state.objects, p.object: obj}, last=last),
                [Outcome("improve.failed", meaning, {**p.to_json(), "critical": critical})])
    if p.accumulated >= p.required:
        obj = evolve(obj, pc=obj.pc - p.cost, improvements=obj.improvements + ((p.improvement or "", p.duration or ""),))
        meaning = text(f"{p.object} reçoit {label_fr} ({p.duration}) après {len(p.periods)} période{'s' if len(p.periods) > 1 else ''} ({hours:g} h).",
                       f"{p.object} gains {label_en} ({p.duration}) after {len(p.periods)} period{'s' if len(p.periods) > 1 else ''} ({hours:g} h).")
        last = explain(test, c, meaning, {"project": p.to_json()})
        return (evolve(state, project=None, objects={**state.objects, p.object: obj}, last=last),
                [Outcome("improve.done", meaning, p.to_json())])
    meaning = text(f"{c.net} succès : {p.accumulated}/{p.required} ({hours:g} h). Période suivante.",
                   f"{c.net} successes: {p.accumulated}/{p.required} ({hours:g} h). Next period.")
    last = explain(test, c, meaning, {"project": p.to_json()})
    return evolve(state, project=p, test=_period_test(state, p), last=last), [Outcome("improve.period", meaning, p.to_json())]


def end(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, list[Outcome]]:
    """End of a combat or a scene (R20: temporary improvements' lifetimes). The end of a
    scene also ends its combats; the end of a combat also ends the initiative order."""
    what = data.get("what")
    if what not in ("combat", "scene"):
        raise malformed("« what » doit valoir « combat » ou « scene »", "'what' must be 'combat' or 'scene'")
    gone = {"combat"} if what == "combat" else {"combat", "scene"}
    objects = dict(state.objects)
    expired: list[str] = []
    for name, obj in state.objects.items():
        keep = tuple((k, d) for k, d in obj.improvements if d not in gone)
        if keep != obj.improvements:
            objects[name] = evolve(obj, improvements=keep)
            expired.append(name)
    state = evolve(state, objects=objects, turn=None)
    fr = {"combat": "Fin du combat", "scene": "Fin de la scène"}[what]
    en = {"combat": "End of the combat", "scene": "End of the scene"}[what]
    if expired:
        fr += " : les améliorations temporaires expirent (" + ", ".join(expired) + ")"
        en += ": temporary improvements expire (" + ", ".join(expired) + ")"
    return state, [Outcome(f"end.{what}", text(fr + ".", en + "."), {"what": what, "objects": expired})]


def use_improvement(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, list[Outcome]]:
    """A single-use improvement is spent (A15: "Action" = "Usage unique")."""
    name, key = data.get("object"), data.get("improvement")
    obj = state.objects.get(name) if isinstance(name, str) else None
    if obj is None:
        raise refuse("R20", f"aucun objet nommé {name!r}", f"no object named {name!r}")
    if not isinstance(key, str) or (key, "single_use") not in obj.improvements:
        raise refuse(
            "R20",
            f"{name} n'a pas d'amélioration à usage unique {key!r}",
            f"{name} has no single-use improvement {key!r}",
        )
    imps = list(obj.improvements)
    imps.remove((key, "single_use"))
    state = evolve(state, objects={**state.objects, obj.name: evolve(obj, improvements=tuple(imps))})
    label = COSTS[key]
    return state, [Outcome("improve.used", text(f"{obj.name} : {label[0]} utilisé.", f"{obj.name}: {label[1]} used."),
                           {"object": obj.name, "improvement": key})]
