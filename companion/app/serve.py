"""``companion serve``: the table's folder, its PIN, and the web server.

The folder (``--data``, default: the per-user data folder, e.g.
``~/.local/share/table-companion``) holds ``table.sqlite`` (the log) and
``settings.json`` (the PIN generated at first start and the session key). With
``--demo`` and no ``--data`` a fresh temporary folder is used, so every demo starts at
the beginning with example characters.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..backup import AutoBackup, list_backups
from ..datadir import default_data_dir
from ..errors import CompanionError
from ..games import find_game
from ..roll.demo import demo_events as camera_demo
from ..service import TableService
from web.addresses import lan_addresses
from web.app import create_app
from web.server import create_server

from .wiring import start_devices

#: Digits of a generated PIN; a shorter ``--pin`` needs ``--weak-pin``.
PIN_DIGITS = 6

__all__ = ["check_log_present", "check_pin_strength", "PIN_DIGITS", "serve", "load_settings", "seed_demo"]


def load_settings(data_dir: Path) -> dict[str, Any]:
    """Read (or create at first start) the table's settings: PIN and session key."""
    path = data_dir / "settings.json"
    settings: dict[str, Any] = {}
    if path.exists():
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(settings, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as exc:
            raise CompanionError(f"cannot read {path}: {exc}; fix or delete it") from None
    changed = False
    if not settings.get("pin"):
        settings["pin"] = f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
        changed = True
    if not settings.get("secret_key"):
        settings["secret_key"] = secrets.token_hex(32)
        changed = True
    if changed:
        data_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(settings, indent=2), encoding="utf-8")
        os.chmod(tmp, 0o600)
        tmp.replace(path)
    return settings


def check_pin_strength(pin: str, weak_ok: bool) -> None:
    """Refuse a PIN shorter than :data:`PIN_DIGITS` unless ``weak_ok`` (``--weak-pin``)."""
    if len(pin.strip()) < PIN_DIGITS and not weak_ok:
        raise CompanionError(
            f"the table PIN must have at least {PIN_DIGITS} characters (a 4-digit PIN is found in minutes); "
            f"choose a longer one, or add --weak-pin to keep it / le code doit avoir au moins {PIN_DIGITS} caractères "
            "(ou ajoutez --weak-pin)")


def check_log_present(data_dir: Path, new_table: bool) -> None:
    """A table existed here (``settings.json``) but its log is missing or empty: refuse
    to start an empty table over it, and say how to get it back."""
    log = data_dir / "table.sqlite"
    if not (data_dir / "settings.json").exists() or new_table:
        return
    if log.exists() and log.stat().st_size > 0:
        return
    state = "is missing" if not log.exists() else "is empty (0 bytes)"
    found = list_backups(data_dir)
    lines = [f"the table log {log} {state}, but a table was played in {data_dir} (settings.json is there).",
             "Nothing was started, so nothing more is lost. To get the table back:"]
    if found:
        lines.append(f"  - restore the newest backup ({found[-1].name}): companion restore --data {data_dir}")
    else:
        lines.append(f"  - no backup in {data_dir / 'backups'}; if you copied table.sqlite elsewhere, put it back")
    lines += [f"  - or start an empty table anyway: companion serve --data {data_dir} --new-table",
              f"Le journal de la table {state.replace('is missing', 'manque').replace('is empty (0 bytes)', 'est vide')} : "
              "rien n'a été démarré ; voir docs/storage.md pour le récupérer."]
    raise CompanionError("\n".join(lines))


def seed_demo(service: Any, game: str) -> None:
    """Start ``game`` with its example set-up when the log is empty."""
    if service.table.frames:
        return
    scripted = camera_demo(game)
    if scripted:
        for ev in scripted:
            service.submit(ev)
        return
    find_game(game)  # a clear error for an unknown game
    service.submit({"type": "table.new_game", "data": {"game": game}, "source": "system"})


