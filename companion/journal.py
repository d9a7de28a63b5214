"""The table's journal: every event of the log, in words, with its time, who it
concerns, its dice and how each was known, and what became of it (undone, refused).

Pure: it takes the log's events, the outcomes of the events still in effect (the
table's frames), the events refused on replay and a map of character ids to names.

>>> from companion.events import Event, Source
>>> from companion.games import Outcome, text
>>> evs = [Event("table.new_game", {"game": "wuxia"}, seq=1, at="2026-12-01T20:14:03.000Z"),
...        Event("wuxia.test", {"who": "Lin Mei"}, seq=2),
...        Event("wuxia.roll", {"dice": [1, 9]}, Source.CAMERA, seq=3),
...        Event("undo", {"seq": 3}, seq=4)]
>>> outs = {1: (Outcome("table.new_game", text("Nouvelle partie : Wuxia", "New game: Wuxia")),),
...         2: (Outcome("test.start", text("Test de Lin Mei", "Lin Mei's test"), {"who": "Lin Mei"}),)}
>>> j = journal(evs, outs)
>>> [(e.seq, e.text["fr"], e.who, e.undone_by) for e in j]  # doctest: +NORMALIZE_WHITESPACE
[(1, 'Nouvelle partie : Wuxia', [], None), (2, 'Test de Lin Mei', ['Lin Mei'], None),
 (3, 'Dés : D10 1, D10 9 (annulé)', ['Lin Mei'], 4), (4, 'Annulation de #3', ['Lin Mei'], None)]
>>> j[2].dice[0]["how"], j[2].how["fr"]
('lu', 'lu par la caméra')
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .dicelabels import die_label
from .dicestats import HOW, event_dice
from .events import Event

__all__ = ["Entry", "journal", "filter_entries", "people", "to_csv", "to_json_text", "HOW_WORDS"]

HOW_WORDS = {"lu": ("lu par la caméra", "read by the camera"), "corrigé": ("corrigé à la main", "corrected by hand"),
             "saisi": ("saisi à la main", "typed by hand"), "logiciel": ("tiré par le logiciel", "rolled by the software")}
_WHO_KEYS = ("who", "character", "player", "leader", "attacker", "defender", "target", "winner")
_LIST_KEYS = (("participants", "who"), ("fighters", "who"), ("combatants", "name"))
#: Dice events whose correction restates all the dice (not one die by its index).
_WHOLE_CORRECTIONS = ("peripeties.dice", "espri.draw", "espri.setup_draw")


@dataclass
class Entry:
    seq: int | None
    at: str | None
    type: str
    game: str | None
    source: str
    how: dict[str, str]
    text: dict[str, str]
    who: list[str] = field(default_factory=list)
    dice: list[dict[str, Any]] = field(default_factory=list)
    undone_by: int | None = None
    undoes: int | None = None
    refused: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "type": self.type, "game": self.game, "source": self.source,
                "how": self.how, "text": self.text, "who": self.who, "dice": self.dice,
                "undone_by": self.undone_by, "undoes": self.undoes, "refused": self.refused}


def _names_in(data: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    for k in _WHO_KEYS:
        v = data.get(k)
        if isinstance(v, str) and v:
            out.append(names.get(v, v))
    for k, sub in _LIST_KEYS:
        for x in data.get(k) or []:
            if isinstance(x, Mapping) and isinstance(x.get(sub), str):
                out.append(names.get(x[sub], x[sub]))
    return out


def _uniq(xs: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for x in xs:
        if x not in seen:
            seen.append(x)
    return seen


_ROLL_TYPES = (".roll", ".dice", ".draw", ".correct", ".reroll", ".choose")


def _how(ev: Event) -> tuple[str, dict[str, str]]:
    """How the event was known (``lu``, ``corrigé``, ...) and its words."""
    how_key = HOW.get(ev.source.value, "saisi")
    return how_key, {"fr": HOW_WORDS[how_key][0], "en": HOW_WORDS[how_key][1]}


def _dice(ev: Event, outs: Sequence[Any], how_key: str) -> list[dict[str, Any]]:
    return [{"kind": k, "face": f, "how": how_key, "label": {"fr": die_label(k, f, "fr"), "en": die_label(k, f, "en")}}
            for k, f in event_dice(ev, outs)]


def _keep_known_how(dice: list[dict[str, Any]], before: Sequence[dict[str, Any]]) -> None:
    """A correction restates every die: those it did not change stay as they were known."""
    left = list(before)
    for d in dice:
        same = next((x for x in left if x["kind"] == d["kind"] and x["face"] == d["face"]), None)
        if same is not None:
            left.remove(same)
            d["how"] = same["how"]


def _outcome_text(outs: Sequence[Any]) -> dict[str, str]:
    texts_fr = [str(o.text.get("fr", "")) for o in outs if getattr(o, "text", None)]
    texts_en = [str(o.text.get("en", "")) for o in outs if getattr(o, "text", None)]
    return {"fr": " · ".join(t for t in texts_fr if t), "en": " · ".join(t for t in texts_en if t)}


def _named(ev: Event, outs: Sequence[Any], names: Mapping[str, str]) -> list[str]:
    """Everyone the event and its outcomes name, once each, in order."""
    who = _names_in(ev.data, names)
    if "character" in ev.type.split(".", 1)[-1]:  # a sheet made or changed: whose
        for k in ("card", "id", "name"):
            if isinstance(ev.data.get(k), str) and ev.data[k]:
                who.append(names.get(ev.data[k], ev.data[k]))
    for o in outs:
        who += _names_in(getattr(o, "data", {}) or {}, names)
    return _uniq(who)


def _dice_text(dice: Sequence[dict[str, Any]]) -> dict[str, str]:
    if dice:
        return {"fr": "Dés : " + ", ".join(d["label"]["fr"] for d in dice),
                "en": "Dice: " + ", ".join(d["label"]["en"] for d in dice)}
    return {"fr": "(sans effet affiché)", "en": "(no visible effect)"}


class _Fold:
    """The journal built event by event: the game in progress, whose turn it is (a roll
    belongs to whoever the game was waiting for), the undo stack, the last dice of each
    whole-correction event type."""

    def __init__(self, outcomes: Mapping[int, Sequence[Any]], refused: Mapping[int, str],
                 names: Mapping[str, str]) -> None:
        self.outcomes, self.refused, self.names = outcomes, refused, names
        self.entries: list[Entry] = []
        self.by_seq: dict[int, Entry] = {}
        self.stack: list[int] = []
        self.game: str | None = None
        self.actor: list[str] = []
        self.last_dice: dict[str, list[dict[str, Any]]] = {}

    def add(self, ev: Event) -> None:
        how_key, how = _how(ev)
        if ev.type == "table.new_game":
            self.game, self.actor = str(ev.data.get("game")), []
        outs = self.outcomes.get(ev.seq, ()) if ev.seq is not None else ()
        dice = _dice(ev, outs, how_key)
        if dice and ev.type in _WHOLE_CORRECTIONS:
            if how_key == "corrigé":
                _keep_known_how(dice, self.last_dice.get(ev.type, []))
            self.last_dice[ev.type] = dice
        e = Entry(ev.seq, ev.at, ev.type, self.game, ev.source.value, how, _outcome_text(outs),
                  self._who(ev, outs, dice), dice)
        self._fate(e, ev)
        if not e.text["fr"]:
            e.text = _dice_text(dice)
        self.entries.append(e)
        if ev.seq is not None:
            self.by_seq[ev.seq] = e

    def _who(self, ev: Event, outs: Sequence[Any], dice: Sequence[Any]) -> list[str]:
        who = _named(ev, outs, self.names)
        if who:
            self.actor = who
        elif dice or ev.type.endswith(_ROLL_TYPES):
            who = list(self.actor)
        return who

    def _fate(self, e: Entry, ev: Event) -> None:
        """Refused on replay, an undo (of which event), or one more event to undo."""
        if ev.seq is not None and ev.seq in self.refused:
            e.refused = self.refused[ev.seq]
            e.text = {"fr": f"Refusé à la relecture : {e.refused}", "en": f"Refused on replay: {e.refused}"}
        elif ev.type == "undo":
            if self.stack:
                self._undo(e, ev, self.stack.pop())
        elif ev.seq is not None:
            self.stack.append(ev.seq)

    def _undo(self, e: Entry, ev: Event, target: int) -> None:
        e.undoes = target
        prev = self.by_seq.get(target)
        if prev is not None:
            prev.undone_by = ev.seq
            e.who = list(prev.who)
            e.text = {"fr": f"Annulation de #{target}", "en": f"Undo of #{target}"}

    def done(self) -> list[Entry]:
        for e in self.entries:
            if e.undone_by is not None and e.seq is not None and e.seq not in self.outcomes:
                e.text = {"fr": e.text["fr"] + " (annulé)", "en": e.text["en"] + " (undone)"}
        return self.entries


def journal(events: Iterable[Event], outcomes: Mapping[int, Sequence[Any]],
            refused: Mapping[int, str] | None = None, names: Mapping[str, str] | None = None) -> list[Entry]:
    """One :class:`Entry` per event of the log, oldest first.

    ``outcomes``: seq -> outcomes of the events in effect; ``refused``: seq -> why the
    rules refused it on replay; ``names``: character id -> name. An event in neither
    was undone: the undo that took it out is found by replaying the undo stack."""
    fold = _Fold(outcomes, refused or {}, names or {})
    for ev in events:
        fold.add(ev)
    return fold.done()


def people(entries: Iterable[Entry]) -> list[str]:
    """Everyone the journal names, in order of first appearance (for the filter)."""
    return _uniq(w for e in entries for w in e.who)


def filter_entries(entries: Sequence[Entry], who: str | None = None, before: int | None = None,
                   limit: int | None = None) -> list[Entry]:
    """Entries naming ``who`` with ``seq < before``, the ``limit`` most recent, newest first."""
    out = [e for e in entries if (not who or who in e.who) and (before is None or (e.seq or 0) < before)]
    out.reverse()
    return out[:limit] if limit is not None else out


CSV_HEADER = ("n°", "heure (UTC)", "qui", "quoi", "dés", "comment", "état")


def to_csv(entries: Iterable[Entry], lang: str = "fr") -> str:
    """The journal as CSV (semicolon-separated, as French spreadsheets expect)."""
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    w.writerow(CSV_HEADER if lang == "fr" else ("no.", "time (UTC)", "who", "what", "dice", "how", "state"))
    for e in entries:
        state = ""
        if e.undone_by is not None:
            state = f"annulé par #{e.undone_by}" if lang == "fr" else f"undone by #{e.undone_by}"
        elif e.refused:
            state = "refusé" if lang == "fr" else "refused"
        w.writerow([e.seq, (e.at or "").replace("T", " ").rstrip("Z")[:19], ", ".join(e.who), e.text[lang],
                    ", ".join(d["label"][lang] for d in e.dice), e.how[lang] if e.dice else "", state])
    return buf.getvalue()


def to_json_text(entries: Iterable[Entry]) -> str:
    return json.dumps([e.to_json() for e in entries], ensure_ascii=False, indent=1)
