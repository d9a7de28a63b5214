"""ESPRI state as JSON (``GET /api/state``, ``companion replay --json``) and as text.

``expects`` says what the table waits for:

- ``{"step": "setup_draw", "character", "gems"}``, ``{"step": "setup_keep", "character",
  "keep", "hand"}``, ``{"step": "setup_gm", "ruptures"}`` during the set-up (advisory:
  the GM may announce an Appel at any time);
- ``{"step": "appel", "who": "gm"}`` when idle; when nobody can lead an Appel (every
  character fallen, R34) it adds ``"blocked": {"fr", "en"}`` (why, and the ways on: a new
  character with ``espri.character``, or the GM lifts a Fall with ``espri.redeem``) and
  ``"fallen": [ids]``;
- ``{"step": "draw", "gems": count to draw, "N": the signed gem count, "temptation": bool}``;
- ``{"step": "choose", "chooser": "leader"|"gm", "selections": [...], "redraw": who|None,
  "prayers": [...]}``;
- ``{"step": "extras", "count", "gems"}``, ``{"step": "keep_prayer", "gems"}``,
  ``{"step": "rupture_removal", "cells"}``.
"""

from __future__ import annotations

from typing import Any, Mapping

from .appel import legal
from .expects import Cell, Choose, Draw, EspriStep, Extras, Idle, KeepPrayer, Other, RuptureRemoval, SetupDraw, SetupGm, SetupKeep
from .common import candidates
from .state import BOARD_ORDER, GEMS, NYMPHS, RESULT_NAMES, RESULTS, SEASONS, Character, EspriState, Quadrant, gem_census
from .odds import OddsError, appel_odds
from .rules import effective_score
from .seasons import SEASON_INFO, TIME_INFO
from .setup import setup_count

__all__ = ["state_json", "describe", "expects", "leader_order"]


def _idle_expects(state: EspriState) -> EspriStep:
    """No Appel is open: the set-up steps, then the GM's Appel (blocked when every
    character has fallen, R34)."""
    if state.setup_hand is not None:
        cid, hand = state.setup_hand
        ch = state.char(cid)
        return SetupKeep("setup_keep", cid, cid, tuple(hand),
                         min(ch.devotion, sum(1 for g in hand if g != "rupture")))
    for ch in state.characters:
        if not ch.set_up:
            return SetupDraw("setup_draw", ch.id, ch.id, min(setup_count(ch), sum(state.pool)))
    if state.characters and not state.gm_setup_done:
        return SetupGm("setup_gm", "gm", min(4, state.pool[GEMS.index("rupture")]))
    fallen = [c for c in state.characters if c.fallen]
    if not fallen or len(fallen) != len(state.characters):
        return Idle("appel", "gm")
    names = ", ".join(c.name for c in fallen)
    return Idle("appel", "gm", tuple(c.id for c in fallen), {
        "fr": f"Personne ne peut mener d'Appel : {names} {'a' if len(fallen) == 1 else 'ont'} chuté (R34). Le MJ rencontre le joueur et décide"
              " de la suite : un nouveau personnage, ou le MJ relève la chute en fixant Harmonie et Rupture.",
        "en": f"Nobody can lead an Appel: {names} {'has' if len(fallen) == 1 else 'have'} fallen (R34). The GM meets the player and settles what"
              " follows: a new character, or the GM lifts the Fall, setting Harmony and Rupture.",
    })


def expects_of(state: EspriState) -> EspriStep:
    """The step the table waits for (the classes: :mod:`.expects`)."""
    a = state.appel
    if a is None:
        return _idle_expects(state)
    if a.step == "draw":
        return Draw("draw", "leader", min(a.draw_count, sum(state.pool)), a.n, a.automatic,
                    not a.temptation and not a.automatic)
    if a.step == "choose":
        leader = state.char(a.leader)
        return Choose("choose", a.chooser, a.chooser, tuple(legal(state, a)), tuple(candidates(a)),
                      a.redraw_by if (a.redraw_by and not a.redrawn and not a.prayer) else None,
                      () if a.prayer else tuple(sorted(set(leader.prayers))))
    if a.step == "extras":
        return Extras("extras", "leader", a.extras_count, tuple(candidates(a)))
    if a.step == "keep_prayer":
        return KeepPrayer("keep_prayer", "leader", tuple(sorted(set(a.removed))))
    if a.step == "rupture_removal":
        return RuptureRemoval("rupture_removal", "leader", tuple(
            Cell(q.season, c) for q in state.board.quadrants for c in q.paved() if q.gem_at(c) == "rupture"))
    return Other(a.step)  # pragma: no cover


def expects(state: EspriState) -> dict[str, Any]:
    """What the table waits for, as JSON."""
    return expects_of(state).to_json()


