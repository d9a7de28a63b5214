"""``companion odds peripeties``: the exact chance of a trial roll (spec section 7).

    companion odds peripeties --die 10 --modifier 6 --difficulty 15 [--json]

Imports nothing heavy: only the stdlib and :mod:`.odds`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["register_odds", "odds_report"]


def odds_report(die: int, modifier: int, difficulty: int, naturals: bool = True) -> dict[str, Any]:
    from .odds import is_success, needed_roll, success_probability

    p = success_probability(die, modifier, difficulty, naturals)
    rolls = []
    for r in range(1, die + 1):
        ok, natural = is_success(r, die, modifier, difficulty, naturals)
        rolls.append({"roll": r, "total": r + modifier, "success": ok, "natural": natural})
    return {
        "game": "peripeties",
        "die": die,
        "modifier": modifier,
        "difficulty": difficulty,
        "naturals": naturals,
        "needed": needed_roll(die, modifier, difficulty, naturals),
        "probability": float(p),
        "exact": f"{p.numerator}/{p.denominator}",
        "rolls": rolls,
    }


def _cmd(args: argparse.Namespace) -> int:
    from ..base import percent

    if not 2 <= args.difficulty <= 20:
        from ..refusal import malformed

        raise malformed(f"--difficulty {args.difficulty}\u202f: la difficulté est la somme de 2D10 (2 à 20) ou, pour"
                        " la magie, de 2D6 (2 à 12) (R6)",
                        f"--difficulty {args.difficulty}: the difficulty is the sum of 2D10 (2 to 20) or, for"
                        " magic, 2D6 (2 to 12) (R6)")
    rep = odds_report(args.die, args.modifier, args.difficulty, not args.no_naturals)
    if args.json:
        json.dump(rep, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    fr = args.lang == "fr"
    d = f"D{args.die}" if fr else f"d{args.die}"
    need = rep["needed"]
    if need > args.die:
        need_txt = "aucun jet ne réussit" if fr else "no roll succeeds"
    else:
        need_txt = (f"il faut {need} ou plus au {d}" if fr else f"roll {need} or more on the {d}")
    if fr:
        print(f"Péripéties : {d} + {args.modifier} contre une difficulté de {args.difficulty}")
        print(f"  {need_txt}")
        print(f"  chance de réussite : {rep['exact']} = {percent(rep['probability'], 'fr')}")
    else:
        print(f"Péripéties: {d} + {args.modifier} against difficulty {args.difficulty}")
        print(f"  {need_txt}")
        print(f"  chance of success: {rep['exact']} = {percent(rep['probability'], 'en')}")
    return 0


def register_odds(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "peripeties",
        help="chance that a trial succeeds (D10/D12 + modifier >= difficulty; natural max/1)",
        description="Exact chance of a Péripéties trial: natural maximum always succeeds, natural 1 always fails (R11).",
    )
    p.add_argument("--die", type=int, choices=[10, 12], required=True, help="10 (terrestrial star) or 12 (celestial star)")
    p.add_argument("--modifier", type=int, default=0, help="everything added to the roll (characteristic, experience, wounds, brother, gourd, location)")
    p.add_argument("--difficulty", type=int, required=True, help="the difficulty (2D10 or 2D6 sum)")
    p.add_argument("--no-naturals", action="store_true", help="without the natural max/1 rule (option naturals=ignore)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd)
