"""What ``companion serve`` starts around the table: camera, tray, Pi GPIO, roll service.

:func:`start_devices` is called by :mod:`companion.app.serve` with the parsed options (or
their environment variables) and returns a :class:`Devices` to stop at exit.

Defaults that do the right thing on a Pi (``--camera auto --tray auto --gpio auto``):

- camera: the camera module through picamera2 when installed, else ``/dev/video0``,
  else none (manual entry only);
- tray: the first USB serial port of a Pico (looked up again on every reconnect);
- GPIO: on a Raspberry Pi with gpiozero, a confirm button on GPIO17 (to ground) and a
  status LED on GPIO27 (through 330 Ω): pressing the button reads the tray now;
- the status LED (tray or GPIO) is steady when the last read went in, blinks fast while
  a read waits for the players, double-blinks when the camera could not read;
- without a tray, stillness is detected from the camera frames (four frames a second);
- ``--demo``: the demo camera (rendered trays) and the emulated tray; a "roll" button on
  the tablet shakes the emulated tray and renders a new tray for the step the game expects.

Device status goes to every tablet through ``TableService.set_device`` (a banner when a
device is disconnected; it comes back by itself).
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from firmware_bridge import open_tray
from vision import checks
from vision.calibration import calibrate
from vision.camera import Camera, resolve_camera_spec
from vision.sources import open_source
from vision.stillness import StillnessDetector

from ..errors import CameraGone, InvariantError
from vision.demo_camera import DEMO_PX_PER_MM, DemoCamera
from vision.errors import EnrollmentError

from .democam import demo_objects
from .roll_service import RollService, default_reader

__all__ = ["Devices", "start_devices", "on_a_pi", "open_camera_source"]

log = logging.getLogger("companion.roll")


def on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


@dataclass
class Devices:
    roll: RollService
    camera: Camera | None = None
    trays: list[Any] = field(default_factory=list)
    demo: bool = False
    link: Any = None  # the serial tray (None: stillness from the camera)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _rng: random.Random = field(default_factory=random.Random)

    @property
    def vision_dir(self) -> Path:
        """Where the calibration and the enrollment are kept (``vision/`` in the data folder)."""
        return Path(self.roll.folder).parent / "vision"

    def reload_reader(self) -> None:
        """A new reader for the roll service, with the saved calibration and enrollment."""
        self.roll.reader = default_reader(self.vision_dir)

    # -- what the calibration wizard asks of the camera (web.camera.CameraDesk) ---------
    def preview_jpeg(self, frame: Any) -> bytes:
        return checks.preview_jpeg(frame)

    def frame_checks(self, frame: Any) -> dict[str, Any]:
        return checks.frame_checks(frame)

    def save_calibration(self, frame: Any) -> dict[str, Any]:
        out = checks.save_calibration(self.vision_dir, frame)
        self.reload_reader()
        return out

    def enroll_face(self, frame: Any, kind: str, face: Any, box: Any = None, at: Any = None) -> dict[str, Any]:
        out = checks.enroll_face(self.vision_dir, frame, kind, face, box, at)
        self.reload_reader()
        return out

    def enrolled_views_png(self, kind: str, face: Any) -> bytes | None:
        return checks.enrolled_views_png(self.vision_dir, kind, face)

    def enrollment_progress(self) -> dict[str, Any]:
        return checks.enrollment_progress(self.vision_dir)

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(2)
        self.roll.stop()
        for tray in self.trays:
            try:
                tray.stop()
            except Exception:
                pass
        if self.camera is not None:
            self.camera.stop()

    @property
    def emulator(self) -> Any:
        for tray in self.trays:
            emu = getattr(tray, "emulator", None)
            if emu is not None:
                return emu
        return None

    def shake(self) -> dict[str, Any]:
        """Demo: render a new tray for the step the game expects and shake the emulated tray."""
        src = self.camera.source if self.camera is not None else None
        emu = self.emulator
        if src is None or (not isinstance(src, DemoCamera) and emu is None):
            raise ValueError("le bouton « lancer » demande la démo (companion serve --demo) / "
                             "the roll button needs the demo (companion serve --demo)")
        objects: list[Any] = []
        if isinstance(src, DemoCamera):
            game, state = self.roll._game()
            objects = demo_objects(game, state, self._rng)
            src.prepare(objects)
        # a recorded camera (--camera folder:PATH) shows its next photo at the next capture
        if emu is not None and getattr(self.link, "connected", False):
            emu.shake(0.2)
        else:
            demo_src = src if isinstance(src, DemoCamera) else None

            def settle_when_ready() -> None:
                if demo_src is not None:
                    demo_src.wait_ready()
                self.roll.settled()

            threading.Thread(target=settle_when_ready, daemon=True).start()
        return {"objects": [[k, v] for k, v in objects]}


def _tray_listener(service: Any, roll: RollService, name: str) -> Any:
    def listen(ev: Any) -> None:
        kind = getattr(ev, "kind", "")
        if kind == "connected":
            service.set_device(name, {"connected": True, "port": ev.port, "firmware": ev.firmware, "board": ev.board})
        elif kind == "disconnected":
            service.set_device(name, {"connected": False, "reason": ev.reason})
        elif kind == "settled":
            roll.settled()
        elif kind == "press" and getattr(ev, "button", 1) == 1:
            roll.settled()  # the confirm button: read the tray now
        elif kind == "motion":
            roll.on_tray_event(ev)
    return listen


def _stillness_loop(devs: Devices, fps: float = 4.0) -> None:
    det = StillnessDetector()
    cam = devs.camera
    if cam is None:
        raise InvariantError("the stillness loop runs only with a camera")
    while not devs._stop.wait(1.0 / fps):
        if devs.roll.busy or not cam.connected or (devs.link is not None and devs.link.connected):
            continue
        try:
            frame = cam.capture()
        except CameraGone:
            continue
        if det.feed(frame, time.monotonic()) == "settled":
            devs.roll.settled()


def open_camera_source(spec: str) -> Any:
    """A frame source for ``spec``: ``demo[:SEED]`` is the demo camera (rendered trays),
    anything else is opened by :func:`vision.sources.open_source`."""
    if spec.lower().startswith("demo"):
        _, _, arg = spec.partition(":")
        return DemoCamera(seed=int(arg) if arg else 0)
    return open_source(spec)


def start_devices(service: Any, data_dir: Path, camera: str | None = None, tray: str | None = None,
                  gpio: str | None = None, demo: bool = False, vision_dir: Path | None = None) -> Devices:
    """Open what the options name and start the roll service. Never raises for a missing
    device: it is reported to the tablets and looked for again."""
    cam_spec = camera or os.environ.get("COMPANION_CAMERA") or ("demo" if demo else "auto")
    tray_spec = tray or os.environ.get("COMPANION_TRAY") or ("emulated" if demo else "auto")
    if tray_spec.strip().lower() == "emulate":
        tray_spec = "emulated"
    gpio_spec = (gpio or os.environ.get("COMPANION_GPIO") or "auto").lower()
    vision_dir = vision_dir or data_dir / "vision"

    cam_obj: Camera | None = None
    resolved = resolve_camera_spec(cam_spec)
    if resolved is not None:
        cam_obj = Camera(resolved, opener=open_camera_source, on_status=lambda st: service.set_device("camera", st))
    roll = RollService(service, data_dir / "camera", cam_obj)
    devs = Devices(roll, cam_obj, demo=demo)
    if cam_obj is not None:
        _start_camera(service, cam_obj, roll, vision_dir)
    roll.start()
    if tray_spec.lower() not in ("none", "off", "no"):
        _start_tray(service, devs, tray_spec)
    if gpio_spec not in ("none", "off", "no") and (gpio_spec != "auto" or on_a_pi()) and not demo:
        _start_gpio(service, devs, gpio_spec)
    roll.listeners.append(_status_led(devs))
    if cam_obj is not None and not demo:
        _start_stillness(devs, cam_obj)
    return devs


def _start_camera(service: Any, cam: Camera, roll: RollService, vision_dir: Path) -> None:
    cam.start()
    if not cam.connected:
        service.set_device("camera", cam.status())
    src = cam.source
    if isinstance(src, DemoCamera):
        roll.reader = _demo_reader(src, vision_dir)


def _start_tray(service: Any, devs: Devices, tray_spec: str) -> None:
    try:
        opts = {"settle_ms": 250} if tray_spec.lower() in ("emulated", "emulator", "fake") else None
        t = open_tray(tray_spec, emulator_options=opts)
    except Exception as exc:
        log.warning("tray %s not used: %s", tray_spec, exc)
        service.set_device("tray", {"connected": False, "message": str(exc)})
        return
    if t is None:
        return
    t.subscribe(_tray_listener(service, devs.roll, "tray"))
    if tray_spec.lower() != "auto":
        service.set_device("tray", {"connected": False, "message": "connecting"})
    try:
        t.start()
        devs.trays.append(t)
        devs.link = t
    except Exception as exc:
        service.set_device("tray", {"connected": False, "message": str(exc)})


def _start_gpio(service: Any, devs: Devices, gpio_spec: str) -> None:
    try:
        g = open_tray("gpio" if gpio_spec == "auto" else gpio_spec)
        if g is not None:
            g.subscribe(_tray_listener(service, devs.roll, "gpio"))
            g.start()
            devs.trays.append(g)
    except Exception as exc:
        log.warning("GPIO button not used: %s", exc)


def _status_led(devs: Devices) -> Callable[[dict[str, Any]], None]:
    """The status LED of every connected tray (and GPIO) after each read."""
    def led(rec: dict[str, Any]) -> None:
        pattern = {"pending": "fast", "refused": "fast", "error": "double"}.get(str(rec.get("status")), "on")
        for tr in devs.trays:
            setter = getattr(tr, "set_status", None)
            if setter is not None and getattr(tr, "connected", False):
                setter(pattern)

    return led


def _start_stillness(devs: Devices, cam: Camera) -> None:
    if isinstance(cam.source, DemoCamera):
        cam.source.hand_frames = 2  # the motion a hand over the tray makes
    th = threading.Thread(target=_stillness_loop, args=(devs,), name="stillness", daemon=True)
    th.start()
    devs._threads.append(th)


def _demo_reader(src: Any, vision_dir: Path) -> Any:
    """The demo camera's pose never changes: calibrate once from its empty tray. Its
    gems are read by their own colours (:meth:`DemoCamera.gem_colours`, the reader's
    ``house_gems``, taught the first time gems are read) until the players teach theirs
    in the wizard."""
    # the top-down image at about the camera's own scale (the demo tray is ~3.4 px/mm in
    # the frame): upsampling to the default 4 px/mm costs a third more time for nothing
    cal = calibrate(src.background, px_per_mm=DEMO_PX_PER_MM)
    try:
        cal.save(vision_dir)
    except OSError:
        pass
    def house() -> dict[str, Any]:  # asked the first time gems are read, not at start (1 s)
        try:
            return dict(src.gem_colours())
        except EnrollmentError as exc:  # the shipped colours then: the demo still runs
            log.warning("demo gem colours not taught: %s", exc)
            return {}

    return default_reader(vision_dir, calibration=cal, house_gems=house)
