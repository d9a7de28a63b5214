"""Which faces the table's dice showed, from the table log, and whether each die is fair.

:func:`die_rolls` walks the effective events of a table (undone events are out) and
lists every die: its kind, its face, how the table knew it — ``lu`` (read by the
camera), ``corrigé`` (read by the camera, then corrected by hand: the corrected face
counts, and the face the camera read is kept), ``saisi`` (typed by hand) or
``logiciel`` (rolled by the software). A correction event amends the die it corrects.

:func:`die_stats` groups them by physical die — the kind and the colour: the camera
tells the blue, yellow and red symbol dice apart by kind, and names the body colour of
every die it reads (``vision.die_colour``; :func:`read_colours` takes it from the read
records), so a red d10 read by the camera is one die (``d10-red``, "d10 rouge") and a
blue one another; dice typed by hand, or of no sure colour, stay with their kind
(``d10``) — and tests each die three ways: camera reads, hand entries, both. ESPRI's gems are drawn from a bag without replacement: their
histogram is shown, with no fairness test.

>>> from companion.events import Event, Source
>>> evs = [(Event("table.new_game", {"game": "wuxia"}, seq=1), ()),
...        (Event("wuxia.roll", {"dice": [1, 9, 3]}, Source.CAMERA, seq=2), ()),
...        (Event("wuxia.correct", {"index": 1, "value": 8}, Source.CORRECTION, seq=3), ()),
...        (Event("wuxia.roll", {"dice": [4]}, seq=4), ())]
>>> [(r.kind, r.face, r.how, r.read_as) for r in die_rolls(evs)]
[('d10', 1, 'lu', None), ('d10', 8, 'corrigé', 9), ('d10', 3, 'lu', None), ('d10', 4, 'saisi', None)]
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .dicelabels import face_label, kind_label, labels_json
from .events import Event
from .stats import Fit, goodness_of_fit, verdict

__all__ = ["DieRoll", "die_rolls", "die_stats", "face_probabilities", "event_dice", "HOW", "read_colours",
           "load_read_colours", "COLOUR_FR"]

#: How a die was known, from its event's source.
HOW = {"camera": "lu", "correction": "corrigé", "manual": "saisi", "tray": "saisi", "system": "logiciel"}
_SYMBOL_KEYS = ("lieu", "adversaire", "epreuve", "recompense", "sentence")
_FIXED_KIND = {"detail": "d6", "taels": "d10", "prison": "d4"}
_GEM_KINDS = ("gem",)


@dataclass
class DieRoll:
    kind: str
    face: int | str
    how: str
    seq: int | None
    game: str | None
    read_as: int | str | None = None  # what the camera read, when corrected
    who: str | None = None
    colour: str | None = None  # the body colour the camera saw (vision.die_colour), if read


@lru_cache(maxsize=1)
def _dice_json() -> dict[str, Any]:
    data = json.loads((Path(__file__).resolve().parent / "data" / "dice.json").read_text(encoding="utf-8"))
    return dict(data["kinds"])


def face_probabilities(kind: str) -> dict[Any, float] | None:
    """The chance of each face of a fair die of ``kind`` (symbol dice repeat a result on
    several faces); ``None`` for what has no fixed chances (gems from a bag).

    >>> face_probabilities("epreuve")
    {'combat': 0.5, 'esprit': 0.3333333333333333, 'magie': 0.16666666666666666}
    >>> face_probabilities("d4")
    {1: 0.25, 2: 0.25, 3: 0.25, 4: 0.25}
    """
    k = _dice_json().get(kind)
    if k is None:
        return None
    faces = [f["key"] for f in k.get("faces", [])]
    if faces:
        c = Counter(faces)
        return {f: n / len(faces) for f, n in c.items()}
    sides = int(k.get("sides", 0))
    return {i: 1 / sides for i in range(1, sides + 1)} if sides else None


def _how(ev: Event) -> str:
    return HOW.get(ev.source.value, "saisi")


def _int_list(v: Any) -> list[int]:
    if isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return list(v)
    return []


def _peripeties_dice(ev: Event, outcomes: Sequence[Any], scale: int | None) -> list[tuple[str, Any]]:
    d = ev.data
    out: list[tuple[str, Any]] = []
    for x in d.get("dice") or []:
        if isinstance(x, Mapping) and isinstance(x.get("kind"), str) and x.get("value") is not None:
            out.append((str(x["kind"]), x["value"]))
    for k in _SYMBOL_KEYS:
        if isinstance(d.get(k), str):
            out.append((k, d[k]))
    diff = d.get("difficulty")
    diff_kind = "d6" if scale == 12 else "d10"
    for v in diff if isinstance(diff, list) else ([diff] if isinstance(diff, int) else []):
        if isinstance(v, int):
            out.append((diff_kind, v))
    if isinstance(d.get("trial"), int):
        die = next((o.data.get("die") for o in outcomes if str(getattr(o, "kind", "")).startswith("trial.")), None)
        out.append((f"d{die}" if isinstance(die, int) else "d10", d["trial"]))
    for k, kind in _FIXED_KIND.items():
        if isinstance(d.get(k), int):
            out.append((kind, d[k]))
    return out


def event_dice(ev: Event, outcomes: Sequence[Any] = ()) -> list[tuple[str, Any]]:
    """The dice one event carries, as ``(kind, face)`` (a correction: the new faces).

    >>> event_dice(Event("shayo.roll", {"dice": [8, 3]}))
    [('d10', 8), ('d10', 3)]
    >>> event_dice(Event("espri.draw", {"gems": ["ete"]}))
    [('gem', 'ete')]
    """
    verb = ev.type.split(".", 1)[-1]
    if ev.type in ("wuxia.roll", "shayo.roll", "wuxia.reroll"):
        return [("d10", v) for v in _int_list(ev.data.get("dice"))]
    if ev.type == "shayo.signature":
        return [("d10", v) for v in _int_list(ev.data.get("values"))]
    if verb == "correct" and ev.game in ("wuxia", "shayo"):
        if ev.data.get("value") is not None:
            return [("d10", ev.data["value"])]
        return [("d10", v) for v in _int_list(ev.data.get("values" if "signature" in ev.data else "dice"))]
    if ev.type == "peripeties.dice":
        scale = next((o.data.get("scale") for o in outcomes if getattr(o, "kind", "") == "episode.ready"), None)
        return _peripeties_dice(ev, outcomes, scale if isinstance(scale, int) else None)
    if ev.type in ("espri.draw", "espri.setup_draw"):
        return [("gem", g) for g in ev.data.get("gems") or [] if isinstance(g, str)]
    return []


def _who(outcomes: Sequence[Any]) -> str | None:
    for o in outcomes:
        data = getattr(o, "data", {}) or {}
        for key in ("character", "who"):
            if isinstance(data.get(key), str):
                return str(data[key])
    return None


def read_colours(records: Iterable[Mapping[str, Any]]) -> dict[int, list[str | None]]:
    """The colour of each die of the events the camera's reads became: event ``seq`` ->
    the colours of its dice in the event's order (``None`` for a die the reader named no
    colour), from read records (``reads.jsonl`` of the camera folder, see
    :mod:`companion.app.records`: the last record of an id wins). A correction event
    carries the same dice as the read it corrects.

    >>> recs = [{"id": 1, "status": "applied", "seq": 4, "used": [1, 0], "corrections": [6],
    ...          "objects": [{"value": 3, "colour": "red"}, {"value": 9}]}]
    >>> read_colours(recs)
    {4: [None, 'red'], 6: [None, 'red']}
    """
    last: dict[Any, Mapping[str, Any]] = {}
    for rec in records:
        if isinstance(rec, Mapping):
            last[rec.get("id")] = rec
    out: dict[int, list[str | None]] = {}
    for rec in last.values():
        objs, used, seq = rec.get("objects"), rec.get("used"), rec.get("seq")
        if rec.get("status") != "applied" or not isinstance(seq, int) or not isinstance(objs, list) \
                or not isinstance(used, list):
            continue
        cols: list[str | None] = []
        for i in used:
            obj = objs[i] if isinstance(i, int) and 0 <= i < len(objs) else None
            c = obj.get("colour") if isinstance(obj, Mapping) else None
            cols.append(c if isinstance(c, str) else None)
        for s in [seq, *(c for c in rec.get("corrections") or [] if isinstance(c, int))]:
            out[s] = cols
    return out


def load_read_colours(path: Path | None) -> dict[int, list[str | None]]:
    """:func:`read_colours` of a ``reads.jsonl`` file; empty when there is none (bad
    lines are skipped: the statistics never fail on the camera's notes)."""
    if path is None or not path.is_file():
        return {}
    recs: list[Mapping[str, Any]] = []
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict):
                    recs.append(rec)
    except OSError:
        return {}
    return read_colours(recs)


