"""The state as JSON for the tablet (with ``expects``) and as readable text.

``expects`` says exactly what the current step waits for::

    {"step": "episode", "turn": 1, "character": "lin-chong", "player": "Alice",
     "next_player": "Bruno", "event": "peripeties.dice",
     "dice": [{"kind": "lieu", "role": "lieu", "count": 1, "by": "Alice"}, ...,
              {"kind": "d10", "role": "difficulty", "count": 2, "by": "Bruno",
               "if": {"epreuve": ["combat", "esprit"]}},
              {"kind": "d6", "role": "difficulty", "count": 2, "by": "Bruno",
               "if": {"epreuve": ["magie"]}},
              {"kind": "d6", "role": "detail", "count": 1, "by": "Bruno", "optional": true}],
     "have": {"lieu": "montagne", ...},
     "choices": [...], "odds": [...]}

Steps: ``setup``, ``episode``, ``trial``, ``gourd``, ``reward_taels``,
``reward_reroll``, ``brother_card``, ``fine``, ``sentence_reroll``, ``prison``,
``bribe``, ``travel``. Each entry of ``dice`` is what the tablet offers to tap and what
the camera should find: ``kind`` (a die kind of ``dice_faces``), ``role`` (the key to
send it under), ``count`` (how many dice still missing), ``by`` (who rolls it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

from ..refusal import broken
from ..base import percent
from ..expects import DiceWanted

from .episode import episode_narration, missing_dice
from .expects import Choice, Fine, PeripetiesStep, Setup, Travel, Trial, TurnStep, TurnSteps, Unknown
from .expects import Episode as Episode_
from .state import MAX_BROTHERS, TRIALS, Card, Character, Episode, State
from .trial import choice_odds, modifiers

__all__ = ["state_json", "expects", "describe", "character_json"]

_SYMBOLS = ("lieu", "adversaire", "epreuve", "recompense", "sentence")
_DETAIL_N = {"one": 1, "two": 2, "none": 0}


def character_json(state: State, ch: Character) -> dict[str, Any]:
    t = state.turn
    may_travel = ch.prison == 0 and ch.stay_turn != t
    return {
        "id": ch.id,
        "player": ch.player,
        "card": ch.card.to_json(),
        "tokens": {
            "xp": {k: ch.xp_of(k) for k in TRIALS},
            "wounds": ch.wounds,
            "banquets": ch.banquets,
            "gourds": ch.gourds,
            "taels": ch.taels,
            "immobilised": ch.immobilised,
            "prison": ch.prison,
        },
        "effective": {
            "combat": ch.effective_combat,
            "esprit": ch.card.esprit + ch.xp_of("esprit"),
            "magie": ch.card.magie + ch.xp_of("magie"),
        },
        "brothers": [b.to_json() for b in ch.brothers],
        "cell": ch.cell,
        "travel": {"may_travel": may_travel, "moves": (2 if ch.banquet_turn == t else 1) if may_travel else 0},
        "pending": ch.id in state.queue,
        "current": state.episode is not None and state.episode.character == ch.id,
    }


def _die(kind: str, role: str, by: str, count: int = 1, reroll: bool | None = None, rule: str | None = None,
         when: Mapping[str, tuple[str, ...]] | None = None, optional: bool | None = None) -> DiceWanted:
    """One kind of die the step waits for; ``label`` says it in words for the page
    (``"2×D10 (difficulté)"``), so no page has to build it from the keys."""
    d = DiceWanted(kind, role, count, by, reroll, rule, when, optional)
    words = d.to_json()
    return replace(d, label={"fr": _die_words(words, "fr"), "en": _die_words(words, "en")})


def _episode_dice(state: State, ep: Episode, owner: str, nxt: str) -> tuple[DiceWanted, ...]:
    missing = missing_dice(state, ep)
    out: list[DiceWanted] = []
    for k in ("lieu", "adversaire", "epreuve"):
        if k in missing:
            out.append(_die(k, k, owner))
    if "recompense" in missing:
        out.append(_die("recompense", "recompense", nxt))
    if "recompense_reroll" in missing:
        out.append(_die("recompense", "recompense", nxt, reroll=True, rule="R16"))
    if "sentence" in missing:
        out.append(_die("sentence", "sentence", nxt))
    if "difficulty" in missing:
        left = 2 - len(ep.difficulty)
        if ep.epreuve is None:
            out.append(_die("d10", "difficulty", nxt, left, when={"epreuve": ("combat", "esprit")}))
            out.append(_die("d6", "difficulty", nxt, left, when={"epreuve": ("magie",)}))
        else:
            out.append(_die("d6" if ep.epreuve == "magie" else "d10", "difficulty", nxt, left))
    n = _DETAIL_N[state.options.detail_dice] - len(ep.detail)
    if n > 0:
        out.append(_die("d6", "detail", nxt, n, optional=True))
    return tuple(out)


def _have(ep: Episode) -> dict[str, Any]:
    have: dict[str, Any] = {}
    for k in ("lieu", "adversaire", "epreuve"):
        if getattr(ep, k) is not None:
            have[k] = getattr(ep, k)
    if ep.rewards:
        have["recompense"] = ep.reward
        if len(ep.rewards) > 1:
            have["recompense_rolls"] = list(ep.rewards)
    if ep.sentences:
        have["sentence"] = ep.sentence
        if len(ep.sentences) > 1:
            have["sentence_rolls"] = list(ep.sentences)
    if ep.difficulty:
        have["difficulty"] = list(ep.difficulty)
        have["difficulty_kind"] = ep.difficulty_kind
        if ep.difficulty_total is not None:
            have["difficulty_total"] = ep.difficulty_total
    if ep.detail:
        have["detail"] = list(ep.detail)
    if ep.roll is not None:
        have["trial"] = ep.roll
    return have


def _setup_or_travel(state: State) -> PeripetiesStep:
    if state.phase == "setup":
        return Setup(state.turn, "setup", "peripeties.add_character", (), (
            Choice("add_character", "peripeties.add_character"),
            Choice("next_turn", "peripeties.next_turn", enabled=bool(state.characters))))
    return Travel(state.turn, "travel", "peripeties.next_turn", (),
                  (Choice("next_turn", "peripeties.next_turn", enabled=True),),
                  tuple({"character": c.id, **character_json(state, c)["travel"]} for c in state.characters))


def _head(state: State, ep: Episode, ch: Character) -> dict[str, Any]:
    owner = ch.player
    return {"turn": state.turn, "character": ch.id, "name": ch.card.name, "player": owner,
            "next_player": state.next_player(owner), "have": _have(ep)}


def _episode_step(state: State, ep: Episode, ch: Character, head: dict[str, Any]) -> Episode_:
    owner = head["player"]
    choices: tuple[Choice, ...] = ()
    if not _have(ep):
        others = [c for c in state.queue if c != ch.id and (state.character(c) or ch).player == owner]
        if others:
            choices = (Choice("character", "peripeties.choose", "character", values=(ch.id, *others),
                              labels=(ch.card.name, *((state.character(c) or ch).card.name for c in others)),
                              selected=ch.id, by=owner),)
    return Episode_(**head, step="episode", event="peripeties.dice",
                    dice=_episode_dice(state, ep, owner, head["next_player"]), choices=choices, correctable=True)


def _trial_step(state: State, ep: Episode, ch: Character, head: dict[str, Any]) -> Trial:
    o = state.options
    owner = head["player"]
    choices: list[Choice] = []
    if ep.epreuve == "combat" and ch.gourds > 0 and o.gourds_per_trial > 0:
        choices.append(Choice("gourd", "peripeties.choose", "gourd",
                              values=tuple(range(0, min(ch.gourds, o.gourds_per_trial) + 1)),
                              selected=ep.gourds, by=owner, rule="R14"))
    if ch.brothers and o.brothers_per_trial >= 1:
        choices.append(Choice("brother", "peripeties.choose", "brother", values=(None, *(b.id for b in ch.brothers)),
                              labels=(None, *(b.name for b in ch.brothers)),
                              selected=ep.brother, by=owner, rule="R17"))
    mods = modifiers(o, ch, ep, ep.gourds, ep.brother)
    return Trial(**head, step="trial", event="peripeties.dice", dice=(_die(f"d{ch.card.die}", "trial", owner),),
                 choices=tuple(choices), difficulty=ep.difficulty_total, modifiers=tuple(m.to_json() for m in mods),
                 modifier=sum(m.value for m in mods), odds=choice_odds(o, ch, ep), correctable=True)


def _pick_step(state: State, ch: Character, sub: str, owner: str, nxt: str) -> tuple[str, tuple[Choice, ...]]:
    """The steps that wait for a choice: the event and the choices."""
    o = state.options
    if sub == "gourd":
        return "peripeties.choose", (Choice("gourd", "peripeties.choose", "gourd",
                                            values=tuple(range(0, min(ch.gourds, o.gourds_per_trial) + 1)),
                                            selected=0, by=owner, rule="D7"),)
    if sub == "brother_card":
        in_pile = [c for c in state.pile]
        return "peripeties.choose", (Choice("card", "peripeties.choose", "card", values=(*in_pile, None),
                                            labels=(*(state.deck[c].name for c in in_pile), None), by=owner,
                                            rule="R16"),)
    if sub == "prison":
        cell = Choice("cell", "peripeties.cell", "cell", optional=True, by=nxt, rule="D9")
        return "peripeties.dice", ((cell,) if o.ask_convict_cell else ())
    from .anytime import bribe_max

    payers = tuple(c.id for c in state.characters if c.player == owner) if o.bribe_payer == "player" else (ch.id,)
    return "peripeties.bribe", (Choice("bribe", "peripeties.bribe", "turns",
                                       values=tuple(range(0, bribe_max(state, ch) + 1)), cost_per_turn=o.bribe_rate,
                                       by=owner, rule="R21", payers=payers),)


def _die_step(sub: str, owner: str, nxt: str) -> DiceWanted:
    """The steps that wait for one die."""
    if sub in ("reward_taels", "fine"):
        return _die("d10", "taels", owner)
    if sub == "reward_reroll":
        return _die("recompense", "recompense", nxt, reroll=True, rule="R16")
    if sub == "sentence_reroll":
        return _die("sentence", "sentence", nxt, reroll=True, rule="R19")
    return _die("d4", "prison", owner)


def expects_of(state: State) -> PeripetiesStep:
    """The step the table waits for (the classes: :mod:`.expects`)."""
    ep = state.episode
    if state.phase in ("setup", "travel") or ep is None:
        return _setup_or_travel(state)
    ch = state.current
    if ch is None:
        raise broken("the episode's character is not at the table")
    head = _head(state, ep, ch)
    owner, nxt, sub = head["player"], head["next_player"], ep.sub
    if sub == "dice":
        return _episode_step(state, ep, ch, head)
    if sub == "trial":
        return _trial_step(state, ep, ch, head)
    if sub == "fine":
        return Fine(**head, step="fine", event="peripeties.dice", dice=(_die_step(sub, owner, nxt),), choices=(),
                    taels=ch.taels)
    if sub in ("reward_taels", "reward_reroll", "sentence_reroll"):
        return TurnStep(**head, step=cast(TurnSteps, sub), event="peripeties.dice", dice=(_die_step(sub, owner, nxt),),
                        choices=())
    if sub in ("gourd", "brother_card", "bribe", "prison"):
        event, choices = _pick_step(state, ch, sub, owner, nxt)
        dice = (_die_step(sub, owner, nxt),) if sub == "prison" else ()
        return TurnStep(**head, step=cast(TurnSteps, sub), event=event, dice=dice, choices=choices)
    return Unknown(**head, step=sub, dice=(), choices=())  # pragma: no cover


def expects(state: State) -> dict[str, Any]:
    """What the table waits for, as JSON."""
    return expects_of(state).to_json()


def _episode_json(state: State) -> dict[str, Any] | None:
    ep = state.episode
    if ep is None:
        return None
    story = episode_narration(state, ep)
    return {
        "character": ep.character,
        "step": ep.sub,
        "dice": _have(ep),
        "gourd": ep.gourds,
        "brother": ep.brother,
        "corrected": ep.corrected,
        "narration": story,
        "results": [{"kind": k, "text": {"fr": fr, "en": en}} for k, fr, en in ep.notes],
    }


def episode_summary(state: State, ep: Episode) -> dict[str, Any]:
    """A resolved episode as JSON (``state_json()["last"]``)."""
    story = episode_narration(state, ep)
    return {
        "turn": ep.turn,
        "character": ep.character,
        "name": ep.name,
        "lieu": ep.lieu,
        "adversaire": ep.adversaire,
        "epreuve": ep.epreuve,
        "difficulty": ep.difficulty_total,
        "difficulty_dice": list(ep.difficulty),
        "detail": list(ep.detail),
        "rewards": list(ep.rewards),
        "sentences": list(ep.sentences),
        "roll": ep.roll,
        "total": ep.total,
        "success": ep.success,
        "natural": ep.natural,
        "gourds": ep.gourds,
        "brother": ep.brother,
        "taels_rolls": list(ep.taels_rolls),
        "corrected": ep.corrected,
        "results": [{"kind": k, "text": {"fr": fr, "en": en}} for k, fr, en in ep.notes],
        "narration": {"fr": story["fr"], "en": story["en"]} if story else None,
    }


def state_json(state: State) -> dict[str, Any]:
    dice = state.dice
    return {
        "turn": state.turn,
        "phase": state.phase,
        "players": list(state.players),
        "order": list(state.queue),
        "characters": [character_json(state, c) for c in state.characters],
        "dead": [{**character_json(state, c), "dead": True} for c in state.dead],
        "episode": _episode_json(state),
        "last": episode_summary(state, state.last) if state.last is not None else None,
        "expects": expects(state),
        "recent": [{"kind": o.kind, "text": dict(o.text)} for o in state.recent],
        "deck": {
            "pile": len(state.pile),
            "discard": list(state.discard),
            "hands": {p: list(h) for p, h in state.hands},
            "cards": [c.to_json() for c in state.deck.values()],
            "available": _available(state),
        },
        "dice_faces": {k: [f.to_json() for f in dice[k].results()] for k in _SYMBOLS},
        "max_brothers": MAX_BROTHERS,
    }


def _available(state: State) -> list[str]:
    """Cards that may start as a new character: every card not in play."""
    used = {c.card.id for c in state.characters} | {b.id for c in state.characters for b in c.brothers}
    return [cid for cid in state.deck if cid not in used]


# -- text -------------------------------------------------------------------------------
_STEP_WORDS = {
    "setup": ("mise en place : ajoutez personnages et joueurs", "setup: add characters and players"),
    "travel": ("phase de voyage", "travel phase"),
    "episode": ("dés de péripétie attendus", "waiting for the episode dice"),
    "trial": ("jet d'épreuve attendu", "waiting for the trial roll"),
    "gourd": ("boire la gourde ?", "drink the gourd?"),
    "reward_taels": ("D10 de taels attendu", "waiting for the taels d10"),
    "reward_reroll": ("relance du dé de récompense", "re-roll of the reward die"),
    "brother_card": ("carte bandit piochée attendue", "waiting for the drawn bandit card"),
    "fine": ("D10 d'amende attendu", "waiting for the fine d10"),
    "sentence_reroll": ("relance du dé de sentence", "re-roll of the sentence die"),
    "prison": ("D4 du bagne attendu", "waiting for the prison d4"),
    "bribe": ("corruption ?", "bribe?"),
}


_ROLE_WORDS = {
    "lieu": ("dé de lieu", "location die"),
    "adversaire": ("dé d'adversaire", "adversary die"),
    "epreuve": ("dé d'épreuve", "trial die"),
    "recompense": ("dé de récompense", "reward die"),
    "sentence": ("dé de sentence", "sentence die"),
    "difficulty": ("difficulté", "difficulty"),
    "detail": ("détail", "detail"),
    "trial": ("jet d'épreuve", "trial roll"),
    "taels": ("taels", "taels"),
    "prison": ("bagne", "prison"),
}


def _die_words(d: dict[str, Any], lang: str) -> str:
    """``{"kind": "d10", "role": "difficulty", "count": 2}`` -> ``"2×D10 (difficulté)"``."""
    fr = lang != "en"
    role = str(_ROLE_WORDS.get(d["role"], (d["role"], d["role"]))[0 if fr else 1])
    notes = []
    if d.get("reroll"):
        notes.append("relance" if fr else "re-roll")
    if "if" in d:
        notes.append(("si " if fr else "if ") + "/".join(_TRIAL_WORDS[t][0 if fr else 1] for t in d["if"]["epreuve"]))
    if d.get("optional"):
        notes.append("facultatif" if fr else "optional")
    if d["kind"] in ("d4", "d6", "d10", "d12"):
        kind = d["kind"].upper() if fr else d["kind"]
        return f"{d['count']}×{kind} ({', '.join([role, *notes])})"
    return f"{role} ({', '.join(notes)})" if notes else str(role)


def _tokens_text(ch: Character, lang: str) -> str:
    fr = lang != "en"
    parts = []
    xp = ", ".join(f"{_TRIAL_WORDS[k][0 if fr else 1]} +{ch.xp_of(k)}" for k in TRIALS if ch.xp_of(k))
    if xp:
        parts.append(("exp. " if fr else "xp ") + xp)
    for n, (wfr, wen) in (
        (ch.wounds, ("blessure(s) -2", "wound(s) -2")),
        (ch.banquets, ("banquet(s)", "banquet(s)")),
        (ch.gourds, ("gourde(s)", "gourd(s)")),
        (ch.taels, ("taels", "taels")),
        (ch.immobilised, ("Immobilisé", "Immobilised")),
    ):
        if n:
            parts.append(f"{n} {wfr if fr else wen}")
    if ch.prison:
        parts.append((f"bagne D4={ch.prison}" if fr else f"prison d4={ch.prison}") + (f" ({ch.cell})" if ch.cell else ""))
    if ch.brothers:
        parts.append(("frères : " if fr else "brothers: ") + ", ".join(b.name for b in ch.brothers))
    return "; ".join(parts) if parts else ("aucun jeton" if fr else "no token")


_TRIAL_WORDS = {"combat": ("combat", "combat"), "esprit": ("esprit", "mind"), "magie": ("magie", "magic")}
_HAVE_WORDS = {
    "lieu": ("lieu", "place"), "adversaire": ("adversaire", "adversary"), "epreuve": ("épreuve", "trial"),
    "recompense": ("récompense", "reward"), "sentence": ("sentence", "sentence"),
    "difficulty": ("difficulté", "difficulty"), "detail": ("détail (D6)", "detail (d6)"),
    "trial": ("jet d'épreuve", "trial roll"),
}


def _have_text(state: State, have: Mapping[str, Any], lang: str) -> str:
    """The dice of the episode in words ("lieu : Étang ; difficulté : 9 + 8 = 17 (2D10)"),
    never the state's keys."""
    fr = lang != "en"
    sep = " : " if fr else ": "
    parts = []
    for key, words in _HAVE_WORDS.items():
        v = have.get(key)
        if v is None or v == [] or v == ():
            continue
        word = words[0 if fr else 1]
        if key in ("lieu", "adversaire", "epreuve", "recompense", "sentence"):
            shown = state.dice[key].face(v).label(lang)
        elif key == "difficulty":
            kind = have.get("difficulty_kind") or "d10"
            dice = f"{len(v)}{kind.upper() if fr else kind}"
            total = have.get("difficulty_total")
            shown = " + ".join(map(str, v)) + (f" = {total}" if total is not None else "") + f" ({dice})"
        else:
            shown = ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)
        parts.append(f"{word}{sep}{shown}")
    return " ; ".join(parts) if fr else "; ".join(parts)


