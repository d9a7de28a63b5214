"""The ``companion vision`` commands (registered by :mod:`companion.app.cli`):

- reading and measuring: ``read``, ``eval`` (and ``read-tray``, the old name of ``read``);
- setting up the camera: ``markers``, ``calibrate``, ``enroll``, ``synth``.

Nothing heavy is imported at module level, so that ``companion --help`` and every other
command start fast: OpenCV, numpy and the vision modules that load them are imported
inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.datadir import default_data_dir

__all__ = ["register", "register_vision", "annotate", "data_dir"]

GREEN = (40, 180, 40)
ORANGE = (0, 140, 255)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("vision", help="read dice in photos; measure the reader")
    sub = p.add_subparsers(dest="vision_command", metavar="ACTION")
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])

    r = sub.add_parser("read", help="read the dice in images (files or folders)")
    r.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="an image, or a folder of images")
    r.add_argument("--json", action="store_true", help="one JSON object per line per image")
    r.add_argument("--annotate", type=Path, metavar="DIR",
                   help="write each image with its reads drawn (green read, orange pending) into DIR")
    r.add_argument("--no-tta", action="store_true", help="classify each die once (faster, less sure)")
    r.add_argument("--data", type=Path, default=None,
                   help="vision data folder whose calibration and enrollment to use (default: the table's)")
    r.add_argument("--no-calibration", action="store_true", help="ignore the saved calibration")
    r.add_argument("--look-for", default=None, metavar="KINDS",
                   help="what to look for on a plain photo, e.g. d6 or gem or d6,gem (default: d6; as the table "
                        "does for a step that expects those)")
    r.set_defaults(func=_cmd_read)

    e = sub.add_parser("eval", help="measure the reader on a folder of photos with YOLO labels")
    e.add_argument("folder", type=Path, metavar="DIR")
    e.add_argument("--split", default="all", choices=["all", "train", "fit", "calib", "test"],
                   help="which fixed part of the folder (see vision.labelled; default all)")
    e.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    e.add_argument("--fix-labels", action="store_true",
                   help="apply the known label errors of vision.labelled.LABEL_FIXES")
    e.add_argument("--no-tta", action="store_true", help="classify each die once")
    e.set_defaults(func=_cmd_eval)

    register_vision(sub)  # the set-up commands: markers, calibrate, enroll, synth, read-tray


def annotate(frame: Any, read: Any) -> Any:
    """A copy of ``frame`` with each object's box and value drawn: green when read,
    orange (value followed by "?") when pending."""
    import cv2

    out = frame.copy()
    scale = max(0.4, min(out.shape[:2]) / 900)
    for o in read.objects:
        x, y, w, h = o.box
        colour = GREEN if o.status == "read" else ORANGE
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, max(1, round(2 * scale)))
        label = _label(o)
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, round(2 * scale)))
        ty = y - 3 if y - th - 6 >= 0 else y + h + th + 3
        cv2.rectangle(out, (x, ty - th - 3), (x + tw + 4, ty + 3), colour, -1)
        cv2.putText(out, label, (x + 2, ty), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255),
                    max(1, round(2 * scale)), cv2.LINE_AA)
    return out


def _label(o: Any) -> str:
    """``4`` for a read d6, ``d10:7``, ``gem:hiver``; a ``?`` after an unsure best guess,
    ``gem:?`` with no guess at all.

    >>> from vision.result import ObjectRead
    >>> [_label(ObjectRead("gem", v, (0, 0, 9, 9), 0.0, s)) for v, s in (("ete", "read"), ("ete", "pending"), (None, "pending"))]
    ['gem:ete', 'gem:ete?', 'gem:?']
    """
    guess = o.value if o.status == "read" else (o.candidates[0][0] if o.candidates else o.value)
    if guess is None:
        return f"{o.kind}:?"
    text = f"{guess}" if o.kind == "d6" else f"{o.kind}:{guess}"
    return text if o.status == "read" else text + "?"


#: Said under a read whose gems came with no colour at all (``vision.gem_colour.white_holds``).
NO_WHITE = ("  gems with no colour (?): nothing white in view to measure colours against; lay a white card "
            "in the tray / rien de blanc en vue : posez une carte blanche dans le plateau")


def _cmd_read(args: argparse.Namespace) -> int:
    import cv2

    from .eval import iter_images
    from .reader import decode
    from .table_setup import table_reader

    # the table's own reader: its calibration and enrollment, the d6 networks
    reader = table_reader(data_dir(args.data), use_calibration=not args.no_calibration, tta=not args.no_tta)
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    status = 0
    paths = list(iter_images(args.paths))
    if not paths:
        print("companion: error: no image found in " + ", ".join(map(str, args.paths)), file=sys.stderr)
        return 1
    kinds = {k.strip().lower() for k in args.look_for.split(",") if k.strip()} if getattr(args, "look_for", None) else None
    if kinds is not None:
        from .catalog import FACES, NUMERAL_FACES

        known = list(dict.fromkeys([*FACES, *NUMERAL_FACES, "temps"]))
        unknown = sorted(kinds - set(known))
        if unknown or not kinds:
            print(f"companion: error: --look-for: unknown kind {', '.join(unknown) or '(none given)'}; "
                  f"kinds: {', '.join(known)}", file=sys.stderr)
            return 2
    for path in paths:
        read = reader.read(path, kinds=kinds)
        if read.error:
            status = 1
        if args.json:
            print(json.dumps(read.to_json(), ensure_ascii=False), flush=True)
        else:
            dice = " ".join(_label(o) for o in read.objects)
            what = f"error: {read.error}" if read.error else (f"{len(read.objects)} objects: {dice}" if dice else "nothing found")
            print(f"{path}: {what} ({read.ms:.0f} ms)", flush=True)
            if any(o.kind == "gem" and o.value is None for o in read.objects):
                print(NO_WHITE, flush=True)
        if args.annotate and not read.error:
            out = args.annotate / (path.stem + ".jpg")
            cv2.imwrite(str(out), annotate(decode(path), read))
    return status


def _cmd_eval(args: argparse.Namespace) -> int:
    from .eval import evaluate, format_report
    from .reader import Reader

    if not args.folder.is_dir():
        print(f"companion: error: not a folder: {args.folder}", file=sys.stderr)
        return 1
    summary = evaluate(args.folder, split=args.split, reader=Reader(tta=not args.no_tta), fixes=args.fix_labels)
    if not summary["photos"]:
        print(f"companion: error: no labelled photos (NAME.jpg + NAME.txt) in {args.folder}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(format_report(summary))
    return 0

def data_dir(arg: Path | None = None) -> Path:
    """The vision data folder: ``--data``, else ``vision/`` in the table's data folder
    (``$COMPANION_DATA`` or the per-user folder ``companion serve`` uses), so the
    calibration and enrollment made here are the ones the server reads."""
    if arg:
        return Path(arg)
    return default_data_dir() / "vision"


def _size(text: str) -> tuple[float, float]:
    try:
        w, h = (float(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in mm, e.g. 240x170, not {text!r}") from None
    if not (50 <= w <= 2000 and 50 <= h <= 2000):
        raise argparse.ArgumentTypeError("tray size out of range (50-2000 mm)")
    return w, h


def _box(text: str) -> tuple[int, int, int, int]:
    try:
        x, y, w, h = (int(float(v)) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y,W,H in pixels, e.g. 120,80,60,60, not {text!r}") from None
    if min(x, y) < 0 or min(w, h) <= 0:
        raise argparse.ArgumentTypeError("the box needs x, y >= 0 and a positive width and height")
    return x, y, w, h




def register_vision(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("markers", help="write the printable sheet of the four tray markers")
    p.add_argument("--out", type=Path, required=True, help="output file: .pdf (A4) or .png")
    p.add_argument("--size-mm", type=float, default=20.0, help="marker side in mm (default 20)")
    p.add_argument("--dpi", type=int, default=300, help="resolution of the sheet (default 300)")
    p.set_defaults(func=_cmd_markers)

    p = sub.add_parser("calibrate", help="calibrate the tray from a photo of it EMPTY with its four markers")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--image", type=Path, nargs="+", help="photo(s) of the empty tray")
    src.add_argument("--camera", default=None, help="picamera2, usb:N, folder:PATH, synthetic[:SEED] (default $COMPANION_CAMERA)")
    p.add_argument("--frames", type=int, default=5, help="frames averaged into the background (camera only)")
    p.add_argument("--tray-mm", type=_size, default=(240.0, 170.0), help="inner tray floor WxH in mm (default 240x170)")
    p.add_argument("--marker-mm", type=float, default=20.0, help="printed marker side in mm (default 20)")
    p.add_argument("--px-per-mm", type=float, default=None, help="scale of the top-down tray image (default 4)")
    p.add_argument("--data", type=Path, default=None, help="vision data folder")
    p.set_defaults(func=_cmd_calibrate)

    p = sub.add_parser("enroll", help="enroll your dice/gems: photos of one object, one face at a time")
    p.add_argument("images", type=Path, nargs="*", help="photos showing this face (one object, or say which with --box/--pick)")
    p.add_argument("--kind", help="d4, d6, d10, d12, lieu, adversaire, epreuve, recompense, sentence or gem")
    p.add_argument("--face", help="the face shown (a number, a symbol name like montagne, or a gem colour)")
    p.add_argument("--folder", type=Path, default=None, help="a folder laid out KIND/FACE/*.jpg")
    p.add_argument("--list", action="store_true", help="list what is enrolled")
    p.add_argument("--remove", action="store_true", help="forget --kind (and --face) instead")
    p.add_argument("--box", type=_box, default=None, metavar="X,Y,W,H",
                   help="the object to enroll when a photo shows several: the one centred in this box (pixels)")
    p.add_argument("--pick", choices=["auto", "largest", "centre"], default="auto",
                   help="which object when a photo shows several (default auto: the one object the object detector "
                        "clearly sees on a plain photo, else the only one or a clearly largest)")
    p.add_argument("--data", type=Path, default=None, help="vision data folder")
    p.set_defaults(func=_cmd_enroll)

    p = sub.add_parser("synth", help="render synthetic tray photos with their ground truth")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--touching", type=int, default=0, help="pairs of touching dice per tray")
    p.add_argument("--photo", action="store_true", help="phone-style photos of the tray floor: no markers")
    p.set_defaults(func=_cmd_synth)

    p = sub.add_parser("read-tray", help="the same as `vision read` (kept for old scripts)")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--data", type=Path, default=None, help="vision data folder")
    p.add_argument("--no-calibration", action="store_true", help="ignore the saved calibration")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_read_tray, annotate=None, no_tta=False, look_for=None)


def _err(msg: str) -> int:
    print(f"companion vision: error: {msg}", file=sys.stderr)
    return 1


def _progress(i: int, n: int, what: str) -> None:
    width = 24
    done = int(width * i / max(n, 1))
    print(f"[{'#' * done}{'.' * (width - done)}] {i}/{n} {what}", flush=True)


def _cmd_markers(args: argparse.Namespace) -> int:
    from .markers import write_marker_sheet

    try:
        path = write_marker_sheet(args.out, args.size_mm, args.dpi)
    except (ValueError, OSError) as exc:
        return _err(str(exc))
    print(f"{path}: 4 markers of {args.size_mm:g} mm at {args.dpi} dpi; print at 100 % and check the 50 mm bar")
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    import cv2

    from .calibration import DEFAULT_PX_PER_MM, calibrate
    from .errors import VisionError
    from .markers import MarkerLayout
    from .sources import SyntheticSource, open_source

    layout = MarkerLayout(tray_mm=args.tray_mm, marker_mm=args.marker_mm)
    try:
        if args.image:
            frames = []
            for path in args.image:
                img = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if img is None:
                    return _err(f"cannot read image {path}")
                frames.append(img)
        else:
            with open_source(args.camera) as cam:
                if isinstance(cam, SyntheticSource):
                    cam.empty_first = True  # its first frame is the empty tray
                    frames = [cam.read()]
                else:
                    locked = cam.lock_exposure()
                    if locked:
                        print(f"exposure locked: {locked}")
                    frames = [cam.read() for _ in range(max(1, args.frames))]
        cal = calibrate(frames, layout, args.px_per_mm or DEFAULT_PX_PER_MM)
        path = cal.save(data_dir(args.data))
    except (VisionError, OSError) as exc:
        return _err(str(exc))
    w, h = cal.tray_size
    print(f"calibrated: markers {list(cal.markers_found)}, error {cal.reprojection_px:.2f} px, "
          f"tray image {w}x{h} px ({cal.px_per_mm:g} px/mm) -> {path}")
    return 0


def _cmd_enroll(args: argparse.Namespace) -> int:
    from .enroll import ENROLLMENT_FILE, Enrollment
    from .enroll_photos import enroll_files, folder_items
    from .errors import EnrollmentError

    folder = data_dir(args.data)
    path = folder / ENROLLMENT_FILE
    try:
        store = Enrollment.load(path) if path.exists() else Enrollment()
        if args.list:
            if not len(store):
                print("nothing enrolled yet")
            for (k, f), n in sorted(store.counts().items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
                print(f"{k:11s} {str(f):10s} {n} photo(s)")
            return 0
        if args.remove:
            if not args.kind:
                return _err("--remove needs --kind (and optionally --face)")
            n = store.remove(args.kind, args.face)
            store.save(path)
            print(f"removed {n} template(s)")
            return 0
        if args.folder:
            items = folder_items(args.folder)
        else:
            if not (args.kind and args.face and args.images):
                return _err("give --kind, --face and photos, or --folder KIND/FACE/*.jpg")
            items = [(args.kind, args.face, p) for p in args.images]
        if not items:
            return _err("no photos to enroll")
        failures = enroll_files(store, items, progress=_progress, box=args.box, pick=args.pick)
        if len(failures) < len(items):
            store.save(path)
    except EnrollmentError as exc:
        return _err(str(exc))
    print(f"enrolled {len(items) - len(failures)} of {len(items)} photo(s) -> {path}")
    return 1 if failures and len(failures) == len(items) else 0


def _cmd_synth(args: argparse.Namespace) -> int:
    import cv2

    from .synth import SceneSpec, render_tray

    if args.count < 1 or args.count > 10000:
        return _err("--count must be 1-10000")
    args.out.mkdir(parents=True, exist_ok=True)
    spec = SceneSpec(crop_to_tray=True, markers=False) if args.photo else SceneSpec()
    for i in range(args.count):
        scene = render_tray(args.seed + i, spec=spec, touching=args.touching)
        stem = f"tray_{args.seed + i:05d}"
        cv2.imwrite(str(args.out / f"{stem}.png"), scene.image)
        if scene.background is not None and not args.photo:
            cv2.imwrite(str(args.out / f"{stem}_empty.png"), scene.background)
        labels = [{"kind": lab.kind, "value": lab.value, "box": list(lab.box)} for lab in scene.labels]
        (args.out / f"{stem}.json").write_text(json.dumps({"image": f"{stem}.png", "objects": labels}, indent=1))
        _progress(i + 1, args.count, stem)
    return 0


def _cmd_read_tray(args: argparse.Namespace) -> int:
    return _cmd_read(args)
