# The Raspberry Pi Pico's board for the tray firmware (MicroPython only).
#
# Wiring (also in hardware.md):
#
#   part                         Pico pin            notes
#   vibration sensor (SW-420)    GP15 (pin 20)       module D0 -> GP15, VCC -> 3V3 (pin 36), GND -> GND (pin 18)
#   button 1 "confirm"           GP14 (pin 19)       to GND (pin 18); internal pull-up, pressed = low
#   button 2 "undo"              GP13 (pin 17)       to GND (pin 18); internal pull-up, pressed = low
#   status LED                   GP17 (pin 22)       anode via 330 ohm, cathode -> GND (pin 23); the onboard LED mirrors it
#   LED ring (WS2812, 16 LEDs)   GP16 (pin 21)       DIN via 330 ohm; 5V -> VBUS (pin 40), GND -> GND (pin 38),
#                                                    1000 uF across the ring's 5V/GND
#
# USB: the Pico's own USB port, seen on the Pi as /dev/ttyACM0 (vendor 2e8a, product 0005).
import sys
import time
import select

import machine
import micropython
import neopixel
from machine import Pin

PIN_MOTION = 15
PIN_BUTTONS = ((1, 14), (2, 13))
PIN_STATUS = 17
PIN_RING = 16
RING_LEDS = 16


class PicoBoard:
    """The Pico's pins for the tray firmware.

    Wiring: vibration sensor D0 -> GP15; buttons from GP14 (confirm) and GP13 (undo) to
    GND, internal pull-ups; status LED GP17 -> 330 ohm -> LED -> GND; WS2812 ring DIN
    <- GP16 through 330 ohm, ring 5V from VBUS. Details at the top of this file.
    """

    name = "pico"

    def __init__(self):
        micropython.kbd_intr(-1)  # a 0x03 byte on the line must not stop the firmware
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer
        self._pulses = 0
        self._motion = Pin(PIN_MOTION, Pin.IN, Pin.PULL_DOWN)
        self._motion.irq(trigger=Pin.IRQ_RISING | Pin.IRQ_FALLING, handler=self._on_motion)
        self._buttons = [(bid, Pin(gp, Pin.IN, Pin.PULL_UP)) for bid, gp in PIN_BUTTONS]
        self._status = Pin(PIN_STATUS, Pin.OUT)
        try:
            self._onboard = Pin("LED", Pin.OUT)  # Pico and Pico W
        except (TypeError, ValueError):
            self._onboard = Pin(25, Pin.OUT)
        self._ring = neopixel.NeoPixel(Pin(PIN_RING), RING_LEDS)

    def _on_motion(self, pin):
        self._pulses += 1

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def read(self):
        out = b""
        while len(out) < 256 and self._poll.poll(0):
            c = self._stdin.read(1)
            if not c:
                break
            out += c
        return out

    def write(self, data):
        self._stdout.write(data)

    def wait(self, ms):
        """Sleep up to ``ms``, waking early when the host sends something."""
        self._poll.poll(ms)

    def buttons(self):
        return [(bid, pin.value() == 0) for bid, pin in self._buttons]

    def motion_pulses(self):
        state = machine.disable_irq()
        n = self._pulses
        self._pulses = 0
        machine.enable_irq(state)
        return n

    def set_ring(self, level, r, g, b):
        color = (r * level // 255, g * level // 255, b * level // 255)
        self._ring.fill(color)
        self._ring.write()

    def set_status(self, on):
        self._status.value(1 if on else 0)
        self._onboard.value(1 if on else 0)
