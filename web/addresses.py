"""This machine's addresses on the local network, for the tablets: printed by
``companion serve``, shown on the Pi's welcome page, checked by ``companion doctor``."""

from __future__ import annotations

import socket
import subprocess

__all__ = ["lan_addresses"]


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses other than loopback (best effort, no traffic sent)."""
    addrs: list[str] = []
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
        addrs = [a for a in out.split() if "." in a and not a.startswith("127.")]
    except (OSError, subprocess.SubprocessError):
        pass
    if not addrs:
        try:
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
                ip = str(info[4][0])
                if not ip.startswith("127.") and ip not in addrs:
                    addrs.append(ip)
        except OSError:
            pass
    return addrs