@dataclass
class _Walk:
    """What :func:`die_rolls` remembers between events of one game."""

    game: str | None = None
    pool: dict[str, list[DieRoll]] = field(default_factory=dict)  # the last roll of each pool, by position
    sig: dict[str, list[DieRoll]] = field(default_factory=dict)  # the last signature re-roll (Shayo)
    episode: dict[str, list[DieRoll]] = field(default_factory=dict)  # Péripéties: this episode's dice by kind
    scale: int | None = None

    def roll(self, kind: str, face: Any, ev: Event, how: str, who: str | None) -> DieRoll:
        return DieRoll(kind, face, how, ev.seq, self.game, who=who)


def _pool_dice(w: _Walk, ev: Event, how: str, who: str | None) -> list[DieRoll]:
    """A d10 pool rolled, re-rolled, or a Shayo signature re-roll."""
    key = "values" if ev.type == "shayo.signature" else "dice"
    new = [w.roll("d10", v, ev, how, who) for v in _int_list(ev.data.get(key))]
    if ev.type == "shayo.signature":
        w.sig["shayo"] = list(new)
    elif ev.type == "wuxia.reroll":
        cur = w.pool.get("wuxia", [])
        for i, r in zip(_int_list(ev.data.get("indices")), new):
            if 0 <= i < len(cur):
                cur[i] = r
    else:
        w.pool[ev.type.split(".")[0]] = list(new)
    return new