def _char_json(state: EspriState, ch: Any) -> dict[str, Any]:
    order = state.options.bounded_effects_order
    info = SEASON_INFO[ch.season] if ch.season else TIME_INFO
    return {
        "id": ch.id, "name": ch.name, "role": ch.role, "season": ch.season,
        "scores": {s: ch.score(s) for s in SEASONS},
        "effective": {s: effective_score(ch.score(s), ch.effects, s, order) for s in SEASONS},
        "devotion": ch.devotion, "harmony": ch.harmony, "rupture": ch.rupture,
        "prayers": list(ch.prayers), "talents": list(ch.talents),
        "effects": [e.to_json() for e in ch.effects],
        "resonance": [{"with": r.other, "current": r.current, "max": r.maximum, "nature": r.nature}
                      for r in ch.resonance],
        "fallen": ch.fallen, "set_up": ch.set_up,
        "essence": info["essence"], "anathema": info["anathema"],
    }


def _odds_for(state: EspriState, cid: str, helpers: int = 0, temptation: int = 0,
              talent: bool = True, fixed_n: dict[str, int] | None = None) -> dict[str, Any] | None:
    if sum(state.pool) == 0:
        return None
    ch = state.char(cid)
    order = state.options.bounded_effects_order
    out = {}
    for s in SEASONS:
        score = effective_score(ch.score(s), ch.effects, s, order)
        diff = state.board.q(s).weather
        n = fixed_n[s] if fixed_n and s in fixed_n else score + helpers + 2 * temptation - diff
        try:
            o = appel_odds(state.pool, s, n, state.options, talent=talent)
        except OddsError:
            return None
        out[s] = {"score": score, "difficulty": diff, "N": n, "n": o["n"], "draw": o["draw"], "chooser": o["chooser"],
                  "results": o["results"], "p_called": o["p_called"], "can_lead": score > 0}
    return out


def _odds(state: EspriState) -> dict[str, Any]:
    a = state.appel
    if a is not None:
        if a.step != "draw":
            return {}
        fixed = {a.season: a.n}
        return {"leader": a.leader,
                "seasons": _odds_for(state, a.leader, len(a.helpers), a.temptation, a.talent, fixed)}
    return {"by_character": {c.id: _odds_for(state, c.id) for c in state.characters if not c.fallen}}


def leader_order(state: EspriState, season: str) -> list[str]:
    """R28 / E23: who would lead in ``season`` by default: the highest Called Season score
    (with bonuses/maluses), then the highest Dévotion; ties keep table order (the group
    chooses). Characters who cannot lead (score 0 or less, R16; fallen, R34) are left out.
    Whether each has a relevant Talent is the GM's call."""
    order = state.options.bounded_effects_order
    ranked = []
    for i, c in enumerate(state.characters):
        score = effective_score(c.score(season), c.effects, season, order)
        if score > 0 and not c.fallen:
            ranked.append((-score, -c.devotion, i, c.id))
    return [cid for *_k, cid in sorted(ranked)]


def state_json(state: EspriState) -> dict[str, Any]:
    halo = list(state.options.halo_cells)
    board = []
    for q in state.board.quadrants:
        board.append({
            "season": q.season, "nymph_name": NYMPHS[q.season], "nymph": q.nymph,
            "weather": q.weather, "cells": list(q.cells), "length": q.length, "world": q.length,
            "halo": halo + [q.length], "climate": SEASON_INFO[q.season]["climate"],
        })
    a = state.appel
    appel = None
    if a is not None:
        appel = {"season": a.season, "leader": a.leader, "helpers": [list(h) for h in a.helpers],
                 "talent": a.talent, "difficulty": a.difficulty, "difficulty_source": a.difficulty_source,
                 "score": a.score, "N": a.n, "temptation": a.temptation, "step": a.step,
                 "draw": a.draw_count, "chooser": a.chooser, "automatic": a.automatic,
                 "hand": list(a.hand), "aside": list(a.aside), "prayer": a.prayer,
                 "result": RESULTS[a.result] if a.result is not None else None,
                 "record": dict(a.record)}
    return {
        "pool": dict(zip(GEMS, state.pool)),
        "pool_total": sum(state.pool),
        "board": board,
        "board_order": list(BOARD_ORDER),
        "characters": [_char_json(state, c) for c in state.characters],
        "appel": appel,
        "last_appel": dict(state.last_appel) if state.last_appel else None,
        "expects": expects(state),
        "leader_order": {s: leader_order(state, s) for s in SEASONS},
        "census": gem_census(state),
        "odds": _odds(state),
        "seasons": SEASON_INFO,
        "time": TIME_INFO,
        "day": state.day,
        "world_events": list(state.world_events),
        "communion_allowed": sum(state.pool) <= state.options.communion_pool_max,
    }


