"""The board effects of an Appel's result (R22-R27, R37): removals, the Critical
Failure Prayer, the Success extra gems, the Nymphs' advance, the Critical Success Rupture
removal, and the end of the Appel (unused gems back to the pool).

Events: ``espri.extras``, ``espri.keep_prayer``, ``espri.remove_rupture``.
"""

from __future__ import annotations

import random
from typing import Any

from ...events import Event
from ..base import Outcome
from . import board as B
from .common import (
    Handled, candidates, current_appel, gem_name, gems_text, get_gems, moves_text, need_step, out, refuse, season_first, where_text,
)
from .state import BS, CF, CS, F, NYMPHS, RESULTS, SEASONS, EspriState, check_gem, check_season, pool_add, pool_take, replace

__all__ = ["resolve", "extras", "keep_prayer", "remove_rupture"]


def resolve(state: EspriState, level: int, outs: list[Outcome], rng: random.Random) -> Handled:
    """R22: the board modification of the result (exactly once)."""
    a = current_appel(state)
    rec = dict(a.record)
    rec["result"] = RESULTS[level]
    leader = state.char(a.leader)
    a = replace(a, result=level, record=rec)
    state = replace(state, appel=a)
    if level in (CF, F):
        k = leader.score(a.season)  # E13: the unmodified Called Season score
        board, removed, moves = B.remove_from_centre(state.board, a.season, k)
        pool = pool_add(state.pool, [r["gem"] for r in removed])
        if level == CF:
            board, m2 = B.nymph_to_start(board, leader.nymph_for(a.season))
            moves = moves + m2
        rec = dict(a.record)
        rec["removals"] = list(rec["removals"]) + [dict(r, why="failure") for r in removed]
        rec["moves"] = list(rec["moves"]) + moves
        a = replace(a, record=rec, removed=tuple(r["gem"] for r in removed))
        state = replace(state, board=board, pool=pool, appel=a)
        outs.append(out("board", f"Retirées du chemin {gem_name(a.season, 'fr')} : "
                        f"{gems_text([r['gem'] for r in removed], 'fr')}." + moves_text(moves, "fr"),
                        f"Removed from the {gem_name(a.season, 'en')} path: "
                        f"{gems_text([r['gem'] for r in removed], 'en')}." + moves_text(moves, "en"),
                        removals=removed, moves=moves))
        if level == CF and removed and len(leader.prayers) < leader.devotion:
            state = replace(state, appel=replace(a, step="keep_prayer"))
            outs.append(out("keep_prayer_wait", f"{leader.name} peut garder une des gemmes retirées comme Prière.",
                            f"{leader.name} may keep one of the removed gems as a Prayer.",
                            gems=[r["gem"] for r in removed]))
            return state, outs
        return _finish(state, outs)
    if level == BS:
        return _advance_all(state, outs, rng, then_finish=True)
    # Success, Critical Success: the extra gems (R23, E11)
    base = leader.score(a.season) if state.options.success_extras_score == "unmodified" else a.score
    remaining = candidates(a)
    k = min(base, len(remaining))
    a = replace(a, extras_count=k)
    state = replace(state, appel=a)
    if k == len(remaining):
        state, more = _place_extras(state, season_first(remaining))
        outs += more
        return _after_extras(state, outs, rng)
    state = replace(state, appel=replace(a, step="extras"))
    outs.append(out("extras_wait", f"{leader.name} choisit {k} gemme(s) parmi {gems_text(remaining, 'fr')} à poser.",
                    f"{leader.name} chooses {k} gem(s) among {gems_text(remaining, 'en')} to place.",
                    count=k, gems=remaining))
    return state, outs


