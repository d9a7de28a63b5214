"""What the Wuxia table waits for (``state_json()["expects"]``), one class per step.

- a pool to roll: :class:`Roll` (``roll``; ``reroll_dice``: the dice chosen for a
  re-roll; ``extra_dice``: Destiny Dice added to the pool), with its odds;
- a fight: :class:`Initiative` (the split of the initiative successes), :class:`Defend`,
  :class:`Invest` (the attack's extra successes), :class:`Action` (who acts next);
- a rolled test that may still be re-rolled: :class:`Reroll` (also listed as
  ``optional`` beside a fight's step);
- nothing open: :class:`Idle` (``test``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

from ...errors import RuleError
from ..expects import DiceWanted, Step, _omit, optional
from . import combat as cb
from .flow import odds_json, result_of
from .odds import contest_odds, opposed_odds
from .state import PoolTest, WuxiaState

__all__ = ["Roll", "ContestOdds", "Reroll", "Initiative", "Defend", "Invest", "Action", "Idle", "WuxiaStep",
           "expects_of", "STEPS"]


@dataclass(frozen=True)
class ContestOdds(Step):
    """A competition's odds before its pools are rolled (R10): each one's chance to win."""

    wins: Mapping[str | None, float]
    tie: float
    nobody: float


@dataclass(frozen=True)
class Roll(Step):
    """A pool waits for its dice (``test``: its index in ``state.tests``). ``odds`` before
    the first roll; ``attack_odds`` / ``contest_odds`` while an attack or a competition
    is not rolled yet; ``indices``: the pool positions re-rolled (a re-roll)."""

    step: Literal["roll", "reroll_dice", "extra_dice"]
    who: str | None
    test: int
    dice: tuple[DiceWanted, ...]
    odds: Mapping[str, Any] | None = optional()
    attack_odds: Mapping[str, Any] | None = optional()
    contest_odds: ContestOdds | None = optional()
    indices: tuple[int, ...] | None = optional()


@dataclass(frozen=True)
class Reroll(Step):
    """A rolled test that may be re-rolled (``choices``: the positions allowed, ``max``:
    how many re-rolls are left). ``also`` is ``"test"`` when nothing else is open."""

    step: Literal["reroll"]
    who: str | None
    test: int
    max: int
    choices: tuple[int, ...]
    optional: bool = True
    also: Literal["test"] | None = _omit()


@dataclass(frozen=True)
class Initiative(Step):
    """The fighters in ``who`` split their initiative ``successes`` (R12)."""

    step: Literal["initiative"]
    who: tuple[str, ...]
    successes: Mapping[str, int | None]
    choices: tuple[str, ...]
    optional: tuple[Reroll, ...]


@dataclass(frozen=True)
class Defend(Step):
    """The defender chooses their Defence Dice (at most ``max_defence``) and group dice."""

    step: Literal["defend"]
    who: str
    max_defence: int
    max_group: int
    optional: tuple[Reroll, ...]


@dataclass(frozen=True)
class Invest(Step):
    """The attacker invests ``extra`` successes among ``choices``."""

    step: Literal["invest"]
    who: str
    extra: int
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Action(Step):
    """The next fighter in ``order`` acts."""

    step: Literal["action"]
    who: str | None
    order: tuple[str, ...]
    optional: tuple[Reroll, ...]


@dataclass(frozen=True)
class Idle(Step):
    """Nothing is open: a test, a competition or a fight may start."""

    step: Literal["test"] = "test"
    who: None = None


WuxiaStep = Roll | Reroll | Initiative | Defend | Invest | Action | Idle
STEPS = (Roll, Reroll, Initiative, Defend, Invest, Action, Idle)


def _attack_odds(state: WuxiaState) -> dict[str, Any]:
    """Exact odds of the attack about to be rolled, assuming the defender spends all
    their Defence Dice (R14, W11; critical attackers lose per ``contest_critical_loses``)."""
    opts = state.options
    ta, td = state.tests
    combat = state.combat
    at = combat.attack if combat is not None else None
    dfn = combat.fighter(at.defender) if combat is not None and at is not None else None
    dd = dfn.defence_dice if dfn else 0
    o = opposed_odds(ta.dice, ta.threshold, td.dice, td.threshold, dd, rule=opts["threshold_rule"],
                     extra=opts["attack_extra"], critical_loses=opts["contest_critical_loses"])
    return {"attacker_wins": float(o["attacker_wins"]), "tie": float(o["tie"]),
            "defender_holds": float(o["defender_holds"]), "defence_dice": dd,
            "extra_successes": {str(k): float(v) for k, v in o["extra_successes"].items()}}


def _contest_odds(state: WuxiaState) -> ContestOdds:
    opts = state.options
    c = contest_odds([(x.dice, x.threshold) for x in state.tests], score=opts["contest_score"],
                     critical_loses=opts["contest_critical_loses"], rule=opts["threshold_rule"])
    return ContestOdds({x.who: float(p) for x, p in zip(state.tests, c["wins"])}, float(c["tie"]),
                       float(c["nobody"]))


def _roll(state: WuxiaState, i: int, t: PoolTest) -> Roll:
    step: Literal["roll", "reroll_dice", "extra_dice"] = (
        "roll" if t.faces is None else ("reroll_dice" if t.pending else "extra_dice"))
    unrolled = all(x.faces is None for x in state.tests)
    contest = state.mode == "contest" and unrolled and len(state.tests) <= 6
    return Roll(step, t.who, i, (DiceWanted("d10", count=t.waiting_dice),),
                odds=odds_json(t, state.options) if t.faces is None else None,
                attack_odds=_attack_odds(state) if state.mode == "attack" and unrolled else None,
                contest_odds=_contest_odds(state) if contest else None,
                indices=None if contest else tuple(t.pending))


def _rerolls(state: WuxiaState) -> tuple[Reroll, ...]:
    opts = state.options
    hints = []
    for i, t in enumerate(state.tests):
        res = result_of(t, opts)
        if res is None or t.closed or not t.rerolls_left:
            continue
        choices = tuple(j for j, c in enumerate(res.classes)
                        if (c != "success" or not opts["reroll_only_failed"] or t.destiny_rerolls > t.destiny_rerolls_used)
                        and not (opts["reroll_once"] and j in t.rerolled))
        if choices:
            hints.append(Reroll("reroll", t.who, i, t.rerolls_left, choices))
    return tuple(hints)


def _fight(state: WuxiaState, hints: tuple[Reroll, ...]) -> WuxiaStep | None:
    combat = state.combat
    if combat is None:
        return None
    if combat.phase == "allocate":
        waiting = tuple(f.name for f in combat.fighters if not f.allocated and f.init_successes)
        return Initiative("initiative", waiting,
                          {f.name: f.init_successes for f in combat.fighters if f.name in waiting},
                          ("initiative", "actions", "defence"), hints)
    at = combat.attack
    if at is not None and at.phase in ("defend", "invest"):
        f = combat.fighter(at.defender if at.phase == "defend" else at.attacker)
        if f is None:
            raise RuleError(f"the attack names a fighter who is not in the fight ({at.defender}, {at.attacker})")
        if at.phase == "defend":
            return Defend("defend", at.defender, f.defence_dice, len(cb._group_usable(combat, f, state.options)), hints)
        return Invest("invest", at.attacker, at.extra,
                      ("defence", "group", *cb.MANOEUVRES, *(("soul",) if f.weapon_soul else ())))
    if combat.phase == "actions":
        return Action("action", cb.next_actor(state), tuple(f.name for f in combat.order()), hints)
    return None


def expects_of(state: WuxiaState) -> WuxiaStep:
    """The step the table waits for (see the module docstring)."""
    for i, t in enumerate(state.tests):
        if t.waiting_dice:
            return _roll(state, i, t)
    hints = _rerolls(state)
    fight = _fight(state, hints)
    if fight is not None:
        return fight
    if hints:
        h = hints[0]
        return Reroll(h.step, h.who, h.test, h.max, h.choices, h.optional, also="test")
    return Idle()