_STEP_WORDS = {
    "appel": ("un Appel (annoncé par le MJ)", "an Appel (announced by the GM)"),
    "draw": ("le tirage", "the draw"), "choose": ("le choix des gemmes", "the choice of gems"),
    "extras": ("les gemmes de la Réussite", "the Success's extra gems"),
    "keep_prayer": ("la Prière gardée", "the kept Prayer"), "rupture_removal": ("la Rupture retirée", "the Rupture removed"),
    "setup_draw": ("le tirage de mise en place", "the set-up draw"), "setup_keep": ("les gemmes gardées", "the kept gems"),
    "setup_gm": ("les Ruptures du MJ", "the GM's Ruptures"),
}
_SYM = {"printemps": "P", "ete": "E", "automne": "A", "hiver": "H", "temps": "T", "rupture": "R", None: "."}


_NAMES = {"printemps": ("Printemps", "Spring"), "ete": ("Été", "Summer"), "automne": ("Automne", "Autumn"),
          "hiver": ("Hiver", "Winter"), "temps": ("Temps", "Time"), "rupture": ("Rupture", "Rupture")}


def describe(state: EspriState, lang: str = "fr") -> str:
    """The table as text (``companion replay``): the pool, the four paths, the characters,
    the last and the current Appel, and what the table waits for."""
    fr = lang == "fr"
    nm = {g: v[0 if fr else 1] for g, v in _NAMES.items()}
    colon = " : " if fr else ": "
    lines = [("Pioche" if fr else "Pool") + f" ({sum(state.pool)}){colon}"
             + ", ".join(f"{nm[g]} {c}" for g, c in zip(GEMS, state.pool))]
    lines += [_path_line(q, nm, fr) for q in state.board.quadrants]
    lines += [_character_line(c, nm, fr, colon) for c in state.characters]
    if state.last_appel:
        la = state.last_appel
        lines.append(("Dernier Appel" if fr else "Last Appel") + f"{colon}{nm[la['season']]}, {_name_of(state, la['leader'])},"
                     f" N {la['N']} → " + (RESULT_NAMES[la["result"]][lang] if la.get("result") in RESULT_NAMES else "?"))
    if state.appel is not None:
        a = state.appel
        lines.append(("Appel en cours" if fr else "Appel in progress")
                     + f"{colon}{nm[a.season]}, {_name_of(state, a.leader)}, N {a.n}"
                     + ((" ; main : " if fr else "; hand: ") + ", ".join(nm[g] for g in a.hand) if a.hand else ""))
    lines.append(_expects_line(expects(state), lang, colon))
    return "\n".join(lines)


def _name_of(state: EspriState, cid: str) -> str:
    return next((c.name for c in state.characters if c.id == cid), cid)


def _path_line(q: Quadrant, nm: Mapping[str, str], fr: bool) -> str:
    """One path: its gems from the start cell (``*``), the Nymph's cell in brackets."""
    path = "".join(("[" + _SYM[g] + "]") if i + 1 == q.nymph else _SYM[g] for i, g in enumerate(q.cells))
    start = "[*]" if q.nymph == 0 else "*"
    return (f"{nm[q.season]:<9} {NYMPHS[q.season]:<8} {start}{path}  "
            + (f"Météo {q.weather}, Nymphe case {q.nymph}" if fr else f"Weather {q.weather}, Nymph on cell {q.nymph}"))


def _character_line(c: Character, nm: Mapping[str, str], fr: bool, colon: str) -> str:
    if c.season:
        role = f"Gardien·ne — {nm[c.season]}" if fr else f"Guardian of {nm[c.season]}"
    else:
        role = "Prêtresse" if fr else "Priestess"
    scores = ", ".join(f"{nm[s]} {c.score(s)}" for s in SEASONS)
    prayers = ", ".join(nm[g] for g in c.prayers) or "-"
    if fr:
        tail = f" ; Dévotion {c.devotion}, Harmonie {c.harmony}, Rupture {c.rupture} ; Prières : {prayers}"
    else:
        tail = f"; Devotion {c.devotion}, Harmony {c.harmony}, Rupture {c.rupture}; Prayers: {prayers}"
    fallen = ("" if not c.fallen else " — CHUTE" if fr else " — FALLEN")
    return f"{c.name} ({role}){colon}{scores}{tail}{fallen}"


def _expects_line(ex: Mapping[str, Any], lang: str, colon: str) -> str:
    """What the table waits for, in words, with its count of gems or its choices."""
    fr = lang == "fr"
    detail = ""
    if "gems" in ex and isinstance(ex["gems"], int):
        detail = f" ({ex['gems']} {'gemme(s)' if fr else 'gem(s)'})"
    elif ex["step"] == "choose":
        if ex["chooser"] == "gm":
            detail = " (" + ("le MJ" if fr else "the GM")
        else:
            detail = " (" + ("le leader" if fr else "the leader")
        label_lang = lang if lang in ("fr", "en") else "fr"
        detail += colon + ", ".join(s["label"][label_lang] for s in ex["selections"]) + ")"
    if ex.get("blocked"):
        detail += " — " + ex["blocked"]["fr" if fr else "en"]
    step: str = _STEP_WORDS.get(ex["step"], (ex["step"], ex["step"]))[0 if fr else 1]
    return ("Attendu" if fr else "Expects") + colon + step + detail
