"""The roll sequence of one test (R3), on real dice.

1. ``start_test``: attribute and skill (by name from the sheet, or plain numbers for a
   character without a sheet), difficulty (+ manoeuvre, R8), Ki declared (R6: +1 die
   rolled or kept per Ki, at most INS per action, A7), modifiers to dice rolled / kept.
2. ``enter_roll``: the d10 values (one event, tapped or camera-read; "0" reads 10).
3. ``use_signature``: step 5, each signature once per test (A6), re-rolls before
   "cancel a 1" / "+1". A re-roll may first be declared (``declare_signature``: the same
   checks) so that its dice are rolled in the tray and read by the camera; the test then
   waits for their faces (``Test.awaiting``) and ``use_signature`` completes it.
4. ``choose_keep``: step 6, the player's keep (or the best keep), then step 7: count.

Functions return the new state and, once the test is counted, the :class:`Count` and the
explanation that becomes ``state.last``.
"""

from __future__ import annotations

import random

from typing import Any, Iterator, Mapping, Sequence

from ...errors import RuleError
from ...events import Source
from ..refusal import broken, french_name, malformed, refuse
from .dice import Count, best_keep, check_keep, count, is_active_one
from .odds import MAX_DICE
from .sheet import norm_key
from .signatures import Signature, parse_signature
from .state import Declared, ShayoState, Test, character, forbid_in_bought_action, pay_ki, refund_ki

#: A rating's name in French, for the refusals ("the attribute" -> "l'attribut").
_FR_TABLE = {"attribute": "l'attribut", "skill": "la compétence"}
#: French names of the fields named in the refusals.
_FR_NAMES = (
    (r"Ki for dice rolled", "Ki pour les dés lancés"), (r"Ki for dice kept", "Ki pour les dés gardés"),
    (r"manoeuvre Ki", "Ki de la manœuvre"), (r"manoeuvre difficulty", "difficulté de la manœuvre"),
    (r"modifier to dice rolled", "modificateur des dés lancés"), (r"modifier to dice kept", "modificateur des dés gardés"),
    (r"'required'", "required"),
)

from .values import MAX_DIFFICULTY, evolve
__all__ = ["Explanation", "labels", "start_test", "declare_ki", "enter_roll", "use_signature", "declare_signature",
           "withdraw_signature", "reroll_mode", "reroll_text", "choose_keep", "usable", "explain", "parse_dice",
           "rating", "Resolved"]

Resolved = tuple[ShayoState, Test, Count]


def _int(v: Any, what: str, lo: int | None = None, hi: int = MAX_DICE) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise malformed(f"« {french_name(what, _FR_NAMES)} » doit être un nombre entier, pas {v!r}", f"{what} must be an integer, not {v!r}")
    if lo is not None and v < lo:
        raise malformed(f"« {french_name(what, _FR_NAMES)} » doit valoir au moins {lo}, pas {v}", f"{what} must be at least {lo}, not {v}")
    if not -hi <= v <= hi:
        raise malformed(f"« {french_name(what, _FR_NAMES)} » doit être entre {-hi} et {hi}, pas {v}", f"{what} must be from {-hi} to {hi}, not {v}")
    return v


def rating(state: ShayoState, who: str | None, raw: Any, table: str) -> tuple[str | None, int]:
    """An attribute or skill: a name looked up on ``who``'s sheet, or a plain number.

    A skill missing from the sheet is 0 (untrained, A16); a missing attribute is an error.
    """
    if isinstance(raw, int) and not isinstance(raw, bool):
        if not 0 <= raw <= MAX_DICE:
            raise malformed(
                f"la valeur de {_FR_TABLE.get(table, table)} doit être entre 0 et {MAX_DICE}, pas {raw}",
                f"the {table} must be from 0 to {MAX_DICE}, not {raw}",
            )
        return None, raw
    if not isinstance(raw, str) or not raw.strip():
        raise malformed(
            f"donnez {_FR_TABLE.get(table, table)} (un nom de la fiche ou un nombre)",
            f"give the {table} (a name on the sheet or a number)",
        )
    if who is None:
        raise malformed(
            f"{_FR_TABLE.get(table, table)} {raw!r} est un nom : dites de quelle fiche (« who »)",
            f"the {table} {raw!r} is a name: say whose sheet ('who')",
        )
    ch = character(state, who)
    key = norm_key(raw)
    if table == "attribute":
        if key not in ch.attributes:
            raise refuse(
                "R1",
                f"{who} n'a pas d'attribut {raw!r} (a : {', '.join(ch.attributes)})",
                f"{who} has no attribute {raw!r} (has: {', '.join(ch.attributes)})",
            )
        return key, ch.attributes[key]
    return key, ch.skills.get(key, 0)


