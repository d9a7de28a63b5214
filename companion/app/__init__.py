"""The application layer: what wires the rules, the camera, the tray and the web together.

- :mod:`companion.app.cli`: the ``companion`` command line (``python -m companion``);
- :mod:`companion.app.serve`: ``companion serve`` (the table's folder, its PIN, the server);
- :mod:`companion.app.wiring`: the devices ``companion serve`` starts (camera, tray, GPIO)
  and what the calibration pages ask of them;
- :mod:`companion.app.roll_service`: the roll flow (capture, read, match, append);
- :mod:`companion.app.photos`, :mod:`companion.app.records`: the kept photos and reads;
- :mod:`companion.app.doctor`: ``companion doctor``.

Nothing below imports this package (the import-linter contracts in pyproject.toml; see
docs/architecture.md): the core (:mod:`companion`), :mod:`vision`, :mod:`web` and
:mod:`firmware_bridge` are composed here, never by each other.
"""
