"""Frame sources: where camera frames come from, behind one small interface.

``open_source(spec)`` picks one by name (argument first, then the ``COMPANION_CAMERA``
environment variable, then ``synthetic``):

* ``picamera2`` (or ``picamera2:N``): the Raspberry Pi camera module through libcamera
  (``sudo apt install python3-picamera2``; OpenCV cannot open it). Wiring: the camera's
  ribbon cable in the Pi's CAM/DISP port nearest the Ethernet jack (Pi 5: CAM0 or CAM1,
  with the 22-pin cable), contacts facing the board on a Pi 4, facing the Ethernet jack
  on a Pi 5; mount it 35-45 cm above the tray, looking straight down.
* ``usb:N``: a USB webcam by index through OpenCV ``VideoCapture`` (``/dev/videoN``).
* ``folder:PATH``: the images of a folder in name order (replay, tests, the demo); loops.
* ``synthetic[:SEED]``: rendered trays (:mod:`vision.synth`), a new tray each frame.

Every source gives BGR ``uint8`` frames from ``read()``, has ``close()`` and works as a
context manager. ``lock_exposure()`` freezes exposure and white balance at their current
values (call it once the picture is right, before calibrating: the background photo and
every later frame must be taken with the same settings).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Protocol, Self, runtime_checkable

import numpy as np

from .errors import CameraError, CameraNotFoundError

__all__ = ["FrameSource", "open_source", "PiCameraSource", "USBSource", "FolderSource", "SyntheticSource",
           "ENV_VAR", "IMAGE_SUFFIXES"]

ENV_VAR = "COMPANION_CAMERA"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


@runtime_checkable
class FrameSource(Protocol):
    """What the reader needs from a camera."""

    name: str

    def read(self) -> np.ndarray: ...

    def lock_exposure(self) -> dict[str, Any]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


class _Base:
    name = "source"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:  # pragma: no cover - overridden
        pass

    def lock_exposure(self) -> dict[str, Any]:
        """Nothing to lock on a recorded or rendered source."""
        return {}


class PiCameraSource(_Base):
    """The Raspberry Pi camera module via picamera2 (imported here, not at module load)."""

    def __init__(self, index: int = 0, size: tuple[int, int] = (2028, 1520), warmup_s: float = 1.0) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            raise CameraNotFoundError(
                "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
                "(and create the virtualenv with --system-site-packages)") from None
        try:
            info = Picamera2.global_camera_info()
        except Exception as exc:  # noqa: BLE001 - libcamera errors have no common base
            raise CameraError(f"libcamera failed: {exc}") from None
        if index >= len(info):
            raise CameraNotFoundError(f"no Pi camera at index {index} ({len(info)} found): check the ribbon cable")
        try:
            self._cam = Picamera2(index)
            # RGB888 is BGR byte order in memory: what OpenCV expects
            cfg = self._cam.create_still_configuration(main={"size": size, "format": "RGB888"})
            self._cam.configure(cfg)
            self._cam.start()
        except Exception as exc:  # noqa: BLE001
            raise CameraError(f"cannot start the Pi camera: {exc}") from None
        time.sleep(warmup_s)  # let auto-exposure settle before anyone locks it
        self.name = f"picamera2:{index}"

    def read(self) -> np.ndarray:
        try:
            return np.ascontiguousarray(self._cam.capture_array("main")[..., :3])
        except Exception as exc:  # noqa: BLE001
            raise CameraError(f"Pi camera stopped giving frames: {exc}") from None

    def lock_exposure(self) -> dict[str, Any]:
        md = self._cam.capture_metadata()
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False,
                    "ExposureTime": int(md.get("ExposureTime", 10000)),
                    "AnalogueGain": float(md.get("AnalogueGain", 1.0))}
        if "ColourGains" in md:
            controls["ColourGains"] = tuple(md["ColourGains"])
        self._cam.set_controls(controls)
        return controls

    def close(self) -> None:
        cam = getattr(self, "_cam", None)
        if cam is not None:
            try:
                cam.stop()
                cam.close()
            finally:
                self._cam = None


class USBSource(_Base):
    """A USB webcam through OpenCV (V4L2 on Linux)."""

    def __init__(self, index: int = 0, size: tuple[int, int] | None = (1920, 1080), capture: Any = None) -> None:
        import cv2

        cap = capture if capture is not None else cv2.VideoCapture(index)
        if cap is None or not cap.isOpened():
            raise CameraNotFoundError(f"no USB camera at index {index} (/dev/video{index}): is it plugged in?")
        if size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        ok, frame = cap.read()
        if not ok or frame is None:
            cap.release()
            raise CameraNotFoundError(f"USB camera {index} opened but gives no frame")
        self._cap = cap
        self.name = f"usb:{index}"

    def read(self) -> np.ndarray:
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"{self.name} stopped giving frames (unplugged?)")
        return frame

    def lock_exposure(self) -> dict[str, Any]:
        """Manual exposure and white balance where the driver allows (V4L2: auto
        exposure 1 = manual, 3 = aperture priority); returns what was applied."""
        import cv2

        applied: dict[str, Any] = {}
        exposure = self._cap.get(cv2.CAP_PROP_EXPOSURE)
        if self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1):
            applied["auto_exposure"] = 1
            if exposure and self._cap.set(cv2.CAP_PROP_EXPOSURE, exposure):
                applied["exposure"] = exposure
        wb = self._cap.get(cv2.CAP_PROP_WB_TEMPERATURE)
        if self._cap.set(cv2.CAP_PROP_AUTO_WB, 0):
            applied["auto_wb"] = 0
            if wb and self._cap.set(cv2.CAP_PROP_WB_TEMPERATURE, wb):
                applied["wb_temperature"] = wb
        return applied

    def close(self) -> None:
        cap = getattr(self, "_cap", None)
        if cap is not None:
            cap.release()
            self._cap = None


class FolderSource(_Base):
    """The images of a folder in name order, looping (``loop=False`` stops at the end)."""

    def __init__(self, folder: Path | str, loop: bool = True) -> None:
        folder = Path(folder)
        if not folder.is_dir():
            raise CameraNotFoundError(f"no such folder: {folder}")
        self.files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraNotFoundError(f"no images in {folder} ({', '.join(IMAGE_SUFFIXES)})")
        self.loop = loop
        self.index = 0
        self.name = f"folder:{folder}"
        self.current: Path | None = None

    def read(self) -> np.ndarray:
        import cv2

        if self.index >= len(self.files):
            if not self.loop:
                raise CameraError(f"{self.name}: no more images")
            self.index = 0
        path = self.files[self.index]
        self.index += 1
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise CameraError(f"cannot read {path}")
        self.current = path
        return img

    def close(self) -> None:
        self.index = 0


class SyntheticSource(_Base):
    """Rendered trays; ``scene`` holds the last one (with its ground truth)."""

    def __init__(self, seed: int = 0, empty_first: bool = False, **render_kw: Any) -> None:
        self.seed = seed
        self.empty_first = empty_first
        self.render_kw = render_kw
        self.scene: Any = None
        self.name = f"synthetic:{seed}"

    def read(self) -> np.ndarray:
        from .synth import render_tray

        self.scene = render_tray(self.seed, **self.render_kw)
        if self.empty_first:
            self.empty_first = False
            if self.scene.background is None:
                raise CameraError(f"{self.name}: the synthetic scene has no empty-tray frame")
            return np.asarray(self.scene.background, np.uint8)
        self.seed += 1
        return np.asarray(self.scene.image, np.uint8)

    def close(self) -> None:
        self.scene = None


def open_source(spec: str | None = None) -> FrameSource:
    """Open a source from ``spec`` (see the module docstring), ``$COMPANION_CAMERA``, or
    ``synthetic``. Raises :class:`CameraNotFoundError` with a readable reason."""
    spec = spec or os.environ.get(ENV_VAR) or "synthetic"
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    try:
        if name == "picamera2":
            return PiCameraSource(int(arg) if arg else 0)
        if name == "usb":
            return USBSource(int(arg) if arg else 0)
        if name == "folder":
            if not arg:
                raise CameraError("folder source needs a path: folder:PATH")
            return FolderSource(arg)
        if name == "synthetic":
            return SyntheticSource(int(arg) if arg else 0)
    except ValueError as exc:
        if isinstance(exc, CameraError):
            raise
        raise CameraError(f"bad camera spec {spec!r}: {exc}") from None
    raise CameraError(f"unknown camera {spec!r}: use picamera2, usb:N, folder:PATH or synthetic[:SEED]")
