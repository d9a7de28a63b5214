"""The tray emulator: the reference firmware on simulated pins behind a pseudo-terminal.

The host opens :attr:`TrayEmulator.port` exactly as it opens a real tray: a symlink kept
in a folder, standing for ``/dev/serial/by-id/usb-MicroPython_Board_...``, that points
at the current ``/dev/pts/N``. Tests and the demo drive the tray's "hardware" (shake it,
press buttons), and its mishaps: :meth:`~TrayEmulator.unplug` closes the pseudo-terminal
and removes the symlink (the host sees the same I/O error as when a USB cable is pulled),
:meth:`~TrayEmulator.plug` opens a new one (the firmware boots again), ``go_silent``
hangs the firmware, ``inject`` and ``line_noise`` corrupt the line.

All firmware code runs on one thread owned by the emulator; the public methods are
thread-safe and hand their work to it.
"""

from __future__ import annotations

import heapq
import itertools
import os
import queue
import random
import select
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Callable

from .firmware.tray import Tray
from .simboard import SimBoard

__all__ = ["TrayEmulator", "PtyBoard"]

SHAKE_PULSE_S = 0.04  # a shaken tray gives the motion sensor a pulse this often


class PtyBoard(SimBoard):
    """A :class:`SimBoard` whose serial line is the master side of a pseudo-terminal."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.fd: int | None = None
        self.noise = 0.0
        self.rng = rng
        self.on_write: Callable[[bytes], None] | None = None

    def _corrupt(self, data: bytes) -> bytes:
        if not data or self.noise <= 0 or self.rng.random() >= self.noise:
            return data
        b = bytearray(data)
        i = self.rng.randrange(len(b))
        what = self.rng.randrange(3)
        if what == 0:
            b[i] ^= 1 << self.rng.randrange(8)
        elif what == 1:
            b[i:i] = bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 8)))
        else:
            del b[i]
        return bytes(b)

    def read(self) -> bytes:
        if self.fd is None:
            return b""
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # nothing to read (EAGAIN), or no host side
            return b""
        return self._corrupt(data)

    def write(self, data: bytes) -> None:
        if self.fd is None:
            return
        if self.on_write is not None:
            self.on_write(data)
        try:
            os.write(self.fd, self._corrupt(data))
        except OSError:  # buffer full with nobody reading: a USB CDC port drops it too
            pass


class TrayEmulator:
    """An emulated tray on a pseudo-terminal.

    ``directory`` holds the stable symlink (default: a new temporary folder); ``name`` is
    its file name. Firmware settings (``settle_ms``, ``debounce_ms``, ``hb_ms``,
    ``host_timeout_ms``, ``ack_ms``, ``retries``) are passed to the firmware. ``seed``
    makes line noise reproducible.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, name: str = "tray", *,
                 settle_ms: int = 800, debounce_ms: int = 20, hb_ms: int = 500,
                 host_timeout_ms: int = 2000, ack_ms: int = 250, retries: int = 8,
                 seed: int | None = None) -> None:
        self._own_dir = directory is None
        self._dir = Path(tempfile.mkdtemp(prefix="companion-tray-")) if directory is None else Path(directory)
        self._link = self._dir / name
        self.firmware_settings = dict(settle_ms=settle_ms, debounce_ms=debounce_ms, hb_ms=hb_ms,
                                      host_timeout_ms=host_timeout_ms, ack_ms=ack_ms, retries=retries)
        self.board = PtyBoard(random.Random(seed))
        self.tray: Tray | None = None
        self.deliveries: list[tuple[str, tuple[object, ...], bool]] = []
        self.boots = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._device: str | None = None
        self._silent = False
        self._requests: queue.Queue[tuple[Callable[[], object], threading.Event]] = queue.Queue()
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._counter = itertools.count()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._stepped = threading.Condition()

    # -- life cycle -----------------------------------------------------------------------
    def start(self) -> "TrayEmulator":
        """Plug the tray in and start the firmware thread."""
        if self._thread is not None:
            return self
        self._do_plug()
        self._thread = threading.Thread(target=self._loop, name="tray-emulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the firmware, close the pseudo-terminal, remove the symlink."""
        if self._thread is not None:
            self._stopping = True
            self._wake()
            self._thread.join(timeout=5)
            self._thread = None
        self._do_unplug()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_r = self._wake_w = -1
        if self._own_dir:
            try:
                self._dir.rmdir()
            except OSError:
                pass

    def __enter__(self) -> "TrayEmulator":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what the host sees ---------------------------------------------------------------
    @property
    def port(self) -> str:
        """The stable path to open (a symlink to the current pseudo-terminal)."""
        return str(self._link)

    @property
    def device(self) -> str | None:
        """The current ``/dev/pts/N``, or None while unplugged."""
        return self._device

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def light(self) -> tuple[int, int, int, int]:
        """The LED ring: (level, r, g, b)."""
        return self.board.ring

    @property
    def status_led(self) -> bool:
        return self.board.status

    @property
    def pattern(self) -> str | None:
        """The status pattern the host asked for (None while unplugged)."""
        return self.tray.pattern if self.tray else None

    @property
    def host_present(self) -> bool:
        """The firmware believes a host is listening."""
        return bool(self.tray and self.tray.host)

    def wait_for(self, pred: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Block until ``pred()`` is true (False after ``timeout`` s). It is checked after
        every step of the firmware thread (at least ten a second), so a test waits on what
        the tray shows (``lambda: emu.light == (42, 1, 2, 3)``), never on a guessed delay."""
        with self._stepped:
            return self._stepped.wait_for(pred, timeout)

    # -- hardware -------------------------------------------------------------------------
    def shake(self, duration: float = 0.0) -> None:
        """The dice hit the tray: one motion pulse now, then one every 40 ms for ``duration`` s."""
        def start() -> None:
            self.board.pulses += 1
            end = time.monotonic() + duration
            t = time.monotonic() + SHAKE_PULSE_S
            while t < end:
                self._at(t, self._pulse)
                t += SHAKE_PULSE_S
        self._call(start)

    def _pulse(self) -> None:
        self.board.pulses += 1

    def press(self, button: int = 1) -> None:
        self._call(lambda: self.board.pressed.__setitem__(button, True))

    def release(self, button: int = 1) -> None:
        self._call(lambda: self.board.pressed.__setitem__(button, False))

    def click(self, button: int = 1, hold: float = 0.08) -> None:
        """Press now, release after ``hold`` seconds (returns at once).

        The release waits, if need be, until the firmware has taken the press (held for
        its debounce time): a finger holds a button for real time, so a firmware thread
        stalled by a busy machine must not see a click shorter than its debounce.
        """
        def release() -> None:
            tray = self.tray
            if tray is not None and not self._silent:
                state = tray.buttons.get(button)
                if state is not None and not state[0]:  # the press is not taken yet: hold on
                    self._at(time.monotonic() + tray.debounce_ms / 1000, release)
                    return
            self.board.pressed[button] = False

        def start() -> None:
            self.board.pressed[button] = True
            self._at(time.monotonic() + hold, release)
        self._call(start)

    # -- mishaps --------------------------------------------------------------------------
    def unplug(self) -> None:
        """Pull the USB cable: the port disappears and the firmware loses power."""
        self._call(self._do_unplug)

    def plug(self) -> None:
        """Plug it back: a new pseudo-terminal, the symlink updated, the firmware boots."""
        self._call(self._do_plug)

    def reset(self) -> None:
        """Reboot the firmware (watchdog, reset button) without unplugging."""
        self._call(self._boot)

    def go_silent(self) -> None:
        """Hang the firmware: it stops talking and listening, the port stays."""
        self._call(lambda: setattr(self, "_silent", True))

    def resume(self) -> None:
        """Un-hang the firmware (it carries on where it was)."""
        self._call(lambda: setattr(self, "_silent", False))

    def inject(self, data: bytes) -> None:
        """Write raw bytes (garbage, a half frame) to the host now."""
        self._call(lambda: self.board.write(data))

    @property
    def line_noise(self) -> float:
        return self.board.noise

    @line_noise.setter
    def line_noise(self, probability: float) -> None:
        """Corrupt each chunk of bytes, in both directions, with this probability."""
        self.board.noise = float(probability)

    def set_on_write(self, hook: Callable[[bytes], None] | None) -> None:
        """Call ``hook(frame_bytes)`` just before the firmware writes to the line (benchmarks)."""
        self.board.on_write = hook

    # -- the firmware thread ---------------------------------------------------------------
    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def _call(self, fn: Callable[[], object]) -> None:
        thread = self._thread
        if thread is None or threading.current_thread() is thread:
            fn()
            return
        done = threading.Event()
        self._requests.put((fn, done))
        self._wake()
        done.wait(timeout=5)

    def _at(self, when: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._timers, (when, next(self._counter), fn))

    def _boot(self) -> None:
        self.boots += 1
        tray = Tray(self.board, **self.firmware_settings)
        tray.on_delivery = lambda name, args, acked: self.deliveries.append((name, tuple(args), acked))
        self.tray = tray

    def _do_plug(self) -> None:
        if self._master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: like a USB CDC device
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._device = os.ttyname(slave)
        tmp = self._link.with_name(self._link.name + ".new")
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
        os.symlink(self._device, tmp)
        os.replace(tmp, self._link)
        self.board.fd = master
        self._silent = False
        self._boot()

    def _do_unplug(self) -> None:
        try:
            self._link.unlink()
        except FileNotFoundError:
            pass
        self.board.fd = None
        self.tray = None
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
        self._device = None

    def _loop(self) -> None:
        while not self._stopping:
            while True:
                try:
                    fn, done = self._requests.get_nowait()
                except queue.Empty:
                    break
                try:
                    fn()
                finally:
                    done.set()
            now = time.monotonic()
            while self._timers and self._timers[0][0] <= now:
                heapq.heappop(self._timers)[2]()
            wait = 0.1
            if self.tray is not None and not self._silent:
                wait = self.tray.tick() / 1000.0
            elif self._master is not None:
                self.board.read()  # a hung firmware: what the host sends is lost
            if self._timers:
                wait = min(wait, self._timers[0][0] - time.monotonic())
            with self._stepped:  # the firmware has taken a step: let waiters look again
                self._stepped.notify_all()
            fds = [self._wake_r] + ([self._master] if self._master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], max(0.0, wait))
            except (OSError, ValueError):
                continue
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 4096)
                except OSError:
                    pass
