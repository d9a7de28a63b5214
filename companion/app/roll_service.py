"""The roll flow: settled -> capture -> read -> match -> append -> outcome -> tablets.

:class:`RollService` sits beside :class:`companion.service.TableService`. The tray (or,
without one, :class:`~vision.stillness.StillnessDetector` on the camera frames)
calls :meth:`RollService.settled`; a worker thread then

1. **capture**: takes a frame from the camera (:class:`~vision.camera.Camera`);
2. **read**: runs the one reader (:class:`vision.reader.Reader`, built by
   :func:`vision.table_setup.table_reader` with the table's calibration and enrollment) and keeps the photo (:class:`~companion.app.photos.PhotoStore`);
3. **rules**: matches the read against the step the game expects
   (:func:`~companion.roll.match.match_read`) and, when nothing is pending, submits the
   game's dice event with ``source: "camera"`` (the rules fold it, the log stores it);
4. **publish**: the table service publishes the outcome to every tablet; this service
   publishes the read record (``roll`` event: photo, boxes, per-die state).

A read with pending dice blocks nothing: it is published and kept; the players tap the
die on the photo and pick its face (:meth:`correct`), and the event then goes in with
``source: "correction"``. A die of an applied read is corrected the same way (the game's
correction event). A refused event (the rules say no) leaves the read shown with the
refusal, and the table unchanged.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from pathlib import Path
from typing import Any, Callable

from vision.camera import Camera
from vision.catalog import FACES, parse_face
from vision.table_setup import table_reader

from ..errors import CameraGone, CompanionError, texts
from ..games.base import text
from ..roll.match import Match, correction_event, expected_kinds, match_read, ready_data
from .photos import PhotoStore
from .records import ReadRecords

__all__ = ["RollService", "default_reader"]

log = logging.getLogger("companion.roll")
#: A reader: ``(frame, kinds) -> read JSON``; ``kinds`` are what the step expects (None: say nothing).
Reader = Callable[[Any, "frozenset[str] | None"], dict[str, Any]]


def default_reader(vision_dir: Path | None, calibration: Any = None, **kwargs: Any) -> Reader:
    """The table's reader (:func:`vision.table_setup.table_reader`: the one reader, with the
    saved calibration and enrollment; ``kwargs`` to :class:`vision.reader.Reader`) as a
    frame -> read-JSON callable."""
    reader = table_reader(vision_dir, calibration=calibration, refresh_background=True, **kwargs)

    def read(frame: Any, kinds: "frozenset[str] | None" = None) -> dict[str, Any]:
        out: dict[str, Any] = reader.read(frame, kinds=kinds).to_json()
        return out

    return read


class RollService:
    def __init__(self, table: Any, folder: str | Path, camera: Camera | None = None,
                 reader: Reader | None = None, photo_bytes: int = 200 * 2**20, photo_files: int = 2000) -> None:
        self.table = table  # a companion.service.TableService
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.photos = PhotoStore(self.folder / "photos", max_bytes=photo_bytes, max_files=photo_files)
        self.records = ReadRecords(self.folder / "reads.jsonl")
        self.camera = camera
        self.reader = reader
        self.tray: Any = None
        self._queue: "queue.Queue[float | None]" = queue.Queue()
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._rng = random.Random()
        self.rolls = 0
        self.errors = 0
        self.busy = False
        self._own_submit: int | None = None  # the thread submitting a read's event
        #: Called with every read record stored (the status LED follows the reads).
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        if hasattr(table, "on_applied"):
            table.on_applied(self._on_applied)

    # -- life -------------------------------------------------------------------------
    def start(self) -> "RollService":
        self._thread = threading.Thread(target=self._run, name="roll-worker", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        while True:
            t0 = self._queue.get()
            if t0 is None:
                return
            try:
                self.roll(t0)
            except Exception:  # the worker must survive anything one roll does
                self.errors += 1
                log.exception("roll failed")

    # -- input --------------------------------------------------------------------------
    def settled(self, t0: float | None = None) -> None:
        """The dice have settled (tray event or stillness): read them, off this thread."""
        self._queue.put(time.perf_counter() if t0 is None else t0)

    def on_tray_event(self, ev: Any) -> None:
        kind = getattr(ev, "kind", "")
        if kind == "settled":
            self.settled()
        elif kind == "motion":
            self._publish_state(rolling=True)

    # -- the flow -----------------------------------------------------------------------
    def _game(self) -> tuple[str | None, dict[str, Any]]:
        with self.table._lock:
            t = self.table.table
            game, top = t.game, t.top
            if game is None or top is None:
                return None, {}
            return t.game_name, game.state_json(top.state)

    def roll(self, t0: float | None = None, frame: Any = None) -> dict[str, Any]:
        """One roll, synchronously: returns the read record (also published)."""
        t0 = time.perf_counter() if t0 is None else t0
        timings: dict[str, float] = {}
        with self._lock:
            self.busy = True
            try:
                rec: dict[str, Any] = {"id": self.records.new_id(), "at": _now(), "photo": None, "objects": [],
                                       "status": "error", "timings": timings}
                if frame is None:
                    if self.camera is None:
                        rec["message"] = text("Pas de caméra : saisissez les dés.", "No camera: enter the dice.")
                        return self._store(rec)
                    try:
                        frame = self.camera.capture()
                    except CameraGone as exc:
                        rec["message"] = text(f"Caméra indisponible ({exc}) : saisissez les dés.",
                                               f"Camera unavailable ({exc}): enter the dice.")
                        return self._store(rec)
                t1 = time.perf_counter()
                timings["capture"] = (t1 - t0) * 1000
                game, state = self._game()
                read = self._read(frame, expected_kinds(state))
                t2 = time.perf_counter()
                timings["read"] = (t2 - t1) * 1000
                rec["objects"] = [dict(o) for o in read.get("objects", [])]
                rec["size"] = read.get("size") or [int(frame.shape[1]), int(frame.shape[0])]
                if read.get("error"):
                    rec["message"] = text(f"Lecture impossible : {read['error']}", f"Cannot read: {read['error']}")
                    self._save_photo(rec, frame)
                    return self._store(rec)
                rec["game"] = game
                prev = self.records.last(status="applied", game=game) or {}
                m = match_read(game, state, rec["objects"], prev)
                self._apply_match(rec, m)
                if m.status == "ready":
                    self._submit(rec, "camera")
                t3 = time.perf_counter()
                timings["rules"] = (t3 - t2) * 1000
                self._store(rec, publish=False)
                self.rolls += 1
            finally:
                self.busy = False
        t4 = time.perf_counter()
        self._publish(rec)
        timings["publish"] = (time.perf_counter() - t4) * 1000
        # the photo is written after the outcome went out: the SD card is slow
        self._save_photo(rec, frame)
        self._store(rec, publish=rec.get("photo") is not None)
        timings["total"] = (time.perf_counter() - t0) * 1000
        return rec

    def _read(self, frame: Any, kinds: "frozenset[str] | None" = None) -> dict[str, Any]:
        """The reader's answer; ``kinds``: what the step expects (the reader looks for
        those with its learned detectors on a plain photo)."""
        if self.reader is None:
            self.reader = default_reader(self.folder.parent / "vision")
        try:
            return self.reader(frame, kinds)
        except Exception as exc:  # a reader bug is a failed read, not a dead table
            log.exception("reader failed")
            return {"objects": [], "error": str(exc) or type(exc).__name__}

    def _save_photo(self, rec: dict[str, Any], frame: Any) -> None:
        try:
            rec["photo"] = self.photos.save(frame)
        except Exception as exc:
            log.warning("photo not kept: %s", exc)

    def _apply_match(self, rec: dict[str, Any], m: Match) -> None:
        rec.update({"type": m.type, "data": m.data, "used": m.used, "positions": m.positions,
                    "kept": m.kept, "kept_positions": m.kept_positions,
                    "status": {"ready": "pending", "pending": "pending", "idle": "shown"}[m.status],
                    "message": m.message})
        for i in m.unexpected:
            if rec["objects"][i].get("status") != "corrected":
                rec["objects"][i]["status"] = "unexpected"

    def _submit(self, rec: dict[str, Any], source: str) -> bool:
        try:
            self._own_submit = threading.get_ident()
            applied = self.table.submit({"type": rec["type"], "data": rec["data"], "source": source})
        except CompanionError as exc:
            rec["status"] = "refused"
            said = texts(exc)  # a refusal's two languages apart (companion.errors.bilingual)
            rec["message"] = {"fr": f"Refusé par les règles\u202f: {said['fr']}", "en": f"Refused by the rules: {said['en']}"}
            return False
        finally:
            self._own_submit = None
        rec["status"] = "applied"
        rec["seq"] = applied.event.seq if hasattr(applied, "event") else None
        rec["source"] = source
        if source == "camera":
            rec["message"] = {}
        return True

    def _store(self, rec: dict[str, Any], publish: bool = True) -> dict[str, Any]:
        self.records.put(rec)
        for listener in list(self.listeners):
            try:
                listener(rec)
            except Exception:  # a LED must not break a roll
                log.debug("read listener failed", exc_info=True)
        if publish:
            self._publish(rec)
        return rec

    def _publish(self, rec: dict[str, Any]) -> None:
        self.table.broker.publish("roll", {"read": rec, "camera": self.camera_status()})

    def _publish_state(self, rolling: bool = False) -> None:
        self.table.broker.publish("roll", {"read": None, "rolling": rolling, "camera": self.camera_status()})

    # -- corrections ---------------------------------------------------------------------
    def correct(self, rid: int, index: int, value: Any, kind: str | None = None) -> dict[str, Any]:
        """Set object ``index`` of read ``rid`` to ``value`` (a face; ``None`` with kind
        ``ignore`` leaves the object out). Raises ``ValueError`` with a clear message."""
        with self._lock:
            rec = self.records.get(rid)
            if rec is None:
                raise ValueError(f"lecture {rid} inconnue ou trop ancienne / no read {rid} (too old or unknown)")
            objs = rec.get("objects") or []
            if not isinstance(index, int) or not 0 <= index < len(objs):
                raise ValueError(f"la lecture {rid} n'a pas d'objet {index} / read {rid} has no object {index}")
            if rec.get("status") in ("discarded", "superseded", "undone"):
                raise ValueError("cette lecture est écartée : relancez / this read was set aside: roll again")
            obj = objs[index]
            was = {k: obj.get(k) for k in ("kind", "value", "status")}
            if kind == "ignore":
                obj["status"] = "ignored"
                obj["value"] = None
            else:
                k = kind or obj.get("kind")
                if k not in FACES:
                    raise ValueError(f"type de dé inconnu {k!r} / unknown die kind {k!r}")
                obj["kind"] = k
                obj["value"] = parse_face(k, value)
                obj["status"] = "corrected"
            rec["objects"][index] = obj
            if rec.get("status") == "applied":
                ev = correction_event(rec, index)
                if ev is None:
                    raise ValueError("ce dé ne se corrige plus : annulez le lancer et saisissez-le / "
                                     "this die cannot be corrected afterwards: undo the roll and enter it again")
                try:
                    applied = self.table.submit({"type": ev[0], "data": ev[1], "source": "correction"})
                except CompanionError as exc:
                    raise ValueError(str(exc)) from None
                rec["corrections"] = list(rec.get("corrections") or []) + [applied.event.seq]
                # what the die showed before: an undo of this correction puts it back
                obj["undo"] = list(obj.get("undo") or []) + [{**was, "seq": applied.event.seq}]
                if "read_value" not in obj and was.get("status") != "corrected":
                    obj["read_value"] = was.get("value")  # what the camera read (statistics)
            else:
                if "read_value" not in obj and was.get("status") != "corrected":
                    obj["read_value"] = was.get("value")
                self._rematch(rec)
            self._store(rec)
            return rec

    def _rematch(self, rec: dict[str, Any]) -> None:
        """A pending (or refused) read after a correction: match again, submit when complete."""
        game, state = self._game()
        live = [o if o.get("status") != "ignored" else None for o in rec["objects"]]
        keep = [i for i, o in enumerate(live) if o is not None]
        sub = [rec["objects"][i] for i in keep]
        prev = self.records.last(status="applied", game=game) or {}
        m = match_read(game, state, sub, prev)
        m.used = [keep[i] for i in m.used]
        m.unexpected = [keep[i] for i in m.unexpected]
        m.kept = [keep[i] for i in m.kept]
        if m.status == "ready":
            m.data = ready_data(m, rec["objects"])
        self._apply_match(rec, m)
        if m.status == "ready":
            self._submit(rec, "correction" if any(o.get("status") == "corrected" for o in rec["objects"]) else "camera")

    def _on_applied(self, applied: Any) -> None:
        """Another event reached the table (typed by hand, undo, a new game): a read still
        pending was made for a step that may be over, so it is set aside, never applied
        to the wrong step later."""
        if self._own_submit == threading.get_ident():
            return
        etype = getattr(getattr(applied, "event", None), "type", None)
        undone = getattr(applied, "undone", None)
        if undone is not None and undone.seq is not None:
            self._undone(undone.seq)
        if etype == "table.new_game":
            self._close_reads()
        for rec in self.records.recent(10):
            if rec.get("status") in ("pending", "refused"):
                rec["status"] = "superseded"
                rec["message"] = text("La partie a avancé depuis cette lecture : relancez si besoin.",
                                       "The game moved on since this read: roll again if needed.")
                self._store(rec)

    def _undone(self, seq: int) -> None:
        """An undo took event ``seq`` out of the game: the photo must not show it any more.
        A correction undone puts the die back as it was; the read's own event undone
        marks the read ``undone``."""
        with self._lock:
            for rec in self.records.recent(self.records.keep):
                changed = False
                if seq in (rec.get("corrections") or []):
                    rec["corrections"] = [s for s in rec["corrections"] if s != seq]
                    for obj in rec.get("objects") or []:
                        stack = list(obj.get("undo") or [])
                        if stack and stack[-1].get("seq") == seq:
                            prev = stack.pop()
                            obj.update({k: prev.get(k) for k in ("kind", "value", "status")})
                            obj["undo"] = stack
                            changed = True
                if rec.get("seq") == seq and rec.get("status") == "applied":
                    rec["status"] = "undone"
                    rec["message"] = text("Ce lancer a été annulé : il ne compte plus.",
                                           "This roll was undone: it no longer counts.")
                    changed = True
                if changed:
                    self._store(rec)

    def _close_reads(self) -> None:
        """A new game: the previous game's photos leave the tablets (kept on disk)."""
        with self._lock:
            for rec in self.records.recent(self.records.keep):
                if not rec.get("closed"):
                    rec["closed"] = True
                    self._store(rec, publish=False)
        self.table.broker.publish("roll", {"read": None, "cleared": True, "camera": self.camera_status()})

    def discard(self, rid: int) -> dict[str, Any]:
        with self._lock:
            rec = self.records.get(rid)
            if rec is None:
                raise ValueError(f"lecture {rid} inconnue / no read {rid}")
            if rec.get("status") == "applied":
                raise ValueError("cette lecture est dans l'historique : utilisez Annuler / this read is in the log: use Undo")
            rec["status"] = "discarded"
            self._store(rec)
            return rec

    # -- view ------------------------------------------------------------------------------
    def camera_status(self) -> dict[str, Any]:
        if self.camera is None:
            return {"connected": None, "spec": None}
        return self.camera.status()

    def state(self, n: int = 5) -> dict[str, Any]:
        recent = [r for r in self.records.recent(n) if not r.get("closed")]
        return {"camera": self.camera_status(), "reads": recent,
                "pending": next((r["id"] for r in reversed(recent) if r.get("status") == "pending"), None),
                "rolls": self.rolls, "busy": self.busy}


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
