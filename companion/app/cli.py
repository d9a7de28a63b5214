"""The command line (the ``companion`` console script and ``python -m companion``).

It is the entry of the application layer (:mod:`companion.app`, see
docs/architecture.md), and it imports each part inside the sub-command that needs it,
for start-up speed: ``companion odds ...`` and ``companion replay ...`` never import
OpenCV, Flask or the tray.

Sub-command groups owned by other packages are found by name: a module listed in
:data:`COMMAND_MODULES` that exists defines ``register(subparsers)``, which adds its
sub-parsers and sets ``func`` on them (``func(args) -> int``). ``companion odds GAME``
is assembled the same way from :data:`ODDS_MODULES`, each defining
``register_odds(subparsers)``. Those ``register`` functions must not import heavy
libraries either: only their handlers may.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from .. import __version__
from ..errors import CompanionError

#: Modules adding top-level sub-commands (``companion vision ...``, ``companion tray ...``).
COMMAND_MODULES = ["vision.commands", "firmware_bridge.cli", "companion.app.doctor", "companion.statscli",
                   "companion.backup", "companion.recover"]
#: Modules adding ``companion odds GAME`` sub-commands.
ODDS_MODULES = [
    "companion.games.peripeties.cli",
    "companion.games.wuxia.cli",
    "companion.games.shayo.cli",
    "companion.games.espri.cli",
]


def _optional_modules(names: Sequence[str]) -> list[ModuleType]:
    mods: list[ModuleType] = []
    for name in names:
        try:
            if importlib.util.find_spec(name) is None:
                continue
        except ModuleNotFoundError:
            continue
        mods.append(importlib.import_module(name))
    return mods


def build_parser(odds_only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``odds_only`` (a game's name) only ``companion odds
    GAME``, so that command imports that game's odds and nothing else."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion: reads real dice, applies the rules, shows the outcome on a tablet.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if odds_only is not None:
        odds = sub.add_parser("odds", help="exact odds of a roll, per game")
        odds_sub = odds.add_subparsers(dest="game", metavar="GAME")
        for mod in _optional_modules([m for m in ODDS_MODULES if m.split(".")[-2] == odds_only]):
            getattr(mod, "register_odds")(odds_sub)
        return parser

    p = sub.add_parser("serve", help="serve the tablet page (and read the tray and camera)")
    p.add_argument("--demo", action="store_true", help="a demo table with example characters; no hardware needed")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface, for tablets on the LAN)")
    p.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    p.add_argument("--data", type=Path, default=None, help="folder for the table log and settings (default: per-user data folder)")
    p.add_argument("--pin", default=None, help="table PIN needed to change anything (default: $COMPANION_PIN, else generated once and kept)")
    p.add_argument("--new-table", action="store_true",
                   help="start an empty table even where a table's log is missing (see docs/storage.md)")
    p.add_argument("--weak-pin", action="store_true", help="accept a --pin shorter than 6 characters")
    p.add_argument("--game", default=None, help="start this game if the log is empty (peripeties, wuxia, shayo, espri)")
    p.add_argument("--threads", type=int, default=8, help="worker threads for requests (live-update streams hold none; default 8)")
    add_device_arguments(p)
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("replay", help="fold a JSON-lines log and print the table state")
    p.add_argument("log", type=Path, help="a .jsonl file of events (or a table.sqlite log)")
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.add_argument("--lenient", action="store_true", help="skip refused events instead of stopping at the first")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("export", help="write a table log (SQLite) as JSON lines")
    p.add_argument("log", type=Path, help="the table.sqlite file")
    p.add_argument("--out", type=Path, default=None, help="output file (default: standard output)")
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser("import", help="check a JSON-lines log with the rules and store it in a table's folder")
    p.add_argument("log", type=Path, help="a .jsonl file of events")
    p.add_argument("--data", type=Path, required=True, help="the table's folder (its table.sqlite is created if need be)")
    p.set_defaults(func=_cmd_import)

    odds = sub.add_parser("odds", help="exact odds of a roll, per game")
    odds_sub = odds.add_subparsers(dest="game", metavar="GAME")
    for mod in _optional_modules(ODDS_MODULES):
        getattr(mod, "register_odds")(odds_sub)
    odds.set_defaults(func=lambda a: _usage(odds))

    for mod in _optional_modules(COMMAND_MODULES):
        getattr(mod, "register")(sub)
    return parser


def add_device_arguments(p: argparse.ArgumentParser) -> None:
    """The device options of ``companion serve`` (each falls back to its environment
    variable, then to a default that suits a Pi)."""
    p.add_argument("--camera", default=None,
                   help="auto (default: picamera2, else /dev/video0, else none), picamera2, usb:N, folder:PATH, "
                        "synthetic[:SEED], demo or none ($COMPANION_CAMERA)")
    p.add_argument("--tray", default=None,
                   help="auto (default: a Pico on USB), a serial PATH, emulate, gpio[:BTN[:LED]] or none ($COMPANION_TRAY)")
    p.add_argument("--gpio", default=None,
                   help="auto (default: a confirm button on GPIO17 and LED on GPIO27 on a Raspberry Pi), "
                        "BTN[:LED] or none ($COMPANION_GPIO)")


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # ``companion odds GAME ...`` (the quick command) builds only its own parser.
    quick = argv[1] if len(argv) > 1 and argv[0] == "odds" and any(
        m.split(".")[-2] == argv[1] for m in ODDS_MODULES) else None
    parser = build_parser(odds_only=quick)
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the try
        return code
    except BrokenPipeError:
        return _pipe_closed()
    except CompanionError as exc:
        print(_error_line(exc, getattr(args, "lang", None)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _error_line(exc: CompanionError, lang: Any) -> str:
    """A refusal as the command line shows it: in the command's ``--lang`` when it has one
    and the error carries both texts (``companion.errors.bilingual``), else both (« fr / en »)."""
    said = getattr(exc, "text", None)
    if lang == "en" and isinstance(said, dict) and said.get("en"):
        return f"companion: error: {said['en']}"
    if lang == "fr" and isinstance(said, dict) and said.get("fr"):
        return f"companion\u202f: erreur\u202f: {said['fr']}"
    return f"companion: error: {exc}"


def _pipe_closed() -> int:
    """The reader of our output went away (``companion ... --json | head``): stop quietly,
    as a command killed by SIGPIPE would, with no traceback. Standard output is pointed
    at /dev/null so that the interpreter's last flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (tests)
        pass
    return 141


