"""The Shayo game: events in, state and explained outcomes out (see docs/events-shayo.md).

Every event type is ``shayo.<verb>``; :data:`HANDLERS` maps each verb to a pure function
``(state, event, rng) -> (state, outcomes)``. After each event :func:`_settle` moves the
open test forward as far as the rules allow without a human: a test with nothing to roll
counts 0 (A5); rolled dice with no signature that could still help are kept (best keep,
option ``auto_keep``) and counted; the count goes to the test's owner (a plain test, an
attack exchange, a crafting project).

Corrections: the state keeps the state before the last roll (``base``) and the events
since (``chain``: the roll, then signatures, keep, defence choices). ``shayo.correct``
re-folds that chain with the corrected dice, so everything that followed from the roll is
recomputed; if a later choice no longer fits the corrected dice, the correction is
refused with the reason.
"""

from __future__ import annotations

import random

from typing import Any, Callable, Mapping

from ...errors import CompanionError, EventError, RuleError
from ...events import Event, Source
from ..base import Outcome, text, de
from . import combat, crafting
from .dice import Count
from .options import check_options, default_options
from .sheet import character_from_json, edit_character
from .state import ShayoState, Test, character, forbid_in_bought_action, pay_ki, refund_ki
from .testflow import (choose_keep, declare_ki, declare_signature, enter_roll, explain, parse_dice, reroll_mode,
                       reroll_text, resolve_empty, start_test, test_label, usable, use_signature, withdraw_signature)

from .values import evolve
from .camera import CAMERA
from .expects import STEPS as EXPECTS_STEPS
__all__ = ["ShayoGame", "GAME"]

Handler = Callable[[ShayoState, Event, random.Random], tuple[ShayoState, list[Outcome]]]
_CHAIN = frozenset({"signature", "signature_declare", "signature_cancel", "keep", "defend", "no_defence"})


# -- characters and Ki ----------------------------------------------------------------------
def _boxes(state: ShayoState) -> tuple[int, ...]:
    return tuple(int(line["boxes"]) for line in state.options["life_lines"])