def _star_words(card: Card, fr: bool) -> str:
    if card.star == "celeste":
        return "céleste D12" if fr else "celestial d12"
    return "terrestre D10" if fr else "terrestrial d10"


def _character_line(state: State, ch: Character, current: bool, lang: str) -> str:
    """``▶ Lin Chong (Alice) — rang 6, céleste D12, combat 7 (effectif 8), ...``"""
    fr = lang != "en"
    c = ch.card
    mark = "▶ " if current else "  "
    return (
        f"{mark}{c.name} ({ch.player}) — {'rang' if fr else 'rank'} {c.rank}, {_star_words(c, fr)}, "
        f"combat {c.combat} ({'effectif' if fr else 'effective'} {ch.effective_combat}), "
        f"{'esprit' if fr else 'mind'} {c.esprit}, {'magie' if fr else 'magic'} {c.magie}, "
        f"{'lieu' if fr else 'place'} {state.dice['lieu'].face(c.lieu).label(lang)}"
    )


def _characters_lines(state: State, exp: Mapping[str, Any], lang: str) -> list[str]:
    fr = lang != "en"
    lines = ["Personnages :" if fr else "Characters:"]
    for ch in state.characters:
        lines.append(_character_line(state, ch, exp.get("character") == ch.id, lang))
        lines.append("    " + _tokens_text(ch, lang))
    if not state.characters:
        lines.append("  (aucun)" if fr else "  (none)")
    lines.extend(f"  † {d.card.name} ({d.player})" for d in state.dead)
    return lines


