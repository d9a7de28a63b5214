"""The camera as the roll service sees it: opened by spec, re-opened after an unplug.

:class:`Camera` wraps a ``vision.sources`` frame source. ``capture()`` returns a BGR
frame or raises :class:`CameraGone`; a failed capture closes the source and a background
thread tries to open it again with back-off (0.5 s doubling to 5 s), calling
``on_status({"connected": bool, ...})`` on every change, so every tablet shows a banner
while the camera is away and manual entry keeps working.

Spec ``auto`` (the default of ``companion serve``): ``picamera2`` when the library is
installed (a Pi with a camera module), else ``usb:0`` when ``/dev/video0`` exists, else
no camera. ``none`` means no camera. The application layer passes the ``opener`` that
knows ``demo`` (:func:`companion.app.wiring.open_camera_source`); the default opener is
:func:`vision.sources.open_source`.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from typing import Any, Callable

from companion.errors import CameraGone

from .sources import open_source

__all__ = ["Camera", "CameraGone", "resolve_camera_spec"]


def resolve_camera_spec(spec: str | None) -> str | None:
    """The concrete source spec for ``spec`` (``auto`` resolved), or None for no camera."""
    spec = (spec or os.environ.get("COMPANION_CAMERA") or "auto").strip()
    low = spec.lower()
    if low in ("none", "off", "no"):
        return None
    if low == "auto":
        if importlib.util.find_spec("picamera2") is not None:
            return "picamera2"
        if os.path.exists("/dev/video0"):
            return "usb:0"
        return None
    return spec


class Camera:
    def __init__(self, spec: str, opener: Callable[[str], Any] | None = None,
                 on_status: Callable[[dict[str, Any]], None] | None = None,
                 backoff: tuple[float, float] = (0.5, 5.0)) -> None:
        self.spec = spec
        self._opener = opener or open_source
        self._on_status = on_status or (lambda st: None)
        self._backoff = backoff
        self._lock = threading.Lock()
        self._source: Any = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.error = ""
        self.captures = 0

    @property
    def connected(self) -> bool:
        return self._source is not None

    @property
    def source(self) -> Any:
        return self._source

    def start(self) -> "Camera":
        self._try_open()
        self._thread = threading.Thread(target=self._run, name="camera-reopen", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(2)
        with self._lock:
            src, self._source = self._source, None
        if src is not None:
            try:
                src.close()
            except Exception:
                pass

    def status(self) -> dict[str, Any]:
        return {"connected": self.connected, "spec": self.spec, "message": self.error}

    def _try_open(self) -> bool:
        try:
            src = self._opener(self.spec)
        except Exception as exc:  # CameraError, OSError, a driver's own errors
            self.error = str(exc) or type(exc).__name__
            return False
        with self._lock:
            self._source = src
        self.error = ""
        self._on_status(self.status())
        return True

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            if self._source is not None:
                self._wake.wait(1.0)
                self._wake.clear()
                delay = self._backoff[0]
                continue
            if self._try_open():
                continue
            self._stop.wait(delay)
            delay = min(self._backoff[1], delay * 2)

    def capture(self) -> Any:
        """One frame (BGR numpy array). Raises :class:`CameraGone`."""
        with self._lock:
            src = self._source
            if src is None:
                raise CameraGone(self.error or "camera not connected")
            try:
                frame = src.read()
                if frame is None:
                    raise CameraGone("the camera gave no frame")
                self.captures += 1
                return frame
            except Exception as exc:
                self._source = None
                self.error = str(exc) or type(exc).__name__
                try:
                    src.close()
                except Exception:
                    pass
        self._on_status(self.status())
        self._wake.set()
        raise CameraGone(self.error)
