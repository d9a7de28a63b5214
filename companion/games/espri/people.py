"""Characters between Appels: bonuses/maluses (R15), Harmony (R32), Rupture (R33), the
Fall (R34), Prayers (R31), Resonance recharge (R30), the Communion Ritual (R35).

Events: ``espri.effect``, ``espri.effect_clear``, ``espri.harmony``, ``espri.rupture``,
``espri.harmony_gift``, ``espri.save``, ``espri.recharge``, ``espri.communion``,
``espri.redeem``.

**[Decision] After a Fall (R34).** The source says only "the player must meet the GM".
The Fall stays (a broken Medium does not mend by itself when Harmony rises), and the
table is never stuck: when nobody can lead an Appel, ``expects`` says so and names the
two ways on, both the GM's call after that meeting: a new character for the player
(``espri.character``), or ``espri.redeem`` — the GM lifts the Fall, setting Harmony
and/or Rupture as the story settles them (``{"character", "harmony"?, "rupture"?}``),
refused while Rupture would still exceed Harmony (R34 would strike again at once).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ..base import de
from ..refusal import malformed
from ...events import Event
from . import board as B
from .common import Handled, check_fall, refuse, gain_rupture, gem_name, gems_text, get_effect, get_int, get_str, out
from .state import replace, GEMS, MAX_POINTS, SEASONS, Effect, EspriState, check_gem, pool_add, pool_take


#: The French names of the moves that wait for the end of an Appel.
_WHAT_FR = {"Harmony gift": "Don d'Harmonie", "save": "Sauvetage", "Communion": "Communion",
            "Lifting a Fall": "Relever une Chute"}


def _no_appel(state: EspriState, what: str) -> None:
    if state.appel is not None and state.appel.step != "draw":
        raise refuse("R9", f"{_WHAT_FR.get(what, what)}\u202f: attendez la fin de l'Appel", f"{what}: wait for the end of the Appel")


def effect(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R15: a temporary bonus/malus on a character (kept until ``espri.effect_clear``)."""
    d = ev.data
    ch = state.char(d.get("character"))
    e = get_effect(d)
    state = state.with_char(replace(ch, effects=ch.effects + (e,)))
    sign = f"{e.value:+d}"
    return state, [out("effect", f"{ch.name} : {sign} {e.label}".strip() + ".", f"{ch.name}: {sign} {e.label}".strip() + ".",
                       character=ch.id, effect=e.to_json())]


