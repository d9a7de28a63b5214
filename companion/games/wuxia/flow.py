"""The life of a pool: start, dice in, corrections, re-rolls, Destiny Dice (R7-R11).

Pure helpers on :class:`~.state.PoolTest` values; :mod:`.game` strings them together.

Dice entry: one event carries all the values the step waits for (the whole pool, or only
the re-rolled dice, or the extra dice); a ``0`` is read as 10 (the d10's "0" face). A
correction replaces the faces of a rolled pool (same count) without touching the re-roll
bookkeeping.

Re-rolls (R9, W5): the player names the dice (0-based positions in the pool); by default
only failed dice (1s included), each at most once, up to the specialisation's count; the
new faces replace the old ones and the other dice are kept. Destiny Dice (R11, W6):
recorded by default; with ``destiny_effect = "extra_die"`` each adds one d10 to the pool,
with ``"reroll"`` each allows re-rolling one die of the pool, any die.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from ..base import text
from ..refusal import malformed, refuse
from .dice import PoolResult, evaluate
from .odds import pool_odds
from .sheet import ATTRIBUTE_LABELS, ATTRIBUTES, Character, fold_name, resolve_skill
from .state import PoolTest
from .state import evolve as replace

__all__ = ["make_test", "parse_faces", "enter_dice", "correct_dice", "choose_reroll", "result_of",
           "explain", "odds_json", "pool_json", "attribute_key"]


def _int(v: Any, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise malformed(f"« {what} » doit être un nombre entier, pas {v!r}", f"{what} must be an integer, not {v!r}")
    return v


def attribute_key(name: Any) -> str:
    if not isinstance(name, str):
        raise malformed(
            f"l'attribut doit être l'un de {', '.join(ATTRIBUTES)}, pas {name!r}",
            f"attribute must be one of {', '.join(ATTRIBUTES)}, not {name!r}",
        )
    key = fold_name(name)
    aliases = {"metal": "metal", "fire": "feu", "earth": "terre", "water": "eau", "wood": "bois"}
    key = aliases.get(key, key)
    if key not in ATTRIBUTES:
        raise malformed(
            f"attribut inconnu {name!r} ; attendu : {', '.join(ATTRIBUTES)}",
            f"unknown attribute {name!r}; expected {', '.join(ATTRIBUTES)}",
        )
    return key


def make_test(spec: Mapping[str, Any], state_char: Character | None, options: Mapping[str, Any], *,
              default_sr: int = 10, label: str | None = None, attribute: str | None = None,
              dice_bonus: int = 0, attribute_malus: int = 0) -> PoolTest:
    """A new pool from a test description (``who``, ``attribute``, ``skill`` or
    ``competence``, ``sr``, ``dice``, ``rerolls``, ``specialisation``, ``label``)."""
    sr = _test_sr(spec, options, default_sr)
    n, attr_key = _pool_size(spec, state_char, attribute, dice_bonus, attribute_malus)
    who = state_char.name if state_char else None
    skill = spec.get("skill")
    if skill is not None and not isinstance(skill, str):
        raise malformed("« skill » doit être le nom d'une compétence", "skill must be a skill's name")
    comp, rr, how, used = _competence(spec, state_char, skill, options)
    if "rerolls" in spec:
        rr = _int(spec["rerolls"], "rerolls")
        if not 0 <= rr <= 10:
            raise refuse("R9", "les relances doivent être entre 0 et 10", "rerolls must be 0..10")
    lab = spec.get("label", label)
    if lab is not None and not isinstance(lab, str):
        raise malformed("« label » doit être un texte", "label must be a string")
    test = PoolTest(who=who, label=lab or "", attribute=attr_key, dice=n, competence=comp, sr=sr, how=how,
                    skill=used, rerolls=rr)
    if n == 0:
        test = replace(test, faces=())
    return test




def _test_sr(spec: Mapping[str, Any], options: Mapping[str, Any], default_sr: int) -> int:
    """The test's SR, within the options' range (R7, R8)."""
    sr = spec.get("sr", default_sr)
    sr = _int(sr, "sr")
    if not options["sr_min"] <= sr <= options["sr_max"]:
        raise refuse(
            "R7",
            f"la SR doit être entre {options['sr_min']} et {options['sr_max']} (8 routine, 10 standard, 13 extrême), pas {sr}",
            f"SR must be {options['sr_min']}..{options['sr_max']} (8 routine, 10 standard, 13 extreme), not {sr}",
        )
    return sr


def _pool_size(spec: Mapping[str, Any], state_char: Character | None, attribute: str | None,
               dice_bonus: int, attribute_malus: int) -> tuple[int, str | None]:
    """The number of dice (the attribute's value, or ``dice``) and the attribute's key (R7)."""
    attr = attribute if attribute is not None else spec.get("attribute")
    if state_char is not None:
        key = attribute_key(attr)
        n = state_char.attribute(key)
        attr_key: str | None = key
    else:
        attr_key = None
        if isinstance(attr, str):
            attr_key = attribute_key(attr)
            attr = spec.get("dice")
            if attr is None:
                raise malformed(
                    "sans « who », donnez le nombre de dés (« dice » ou un nombre comme « attribute »)",
                    "without 'who', give the number of dice ('dice' or a number as 'attribute')",
                )
        n = _int(spec.get("dice", attr), "dice")
    if "dice" in spec and state_char is not None:
        n = _int(spec["dice"], "dice")  # an explicit pool size wins (GM's ruling)
    n = max(0, n - attribute_malus) + dice_bonus
    if not 0 <= n <= 60:
        raise refuse("R7", f"une réserve compte de 0 à 60 dés, pas {n}", f"a pool has 0..60 dice, not {n}")
    return n, attr_key


def _competence(spec: Mapping[str, Any], state_char: Character | None, skill: str | None,
                options: Mapping[str, Any]) -> tuple[int, int, str, str | None]:
    """Compétence, re-rolls, how it was found and the skill used (R2, R3, R9, W18)."""
    if "competence" in spec:
        comp = _int(spec["competence"], "competence")
        if not 0 <= comp <= 10:
            raise refuse(
                "R2",
                f"la Compétence doit être entre 0 et 10, pas {comp}",
                f"Compétence must be 0..10, not {comp}",
            )
        how, used = "given", skill
        from .options import reroll_count

        spec_flag = spec.get("specialisation", False)
        if not isinstance(spec_flag, bool):
            raise malformed(
                "« specialisation » doit valoir true ou false quand « competence » est donnée",
                "specialisation must be true or false when 'competence' is given",
            )
        rr = reroll_count(comp, options) if spec_flag else 0
    else:
        if skill is not None and state_char is not None and state_char.skill(skill) is None:
            raise refuse(
                "R2",
                f"{state_char.name} n'a pas la compétence {skill!r} : donnez « competence » (0 sans formation, W18) ou ajoutez-la à la fiche",
                f"{state_char.name} has no skill {skill!r}: give 'competence' (0 untrained, W18) or add it to the sheet",
            )
        comp, rr, how, used = resolve_skill(state_char, skill, options)
    return comp, rr, how, used


def parse_faces(raw: Any, count: int | None = None) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise malformed(
            "« dice » doit être une liste de faces de d10 (1 à 10 ; 0 vaut 10)",
            "'dice' must be a list of d10 faces (1..10; 0 reads as 10)",
        )
    faces = []
    for v in raw:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 10:
            raise malformed(
                f"une face de d10 vaut de 1 à 10 (0 vaut 10), pas {v!r}",
                f"a d10 face is 1..10 (0 reads as 10), not {v!r}",
            )
        faces.append(10 if v == 0 else v)
    if count is not None and len(faces) != count:
        raise refuse(
            "R7",
            f"cette étape attend {count} d10, l'événement en donne {len(faces)}",
            f"this step waits for {count} d10, the event gives {len(faces)}",
        )
    return tuple(faces)


def dice_from_read(read: Any) -> list[int]:
    """The d10 faces of a camera read (``vision.result.Read.to_json()``).

    Dice the camera is unsure of (``status: "pending"`` or no value) are never guessed:
    the event is refused and the tablet asks the players for them.
    """
    if not isinstance(read, Mapping) or not isinstance(read.get("objects"), list):
        raise malformed(
            "« read » doit être une lecture de la caméra : {\"objects\": [{kind, value, status}, ...]}",
            "'read' must be a camera read: {\"objects\": [{kind, value, status}, ...]}",
        )
    if read.get("error"):
        raise refuse(
            "R7",
            f"la caméra n'a pas pu lire le plateau : {read['error']}",
            f"the camera could not read the tray: {read['error']}",
        )
    faces: list[int] = []
    unsure = 0
    for obj in read["objects"]:
        if not isinstance(obj, Mapping) or obj.get("kind") != "d10":
            continue
        if obj.get("status") == "pending" or obj.get("value") is None:
            unsure += 1
            continue
        faces.append(obj["value"])
    if unsure:
        raise refuse(
            "R7",
            f"la caméra hésite sur {unsure} d10 : touchez leurs faces sur la tablette",
            f"the camera is unsure of {unsure} d10: tap their faces on the tablet",
        )
    return faces


def enter_dice(test: PoolTest, raw: Any) -> PoolTest:
    """Fill what the test waits for: the pool, the re-rolled dice or the extra dice."""
    need = test.waiting_dice
    if need == 0 and test.faces is not None:
        raise refuse(
            "R9",
            "cette réserve n'attend aucun dé : choisissez d'abord les dés à relancer",
            "this pool waits for no dice: choose dice to re-roll first",
        )
    faces = parse_faces(raw, need)
    if test.faces is None:
        return replace(test, faces=faces)
    if test.pending:
        cur = list(test.faces)
        for i, f in zip(test.pending, faces):
            cur[i] = f
        return replace(test, faces=tuple(cur), rerolled=tuple(sorted(set(test.rerolled) | set(test.pending))), pending=())
    return replace(test, faces=test.faces + faces, extra_pending=0)


def correct_dice(test: PoolTest, data: Mapping[str, Any]) -> PoolTest:
    """A correction: the whole pool again (``dice``) or one die (``index``, ``value``)."""
    if test.faces is None:
        raise refuse(
            "R7",
            "rien à corriger : cette réserve n'a pas encore été lancée",
            "nothing to correct: this pool has not been rolled yet",
        )
    if "dice" in data:
        return replace(test, faces=parse_faces(data["dice"], len(test.faces)))
    idx = _int(data.get("index"), "index")
    if not 0 <= idx < len(test.faces):
        raise malformed(
            f"« index » doit être entre 0 et {len(test.faces) - 1}",
            f"index must be 0..{len(test.faces) - 1}",
        )
    (face,) = parse_faces([data.get("value")])
    cur = list(test.faces)
    cur[idx] = face
    return replace(test, faces=tuple(cur))


def result_of(test: PoolTest, options: Mapping[str, Any]) -> PoolResult | None:
    if test.faces is None:
        return None
    return evaluate(test.faces, test.threshold, options["threshold_rule"], options["quality"])


def choose_reroll(test: PoolTest, raw: Any, options: Mapping[str, Any]) -> PoolTest:
    """Check the chosen positions against R9/W5 and the re-rolls left; mark them pending."""
    faces = _rerollable_faces(test)
    idx = _reroll_positions(raw, faces)
    special_left = max(0, test.rerolls - test.rerolls_used)
    destiny_left = max(0, test.destiny_rerolls - test.destiny_rerolls_used)
    if special_left + destiny_left == 0:
        raise refuse(
            "R9",
            "aucune relance disponible : les relances viennent d'une spécialisation (R9) ou des Dés de Destinée (option destiny_effect)",
            "no re-roll available: re-rolls come from a specialisation (R9) or Destiny Dice (option destiny_effect)",
        )
    if options["reroll_once"]:
        again = [i for i in idx if i in test.rerolled]
        if again:
            raise refuse(
                "W5",
                f"le dé n° {again[0] + 1} (position {again[0]}) a déjà été relancé (une fois par dé, W5)",
                f"die #{again[0] + 1} (position {again[0]}) was already re-rolled (each die once, W5)",
            )
    need_destiny = _needing_destiny(test, idx, options)
    if need_destiny > destiny_left:
        raise refuse(
            "R9",
            ("seuls les dés ratés peuvent être relancés par une spécialisation" + ("" if options["reroll_ones"] else ", et pas les 1") + " (R9, W5)"),
            "only failed dice may be re-rolled by a specialisation"
            + ("" if options["reroll_ones"] else ", and not the 1s")
            + " (R9, W5)",
        )
    if len(idx) > special_left + destiny_left:
        raise refuse(
            "R9",
            f"{len(idx)} dé(s) choisi(s), {special_left + destiny_left} relance(s) restante(s)",
            f"{len(idx)} dice chosen, {special_left + destiny_left} re-roll(s) left",
        )
    use_special = min(special_left, len(idx) - need_destiny)
    use_destiny = len(idx) - use_special
    return replace(
        test,
        pending=tuple(idx),
        rerolls_used=test.rerolls_used + use_special,
        destiny_rerolls_used=test.destiny_rerolls_used + use_destiny,
    )




def _rerollable_faces(test: PoolTest) -> tuple[int, ...]:
    """The pool's faces, once rolled and while its test is open (R9)."""
    if test.faces is None or test.waiting_dice:
        raise refuse(
            "R9",
            "lancez la réserve (et les dés attendus) avant de relancer",
            "roll the pool (and any dice awaited) before re-rolling",
        )
    if test.closed:
        raise refuse(
            "R9",
            "ce test est terminé : ses dés ne peuvent plus être relancés",
            "this test is over: its dice can no longer be re-rolled",
        )
    if test.faces is None:  # pragma: no cover - refused just above
        raise refuse("R9", "la réserve n'a pas encore de faces", "the pool has no faces yet")
    return test.faces


def _reroll_positions(raw: Any, faces: tuple[int, ...]) -> list[int]:
    """The distinct positions named in ``indices``, each in the pool."""
    if not isinstance(raw, list) or not raw:
        raise malformed(
            "« indices » doit être une liste non vide de positions de dés (à partir de 0)",
            "'indices' must be a non-empty list of dice positions (0-based)",
        )
    idx = []
    for v in raw:
        i = _int(v, "indices")
        if not 0 <= i < len(faces):
            raise malformed(
                f"la position {i} n'est pas dans la réserve (les positions comptent à partir de 0 : 0 à {len(faces) - 1})",
                f"die position {i} is not in the pool (positions count from 0: 0..{len(faces) - 1})",
            )
        idx.append(i)
    if len(set(idx)) != len(idx):
        raise malformed("un dé est nommé deux fois", "a die is named twice")
    return idx


def _needing_destiny(test: PoolTest, idx: list[int], options: Mapping[str, Any]) -> int:
    """How many of the chosen dice only a Destiny re-roll may touch (a success, or a 1
    when the options forbid re-rolling 1s: R9, W5)."""
    res = result_of(test, options)
    if res is None:  # pragma: no cover - the faces were checked by the caller
        raise refuse("R9", "la réserve n'a pas encore de faces", "the pool has no faces yet")
    need_destiny = 0
    for i in idx:
        cls = res.classes[i]
        if cls == "success" and options["reroll_only_failed"]:
            need_destiny += 1  # only a Destiny re-roll may touch a success
        elif cls == "one" and not options["reroll_ones"]:
            need_destiny += 1
    return need_destiny


def odds_json(test: PoolTest, options: Mapping[str, Any]) -> dict[str, Any]:
    """Exact odds of the pool before it is rolled (with its re-rolls, R9)."""
    n = test.dice + test.extra_pending
    out = _odds_json(n, max(1, min(10, test.threshold)), test.rerolls_left, options["threshold_rule"],
                     options["odds_reroll_policy"], bool(options["reroll_ones"]))
    out = {**out, "successes": dict(out["successes"]), "threshold": test.threshold}
    return out


@lru_cache(maxsize=512)
def _odds_json(n: int, t: int, rr: int, rule: str, policy: str, ones: bool) -> dict[str, Any]:
    """Cached: a replay of a long log starts many tests with the same pools."""
    o = pool_odds(n, t, rr, rule=rule, policy=policy, reroll_ones=ones)
    out = o.to_json()
    if rr:
        base = pool_odds(n, t, 0, rule=rule)
        out["without_rerolls"] = {"success": float(base.success), "critical_failure": float(base.critical)}
        out["reroll_policy"] = policy
    return out


def explain(test: PoolTest, res: PoolResult, options: Mapping[str, Any]) -> dict[str, str]:
    """What the pool means, in both languages."""
    s, u = res.successes, res.ones
    who_fr = f"{test.who} : " if test.who else ""
    who_en = f"{test.who}: " if test.who else ""
    counts_fr = f"{s} succès, {u} « 1 »"
    counts_en = f"{s} success{'es' if s != 1 else ''}, {u} one{'s' if u != 1 else ''}"
    if res.outcome == "critical":
        fr = f"{who_fr}échec critique — {counts_fr} : plus de 1 que de succès."
        en = f"{who_en}critical failure — {counts_en}: more 1s than successes."
    elif res.outcome == "success":
        beyond = s - 1
        if options["quality"] == "net":
            qfr = f"qualité {res.quality} (succès moins les 1)"
            qen = f"quality {res.quality} (successes minus 1s)"
        else:
            qfr = f"qualité {res.quality} ({beyond} succès au-delà du premier)" if beyond else "qualité 1 (un seul succès suffit)"
            qen = f"quality {res.quality} ({beyond} beyond the first)" if beyond else "quality 1 (one success is enough)"
        fr = f"{who_fr}réussite — {counts_fr} ; {qfr}."
        en = f"{who_en}success — {counts_en}; {qen}."
    else:
        fr = f"{who_fr}échec — aucun succès (seuil {res.threshold})."
        en = f"{who_en}failure — no success (threshold {res.threshold})."
    left = test.rerolls_left if not test.closed else 0
    if left and res.failed_indices:
        fr += f" {left} relance(s) possible(s)."
        en += f" {left} re-roll(s) available."
    return text(fr, en)


def pool_json(test: PoolTest, options: Mapping[str, Any]) -> dict[str, Any]:
    res = result_of(test, options)
    out: dict[str, Any] = {
        "who": test.who,
        "label": test.label,
        "attribute": test.attribute,
        "attribute_label": ATTRIBUTE_LABELS[test.attribute] if test.attribute else None,
        "dice": test.dice,
        "competence": test.competence,
        "sr": test.sr,
        "threshold": test.threshold,
        "how": test.how,
        "skill": test.skill,
        "rerolls": test.rerolls,
        "rerolls_left": test.rerolls_left if not test.closed else 0,
        "rerolled": list(test.rerolled),
        "pending": list(test.pending),
        "extra_pending": test.extra_pending,
        "destiny_spent": test.destiny_spent,
        "closed": test.closed,
        "faces": list(test.faces) if test.faces is not None else None,
        "result": None,
    }
    if res is not None and not test.waiting_dice:
        out["result"] = {**res.to_json(), "text": explain(test, res, options)}
    return out


def destiny_on_test(test: PoolTest, count: int, options: Mapping[str, Any]) -> PoolTest:
    """Spend ``count`` Destiny Dice on a pool according to ``destiny_effect`` (W6)."""
    effect = options["destiny_effect"]
    test = replace(test, destiny_spent=test.destiny_spent + count)
    if effect == "extra_die":
        if test.faces is None:
            return replace(test, dice=test.dice + count)
        return replace(test, extra_pending=test.extra_pending + count)
    if effect == "reroll":
        return replace(test, destiny_rerolls=test.destiny_rerolls + count)
    return test


def settled(tests: Sequence[PoolTest]) -> bool:
    return all(t.faces is not None and not t.waiting_dice for t in tests)