def parse_dice(raw: Any, what: str = "dice") -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise malformed(
            f"« {french_name(what, _FR_NAMES)} » doit être une liste de valeurs de d10 (1 à 10 ; 0 vaut 10)",
            f"'{what}' must be a list of d10 values (1-10; 0 reads 10)",
        )
    out = []
    for v in raw:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 10:
            raise malformed(
                f"{v!r} n'est pas une face de d10 (1 à 10, ou 0 pour 10)",
                f"{v!r} is not a d10 face (1-10, or 0 for 10)",
            )
        out.append(10 if v == 0 else v)
    return tuple(out)


def _ki_decl(state: ShayoState, who: str | None, raw: Any) -> tuple[int, int, Any, bool]:
    if raw is None:
        return 0, 0, None, False
    if not isinstance(raw, Mapping):
        raise malformed(
            "« ki » doit être un objet {rolled, kept, from, surpass}",
            "'ki' must be an object {rolled, kept, from, surpass}",
        )
    unknown = set(raw) - {"rolled", "kept", "from", "surpass"}
    if unknown:
        raise malformed(
            f"champ(s) de Ki inconnu(s) : {', '.join(sorted(unknown))}",
            f"unknown Ki field(s): {', '.join(sorted(unknown))}",
        )
    a = _int(raw.get("rolled", 0), "Ki for dice rolled", 0)
    b = _int(raw.get("kept", 0), "Ki for dice kept", 0)
    if a + b:
        if who is None:
            raise malformed("dépenser du Ki demande un personnage (« who »)", "spending Ki needs a character ('who')")
        ins = character(state, who).ins
        if a + b > ins:
            raise refuse(
                "R6",
                f"au plus INS = {ins} Ki par action pour des dés en plus ; {a} lancés + {b} gardés = {a + b}",
                f"at most INS = {ins} Ki per action on extra dice; {a} rolled + {b} kept = {a + b}",
            )
    return a, b, raw.get("from"), bool(raw.get("surpass", False))


def _manoeuvre(state: ShayoState, who: str | None, man: Any) -> tuple[int, int, str | None]:
    """R8, A13: a manoeuvre adds difficulty (mastered or not) and may cost Ki; none in an
    action bought with Ki (R6.4). Returns the difficulty added, the Ki and the note."""
    if man is None:
        return 0, 0, None
    if not isinstance(man, Mapping):
        raise malformed(
            "« manoeuvre » doit être un objet {name, ki, mastered, difficulty}",
            "'manoeuvre' must be an object {name, ki, mastered, difficulty}",
        )
    forbid_in_bought_action(state, who, "manoeuvre")
    man_ki = _int(man.get("ki", 0), "manoeuvre Ki", 0)
    mastered = bool(man.get("mastered", True))
    table = state.options["manoeuvre_difficulty"]
    plus = man.get("difficulty", table["mastered" if mastered else "unmastered"])
    plus = _int(plus, "manoeuvre difficulty", None, MAX_DIFFICULTY)
    label = str(man.get("name", "manœuvre"))
    return plus, man_ki, f"{label} ({'maîtrisée' if mastered else 'non maîtrisée'}) +{plus}"


def _modifiers(mods: Any) -> tuple[int, int]:
    """The signed modifiers to the dice rolled and kept (``modifiers``)."""
    if not isinstance(mods, Mapping) or set(mods) - {"rolled", "kept"}:
        raise malformed(
            "« modifiers » doit être un objet {rolled, kept} (entiers signés)",
            "'modifiers' must be an object {rolled, kept} (signed integers)",
        )
    mod_r = _int(mods.get("rolled", 0), "modifier to dice rolled", None, 10 * MAX_DICE)
    mod_k = _int(mods.get("kept", 0), "modifier to dice kept", None, 10 * MAX_DICE)
    return mod_r, mod_k


