"""Characters, the scenario set-up (R7), and the GM's board events (R5, R38, R39).

Events: ``espri.character``, ``espri.relationship``, ``espri.setup_draw``,
``espri.setup_keep``, ``espri.setup_gm``, ``espri.set_quadrant``, ``espri.nymph``,
``espri.remove``, ``espri.new_day``, ``espri.new_session``.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ..base import de
from ..refusal import malformed
from ...events import Event, Source
from . import board as B
from .common import Handled, bad_value, gem_name, gems_text, get_bool, get_gems, get_int, get_str, out, refuse
from .state import (
    replace, MAX_POINTS, MAX_SCORE,
    BOARD_ORDER, GEMS, NYMPHS, SEASONS, Character, EspriState, Quadrant, Resonance, check_gem,
    check_season, pool_add, pool_take, relation,
)


#: The French names of the moves that wait for no Appel and no set-up draw.
_WHAT_FR = {"set-up draw": "Tirage de mise en place", "GM set-up": "Mise en place du MJ",
            "set a path": "Tracer un chemin", "move a Nymph": "Déplacer une Nymphe",
            "remove gems": "Retirer des gemmes", "new session": "Nouvelle séance"}


def _fr(gem: str) -> str:
    """A gem's French name (the key itself when unknown)."""
    return gem_name(gem, "fr") if gem in GEMS else gem


def _idle(state: EspriState, what: str) -> None:
    fr = _WHAT_FR.get(what, what)
    if state.appel is not None:
        raise refuse("R9", f"{fr}\u202f: un Appel est en cours (terminez-le ou annulez)",
                     f"{what}: an Appel is in progress (finish it or undo)")
    if state.setup_hand is not None:
        who = state.setup_hand[0]
        raise refuse("R7", f"{fr}\u202f: le tirage de mise en place {de(who)} attend le choix des gemmes gardées",
                     f"{what}: {who}'s set-up draw waits for the keep choice")


