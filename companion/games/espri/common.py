"""Shared helpers of the ESPRI handlers: reading event data, bilingual texts, the Rupture
point (R33) and the Fall check (R34)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...errors import CompanionError, RuleError
from ..refusal import malformed
from ..base import Outcome, text
from .options import MAX_PER_COLOUR
from .state import (
    GEM_NAMES, GEMS, MAX_EFFECT, RESULT_NAMES, RESULTS, SEASONS, Appel, Character, Effect, EspriState, check_gem,
    check_season, bilingual, pool_add, shown, pool_take, replace,
)

Handled = tuple[EspriState, list[Outcome]]


def get_int(data: Mapping[str, Any], key: str, default: int | None = None, lo: int | None = None,
            hi: int | None = None, rule: str | None = None, what: tuple[str, str] | None = None) -> int:
    """The whole number ``data[key]`` (``default`` when absent), within ``lo..hi``.

    A missing, mistyped or out-of-range value is refused in both languages, naming the
    field (``what``: its French and English name, by default the key) and the range: a
    :class:`RuleError` naming ``rule`` (the rule that bounds it), else an
    :class:`EventError`.
    """
    value = data.get(key, default)
    fr_name, en_name = what if what is not None else (f"«\u202f{key}\u202f»", f"'{key}'")
    if value is None:
        raise bad_value(rule, f"{fr_name} est requis (un nombre entier)", f"{en_name} is required (an integer)")
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad_value(rule, f"{fr_name} doit être un nombre entier, pas {shown(value)}",
                        f"{en_name} must be an integer, not {shown(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        if hi is None:
            fr, en = f"au moins {lo}", f"at least {lo}"
        elif lo is None:
            fr, en = f"au plus {hi}", f"at most {hi}"
        else:
            fr, en = f"entre {lo} et {hi}", f"from {lo} to {hi}"
        raise bad_value(rule, f"{fr_name} doit valoir {fr}, pas {shown(value)}",
                        f"{en_name} must be {en}, not {shown(value)}")
    return value


def bad_value(rule: str | None, fr: str, en: str) -> CompanionError:
    """A refused value in both languages: a :class:`RuleError` naming ``rule`` when a rule
    bounds it (see :func:`refuse`), else an :class:`EventError` (the event is malformed)."""
    if rule is not None:
        return refuse(rule, fr, en)
    return malformed(fr, en)


def get_effect(d: Mapping[str, Any]) -> Effect:
    """R15 / E17: a bonus or malus ``{value, season?, minimum?, maximum?, label?}``: value
    and bounds within ±:data:`~.state.MAX_EFFECT`, the Season one of the four (none: all)."""
    season = d.get("season")
    if season is not None:
        check_season(season)
    value = get_int(d, "value", None, -MAX_EFFECT, MAX_EFFECT, "R15",
                    ("la valeur du bonus ou malus", "the bonus or malus value"))
    mn, mx = (None if d.get(k) is None else get_int(d, k, None, -MAX_EFFECT, MAX_EFFECT, "E17", (f"le {k}", f"the {k}"))
              for k in ("minimum", "maximum"))
    return Effect(value, season, mn, mx, str(d.get("label", "")))


def get_bool(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise malformed(f"«\u202f{key}\u202f» doit valoir true ou false", f"'{key}' must be true or false")
    return value


def get_str(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value:
        raise malformed(f"«\u202f{key}\u202f» est requis (un texte)", f"'{key}' is required (a string)")
    return value


def get_gems(data: Mapping[str, Any], key: str = "gems") -> list[str]:
    """A list of gem keys; also accepts ``{"hiver": 2, "temps": 1}``, and for ``gems`` a
    camera event's ``read`` (``vision.result.Read.to_json()``: its ``gem`` objects; a pending
    or unknown gem is refused so the players confirm it, never guessed)."""
    raw = data.get(key)
    if raw is None and key == "gems" and isinstance(data.get("read"), Mapping):
        objs = data["read"].get("objects", [])
        if not isinstance(objs, list):
            raise malformed("«\u202fread.objects\u202f» doit être une liste", "'read.objects' must be a list")
        raw = []
        for o in objs:
            if not isinstance(o, Mapping) or o.get("kind") != "gem":
                continue
            if o.get("status") == "pending" or o.get("value") not in GEMS:
                raise refuse("R1", "une gemme de la lecture est incertaine\u202f: confirmez les couleurs sur la tablette",
                             "a gem of the camera read is uncertain: confirm the colours on the tablet")
            raw.append(o["value"])
    if isinstance(raw, Mapping):
        unknown = sorted(map(str, set(raw) - set(GEMS)))
        if unknown:
            raise refuse("R1", f"couleur(s) inconnue(s) {', '.join(unknown)[:40]}\u202f: les gemmes sont {', '.join(GEMS)}",
                         f"unknown gem(s) {', '.join(unknown)[:40]}; gems are {', '.join(GEMS)}")
        out: list[str] = []
        for g in GEMS:
            # R1: a colour has gems_per_colour gems, at most MAX_PER_COLOUR
            out += [g] * get_int(raw, g, 0, 0, MAX_PER_COLOUR, "R1",
                                 (f"le nombre de gemmes {g}", f"the count of {g} gems"))
        return out
    if not isinstance(raw, list):
        raise bad_value(None, f"«\u202f{key}\u202f» est une liste de gemmes ({', '.join(GEMS)})",
                        f"'{key}' must be a list of gems ({', '.join(GEMS)})")
    if len(raw) > MAX_PER_COLOUR * len(GEMS):
        raise refuse("R1", f"{len(raw)} gemmes, c'est plus qu'il n'en existe", f"{len(raw)} gems is more than there are")
    return [check_gem(g) for g in raw]


def gem_name(gem: str, lang: str) -> str:
    return GEM_NAMES[gem][lang]


def gems_text(gems: list[str] | tuple[str, ...], lang: str) -> str:
    if not gems:
        return "aucune" if lang == "fr" else "none"
    return ", ".join(gem_name(g, lang) for g in gems)


def result_name(level: int, lang: str) -> str:
    return RESULT_NAMES[RESULTS[level]][lang]


_STEP_FR = {"draw": "tirage", "choose": "choix", "extras": "gemmes de la Réussite", "keep_prayer": "Prière gardée",
            "rupture_removal": "Rupture retirée"}


#: A refusal in both languages naming its rule (:func:`.state.bilingual`).
refuse = bilingual


def out(kind: str, fr: str, en: str, **data: Any) -> Outcome:
    return Outcome(f"espri.{kind}", text(fr, en), data)


def check_fall(before: Character, after: Character) -> tuple[Character, list[Outcome]]:
    """R34: Rupture strictly above Harmony: the character falls (sticky, see docs)."""
    if after.fallen or after.rupture <= after.harmony:
        return after, []
    fallen = replace(after, fallen=True)
    return fallen, [out(
        "fall",
        f"{after.name} chute : Rupture {after.rupture} > Harmonie {after.harmony}. Plus de pouvoirs de"
        " Gardien, le Médium est brisé, plus de lien avec les Nymphes. Voir le MJ.",
        f"{after.name} falls: Rupture {after.rupture} > Harmony {after.harmony}. Guardian powers lost,"
        " Medium broken, no more link with the Nymphs. See the GM.",
        character=after.id, rupture=after.rupture, harmony=after.harmony,
    )]


def gain_rupture(state: EspriState, cid: str, rng: random.Random, why: str) -> Handled:
    """R33: +1 Rupture point and a Rupture gem from the pool into the Prayers; if the
    Prayers are full one Prayer chosen at random is replaced (it goes to the pool, E20).
    No Rupture gem left in the pool: the point only (E9)."""
    ch = state.char(cid)
    pool = state.pool
    prayers = ch.prayers
    note_fr = note_en = ""
    replaced = None
    if pool[GEMS.index("rupture")] == 0:
        note_fr, note_en = " (plus de gemme de Rupture dans la pioche)", " (no Rupture gem left in the pool)"
    elif len(prayers) < ch.devotion:
        pool = pool_take(pool, ["rupture"])
        prayers = prayers + ("rupture",)
    elif prayers:
        i = rng.randrange(len(prayers))
        replaced = prayers[i]
        pool = pool_add(pool_take(pool, ["rupture"]), [replaced])
        prayers = prayers[:i] + ("rupture",) + prayers[i + 1:]
        note_fr = f" (remplace une Prière {gem_name(replaced, 'fr')}, tirée au hasard)"
        note_en = f" (replaces a {gem_name(replaced, 'en')} Prayer, chosen at random)"
    new = replace(ch, rupture=ch.rupture + 1, prayers=prayers)
    new, falls = check_fall(ch, new)
    state = replace(state.with_char(new), pool=pool)
    o = out("rupture_point",
            f"{ch.name} prend 1 point de Rupture ({why}) et une Prière de Rupture{note_fr}.",
            f"{ch.name} takes 1 Rupture point ({why}) and a Rupture Prayer{note_en}.",
            character=cid, rupture=new.rupture, replaced=replaced)
    return state, [o] + falls


# -- shared by the Appel modules ---------------------------------------------------
def need_step(state: EspriState, step: str | tuple[str, ...]) -> Appel:
    a = state.appel
    steps = (step,) if isinstance(step, str) else step
    if a is None:
        raise refuse("R9", "aucun Appel en cours\u202f: le MJ en annonce un d'abord",
                     "no Appel in progress: the GM announces one first (espri.appel)")
    if a.step not in steps:
        raise refuse("R9", f"l'Appel attend l'étape «\u202f{_STEP_FR.get(a.step, a.step)}\u202f», pas"
                     f" «\u202f{' / '.join(_STEP_FR.get(x, x) for x in steps)}\u202f»",
                     f"the Appel waits for step '{a.step}', not '{'/'.join(steps)}'")
    return a


def current_appel(state: EspriState) -> Appel:
    """The Appel in progress, for the steps that only run during one (an internal error,
    never a user's, when there is none)."""
    if state.appel is None:
        raise refuse("R9", "erreur interne\u202f: aucun Appel en cours à cette étape", "internal error: no Appel in progress at this step")
    return state.appel


def candidates(a: Appel) -> list[str]:
    return list(a.hand) + ([a.prayer] if a.prayer else [])


def season_first(gems: list[str]) -> list[str]:
    """E25 default: the Season gem first, then Time/Rupture."""
    return [g for g in gems if g in SEASONS] + [g for g in gems if g not in SEASONS]


def where_text(r: Mapping[str, Any], lang: str) -> str:
    g, q = gem_name(r["gem"], lang), gem_name(r["quadrant"], lang)
    if r["cell"] is None:
        return f"{g} → pioche (chemin {q} plein)" if lang == "fr" else f"{g} → pool ({q} path full)"
    return f"{g} → chemin {q}, case {r['cell']}" if lang == "fr" else f"{g} → {q} path, cell {r['cell']}"


def moves_text(moves: Sequence[Mapping[str, Any]], lang: str) -> str:
    parts = []
    for m in moves:
        if "nymph" not in m:
            continue
        parts.append(f" {m['nymph']} : case {m['from']} → {m['to']}." if lang == "fr"
                     else f" {m['nymph']}: cell {m['from']} → {m['to']}.")
    return "".join(parts)
