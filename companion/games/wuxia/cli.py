"""``companion odds wuxia``: exact odds of a Wuxia test, or the whole table.

Examples::

    companion odds wuxia --attribute 5 --competence 2            # SR 10 -> threshold 8
    companion odds wuxia --attribute 5 --competence 5 --sr 12 --rerolls 2 --json
    companion odds wuxia --table                                  # attribute x threshold
    companion odds wuxia --table --json --max-attribute 20

Standard library only: nothing here imports OpenCV, Flask or numpy.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["register_odds"]


def register_odds(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "wuxia",
        help="Wuxia: a d10 pool against SR - Compétence (success, critical failure, successes)",
        description="Exact odds of a Wuxia test: roll ATTRIBUTE d10, each die >= SR - COMPETENCE succeeds "
        "(10 always, 1 never); more 1s than successes is a critical failure.",
    )
    p.add_argument("--attribute", "-a", type=int, help="the attribute: number of d10 rolled (1..100)")
    p.add_argument("--competence", "-c", type=int, default=None, help="the skill level subtracted from SR (default 0)")
    p.add_argument("--sr", type=int, default=10, help="success threshold set by the GM, 8..13 (default 10)")
    p.add_argument("--rerolls", type=int, default=0, help="specialisation re-rolls of failed dice (R9), 0..10")
    p.add_argument("--policy", choices=["failed", "until_success"], default="failed",
                   help="how the re-rolls are used in the odds (default: failed dice, 1s first)")
    p.add_argument("--no-reroll-ones", action="store_true", help="1s may not be re-rolled (W5 option)")
    p.add_argument("--above", action="store_true", help="a die must beat the threshold strictly (W1 option)")
    p.add_argument("--versus", type=int, default=None, metavar="TERRE",
                   help="an attack (R14): the defender's Terre (dice); --attribute is then the attacker's Feu")
    p.add_argument("--versus-competence", type=int, default=0, help="the defender's martial skill (default 0)")
    p.add_argument("--defence-dice", type=int, default=0, help="Defence Dice the defender spends (default 0)")
    p.add_argument("--table", action="store_true", help="the full table: attribute x threshold (SR - Compétence)")
    p.add_argument("--max-attribute", type=int, default=10, help="largest attribute in --table (default 10)")
    p.add_argument("--json", action="store_true", help="print JSON (probabilities 0..1)")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd_odds)


def _pct(p: Any, lang: str = "en") -> str:
    """An exact probability as a percentage rounded half-up to 0.1 (spec section 3, W17),
    with a decimal comma in French."""
    from fractions import Fraction

    tenths = int(Fraction(p) * 1000 + Fraction(1, 2))
    return f"{tenths // 10}{',' if lang == 'fr' else '.'}{tenths % 10}"


def _attack(args: argparse.Namespace, comp: int, rule: str) -> int:
    from .odds import MAX_DICE, opposed_odds

    if not 0 <= args.versus <= MAX_DICE or not 0 <= args.versus_competence <= 10 or args.defence_dice < 0:
        return _err("--versus must be 0..100 dice, --versus-competence 0..10, --defence-dice >= 0")
    ta, td = args.sr - comp, args.sr - args.versus_competence
    o = opposed_odds(args.attribute, ta, args.versus, td, args.defence_dice, rule=rule)
    if args.json:
        out = {"game": "wuxia", "attack": {"dice": args.attribute, "threshold": ta},
               "defence": {"dice": args.versus, "threshold": td, "defence_dice": args.defence_dice},
               "attacker_wins": float(o["attacker_wins"]), "tie": float(o["tie"]),
               "defender_holds": float(o["defender_holds"]),
               "extra_successes": {str(k): float(v) for k, v in o["extra_successes"].items()}}
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    fr = args.lang == "fr"
    print((f"Attaque : {args.attribute} d10 (seuil {ta}) contre {args.versus} d10 (seuil {td}), {args.defence_dice} Dé(s) de Défense"
           if fr else f"Attack: {args.attribute} d10 (threshold {ta}) against {args.versus} d10 (threshold {td}), {args.defence_dice} Defence Dice"))
    rows = ((("l'attaquant touche", "attacker hits"), o["attacker_wins"]), (("le défenseur pare", "defender holds"), o["defender_holds"]),
            (("  dont égalités", "  of which ties"), o["tie"]))
    lang = "fr" if fr else "en"
    for (lfr, len_), p in rows:
        print(f"  {lfr if fr else len_:<20}{_pc(p, lang):>10}")
    print("  " + ("succès à investir :" if fr else "extra successes:"))
    for k, p in o["extra_successes"].items():
        print(f"  {k:>4} {_pc(p, lang):>10}")
    return 0


def _err(msg: str) -> int:
    print(f"companion odds wuxia: error: {msg}", file=sys.stderr)
    return 2


def _cmd_odds(args: argparse.Namespace) -> int:
    from .odds import pool_odds

    rule = "above" if args.above else "at_least"
    if args.table:
        return _odds_table(args, rule)
    comp = args.competence or 0
    bad = _pool_args_problem(args, comp)
    if bad:
        return _err(bad)
    t = args.sr - comp
    if args.versus is not None:
        return _attack(args, comp, rule)
    o = pool_odds(args.attribute, t, args.rerolls, rule=rule, policy=args.policy, reroll_ones=not args.no_reroll_ones)
    if args.json:
        res: dict[str, Any] = {"game": "wuxia", "attribute": args.attribute, "competence": comp, "sr": args.sr, **o.to_json(),
               "exact": {"success": str(o.success), "critical_failure": str(o.critical), "failure": str(o.failure)}}
        json.dump(res, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    _print_pool(args, o, comp, t, rule)
    return 0


def _pool_args_problem(args: argparse.Namespace, comp: int) -> str | None:
    """Why the pool's arguments are out of the rules' ranges, or None."""
    from .odds import MAX_DICE

    if args.attribute is None:
        return "--attribute is required (or --table)"
    if not 1 <= args.attribute <= MAX_DICE:
        return (f"--attribute must be 1..{MAX_DICE} dice: an attribute is at least 1 (R1), so a test"
                " rolls at least one die")
    if not 0 <= comp <= 10:
        return "--competence must be 0..10"
    if not 8 <= args.sr <= 13:
        return "--sr must be 8..13 (8 routine, 10 standard, 13 extreme)"
    if not 0 <= args.rerolls <= 10:
        return "--rerolls must be 0..10"
    return None


def _odds_table(args: argparse.Namespace, rule: str) -> int:
    """``--table``: P(success) and P(critical failure) per pool size and threshold."""
    from .odds import MAX_DICE, table

    fr = args.lang == "fr"
    if not 1 <= args.max_attribute <= MAX_DICE:
        return _err(f"--max-attribute must be 1..{MAX_DICE}")
    attrs = list(range(1, args.max_attribute + 1))
    ts = list(range(2, 11))
    tab = table(attrs, ts, rule)
    if args.json:
        out = {
            "game": "wuxia",
            "attributes": attrs,
            "thresholds": ts,
            "note": "threshold 2 stands for every T <= 2, 10 for every T >= 10",
            "success": {str(t): {str(n): float(tab[(n, t)][0]) for n in attrs} for t in ts},
            "critical_failure": {str(t): {str(n): float(tab[(n, t)][1]) for n in attrs} for t in ts},
        }
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for idx, title in ((0, "P(réussite) en %" if fr else "P(success) %"), (1, "P(échec critique) en %" if fr else "P(critical failure) %")):
        print(title)
        print("T \\ n " + "".join(f"{n:>7}" for n in attrs))
        for t in ts:
            lab = "<=2" if t == 2 else (">=10" if t == 10 else str(t))
            print(f"{lab:>5} " + "".join(f"{_pct(tab[(n, t)][idx], 'fr' if fr else 'en'):>7}" for n in attrs))
        print()
    print("À seuil bas, un dé de plus peut faire baisser la réussite : il peut donner un 1, et plus de 1 que de"
          " réussites est un échec critique (R7)." if fr else
          "At a low threshold one more die can lower the success: it may show a 1, and more 1s than successes"
          " is a critical failure (R7).")
    return 0


def _print_pool(args: argparse.Namespace, o: Any, comp: int, t: int, rule: str) -> None:
    """The odds of one pool, as text in the chosen language."""
    fr = args.lang == "fr"
    if fr:
        print(f"Wuxia : {args.attribute} d10, SR {args.sr} − compétence {comp} = seuil {t}"
              + (f", {args.rerolls} relance(s)" if args.rerolls else ""))
        rows = [("réussite", o.success), ("échec critique", o.critical), ("échec simple", o.failure)]
        head = "succès"
    else:
        print(f"Wuxia: {args.attribute} d10, SR {args.sr} − skill {comp} = threshold {t}"
              + (f", {args.rerolls} re-roll(s)" if args.rerolls else ""))
        rows = [("success", o.success), ("critical failure", o.critical), ("plain failure", o.failure)]
        head = "successes"
    lang = "fr" if fr else "en"
    for name, p in rows:
        print(f"  {name:<17}{_pc(p, lang):>10}")
    print(f"  {head}{' :' if fr else ':'}")
    for k, p in o.successes.items():
        v = float(p)
        print(f"  {k:>4} {_pc(p, lang):>10} " + "#" * round(40 * v))
    note = fewer_dice_note(args.attribute, t, o.success, args.rerolls, rule, args.policy, not args.no_reroll_ones, lang)
    if note:
        print(note)


def _pc(p: Any, lang: str) -> str:
    from ..base import percent

    return percent(float(p), lang, 3)


def fewer_dice_note(n: int, t: int, success: Any, rerolls: int, rule: str, policy: str, reroll_ones: bool,
                    lang: str) -> str | None:
    """Why the odds fell although a die was added (R7: more 1s than successes is a
    critical failure, so at low thresholds an extra die can add a 1 that outweighs the
    successes), or None when one die fewer does not do better."""
    from .odds import pool_odds

    if n < 2:
        return None
    fewer = pool_odds(n - 1, t, rerolls, rule=rule, policy=policy, reroll_ones=reroll_ones)
    if fewer.success <= success:
        return None
    if lang == "fr":
        return (f"  Note : avec un dé de moins ({n - 1} d10), la réussite serait plus probable ({_pc(fewer.success, 'fr')})."
                " Ce n'est pas une erreur : chaque dé ajouté peut aussi donner un 1, et plus de 1 que de réussites"
                " est un échec critique (R7). Quand le seuil est bas, presque chaque dé réussit déjà : le dé de plus"
                " apporte surtout un risque de 1 de plus.")
    return (f"  Note: with one die fewer ({n - 1} d10), success would be more likely ({_pc(fewer.success, 'en')})."
            " This is not a mistake: every added die may also show a 1, and more 1s than successes is a critical"
            " failure (R7). At a low threshold almost every die already succeeds, so the extra die mostly adds"
            " the risk of one more 1.")
