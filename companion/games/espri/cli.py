"""``companion odds espri``: exact odds of an Appel from a given pool.

    companion odds espri --season hiver --score 3 --difficulty 1 \\
        --pool printemps=12,ete=12,automne=12,hiver=12,temps=12,rupture=12 [--json]

N = score - difficulty (add helpers and Temptation to the score). Prints ``N``, the
number of gems drawn ``n`` (also ``draw``), who chooses, and the probability of each of the five results
(``results``, summing to 1; ``exact`` as fractions). ``--table`` gives every N from
-12 to 12. Imports only the standard library and the ESPRI rules (no OpenCV, no Flask).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["register_odds", "parse_pool"]

_GEMS = ("printemps", "ete", "automne", "hiver", "temps", "rupture")


def parse_pool(text: str) -> list[int]:
    """``"printemps=12,ete=3"`` -> counts in gem order (missing gems: 0)."""
    from ..refusal import malformed

    counts = dict.fromkeys(_GEMS, 0)
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise malformed(f"entrée de réserve {part!r}\u202f: GEMME=NOMBRE attendu", f"pool entry {part!r}: expected GEM=COUNT")
        gem, _, raw = part.partition("=")
        gem = gem.strip().lower()
        if gem not in counts:
            raise malformed(f"gemme inconnue {gem!r} dans --pool\u202f; les gemmes sont {', '.join(_GEMS)}",
                            f"unknown gem {gem!r} in --pool; gems are {', '.join(_GEMS)}")
        try:
            n = int(raw)
        except ValueError:
            raise malformed(f"entrée de réserve {part!r}\u202f: le nombre doit être un entier",
                            f"pool entry {part!r}: the count must be an integer") from None
        if n < 0:
            raise malformed(f"entrée de réserve {part!r}\u202f: le nombre doit être positif ou nul",
                            f"pool entry {part!r}: the count must be >= 0")
        counts[gem] = n
    return [counts[g] for g in _GEMS]


def register_odds(subparsers: Any) -> None:
    p = subparsers.add_parser("espri", help="ESPRI: odds of the five results of an Appel (exact)",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--season", required=True, choices=["hiver", "printemps", "ete", "automne"], help="the Called Season")
    p.add_argument("--score", type=int, required=True, help="the leader's Called Season score (+ helpers, + 2 per Temptation gem)")
    p.add_argument("--difficulty", type=int, default=0, help="the Difficulty (the Weather: Rupture gems in the Called quadrant)")
    p.add_argument("--pool", default="printemps=12,ete=12,automne=12,hiver=12,temps=12,rupture=12",
                   help="the pool's contents, GEM=COUNT separated by commas (default: full pool)")
    p.add_argument("--prayer", default=None, choices=list(_GEMS), help="a Prayer gem the leader may add (R13)")
    p.add_argument("--no-talent", action="store_true", help="Appel without a Talent: one level lower (R24)")
    p.add_argument("--no-redraw", action="store_true", help="at N = 1 / -1, ignore the redraw")
    p.add_argument("--adjacent-modifier", default="one_degree", choices=["one_degree", "two_up_one_down"], help="option E5")
    p.add_argument("--fixed-criticals", action="store_true", help="option E5: Called+T/R always Critical Success, opposite+T/R always Critical Failure")
    p.add_argument("--redraw-first-gem", default="pool", choices=["pool", "aside"], help="option E6")
    p.add_argument("--table", action="store_true", help="every N from -12 to 12")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd_odds)


_LABELS = {
    "critical_failure": ("Échec critique", "Critical failure"),
    "failure": ("Échec", "Failure"),
    "bitter_success": ("Réussite amère", "Bitter success"),
    "success": ("Réussite", "Success"),
    "critical_success": ("Réussite critique", "Critical success"),
}
_GEM_WORDS = {"printemps": ("Printemps", "Spring"), "ete": ("Été", "Summer"), "automne": ("Automne", "Autumn"),
              "hiver": ("Hiver", "Winter"), "temps": ("Temps", "Time"), "rupture": ("Rupture", "Rupture")}
_CHOOSER = {"leader": ("le leader", "the leader"), "gm": ("le MJ", "the GM")}


def _cmd_odds(args: argparse.Namespace) -> int:
    from .odds import appel_odds

    pool = parse_pool(args.pool)
    if args.score < 0 or args.difficulty < 0:
        from ..refusal import malformed

        raise malformed("--score et --difficulty comptent des gemmes\u202f: 0 ou plus (N = score - difficulté peut être"
                        " négatif, R11)",
                        "--score and --difficulty count gems: 0 or more (N = score - difficulty may be negative, R11)")
    options = {"adjacent_modifier": args.adjacent_modifier, "fixed_criticals": args.fixed_criticals,
               "redraw_first_gem": args.redraw_first_gem}
    talent = not args.no_talent
    redraw = not args.no_redraw
    n = args.score - args.difficulty
    if args.table:
        rows = [appel_odds(pool, args.season, k, options, talent, args.prayer, redraw) for k in range(-12, 13)]
        if args.json:
            json.dump({"season": args.season, "pool": dict(zip(_GEMS, pool)), "table": rows}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            _print_table(rows, args.lang == "fr")
        return 0
    r = appel_odds(pool, args.season, n, options, talent, args.prayer, redraw)
    if args.json:
        json.dump({"season": args.season, "score": args.score, "difficulty": args.difficulty,
                   "pool": dict(zip(_GEMS, pool)), **r}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        _print_odds(r, n, args.season, args.lang == "fr")
    return 0


def _print_table(rows: list[dict[str, Any]], fr: bool) -> None:
    """``--table``: one line per N, the five results' probabilities."""
    from ..base import percent

    lang = "fr" if fr else "en"
    i = 0 if fr else 1
    heads = [lab[i] for lab in _LABELS.values()]
    width = max(len(h) for h in heads) + 2
    print(("   N  tirées  choisit  " if fr else "   N  drawn  chooses  ") + "".join(f"{h:>{width}}" for h in heads))
    for r in rows:
        res = r["results"]
        who = _CHOOSER.get(r["chooser"], (r["chooser"], r["chooser"]))[i].split()[-1]
        print(f"{r['N']:>4}  {r['draw']:>6}  {who:<7}  " if fr else f"{r['N']:>4}  {r['draw']:>5}  {who:<7}  ",
              end="")
        print("".join(f"{percent(res[k], lang, 1):>{width}}" for k in _LABELS))