def _pool_correction(w: _Walk, ev: Event) -> None:
    """A Wuxia or Shayo correction amends the dice it changes."""
    target = w.sig.get(str(ev.game), []) if "signature" in ev.data else w.pool.get(str(ev.game), [])
    key = "values" if "signature" in ev.data else "dice"
    changes: list[tuple[int, Any]] = []
    if isinstance(ev.data.get("index"), int) and ev.data.get("value") is not None:
        changes = [(int(ev.data["index"]), ev.data["value"])]
    elif key in ev.data:
        changes = list(enumerate(_int_list(ev.data.get(key))))
    for i, v in changes:
        if 0 <= i < len(target) and target[i].face != v:
            _amend(target[i], v)


def _episode_dice(w: _Walk, ev: Event, outs: Sequence[Any], how: str, who: str | None) -> list[DieRoll]:
    """Péripéties' dice: a correction amends this episode's dice by kind and position."""
    for o in outs:
        if getattr(o, "kind", "") == "episode.ready" and isinstance(o.data.get("scale"), int):
            w.scale = int(o.data["scale"])
    dice = _peripeties_dice(ev, outs, w.scale)
    new: list[DieRoll] = []
    if how != "corrigé":
        new = [w.roll(k, v, ev, how, who) for k, v in dice]
        fresh: dict[str, list[DieRoll]] = {}
        for r in new:
            fresh.setdefault(r.kind, []).append(r)
        w.episode.update(fresh)
        return new
    by_kind: dict[str, list[Any]] = {}
    for k, v in dice:
        by_kind.setdefault(k, []).append(v)
    for k, vals in by_kind.items():
        prev = w.episode.get(k, [])
        for i, v in enumerate(vals):
            if i < len(prev):
                if prev[i].face != v:
                    _amend(prev[i], v)
            else:
                r = w.roll(k, v, ev, how, who)
                new.append(r)
                w.episode.setdefault(k, []).append(r)
    return new


