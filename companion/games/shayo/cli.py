"""``companion odds shayo``: exact odds of a Shayo test.

    companion odds shayo --attribute 4 --skill 2 --difficulty 6 [--json]

Prints the probability of success (net successes >= ``--required``, default 1, A3) and
the distribution of net successes, with the spec's default decisions unless told
otherwise. Imports only the standard library and :mod:`.odds` (no OpenCV, no Flask).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["register_odds", "odds_report"]


def register_odds(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "shayo",
        help="Shayo: roll (attribute) d10, keep (skill), successes >= difficulty, 1s cancel",
        description="Exact odds of a Shayo test (computed, not simulated).",
    )
    p.add_argument("--attribute", type=int, required=True, help="dice rolled (the attribute, 0-5, R1)")
    p.add_argument("--skill", type=int, required=True, help="dice kept (the skill, 0-5; more than the dice rolled keeps them all, A5)")
    p.add_argument("--difficulty", type=int, required=True, help="target number per die (2 or more)")
    p.add_argument("--ki-rolled", type=int, default=0, help="Ki spent for extra dice rolled")
    p.add_argument("--ki-kept", type=int, default=0, help="Ki spent for extra dice kept")
    p.add_argument("--rolled-mod", type=int, default=0, help="other modifier to dice rolled (wounds, situation)")
    p.add_argument("--kept-mod", type=int, default=0, help="other modifier to dice kept")
    p.add_argument("--signature", action="append", default=[], metavar="ID",
                   help="a signature of the catalogue (repeatable): annule_1, relance_echec, plus_1, relance_1, relance_10")
    p.add_argument("--required", type=int, default=1, help="net successes needed (default 1)")
    p.add_argument("--ones-scope", choices=["all_rolled", "kept_only", "ones_forced_kept"], default="all_rolled",
                   help="which 1s cancel (A1; default all_rolled)")
    p.add_argument("--tens-reroll", choices=["explode", "extra_die"], default="explode",
                   help="meaning of the 're-roll 10s' signature (A6; default explode)")
    p.add_argument("--damage", action="store_true", help="a damage roll: every die counts (no keep, A11)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd_odds)


def odds_report(args: argparse.Namespace) -> dict[str, Any]:
    from ..refusal import malformed
    from .odds import PoolError, as_floats, net_distribution, pool_from, success_probability
    from .signatures import parse_signature

    for what, v in (("--attribute", args.attribute), ("--skill", args.skill)):
        if not 0 <= v <= 5:
            raise malformed(f"{what} {v}\u202f: attributs et compétences sont notés de 0 à 5 (R1, A16)\u202f; les dés en plus"
                            " viennent du Ki (--ki-rolled, --ki-kept) ou des modificateurs (--rolled-mod, --kept-mod)",
                            f"{what} {v}: attributes and skills are rated 0 to 5 (R1, A16); extra dice come"
                            " from Ki (--ki-rolled, --ki-kept) or modifiers (--rolled-mod, --kept-mod)")
    for what, v in (("--ki-rolled", args.ki_rolled), ("--ki-kept", args.ki_kept)):
        if v < 0:
            raise malformed(f"{what} {v}\u202f: le Ki dépensé ne peut pas être négatif", f"{what} {v}: Ki spent cannot be negative")
    rolled = max(0, args.attribute + args.ki_rolled + args.rolled_mod)
    asked = rolled if args.damage else max(0, args.skill + args.ki_kept + args.kept_mod)
    kept = min(asked, rolled)  # A5: dice kept > dice rolled -> keep every die rolled
    if args.required < 1:
        raise malformed("--required vaut au moins 1", "--required must be at least 1")
    sigs = [parse_signature(s) for s in args.signature]
    try:
        spec = pool_from(rolled, kept, args.difficulty, sigs, args.ones_scope, args.tens_reroll)
    except PoolError as exc:
        raise malformed(f"jet impossible\u202f: {exc.fr}", f"impossible roll: {exc.en}") from None
    dist = net_distribution(spec)
    return {
        "game": "shayo",
        "rolled": rolled,
        "kept": kept,
        "kept_asked": asked,
        "difficulty": args.difficulty,
        "required": args.required,
        "signatures": [s.id for s in sigs],
        "ones_scope": args.ones_scope,
        "tens_reroll": args.tens_reroll,
        "success": float(success_probability(spec, args.required)),
        "success_exact": str(success_probability(spec, args.required)),
        "net_successes": as_floats(dist),
        "net_successes_exact": {str(k): str(v) for k, v in sorted(dist.items())},
    }


def _cmd_odds(args: argparse.Namespace) -> int:
    from ..base import percent

    rep = odds_report(args)
    if args.json:
        json.dump(rep, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    fr = args.lang == "fr"
    head = (f"Shayo : {rep['rolled']}d10, garder {rep['kept']}, difficulté {rep['difficulty']}"
            if fr else f"Shayo: {rep['rolled']}d10, keep {rep['kept']}, difficulty {rep['difficulty']}")
    if rep["signatures"]:
        head += (" ; signatures : " if fr else "; signatures: ") + ", ".join(rep["signatures"])
    print(head)
    if rep["kept_asked"] > rep["kept"]:
        print(f"  (garder {rep['kept_asked']} sur {rep['rolled']} dés lancés : on les garde tous, A5)" if fr else
              f"  (keep {rep['kept_asked']} of {rep['rolled']} dice rolled: all of them are kept, A5)")
    lang = "fr" if fr else "en"
    print(("Réussite (≥ {r} succès nets) : {p}" if fr else "Success (≥ {r} net successes): {p}")
          .format(r=rep["required"], p=percent(rep["success"], lang, 2)))
    print("succès nets   probabilité   au moins" if fr else "net successes probability   at least")
    tail = 1.0
    for k, p in rep["net_successes"].items():
        bar = "#" * round(p * 40)
        print(f"{k:>13}   {percent(p, lang, 2):>11}   {percent(max(tail, 0.0), lang, 2):>8}  {bar}")
        tail -= p
    return 0