# -- replay / export -----------------------------------------------------------------
def _warn(problem: str) -> None:
    print(f"warning: {problem}", file=sys.stderr)


def _cmd_replay(args: argparse.Namespace) -> int:
    from ..log import load_events
    from ..table import Table

    events = load_events(args.log, strict=not args.lenient, warn=_warn)
    table = Table().replay(events, strict=not args.lenient)
    if args.json:
        json.dump(table.to_json(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print(table.describe(args.lang))
        for ev, msg in table.skipped:
            print(f"skipped event {ev.seq} ({ev.type}): {msg}", file=sys.stderr)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from ..log import load_events, write_jsonl

    events = load_events(args.log, strict=False, warn=_warn)
    if args.out:
        with args.out.open("w", encoding="utf-8") as fh:
            write_jsonl(events, fh)
    else:
        write_jsonl(events, sys.stdout)
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    from ..importer import import_file

    report = import_file(args.log, args.data)
    for lineno, msg in report.refused:
        print(f"refused: {msg}", file=sys.stderr)
    where = args.data / "table.sqlite"
    if report.imported:
        print(f"{report.imported} events imported into {where} (seq {report.first_seq}-{report.last_seq});"
              f" {len(report.refused)} line(s) refused")
    else:
        print(f"nothing imported into {where}; {len(report.refused)} line(s) refused")
    return 1 if report.refused else 0


# -- serve ---------------------------------------------------------------------------
def _cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve  # the web server, OpenCV and the tray: only for this command

    return serve(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