def _character(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    ch = character_from_json(ev.data, _boxes(state))
    if ch.name in state.characters:
        raise RuleError(f"{ch.name} already exists: edit the sheet with shayo.edit_character", rule="R1")
    state = state.with_character(ch)
    return state, [Outcome("character.created", text(
        f"Fiche {de(ch.name)} créée : réserve de Ki personnelle {ch.personal_pool}.",
        f"{ch.name}'s sheet created: personal Ki pool {ch.personal_pool}."), ch.to_json())]


def _edit_character(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    ch = character(state, ev.data.get("name"), rule="R1")
    changes = {k: v for k, v in ev.data.items() if k != "name"}
    new = edit_character(ch, changes)
    return state.with_character(new), [Outcome("character.edited", text(
        f"Fiche {de(ch.name)} modifiée.", f"{ch.name}'s sheet edited."), new.to_json())]


def _remove_character(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    ch = character(state, ev.data.get("name"), rule="R1")
    if state.test is not None and state.test.who == ch.name:
        raise RuleError(f"{ch.name} has a test open", rule="R3")
    chars = dict(state.characters)
    del chars[ch.name]
    return evolve(state, characters=chars), [Outcome("character.removed", text(
        f"{ch.name} quitte la table.", f"{ch.name} leaves the table."), {"name": ch.name})]


def _refresh_ki(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    """Pool refresh is not described in the source: the GM says when (A7)."""
    who = ev.data.get("who")
    names = [character(state, who).name] if who is not None else list(state.characters)
    chars = dict(state.characters)
    for n in names:
        chars[n] = evolve(chars[n], ki_spent=0)
    group = bool(ev.data.get("group", who is None))
    state = evolve(state, characters=chars, group_spent=0 if group else state.group_spent)
    return state, [Outcome("ki.refreshed", text(
        f"Ki rechargé : {', '.join(names) or 'personne'}" + (" et réserve de groupe" if group else "") + ".",
        f"Ki refreshed: {', '.join(names) or 'nobody'}" + (" and the group pool" if group else "") + "."),
        {"who": names, "group": group})]


_USES = ("manoeuvre", "spell", "extra_action", "other")


def _spend_ki(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    """R6.2–4: Ki outside a test's dice (uncapped by INS); R7 surpassing oneself."""
    d = ev.data
    who = character(state, d.get("who")).name
    use = d.get("use", "other")
    if use == "improve":
        raise RuleError("Ki for extra dice is declared with the test (R3 step 2): use 'ki' in shayo.test or shayo.ki", rule="R6")
    if use not in _USES:
        raise EventError(f"'use' must be one of {', '.join(_USES)}")
    amount = d.get("amount", combat.EXTRA_ACTION_KI if use == "extra_action" else None)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise EventError("'amount' must be a positive number of Ki")
    if use == "extra_action" and amount != combat.EXTRA_ACTION_KI:
        raise RuleError(f"an extra action costs {combat.EXTRA_ACTION_KI} Ki", rule="R6")
    if use in ("manoeuvre", "spell"):
        forbid_in_bought_action(state, who, "manoeuvre" if use == "manoeuvre" else "spell")
    state, paid = pay_ki(state, who, amount, d.get("from"), bool(d.get("surpass", False)))
    if use == "extra_action":
        state = combat.buy_extra_action(state, who)
    label = d.get("name") if isinstance(d.get("name"), str) else use
    paid_fr = ", ".join(f"{v} {dict(personal='perso', group='groupe', health='case(s) de santé')[k]}" for k, v in paid.items())
    paid_en = ", ".join(f"{v} {dict(personal='personal', group='group', health='health box(es)')[k]}" for k, v in paid.items())
    fr = f"{who} dépense {amount} Ki ({label}) : {paid_fr}."
    en = f"{who} spends {amount} Ki ({label}): {paid_en}."
    if use == "extra_action":
        fr += " Action supplémentaire : ni manœuvre ni sort."
        en += " Extra action: no manoeuvre and no spell."
    if "health" in paid:
        fr += " Se dépasser !"
        en += " Surpassing oneself!"
    return state, [Outcome("ki.spent", text(fr, en), {"who": who, "use": use, "amount": amount, "paid": paid})]


def _health(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    ch = character(state, ev.data.get("who"), rule="R16")
    boxes = ev.data.get("boxes")
    if not isinstance(boxes, int) or isinstance(boxes, bool) or boxes == 0:
        raise EventError("'boxes' must be a non-zero integer (positive ticks, negative heals)")
    if boxes > 0:
        state, info = combat.apply_damage(state, ch.name, boxes)
        outs = [Outcome("health.damage", text(
            f"{ch.name} : {info['boxes']} case(s) cochée(s), {info['line_label']['fr']}.",
            f"{ch.name}: {info['boxes']} box(es) ticked, {info['line_label']['en']}."), info)]
        if info["grave_wound"]:
            outs.append(Outcome("grave_wound", text(f"Blessure grave pour {ch.name} !", f"Grave wound for {ch.name}!"), info))
        return state, outs
    new = evolve(ch, damage=max(0, ch.damage + boxes))
    return state.with_character(new), [Outcome("health.heal", text(
        f"{ch.name} récupère {ch.damage - new.damage} case(s).", f"{ch.name} recovers {ch.damage - new.damage} box(es)."),
        {"who": ch.name, "damage": new.damage})]


# -- the test --------------------------------------------------------------------------------
def _test(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    if state.exchange is not None or state.project is not None:
        raise RuleError("an attack or a crafting work is in progress: finish or cancel it first", rule="R3")
    state = start_test(state, ev.data, "test")
    t = state.test
    assert t is not None
    return state, [Outcome("test.declared", text(
        f"Test {de(test_label(t))}, difficulté {t.difficulty} : lancez {t.rolled}d10, gardez {t.keep}.",
        f"Test of {test_label(t, 'en')}, difficulty {t.difficulty}: roll {t.rolled}d10, keep {t.keep}."),
        {"rolled": t.rolled, "keep": t.keep, "difficulty": t.difficulty, "ki_paid": dict(t.ki_paid)})]


def _ki(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    state = declare_ki(state, ev.data)
    t = state.test
    assert t is not None
    return state, [Outcome("test.ki", text(
        f"Ki déclaré : +{t.ki_rolled} dé(s) lancé(s), +{t.ki_kept} gardé(s) : lancez {t.rolled}d10, gardez {t.keep}.",
        f"Ki declared: +{t.ki_rolled} die/dice rolled, +{t.ki_kept} kept: roll {t.rolled}d10, keep {t.keep}."),
        {"rolled": t.rolled, "keep": t.keep, "paid": dict(t.ki_paid)})]


def _roll(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    dice = parse_dice(ev.data.get("dice"))
    state = enter_roll(state, dice)
    how = {"camera": ("lus par la caméra", "read by the camera"), "correction": ("corrigés", "corrected")}.get(
        ev.source.value, ("saisis", "entered"))
    shown = " ".join(str(v) for v in dice)
    return state, [Outcome("roll", text(f"Dés {how[0]} : {shown}", f"Dice {how[1]}: {shown}"),
                           {"dice": list(dice), "source": ev.source.value})]


def _signature(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    state = use_signature(state, ev.data, rng, ev.source)
    t = state.test
    assert t is not None
    note = t.notes[-1]
    return state, [Outcome("signature", text(
        f"Signature « {note['fr']} » : {note['before']} → {note['after']}",
        f"Signature \"{note['en']}\": {note['before']} → {note['after']}"), dict(note))]


def _signature_declare(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    state = declare_signature(state, ev.data)
    t = state.test
    assert t is not None and t.awaiting is not None
    w = t.awaiting
    roll = reroll_text(w, state.options["tens_reroll"])
    return state, [Outcome("signature.declared", text(
        f"Signature « {w.signature.fr} » déclarée. {roll['fr']}.",
        f"Signature \"{w.signature.en}\" declared. {roll['en']}."),
        {"signature": w.signature.id, "dice": list(w.dice), "count": len(w.dice),
         "mode": reroll_mode(w.signature, state.options["tens_reroll"])})]


def _signature_cancel(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    state, w = withdraw_signature(state, ev.data)
    return state, [Outcome("signature.withdrawn", text(
        f"Relance « {w.signature.fr} » retirée : la signature reste disponible.",
        f"Re-roll \"{w.signature.en}\" withdrawn: the signature is still available."), {"signature": w.signature.id})]


def _keep(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    st, test, c = choose_keep(state, ev.data.get("dice"))
    return _route(st, test, c)


def _cancel(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    """Drop the open test, attack or crafting work. Ki declared for dice not yet rolled is
    given back [Decision]; Ki of a rolled test stays spent."""
    if state.test is None and state.exchange is None and state.project is None:
        raise RuleError("nothing to cancel", rule="R3")
    t = state.test
    if t is not None and t.dice is None and t.who is not None and t.ki_paid:
        state = refund_ki(state, t.who, t.ki_paid)
    return evolve(state, test=None, exchange=None, project=None), [Outcome("cancelled", text(
        "Action annulée.", "Action cancelled."), {})]


def _meaning_test(t: Test, c: Count) -> dict[str, str]:
    lost = f", {c.cancelled} annulé(s) par les 1" if c.cancelled else ""
    lost_en = f", {c.cancelled} cancelled by 1s" if c.cancelled else ""
    if c.net >= t.required:
        return text(
            f"Réussite : {c.successes} succès{lost}, {c.net} net(s) (il en faut {t.required}).",
            f"Success: {c.successes} successes{lost_en}, {c.net} net (needs {t.required}).")
    return text(
        f"Échec : {c.successes} succès{lost}, {c.net} net(s) (il en faut {t.required}).",
        f"Failure: {c.successes} successes{lost_en}, {c.net} net (needs {t.required}).")


def _route(state: ShayoState, test: Test, c: Count) -> tuple[ShayoState, list[Outcome]]:
    """Give a counted test to its owner."""
    if test.kind in ("attack", "defence", "damage"):
        return combat.resolved(state, test, c)
    if test.kind in ("craft", "improve"):
        return crafting.resolved(state, test, c)
    meaning = _meaning_test(test, c)
    kind = "test.success" if c.net >= test.required else "test.failure"
    dice = test.dice or ()
    data = {**c.to_json(), "kept_values": [dice[i] for i in c.kept], "required": test.required,
            "success": c.net >= test.required}
    return evolve(state, last=explain(test, c, meaning)), [Outcome(kind, meaning, data)]


def _settle(state: ShayoState) -> tuple[ShayoState, list[Outcome]]:
    outs: list[Outcome] = []
    for _ in range(1000):  # each pass closes a test; crafting may open the next period
        t = state.test
        if t is None:
            break
        if t.awaiting is not None:
            break  # a declared re-roll waits for its dice
        if t.dice is None:
            if t.rolled == 0 or (t.keep == 0 and not t.keep_all):
                st, test, c = resolve_empty(state)
                state, more = _route(st, test, c)
                outs.extend(more)
                continue
            break
        if usable(t, state.options["tens_reroll"], state.options["ones_scope"]) or not state.options["auto_keep"]:
            break
        st, test, c = choose_keep(state, None)
        state, more = _route(st, test, c)
        outs.extend(more)
    return state, outs


# -- combat and crafting -------------------------------------------------------------------
def _attack(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
    if state.test is not None or state.project is not None:
        raise RuleError("finish (or cancel) the test or work in progress first", rule="R13")
    return combat.attack(state, ev.data)


def _wrap(fn: Callable[..., tuple[ShayoState, list[Outcome]]], with_data: bool = True) -> Handler:
    def handler(state: ShayoState, ev: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
        return fn(state, ev.data) if with_data else fn(state)
    return handler


def _pin_rolled(chain: tuple[Event, ...], state: ShayoState) -> tuple[Event, ...]:
    """``chain`` with each re-roll the companion rolled itself given the faces it rolled
    then (kept in the test's notes), so that re-folding after a correction does not roll
    them again: a correction changes the corrected dice, nothing else."""
    notes = state.test.notes if state.test else (state.last or {}).get("signatures", ())
    rolled = [n for n in notes if isinstance(n, Mapping) and "rolled" in n]
    out = []
    for ev in chain:
        if ev.type.endswith(".signature") and ev.source == Source.SYSTEM and "values" not in ev.data and rolled:
            ev = Event(ev.type, {**ev.data, "values": rolled.pop(0)["rolled"]}, ev.source, ev.seq, ev.at, ev.by)
        out.append(ev)
    return tuple(out)


def _reroll_at(chain: tuple[Event, ...], sid: Any) -> int:
    """Where in ``chain`` (the last roll and what followed) the re-roll of signature
    ``sid`` got its new faces, given (typed or read) rather than rolled by the companion."""
    declared = None
    for i, ev in enumerate(chain):
        verb = ev.type.split(".", 1)[-1]
        if verb == "signature_declare":
            declared = ev.data.get("signature")
        elif verb == "signature_cancel":
            declared = None
        elif verb == "signature":
            if (ev.data.get("signature") or declared) == sid and "values" in ev.data:
                return i
            declared = None
    raise RuleError(f"signature {sid!r} re-rolled no die with given faces since the last roll: nothing to correct", rule="R3")


def _corrected(before: list[int], d: Mapping[str, Any], key: str) -> list[int]:
    """``before`` with the correction ``d``: every value (``d[key]``), or ``index`` and ``value``."""
    if key in d:
        after = list(parse_dice(d[key], key))
        if len(after) != len(before):
            raise EventError(f"the correction gives {len(after)} value(s) for {len(before)}")
        return after
    if "index" in d and "value" in d:
        i = d["index"]
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(before):
            raise EventError(f"'index' must be a die position 0-{len(before) - 1}")
        after = list(before)
        after[i] = parse_dice([d["value"]], "value")[0]
        return after
    raise EventError(f"a correction gives '{key}' (all values) or 'index' and 'value'")


HANDLERS: Mapping[str, Handler] = {
    "character": _character,
    "edit_character": _edit_character,
    "remove_character": _remove_character,
    "refresh_ki": _refresh_ki,
    "spend_ki": _spend_ki,
    "health": _health,
    "test": _test,
    "ki": _ki,
    "roll": _roll,
    "signature": _signature,
    "signature_declare": _signature_declare,
    "signature_cancel": _signature_cancel,
    "keep": _keep,
    "cancel": _cancel,
    "initiative": _wrap(combat.initiative),
    "next_action": _wrap(combat.next_action, False),
    "attack": _attack,
    "defend": _wrap(combat.defend),
    "no_defence": _wrap(combat.no_defence, False),
    "craft": _wrap(crafting.craft),
    "improve": _wrap(crafting.improve),
    "use_improvement": _wrap(crafting.use_improvement),
    "end": _wrap(crafting.end),
}


class ShayoGame:
    """Shayo (roll-and-keep d10): tests, Ki, signatures, combat, crafting."""

    name = "shayo"
    title = {"fr": "Shayo", "en": "Shayo"}
    #: What ``expects`` may be (the JSON schema's step classes) and the camera plug-in.
    expects_steps = EXPECTS_STEPS
    camera = CAMERA

    def default_options(self) -> dict[str, Any]:
        return default_options()

    def new_state(self, options: Mapping[str, Any], rng: random.Random) -> ShayoState:
        return ShayoState(options=check_options(options))

    def apply(self, state: ShayoState, event: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
        verb = event.type.split(".", 1)[1] if "." in event.type else ""
        if verb == "correct":
            return self._correct(state, event, rng)
        handler = HANDLERS.get(verb)
        if handler is None:
            raise EventError(f"unknown Shayo event {event.type!r}; known: "
                             + ", ".join(f"shayo.{v}" for v in [*HANDLERS, "correct"]))
        new, outs = handler(state, event, rng)
        new, more = _settle(new)
        outs = outs + more
        if verb == "roll":
            new = evolve(new, base=state, chain=(event,))
        elif verb in _CHAIN and state.base is not None:
            new = evolve(new, base=state.base, chain=state.chain + (event,))
        else:
            new = evolve(new, base=None, chain=())
        return new, outs

    def _correct(self, state: ShayoState, event: Event, rng: random.Random) -> tuple[ShayoState, list[Outcome]]:
        """Replace the dice of the last roll (or the new faces of one of its re-rolls,
        ``signature``) and re-fold what followed it."""
        if state.base is None or not state.chain:
            raise RuleError("there is no roll to correct here (shayo.correct fixes the roll in progress); to correct an"
                            " earlier roll, send it again with 'corrects' (its number: the tablet's photo correction"
                            " does this) and what followed is worked out again", rule="R3")
        d = event.data
        at, key = (_reroll_at(state.chain, d["signature"]), "values") if "signature" in d else (0, "dice")
        target = state.chain[at]
        before = list(target.data.get(key, []))
        after = _corrected(before, d, key)
        fixed = Event(target.type, {**target.data, key: after}, Source.CORRECTION, target.seq, target.at, target.by)
        chain = _pin_rolled(state.chain[:at] + (fixed,) + state.chain[at + 1:], state)
        try:
            new, outs = self.apply(state.base, chain[0], rng)
            for ev in chain[1:]:
                new, more = self.apply(new, ev, rng)
                outs = outs + more
        except CompanionError as exc:
            raise RuleError(f"this correction conflicts with a later choice ({exc}); undo that choice first", rule="R3") from None
        shown = f"{' '.join(map(str, before))} → {' '.join(map(str, after))}"
        what = text("Correction : ", "Correction: ") if at == 0 else text(
            f"Correction de la relance ({d['signature']}) : ", f"Correction of the re-roll ({d['signature']}): ")
        head = Outcome("correction", text(what["fr"] + shown, what["en"] + shown),
                       {"before": before, "after": after, **({"signature": d["signature"]} if at else {})})
        return new, [head] + outs

    # -- output -------------------------------------------------------------------------
    def state_json(self, state: ShayoState) -> dict[str, Any]:
        from .view import state_to_json

        return state_to_json(state)

    def describe(self, state: ShayoState, lang: str = "fr") -> str:
        from .view import describe

        return describe(state, lang)


GAME = ShayoGame()