def _print_odds(r: dict[str, Any], n: int, season: str, fr: bool) -> None:
    """One Appel's odds: the draw, who chooses, each result, the Called gem's chance."""
    from ..base import percent

    lang = "fr" if fr else "en"
    i = 0 if fr else 1
    who = _CHOOSER.get(r["chooser"], (r["chooser"], r["chooser"]))[i]
    auto = ""
    if r["automatic"] in _LABELS:
        auto = (f", résultat automatique : {_LABELS[r['automatic']][0]}" if fr
                else f", automatic result: {_LABELS[r['automatic']][1]}")
    elif r["automatic"]:
        auto = f", {r['automatic']}"
    print(f"N = {n} : tirer {r['n']} gemme(s), {who} choisit{auto}" if fr
          else f"N = {n}: draw {r['n']} gem(s), {who} chooses{auto}")
    for key, label in _LABELS.items():
        print(f"  {label[i]:<20} {percent(r['results'][key], lang, 2):>9}  ({r['exact'][key]})")
    if r["p_called"] is not None:
        name = _GEM_WORDS[season][i]
        print(f"  au moins une gemme {name} tirée : {percent(r['p_called'], lang, 2)}" if fr
              else f"  at least one {name} gem drawn: {percent(r['p_called'], lang, 2)}")
