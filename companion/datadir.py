"""The table's data folder: ``$COMPANION_DATA``, else the per-user data folder
(e.g. ``~/.local/share/table-companion``). ``companion serve``, the storage commands
(backup, restore, recover, stats) and ``companion vision`` all use it, so the log, the
calibration and the enrollment one command makes are the ones the others read.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_data_dir"]


def default_data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA")
    if env:
        return Path(env)
    try:
        # Imported here: platformdirs is only needed when no folder is given.
        from platformdirs import user_data_dir

        return Path(user_data_dir("table-companion", appauthor=False))
    except ImportError:  # pragma: no cover
        return Path.home() / ".local" / "share" / "table-companion"
