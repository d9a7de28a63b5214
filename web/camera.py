"""Camera endpoints: the read records, photos, corrections, the demo roll, calibration.

- ``GET /api/roll``: camera status and the recent reads (photo, boxes, per-die state)
- ``GET /photos/<id>.jpg``: a kept tray photo
- ``POST /api/roll/correct`` ``{read, index, value, kind?}``: set a die's face (``kind:
  "ignore"`` leaves the object out); a pending read goes to the rules once complete
- ``POST /api/roll/discard`` ``{read}``: drop a pending read
- ``POST /api/roll/read``: read the tray now (the confirm button)
- ``POST /api/roll/shake``: demo only: shake the emulated tray over a new rendered tray
- ``GET /api/camera/preview.jpg``: a live frame (calibration wizard)
- ``GET /api/camera/check``: markers found, focus and light of a live frame
- ``POST /api/camera/background``: calibrate: markers + the empty tray
- ``POST /api/camera/enroll`` ``{kind, face, box?}``: teach one face (the die in the tray,
  or the one whose centre lies in ``box`` = ``[x, y, w, h]`` frame pixels when there are several)
- ``GET /api/camera/enrollment``: how many views each face has (progress)
- ``GET /api/camera/enrollment/views.png?kind=K&face=F``: the learnt views of one face
- ``POST /api/camera/enroll`` also takes ``at: [x, y]`` (a tap, fractions of the photo)

Server-Sent Events: the ``roll`` event carries ``{"read": record, "camera": status}``.
Everything that changes anything needs the PIN (see :mod:`web.auth`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from flask import Blueprint, abort, current_app, jsonify, render_template, request, send_file

from companion.errors import CameraGone, CompanionError
from companion.roll.demo import demo_events

from .auth import csrf_token, is_authenticated, require_pin
from .context import get_service
from .pages import _lang
from .validate import BadInput, as_int, int_arg, request_json

bp = Blueprint("camera", __name__)


class CameraDesk(Protocol):
    """What the calibration wizard asks of the devices (``app.config["DEVICES"]``, a
    :class:`companion.app.wiring.Devices`): the web layer names what it needs, the
    application layer does it with the vision package (:mod:`vision.checks`)."""

    @property
    def vision_dir(self) -> Path: ...
    def preview_jpeg(self, frame: Any) -> bytes: ...
    def frame_checks(self, frame: Any) -> dict[str, Any]: ...
    def save_calibration(self, frame: Any) -> dict[str, Any]: ...
    def enroll_face(self, frame: Any, kind: str, face: Any, box: Any = None, at: Any = None) -> dict[str, Any]: ...
    def enrolled_views_png(self, kind: str, face: Any) -> bytes | None: ...
    def enrollment_progress(self) -> dict[str, Any]: ...


def _desk() -> CameraDesk:
    desk: CameraDesk = _devices()
    return desk


def _devices() -> Any:
    devs = current_app.config.get("DEVICES")
    if devs is None:
        abort(404)
    return devs


def _err(msg: str | BadInput, status: int = 400) -> Any:
    if isinstance(msg, BadInput):
        resp = jsonify({"error": str(msg), "message": dict(msg.text)})
    else:
        resp = jsonify({"error": msg, "message": {"fr": msg, "en": msg}})
    resp.status_code = status
    return resp


@bp.get("/api/roll")
def roll_state() -> Any:
    devs = current_app.config.get("DEVICES")
    if devs is None:
        return jsonify({"camera": {"connected": None}, "reads": [], "pending": None, "demo": False})
    try:
        n = int_arg(request.args.get("n"), "n", 5, 0, 100)
    except BadInput as exc:
        return _err(exc)
    out = devs.roll.state(n)
    out["demo"] = bool(current_app.config.get("DEMO"))
    return jsonify(out)


@bp.get("/photos/<photo_id>.jpg")
def photo(photo_id: str) -> Any:
    path = _devices().roll.photos.path(photo_id)
    if path is None:
        abort(404)
    resp = send_file(path, mimetype="image/jpeg", max_age=3600)
    return resp


def _body() -> dict[str, Any]:
    """The JSON object posted (``{}`` when empty); bad JSON answers 400 at once."""
    try:
        return request_json(request.get_data(cache=True))
    except BadInput as exc:
        abort(_err(exc))


@bp.post("/api/roll/correct")
@require_pin
def correct() -> Any:
    b = _body()
    try:
        rec = _devices().roll.correct(as_int(b.get("read", -1), "read"), as_int(b.get("index", -1), "index"),
                                      b.get("value"), b.get("kind"))
    except BadInput as exc:
        return _err(exc)
    except (ValueError, TypeError) as exc:
        return _err(str(exc))
    return jsonify({"read": rec})


@bp.post("/api/roll/discard")
@require_pin
def discard() -> Any:
    try:
        rec = _devices().roll.discard(as_int(_body().get("read", -1), "read"))
    except BadInput as exc:
        return _err(exc)
    except (ValueError, TypeError) as exc:
        return _err(str(exc))
    return jsonify({"read": rec})


@bp.post("/api/roll/read")
@require_pin
def read_now() -> Any:
    _devices().roll.settled()
    return jsonify({"ok": True}), 202


@bp.post("/api/roll/shake")
@require_pin
def shake() -> Any:
    try:
        out = _devices().shake()
    except ValueError as exc:
        return _err(str(exc))
    return jsonify(out), 202


# -- calibration and enrollment -------------------------------------------------------
@bp.get("/calibrate")
def calibrate_page() -> str:
    return render_template("calibrate.html", lang=_lang(), csrf=csrf_token(), can_edit=is_authenticated())


def _frame() -> Any:
    cam = _devices().camera
    if cam is None:
        abort(_err("no camera: start with --camera", 409))
    try:
        return cam.capture()
    except CameraGone as exc:
        abort(_err(f"camera unavailable: {exc}", 503))


@bp.get("/api/camera/preview.jpg")
def preview() -> Any:
    resp = current_app.response_class(_desk().preview_jpeg(_frame()), mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/api/camera/check")
def check() -> Any:
    return jsonify(_desk().frame_checks(_frame()))


@bp.post("/api/camera/background")
@require_pin
def background() -> Any:
    src = getattr(_devices().camera, "source", None)
    if src is not None and hasattr(src, "lock_exposure"):
        try:  # the empty tray and every later frame under the same exposure and white balance
            src.lock_exposure()
        except Exception:  # noqa: BLE001 - a camera without the controls still calibrates
            pass
    try:
        out = _desk().save_calibration(_frame())
    except ValueError as exc:
        return _err(str(exc))
    return jsonify(out)


@bp.post("/api/camera/enroll")
@require_pin
def enroll() -> Any:
    b = _body()
    try:
        out = _desk().enroll_face(_frame(), str(b.get("kind", "")), b.get("face"), b.get("box"), b.get("at"))
    except ValueError as exc:
        return _err(str(exc))
    return jsonify(out)


@bp.get("/api/camera/enrollment/views.png")
def enrollment_views() -> Any:
    png = _desk().enrolled_views_png(str(request.args.get("kind", ""))[:20], str(request.args.get("face", ""))[:40])
    if png is None:
        return _err("no view learnt for this face", 404)
    resp = current_app.response_class(png, mimetype="image/png")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/api/camera/enrollment")
def enrollment() -> Any:
    return jsonify(_desk().enrollment_progress())


@bp.post("/api/demo/game")
@require_pin
def demo_game() -> Any:
    """Demo only: start ``game`` with its example set-up, stopped where the camera reads."""
    if not current_app.config.get("DEMO"):
        return _err("démo seulement / demo only", 404)
    game = str(_body().get("game", ""))
    events = demo_events(game)
    if not events:
        return _err(f"pas de démo pour {game!r} / no demo for {game!r}")
    service = get_service()
    try:
        for ev in events:
            service.submit(ev)
    except CompanionError as exc:
        return _err(str(exc))
    return jsonify({"ok": True, "events": len(events)}), 201