def start_test(state: ShayoState, data: Mapping[str, Any], kind: str = "test",
               difficulty: int | None = None, extra_notes: Sequence[str] = (),
               who_key: str = "who") -> ShayoState:
    """R3 steps 1–3: declare a test (refused while another test is open)."""
    if state.test is not None:
        raise refuse(
            "R3",
            "un test est déjà ouvert : saisissez ses dés, ou annulez-le (shayo.cancel)",
            "a test is already open: enter its dice, or cancel it (shayo.cancel)",
        )
    who = data.get(who_key)
    if who is not None:
        character(state, who)
    attr_name, attr = rating(state, who, data.get("attribute"), "attribute")
    skill_name, skill = rating(state, who, data.get("skill"), "skill")
    notes = list(extra_notes)
    if difficulty is None:
        difficulty = _int(data.get("difficulty"), "difficulty", 2, MAX_DIFFICULTY)
    plus, man_ki, man_note = _manoeuvre(state, who, data.get("manoeuvre"))
    difficulty += plus
    if man_note:
        notes.append(man_note)
    a, b, source, surpass = _ki_decl(state, who, data.get("ki"))
    mod_r, mod_k = _modifiers(data.get("modifiers") or {})
    if attr + a + mod_r > MAX_DICE or skill + b + mod_k > MAX_DICE:
        raise refuse("A5", f"au plus {MAX_DICE} dés dans une réserve", f"at most {MAX_DICE} dice in a pool")
    sigs = _test_signatures(state, who, skill_name, data.get("signatures"))
    required = _int(data.get("required", state.options["required_successes"]), "'required'", 1)
    if a + b + man_ki:
        if who is None:
            raise malformed("dépenser du Ki demande un personnage (« who »)", "spending Ki needs a character ('who')")
        state, paid = pay_ki(state, who, a + b + man_ki, source, surpass)
    else:
        paid = {}
    label = data.get("label", "")
    sheet = character(state, who) if who is not None else None
    test = Test(
        attribute_shown=sheet.shown(attr_name) if (sheet is not None and attr_name) else None,
        skill_shown=sheet.shown(skill_name) if (sheet is not None and skill_name) else None,
        kind=kind, who=who, attribute_name=attr_name, skill_name=skill_name, attribute=attr,
        skill=skill, difficulty=difficulty, difficulty_notes=tuple(notes), ki_rolled=a, ki_kept=b,
        ki_extra=man_ki, ki_paid=paid, mod_rolled=mod_r, mod_kept=mod_k, signatures=sigs,
        required=required, label=label if isinstance(label, str) else "",
    )
    return evolve(state, test=test)


def _test_signatures(state: ShayoState, who: str | None, skill: str | None, raw: Any) -> tuple[Signature, ...]:
    own: tuple[Signature, ...] = ()
    if who is not None and skill is not None:
        own = character(state, who).signatures_for(skill)
    if raw is None:
        return own
    if not isinstance(raw, list):
        raise malformed(
            "« signatures » doit être une liste d'identifiants de signatures (ou de fiches pour un personnage sans fiche)",
            "'signatures' must be a list of signature ids (or records for a character without a sheet)",
        )
    if who is not None and skill is not None:
        by_id = {s.id: s for s in own}
        out = []
        for r in raw:
            sid = r if isinstance(r, str) else (r.get("id") if isinstance(r, Mapping) else None)
            if sid not in by_id:
                raise refuse(
                    "R4",
                    f"{who} n'a pas de signature {sid!r} en {skill}",
                    f"{who} has no signature {sid!r} on {skill}",
                )
            out.append(by_id[sid])
        return tuple(out)
    return tuple(parse_signature(r) for r in raw)