def _odds_lines(exp: Mapping[str, Any], lang: str) -> list[str]:
    """The chance of each choice before the trial roll (``jet ≥ 4, 75 %``)."""
    fr = lang != "en"
    label = lang if lang in ("fr", "en") else "fr"
    return [
        f"  {row['label'][label]}{' : ' if fr else ': '}"
        f"{'jet ≥' if fr else 'roll ≥'} {row['needed']}, {percent(row['probability'], lang, 0)}"
        for row in exp.get("odds", [])
    ]


def _episode_lines(state: State, ep: Episode, exp: Mapping[str, Any], lang: str) -> list[str]:
    """The episode in progress: its dice, its narration, the odds, the dice awaited."""
    fr = lang != "en"
    lines = []
    have = _have(ep)
    if have:
        lines.append(("Péripétie en cours : " if fr else "Current episode: ") + _have_text(state, have, lang))
    story = episode_narration(state, ep)
    if story:
        lines.append("  « " + story["fr"] + " »" if fr else "  “" + story["en"] + "”")
    if exp["step"] == "trial":
        lines.extend(_odds_lines(exp, lang))
    want = [_die_words(d, lang) for d in exp.get("dice", []) if not d.get("optional")]
    if want:
        lines.append(("Attendu : " if fr else "Expected: ") + ", ".join(want))
    return lines


def describe(state: State, lang: str = "fr") -> str:
    """The table in words, for ``companion replay`` and the journal."""
    fr = lang != "en"
    exp = expects(state)
    step = _STEP_WORDS.get(exp["step"], (exp["step"], exp["step"]))
    lines = [
        ("Péripéties — tour " if fr else "Péripéties — turn ") + str(state.turn) + " — " + (step[0] if fr else step[1]),
    ]
    if state.players:
        lines.append(("Joueurs : " if fr else "Players: ") + ", ".join(state.players))
    lines.extend(_characters_lines(state, exp, lang))
    if state.episode is not None:
        lines.extend(_episode_lines(state, state.episode, exp, lang))
    if state.recent:
        lines.append("Derniers résultats :" if fr else "Recent outcomes:")
        lines.extend("  - " + (o.text["fr"] if fr else o.text["en"]) for o in state.recent[-6:])
    return "\n".join(lines)
