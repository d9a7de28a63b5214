"""``companion doctor`` checks for the tray and the Pi's GPIO. Plugged in through
``companion.app.doctor.EXTRA_CHECKS``; each takes the data folder and returns
``{"status", "fr", "en", "fix"}``. Never raises for a missing device.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

from .gpio import GpioTray
from .link import LinkSettings, TrayLink
from .ports import ENV_VAR, find_usb_port, parse_spec

__all__ = ["check_tray", "check_gpio", "pin_factory", "pin_libraries", "FACTORY_NAMES"]


def _r(status: str, fr: str, en: str, fix: str = "", fix_fr: str = "") -> dict[str, Any]:
    """A finding: ``fix`` is the English hint, ``fix_fr`` the French one."""
    return {"status": status, "fr": fr, "en": en, "fix": fix, "fix_fr": fix_fr}


def check_tray(data_dir: Path, timeout: float = 3.0) -> dict[str, Any]:
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


#: gpiozero's pin factories by class name: what the doctor calls each.
FACTORY_NAMES = {"LGPIOFactory": "lgpio", "RPiGPIOFactory": "RPi.GPIO", "PiGPIOFactory": "pigpio",
                 "NativeFactory": "native", "MockFactory": "mock"}


def _installed(module: str) -> bool:
    """Whether ``module`` can be found, without importing it (lgpio opens files at import,
    RPi.GPIO refuses to import off a Pi)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:  # in sys.modules without a spec: there, so installed
        return True
    except ImportError:  # its package is missing
        return False


def _rpi_gpio_provider() -> str | None:
    """Which distribution provides the ``RPi.GPIO`` module: ``RPi.GPIO`` itself (Pi 4),
    ``rpi-lgpio`` (its API over lgpio, for the Pi 5), or None when it is not installed."""
    if not _installed("RPi.GPIO"):
        return None
    dists = importlib.metadata.packages_distributions().get("RPi", [])
    return "rpi-lgpio" if any(d.lower().replace("_", "-") == "rpi-lgpio" for d in dists) else "RPi.GPIO"


def pin_libraries() -> list[str]:
    """The pin libraries installed here that gpiozero could use, in its order of preference."""
    found = ["lgpio"] if _installed("lgpio") else []
    provider = _rpi_gpio_provider()
    if provider == "rpi-lgpio":
        found.append("RPi.GPIO (rpi-lgpio)")
    elif provider:
        found.append("RPi.GPIO")
    return found


def _lgpio_workdir(data_dir: Path) -> None:
    """lgpio makes its notification pipe in ``$LG_WD``, else the current folder, at import:
    run from a folder the user cannot write (``sudo -u companion ... doctor`` from a home
    folder), it fails and gpiozero falls back to another library. Point it at the data
    folder (the service's own working folder), else the temporary folder."""
    if "LG_WD" in os.environ or os.access(".", os.W_OK):
        return
    os.environ["LG_WD"] = str(data_dir) if os.access(data_dir, os.W_OK) else tempfile.gettempdir()


def pin_factory() -> tuple[Any, str, list[str]]:
    """The pin factory gpiozero picks here (``$GPIOZERO_PIN_FACTORY``, else the first of
    lgpio, RPi.GPIO, pigpio, native that loads): ``(factory or None, its name, why the
    ones before it were passed over)``. The caller closes the factory."""
    from gpiozero import Device

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory = Device._default_pin_factory()
        except Exception as exc:  # noqa: BLE001 - BadPinFactory, or a library failing its own way
            return None, "", [str(w.message) for w in caught] + [str(exc)]
    name = FACTORY_NAMES.get(type(factory).__name__, type(factory).__name__)
    if name == "RPi.GPIO" and _rpi_gpio_provider() == "rpi-lgpio":
        name = "RPi.GPIO (rpi-lgpio)"
    return factory, name, [str(w.message) for w in caught]


def check_gpio(data_dir: Path) -> dict[str, Any]:
    """Which pin library gpiozero uses, and whether the button and LED pins answer."""
    forced = os.environ.get("GPIOZERO_PIN_FACTORY")
    if not _on_a_pi() and not forced:
        libs = ", ".join(pin_libraries()) or None
        return _r("ok", f"Pas un Raspberry Pi : GPIO inutile (bibliothèques de broches : {libs or 'aucune'})",
                  f"Not a Raspberry Pi: no GPIO needed (pin libraries: {libs or 'none'})")
    try:
        import gpiozero  # noqa: F401
    except ImportError:
        return _r("warn", "gpiozero absent : pas de bouton ni de voyant sur le Pi",
                  "gpiozero missing: no button or LED on the Pi", "sudo apt install python3-gpiozero python3-lgpio",
                  "sudo apt install python3-gpiozero python3-lgpio")
    _lgpio_workdir(data_dir)
    factory, name, passed = pin_factory()
    if factory is None:
        why = "; ".join(passed[-3:])
        return _r("fail", f"Aucune bibliothèque de broches ne se charge : {why}",
                  f"No pin library loads: {why}",
                  "sudo apt install python3-lgpio (Pi 5: pip install rpi-lgpio in the venv); see docs/raspberry-pi.md",
                  "sudo apt install python3-lgpio (Pi 5 : pip install rpi-lgpio dans le venv) ; voir docs/raspberry-pi.md")
    try:
        if name != "mock" and not os.access("/dev/gpiochip0", os.R_OK | os.W_OK):
            return _r("fail", f"Pas le droit d'utiliser les GPIO (bibliothèque de broches : {name})",
                      f"No permission to use the GPIO (pin library: {name})",
                      "sudo usermod -aG gpio $USER, then log in again",
                      "sudo usermod -aG gpio $USER, puis reconnectez-vous")
        tray = GpioTray(17, 27, pin_factory=factory)
        try:
            tray.start()
        except Exception as exc:  # noqa: BLE001
            return _r("warn", f"GPIO17/27 indisponibles (bibliothèque de broches : {name}) : {exc}",
                      f"GPIO17/27 unavailable (pin library: {name}): {exc}",
                      "is `companion serve` running (it holds the pins)? else check the wiring in hardware.md",
                      "`companion serve` tourne-t-il (il tient les broches) ? sinon vérifiez le câblage (hardware.md)")
        finally:
            try:
                tray.stop()
            except Exception:  # noqa: BLE001
                pass
    finally:
        try:
            factory.close()
        except Exception:  # noqa: BLE001
            pass
    return _r("ok", f"GPIO par {name} (bibliothèque de broches de gpiozero) : bouton GPIO17, voyant GPIO27",
              f"GPIO through {name} (gpiozero's pin library): button GPIO17, LED GPIO27")
