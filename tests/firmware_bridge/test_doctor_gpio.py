"""``companion doctor``'s GPIO check: which pin library gpiozero uses (lgpio, RPi.GPIO
itself on a Pi 4, RPi.GPIO from rpi-lgpio on a Pi 5, mock in tests)."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from firmware_bridge import doctor
from firmware_bridge.doctor import check_gpio, pin_factory, pin_libraries


@pytest.fixture
def no_pin_libraries(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("lgpio", "RPi", "RPi.GPIO"):
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed


def _fake_rpi_gpio(monkeypatch: pytest.MonkeyPatch, dist: str) -> None:
    rpi = types.ModuleType("RPi")
    gpio = types.ModuleType("RPi.GPIO")
    rpi.GPIO = gpio  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "RPi", rpi)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", gpio)
    monkeypatch.setattr("importlib.metadata.packages_distributions", lambda: {"RPi": [dist]})


def test_off_a_pi_it_lists_the_pin_libraries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             no_pin_libraries: None) -> None:
    monkeypatch.setattr(doctor, "_on_a_pi", lambda: False)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    r = check_gpio(tmp_path)
    assert r["status"] == "ok" and r["en"] == "Not a Raspberry Pi: no GPIO needed (pin libraries: none)"
    assert r["fr"] == "Pas un Raspberry Pi : GPIO inutile (bibliothèques de broches : aucune)"
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))
    _fake_rpi_gpio(monkeypatch, "rpi-lgpio")
    assert pin_libraries() == ["lgpio", "RPi.GPIO (rpi-lgpio)"]
    assert check_gpio(tmp_path)["en"].endswith("(pin libraries: lgpio, RPi.GPIO (rpi-lgpio))")


@pytest.mark.parametrize("dist, shown", [("RPi.GPIO", "RPi.GPIO"), ("rpi_lgpio", "RPi.GPIO (rpi-lgpio)")])
def test_rpi_gpio_is_told_apart_from_rpi_lgpio(monkeypatch: pytest.MonkeyPatch, no_pin_libraries: None,
                                               dist: str, shown: str) -> None:
    _fake_rpi_gpio(monkeypatch, dist)
    assert pin_libraries() == [shown]


def test_on_a_pi_it_names_the_factory_and_tries_the_pins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doctor, "_on_a_pi", lambda: True)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory, name, passed = pin_factory()
    assert type(factory).__name__ == "MockFactory" and name == "mock" and passed == []
    factory.close()
    r = check_gpio(tmp_path)
    assert r["status"] == "ok", r
    assert r["en"] == "GPIO through mock (gpiozero's pin library): button GPIO17, LED GPIO27"
    assert r["fr"].startswith("GPIO par mock ")


def test_no_pin_library_that_loads_is_a_failure_with_a_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doctor, "_on_a_pi", lambda: True)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-library")
    r = check_gpio(tmp_path)
    assert r["status"] == "fail" and r["en"].startswith("No pin library loads")
    assert "python3-lgpio" in r["fix"]


def test_lgpio_is_pointed_at_a_writable_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lgpio opens its notification pipe in the current folder at import; the doctor run
    as the service's user from a folder it cannot write must not make it fail."""
    from firmware_bridge.doctor import _lgpio_workdir

    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setattr(doctor.os, "access", lambda p, mode: str(p) != ".")
    _lgpio_workdir(tmp_path)
    assert os.environ["LG_WD"] == str(tmp_path)
    monkeypatch.setenv("LG_WD", "/somewhere/chosen")
    _lgpio_workdir(tmp_path)
    assert os.environ["LG_WD"] == "/somewhere/chosen"