def declare_ki(state: ShayoState, data: Mapping[str, Any]) -> ShayoState:
    """R3 step 2 (again): replace the Ki declared for the open test, before its roll."""
    test = state.test
    if test is None or test.dice is not None:
        raise refuse(
            "R6",
            "le Ki pour des dés se déclare avant le jet (R3, étape 2)",
            "Ki for dice is declared before the roll (R3 step 2)",
        )
    if test.who is None:
        raise malformed(
            "ce test n'a pas de personnage : pas de Ki à dépenser",
            "this test has no character: no Ki to spend",
        )
    state = refund_ki(state, test.who, test.ki_paid)
    a, b, source, surpass = _ki_decl(state, test.who, data)
    total = a + b + test.ki_extra
    state, paid = pay_ki(state, test.who, total, source, surpass)
    return evolve(state, test=evolve(test, ki_rolled=a, ki_kept=b, ki_paid=paid))


# -- dice ---------------------------------------------------------------------------------
def enter_roll(state: ShayoState, dice: tuple[int, ...]) -> ShayoState:
    """R3 step 4: the dice rolled (the count must match what the test expects)."""
    test = state.test
    if test is None:
        raise refuse(
            "R3",
            "aucun test n'attend de dés : déclarez-en un d'abord (shayo.test, shayo.attack…)",
            "no test is waiting for dice: declare one first (shayo.test, shayo.attack...)",
        )
    if test.dice is not None:
        raise refuse(
            "R3",
            "les dés de ce test sont déjà saisis ; corrigez-les avec shayo.correct",
            "the dice of this test are already entered; use shayo.correct to fix them",
        )
    if len(dice) != test.rolled:
        raise refuse(
            "R3",
            f"ce test lance {test.rolled} d10, mais {len(dice)} ont été donnés",
            f"this test rolls {test.rolled} d10, but {len(dice)} were given",
        )
    return evolve(state, test=evolve(test, dice=dice, entered=dice, cancelled=(False,) * len(dice)))


def _eligible(test: Test, sig: Signature, useful: bool, tens_mode: str) -> list[int]:
    if test.dice is None:  # pragma: no cover - an invariant of the rules
        raise broken("test.dice is not None")
    v, c, d = test.dice, test.cancelled, test.difficulty
    idx = range(len(v))
    if sig.kind == "reroll":
        return [] if test.adjusted else _reroll_eligible(v, c, d, sig, useful, tens_mode)
    if sig.kind == "cancel_one":
        return [i for i in idx if is_active_one(v, c, i)]
    if useful:
        return [i for i in idx if v[i] != 1 and v[i] == d - 1]
    return [i for i in idx if v[i] != 1]


def _reroll_eligible(v: Sequence[int], c: Sequence[bool], d: int, sig: Signature, useful: bool,
                     tens_mode: str) -> list[int]:
    """The dice a re-roll signature may act on (A6): its 1s, its failures or its 10s (a
    re-rolled 10 that explodes cannot help when a 10 already succeeds)."""
    idx = range(len(v))
    if sig.which == "ones":
        return [i for i in idx if is_active_one(v, c, i)]
    if sig.which == "failures":
        return [i for i in idx if v[i] != 1 and v[i] < d]
    if useful and tens_mode == "explode" and d <= 10:
        return []
    return [i for i in idx if v[i] == 10]


def _best_net(test: Test, values: Sequence[int], cancelled: Sequence[bool], scope: str) -> int:
    kept = best_keep(values, cancelled, test.keep, scope)
    return count(values, cancelled, kept, test.difficulty, scope, test.ones_cancel).net


def _could_help(test: Test, sig: Signature, i: int, tens_mode: str, scope: str) -> bool:
    """Would the signature on die ``i`` raise the net successes in its best case (a
    re-roll showing 10)? If not, the table does not wait for it."""
    if test.dice is None:  # pragma: no cover - an invariant of the rules
        raise broken("test.dice is not None")
    values, cancelled = list(test.dice), list(test.cancelled)
    now = _best_net(test, values, cancelled, scope)
    if sig.kind == "cancel_one":
        cancelled[i] = True
    elif sig.kind == "plus_one":
        values[i] += 1
    elif sig.which == "tens" and tens_mode == "extra_die":
        values.append(10)
        cancelled.append(False)
    elif sig.which == "tens":
        values[i] = 20
    else:
        values[i] = 10
    return _best_net(test, values, cancelled, scope) > now


