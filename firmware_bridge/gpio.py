"""A table without the tray's microcontroller: a confirm button and a status LED on the Pi's GPIO.

:class:`GpioTray` speaks to the server exactly like :class:`~firmware_bridge.link.TrayLink`
(``start``, ``stop``, ``subscribe``, ``send``, ``connected``) and delivers the same
:class:`~firmware_bridge.events.ButtonPressed` / ``ButtonReleased`` events; it has no
motion sensor and no LED ring, so it never says "settled" and ``Light`` is refused.

It uses gpiozero, which picks the pin library itself: lgpio (Raspberry Pi OS Bookworm,
every Pi including the Pi 5), RPi.GPIO on older systems (``rpi-lgpio`` provides RPi.GPIO
on a Pi 5); ``GPIOZERO_PIN_FACTORY`` overrides the choice. Tests pass
``gpiozero.pins.mock.MockFactory()`` as ``pin_factory``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from . import protocol as p
from .errors import TrayError
from .events import (ButtonPressed, ButtonReleased, Subscriber, Subscribers, TrayConnected, TrayDisconnected,
                     TrayEvent)

__all__ = ["GpioTray", "StatusLed", "LED_PATTERNS"]

log = logging.getLogger(__name__)

#: Status LED patterns: (on, seconds) steps, repeated. Same names and timings as the tray firmware.
LED_PATTERNS: dict[str, tuple[tuple[bool, float], ...]] = {
    "off": ((False, 1.0),),
    "on": ((True, 1.0),),
    "slow": ((True, 0.5), (False, 0.5)),
    "fast": ((True, 0.125), (False, 0.125)),
    "double": ((True, 0.1), (False, 0.1), (True, 0.1), (False, 0.7)),
}


class StatusLed:
    """A status LED on a Pi GPIO pin, showing one of :data:`LED_PATTERNS`.

    Wiring: GPIO pin (default GPIO27, physical pin 13) -> 330 ohm resistor -> LED anode
    (long leg); LED cathode (short leg, flat side) -> GND (physical pin 14).
    """

    def __init__(self, pin: int = 27, *, pin_factory: Any = None) -> None:
        from gpiozero import LED

        self.led = LED(pin, pin_factory=pin_factory)
        self.pattern = "off"
        self._wake = threading.Event()
        self._closed = False
        self._changed = threading.Condition()
        self.writes = 0  # how many times the LED was set, for :meth:`wait_for`
        self._thread = threading.Thread(target=self._run, name="status-led", daemon=True)
        self._thread.start()

    def show(self, pattern: str) -> None:
        if pattern not in LED_PATTERNS:
            raise TrayError(f"unknown LED pattern {pattern!r}; known: {', '.join(LED_PATTERNS)}")
        self.pattern = pattern
        self._wake.set()

    def _run(self) -> None:
        while not self._closed:
            self._wake.clear()
            steps = LED_PATTERNS[self.pattern]
            if len(steps) == 1:
                self._set(steps[0][0])
                self._wake.wait()
                continue
            for on, seconds in steps:
                self._set(on)
                if self._wake.wait(seconds):
                    break

    def _set(self, on: bool) -> None:
        try:
            if on:
                self.led.on()
            else:
                self.led.off()
        except Exception:  # closed under our feet
            pass
        with self._changed:
            self.writes += 1
            self._changed.notify_all()

    def wait_for(self, pred: Callable[[], bool], timeout: float | None = 5.0) -> bool:
        """Block until ``pred()`` holds, looked at again each time the LED is set (False after ``timeout`` s)."""
        with self._changed:
            return self._changed.wait_for(pred, timeout)

    def close(self) -> None:
        self._closed = True
        self._wake.set()
        self._thread.join(timeout=2)
        self.led.close()


class GpioTray:
    """A confirm button and a status LED wired straight to the Pi.

    Wiring (BCM numbers, physical pins in brackets):

    - confirm button: one leg to GPIO17 (pin 11), the other to GND (pin 9). The internal
      pull-up is used: no resistor needed; pressed reads low. Reported as button 1.
    - status LED: GPIO27 (pin 13) -> 330 ohm -> LED anode; cathode -> GND (pin 14).

    ``button_pin`` / ``led_pin`` choose other pins (``led_pin=None``: no LED);
    ``bounce_time`` is the debounce in seconds; ``pin_factory`` is gpiozero's (a
    ``MockFactory`` in tests); ``clock`` gives the time in seconds for the debounce and
    the events' ``tray_ms`` (default :func:`time.monotonic`; tests pass one they move by hand).

    Debouncing is done here, not by the pin library (RPi.GPIO, lgpio and the mock pins
    each treat ``bounce_time`` differently): an edge is taken when it changes the
    button's state and comes ``bounce_time`` after the last one taken; when chatter is
    ignored, the pin is read again once the bounce time is over, so a short tap never
    leaves the button "stuck down".
    """

    def __init__(self, button_pin: int = 17, led_pin: int | None = 27, *, pin_factory: Any = None,
                 bounce_time: float | None = 0.02, button_id: int = 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.button_pin = button_pin
        self._clock = clock
        self.led_pin = led_pin
        self.button_id = button_id
        self._factory = pin_factory
        self._bounce = bounce_time
        self._subscribers = Subscribers("GPIO tray")
        self._lock = threading.Lock()
        self._button: Any = None
        self.status: StatusLed | None = None
        self._t0 = clock()
        self._pressed_at = 0
        self._pattern = "on"
        self._down = False
        self._last_edge = -1e9
        self._recheck: threading.Timer | None = None

    @property
    def connected(self) -> bool:
        return self._button is not None

    def _ms(self) -> int:
        return round((self._clock() - self._t0) * 1000) & 0xFFFFFFFF

    def start(self) -> "GpioTray":
        """Claim the pins and report ``TrayConnected``.

        Raises :class:`~firmware_bridge.errors.TrayError` when there is no GPIO here (not a
        Pi, no pin library) or the pins are taken.
        """
        if self._button is not None:
            return self
        import warnings

        from gpiozero import Button

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gpiozero's fallback chatter; the error says it all
                button = Button(self.button_pin, pull_up=True, bounce_time=None, pin_factory=self._factory)
        except Exception as exc:
            raise TrayError(f"cannot use GPIO{self.button_pin} for the confirm button ({exc}); on a Raspberry Pi "
                            "install python3-lgpio, elsewhere use COMPANION_TRAY=emulated or none") from exc
        self._button = button
        self._down = bool(self._button.is_pressed)
        self._button.when_pressed = lambda *_: self._edge(True)
        self._button.when_released = lambda *_: self._edge(False)
        if self.led_pin is not None:
            try:
                self.status = StatusLed(self.led_pin, pin_factory=self._factory)
            except Exception as exc:
                button.close()
                self._button = None
                raise TrayError(f"cannot use GPIO{self.led_pin} for the status LED ({exc})") from exc
            self.status.show(self._pattern)
        self._emit(TrayConnected(f"gpio:{self.button_pin}:{self.led_pin}", "gpiozero", "pi-gpio", 0))
        return self

    def stop(self) -> None:
        """Release the pins and report ``TrayDisconnected("stopped")``."""
        if self._button is None:
            return
        with self._lock:
            if self._recheck is not None:
                self._recheck.cancel()
                self._recheck = None
        self._button.close()
        self._button = None
        if self.status is not None:
            self.status.close()
            self.status = None
        self._emit(TrayDisconnected("stopped"))

    def __enter__(self) -> "GpioTray":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        return self._subscribers.add(callback)

    def send(self, command: p.Command, wait: float | None = None) -> bool:
        """``Status`` sets the LED pattern (True); ``Light`` and ``Setting`` have no hardware here (False)."""
        if not isinstance(command, p.COMMANDS):
            raise TrayError(f"not a tray command: {command!r} (send Light, Status or Setting)")
        p.encode(command)
        if isinstance(command, p.Status):
            self._pattern = command.pattern
            if self.status is not None:
                self.status.show(command.pattern)
            return True
        return False

    def set_status(self, pattern: str, wait: float | None = None) -> bool:
        return self.send(p.Status(pattern), wait)

    def set_light(self, level: int, r: int = 255, g: int = 255, b: int = 255, wait: float | None = None) -> bool:
        return self.send(p.Light(level, r, g, b), wait)

    def _edge(self, down: bool) -> None:
        bounce = self._bounce or 0.0
        with self._lock:
            now = self._clock()
            if down == self._down:
                return
            if now - self._last_edge < bounce:  # chatter: look again when it is over
                if self._recheck is None and self._button is not None:
                    self._recheck = threading.Timer(bounce - (now - self._last_edge) + 0.001, self._settle)
                    self._recheck.daemon = True
                    self._recheck.start()
                return
            self._down = down
            self._last_edge = now
        self._report(down)

    def _settle(self) -> None:
        with self._lock:
            self._recheck = None
            button = self._button
        if button is None:
            return
        try:
            level = bool(button.is_pressed)
        except Exception:  # closed meanwhile
            return
        self._edge(level)

    def _report(self, down: bool) -> None:
        now = self._ms()
        if down:
            self._pressed_at = now
            self._emit(ButtonPressed(self.button_id, now))
        else:
            self._emit(ButtonReleased(self.button_id, now, max(0, now - self._pressed_at)))

    def _emit(self, event: TrayEvent) -> None:
        self._subscribers.emit(event)
