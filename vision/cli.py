"""``companion vision read`` and ``companion vision eval`` (wired by companion.cli).

Nothing heavy is imported here at module level: OpenCV and numpy only inside handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["register", "annotate"]

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

    # Set-up commands: markers, calibrate, enroll, synth, read-tray (vision/cli2.py).
    from .cli2 import register_vision

    register_vision(sub)


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
    """``4`` for a read d6, ``d10:7``, ``gem:hiver``; a ``?`` after an unsure best guess."""
    guess = o.value if o.status == "read" else (o.candidates[0][0] if o.candidates else o.value)
    text = f"{guess}" if o.kind == "d6" else f"{o.kind}:{guess}"
    return text if o.status == "read" else text + "?"


def _cmd_read(args: argparse.Namespace) -> int:
    import cv2

    from .cli2 import data_dir
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
    kinds = {k.strip() for k in args.look_for.split(",") if k.strip()} if getattr(args, "look_for", None) else None
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
