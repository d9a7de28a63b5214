"""``companion doctor``: check the table's set-up and say how to fix what is wrong.

Each check returns a :class:`Check` (ok / warn / fail, a message in French and English,
and a fix). Checks that need hardware libraries import them inside, so a missing camera
library is a finding, not a crash.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

__all__ = ["Check", "run_checks", "register"]

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    fr: str
    en: str
    fix: str = ""


def _python() -> Check:
    v = sys.version_info
    if v >= (3, 11):
        return Check("python", OK, f"Python {v.major}.{v.minor}", f"Python {v.major}.{v.minor}")
    return Check("python", FAIL, "Python trop ancien", "Python too old", "install Python 3.11 or newer")


def _libraries() -> Check:
    missing = []
    for mod in ("flask", "gevent", "numpy", "cv2", "serial", "gpiozero"):
        try:
            importlib.import_module(mod)
        except Exception:
            missing.append(mod)
    if not missing:
        return Check("libraries", OK, "Bibliothèques présentes", "Libraries present")
    return Check("libraries", FAIL, f"Bibliothèques manquantes : {', '.join(missing)}",
                 f"Missing libraries: {', '.join(missing)}", "pip install . (in the companion's venv)")


def _disk(data_dir: Path) -> Check:
    target = data_dir if data_dir.exists() else data_dir.parent
    while not target.exists() and target != target.parent:
        target = target.parent
    free = shutil.disk_usage(target).free / 2**30
    if free < 0.5:
        return Check("disk", FAIL, f"Disque presque plein ({free:.2f} Gio libres)",
                     f"Disk almost full ({free:.2f} GiB free)", "free space on the SD card; old photos can go")
    if free < 2:
        return Check("disk", WARN, f"Peu d'espace disque ({free:.1f} Gio)", f"Low disk space ({free:.1f} GiB)",
                     "photos are capped, but keep 2 GiB free")
    return Check("disk", OK, f"Espace disque : {free:.1f} Gio libres", f"Disk space: {free:.1f} GiB free")


def _network() -> Check:
    from .serve import lan_addresses

    addrs = lan_addresses()
    if addrs:
        return Check("network", OK, f"Adresse pour la tablette : http://{addrs[0]}:8080/",
                     f"Address for the tablet: http://{addrs[0]}:8080/")
    return Check("network", WARN, "Aucune adresse réseau locale", "No LAN address",
                 "connect the Pi to the table's Wi-Fi (raspi-config) so tablets can reach it")


def _data(data_dir: Path) -> Check:
    log = data_dir / "table.sqlite"
    if not log.exists():
        return Check("log", OK, f"Pas encore de partie dans {data_dir}", f"No game yet in {data_dir}")
    from .log import TableLog

    try:
        with TableLog(log) as tl:
            n = sum(1 for _ in tl.events())
            problems = list(tl.problems)
    except ValueError as exc:
        return Check("log", FAIL, f"Journal illisible : {exc}", f"Unreadable log: {exc}",
                     "keep the file; copy it aside and start a new data folder")
    if problems:
        return Check("log", WARN, f"{len(problems)} évènement(s) illisible(s) ignoré(s)",
                     f"{len(problems)} unreadable event(s) skipped", "; ".join(problems[:3]))
    return Check("log", OK, f"Journal : {n} évènements", f"Log: {n} events")


#: Extra checks contributed by the hardware packages: name -> "module:function".
EXTRA_CHECKS = {
    "camera": "vision.doctor:check_camera",
    "calibration": "vision.doctor:check_calibration",
    "enrollment": "vision.doctor:check_enrollment",
    "tray": "firmware_bridge.doctor:check_tray",
    "gpio": "firmware_bridge.doctor:check_gpio",
}


def _extra(name: str, target: str, data_dir: Path) -> Check | None:
    module, _, func = target.partition(":")
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    fn: Callable[[Path], Any] = getattr(mod, func)
    try:
        res = fn(data_dir)
    except Exception as exc:  # a check must never crash the doctor
        return Check(name, FAIL, f"Vérification impossible : {exc}", f"Check failed: {exc}")
    if isinstance(res, Check):
        return res
    return Check(name, res.get("status", WARN), res.get("fr", ""), res.get("en", ""), res.get("fix", ""))


def run_checks(data_dir: Path) -> list[Check]:
    checks = [_python(), _libraries(), _disk(data_dir), _network(), _data(data_dir)]
    for name, target in EXTRA_CHECKS.items():
        c = _extra(name, target, data_dir)
        if c is not None:
            checks.append(c)
    return checks


def _cmd(args: argparse.Namespace) -> int:
    from .serve import default_data_dir

    data_dir = Path(args.data) if args.data else default_data_dir()
    checks = run_checks(data_dir)
    if args.json:
        print(json.dumps([asdict(c) for c in checks], ensure_ascii=False, indent=2))
    else:
        icon = {OK: "✔", WARN: "!", FAIL: "✘"}
        for c in checks:
            msg = c.en if args.lang == "en" else c.fr
            print(f"{icon[c.status]} {c.name:12} {msg}")
            if c.fix and c.status != OK:
                print(f"  {'':12} → {c.fix}")
    return 1 if any(c.status == FAIL for c in checks) else 0


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check camera, tray, GPIO, calibration, disk and network")
    p.add_argument("--data", default=os.environ.get("COMPANION_DATA"), help="the table's data folder")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd)