def _gem_draw(w: _Walk, ev: Event, how: str, who: str | None) -> list[DieRoll]:
    """ESPRI's gems: a corrected draw amends the same draw."""
    gems = [g for g in ev.data.get("gems") or [] if isinstance(g, str)]
    last = w.pool.get(ev.type, [])
    if how == "corrigé" and len(last) == len(gems):  # the same draw, corrected
        for r, g in zip(last, gems):
            if r.face != g:
                _amend(r, g)
        return []
    new = [w.roll("gem", g, ev, how, who) for g in gems]
    w.pool[ev.type] = list(new)
    return new


_POOL_EVENTS = ("wuxia.roll", "shayo.roll", "wuxia.reroll")


def _event_rolls(w: _Walk, ev: Event, outs: Sequence[Any]) -> list[DieRoll]:
    """The new dice of one event (after amending the ones it corrects)."""
    how, who = _how(ev), _who(outs)
    if ev.type in _POOL_EVENTS or (ev.type == "shayo.signature" and "values" in ev.data):
        return _pool_dice(w, ev, how, who)
    if ev.type.split(".", 1)[-1] == "correct" and ev.game in ("wuxia", "shayo"):
        _pool_correction(w, ev)
        return []
    if ev.type == "peripeties.dice":
        return _episode_dice(w, ev, outs, how, who)
    if ev.type in ("espri.draw", "espri.setup_draw"):
        return _gem_draw(w, ev, how, who)
    return []


def die_rolls(frames: Iterable[tuple[Event, Sequence[Any]]],
              colours: Mapping[int, Sequence[str | None]] | None = None) -> list[DieRoll]:
    """Every die of the effective events ``(event, outcomes)``, in order (see module doc).

    ``colours`` (:func:`read_colours`): the body colour the camera saw of each die of an
    event, by the event's ``seq``."""
    rolls: list[DieRoll] = []
    w = _Walk()
    for ev, outs in frames:
        if ev.type == "table.new_game":
            w = _Walk(game=str(ev.data.get("game")))
            continue
        new = _event_rolls(w, ev, outs)
        if colours and ev.seq is not None and ev.seq in colours:
            for r, c in zip(new, colours[ev.seq]):
                r.colour = c
        rolls.extend(new)
    return rolls


#: The body colours the reader names (vision.die_colour.PALETTE), in French: "d10 rouge".
COLOUR_FR = {"white": "blanc", "grey": "gris", "black": "noir", "red": "rouge", "orange": "orange",
             "brown": "marron", "yellow": "jaune", "green": "vert", "blue": "bleu", "purple": "violet",
             "pink": "rose"}


def _die_key(r: DieRoll, kinds: Mapping[str, Any]) -> str:
    """The physical die a roll belongs to: its kind, and the colour the camera saw when
    the kind has no fixed colour (a red and a blue d10 are two dice; a die typed by hand,
    or one of no sure colour, stays with its kind)."""
    if r.colour in COLOUR_FR and r.kind not in _GEM_KINDS and not kinds.get(r.kind, {}).get("colour"):
        return f"{r.kind}-{r.colour}"
    return r.kind


def _title(die: str, lang: str, colour: str | None = None) -> str:
    if colour is not None:
        base = kind_label(die, lang)
        return f"{base} {COLOUR_FR[colour]}" if lang == "fr" else f"{colour} {base}"
    if die == "gem":
        return "Gemmes (ESPRI)" if lang == "fr" else "Gems (ESPRI)"
    return kind_label(die, lang)


def _amend(r: DieRoll, face: Any) -> None:
    if r.how == "lu":
        r.read_as, r.how = r.face, "corrigé"
    r.face = face


@dataclass
class DieStats:
    die: str  # the physical die: its kind (the camera tells these apart)
    label: dict[str, str]
    colour: str | None
    faces: list[Any]
    face_labels: dict[str, dict[str, str]]
    counts: dict[str, dict[Any, int]]  # "camera", "hand", "all" -> face -> rolls
    fits: dict[str, Fit | None]
    verdicts: dict[str, dict[str, str]]
    misreads: dict[Any, dict[Any, int]] = field(default_factory=dict)  # true face -> read as -> times

    def to_json(self) -> dict[str, Any]:
        def fit_json(f: Fit | None) -> Any:
            if f is None:
                return None
            return {"n": f.n, "statistic": f.statistic, "dof": f.dof, "p": f.p, "enough": f.enough, "needed": f.needed,
                    "high": f.high, "low": f.low, "expected": {str(k): v for k, v in f.expected.items()}}
        return {"die": self.die, "label": self.label, "colour": self.colour, "faces": self.faces,
                "face_labels": self.face_labels,
                "counts": {g: {str(k): v for k, v in c.items()} for g, c in self.counts.items()},
                "fits": {g: fit_json(f) for g, f in self.fits.items()}, "verdicts": self.verdicts,
                "misreads": [{"face": f, "read_as": r, "times": n} for f, rs in self.misreads.items() for r, n in rs.items()]}


