"""Camera-assisted play, the parts below the application layer:

- :mod:`companion.roll.match`: a read against what the game step expects (pure)
- :mod:`companion.roll.demo`: the demo's scripted set-ups

The demo camera is :mod:`vision.demo_camera`; what it shows for a roll,
:mod:`companion.app.democam`.

The roll flow itself (:mod:`companion.app.roll_service`), the photo store and the devices
live in :mod:`companion.app`; the camera, its checks and the stillness detector in
:mod:`vision` (:mod:`vision.camera`, :mod:`vision.checks`, :mod:`vision.stillness`).
"""