def _place_extras(state: EspriState, gems: list[str]) -> Handled:
    a = current_appel(state)
    hand = list(a.hand)
    prayer_left = a.prayer
    for g in gems:
        if g in hand:
            hand.remove(g)
        elif prayer_left == g:
            prayer_left = None
        else:  # pragma: no cover - checked by the callers
            raise refuse("R23", f"plus de gemme {gem_name(g, 'fr')}", f"no {g} gem left")
    board, recs = B.place_many(state.board, [(g, g if g in SEASONS else a.season) for g in gems])
    back = [r["gem"] for r in recs if r["cell"] is None]
    rec = dict(a.record)
    rec["placements"] = list(rec["placements"]) + [dict(r, why="extra") for r in recs]
    state = replace(state, board=board, pool=pool_add(state.pool, back),
                    appel=replace(a, hand=tuple(hand), prayer=prayer_left, record=rec))
    if not recs:
        return state, [out("extras", "Aucune gemme supplémentaire à poser.", "No extra gem to place.", placements=[])]
    return state, [out("extras", "Gemmes supplémentaires : " + "; ".join(where_text(r, "fr") for r in recs) + ".",
                       "Extra gems: " + "; ".join(where_text(r, "en") for r in recs) + ".", placements=recs)]


def extras(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R23: the leader places exactly min(score, remaining) of the remaining gems."""
    a = need_step(state, "extras")
    gems = get_gems(ev.data)
    if len(gems) != a.extras_count:
        raise refuse("R23", f"posez exactement {a.extras_count} gemme(s) (le score, ou les gemmes restantes s'il en reste moins)",
                     f"place exactly {a.extras_count} gem(s) (min of the score and the gems left)")
    left = candidates(a)
    for g in gems:
        if g not in left:
            raise refuse("R23", f"plus de gemme {gem_name(g, 'fr')} parmi {gems_text(candidates(a), 'fr')}",
                         f"no {g} gem left among {gems_text(candidates(a), 'en')}")
        left.remove(g)
    state, outs = _place_extras(state, gems)
    return _after_extras(state, outs, rng)


def _after_extras(state: EspriState, outs: list[Outcome], rng: random.Random) -> Handled:
    a = current_appel(state)
    if a.result == CS and state.options.rupture_removal_timing == "before_advance":
        if state.board.gems().count("rupture"):
            state = replace(state, appel=replace(a, step="rupture_removal"))
            return state, outs + [_rupture_wait(state)]
    return _advance_all(state, outs, rng, then_finish=a.result != CS)


def _rupture_wait(state: EspriState) -> Outcome:
    leader = state.char(current_appel(state).leader)
    return out("rupture_removal_wait", f"{leader.name} peut retirer 1 gemme de Rupture du plateau (n'importe quel quadrant).",
               f"{leader.name} may remove 1 Rupture gem from the board (any quadrant).")


def _advance_all(state: EspriState, outs: list[Outcome], rng: random.Random, then_finish: bool) -> Handled:
    """R22 / R27 / E12c-d: the leader's Nymph, then each helper's, each distinct Nymph once."""
    a = current_appel(state)
    leader = state.char(a.leader)
    nymphs = [leader.nymph_for(a.season)]
    for hid, _form in a.helpers:
        s = state.char(hid).nymph_for(a.season)
        if s not in nymphs:
            nymphs.append(s)
    board = state.board
    moves: list[dict[str, Any]] = []
    worlds = []
    for s in nymphs:
        board, m = B.advance(board, s, state.options)
        moves += m
        q = board.q(s)
        if m and q.nymph == q.length:
            worlds.append(s)
    rec = dict(a.record)
    rec["moves"] = list(rec["moves"]) + moves
    state = replace(state, board=board, appel=replace(a, record=rec),
                    world_events=state.world_events + tuple(worlds))
    stayed = [s for s in nymphs if not any(m.get("season") == s and "nymph" in m for m in moves)]
    fr = moves_text(moves, "fr") + "".join(f" {NYMPHS[s]} ne bouge pas." for s in stayed)
    en = moves_text(moves, "en") + "".join(f" {NYMPHS[s]} does not move." for s in stayed)
    outs.append(out("advance", "Avancée :" + fr, "Advance:" + en, moves=moves))
    for s in worlds:
        outs.append(out("world", f"{NYMPHS[s]} atteint sa case de monde ! Événement spécial : le MJ prend le joueur à part.",
                        f"{NYMPHS[s]} reaches her world cell! Special event: the GM takes the player aside.",
                        season=s))
    if then_finish:
        return _finish(state, outs)
    if a.result == CS and state.options.rupture_removal_timing == "after_advance" \
            and state.board.gems().count("rupture"):
        state = replace(state, appel=replace(state.appel, step="rupture_removal"))
        return state, outs + [_rupture_wait(state)]
    return _finish(state, outs)


def remove_rupture(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R22 Critical Success: the leader may remove 1 Rupture gem from the board (R5)."""
    a = need_step(state, "rupture_removal")
    if ev.data.get("skip") is True:
        outs = [out("rupture_removal", "Aucune Rupture retirée.", "No Rupture removed.")]
    else:
        season = check_season(ev.data.get("quadrant"), "quadrant")
        cell = ev.data.get("cell")
        board, removed, moves = B.remove_cells(state.board, [(season, cell)], only=["rupture"])
        rec = dict(a.record)
        rec["removals"] = list(rec["removals"]) + [dict(r, why="critical_success") for r in removed]
        rec["moves"] = list(rec["moves"]) + moves
        a = replace(a, record=rec)
        state = replace(state, board=board, pool=pool_add(state.pool, ["rupture"]), appel=a)
        outs = [out("rupture_removal", f"Rupture retirée du chemin {gem_name(season, 'fr')}, case {cell}." + moves_text(moves, "fr"),
                    f"Rupture removed from the {gem_name(season, 'en')} path, cell {cell}." + moves_text(moves, "en"),
                    removals=removed, moves=moves)]
    if state.options.rupture_removal_timing == "before_advance":
        return _advance_all(state, outs, rng, then_finish=True)
    return _finish(state, outs)


def keep_prayer(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R22 / E14: after a Critical Failure the leader keeps one removed gem as a Prayer."""
    a = need_step(state, "keep_prayer")
    gem = ev.data.get("gem")
    if gem is None:
        return _finish(state, [out("keep_prayer", "Aucune Prière gardée.", "No Prayer kept.")])
    gem = check_gem(gem)
    if gem not in a.removed:
        raise refuse("R22", f"la Prière gardée est l'une des gemmes retirées ({gems_text(a.removed, 'fr')})",
                     f"the Prayer kept is one of the removed gems ({gems_text(a.removed, 'en')})")
    leader = state.char(a.leader)
    state = replace(state.with_char(replace(leader, prayers=leader.prayers + (gem,))),
                    pool=pool_take(state.pool, [gem]))
    rec = dict(a.record)
    rec["kept_prayer"] = gem
    state = replace(state, appel=replace(a, record=rec))
    return _finish(state, [out("keep_prayer", f"{leader.name} garde une Prière {gem_name(gem, 'fr')}.",
                               f"{leader.name} keeps a {gem_name(gem, 'en')} Prayer.", gem=gem)])


def _finish(state: EspriState, outs: list[Outcome]) -> Handled:
    """End of the Appel: unused drawn gems to the pool (R23), an unused Prayer too (E10,
    option ``unplaced_prayer``), a gem set aside by a redraw too."""
    a = current_appel(state)
    pool = pool_add(state.pool, list(a.hand) + list(a.aside))
    if a.prayer:
        leader = state.char(a.leader)
        # E10 option "owner": back to its owner, unless the Prayers filled up meanwhile
        # (a Rupture Prayer gained during the Appel): then to the pool
        if state.options.unplaced_prayer == "owner" and len(leader.prayers) < leader.devotion:
            state = state.with_char(replace(leader, prayers=leader.prayers + (a.prayer,)))
        else:
            pool = pool_add(pool, [a.prayer])
    rec = dict(a.record)
    rec["returned"] = list(a.hand) + list(a.aside)
    state = replace(state, pool=pool, appel=None, last_appel=rec)
    return state, outs
