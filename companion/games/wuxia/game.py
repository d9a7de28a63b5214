"""The Wuxia game: events in, state and explained outcomes out (pure).

Event types (all ``wuxia.*``; full reference in ``docs/events-wuxia.md``):

- sheets: ``character_new``, ``character_edit``, ``character_remove``;
- play counters: ``wound``, ``panic``, ``chi``, ``destiny`` (award), ``destiny_spend``;
- tests: ``test`` (start), ``roll`` (the dice the step waits for, camera or hand),
  ``correct`` (fix dice already entered), ``reroll`` (choose dice, optionally with their
  new faces), ``accept`` (close the test: no more re-rolls);
- competition: ``contest`` (R10);
- combat: ``combat_start``, ``initiative``, ``attack``, ``defend``, ``invest``,
  ``action``, ``next_round``, ``combat_end``.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from ...errors import EventError, RuleError
from ...events import Event
from ..base import Outcome, percent, text
from . import combat as cb
from .flow import (
    choose_reroll,
    correct_dice,
    dice_from_read,
    enter_dice,
    explain,
    make_test,
    odds_json,
    pool_json,
    result_of,
    settled,
)
from .options import DEFAULT_OPTIONS, check_options
from .sheet import fold_name, secondary, sheet_json
from .sheet_events import SHEET_HANDLERS, Handler, _char, _int
from .state import PoolTest, WuxiaState
from .state import evolve as replace
from .camera import CAMERA
from .expects import STEPS as EXPECTS_STEPS
from .expects import expects_of

__all__ = ["WuxiaGame", "GAME"]


# -- tests ------------------------------------------------------------------------
def _close_all(state: WuxiaState) -> WuxiaState:
    if state.mode == "initiative" or (state.combat is not None and state.combat.attack is not None):
        raise RuleError("the fight waits for its own dice: finish the initiative or the attack first", rule="R13")
    return replace(state, tests=(), mode="none", extra={})


def _start_test(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    state = _close_all(state)
    who = data.get("who")
    c = _char(state, who) if who is not None else None
    t = make_test(data, c, state.options)
    state = replace(state, mode="test", tests=(t,))
    odds = odds_json(t, state.options)
    name = f"{t.who} : " if t.who else ""
    name_en = f"{t.who}: " if t.who else ""
    extra_fr = f", {t.rerolls} relance(s) (spécialisation)" if t.rerolls else ""
    extra_en = f", {t.rerolls} re-roll(s) (specialisation)" if t.rerolls else ""
    msg = text(
        f"{name}test à {t.dice} d10, SR {t.sr} − compétence {t.competence} = seuil {t.threshold}{extra_fr}."
        f" Chances : réussite {percent(odds['success'])}, échec critique {percent(odds['critical_failure'])}.",
        f"{name_en}test with {t.dice} d10, SR {t.sr} − skill {t.competence} = threshold {t.threshold}{extra_en}."
        f" Odds: success {percent(odds['success'], 'en')}, critical failure {percent(odds['critical_failure'], 'en')}.",
    )
    return state, [Outcome("test.start", msg, {"test": pool_json(t, state.options), "odds": odds})]


def _start_contest(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    state = _close_all(state)
    raw = data.get("participants")
    if not isinstance(raw, list) or len(raw) < 2:
        raise EventError("'participants' must list at least two tests {who, attribute, skill|competence, sr}")
    sr = _int(data.get("sr", 10), "sr")
    tests: list[PoolTest] = []
    for p in raw:
        if not isinstance(p, Mapping):
            raise EventError("each participant is an object {who, attribute, skill|competence, sr}")
        c = _char(state, p.get("who"))
        if any(t.who == c.name for t in tests):
            raise EventError(f"{c.name} is listed twice")
        tests.append(make_test(p, c, state.options, default_sr=sr))
    label = data.get("label", "")
    if not isinstance(label, str):
        raise EventError("label must be a text")
    state = replace(state, mode="contest", tests=tuple(tests), extra={"label": label})
    names = ", ".join(t.who or "?" for t in tests)
    return state, [Outcome("contest.start", text(f"Compétition : {names}. Chacun lance son test.",
                                                  f"Competition: {names}. Everyone rolls a test."), {"who": [t.who for t in tests]})]


def _target(state: WuxiaState, data: Mapping[str, Any], want: Callable[[PoolTest], bool], what: str) -> int:
    if not state.tests:
        raise RuleError("no test in progress: start one with wuxia.test", rule="R7")
    who = data.get("who")
    if who is not None:
        if not isinstance(who, str):
            raise EventError("'who' must name a character")
        for i, t in enumerate(state.tests):
            if t.who is not None and fold_name(t.who) == fold_name(who):
                return i
        raise RuleError(f"{who} has no pool in the current action", rule="R7")
    for i, t in enumerate(state.tests):
        if want(t):
            return i
    raise RuleError(f"no pool waits for {what}", rule="R7")


def _resolve(state: WuxiaState, i: int) -> tuple[WuxiaState, list[Outcome]]:
    """The outcomes once dice changed in pool ``i``: that pool explained, then whatever
    the action concludes (competition result, initiative, attack)."""
    t = state.tests[i]
    outs: list[Outcome] = []
    if t.waiting_dice:
        k = t.waiting_dice
        who_fr = f"{t.who} : " if t.who else ""
        outs.append(Outcome("test.waiting", text(f"{who_fr}encore {k} d10 à lancer.", f"{t.who + ': ' if t.who else ''}{k} more d10 to roll."),
                            {"who": t.who, "dice": k}))
        return state, outs
    res = result_of(t, state.options)
    assert res is not None
    expl = explain(t, res, state.options)
    kind = {"success": "test.success", "failure": "test.failure", "critical": "test.critical_failure"}[res.outcome]
    if t.label == "initiative" and res.outcome == "critical" and not state.options["initiative_can_crit"]:
        kind = "test.failure"  # W10: an Initiative test only yields 0 successes
        expl = text(f"{t.who} : plus de 1 que de succès — pour l'Initiative, cela donne simplement 0 succès (W10).",
                    f"{t.who}: more 1s than successes — for Initiative that simply gives 0 successes (W10).")
    outs.append(Outcome(kind, expl, {"who": t.who, **res.to_json(), "rerolls_left": t.rerolls_left}))
    state = replace(state, result={"who": t.who, "label": t.label, "sr": t.sr, "competence": t.competence,
                                   **res.to_json(), "text": expl})
    if state.mode == "contest" and settled(state.tests):
        outs.append(_contest_outcome(state))
    if state.combat is not None and state.mode in ("initiative", "attack"):
        state, more = cb.after_dice(state)
        outs += more
    return state, outs


def _contest_outcome(state: WuxiaState) -> Outcome:
    """R10, W7: most successes wins; critical failures cannot win; a tie is a tie."""
    opts = state.options
    scores = []
    for t in state.tests:
        res = result_of(t, opts)
        assert res is not None
        score = res.successes if opts["contest_score"] == "successes" else res.successes - res.ones
        crit = res.outcome == "critical"
        scores.append((t.who, score, crit))
    eligible = [s for s in scores if not (s[2] and opts["contest_critical_loses"])]
    table = {w: sc for w, sc, _c in scores}
    if not eligible:
        return Outcome("contest.none", text("Compétition : tous en échec critique, personne ne l'emporte.",
                                            "Competition: everyone fails critically, nobody wins."), {"scores": table, "winner": None})
    best = max(s[1] for s in eligible)
    top = [s[0] for s in eligible if s[1] == best]
    if len(top) > 1:
        names = " et ".join(str(x) for x in top)
        return Outcome("contest.tie", text(f"Compétition : égalité entre {names} ({best} succès) — au MJ de trancher.",
                                           f"Competition: tie between {' and '.join(str(x) for x in top)} ({best}) — the GM decides."),
                       {"scores": table, "winner": None, "tied": top})
    return Outcome("contest.winner", text(f"Compétition : {top[0]} l'emporte ({best} succès).", f"Competition: {top[0]} wins ({best})."),
                   {"scores": table, "winner": top[0]})


def _roll(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    i = _target(state, data, lambda t: t.waiting_dice > 0, "dice")
    t = state.tests[i]
    if t.closed:
        raise RuleError("this test is over", rule="R7")
    raw = data.get("dice")
    if raw is None and "read" in data:
        raw = dice_from_read(data["read"])
    t = enter_dice(t, raw)
    tests = list(state.tests)
    tests[i] = t
    return _resolve(replace(state, tests=tuple(tests)), i)


def _correct(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    rolled = [i for i, t in enumerate(state.tests) if t.faces]
    if "who" in data:
        i = _target(state, data, lambda t: True, "a correction")
    elif rolled:
        i = rolled[-1]
    else:
        raise RuleError("nothing to correct: no pool has been rolled", rule="R7")
    t = state.tests[i]
    if t.closed:
        raise RuleError("this test is over: to change its dice, send its roll again with 'corrects' (the number of"
                        " that roll: the tablet's photo correction does this) and what followed is worked out"
                        " again; or undo", rule="R7")
    t = correct_dice(t, data)
    tests = list(state.tests)
    tests[i] = t
    return _resolve(replace(state, tests=tuple(tests)), i)


def _reroll(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    wanted = lambda t: t.faces is not None and t.rerolls_left > 0 and not t.closed  # noqa: E731
    if "who" not in data and state.tests and not any(wanted(t) for t in state.tests):
        i = max(i for i, t in enumerate(state.tests) if t.faces is not None or i == 0)  # say why it cannot
    else:
        i = _target(state, data, wanted, "a re-roll")
    t = choose_reroll(state.tests[i], data.get("indices"), state.options)
    tests = list(state.tests)
    tests[i] = t
    state = replace(state, tests=tuple(tests))
    if "dice" in data:
        tests[i] = enter_dice(t, data["dice"])
        return _resolve(replace(state, tests=tuple(tests)), i)
    k = len(t.pending)
    shown = ", ".join(f"n° {x + 1} ({t.faces[x] if t.faces else '?'})" for x in t.pending)
    shown_en = ", ".join(f"#{x + 1} ({t.faces[x] if t.faces else '?'})" for x in t.pending)
    return state, [Outcome("test.reroll", text(f"Relancer {k} dé(s) : {shown}.", f"Re-roll {k} die/dice: {shown_en}."),
                           {"who": t.who, "indices": list(t.pending)})]


def _accept(state: WuxiaState, data: Mapping[str, Any]) -> tuple[WuxiaState, list[Outcome]]:
    if not state.tests:
        raise RuleError("no test in progress", rule="R7")
    if not settled(state.tests):
        raise RuleError("some dice are still awaited", rule="R7")
    state = replace(state, tests=tuple(replace(t, closed=True) for t in state.tests))
    return state, [Outcome("test.accept", text("Résultat retenu.", "Result kept."), {})]


class WuxiaGame:
    """Wuxia (d10 pool against SR − Compétence), per ``rules/wuxia.md``."""

    name = "wuxia"
    title = {"fr": "Wuxia", "en": "Wuxia"}
    #: What ``expects`` may be (the JSON schema's step classes) and the camera plug-in.
    expects_steps = EXPECTS_STEPS
    camera = CAMERA

    _handlers: dict[str, Handler] = {
        **SHEET_HANDLERS,
        "test": _start_test,
        "contest": _start_contest,
        "roll": _roll,
        "correct": _correct,
        "reroll": _reroll,
        "accept": _accept,
        "combat_start": lambda s, d: cb.start_combat(_close_all(s) if s.mode in ("test", "contest") else s, d),
        "initiative": cb.allocate_initiative,
        "attack": cb.start_attack,
        "defend": cb.defend,
        "invest": cb.invest,
        "action": cb.spend_action,
        "next_round": lambda s, d: cb.next_round(s),
        "combat_end": lambda s, d: cb.end_combat(s),
    }

    def default_options(self) -> dict[str, Any]:
        return {k: (v.copy() if isinstance(v, (dict, list)) else v) for k, v in DEFAULT_OPTIONS.items()}

    def new_state(self, options: Mapping[str, Any], rng: random.Random) -> WuxiaState:
        return WuxiaState(options=check_options(options))

    def apply(self, state: WuxiaState, event: Event, rng: random.Random) -> tuple[WuxiaState, list[Outcome]]:
        verb = event.type.split(".", 1)[1] if "." in event.type else ""
        handler = self._handlers.get(verb)
        if handler is None:
            raise EventError(f"unknown Wuxia event {event.type!r}; known: {', '.join('wuxia.' + k for k in self._handlers)}")
        new, outs = handler(state, event.data)
        if outs:
            last = outs[-1].to_json()
            last["seq"] = event.seq
            last["source"] = event.source.value
            new = replace(new, last=last, count=state.count + 1)
        return new, outs

    # -- views ----------------------------------------------------------------------
    def state_json(self, state: WuxiaState) -> dict[str, Any]:
        opts = state.options
        return {
            "characters": [sheet_json(c, opts) for c in state.characters],
            "mode": state.mode,
            "label": state.extra.get("label", "") if state.extra else "",
            "tests": [pool_json(t, opts) for t in state.tests],
            "combat": cb.combat_json(state),
            "expects": self.expects(state),
            "last": dict(state.last) if state.last else None,
            "result": dict(state.result) if state.result else None,
            "manoeuvres": cb.MANOEUVRES,
        }

    def expects(self, state: WuxiaState) -> dict[str, Any]:
        """What the table waits for, as JSON (the step classes: :mod:`.expects`)."""
        return expects_of(state).to_json()

    def describe(self, state: WuxiaState, lang: str = "fr") -> str:
        fr = lang == "fr"
        lines = ["Wuxia"]
        for c in state.characters:
            sec = secondary(c, state.options)
            names = _ATTRIBUTE_WORDS_FR if fr else _ATTRIBUTE_WORDS_EN
            attrs = ", ".join(f"{n} {v}" for n, v in zip(names, c.attributes))
            kind = f" ({c.hero_type})" if c.hero_type else ""
            if fr:
                lines.append(f"- {c.name}{kind} : {attrs} ; blessures {c.wounds}/{sec['death_threshold']},"
                             f" panique {c.panic}, Chi {sec['chi_left']}/{sec['chi']}, Dés de Destinée {c.destiny}")
            else:
                lines.append(f"- {c.name}{kind}: {attrs}; wounds {c.wounds}/{sec['death_threshold']},"
                             f" panic {c.panic}, Chi {sec['chi_left']}/{sec['chi']}, Destiny Dice {c.destiny}")
        if state.combat is not None:
            cj = cb.combat_json(state)
            assert cj is not None
            phase = _PHASE_WORDS.get(cj["phase"], (cj["phase"], cj["phase"]))[0 if fr else 1]
            lines.append((f"Combat, round {cj['round']} ({phase}) : ordre " if fr else
                          f"Fight, round {cj['round']} ({phase}): order ") + ", ".join(cj["order"]))
        for t in state.tests:
            tj = pool_json(t, state.options)
            r = tj["result"]
            head = f"{t.who or '?'} {t.dice}d10 SR {t.sr} − {t.competence} = {t.threshold}"
            if r is None:
                lines.append(head + (" : dés attendus" if fr else ": dice awaited"))
            else:
                lines.append(head + f" {t.faces} → " + r["text"][("fr" if fr else "en")])
        if state.last:
            lines.append(("Dernier : " if fr else "Last: ") + state.last["text"]["fr" if fr else "en"])
        exp = self.expects(state)
        step = _STEP_WORDS.get(exp["step"], (exp["step"], exp["step"]))[0 if fr else 1]
        lines.append(("Attendu : " if fr else "Expects: ") + step + (f" ({exp['who']})" if exp.get("who") else ""))
        return "\n".join(lines)


_ATTRIBUTE_WORDS_FR = ("Métal", "Feu", "Terre", "Eau", "Bois")
_ATTRIBUTE_WORDS_EN = ("Metal", "Fire", "Earth", "Water", "Wood")
_PHASE_WORDS = {"initiative": ("initiative", "initiative"), "actions": ("actions", "actions"),
                "attack": ("attaque", "attack"), "defence": ("défense", "defence")}
_STEP_WORDS = {
    "test": ("un test (ou un combat)", "a test (or a fight)"), "roll": ("les dés", "the dice"),
    "reroll": ("relancer ou accepter", "re-roll or accept"), "initiative": ("la répartition de l'initiative", "the initiative split"),
    "action": ("une action", "an action"), "defend": ("la défense", "the defence"),
    "invest": ("les succès à investir", "the successes to invest"),
}


GAME = WuxiaGame()
