"""The tray's reference firmware (MicroPython, for a Raspberry Pi Pico).

On the Pico, copy ``wire.py``, ``tray.py``, ``board_pico.py`` and ``main.py`` flat to the
board's file system (``mpremote cp ... :``). On the development machine the same
``wire`` and ``tray`` modules run under CPython with simulated pins
(:mod:`firmware_bridge.simboard`), which is how the tests and the emulator run them.

Only ``board_pico.py`` and ``main.py`` touch MicroPython's ``machine`` module; the
firmware files avoid what MicroPython lacks (no ``typing``, no ``dataclasses``, no
annotations): ``wire.py`` and ``tray.py`` carry their types in comments, checked by
``mypy --strict`` against :class:`~firmware_bridge.firmware.board.Board` (a CPython-only
module, imported under ``if TYPE_CHECKING:``, never copied to the board).
"""
