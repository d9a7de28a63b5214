"""The Shayo state as JSON for the tablet (``state_json``) and as text (``describe``).

``expects`` says what the table waits for:

- ``{"step": "roll", "who", "dice": [{"kind": "d10", "count": N}], "keep", "difficulty",
  "odds": {"success", "net_successes": {"0": p, ...}}, "ki": {...}}`` before a roll;
- ``{"step": "signatures", "signatures": [{id, dice: [positions]...}], "suggested_keep"}``
  while a signature could still change the roll (then ``shayo.keep``);
- ``{"step": "reroll_dice", "signature": {id, fr, en, which}, "indices": [positions],
  "mode", "dice": [{"kind": "d10", "count": k}], "faces", "text"}`` while a declared
  re-roll waits for its new faces (``mode`` ``replace``/``explode``: the dice at
  ``indices`` are rolled again; ``extra_die``: ``k`` new dice join the pool; ``faces``:
  the pool as it lies in the tray, an exploded 10 + x showing x);
- ``{"step": "keep", ...}`` with ``auto_keep`` off;
- ``{"step": "defence", "who": target}`` after attack successes;
- ``{"step": "idle", "choices": [...]}`` otherwise.
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ..expects import DiceWanted
from .combat import life_line
from .dice import best_keep
from .expects import Defence, Idle, RerollDice, Roll, ShayoStep, SignatureRef, Signatures
from .odds import as_floats, net_distribution, pool_from, success_probability
from .state import ShayoState, Test, group_left, group_pool
from .testflow import labels, reroll_mode, reroll_text, test_label, usable

__all__ = ["state_to_json", "describe", "test_odds"]

IDLE_CHOICES = ["shayo.test", "shayo.attack", "shayo.craft", "shayo.improve", "shayo.initiative",
                "shayo.spend_ki", "shayo.character", "shayo.edit_character", "shayo.refresh_ki", "shayo.health",
                "shayo.use_improvement", "shayo.end"]


def test_odds(state: ShayoState, t: Test) -> dict[str, Any] | None:
    """Exact odds of the open test, with its signatures and the table's options
    (``None`` for a pool the odds do not cover, e.g. over ``MAX_DICE`` dice)."""
    keep = t.rolled if t.keep_all else t.keep
    try:
        spec = pool_from(t.rolled, keep, t.difficulty, t.signatures, state.options["ones_scope"],
                         state.options["tens_reroll"], t.ones_cancel)
    except ValueError:
        return None
    return {"success": float(success_probability(spec, t.required)),
            "net_successes": as_floats(net_distribution(spec)), "required": t.required}


def _ki(state: ShayoState, t: Test) -> dict[str, Any] | None:
    if t.who is None or t.who not in state.characters:
        return None
    ch = state.characters[t.who]
    return {"cap": ch.ins, "rolled": t.ki_rolled, "kept": t.ki_kept, "manoeuvre": t.ki_extra,
            "paid": dict(t.ki_paid), "personal_left": ch.personal_left, "group_left": group_left(state)}


def _test_json(state: ShayoState, t: Test) -> dict[str, Any]:
    return {
        "kind": t.kind, "who": t.who, "label": test_label(t), "labels": labels(t), "difficulty": t.difficulty,
        "difficulty_notes": list(t.difficulty_notes), "rolled": t.rolled, "keep": t.keep,
        "attribute": {"name": t.attribute_name, "value": t.attribute},
        "skill": {"name": t.skill_name, "value": t.skill},
        "modifiers": {"rolled": t.mod_rolled, "kept": t.mod_kept},
        "signatures": [s.to_json() for s in t.signatures], "used": list(t.used),
        "dice": list(t.dice) if t.dice is not None else None,
        "cancelled": [i for i, x in enumerate(t.cancelled) if x],
        "notes": [dict(n) for n in t.notes], "required": t.required,
        "awaiting": {"signature": t.awaiting.signature.id, "dice": list(t.awaiting.dice)} if t.awaiting else None,
    }


def _reroll_expects(state: ShayoState, t: Test) -> RerollDice:
    """A declared re-roll waits for its dice (see the module docstring)."""
    w = t.awaiting
    if w is None:
        raise RuleError("no re-roll is declared")
    tens = state.options["tens_reroll"]
    sig = w.signature
    return RerollDice("reroll_dice", t.who, t.kind, SignatureRef(sig.id, sig.fr, sig.en, sig.which),
                      tuple(w.dice), reroll_mode(sig, tens), (DiceWanted("d10", count=len(w.dice)),),
                      tuple(v - 10 if v > 10 else v for v in t.dice or ()), t.keep, t.difficulty,
                      reroll_text(w, tens),
                      ("shayo.signature", "shayo.signature_cancel", "shayo.correct", "shayo.cancel"))


def _roll_expects(state: ShayoState, t: Test) -> Roll:
    ki = _ki(state, t)
    if t.kind == "damage":
        ki = None
    choices = ("shayo.roll", "shayo.ki", "shayo.cancel") if ki is not None else ("shayo.roll", "shayo.cancel")
    return Roll("roll", t.who, t.kind, (DiceWanted("d10", count=t.rolled),), t.rolled if t.keep_all else t.keep,
                t.difficulty, test_odds(state, t), ki=ki, choices=choices)


def _rolled_expects(state: ShayoState, t: Test) -> Signatures:
    sigs = usable(t, state.options["tens_reroll"], state.options["ones_scope"])
    suggested = best_keep(t.dice or (), t.cancelled, t.keep, state.options["ones_scope"])
    choices = ((("shayo.signature",) if sigs else ())
               + (("shayo.signature_declare",) if any(s["kind"] == "reroll" for s in sigs) else ())
               + ("shayo.keep", "shayo.correct", "shayo.cancel"))
    return Signatures("signatures" if sigs else "keep", t.who, t.kind, tuple(t.dice or ()), t.keep, t.difficulty,
                      tuple(sigs), tuple(suggested), choices)


def expects_of(state: ShayoState) -> ShayoStep:
    """The step the table waits for (the classes: :mod:`.expects`)."""
    t = state.test
    if t is not None and t.dice is None:
        return _roll_expects(state, t)
    if t is not None and t.awaiting is not None:
        return _reroll_expects(state, t)
    if t is not None:
        return _rolled_expects(state, t)
    ex = state.exchange
    if ex is not None and ex.step == "defence":
        return Defence("defence", ex.target, ex.attack_net, state.options["defence_difficulty"],
                       ("shayo.defend", "shayo.no_defence", "shayo.correct"))
    choices = list(IDLE_CHOICES)
    if state.turn is not None:
        choices.append("shayo.next_action")
    if state.base is not None:
        choices.append("shayo.correct")
    return Idle("idle", tuple(choices))


def expects(state: ShayoState) -> dict[str, Any]:
    """What the table waits for, as JSON."""
    return expects_of(state).to_json()


def state_to_json(state: ShayoState) -> dict[str, Any]:
    labels = state.options["life_lines"]
    chars = []
    for ch in state.characters.values():
        j = ch.to_json()
        line = life_line(ch)
        lab = labels[line] if line < len(labels) else {"fr": f"ligne {line + 1}", "en": f"line {line + 1}"}
        j["life_line"] = {"index": line, "fr": lab.get("fr"), "en": lab.get("en")}
        j["health_boxes"] = ch.health_boxes
        chars.append(j)
    return {
        "expects": expects(state),
        "characters": chars,
        "group_pool": {"max": group_pool(state), "left": group_left(state)},
        "test": _test_json(state, state.test) if state.test is not None else None,
        "exchange": state.exchange.to_json() if state.exchange else None,
        "project": state.project.to_json() if state.project else None,
        "objects": [o.to_json() for o in state.objects.values()],
        "turn": state.turn.to_json() if state.turn else None,
        "last": dict(state.last) if state.last else None,
        "can_correct": state.base is not None,
    }


_QUALITY_WORDS = {"mediocre": ("médiocre", "mediocre"), "normal": ("normale", "normal"),
                  "superior": ("supérieure", "superior"), "exceptional": ("exceptionnelle", "exceptional")}
_STEP_WORDS = {
    "idle": ("un test, une attaque ou une fabrication", "a test, an attack or a crafting"),
    "roll": ("les dés", "the dice"), "reroll_dice": ("les dés relancés", "the re-rolled dice"),
    "signatures": ("les signatures (ou garder)", "signatures (or keep)"), "keep": ("les dés gardés", "the kept dice"),
    "defence": ("la défense", "the defence"),
}


def describe(state: ShayoState, lang: str = "fr") -> str:
    fr = lang == "fr"
    lines = ["Shayo"]
    gp = group_pool(state)
    lines.append(("Réserve de groupe" if fr else "Group pool") + f" : {group_left(state)}/{gp}")
    labels = state.options["life_lines"]
    for ch in state.characters.values():
        line = life_line(ch)
        lab = labels[line].get(lang, "") if line < len(labels) else ""
        lines.append(f"- {ch.name}{' : ' if fr else ': '}Ki {ch.personal_left}/{ch.personal_pool}, "
                     + ("santé" if fr else "health") + f" {ch.damage}/{ch.health_boxes} ({lab})"
                     + (f", {ch.grave_wounds} " + ("blessure(s) grave(s)" if fr else "grave wound(s)") if ch.grave_wounds else ""))
    for o in state.objects.values():
        quality = _QUALITY_WORDS.get(o.quality, (o.quality, o.quality))[0 if fr else 1]
        lines.append(f"* {o.name}{' : ' if fr else ': '}{quality}, {o.pc} PC" + (", cassé" if o.broken and fr else ", broken" if o.broken else ""))
    if state.last:
        m = state.last.get("meaning", {})
        lines.append(("Dernier résultat" if fr else "Last outcome") + f" : {m.get(lang, '')}")
        if state.last.get("dice") is not None:
            kept = ", ".join(map(str, state.last.get("kept_values") or [])) or "-"
            dice = ", ".join(map(str, state.last["dice"])) or "-"
            lines.append((f"Dés : {dice} ; gardés : {kept}" if fr else f"Dice: {dice}; kept: {kept}"))
    e = expects(state)
    step = _STEP_WORDS.get(e["step"], (e["step"], e["step"]))[0 if fr else 1]
    lines.append(("Attendu : " if fr else "Expecting: ") + step
                 + (f" ({e['dice'][0]['count']}d10, " + ("garder" if fr else "keep") + f" {e['keep']}, SD {e['difficulty']})"
                    if e["step"] == "roll" else f" ({e['text']['fr' if fr else 'en']})" if e["step"] == "reroll_dice" else ""))
    return "\n".join(lines)
