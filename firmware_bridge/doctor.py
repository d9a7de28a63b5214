"""``companion doctor`` checks for the tray and the Pi's GPIO. Plugged in through
``companion.doctor.EXTRA_CHECKS``; each takes the data folder and returns
``{"status", "fr", "en", "fix"}``. Never raises for a missing device.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["check_tray", "check_gpio"]


def _r(status: str, fr: str, en: str, fix: str = "", fix_fr: str = "") -> dict[str, Any]:
    """A finding: ``fix`` is the English hint, ``fix_fr`` the French one."""
    return {"status": status, "fr": fr, "en": en, "fix": fix, "fix_fr": fix_fr}


def check_tray(data_dir: Path, timeout: float = 3.0) -> dict[str, Any]:
    from .ports import ENV_VAR, find_usb_port, parse_spec

    raw = os.environ.get(ENV_VAR, "auto")
    try:
        spec = parse_spec(raw)
    except ValueError as exc:
        return _r("fail", f"{ENV_VAR} invalide : {exc}", f"Bad {ENV_VAR}: {exc}", "fix the variable (see docs/tray.md)",
                  "corrigez la variable (voir docs/tray.md)")
    if spec.kind == "none":
        return _r("ok", "Pas de plateau (choisi) : immobilité vue par la caméra",
                  "No tray (chosen): stillness seen by the camera")
    if spec.kind in ("emulated", "gpio"):
        return _r("ok", f"Plateau : {spec.kind}", f"Tray: {spec.kind}")
    port = find_usb_port(spec.usb_ids) if spec.kind in ("auto", "usb") else spec.path
    if not port or (spec.kind == "path" and not os.path.exists(port)):
        return _r("warn", "Aucun plateau branché : immobilité vue par la caméra, bouton GPIO possible",
                  "No tray plugged in: stillness seen by the camera, GPIO button possible",
                  "plug the Pico's USB cable; `ls /dev/serial/by-id/` should list it; flash the firmware (docs/tray.md)",
                  "branchez le câble USB du Pico ; `ls /dev/serial/by-id/` doit le montrer ; flashez le micrologiciel (docs/tray.md)")
    if "://" not in port and not os.access(port, os.R_OK | os.W_OK):
        return _r("fail", f"Pas le droit d'ouvrir {port}", f"No permission to open {port}",
                  "sudo usermod -aG dialout $USER, then log in again (or install deploy/99-companion-tray.rules)",
                  "sudo usermod -aG dialout $USER, puis reconnectez-vous (ou installez deploy/99-companion-tray.rules)")
    from .link import LinkSettings, TrayLink

    link = TrayLink(port, LinkSettings())
    try:
        link.start()
        ok = link.wait_connected(timeout)
        info = link.info
    finally:
        link.stop()
    if ok and info is not None:
        return _r("ok", f"Plateau sur {port} (micrologiciel {info.firmware}, protocole {info.protocol})",
                  f"Tray on {port} (firmware {info.firmware}, protocol {info.protocol})")
    err = link.stats.last_error
    return _r("fail", f"Le plateau sur {port} ne répond pas{': ' + err if err else ''}",
              f"The tray on {port} does not answer{': ' + err if err else ''}",
              "is `companion serve` running (it holds the port)? stop it first; else re-flash the firmware (docs/tray.md)",
              "`companion serve` tourne-t-il (il tient le port) ? arrêtez-le d'abord ; sinon reflashez le micrologiciel (docs/tray.md)")


def _on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def check_gpio(data_dir: Path) -> dict[str, Any]:
    if not _on_a_pi():
        return _r("ok", "Pas un Raspberry Pi : GPIO inutile", "Not a Raspberry Pi: no GPIO needed")
    try:
        import gpiozero  # noqa: F401
    except ImportError:
        return _r("warn", "gpiozero absent : pas de bouton ni de voyant sur le Pi",
                  "gpiozero missing: no button or LED on the Pi", "sudo apt install python3-gpiozero python3-lgpio",
                  "sudo apt install python3-gpiozero python3-lgpio")
    if not os.access("/dev/gpiochip0", os.R_OK | os.W_OK):
        return _r("fail", "Pas le droit d'utiliser les GPIO", "No permission to use the GPIO",
                  "sudo usermod -aG gpio $USER, then log in again", "sudo usermod -aG gpio $USER, puis reconnectez-vous")
    from .gpio import GpioTray

    tray = GpioTray(17, 27)
    try:
        tray.start()
    except Exception as exc:  # noqa: BLE001
        return _r("warn", f"GPIO17/27 indisponibles : {exc}", f"GPIO17/27 unavailable: {exc}",
                  "is `companion serve` running (it holds the pins)? else check the wiring in hardware.md",
                  "`companion serve` tourne-t-il (il tient les broches) ? sinon vérifiez le câblage (hardware.md)")
    finally:
        try:
            tray.stop()
        except Exception:  # noqa: BLE001
            pass
    return _r("ok", "GPIO : bouton GPIO17, voyant GPIO27", "GPIO: button GPIO17, LED GPIO27")