def effect_clear(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    ch = state.char(ev.data.get("character"))
    idx = ev.data.get("index")
    if idx is None:
        effects: tuple[Effect, ...] = ()
    else:
        if not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx < len(ch.effects):
            raise malformed(f"pas d'effet {idx!r} sur {ch.name}", f"no effect {idx!r} on {ch.name}")
        effects = ch.effects[:idx] + ch.effects[idx + 1:]
    return state.with_char(replace(ch, effects=effects)), [out(
        "effect_clear", f"Effets {de(ch.name)} retirés.", f"{ch.name}'s effects cleared.", character=ch.id)]


def harmony(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R32: the GM grants (or removes) Harmony. Fall check (R34)."""
    ch = state.char(ev.data.get("character"))
    delta = get_int(ev.data, "delta", 1, -MAX_POINTS, MAX_POINTS, "R32",
                    ("la variation d'Harmonie", "the change of Harmony"))
    if ch.harmony + delta < 0:
        raise refuse("R32", f"{ch.name} n'a que {ch.harmony} point(s) d'Harmonie",
                     f"{ch.name} has {ch.harmony} Harmony")
    if ch.harmony + delta > MAX_POINTS:
        raise refuse("R32", f"l'Harmonie va de 0 à {MAX_POINTS}\u202f: {ch.name} en a {ch.harmony}, pas {ch.harmony + delta}",
                     f"Harmony is 0 to {MAX_POINTS}: {ch.name} has {ch.harmony}, not {ch.harmony + delta}")
    new, falls = check_fall(ch, replace(ch, harmony=ch.harmony + delta))
    return state.with_char(new), [out("harmony", f"{ch.name} : Harmonie {ch.harmony} → {new.harmony}.",
                                      f"{ch.name}: Harmony {ch.harmony} → {new.harmony}.",
                                      character=ch.id, harmony=new.harmony)] + falls


def rupture(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R33: Rupture points (Anathema, exposure), each with a Rupture Prayer gem."""
    cid = state.char(ev.data.get("character")).id
    points = get_int(ev.data, "points", 1, 1, 12, "R33", ("les points de Rupture", "the Rupture points"))
    if state.char(cid).rupture + points > MAX_POINTS:
        raise refuse("R33", f"les points de Rupture vont de 0 à {MAX_POINTS}", f"Rupture points are 0 to {MAX_POINTS}")
    why = str(ev.data.get("why", "Anathème"))
    outs = []
    for _ in range(points):
        state, more = gain_rupture(state, cid, rng, why)
        outs += more
    return state, outs


def harmony_gift(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R32.1 / E19: spend Harmony (1 per gem by default) to take gems of one's own Season
    (Time for a Priestess) from the pool into a Quartet member's Prayers (cap: Dévotion)."""
    _no_appel(state, "Harmony gift")
    ch = state.char(ev.data.get("character"))
    to = state.char(ev.data.get("to", ch.id))
    count = get_int(ev.data, "count", 1, 1, 12, "R32", ("le nombre de gemmes", "the count of gems"))
    cost = count * state.options.harmony_cost_per_gem
    if ch.harmony < cost:
        raise refuse("R32", f"{ch.name} a {ch.harmony} Harmonie, il en faut {cost}",
                     f"{ch.name} has {ch.harmony} Harmony, {cost} needed")
    if len(to.prayers) + count > to.devotion:
        raise refuse("R31", f"{to.name} porte {len(to.prayers)} Prière(s) sur {to.devotion} au plus (Dévotion)",
                     f"{to.name} holds {len(to.prayers)} Prayer(s) of at most {to.devotion} (Dévotion)")
    gems = [ch.own_gem] * count
    pool = pool_take(state.pool, gems)
    state = state.with_char(replace(ch, harmony=ch.harmony - cost))
    to = state.char(to.id)
    state = replace(state.with_char(replace(to, prayers=to.prayers + tuple(gems))), pool=pool)
    return state, [out("harmony_gift", f"{ch.name} dépense {cost} Harmonie : {gems_text(gems, 'fr')} en Prière pour {to.name}.",
                       f"{ch.name} spends {cost} Harmony: {gems_text(gems, 'en')} into {to.name}'s Prayers.",
                       character=ch.id, to=to.id, gems=gems)]


def save(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R31.2: spend a Prayer of the saved character's own Season (Time for a Priestess) to
    save another character from death; the gem goes straight to the pool."""
    _no_appel(state, "save")
    ch = state.char(ev.data.get("character"))
    target = state.char(ev.data.get("target"))
    if target.id == ch.id:
        raise refuse("R31", "une Prière sauve un autre personnage que le sien", "a Prayer saves a character other than one's own")
    gem = target.own_gem
    if gem not in ch.prayers:
        raise refuse("R31", f"{ch.name} n'a pas de Prière {gem_name(gem, 'fr')} (la Saison {de(target.name)})",
                     f"{ch.name} holds no {gem} Prayer (the Season of {target.name})")
    i = ch.prayers.index(gem)
    state = replace(state.with_char(replace(ch, prayers=ch.prayers[:i] + ch.prayers[i + 1:])),
                    pool=pool_add(state.pool, [gem]))
    return state, [out("save", f"{ch.name} dépense une Prière {gem_name(gem, 'fr')} : {target.name} est sauvé·e de la mort.",
                       f"{ch.name} spends a {gem_name(gem, 'en')} Prayer: {target.name} is saved from death.",
                       character=ch.id, target=target.id, gem=gem)]


def recharge(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R30: manifesting the Relationship recharges Resonance to its maximum; only at 0,
    once per day per person."""
    ch = state.char(ev.data.get("character"))
    other = get_str(ev.data, "with")
    r = ch.resonance_with(other)
    if r is None:
        raise refuse("R30", f"{ch.name} n'a pas de Relation avec {other}", f"{ch.name} has no Relationship with {other}")
    if r.current != 0:
        raise refuse("R30", f"la Résonance {r.current}/{r.maximum} n'est pas à 0\u202f: pas de recharge",
                     f"Resonance {r.current}/{r.maximum} is not at 0: no recharge")
    if r.recharged_day == state.day:
        raise refuse("R30", f"{ch.name} a déjà rechargé sa Résonance avec {other} aujourd'hui",
                     f"{ch.name} has already recharged their Resonance with {other} today")
    state = state.with_char(ch.with_resonance(replace(r, current=r.maximum, recharged_day=state.day)))
    return state, [out("recharge", f"{ch.name} manifeste sa relation ({r.nature or '—'}) : Résonance avec {other} {r.maximum}/{r.maximum}.",
                       f"{ch.name} manifests the Relationship ({r.nature or '—'}): Resonance with {other} {r.maximum}/{r.maximum}.",
                       character=ch.id, other=other)]


def communion(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R35 / E21: the Communion Ritual, in one event::

        {"members": {"ID": {"pay": "harmony" | "prayer", "gem": G?,
                            "remove": [{"quadrant", "cell"}, ...]}, ...},
         "ruptures": [{"quadrant", "cell"}, ...]}

    Allowed with 12 or fewer gems in the pool. A member who pays (1 Harmony or 1 Prayer
    gem, to the pool) may remove up to their tutelary score (Dévotion for a Priestess)
    gems of their own Season (Time). Then one Rupture per complete set of the five gem
    types removed. Everything is checked before anything changes.
    """
    _no_appel(state, "Communion")
    if state.appel is not None:
        raise refuse("R35", "Communion\u202f: attendez la fin de l'Appel", "Communion: wait for the end of the Appel")
    limit = state.options.communion_pool_max
    if sum(state.pool) > limit:
        raise refuse("R35", f"le Rituel de Communion demande {limit} gemmes ou moins dans la réserve ({sum(state.pool)} maintenant)",
                     f"the Communion Ritual needs {limit} or fewer gems in the pool ({sum(state.pool)} now)")
    members = ev.data.get("members", {})
    if not isinstance(members, Mapping):
        raise malformed("«\u202fmembers\u202f» associe à chaque identifiant de personnage {pay, gem?, remove}",
                        "'members' maps each character id to {pay, gem?, remove}")
    pool = state.pool
    cells: list[tuple[str, int]] = []
    per_member: list[tuple[str, list[tuple[str, int]]]] = []
    outs = []
    for cid, m in members.items():
        ch = state.char(cid)
        if not isinstance(m, Mapping):
            raise malformed(f"membre {cid}\u202f: {{pay, gem?, remove}}", f"member {cid}: {{pay, gem?, remove}}")
        pay = m.get("pay")
        if pay == "harmony":
            if ch.harmony < 1:
                raise refuse("R35", f"{ch.name} n'a pas d'Harmonie à payer", f"{ch.name} has no Harmony to pay")
            ch = replace(ch, harmony=ch.harmony - 1)
        elif pay == "prayer":
            g = check_gem(m.get("gem"))
            if g not in ch.prayers:
                raise refuse("R35", f"{ch.name} n'a pas de Prière {gem_name(g, 'fr')}", f"{ch.name} holds no {g} Prayer")
            i = ch.prayers.index(g)
            ch = replace(ch, prayers=ch.prayers[:i] + ch.prayers[i + 1:])
            pool = pool_add(pool, [g])
        else:
            raise refuse("R35", f"{ch.name} paie 1 Harmonie («\u202fharmony\u202f») ou 1 gemme de Prière («\u202fprayer\u202f»)",
                         f"{ch.name} pays 1 Harmony ('harmony') or 1 Prayer gem ('prayer')")
        mine = B.parse_cells(m.get("remove", []), "remove")
        cap = ch.devotion if ch.season is None else ch.score(ch.season)
        if len(mine) > cap:
            raise refuse("R35", f"{ch.name} retire au plus {cap} gemme(s)", f"{ch.name} removes at most {cap} gem(s)")
        new, falls = check_fall(state.char(cid), ch)
        state = state.with_char(new)
        outs += falls
        cells += mine
        per_member.append((cid, mine))
    board = state.board
    removed_all = []
    moves: list[Mapping[str, Any]] = []
    for cid, mine in per_member:
        ch = state.char(cid)
        board, removed, mv = B.remove_cells(board, mine, only=[ch.own_gem])
        removed_all += removed
        moves += mv
    counts = {g: sum(1 for r in removed_all if r["gem"] == g) for g in GEMS}
    sets = min(counts[g] for g in SEASONS + ("temps",))
    rupt = B.parse_cells(ev.data.get("ruptures", []), "ruptures")
    if len(rupt) > sets:
        raise refuse("R35", f"{sets} série(s) complète(s) des cinq gemmes retirée(s)\u202f: au plus {sets} gemme(s) de Rupture",
                     f"{sets} complete set(s) of the five gems removed: at most {sets} Rupture gem(s)")
    board, rremoved, mv = B.remove_cells(board, rupt, only=["rupture"])
    moves += mv
    pool = pool_add(pool, [r["gem"] for r in removed_all + rremoved])
    state = replace(state, board=board, pool=pool)
    return state, [out("communion", f"Rituel de Communion (1 heure) : {len(removed_all)} gemme(s) et {len(rremoved)} Rupture(s) retirées.",
                       f"Communion Ritual (1 hour): {len(removed_all)} gem(s) and {len(rremoved)} Rupture gem(s) removed.",
                       removals=removed_all + rremoved, moves=moves, sets=sets)] + outs




def redeem(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """[Decision] The GM lifts a Fall (see the module docstring): optional new Harmony and
    Rupture scores, Rupture no higher than Harmony afterwards."""
    _no_appel(state, "Lifting a Fall")
    ch = state.char(ev.data.get("character"))
    if not ch.fallen:
        raise refuse("R34", f"{ch.name} n'a pas chuté", f"{ch.name} has not fallen")
    h = get_int(ev.data, "harmony", ch.harmony, 0, MAX_POINTS, "R32", ("l'Harmonie", "Harmony"))
    r = get_int(ev.data, "rupture", ch.rupture, 0, MAX_POINTS, "R33", ("la Rupture", "Rupture"))
    if r > h:
        raise refuse("R34", f"{ch.name} aurait encore Rupture {r} > Harmonie {h}\u202f: donnez les scores que fixe le MJ"
                     " («\u202fharmony\u202f», «\u202frupture\u202f») pour que la Rupture ne dépasse pas l'Harmonie",
                     f"{ch.name} would still have Rupture {r} > Harmony {h}: give the scores the GM settles on"
                     " ('harmony', 'rupture') so that Rupture is not above Harmony")
    new = replace(ch, fallen=False, harmony=h, rupture=r)
    return state.with_char(new), [out(
        "redeem", f"Le MJ relève {ch.name} de sa chute : Harmonie {h}, Rupture {r} ; le lien avec les Nymphes est renoué.",
        f"The GM lifts {ch.name}'s Fall: Harmony {h}, Rupture {r}; the link with the Nymphs is restored.",
        character=ch.id, harmony=h, rupture=r)]
