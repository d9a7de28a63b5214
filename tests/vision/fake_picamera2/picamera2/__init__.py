"""A stand-in for Raspberry Pi OS's ``picamera2`` (python3-picamera2), for tests off the Pi.

Put this folder's parent on ``sys.path`` and ``from picamera2 import Picamera2`` finds
it, so :class:`vision.sources.PiCameraSource` runs its real code, lazy import included.
The names, arguments and return shapes follow picamera2 0.3 (the Raspberry Pi OS
Bookworm package): ``Picamera2(camera_num)``, ``Picamera2.global_camera_info()``,
``create_still_configuration(main=..., ...)``, ``configure``, ``start``,
``capture_array(name)``, ``capture_metadata``, ``set_controls``, ``stop``, ``close``.
Unlike the real one, it refuses calls out of order (capture before start, configure
after start, anything after close) with ``RuntimeError``, so a wrong call sequence in
the source fails the test instead of hanging a real camera.

Knobs for tests (module attributes): ``CAMERAS`` (what ``global_camera_info`` lists),
``FRAME`` (the H x W x 3 BGR array every capture returns; it must have the configured
size; None = a generated gradient), ``FAIL_START`` (an exception
``start`` raises), ``INSTANCES`` (every camera made, to look at ``calls`` afterwards).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Picamera2"]

CAMERAS: list[dict[str, Any]] = [
    {"Model": "imx477", "Location": 2, "Rotation": 180, "Id": "/base/soc/i2c0mux/i2c@1/imx477@1a", "Num": 0},
]
FRAME: np.ndarray | None = None
FAIL_START: Exception | None = None
INSTANCES: list["Picamera2"] = []

#: formats and their channels in capture_array (RGB888 is B, G, R in memory, as OpenCV wants)
_FORMATS = {"RGB888": 3, "BGR888": 3, "XRGB8888": 4, "XBGR8888": 4}
_SENSOR_MAX = (4056, 3040)  # the HQ camera's full resolution


class Picamera2:
    def __init__(self, camera_num: int = 0, verbose_console: int | None = None, tuning: Any = None,
                 allocator: Any = None) -> None:
        if camera_num >= len(CAMERAS):
            raise IndexError("list index out of range")  # what the real one raises
        self.camera_num = camera_num
        self.calls: list[str] = ["__init__"]
        self.config: dict[str, Any] | None = None
        self.started = False
        self.closed = False
        self.controls: dict[str, Any] = {}
        self.metadata: dict[str, Any] = {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.9, 1.6),
                                         "Lux": 400.0, "SensorTimestamp": 0}
        INSTANCES.append(self)

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return [dict(c) for c in CAMERAS]

    def _alive(self, what: str) -> None:
        if self.closed:
            raise RuntimeError(f"{what} on a closed camera")
        self.calls.append(what)

    def create_still_configuration(self, main: dict[str, Any] | None = None, lores: dict[str, Any] | None = None,
                                   raw: dict[str, Any] | None = None, transform: Any = None,
                                   colour_space: Any = None, buffer_count: int = 1,
                                   controls: dict[str, Any] | None = None, display: str | None = None,
                                   encode: str | None = None, queue: bool = True,
                                   sensor: dict[str, Any] | None = None, use_case: str = "still") -> dict[str, Any]:
        self._alive("create_still_configuration")
        main = dict(main or {})
        main.setdefault("format", "BGR888")
        main.setdefault("size", _SENSOR_MAX)
        if main["format"] not in _FORMATS:
            raise ValueError(f"Format {main['format']} not supported")  # the real one's wording
        w, h = main["size"]
        if not (64 <= w <= _SENSOR_MAX[0] and 64 <= h <= _SENSOR_MAX[1]):
            raise ValueError(f"size {main['size']} outside the sensor")
        return {"use_case": use_case, "main": main, "lores": lores, "raw": raw, "transform": transform,
                "colour_space": colour_space, "buffer_count": buffer_count, "controls": dict(controls or {}),
                "display": display, "encode": encode, "queue": queue, "sensor": dict(sensor or {})}

    def configure(self, camera_config: dict[str, Any] | str | None = None) -> None:
        self._alive("configure")
        if self.started:
            raise RuntimeError("Camera must be stopped before configuring")
        if not isinstance(camera_config, dict) or "main" not in camera_config:
            raise RuntimeError("configure needs a configuration from create_*_configuration")
        self.config = camera_config

    def start(self, config: dict[str, Any] | None = None, show_preview: bool = False) -> None:
        self._alive("start")
        if self.config is None:
            raise RuntimeError("Camera has not been configured")
        if FAIL_START is not None:
            raise FAIL_START
        self.started = True

    def capture_array(self, name: str = "main", wait: Any = None, signal_function: Any = None) -> np.ndarray:
        self._alive("capture_array")
        if not self.started:
            raise RuntimeError("Camera is not running")  # the real one would wait for ever
        assert self.config is not None
        stream = self.config.get(name)
        if not stream:
            raise KeyError(name)
        w, h = stream["size"]
        channels = _FORMATS[stream["format"]]
        if FRAME is not None:
            if FRAME.shape[:2] != (h, w):
                raise RuntimeError(f"test FRAME is {FRAME.shape[1]}x{FRAME.shape[0]}, the camera gives {w}x{h}")
            frame = FRAME
        else:
            yy, xx = np.mgrid[0:h, 0:w]
            frame = np.dstack([(xx * 255 // max(1, w - 1)), (yy * 255 // max(1, h - 1)),
                               np.full((h, w), 128)]).astype(np.uint8)
        if channels == 4:
            frame = np.dstack([frame, np.full(frame.shape[:2], 255, np.uint8)])
        self.metadata["SensorTimestamp"] += 1
        return frame.copy()

    def capture_metadata(self, wait: Any = None, signal_function: Any = None) -> dict[str, Any]:
        self._alive("capture_metadata")
        if not self.started:
            raise RuntimeError("Camera is not running")
        return dict(self.metadata)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self._alive("set_controls")
        self.controls.update(controls)
        if controls.get("AeEnable") is False and "ExposureTime" in controls:
            self.metadata["ExposureTime"] = controls["ExposureTime"]

    def stop(self) -> None:
        self._alive("stop")
        self.started = False

    def close(self) -> None:
        if not self.closed:
            self.calls.append("close")
        self.started = False
        self.closed = True
