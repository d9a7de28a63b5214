"""``companion tray ...``: run an emulated tray, watch a tray's events, frame a line by hand.

``register`` imports nothing heavy; pyserial is imported by the handlers only.

- ``companion tray emulate`` starts a :class:`~firmware_bridge.emulator.TrayEmulator`,
  prints its port on the first line of standard output, then obeys commands typed on
  standard input (``shake 1``, ``click 1``, ``unplug``...; ``help`` lists them).
- ``companion tray monitor [PORT] [--json]`` prints the events of a real or emulated tray.
- ``companion tray frame TEXT`` prints a frame with its checksum, to paste into a serial
  terminal (``companion tray frame LIGHT 200 255 255 255``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from .errors import TrayError

__all__ = ["register"]

_TEXT = {
    "connected": ("plateau connecté sur {port} ({board}, micrologiciel {firmware}, protocole {protocol})",
                  "tray connected on {port} ({board}, firmware {firmware}, protocol {protocol})"),
    "disconnected": ("plateau déconnecté ({reason})", "tray disconnected ({reason})"),
    "unplugged": ("débranché", "unplugged"),
    "silent": ("muet", "silent"),
    "stopped": ("arrêté", "stopped"),
    "incompatible": ("incompatible", "incompatible"),
    "motion": ("les dés roulent", "dice moving"),
    "settled": ("les dés sont posés (lancer de {moving_ms} ms)", "dice settled (rolled for {moving_ms} ms)"),
    "press": ("bouton {button} appuyé", "button {button} pressed"),
    "release": ("bouton {button} relâché (tenu {held_ms} ms)", "button {button} released (held {held_ms} ms)"),
    "waiting": ("en attente du plateau sur {port}… (Ctrl-C pour quitter)", "waiting for the tray on {port}… (Ctrl-C to quit)"),
    "created": ("dossier {folder} créé", "folder {folder} created"),
    "port": ("plateau émulé sur {port} ; tapez « help » pour les commandes", "emulated tray on {port}; type 'help' for commands"),
    "unknown": ("commande inconnue : {cmd} (tapez « help »)", "unknown command: {cmd} (type 'help')"),
}

_HELP = """\
shake [SECONDS]     the dice hit the tray (and keep moving for SECONDS)
press N | release N button N down / up
click N             press and release button N
unplug | plug       pull the USB cable / plug it back
reset               reboot the firmware
silent | resume     hang the firmware / let it carry on
noise [N]           send N bytes of garbage (default 64)
noisy P             corrupt the line with probability P per chunk (0 to stop)
state               light, status LED, host seen
quit                stop"""


def _t(key: str, lang: str, **kw: Any) -> str:
    fr, en = _TEXT[key]
    return (fr if lang == "fr" else en).format(**kw)


def register(subparsers: Any) -> None:
    tray = subparsers.add_parser("tray", help="the dice tray: emulate one, watch one, frame a command")
    sub = tray.add_subparsers(dest="tray_command", metavar="ACTION")
    tray.set_defaults(func=lambda a: (tray.print_help(), 2)[1])

    p = sub.add_parser("emulate", help="run an emulated tray on a pseudo-terminal and print its port")
    p.add_argument("--dir", default=None, help="folder for the stable port symlink (default: a new temporary folder)")
    p.add_argument("--settle-ms", type=int, default=800, help="no motion for this long means settled (default 800)")
    p.add_argument("--hb-ms", type=int, default=500, help="heartbeat period (default 500)")
    p.add_argument("--duration", type=float, default=None, help="stop after this many seconds (default: until 'quit' or Ctrl-C)")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd_emulate)

    p = sub.add_parser("monitor", help="print the events of a real or emulated tray")
    p.add_argument("port", nargs="?", default=None,
                   help="a path, /dev/serial/by-id/..., auto, usb:VID:PID or emulated (default: $COMPANION_TRAY, else auto)")
    p.add_argument("--json", action="store_true", help="one JSON object per event")
    p.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    p.add_argument("--light", type=int, default=None, metavar="LEVEL", help="also light the ring at this level (0-255)")
    p.add_argument("--status", default=None, help="also set the status LED pattern (off, on, slow, fast, double)")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd_monitor)

    p = sub.add_parser("frame", help="print a protocol frame with its checksum, for a serial terminal")
    p.add_argument("words", nargs="+", help="TYPE and arguments, e.g. LIGHT 200 255 255 255")
    p.add_argument("--seq", type=int, default=1, help="sequence number (default 1)")
    p.set_defaults(func=_cmd_frame)


def _cmd_frame(args: argparse.Namespace) -> int:
    from .protocol import crc16  # the handlers import the tray's modules: register stays light

    if not 0 <= args.seq <= 0xFFFF:
        raise TrayError("--seq must be from 0 to 65535")
    words = [w for word in args.words for w in word.split()]
    words[0] = words[0].upper()
    body = " ".join([str(args.seq), *words])
    if not body.isascii() or "$" in body or "*" in body:
        raise TrayError("a frame holds printable ASCII words without '$' or '*'")
    print(f"${body}*{crc16(body.encode()):04X}")
    return 0


def _cmd_emulate(args: argparse.Namespace) -> int:
    from .emulator import TrayEmulator  # ptys and the simulated board: only for this command

    if args.dir is not None:
        folder = Path(args.dir)
        if folder.exists() and not folder.is_dir():
            raise TrayError(f"--dir {folder}: this is a file, not a folder / ceci est un fichier, pas un dossier")
        if not folder.exists():
            try:
                folder.mkdir(parents=True)
            except OSError as exc:
                raise TrayError(f"--dir {folder}: cannot create the folder / impossible de créer le dossier"
                                f" ({exc.strerror})") from None
            print(_t("created", args.lang, folder=folder), file=sys.stderr, flush=True)
    emu = TrayEmulator(args.dir, settle_ms=args.settle_ms, hb_ms=args.hb_ms).start()
    lang = args.lang
    print(emu.port, flush=True)
    print(_t("port", lang, port=emu.port), file=sys.stderr, flush=True)
    done = threading.Event()

    def console() -> None:
        for line in sys.stdin:
            if not _obey(emu, line.split(), lang):
                break
        else:
            if args.duration is None:
                return  # no console (stdin closed): run until Ctrl-C
        done.set()

    threading.Thread(target=console, daemon=True).start()
    try:
        done.wait(args.duration)
    finally:
        emu.stop()
    return 0


def _obey(emu: Any, words: list[str], lang: str) -> bool:
    """Run one console command; False to quit."""
    if not words:
        return True
    cmd, rest = words[0].lower(), words[1:]
    try:
        num = float(rest[0]) if rest else None
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd == "help":
            print(_HELP, file=sys.stderr)
        elif cmd == "shake":
            emu.shake(num or 0.0)
        elif cmd in ("press", "release", "click"):
            getattr(emu, cmd)(int(num or 1))
        elif cmd in ("unplug", "plug", "reset", "resume"):
            getattr(emu, cmd)()
        elif cmd == "silent":
            emu.go_silent()
        elif cmd == "noise":
            emu.inject(os.urandom(int(num or 64)))
        elif cmd == "noisy":
            emu.line_noise = num or 0.0
        elif cmd == "state":
            print(f"light={emu.light} status_led={emu.status_led} pattern={emu.pattern} "
                  f"host={emu.host_present} plugged={emu.plugged}", file=sys.stderr)
        else:
            print(_t("unknown", lang, cmd=cmd), file=sys.stderr)
    except (ValueError, TypeError) as exc:
        print(f"{cmd}: {exc}", file=sys.stderr)
    return True


def _cmd_monitor(args: argparse.Namespace) -> int:
    from . import open_tray, protocol

    link = open_tray(args.port)
    if link is None:
        raise TrayError("no tray configured (COMPANION_TRAY=none); give a port, 'auto' or 'emulated'")
    lang = args.lang
    lock = threading.Lock()

    def show(event: Any) -> None:
        with lock:
            if args.json:
                print(json.dumps(event.to_json(), ensure_ascii=False), flush=True)
            else:
                stamp = time.strftime("%H:%M:%S")
                fields = event.to_json()
                if "reason" in fields and fields["reason"] in _TEXT:
                    fields["reason"] = _t(fields["reason"], lang)
                print(f"{stamp}  {_t(event.kind, lang, **fields)}", flush=True)

    link.subscribe(show)
    if args.light is not None:
        link.send(protocol.Light(args.light))
    if args.status is not None:
        link.send(protocol.Status(args.status))
    link.start()
    if not args.json:
        emu = getattr(link, "emulator", None)
        spec = getattr(link, "spec", None)
        where = emu.port if emu is not None else (args.port or (spec.path or spec.kind if spec else "gpio"))
        print(_t("waiting", lang, port=where), file=sys.stderr, flush=True)
    try:
        if args.duration is None:
            while True:
                time.sleep(3600)
        else:
            time.sleep(args.duration)
    finally:
        link.stop()
    return 0