def character(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """Add (or replace, before any Prayer) a Guardian or a Priestess; caps of table 1.4."""
    d = ev.data
    cid = get_str(d, "id")
    role = d.get("role", "guardian")
    if role not in ("guardian", "priestess"):
        raise malformed("«\u202frole\u202f» doit être «\u202fguardian\u202f» ou «\u202fpriestess\u202f»",
                        "'role' must be 'guardian' or 'priestess'")
    season = None if role == "priestess" else check_season(d.get("season"), "tutelary Season")
    scores = _scores(d.get("scores"))
    devotion = get_int(d, "devotion", None, 0, MAX_SCORE, "1.4", ("la Dévotion", "Devotion"))
    if state.options.enforce_score_caps:
        _check_caps(role, season, scores, devotion)
    talents = d.get("talents", [])
    if not isinstance(talents, list) or not all(isinstance(t, str) for t in talents):
        raise malformed("«\u202ftalents\u202f» doit être une liste de textes", "'talents' must be a list of strings")
    prayers = tuple(get_gems(d, "prayers")) if "prayers" in d else ()
    if len(prayers) > devotion:
        raise refuse("R31", f"{len(prayers)} gemmes de Prière, c'est plus que la Dévotion ({devotion})",
                     f"{len(prayers)} Prayer gems is more than Dévotion {devotion}")
    pool = state.pool
    old = next((c for c in state.characters if c.id == cid), None)
    if old is not None:
        pool = pool_add(pool, old.prayers)
    pool = pool_take(pool, prayers)
    ch = Character(
        id=cid, name=str(d.get("name", cid)), role=role, season=season, scores=scores,
        devotion=devotion, harmony=get_int(d, "harmony", 0, 0, MAX_POINTS, "R32", ("l'Harmonie", "Harmony")),
        rupture=get_int(d, "rupture", 0, 0, MAX_POINTS, "R33", ("la Rupture", "Rupture")),
        prayers=prayers, talents=tuple(talents), resonance=_relationships(d.get("relationships", []) or []),
        set_up=get_bool(d, "set_up", "prayers" in d),
    )
    chars = tuple(ch if c.id == cid else c for c in state.characters)
    if old is None:
        chars = chars + (ch,)
    who = f"Gardien de {gem_name(season, 'fr')}" if season else "Prêtresse"
    who_en = f"Guardian of {gem_name(season, 'en')}" if season else "Priestess"
    return replace(state, characters=chars, pool=pool), [out(
        "character", f"{ch.name} ({who}) rejoint le Quatuor.", f"{ch.name} ({who_en}) joins the Quartet.",
        character=cid)]


_DE = {"hiver": "d'Hiver", "printemps": "de Printemps", "ete": "d'Été", "automne": "d'Automne"}


def _scores(raw: Any) -> tuple[int, int, int, int]:
    """The four Season scores of a sheet, in :data:`SEASONS` order (a missing one is 0)."""
    if not isinstance(raw, Mapping) or set(raw) - set(SEASONS):
        raise malformed(f"«\u202fscores\u202f» associe à chacune des quatre Saisons ({', '.join(SEASONS)}) un score",
                        f"'scores' must map the four Seasons ({', '.join(SEASONS)}) to scores")
    hiver, printemps, ete, automne = (get_int(raw, s, 0, 0, MAX_SCORE, "1.4", (f"le score {_DE[s]}", f"the {gem_name(s, 'en')} score"))
                                      for s in SEASONS)
    return hiver, printemps, ete, automne


def score_cap(season: str | None, s: str) -> int:
    """Table 1.4: a Guardian's cap in Season ``s`` (6 in the tutelary Season, 4 in the
    opposite one, 5 otherwise); a Priestess (``season`` None): 5."""
    if season is not None and s == season:
        return 6
    if season is not None and relation(s, season) == "opposite":
        return 4
    return 5


def _check_caps(role: str, season: str | None, scores: tuple[int, ...], devotion: int) -> None:
    for s, v in zip(SEASONS, scores):
        cap = score_cap(season, s)
        if v > cap:
            raise refuse("1.4", f"{gem_name(s, 'fr')} {v} dépasse son plafond de {cap} pour ce personnage",
                         f"{s} {v} is above its cap {cap} for this character")
    dev_cap = 6 if role == "priestess" else 5
    if devotion > dev_cap:
        raise refuse("1.4", f"Dévotion {devotion} dépasse son plafond de {dev_cap}",
                     f"Dévotion {devotion} is above its cap {dev_cap}")


def _relationships(raw: Any) -> tuple[Resonance, ...]:
    """The sheet's Relationships: ``[{with, resonance, nature}]`` (E24: the Resonance maximum)."""
    if not isinstance(raw, list):
        raise bad_value(None, "«\u202frelationships\u202f» est une liste de {with, resonance, nature}",
                        "'relationships' must be a list of {with, resonance, nature}")
    res = []
    for r in raw:
        if not isinstance(r, Mapping):
            raise malformed("chaque relation est {with, resonance, nature}", "each relationship is {with, resonance, nature}")
        m = get_int(r, "resonance", 1, 0, MAX_SCORE, "E24", ("la Résonance", "Resonance"))
        res.append(Resonance(get_str(r, "with"), m, m, str(r.get("nature", ""))))
    return tuple(res)


def relationship(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """A Relationship and its Resonance maximum (E24), set by the GM."""
    d = ev.data
    ch = state.char(d.get("character"))
    other = get_str(d, "with")
    m = get_int(d, "resonance", 1, 0, MAX_SCORE, "E24", ("la Résonance", "Resonance"))
    old = ch.resonance_with(other)
    cur = m if old is None else min(old.current, m)
    ch = ch.with_resonance(Resonance(other, cur, m, str(d.get("nature", old.nature if old else "")),
                                     old.recharged_day if old else None))
    return state.with_char(ch), [out("relationship", f"Relation {de(ch.name)} avec {other} : Résonance {cur}/{m}.",
                                     f"{ch.name}'s Relationship with {other}: Resonance {cur}/{m}.",
                                     character=ch.id, other=other)]


def setup_count(ch: Character) -> int:
    """R7.2: Dévotion + tutelary Season score (a Priestess: her best Season)."""
    return ch.devotion + (ch.score(ch.season) if ch.season else max(ch.scores))


def setup_draw(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R7.2. Sent again as a correction (source ``correction`` or ``"correction": true``)
    while the keep choice waits, it replaces the drawn gems."""
    if state.setup_hand is not None and (ev.source == Source.CORRECTION or ev.data.get("correction") is True):
        cid, hand = state.setup_hand
        gems = get_gems(ev.data)
        if len(gems) != len(hand):
            raise refuse("R7", f"la correction doit nommer {len(hand)} gemme(s), comme au tirage",
                         f"the correction must name {len(hand)} gem(s), as drawn")
        pool = pool_take(pool_add(state.pool, hand), gems)
        return replace(state, pool=pool, setup_hand=(cid, tuple(gems))), [out(
            "setup_draw_corrected", f"Tirage corrigé : {gems_text(gems, 'fr')}.",
            f"Draw corrected: {gems_text(gems, 'en')}.", character=cid, gems=gems)]
    _idle(state, "set-up draw")
    ch = state.char(ev.data.get("character"))
    if ch.set_up:
        raise refuse("R7", f"{ch.name} a déjà fait son tirage de mise en place", f"{ch.name} has already made the set-up draw")
    gems = get_gems(ev.data)
    want = min(setup_count(ch), sum(state.pool))
    if len(gems) != want:
        raise refuse("R7", f"{ch.name} pioche {want} gemmes à la mise en place (Dévotion + Saison), pas {len(gems)}",
                     f"{ch.name} draws {want} gems at set-up (Dévotion + Season), not {len(gems)}")
    pool = pool_take(state.pool, gems)
    keep = min(ch.devotion, sum(1 for g in gems if g != "rupture"))
    return replace(state, pool=pool, setup_hand=(ch.id, tuple(gems))), [out(
        "setup_draw",
        f"{ch.name} pioche {gems_text(gems, 'fr')} : garder {keep} Prière(s), poser le reste (Rupture toujours posée).",
        f"{ch.name} draws {gems_text(gems, 'en')}: keep {keep} Prayer(s), place the rest (Rupture is always placed).",
        character=ch.id, gems=gems, keep=keep)]


def setup_keep(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R7.3-4: keep Dévotion gems as Prayers (never Rupture), place the rest (R2, R3)."""
    if state.setup_hand is None:
        raise refuse("R7", "aucun tirage de mise en place n'attend de choix", "no set-up draw waits for a keep choice")
    cid, hand = state.setup_hand
    d = ev.data
    if d.get("character", cid) != cid:
        raise refuse("R7", f"le tirage de mise en place en attente est celui {de(cid)}", f"the set-up draw waiting is {cid}'s")
    ch = state.char(cid)
    keep = get_gems(d, "keep")
    if "rupture" in keep:
        raise refuse("R7", "les gemmes de Rupture piochées à la mise en place sont posées sur le plateau, jamais gardées",
                     "Rupture gems drawn at set-up must be placed on the board, never kept")
    want = min(ch.devotion, sum(1 for g in hand if g != "rupture"))
    if len(keep) != want:
        raise refuse("R7", f"{ch.name} garde exactement {want} gemme(s) de Prière (Dévotion {ch.devotion}), pas {len(keep)}",
                     f"{ch.name} keeps exactly {want} Prayer gem(s) (Dévotion {ch.devotion}), not {len(keep)}")
    rest = list(hand)
    for g in keep:
        if g not in rest:
            raise refuse("R7", f"pas de gemme {_fr(g)} dans le tirage de mise en place ({gems_text(hand, 'fr')})",
                         f"no {g} gem in the set-up draw ({gems_text(hand, 'en')})")
        rest.remove(g)
    items = _setup_order(ch, rest, d.get("place"))
    board, records = B.place_many(state.board, items)
    back = [r["gem"] for r in records if r["cell"] is None]
    ch2 = replace(ch, prayers=ch.prayers + tuple(keep), set_up=True)
    state = replace(state.with_char(ch2), board=board, pool=pool_add(state.pool, back), setup_hand=None)
    fr = "; ".join(_where(r, "fr") for r in records) or "rien à poser"
    en = "; ".join(_where(r, "en") for r in records) or "nothing to place"
    return state, [out("setup_keep", f"{ch.name} garde {gems_text(keep, 'fr')}. Pose : {fr}.",
                       f"{ch.name} keeps {gems_text(keep, 'en')}. Placed: {en}.",
                       character=cid, keep=keep, placements=records)]


def _setup_order(ch: Character, rest: list[str], raw: Any) -> list[tuple[str, str]]:
    """R2 at set-up: Time/Rupture on the Guardian's own quadrant; a Priestess names one.
    Default order (E25): Season gems first, then Time/Rupture."""
    if raw is None:
        if ch.season is None and any(g in ("temps", "rupture") for g in rest):
            raise refuse("R2", "une Prêtresse nomme le quadrant de chaque gemme de Temps ou de Rupture («\u202fplace\u202f»)",
                         "a Priestess names the quadrant of each Time/Rupture gem ('place')")
        ordered = [g for g in rest if g in SEASONS] + [g for g in rest if g not in SEASONS]
        own = ch.season or ""  # a Priestess's Time/Rupture gems were refused just above
        return [(g, g if g in SEASONS else own) for g in ordered]
    if not isinstance(raw, list):
        raise malformed("«\u202fplace\u202f» doit être une liste de {gem, quadrant}", "'place' must be a list of {gem, quadrant}")
    left = list(rest)
    items = [_set_up_place(ch, item, left) for item in raw]
    if left:
        raise refuse("R7", f"toute gemme non gardée est posée\u202f: {gems_text(left, 'fr')} manque(nt) dans «\u202fplace\u202f»",
                     f"every gem not kept is placed: {gems_text(left, 'en')} missing from 'place'")
    return items


def _set_up_place(ch: Character, item: Any, left: list[str]) -> tuple[str, str]:
    """One gem of 'place' at set-up (R2): a gem or ``{gem, quadrant}``, taken from ``left``."""
    if isinstance(item, str):
        item = {"gem": item}
    if not isinstance(item, Mapping):
        raise malformed("chaque élément de «\u202fplace\u202f» est une gemme ou {gem, quadrant}",
                        "each of 'place' is a gem or {gem, quadrant}")
    g = check_gem(item.get("gem"))
    if g not in left:
        raise refuse("R7", f"plus de gemme {_fr(g)} à poser", f"no {g} gem left to place")
    left.remove(g)
    if g in SEASONS:
        q = item.get("quadrant", g)
        if q != g:
            raise refuse("R2", f"une gemme {_fr(g)} va sur le chemin de sa Saison, pas {q}",
                         f"a {g} gem goes on its own Season's path, not {q}")
    elif ch.season is not None:
        q = item.get("quadrant", ch.season)
        if q != ch.season:
            raise refuse("R2", "à la mise en place, les gemmes de Temps et de Rupture d'un Gardien vont sur son quadrant"
                         f" ({_fr(ch.season)})",
                         f"at set-up a Guardian's Time/Rupture gems go on their own quadrant ({ch.season})")
    else:
        q = check_season(item.get("quadrant"), "quadrant")
    return g, q


def _where(r: Mapping[str, Any], lang: str) -> str:
    g = gem_name(r["gem"], lang)
    q = gem_name(r["quadrant"], lang)
    if r["cell"] is None:
        return f"{g} → pioche (chemin {q} plein)" if lang == "fr" else f"{g} → pool ({q} path full)"
    return f"{g} → {q} case {r['cell']}" if lang == "fr" else f"{g} → {q} cell {r['cell']}"


def setup_gm(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R7.5: the GM places one Rupture gem in each quadrant, after the gems there (E9:
    those available; ``quadrants`` says which when fewer than four)."""
    _idle(state, "GM set-up")
    if state.gm_setup_done:
        raise refuse("R7", "le MJ a déjà posé les gemmes de Rupture de la mise en place",
                     "the GM has already placed the set-up Rupture gems")
    avail = state.pool[GEMS.index("rupture")]
    n = min(state.options.setup_gm_ruptures, avail, 4)
    raw = ev.data.get("quadrants")
    if raw is None:
        quads = list(BOARD_ORDER)[:n]
    else:
        if not isinstance(raw, list) or len(set(raw)) != len(raw):
            raise malformed("«\u202fquadrants\u202f» doit être une liste de Saisons distinctes",
                            "'quadrants' must be a list of distinct Seasons")
        quads = [check_season(q, "quadrant") for q in raw]
        if len(quads) != n:
            raise refuse("R7", f"le MJ pose {n} gemme(s) de Rupture, une par quadrant",
                         f"the GM places {n} Rupture gem(s), one per quadrant")
    board, records = B.place_many(state.board, [("rupture", q) for q in quads])
    placed = [r for r in records if r["cell"] is not None]
    state = replace(state, board=board, pool=pool_take(state.pool, ["rupture"] * len(placed)), gm_setup_done=True)
    return state, [out("setup_gm", "Le MJ pose les Ruptures : " + "; ".join(_where(r, "fr") for r in records) + ".",
                       "The GM places the Ruptures: " + "; ".join(_where(r, "en") for r in records) + ".",
                       placements=records)]


def set_quadrant(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """GM: lay out one path (between sessions, a known situation): its gems come from the
    pool, the old ones go back to it; cells must fit (R2), the Nymph stands on a paved cell."""
    _idle(state, "set a path")
    d = ev.data
    season = check_season(d.get("season"), "quadrant")
    quad = state.board.q(season)
    raw = d.get("cells", {})
    cells: list[str | None] = [None] * quad.length
    if isinstance(raw, list):
        if len(raw) > quad.length:
            raise refuse("E3", f"le chemin a {quad.length} cases, pas {len(raw)}", f"the path has {quad.length} cells, not {len(raw)}")
        for i, g in enumerate(raw):
            cells[i] = None if g is None else check_gem(g)
    elif isinstance(raw, Mapping):
        for k, g in raw.items():
            try:
                c = int(k)
            except ValueError:
                raise bad_value(None, f"la case {k!r:.24} n'est pas un nombre", f"cell {k!r:.24} is not a number") from None
            if not 1 <= c <= quad.length:
                raise refuse("E3", f"la case {c} n'est pas sur le chemin (cases 1 à {quad.length})",
                             f"cell {c} is not on the path (1-{quad.length})")
            cells[c - 1] = None if g is None else check_gem(g)
    else:
        raise malformed("«\u202fcells\u202f» est une liste de gemmes (case 1 d'abord) ou {cell: gem}",
                        "'cells' is a list of gems (cell 1 first) or {cell: gem}")
    for g in cells:
        if g is not None:
            B.check_gem_fits(g, season)
    pool = pool_add(state.pool, quad.gems())
    pool = pool_take(pool, [g for g in cells if g is not None])
    new = Quadrant(season, tuple(cells), 0)
    board = state.board.with_q(new)
    board, _ = B.set_nymph(board, season, get_int(d, "nymph", quad.nymph if quad.nymph <= quad.length else 0))
    # a board laid out by the GM replaces the set-up Ruptures (R7.5)
    state = replace(state, board=board, pool=pool, gm_setup_done=True)
    return state, [out("set_quadrant", f"Chemin {gem_name(season, 'fr')} posé par le MJ.",
                       f"{gem_name(season, 'en')} path laid out by the GM.", season=season)]


def nymph(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """GM correction of a Nymph's cell (never off the path, only on a paved cell)."""
    _idle(state, "move a Nymph")
    season = check_season(ev.data.get("season"), "Nymph")
    board, moves = B.set_nymph(state.board, season, ev.data.get("to"))
    to = board.q(season).nymph
    return replace(state, board=board), [out("nymph", f"{NYMPHS[season]} placée case {to}.",
                                             f"{NYMPHS[season]} set on cell {to}.", moves=moves)]


def remove(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R5 / R39: gems removed by choice (spells, adversity): to the pool; Nymphs move back."""
    _idle(state, "remove gems")
    cells = B.parse_cells(ev.data.get("cells"))
    board, removed, moves = B.remove_cells(state.board, cells)
    pool = pool_add(state.pool, [r["gem"] for r in removed])
    return replace(state, board=board, pool=pool), [out(
        "remove", f"Retirées : {gems_text([r['gem'] for r in removed], 'fr')}.",
        f"Removed: {gems_text([r['gem'] for r in removed], 'en')}.", removals=removed, moves=moves)]


def new_day(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """A new game day: Resonance may be recharged again (R30)."""
    return replace(state, day=state.day + 1), [out("new_day", f"Jour {state.day + 1}.", f"Day {state.day + 1}.",
                                                   day=state.day + 1)]


def new_session(state: EspriState, ev: Event, rng: random.Random) -> Handled:
    """R38 / E26: the Nymphs stay; with ``between_sessions = nymphs_only`` the board's gems
    go back to the pool."""
    _idle(state, "new session")
    if state.options.between_sessions != "nymphs_only":
        return replace(state, day=state.day + 1), [out("new_session", "Nouvelle séance : le plateau est conservé.",
                                                       "New session: the board is kept.")]
    pool = pool_add(state.pool, state.board.gems())
    quads = tuple(Quadrant(q.season, (None,) * q.length, q.nymph) for q in state.board.quadrants)
    return replace(state, board=replace(state.board, quadrants=quads), pool=pool, day=state.day + 1), [out(
        "new_session", "Nouvelle séance : les Nymphes restent, les gemmes du plateau retournent à la pioche.",
        "New session: the Nymphs stay, the board's gems go back to the pool.")]


