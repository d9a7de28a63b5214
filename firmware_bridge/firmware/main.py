# Entry point on the Pico: MicroPython runs main.py at boot.
# Copy wire.py, tray.py, board_pico.py and main.py to the board, e.g.
#   mpremote cp wire.py tray.py board_pico.py main.py : + reset
import machine

from board_pico import PicoBoard
from tray import Tray

BUTTON_POLL_MS = 5  # buttons are polled: never sleep longer than this


def run():
    board = PicoBoard()
    tray = Tray(board)
    wdt = machine.WDT(timeout=5000)  # a hung loop reboots the tray; the host reconnects
    errors = 0
    while True:
        try:
            wait = tray.tick()
        except Exception:  # a firmware bug must not leave the tray dead
            errors += 1
            wait = BUTTON_POLL_MS
        wdt.feed()
        board.wait(min(wait, BUTTON_POLL_MS))


run()