def serve(args: argparse.Namespace) -> int:
    data_dir = _data_dir(args)
    data_dir.mkdir(parents=True, exist_ok=True)
    check_log_present(data_dir, bool(getattr(args, "new_table", False)))
    settings = load_settings(data_dir)
    pin = _table_pin(args, data_dir, settings)
    service, backups = _open_table(data_dir)
    game = args.game or ("peripeties" if args.demo else None)
    if game and not service.table.frames:
        seed_demo(service, game)

    tray = getattr(args, "tray", None)
    if tray and tray.lower() == "emulate":
        tray = "emulated"
    devices = start_devices(service, data_dir, camera=getattr(args, "camera", None), tray=tray,
                            gpio=getattr(args, "gpio", None), demo=bool(args.demo))
    app = create_app({
        "SERVICE": service, "TABLE_PIN": pin, "SECRET_KEY": settings["secret_key"],
        "DATA_DIR": str(data_dir), "DEMO": bool(args.demo), "DEVICES": devices,
    })
    server = create_server(app, host=args.host, port=args.port, threads=max(4, args.threads))
    _print_banner(args, data_dir, server.effective_port, pin, devices, tray)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        backups.stop()
        devices.stop()
        service.close()
    return 0


def _data_dir(args: argparse.Namespace) -> Path:
    """``--data``; else a fresh temporary folder for ``--demo``; else the per-user folder."""
    if args.data is not None:
        return Path(args.data)
    if args.demo:
        return Path(tempfile.mkdtemp(prefix="companion-demo-"))
    return default_data_dir()


def _table_pin(args: argparse.Namespace, data_dir: Path, settings: dict[str, Any]) -> Any:
    """``--pin`` or ``$COMPANION_PIN`` (checked for length), else the one kept in settings."""
    given = args.pin or os.environ.get("COMPANION_PIN")
    pin = given or settings["pin"]
    if given:
        check_pin_strength(str(given), bool(getattr(args, "weak_pin", False)))
    elif len(str(pin)) < PIN_DIGITS:  # generated by an older version: kept, the players know it
        print(f"warning: the table PIN kept in {data_dir / 'settings.json'} is short; remove its \"pin\" "
              f"line for a new {PIN_DIGITS}-digit one", file=sys.stderr)
    return pin


def _open_table(data_dir: Path) -> tuple[TableService, AutoBackup]:
    """The table service on the folder's log, and its automatic backups (started unless
    the log is damaged: then the table is read-only and says how to recover)."""
    service = TableService(data_dir / "table.sqlite")
    for problem in service.log.problems:
        print(f"warning: {problem}", file=sys.stderr)
    backups = AutoBackup(data_dir, report=lambda msg: print(f"warning: {msg}", file=sys.stderr))
    if service.log.damaged:
        print(f"LECTURE SEULE / READ-ONLY: the table log is damaged; stop the server and run "
              f"`companion recover --data {data_dir}`", file=sys.stderr)
    else:
        backups.start()

        def backup_at_new_game(applied: Any) -> None:
            backups.on_applied(applied)

        service.on_applied(backup_at_new_game)
    for ev, msg in service.table.skipped:
        print(f"warning: event {ev.seq} ({ev.type}) kept in the log but not applied: {msg}", file=sys.stderr)
    return service, backups


def _print_banner(args: argparse.Namespace, data_dir: Path, port: int, pin: Any, devices: Any, tray: str | None) -> None:
    hosts = lan_addresses() if args.host in ("0.0.0.0", "::") else [args.host]
    print("Compagnon de table / Table companion", flush=True)
    print(f"  dossier / folder : {data_dir}", flush=True)
    for h in hosts or ["127.0.0.1"]:
        print(f"  ouvrir sur la tablette / open on the tablet : http://{h}:{port}/", flush=True)
    print(f"  local : http://127.0.0.1:{port}/", flush=True)
    print(f"  code de la table / table PIN : {pin}", flush=True)
    cam = devices.camera.spec if devices.camera is not None else "none"
    print(f"  caméra / camera : {cam} ; plateau / tray : {tray or os.environ.get('COMPANION_TRAY') or ('emulated' if args.demo else 'auto')}",
          flush=True)
    _print_qr(f"http://{(hosts or ['127.0.0.1'])[0]}:{port}/")


def _print_qr(url: str) -> None:
    """A QR code of the address on the Pi's display, for tablets that cannot resolve
    ``.local`` names (needs the optional ``qrcode`` package; skipped without it)."""
    if not sys.stdout.isatty():
        return
    try:
        import qrcode  # optional (the [pi] extra): only for a terminal on the Pi
    except ImportError:
        return
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.print_ascii(invert=True)
