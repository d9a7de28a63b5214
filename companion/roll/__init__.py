"""Camera-assisted play: the roll flow, from "settled" to the outcome on every tablet.

- :mod:`companion.roll.service`: :class:`RollService`, the flow (capture, read, match, append)
- :mod:`companion.roll.match`: a read against what the game step expects (pure)
- :mod:`companion.roll.photos`: the bounded photo folder
- :mod:`companion.roll.records`: the read records (photo, boxes, per-die state)
- :mod:`companion.roll.camera`: the camera, re-opened by itself after an unplug
- :mod:`companion.roll.stillness`: "settled" from the camera frames when there is no tray
- :mod:`companion.roll.democam`: the demo camera (rendered trays)
- :mod:`companion.roll.wiring`: what ``companion serve`` starts (camera, tray, GPIO)

Nothing here is imported by the rules or the log; vision and firmware_bridge are imported
inside functions, so ``companion odds`` never pays for them.
"""
