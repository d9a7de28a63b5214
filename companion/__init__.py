"""Table companion: the core (dice, games' rules, odds, table log, command line).

Nothing in this package imports OpenCV, Flask or serial at import time: the command
line's fast sub-commands (``companion odds ...``, ``companion replay ...``) must start
quickly on a Raspberry Pi.
"""

__version__ = "0.1.0"
