"""``companion doctor``: check the table's set-up and say how to fix what is wrong.

Each check returns a :class:`Check` (ok / warn / fail, a message in French and English,
and a fix in both: ``fix`` in English, ``fix_fr`` in French). The text output is in one
language: French by default, English with ``--lang en``. Checks that need hardware libraries import them inside, so a missing camera
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

from web.addresses import lan_addresses

from ..datadir import default_data_dir
from ..log import TableLog

__all__ = ["Check", "run_checks", "register"]

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    fr: str
    en: str
    fix: str = ""  # the hint in English
    fix_fr: str = ""  # the hint in French (shown by default)

    def hint(self, lang: str) -> str:
        """The fix in ``lang`` (French by default); the other language if only it exists."""
        if lang == "en":
            return self.fix or self.fix_fr
        return self.fix_fr or self.fix


def _python() -> Check:
    v = sys.version_info
    if v >= (3, 11):
        return Check("python", OK, f"Python {v.major}.{v.minor}", f"Python {v.major}.{v.minor}")
    return Check("python", FAIL, "Python trop ancien", "Python too old", "install Python 3.11 or newer",
                 "installez Python 3.11 ou plus récent")


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
                 f"Missing libraries: {', '.join(missing)}", "pip install . (in the companion's venv)",
                 "pip install . (dans le venv du compagnon)")


def _disk(data_dir: Path) -> Check:
    target = data_dir if data_dir.exists() else data_dir.parent
    while not target.exists() and target != target.parent:
        target = target.parent
    free = shutil.disk_usage(target).free / 2**30
    if free < 0.5:
        return Check("disk", FAIL, f"Disque presque plein ({free:.2f} Gio libres)".replace(".", ","),
                     f"Disk almost full ({free:.2f} GiB free)", "free space on the SD card; old photos can go",
                     "libérez de la place sur la carte SD ; les vieilles photos peuvent partir")
    if free < 2:
        return Check("disk", WARN, f"Peu d'espace disque ({free:.1f} Gio)".replace(".", ","), f"Low disk space ({free:.1f} GiB)",
                     "photos are capped, but keep 2 GiB free", "les photos sont plafonnées, mais gardez 2 Gio libres")
    return Check("disk", OK, f"Espace disque : {free:.1f} Gio libres".replace(".", ","), f"Disk space: {free:.1f} GiB free")


def _network() -> Check:
    addrs = lan_addresses()
    if addrs:
        return Check("network", OK, f"Adresse pour la tablette : http://{addrs[0]}:8080/",
                     f"Address for the tablet: http://{addrs[0]}:8080/")
    return Check("network", WARN, "Aucune adresse réseau locale", "No LAN address",
                 "connect the Pi to the table's Wi-Fi (raspi-config) so tablets can reach it",
                 "connectez le Pi au Wi-Fi de la table (raspi-config) pour que les tablettes le trouvent")


def _data(data_dir: Path) -> Check:
    log = data_dir / "table.sqlite"
    if not log.exists():
        return Check("log", OK, f"Pas encore de partie dans {data_dir}", f"No game yet in {data_dir}")
    try:
        with TableLog(log) as tl:
            n = sum(1 for _ in tl.events())
            problems = list(tl.problems)
    except ValueError as exc:
        return Check("log", FAIL, f"Journal illisible : {exc}", f"Unreadable log: {exc}",
                     "keep the file; copy it aside and start a new data folder",
                     "gardez le fichier ; copiez-le à part et partez d'un nouveau dossier de données")
    if problems:
        return Check("log", WARN, f"{len(problems)} évènement(s) illisible(s) ignoré(s)",
                     f"{len(problems)} unreadable event(s) skipped", "; ".join(problems[:3]), " ; ".join(problems[:3]))
    return Check("log", OK, f"Journal : {n} évènements", f"Log: {n} events")


#: What each check is called on screen (French, English); ``name`` stays the JSON key.
CHECK_NAMES = {
    "python": ("Python", "Python"), "libraries": ("bibliothèques", "libraries"), "disk": ("disque", "disk"),
    "network": ("réseau", "network"), "log": ("journal", "log"), "camera": ("caméra", "camera"),
    "calibration": ("calibration", "calibration"), "enrollment": ("apprentissage", "enrollment"),
    "tray": ("plateau", "tray"), "gpio": ("GPIO", "GPIO"),
}

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
    return Check(name, res.get("status", WARN), res.get("fr", ""), res.get("en", ""), res.get("fix", ""),
                 res.get("fix_fr", ""))


def run_checks(data_dir: Path) -> list[Check]:
    checks = [_python(), _libraries(), _disk(data_dir), _network(), _data(data_dir)]
    for name, target in EXTRA_CHECKS.items():
        c = _extra(name, target, data_dir)
        if c is not None:
            checks.append(c)
    return checks


def _cmd(args: argparse.Namespace) -> int:
    data_dir = Path(args.data) if args.data else default_data_dir()
    checks = run_checks(data_dir)
    if args.json:
        print(json.dumps([asdict(c) for c in checks], ensure_ascii=False, indent=2))
    else:
        icon = {OK: "✔", WARN: "!", FAIL: "✘"}
        lang = "en" if args.lang == "en" else "fr"
        for c in checks:
            msg = c.en if lang == "en" else c.fr
            name = CHECK_NAMES.get(c.name, (c.name, c.name))[0 if lang == "fr" else 1]
            print(f"{icon[c.status]} {name:14} {msg}")
            hint = c.hint(lang)
            if hint and c.status != OK:
                print(f"  {'':14} → {hint}")
    return 1 if any(c.status == FAIL for c in checks) else 0


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check camera, tray, GPIO, calibration, disk and network")
    p.add_argument("--data", default=os.environ.get("COMPANION_DATA"), help="the table's data folder")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=["fr", "en"], default="fr")
    p.set_defaults(func=_cmd)