def usable(test: Test, tens_mode: str, scope: str = "all_rolled") -> list[dict[str, Any]]:
    """The signatures that could still raise this roll's net successes, with the dice
    they may usefully target (the player may still use any eligible die)."""
    if test.dice is None:
        return []
    out = []
    for sig in test.signatures:
        if sig.id in test.used:
            continue
        dice = [i for i in _eligible(test, sig, True, tens_mode) if _could_help(test, sig, i, tens_mode, scope)]
        if dice:
            out.append({"id": sig.id, "kind": sig.kind, "which": sig.which, "count": sig.count,
                        "fr": sig.fr, "en": sig.en, "dice": dice})
    return out


def _checked_signature(state: ShayoState, data: Mapping[str, Any]) -> tuple[Test, Signature, list[int]]:
    """The checks a signature passes before it acts, whether applied at once or declared
    (a re-roll waiting for its dice): the open test, the signature, the dice it acts on."""
    test = state.test
    if test is None or test.dice is None:
        raise refuse(
            "R3",
            "les signatures s'appliquent aux dés lancés (R3, étape 5) : aucun jet n'est ouvert",
            "signatures apply to rolled dice (R3 step 5): no roll is open",
        )
    sig = _open_signature(test, data.get("signature"))
    return test, sig, _signature_dice(test, sig, data.get("dice"), state.options["tens_reroll"])


def _open_signature(test: Test, sid: Any) -> Signature:
    """The test's signature ``sid``, not used yet, in the A6 order (R4, A6)."""
    sig = next((s for s in test.signatures if s.id == sid), None)
    if sig is None:
        have = ", ".join(s.id for s in test.signatures) or "none"
        raise refuse(
            "R4",
            f"la signature {sid!r} n'est pas disponible pour ce test (disponibles : {have})",
            f"signature {sid!r} is not available on this test (available: {have})",
        )
    if sig.id in test.used:
        raise refuse(
            "A6",
            f"la signature {sig.id!r} a déjà servi dans ce test (une fois par test)",
            f"signature {sig.id!r} was already used in this test (once per test)",
        )
    if sig.kind == "reroll" and test.adjusted:
        raise refuse(
            "A6",
            "les relances passent avant « annuler un 1 » et « +1 » (ordre A6)",
            "re-rolls come before 'cancel a 1' and '+1' (A6 order)",
        )
    return sig


def _signature_dice(test: Test, sig: Signature, raw_idx: Any, tens_mode: str) -> list[int]:
    """The distinct dice positions the signature acts on, each eligible (R4)."""
    if not isinstance(raw_idx, list) or not raw_idx:
        raise malformed(
            "« dice » doit lister les positions (0, 1…) des dés sur lesquels agit la signature",
            "'dice' must list the positions (0, 1, ...) of the dice the signature acts on",
        )
    if any(not isinstance(i, int) or isinstance(i, bool) for i in raw_idx) or len(set(raw_idx)) != len(raw_idx):
        raise malformed(
            "« dice » doit donner des positions distinctes (entiers)",
            "'dice' must be distinct positions (integers)",
        )
    if sig.count is not None and len(raw_idx) > sig.count:
        raise refuse(
            "R4",
            f"la signature {sig.id!r} agit sur {sig.count} dé(s) au plus",
            f"signature {sig.id!r} acts on at most {sig.count} die(s)",
        )
    ok = set(_eligible(test, sig, False, tens_mode))
    wrong = [i for i in raw_idx if i not in ok]
    if wrong:
        raise refuse(
            "R4",
            f"la signature {sig.id!r} ne peut pas agir sur le ou les dés en position(s) {wrong}",
            f"signature {sig.id!r} cannot act on die/dice at position(s) {wrong}",
        )
    return list(raw_idx)


def reroll_mode(sig: Signature, tens_mode: str) -> str:
    """How a re-roll's new faces act: ``replace`` the dice, ``explode`` (a 10 rolled again
    adds its new face: 10 + x) or ``extra_die`` (each 10 adds a new die to the pool)."""
    if sig.which != "tens":
        return "replace"
    return "extra_die" if tens_mode == "extra_die" else "explode"