def die_stats(rolls: Sequence[DieRoll]) -> list[DieStats]:
    """One :class:`DieStats` per physical die that was rolled, numbered dice first (a
    kind's dice of a named colour after those of none)."""
    kinds = _dice_json()
    by_die: dict[str, list[DieRoll]] = {}
    for r in rolls:
        if r.how == "logiciel":
            continue  # the software's own dice are not the table's dice
        by_die.setdefault(_die_key(r, kinds), []).append(r)
    rank = {k: i for i, k in enumerate(kinds)}
    order = sorted(by_die, key=lambda key: (rank.get(by_die[key][0].kind, len(rank)), by_die[key][0].kind,
                                            key != by_die[key][0].kind, key))
    return [_one_die(key, by_die[key], kinds) for key in order]


def _face_counts(groups: Mapping[str, Sequence[DieRoll]], faces: Sequence[Any]) -> dict[str, dict[Any, int]]:
    counts = {g: {f: sum(1 for r in lst if r.face == f) for f in faces} for g, lst in groups.items()}
    for g, lst in groups.items():  # a face the die does not have (a bad entry) is still shown
        for r in lst:
            if r.face not in counts[g]:
                counts[g][r.face] = counts[g].get(r.face, 0) + 1
    return counts


def _fit(counts: Mapping[Any, int], probs: Mapping[Any, float] | None, names_fr: dict[Any, str],
         names_en: dict[Any, str]) -> tuple[Fit | None, dict[str, str]]:
    """The fairness test of one group of rolls and its verdict in words."""
    if probs is None:
        return None, {"level": "none", "fr": "tirage sans remise dans le sac : pas de test d'équité",
                      "en": "drawn from the bag without replacement: no fairness test"}
    try:
        fit = goodness_of_fit({f: c for f, c in counts.items() if f in probs}, dict(probs))
        return fit, verdict(fit, names_fr, names_en)
    except ValueError:
        return None, {"level": "none", "fr": "pas de test", "en": "no test"}


def _one_die(key: str, rs: Sequence[DieRoll], kinds: Mapping[str, Any]) -> DieStats:
    die = rs[0].kind
    probs = face_probabilities(die)
    named = list(labels_json()["faces"].get(die, {}))  # every colour of the bag, drawn or not
    faces: list[Any] = list(probs) if probs else (named + sorted({r.face for r in rs} - set(named), key=str))
    groups = {"camera": [r for r in rs if r.how in ("lu", "corrigé")], "hand": [r for r in rs if r.how == "saisi"],
              "all": list(rs)}
    counts = _face_counts(groups, faces)
    names_fr = {f: face_label(die, f, "fr") for f in faces}
    names_en = {f: face_label(die, f, "en") for f in faces}
    fits: dict[str, Fit | None] = {}
    verdicts: dict[str, dict[str, str]] = {}
    for g in groups:
        fits[g], verdicts[g] = _fit(counts[g], probs, names_fr, names_en)
    mis: dict[Any, dict[Any, int]] = {}
    for r in rs:
        if r.how == "corrigé" and r.read_as is not None:
            mis.setdefault(r.face, {})
            mis[r.face][r.read_as] = mis[r.face].get(r.read_as, 0) + 1
    seen = rs[0].colour if key != die else None
    colour = kinds.get(die, {}).get("colour") or seen
    label = {lang: _title(die, lang, seen) for lang in ("fr", "en")}
    return DieStats(key, label, colour, faces, {str(f): {"fr": names_fr[f], "en": names_en[f]} for f in faces},
                    counts, fits, verdicts, mis)
