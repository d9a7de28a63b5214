"""``companion stats [LOG]``: the dice statistics of a table, as on the tablet's
statistics page — per physical die, the faces rolled (camera reads, hand entries, both),
a χ² test against a fair die in plain words, and what the camera kept misreading.

``LOG`` is a ``table.sqlite`` or a ``.jsonl`` log (default: the table's folder,
``--data`` or ``$COMPANION_DATA``). ``--svg DIR`` also writes each die's histogram
as ``DIR/<die>.svg``; ``--json`` prints the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["register", "render_text"]


def register(sub: Any) -> None:
    p = sub.add_parser("stats", help="dice statistics of a table: histograms, fairness test, camera misreads")
    p.add_argument("log", type=Path, nargs="?", default=None,
                   help="a table.sqlite or .jsonl log (default: table.sqlite in the table's folder)")
    p.add_argument("--data", type=Path, default=None, help="the table's folder (default: $COMPANION_DATA or the per-user folder)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.add_argument("--svg", type=Path, default=None, metavar="DIR", help="also write each die's histogram as DIR/<die>.svg")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd_stats)


_GROUPS = (("all", "tous", "all"), ("camera", "caméra", "camera"), ("hand", "à la main", "by hand"))


def _face_lines(d: Any, fr: bool) -> list[str]:
    """One line per face: its count, a bar of ``#``, camera and hand counts, the expected count."""
    lang = "fr" if fr else "en"
    names = [d.face_labels[str(f)][lang] for f in d.faces]
    width = max(len(n) for n in names)
    top = max([1, *d.counts["all"].values()])
    fit = d.fits.get("all")
    lines = []
    for f, name in zip(d.faces, names):
        n_all, n_cam, n_hand = (d.counts[g].get(f, 0) for g in ("all", "camera", "hand"))
        bar = "#" * round(30 * n_all / top)
        if fit is None:
            exp = ""
        else:
            exp = f" (attendu {fit.expected[f]:.1f})".replace(".", ",") if fr else f" (expected {fit.expected[f]:.1f})"
        what = f"caméra {n_cam}, main {n_hand}" if fr else f"camera {n_cam}, hand {n_hand}"
        lines.append(f"  {name:<{width}} {n_all:>4} {bar:<30} {what}{exp}")
    return lines


def _verdict_lines(d: Any, fr: bool) -> list[str]:
    """The fairness verdict of every group of rolls (all, camera, hand) that has any."""
    lines = []
    for g, gfr, gen in _GROUPS:
        if not sum(d.counts[g].values()) and g != "all":
            continue
        lines.append(f"  {gfr} : {d.verdicts[g]['fr']}" if fr else f"  {gen}: {d.verdicts[g]['en']}")
    return lines


def _misread_lines(d: Any, fr: bool) -> list[str]:
    """What the camera read a face as, before it was corrected."""
    lang = "fr" if fr else "en"
    lines = []
    for face, reads in d.misreads.items():
        for read_as, times in reads.items():
            fn = d.face_labels.get(str(face), {}).get(lang, str(face))
            rn = d.face_labels.get(str(read_as), {}).get(lang, str(read_as))
            lines.append(f"  {'mal lu' if fr else 'misread'} : {fn} {'lu comme' if fr else 'read as'} {rn} × {times}")
    return lines


def render_text(stats: list[Any], lang: str = "fr") -> str:
    """The statistics as text, one block per die (a bar of ``#`` per face)."""
    fr = lang != "en"
    if not stats:
        return "Aucun dé lancé dans ce journal." if fr else "No die rolled in this log."
    lines: list[str] = []
    for d in stats:
        lines += [d.label["fr" if fr else "en"], *_face_lines(d, fr), *_verdict_lines(d, fr), *_misread_lines(d, fr), ""]
    return "\n".join(lines).rstrip() + "\n"


def _cmd_stats(args: argparse.Namespace) -> int:
    # Imported here for start-up speed: register() runs for every `companion` command,
    # and the table (with every game's rules) is only needed by this one.
    from .datadir import default_data_dir
    from .dicestats import die_rolls, die_stats, load_read_colours
    from .errors import CompanionError
    from .log import load_events
    from .table import Table

    path = args.log
    reads = None  # the camera's read records: each die's colour
    if path is None:
        data = args.data or default_data_dir()
        path, reads = data / "table.sqlite", data / "camera" / "reads.jsonl"
        if not path.exists():
            raise CompanionError(f"no table log at {path}: give a LOG or --data FOLDER")
    elif args.data is not None:
        reads = args.data / "camera" / "reads.jsonl"
    table = Table().replay(load_events(path, strict=False,
                                       warn=lambda problem: print(f"warning: {problem}", file=sys.stderr)))
    stats = die_stats(die_rolls(((f.event, f.outcomes) for f in table.frames), load_read_colours(reads)))
    if args.svg is not None:
        _write_svgs(stats, args.svg, args.lang)
    try:
        if args.json:
            json.dump([d.to_json() for d in stats], sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(render_text(stats, args.lang))
        sys.stdout.flush()
    except BrokenPipeError:  # `companion stats | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _write_svgs(stats: Any, folder: Path, lang: str) -> None:
    """Each die's histogram as ``folder/<die>.svg`` (``--svg``)."""
    from .statsvg import histogram_svg  # with the rest of the command: only when asked for

    folder.mkdir(parents=True, exist_ok=True)
    fr = lang != "en"
    for d in stats:
        fit = d.fits.get("all")
        svg = histogram_svg([d.face_labels[str(f)]["fr" if fr else "en"] for f in d.faces],
                            {g: [d.counts[g].get(f, 0) for f in d.faces] for g in ("camera", "hand")},
                            [fit.expected[f] for f in d.faces] if fit else None, d.label["fr" if fr else "en"],
                            {"camera": "lus par la caméra" if fr else "read by the camera",
                             "hand": "saisis à la main" if fr else "typed by hand",
                             **({"expected": "dé équilibré" if fr else "fair die"} if fit else {})})
        (folder / f"{d.die}.svg").write_text(svg, encoding="utf-8")
