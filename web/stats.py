"""Dice statistics on the tablet (``static/stats.js``) — the same numbers as
``companion stats``.

- ``GET /stats``: the page;
- ``GET /api/stats``: per physical die: counts per face (camera reads, hand entries,
  both), the χ² test and its verdict in words, the camera's misreads per face;
- ``GET /stats/<die>.svg?group=all|camera|hand``: the die's histogram.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request

from companion.dicestats import DieStats, die_rolls, die_stats
from companion.statsvg import histogram_svg

from .auth import csrf_token, is_authenticated
from .context import get_service
from .journal import table_inputs
from .pages import _lang

bp = Blueprint("stats", __name__)


def _stats() -> list[DieStats]:
    *_, frames = table_inputs(get_service())
    return die_stats(die_rolls(frames))


@bp.get("/stats")
def page() -> str:
    return render_template("stats.html", lang=_lang(), csrf=csrf_token(), can_edit=is_authenticated())


@bp.get("/api/stats")
def api_stats() -> Any:
    return jsonify({"dice": [d.to_json() for d in _stats()]})


def die_svg(d: DieStats, group: str, lang: str) -> str:
    fr = lang != "en"
    groups = ["camera", "hand"] if group == "all" else [group]
    counts = {g: [d.counts[g].get(f, 0) for f in d.faces] for g in groups}
    fit = d.fits.get(group)
    expected = [fit.expected[f] for f in d.faces] if fit is not None else None
    legend = {"camera": "lus par la caméra" if fr else "read by the camera",
              "hand": "saisis à la main" if fr else "typed by hand"}
    legend = {g: legend[g] for g in groups}
    if expected:
        legend["expected"] = "dé équilibré" if fr else "fair die"
    faces = [d.face_labels[str(f)]["fr" if fr else "en"] for f in d.faces]
    return histogram_svg(faces, counts, expected, d.label["fr" if fr else "en"], legend)


@bp.get("/stats/<die>.svg")
def svg(die: str) -> Response:
    group = request.args.get("group", "all")
    if group not in ("all", "camera", "hand"):
        abort(400)
    found = next((d for d in _stats() if d.die == die), None)
    if found is None:
        abort(404)
    resp = Response(die_svg(found, group, _lang()), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp
