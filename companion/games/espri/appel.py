"""The Appel at the table (R9-R20): announce, Temptation, draw, redraw, Prayer, choose.
The board effects of the result are in :mod:`.resolve`.

Events: ``espri.appel``, ``espri.temptation``, ``espri.draw`` (a correction when sent
with source ``correction`` or ``"correction": true`` once gems are drawn),
``espri.redraw``, ``espri.prayer``, ``espri.choose``, ``espri.cancel``.

Every change of the board is recorded in ``appel.record`` (and then
``state.last_appel``): ``placements``, ``removals``, ``moves``, so the tablet can show
which gem went where and where each Nymph moved.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...errors import RuleError
from ..refusal import malformed
from ...events import Event, Source
from ..base import Outcome
from . import board as B
from .common import (
    Handled, candidates, current_appel, refuse, gain_rupture, gem_name, gems_text, get_bool, get_effect, get_gems, get_int,
    need_step, out,
    result_name, season_first, where_text,
)
from .state import (
    CF, CS, MAX_POINTS, RESULTS, SEASONS, Appel, Character, Effect, EspriState, check_gem, check_season, counts_of, pool_add,
    pool_take, replace,
)
from .resolve import resolve
from .rules import apply_penalty, draw_plan, effective_score, match_selection, selections

__all__ = ["announce", "temptation", "cancel", "draw", "redraw", "prayer", "choose", "legal", "season_score"]


def _effects(raw: Any) -> tuple[Effect, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise malformed("«\u202fmodifiers\u202f» doit être une liste de {value, minimum?, maximum?, label?}",
                        "'modifiers' must be a list of {value, minimum?, maximum?, label?}")
    out_: list[Effect] = []
    for e in raw:
        if not isinstance(e, Mapping):
            raise malformed("chaque modificateur est {value, minimum?, maximum?, label?}",
                            "each modifier is {value, minimum?, maximum?, label?}")
        out_.append(get_effect(e))
    return tuple(out_)


def season_score(state: EspriState, cid: str, season: str, extra: tuple[Effect, ...] = ()) -> int:
    ch = state.char(cid)
    return effective_score(ch.score(season), ch.effects + extra, season,
                           state.options.bounded_effects_order)


def announce(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R9-R12, R16, R26-R29: the GM announces the Called Season and the leader."""
    if state.appel is not None:
        raise refuse("R9", "un Appel est déjà en cours", "an Appel is already in progress")
    if state.setup_hand is not None:
        raise refuse("R7", "un tirage de mise en place attend le choix des gemmes gardées",
                     "a set-up draw waits for its keep choice")
    d = ev.data
    season = check_season(d.get("season"), "Called Season")
    leader = state.char(d.get("leader"))
    if leader.fallen:
        raise refuse("R34", f"{leader.name} a chuté et ne peut plus appeler les Nymphes",
                     f"{leader.name} has fallen and can no longer call the Nymphs")
    talent = get_bool(d, "talent", True)
    passive = get_bool(d, "passive", False)
    score = season_score(state, leader.id, season, _effects(d.get("modifiers")))
    if score <= 0:
        raise refuse("R16", f"le score de {leader.name} en {gem_name(season, 'fr')} est {score} avec bonus et malus\u202f:"
                     " avec 0 ou moins, pas d'Appel à mener dans cette Saison",
                     f"{leader.name}'s {season} score is {score} with bonuses/maluses: a score of 0 or less"
                     " cannot lead an Appel in that Season")
    helpers = _helpers(state, d.get("helpers", []) or [], leader, season, passive)
    state = _spend_resonance(state, helpers, leader.id)
    if "difficulty" in d:
        # R10 / E28: the Weather or an opposition's score; far above the scores an Appel can
        # reach it changes nothing (N below -12 is an automatic Critical Failure, E8)
        difficulty = get_int(d, "difficulty", None, 0, MAX_POINTS, "R10", ("la Difficulté", "the Difficulty"))
        dsource = "given"
    else:
        difficulty, dsource = state.board.q(season).weather, "weather"
    n = score + len(helpers) - difficulty
    plan = draw_plan(n, state.options)
    if plan["count"] > 0 and sum(state.pool) == 0:
        raise refuse("E9", "la pioche est vide\u202f: aucun Appel ne peut se résoudre\u202f; faites le Rituel de Communion"
                     " (R35) ou demandez au MJ",
                     "the pool is empty: no Appel can be resolved; perform the Communion Ritual (R35) or ask the GM")
    appel = Appel(season=season, leader=leader.id, helpers=tuple(helpers), talent=talent,
                  difficulty=difficulty, difficulty_source=dsource, score=score, n=n, passive=passive,
                  step="draw", draw_count=plan["count"], chooser=plan["chooser"], redraw_by=plan["redraw_by"],
                  automatic=plan["automatic"],
                  record={"season": season, "leader": leader.id, "helpers": [list(h) for h in helpers],
                          "N": n, "difficulty": difficulty, "placements": [], "removals": [], "moves": []})
    sname = gem_name(season, "fr"), gem_name(season, "en")
    outs = [out("appel", f"Appel en {sname[0]}, mené par {leader.name} : score {score}"
                f" + {len(helpers)} aide(s) − Difficulté {difficulty} = N {n}. {_draw_text(appel, 'fr')}",
                f"Appel in {sname[1]} led by {leader.name}: score {score} + {len(helpers)} help"
                f" − Difficulty {difficulty} = N {n}. {_draw_text(appel, 'en')}",
                season=season, leader=leader.id, n=n, draw=plan["count"], chooser=plan["chooser"],
                difficulty=difficulty, automatic=plan["automatic"])]
    state = replace(state, appel=appel)
    return _maybe_automatic(state, outs, rng)


def _helpers(state: EspriState, raw: Any, leader: Character, season: str, passive: bool) -> list[tuple[str, str]]:
    """R26-R29: the helpers of an Appel as ``(id, form)``, each checked (E18)."""
    if not isinstance(raw, list):
        raise malformed("«\u202fhelpers\u202f» doit être une liste de {character, form\u202f: direct|resonance}",
                        "'helpers' must be a list of {character, form: direct|resonance}")
    helpers: list[tuple[str, str]] = []
    for h in raw:
        if isinstance(h, str):
            h = {"character": h}
        if not isinstance(h, Mapping):
            raise malformed("chaque aide est {character, form}", "each helper is {character, form}")
        form = h.get("form", "direct")
        helper = state.char(h.get("character"))
        if helper.id == leader.id or helper.id in {x for x, _ in helpers}:
            raise refuse("R26", f"{helper.name} n'aide qu'une fois, et jamais son propre Appel",
                         f"{helper.name} can help only once, and never their own Appel")
        if helper.fallen:
            raise refuse("R34", f"{helper.name} a chuté et ne peut plus aider", f"{helper.name} has fallen and can no longer help")
        if form == "direct":
            _check_direct_aid(state, helper, season)
        elif form == "resonance":
            _check_resonance(state, helper, leader, season, passive)
        else:
            raise malformed("la «\u202fform\u202f» d'une aide est «\u202fdirect\u202f» ou «\u202fresonance\u202f»",
                            "a helper's 'form' is 'direct' or 'resonance'")
        helpers.append((helper.id, form))
    return helpers


def _check_direct_aid(state: EspriState, helper: Character, season: str) -> None:
    """R16 / E18: Direct Aid needs a Called Season score above 0."""
    if season_score(state, helper.id, season) <= 0:
        raise refuse("R16", f"le score de {helper.name} en {gem_name(season, 'fr')} est 0 ou moins\u202f: pas d'Aide"
                     " directe dans cette Saison",
                     f"{helper.name}'s {season} score is 0 or less: no Direct Aid in that Season")


def _check_resonance(state: EspriState, helper: Character, leader: Character, season: str, passive: bool) -> None:
    """R26, R29, E18: Resonance needs an active action, a Relationship with the leader,
    a Resonance point left and a resonating score above 0."""
    if passive:
        raise refuse("R26", "pas de Résonance pour une action passive", "Resonance is never possible for a passive action")
    res = helper.resonance_with(leader.id)
    if res is None:
        raise refuse("R26", f"{helper.name} n'a pas de Relation avec {leader.name}\u202f: pas de Résonance",
                     f"{helper.name} has no Relationship with {leader.name}: no Resonance")
    if res.current <= 0:
        raise refuse("R29", f"la Résonance de {helper.name} avec {leader.name} est à 0/{res.maximum}\u202f:"
                     " rechargez-la en manifestant la Relation",
                     f"{helper.name}'s Resonance with {leader.name} is 0/{res.maximum}:"
                     " recharge it by manifesting the Relationship")
    # E18: the resonator's tutelary Season (a Priestess: Dévotion, her Time), or the Called one
    if state.options.resonance_score == "called":
        rs = season_score(state, helper.id, season)
    elif helper.season is not None:
        rs = season_score(state, helper.id, helper.season)
    else:
        rs = helper.devotion
    if rs <= 0:
        raise refuse("R16", f"le score de Résonance de {helper.name} est 0 ou moins",
                     f"{helper.name}'s resonating score is 0 or less")


def _spend_resonance(state: EspriState, helpers: list[tuple[str, str]], leader: str) -> EspriState:
    """R29: each resonating helper spends one Resonance point towards the leader."""
    for hid, form in helpers:
        if form == "resonance":
            hc = state.char(hid)
            r = hc.resonance_with(leader)
            if r is None:  # checked by _check_resonance
                raise refuse("R29", f"erreur interne\u202f: {hid} n'a pas de Résonance avec {leader}",
                             f"internal error: {hid} has no Resonance with {leader}")
            state = state.with_char(hc.with_resonance(replace(r, current=r.current - 1)))
    return state


def _draw_text(a: Appel, lang: str) -> str:
    fr = lang == "fr"
    if a.automatic == "critical_failure":
        return "Échec Critique automatique (|N| > 12)." if fr else "Automatic Critical Failure (|N| > 12)."
    if a.automatic == "critical_success":
        return (f"Réussite Critique automatique : tirer {a.draw_count} gemmes." if fr
                else f"Automatic Critical Success: draw {a.draw_count} gems.")
    who = ("le MJ choisit" if a.chooser == "gm" else "le leader choisit") if fr else \
        ("the GM chooses" if a.chooser == "gm" else "the leader chooses")
    redraw = ""
    if a.redraw_by:
        redraw = ((" ; le leader peut retirer une fois" if a.redraw_by == "leader" else " ; le MJ peut faire retirer une fois")
                  if fr else ("; the leader may redraw once" if a.redraw_by == "leader" else "; the GM may have it redrawn once"))
    return (f"Tirer {a.draw_count} gemme(s), {who}{redraw}." if fr else f"Draw {a.draw_count} gem(s), {who}{redraw}.")


def _maybe_automatic(state: EspriState, outs: list[Outcome], rng: random.Random) -> Handled:
    a = current_appel(state)
    if a.automatic == "critical_failure":
        return resolve(state, CF, outs, rng)
    if a.automatic == "critical_success" and a.draw_count == 0:
        return resolve(state, CS, outs, rng)
    return state, outs


def temptation(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R14 / E16: before drawing, remove k Rupture gems from the leader's own quadrant
    (a Priestess: the Called one): +2 N each, Difficulty unchanged, +1 Rupture point and
    1 Rupture Prayer whatever k."""
    a = need_step(state, "draw")
    if a.hand or a.automatic:
        raise refuse("R14", "la Tentation de la Rupture vient avant le tirage", "the Temptation of Rupture comes before the draw")
    if a.temptation:
        raise refuse("R14", "la Tentation a déjà été prise pour cet Appel", "the Temptation has already been taken for this Appel")
    leader = state.char(a.leader)
    quad_s = leader.nymph_for(a.season)
    quad = state.board.q(quad_s)
    if "cells" in ev.data:
        cells = B.parse_cells(ev.data["cells"])
        if any(q != quad_s for q, _ in cells):
            raise refuse("R14", f"la Tentation retire des gemmes de Rupture du quadrant de {leader.name} ({gem_name(quad_s, 'fr')})",
                         f"the Temptation removes Rupture gems from {leader.name}'s own quadrant ({quad_s})")
    else:
        k = get_int(ev.data, "count", 1, 1, None, "R14", ("le nombre de gemmes de Rupture", "the count of Rupture gems"))
        ruptures = [c for c in quad.paved() if quad.gem_at(c) == "rupture"]
        if k > len(ruptures):
            raise refuse("R14", f"le quadrant {gem_name(quad_s, 'fr')} porte {len(ruptures)} gemme(s) de Rupture, pas {k}",
                         f"the {quad_s} quadrant holds {len(ruptures)} Rupture gem(s), not {k}")
        cells = [(quad_s, c) for c in sorted(ruptures, reverse=True)[:k]]
    if not cells:
        raise refuse("R14", "la Tentation retire au moins une gemme de Rupture", "the Temptation removes at least one Rupture gem")
    board, removed, moves = B.remove_cells(state.board, cells, only=["rupture"])
    k = len(removed)
    n = a.n + 2 * k
    plan = draw_plan(n, state.options)
    rec = dict(a.record)
    rec["removals"] = list(rec["removals"]) + [dict(r, why="temptation") for r in removed]
    rec["moves"] = list(rec["moves"]) + moves
    rec["N"] = n
    rec["temptation"] = k
    a2 = replace(a, n=n, temptation=k, draw_count=plan["count"], chooser=plan["chooser"],
                 redraw_by=plan["redraw_by"], automatic=plan["automatic"], record=rec)
    state = replace(state, board=board, pool=pool_add(state.pool, ["rupture"] * k), appel=a2)
    outs = [out("temptation", f"Tentation de la Rupture : {leader.name} retire {k} Rupture(s) de son quadrant"
                f" (et agit selon son Anathème) : N {a.n} → {n}. {_draw_text(a2, 'fr')}",
                f"Temptation of Rupture: {leader.name} removes {k} Rupture gem(s) from their quadrant"
                f" (and acts by their Anathema): N {a.n} → {n}. {_draw_text(a2, 'en')}",
                removed=k, n=n, removals=removed, moves=moves)]
    state, more = gain_rupture(state, leader.id, rng, "Tentation")
    state, more2 = _maybe_automatic(state, outs + more, rng)
    return state, more2


def cancel(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """Cancel an Appel before its gems are drawn (Resonance points given back)."""
    a = need_step(state, "draw")
    if a.temptation:
        raise refuse("R14", "la Tentation a été prise\u202f: annulez-la plutôt", "the Temptation has been taken: undo it instead")
    for hid, form in a.helpers:
        if form == "resonance":
            h = state.char(hid)
            r = h.resonance_with(a.leader)
            if r is not None:
                state = state.with_char(h.with_resonance(replace(r, current=r.current + 1)))
    return replace(state, appel=None), [out("cancel", "Appel annulé.", "Appel cancelled.")]


def draw(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R12 / E9: the drawn gems (tapped or camera-read). Once drawn, a new ``espri.draw``
    marked as a correction replaces the last draw (the redrawn gem after a redraw)."""
    a = state.appel
    correction = ev.source == Source.CORRECTION or ev.data.get("correction") is True
    if a is not None and a.step == "choose" and correction:
        return _correct(state, a, get_gems(ev.data))
    if ev.data.get("correction") is True:
        # never the next Appel's draw: a correction of an Appel already resolved names it
        raise refuse("R12", "aucun tirage à corriger maintenant (l'Appel est fini ou pas encore tiré)\u202f; pour corriger"
                     " le tirage d'un Appel déjà résolu, renvoyez ce tirage avec «\u202fcorrects\u202f» (son numéro)",
                     "no draw to correct now (the Appel is over or not drawn yet); to correct the draw of an"
                     " Appel already resolved, send that draw again with 'corrects' (its number)")
    a = need_step(state, "draw")
    gems = get_gems(ev.data)
    total = sum(state.pool)
    if total == 0:
        raise refuse("E9", "la pioche est vide\u202f: l'Appel ne peut pas se résoudre\u202f; faites le Rituel de Communion"
                     " (R35) ou demandez au MJ",
                     "the pool is empty: the Appel cannot be resolved; perform the Communion Ritual (R35) or ask the GM")
    want = min(a.draw_count, total)
    if len(gems) != want:
        extra = f" (the pool holds only {total})" if want < a.draw_count else ""
        extra_fr = f" (la pioche n'en a que {total})" if want < a.draw_count else ""
        raise refuse("R12", f"cet Appel tire {want} gemme(s){extra_fr}, pas {len(gems)}",
                     f"this Appel draws {want} gem(s){extra}, not {len(gems)}")
    pool = pool_take(state.pool, gems)
    rec = dict(a.record)
    rec["drawn"] = list(gems)
    a2 = replace(a, hand=tuple(gems), step="choose", record=rec)
    state = replace(state, pool=pool, appel=a2)
    outs = [out("draw", f"Tirées : {gems_text(gems, 'fr')}.", f"Drawn: {gems_text(gems, 'en')}.", gems=gems)]
    if a.automatic == "critical_success":
        return resolve(state, CS, outs, rng)
    return state, outs + [_choices_outcome(state)]


def _correct(state: EspriState, a: Appel, gems: list[str]) -> Handled:
    if len(gems) != len(a.hand):
        raise refuse("R12", f"la correction nomme {len(a.hand)} gemme(s), comme le tirage",
                     f"the correction must name {len(a.hand)} gem(s), as drawn")
    pool = pool_take(pool_add(state.pool, a.hand), gems)
    rec = dict(a.record)
    rec["drawn"] = list(gems)
    state = replace(state, pool=pool, appel=replace(a, hand=tuple(gems), record=rec))
    return state, [out("draw_corrected", f"Tirage corrigé : {gems_text(gems, 'fr')}.",
                       f"Draw corrected: {gems_text(gems, 'en')}.", gems=gems), _choices_outcome(state)]


def redraw(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R12 / E6: at N = 1 the leader, at N = -1 the GM, may have the gem drawn again once;
    the first gem goes back to the pool first (option ``redraw_first_gem``: or aside)."""
    a = need_step(state, "choose")
    if not a.redraw_by:
        raise refuse("R12", f"pas de nouveau tirage à N = {a.n} (seulement à N = 1, par le leader, ou N = -1, par le MJ)",
                     f"no redraw at N = {a.n} (only at N = 1, by the leader, or N = -1, by the GM)")
    if a.redrawn:
        raise refuse("R12", "un seul nouveau tirage par Appel\u202f; la seconde gemme est acceptée",
                     "only one redraw per Appel; the second gem is accepted")
    if a.prayer:
        raise refuse("E7", "le nouveau tirage vient avant l'ajout d'une Prière", "the redraw comes before a Prayer gem is added")
    gems = get_gems(ev.data)
    if len(gems) != 1:
        raise refuse("R12", "un nouveau tirage, c'est une gemme", "a redraw is one gem")
    aside = a.aside
    pool = state.pool
    if state.options.redraw_first_gem == "aside":
        aside = aside + a.hand
    else:
        pool = pool_add(pool, a.hand)
    pool = pool_take(pool, gems)
    rec = dict(a.record)
    rec["redrawn"] = {"first": list(a.hand), "second": gems}
    a2 = replace(a, hand=tuple(gems), aside=aside, redrawn=True, record=rec)
    state = replace(state, pool=pool, appel=a2)
    return state, [out("redraw", f"Nouveau tirage : {gems_text(gems, 'fr')} (accepté).",
                       f"Redrawn: {gems_text(gems, 'en')} (accepted).", gems=gems), _choices_outcome(state)]


def prayer(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R13: the leader adds one and only one Prayer gem to the drawn gems."""
    a = need_step(state, "choose")
    if a.prayer:
        raise refuse("R13", "une seule gemme de Prière peut s'ajouter à un Appel", "one and only one Prayer gem may be added to an Appel")
    gem = check_gem(ev.data.get("gem"))
    leader = state.char(a.leader)
    if gem not in leader.prayers:
        raise refuse("R13", f"{leader.name} n'a pas de Prière {gem_name(gem, 'fr')} ({gems_text(leader.prayers, 'fr')})",
                     f"{leader.name} holds no {gem} Prayer gem ({gems_text(leader.prayers, 'en')})")
    i = leader.prayers.index(gem)
    leader2 = replace(leader, prayers=leader.prayers[:i] + leader.prayers[i + 1:])
    chooser = a.chooser
    if a.n == -1 and state.options.gm_chooses_minus_one_with_prayer:
        chooser = "gm"
    rec = dict(a.record)
    rec["prayer"] = gem
    state = replace(state.with_char(leader2), appel=replace(a, prayer=gem, chooser=chooser, record=rec))
    return state, [out("prayer", f"{leader.name} ajoute une Prière {gem_name(gem, 'fr')}.",
                       f"{leader.name} adds a {gem_name(gem, 'en')} Prayer.", gem=gem), _choices_outcome(state)]


def legal(state: EspriState, a: Appel, places: bool = True) -> list[dict[str, Any]]:
    """The legal selections with their results (after the no-Talent penalty) and, with
    ``places``, where each selected gem would go.

    Each selection carries ``label`` (``{"fr", "en"}``: its gems, direction and result, as
    the button reads) and, when choosing it makes the leader fall (R34: "Rupture alone →
    Success" gives 1 Rupture point, and Rupture would then exceed Harmony), ``falls: true``
    and ``warning`` (``{"fr", "en"}``) saying so, and saying when nobody would be left to
    lead an Appel. The choice stays the player's: Failure is the other option R19 gives.
    """
    must = a.prayer if (a.prayer and a.chooser == "gm") else None
    sels = selections(counts_of(candidates(a)), a.season, state.options, must)
    pen = 0 if a.talent else state.options.no_talent_penalty
    out_ = []
    for s in sels:
        lvl = apply_penalty(s["level"], pen)
        sel = dict(s, level=lvl, result=RESULTS[lvl], gem_result=s["result"])
        if places:
            sel["placements"] = _where_sel(state, a, s["gems"])
        sel["label"] = {lang: f"{' + '.join(gem_name(g, lang) for g in s['gems'])}{_dir(s, lang)} → {result_name(lvl, lang)}"
                        for lang in ("fr", "en")}
        warning = fall_warning(state, a.leader) if s.get("rupture_point") else None
        if warning is not None:
            sel["falls"] = True
            sel["warning"] = warning
        out_.append(sel)
    return out_


def fall_warning(state: EspriState, cid: str) -> dict[str, str] | None:
    """R34 ahead of time: the warning for a choice that gives ``cid`` 1 Rupture point and
    would make them fall (None when it would not)."""
    ch = state.char(cid)
    if ch.fallen or ch.rupture + 1 <= ch.harmony:
        return None
    others = [c for c in state.characters if c.id != cid and not c.fallen]
    fr = (f"Attention : {ch.name} chuterait (Rupture {ch.rupture + 1} > Harmonie {ch.harmony}, R34) : plus de"
          " pouvoirs de Gardien, plus d'Appel à mener ni d'aide à donner.")
    en = (f"Warning: {ch.name} would fall (Rupture {ch.rupture + 1} > Harmony {ch.harmony}, R34): no more Guardian"
          " powers, no Appel to lead, no help to give.")
    if not others:
        fr += (" Personne d'autre ne pourrait mener d'Appel : le MJ et le joueur décideraient de la suite"
               " (un nouveau personnage, ou le MJ relève la chute). L'Échec évite la chute.")
        en += (" Nobody else could lead an Appel: the GM and the player would settle what follows (a new"
               " character, or the GM lifts the Fall). Failure avoids the Fall.")
    return {"fr": fr, "en": en}


def _where_sel(state: EspriState, a: Appel, gems: list[str]) -> list[dict[str, Any]]:
    """Where each selected gem would go (R20, R3), for the choice screen."""
    board = state.board
    recs = []
    for g in season_first(gems):
        board, r = B.place(board, g, g if g in SEASONS else a.season)
        recs.append(r)
    return recs


def _choices_outcome(state: EspriState) -> Outcome:
    a = current_appel(state)
    sels = legal(state, a, places=False)
    who_fr = "le MJ" if a.chooser == "gm" else "le leader"
    who_en = "the GM" if a.chooser == "gm" else "the leader"
    lines_fr = [s["label"]["fr"] + (f" ({s['warning']['fr']})" if s.get("warning") else "") for s in sels]
    lines_en = [s["label"]["en"] + (f" ({s['warning']['en']})" if s.get("warning") else "") for s in sels]
    return out("choices", f"Choix possibles ({who_fr} choisit) : " + " ; ".join(lines_fr) + ".",
               f"Possible choices ({who_en} chooses): " + "; ".join(lines_en) + ".",
               chooser=a.chooser, selections=sels)


def _dir(s: Mapping[str, Any], lang: str) -> str:
    d = s["direction"]
    if d == "up":
        return " (vers le haut)" if lang == "fr" else " (up)"
    if d == "down":
        return " (vers le bas)" if lang == "fr" else " (down)"
    if s.get("rupture_point"):
        return " (+1 point de Rupture)" if lang == "fr" else " (+1 Rupture point)"
    return ""


def choose(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R17-R20: the chooser's selection, placed on the board, then R22's effects."""
    a = need_step(state, "choose")
    d = ev.data
    sels = legal(state, a, places=False)
    sel = _by_key(state, a, sels, d["selection"]) if "selection" in d else _by_gems(a, sels, d)
    gems = _placing_order(d.get("order"), list(sel["gems"]))
    # take the placed gems out of the hand (the Prayer first if it is of that type)
    hand = list(a.hand)
    prayer_left = a.prayer
    for g in gems:
        if prayer_left == g:
            prayer_left = None
        else:
            hand.remove(g)
    board, recs = B.place_many(state.board, [(g, g if g in SEASONS else a.season) for g in gems])
    back = [r["gem"] for r in recs if r["cell"] is None]
    rec = dict(a.record)
    rec["selection"] = {k: sel[k] for k in ("key", "gems", "direction", "gem_result", "result")}
    rec["chosen_by"] = a.chooser
    rec["placements"] = list(rec["placements"]) + [dict(r, why="result") for r in recs]
    a2 = replace(a, hand=tuple(hand), prayer=prayer_left, selection=sel, record=rec)
    state = replace(state, board=board, pool=pool_add(state.pool, back), appel=a2)
    level = sel["level"]
    outs = [out("result", f"{result_name(level, 'fr')} ! " + "; ".join(where_text(r, "fr") for r in recs) + ".",
                f"{result_name(level, 'en')}! " + "; ".join(where_text(r, "en") for r in recs) + ".",
                result=RESULTS[level], selection=sel["key"], placements=recs,
                no_talent=not a.talent)]
    if sel.get("rupture_point"):
        state, more = gain_rupture(state, a.leader, rng, "Rupture seule")
        outs += more
    return resolve(state, level, outs, rng)


def _prayer_must_be_placed() -> RuleError:
    return refuse("R13", "quand le MJ choisit, la Prière ajoutée doit être parmi les gemmes posées",
                  "when the GM chooses, the added Prayer gem must be among the placed gems")


def _by_key(state: EspriState, a: Appel, sels: list[dict[str, Any]], key: Any) -> dict[str, Any]:
    """The selection named by its number in the list or by its key (``hiver+temps:up``)."""
    if isinstance(key, int) and not isinstance(key, bool):
        if not 0 <= key < len(sels):
            raise refuse("R17", f"le choix {key} n'existe pas (0-{len(sels) - 1})",
                         f"selection {key} does not exist (0-{len(sels) - 1})")
        return sels[key]
    found = [s for s in sels if s["key"] == key]
    if found:
        return found[0]
    if a.prayer and a.chooser == "gm":
        allowed = legal(state, replace(a, chooser="leader"), places=False)
        if any(s["key"] == key for s in allowed):
            raise _prayer_must_be_placed()
    raise refuse("R17", f"le choix {key!r} n'est pas permis (permis\u202f: {', '.join(s['label']['fr'] for s in sels)})",
                 f"selection {key!r} is not allowed (allowed: {', '.join(s['key'] for s in sels)})")


def _by_gems(a: Appel, sels: list[dict[str, Any]], d: Mapping[str, Any]) -> dict[str, Any]:
    """The selection named by its gems and direction (R17-R19)."""
    gems = d.get("gems")
    if a.prayer and a.chooser == "gm" and isinstance(gems, list) and a.prayer not in gems:
        raise _prayer_must_be_placed()
    direction = "success" if d.get("rupture_success") is True else d.get("direction")
    return match_selection(sels, gems, direction, candidates(a))


def _placing_order(order: Any, gems: list[str]) -> list[str]:
    """E25: the placer's order (``order``), by default the Season gem first."""
    if order is None:
        return season_first(gems)
    if not isinstance(order, list) or not all(isinstance(g, str) for g in order) or sorted(order) != sorted(gems):
        raise malformed("«\u202forder\u202f» doit lister les gemmes choisies dans l'ordre où elles sont posées",
                        "'order' must list the selected gems in the order they are placed")
    return list(order)