def _awaiting_error(w: Declared) -> RuleError:
    return refuse(
        "R3",
        f"la relance de la signature {w.signature.id!r} attend les nouvelles faces du ou des dés en position(s)"
        f" {list(w.dice)} : lancez-les dans le plateau (ou saisissez-les avec shayo.signature),"
        " ou retirez-la (shayo.signature_cancel)",
        f"the re-roll of signature {w.signature.id!r} waits for the new faces of the die/dice at position(s)"
        f" {list(w.dice)}: roll them in the tray (or enter them with shayo.signature),"
        " or withdraw it (shayo.signature_cancel)",
    )


def _awaited(test: Test, data: Mapping[str, Any]) -> tuple[Signature, list[int]]:
    """The declared re-roll that ``data`` completes (it may repeat its signature and dice)."""
    w = test.awaiting
    if w is None:  # pragma: no cover - an invariant of the rules
        raise broken("w is not None")
    if data.get("signature", w.signature.id) != w.signature.id:
        raise _awaiting_error(w)
    if data.get("dice", list(w.dice)) != list(w.dice):
        raise refuse(
            "R4",
            f"la signature {w.signature.id!r} a été déclarée sur la ou les position(s) {list(w.dice)},"
            f" pas {data.get('dice')!r}",
            f"signature {w.signature.id!r} was declared on position(s) {list(w.dice)},"
                        f" not {data.get('dice')!r}",
        )
    return w.signature, list(w.dice)


def declare_signature(state: ShayoState, data: Mapping[str, Any]) -> ShayoState:
    """A re-roll signature on chosen dice, before they are rolled again: the test waits
    for their new faces (camera or typed, then :func:`use_signature`)."""
    if state.test is not None and state.test.awaiting is not None:
        raise _awaiting_error(state.test.awaiting)
    if "values" in data:
        raise malformed(
            "une relance déclarée n'a pas encore de « values » : envoyez-les avec shayo.signature une fois lancées",
            "a declared re-roll has no 'values' yet: send them with shayo.signature once rolled",
        )
    test, sig, dice = _checked_signature(state, data)
    if sig.kind != "reroll":
        raise refuse(
            "R4",
            f"la signature {sig.id!r} ne relance aucun dé : appliquez-la tout de suite avec shayo.signature",
            f"signature {sig.id!r} re-rolls no die: apply it at once with shayo.signature",
        )
    return evolve(state, test=evolve(test, awaiting=Declared(sig, tuple(dice))))


def withdraw_signature(state: ShayoState, data: Mapping[str, Any]) -> tuple[ShayoState, Declared]:
    """Drop the declared re-roll: its signature was not used and stays available."""
    test = state.test
    if test is None or test.awaiting is None:
        raise refuse(
            "R3",
            "aucune signature de relance n'attend ses dés",
            "no re-roll signature is waiting for its dice",
        )
    w = test.awaiting
    if data.get("signature", w.signature.id) != w.signature.id:
        raise refuse(
            "R3",
            f"la relance en attente est la signature {w.signature.id!r}, pas {data.get('signature')!r}",
            f"the re-roll waiting is signature {w.signature.id!r}, not {data.get('signature')!r}",
        )
    return evolve(state, test=evolve(test, awaiting=None)), w


def _reroll_faces(data: Mapping[str, Any], raw_idx: Sequence[int], rng: random.Random,
                  source: Source) -> tuple[int, ...]:
    """The new faces of a re-roll: given in ``values``, or rolled by the companion for a
    system event; one per re-rolled die."""
    new_vals: tuple[int, ...] = ()
    if "values" in data:
        new_vals = parse_dice(data["values"], "values")
    elif source == Source.SYSTEM:
        new_vals = tuple(rng.randint(1, 10) for _ in raw_idx)
    else:
        raise malformed(
            "une relance demande les nouvelles « values » (une par dé relancé) ; pour les lancer dans le plateau,"
            " déclarez-la d'abord (shayo.signature_declare)",
            "a re-roll needs the new 'values' (one per re-rolled die); to roll them in the tray,"
                         " declare it first (shayo.signature_declare)",
        )
    if len(new_vals) != len(raw_idx):
        raise malformed(
            f"{len(raw_idx)} dé(s) relancé(s) mais {len(new_vals)} valeur(s) donnée(s)",
            f"{len(raw_idx)} die/dice re-rolled but {len(new_vals)} value(s) given",
        )
    return new_vals


