"""deploy/: the systemd units as the installer renders them, and the installer's own
refusals. The full install runs in deploy/check-arm64.sh (an arm64 root, as root)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _render(template: Path, out: Path, prefix: Path, data: Path) -> Path:
    """The installer's substitution (its sed line), done the same way."""
    values = {"@PREFIX@": str(prefix), "@DATA@": str(data), "@USER@": "companion", "@PORT@": "8080",
              "@GROUPS@": "video dialout", "@CHROMIUM@": "/usr/bin/chromium"}
    text = template.read_text(encoding="utf-8")
    for k, v in values.items():
        text = text.replace(k, v)
    out.write_text(text, encoding="utf-8")
    return out


def _directives(unit: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", "[")) and "=" in line:
            k, _, v = line.partition("=")
            found.setdefault(k, []).append(v)
    return found


def test_the_service_is_hardened_and_only_the_data_folder_is_writable(tmp_path: Path) -> None:
    unit = _render(DEPLOY / "companion.service", tmp_path / "companion.service", Path("/opt/companion"),
                   Path("/var/lib/companion"))
    d = _directives(unit)
    assert "@" not in unit.read_text(encoding="utf-8").split("[Unit]", 1)[1]  # every value filled in
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "PrivateTmp": "yes",
                       "ProtectHome": "yes", "Restart": "on-failure", "StandardOutput": "journal",
                       "StandardError": "journal", "User": "companion",
                       "ReadWritePaths": "/var/lib/companion"}.items():
        assert d.get(key) == [value], key
    assert d["ExecStart"] == ["/opt/companion/.venv/bin/python -m companion serve --port 8080 --data /var/lib/companion"]
    assert "PrivateDevices" not in d  # camera, serial port and GPIO chips must stay visible
    assert d["WantedBy"] == ["multi-user.target"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
@pytest.mark.parametrize("name", ["companion.service", "companion-kiosk.service"])
def test_systemd_analyze_verify_accepts_the_rendered_units(tmp_path: Path, name: str) -> None:
    prefix = tmp_path / "opt"
    (prefix / ".venv" / "bin").mkdir(parents=True)
    python = prefix / ".venv" / "bin" / "python"
    python.write_text("#!/bin/sh\n", encoding="utf-8")
    python.chmod(0o755)
    unit = _render(DEPLOY / name, tmp_path / name, prefix, tmp_path / "data")
    if name == "companion-kiosk.service" and not Path("/usr/bin/cage").exists():
        text = unit.read_text(encoding="utf-8").replace("/usr/bin/cage", str(python))
        unit.write_text(text, encoding="utf-8")
    res = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    # verify also reports on unrelated units of this machine; only lines about ours count
    ours = [ln for ln in (res.stdout + res.stderr).splitlines() if name in ln]
    assert not ours, ours


def test_the_installer_parses_and_refuses_bad_options() -> None:
    for script in ("install.sh", "check-arm64.sh", "check-arm64-inside.sh"):
        shell = "sh" if script == "install.sh" else "bash"
        assert subprocess.run([shell, "-n", str(DEPLOY / script)]).returncode == 0, script
    res = subprocess.run(["sh", str(DEPLOY / "install.sh"), "--port", "80a"], capture_output=True, text=True)
    assert res.returncode == 1 and "--port must be a number" in res.stderr
    res = subprocess.run(["sh", str(DEPLOY / "install.sh"), "--bogus"], capture_output=True, text=True)
    assert res.returncode == 1 and "unknown option --bogus" in res.stderr
    res = subprocess.run(["sh", str(DEPLOY / "install.sh"), "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "--uninstall" in res.stdout and "set -eu" not in res.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="this checks the refusal as a plain user")
def test_the_installer_wants_root() -> None:
    res = subprocess.run(["sh", str(DEPLOY / "install.sh")], capture_output=True, text=True)
    assert res.returncode == 1 and "run it as root" in res.stderr
