"""``companion vision markers|calibrate|enroll|synth``: set-up commands.

``register(subparsers)`` adds the ``vision`` group; ``register_vision(vision_sub)`` adds
these commands to an existing ``vision`` group (for merging with :mod:`vision.cli`).
Nothing heavy is imported here: numpy and OpenCV only inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["register", "register_vision", "data_dir"]


def data_dir(arg: Path | None = None) -> Path:
    """The vision data folder: ``--data``, else ``vision/`` in the table's data folder
    (``$COMPANION_DATA`` or the per-user folder ``companion serve`` uses), so the
    calibration and enrollment made here are the ones the server reads."""
    if arg:
        return Path(arg)
    from companion.serve import default_data_dir

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


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("vision", help="camera set-up: markers, calibration, enrollment, synthetic trays")
    sub = p.add_subparsers(dest="vision_command", metavar="COMMAND")
    register_vision(sub)
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def register_vision(sub: argparse._SubParsersAction) -> None:
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
                   help="which object when a photo shows several (default auto: the only one, or a clearly largest)")
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
    from .enroll import ENROLLMENT_FILE, Enrollment, enroll_files, folder_items
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
    from .cli import _cmd_read

    return _cmd_read(args)