def _apply_reroll(values: list[int], cancelled: list[bool], raw_idx: Sequence[int], new_vals: Sequence[int],
                  mode: str) -> None:
    """Put a re-roll's new faces in the pool (in place): replace, explode or add dice (A6)."""
    if mode == "explode":
        for i, nv in zip(raw_idx, new_vals):
            values[i] = values[i] + nv
    elif mode == "extra_die":
        values.extend(new_vals)
        cancelled.extend([False] * len(new_vals))
    else:
        for i, nv in zip(raw_idx, new_vals):
            values[i] = nv


def use_signature(state: ShayoState, data: Mapping[str, Any], rng: random.Random, source: Source) -> ShayoState:
    """R3 step 5 / R4: apply one signature to chosen dice (or complete a declared re-roll)."""
    if state.test is not None and state.test.awaiting is not None:
        test = state.test
        sig, raw_idx = _awaited(test, data)
    else:
        test, sig, raw_idx = _checked_signature(state, data)
    mode = reroll_mode(sig, state.options["tens_reroll"])
    values = list(test.dice or ())
    cancelled = list(test.cancelled)
    new_vals: tuple[int, ...] = ()
    if sig.kind == "reroll":
        new_vals = _reroll_faces(data, raw_idx, rng, source)
        _apply_reroll(values, cancelled, raw_idx, new_vals, mode)
    elif sig.kind == "cancel_one":
        for i in raw_idx:
            cancelled[i] = True
    else:
        for i in raw_idx:
            values[i] += 1
    before = test.dice or ()
    note = {"signature": sig.id, "fr": sig.fr, "en": sig.en, "dice": list(raw_idx),
            "before": [before[i] for i in raw_idx], "after": [values[i] for i in raw_idx]}
    if mode == "extra_die" and new_vals:
        note["added"] = list(new_vals)
    if sig.kind == "reroll" and "values" not in data:
        note["rolled"] = list(new_vals)  # by the companion: a later correction keeps these faces
    return evolve(state, test=evolve(
        test, dice=tuple(values), cancelled=tuple(cancelled), used=test.used + (sig.id,),
        adjusted=test.adjusted or sig.kind != "reroll", notes=test.notes + (note,), awaiting=None,
    ))


def _positions(dice: Sequence[int], fr: bool) -> str:
    """1-based positions in words: "position 2", "positions 1 et 3" / "positions 1 and 3"."""
    shown = [str(i + 1) for i in dice]
    word = "position" + ("s" if len(shown) > 1 else "")
    if len(shown) <= 1:
        return f"{word} {''.join(shown)}"
    return f"{word} {', '.join(shown[:-1])} {'et' if fr else 'and'} {shown[-1]}"


def reroll_text(w: Declared, tens_mode: str) -> dict[str, str]:
    """What the players roll for a declared re-roll ("Relancez 2 dés : positions 1 et 3")."""
    k = len(w.dice)
    fr_n, en_n = f"{k} dé{'s' if k > 1 else ''}", f"{k} {'dice' if k > 1 else 'die'}"
    fr_p, en_p = _positions(w.dice, True), _positions(w.dice, False)
    mode = reroll_mode(w.signature, tens_mode)
    if mode == "extra_die":
        return {"fr": f"Lancez {fr_n} de plus (pour {'les' if k > 1 else 'le'} 10 en {fr_p})",
                "en": f"Roll {en_n} more (for the {'10s' if k > 1 else '10'} at {en_p})"}
    if mode == "explode":
        return {"fr": f"Relancez {fr_n} : {fr_p} (la nouvelle face s'ajoute au 10)",
                "en": f"Re-roll {en_n}: {en_p} (the new face adds to the 10)"}
    return {"fr": f"Relancez {fr_n} : {fr_p}", "en": f"Re-roll {en_n}: {en_p}"}


