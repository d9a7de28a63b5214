"""Tray photos on disk, in a folder of bounded size (an SD card is small).

:class:`PhotoStore` keeps JPEG files named ``<id>.jpg`` where the id is a sortable
time stamp plus a counter, so "oldest first" is name order. After each save the oldest
photos are deleted until the folder holds at most ``max_files`` photos and
``max_bytes`` bytes. The photo of a pending read is never the one evicted (it is the
newest). A photo that was evicted is simply gone: the read it belonged to keeps its
values and boxes in the log and the read record.
"""

from __future__ import annotations

import itertools
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import cv2

__all__ = ["PhotoStore", "PHOTO_ID"]

#: A photo id: what ``PhotoStore.save`` returns and ``path`` accepts.
PHOTO_ID = re.compile(r"^[0-9]{8}T[0-9]{6}-[0-9]{6}$")


class PhotoStore:
    """A folder of JPEG photos, bounded by count and by size, oldest evicted first."""

    def __init__(self, folder: str | Path, max_bytes: int = 200 * 2**20, max_files: int = 2000,
                 quality: int = 85) -> None:
        if max_bytes <= 0 or max_files <= 0:
            raise ValueError("the photo folder needs a positive size and count limit")
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.max_bytes = int(max_bytes)
        self.max_files = int(max_files)
        self.quality = int(quality)
        self._lock = threading.Lock()
        self._counter = itertools.count()
        self._index: dict[str, int] = {}
        for p in sorted(self.folder.glob("*.jpg")):
            if PHOTO_ID.match(p.stem):
                try:
                    self._index[p.stem] = p.stat().st_size
                except OSError:
                    pass
        self._total = sum(self._index.values())

    # -- reading ----------------------------------------------------------------------
    def path(self, photo_id: str) -> Path | None:
        """The file of ``photo_id``, or None (unknown, evicted or not an id)."""
        if not isinstance(photo_id, str) or not PHOTO_ID.match(photo_id):
            return None
        p = self.folder / f"{photo_id}.jpg"
        return p if p.exists() else None

    def __contains__(self, photo_id: object) -> bool:
        return isinstance(photo_id, str) and photo_id in self._index

    def __len__(self) -> int:
        return len(self._index)

    @property
    def total_bytes(self) -> int:
        return self._total

    # -- writing ----------------------------------------------------------------------
    def new_id(self) -> str:
        now = time.time()
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now))
        n = next(self._counter) % 1000
        return f"{stamp}-{int((now % 1) * 1000):03d}{n:03d}"

    def save_jpeg(self, data: bytes, photo_id: str | None = None) -> str:
        """Store already-encoded JPEG bytes; returns the photo id."""
        pid = photo_id or self.new_id()
        if not PHOTO_ID.match(pid):
            raise ValueError(f"bad photo id {pid!r}")
        tmp = self.folder / f".{pid}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, self.folder / f"{pid}.jpg")
        with self._lock:
            self._total += len(data) - self._index.get(pid, 0)
            self._index[pid] = len(data)
            self._evict(keep=pid)
        return pid

    def save(self, frame: Any, photo_id: str | None = None) -> str:
        """Encode a BGR frame (numpy array) as JPEG and store it; returns the photo id."""
        ok, buf = cv2.imencode(".jpg", frame, [int(cv2.IMWRITE_JPEG_QUALITY), self.quality])
        if not ok:
            raise ValueError("could not encode the photo as JPEG")
        return self.save_jpeg(buf.tobytes(), photo_id)

    def _evict(self, keep: str) -> None:
        for pid in sorted(self._index):
            if len(self._index) <= self.max_files and self._total <= self.max_bytes:
                return
            if pid == keep:
                continue
            try:
                (self.folder / f"{pid}.jpg").unlink()
            except FileNotFoundError:
                pass
            except OSError:
                continue
            self._total -= self._index.pop(pid)