def choose_keep(state: ShayoState, chosen: Any) -> Resolved:
    """R3 steps 6–7: keep (given or best) and count; the test is closed."""
    test = state.test
    if test is None or test.dice is None:
        raise refuse("R3", "aucun test lancé dont garder des dés", "no rolled test to keep dice from")
    if test.awaiting is not None:
        raise _awaiting_error(test.awaiting)
    scope = state.options["ones_scope"]
    if chosen is None or test.keep_all:
        kept = tuple(range(len(test.dice))) if test.keep_all else best_keep(test.dice, test.cancelled, test.keep, scope)
    else:
        if not isinstance(chosen, list):
            raise malformed(
                "« dice » doit lister les positions des dés gardés",
                "'dice' must list the positions of the kept dice",
            )
        kept = check_keep(test.dice, test.cancelled, test.keep, scope, chosen)
    c = count(test.dice, test.cancelled, kept, test.difficulty, scope, test.ones_cancel)
    return evolve(state, test=None), test, c


def resolve_empty(state: ShayoState) -> Resolved:
    """A5: nothing to roll or keep: 0 successes."""
    test = state.test
    if test is None:  # pragma: no cover - an invariant of the rules
        raise broken("test is not None")
    return evolve(state, test=None), evolve(test, dice=()), Count((), 0, 0, 0, 0)


class Explanation(Mapping[str, Any]):
    """The last outcome, as the tablet shows it: a read-only mapping built on first
    read (a replay folds thousands of rolls; only the last one is ever shown)."""

    __slots__ = ("_args", "_data")

    def __init__(self, test: Test, c: Count, meaning: Mapping[str, str], extra: Mapping[str, Any] | None) -> None:
        self._args = (test, c, meaning, extra)
        self._data: dict[str, Any] | None = None

    def _built(self) -> dict[str, Any]:
        if self._data is None:
            self._data = _explain(*self._args)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


def explain(test: Test, c: Count, meaning: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> Explanation:
    """The explanation of a counted test (see :func:`_explain` for its fields)."""
    return Explanation(test, c, meaning, extra)


def _explain(test: Test, c: Count, meaning: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    dice = list(test.dice or ())
    out: dict[str, Any] = {
        "kind": test.kind,
        "who": test.who,
        "label": test_label(test),
        "labels": labels(test),
        "attribute": {"name": test.attribute_name, "value": test.attribute},
        "skill": {"name": test.skill_name, "value": test.skill},
        "difficulty": test.difficulty,
        "difficulty_notes": list(test.difficulty_notes),
        "rolled": len(dice),
        "keep": test.keep,
        "entered": list(test.entered or ()),
        "dice": dice,
        "cancelled_ones": [i for i, x in enumerate(test.cancelled) if x],
        "kept": list(c.kept),
        "kept_values": [dice[i] for i in c.kept],
        "successes": c.successes,
        "ones": c.ones,
        "cancelled": c.cancelled,
        "net": c.net,
        "required": test.required,
        "success": c.net >= test.required,
        "signatures": [dict(n) for n in test.notes],
        "ki": {"rolled": test.ki_rolled, "kept": test.ki_kept, "manoeuvre": test.ki_extra,
               "paid": dict(test.ki_paid)},
        "meaning": dict(meaning),
    }
    if extra:
        out.update(extra)
    return out


def test_label(test: Test, lang: str = "fr") -> str:
    """A4: "test of ATTRIBUTE under SKILL" ("AGI 4 sous Kenjutsu 3")."""
    if test.label:
        return test.label_en if (lang == "en" and test.label_en) else test.label
    fr = lang == "fr"
    a = f"{test.attribute_shown or test.attribute_name or ('caractéristique' if fr else 'attribute')} {test.attribute}"
    s = f"{test.skill_shown or test.skill_name or ('compétence' if fr else 'skill')} {test.skill}"
    return f"{a} {'sous' if fr else 'under'} {s}"


def labels(test: Test) -> dict[str, str]:
    return {"fr": test_label(test, "fr"), "en": test_label(test, "en")}
