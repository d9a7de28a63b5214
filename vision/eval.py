"""Measure the reader on labelled photos (YOLO labels, see :mod:`vision.labelled`).

Matching: a read object matches a labelled die when its centre lies within half the
labelled die's side of the labelled centre (i.e. inside the die); pairs are made
one-to-one, nearest first. Then, over the true dice and the reads:

- ``recall``: true dice matched by a read (found);
- ``right_face``: found dice whose value (best guess, pending or not) is right;
- ``auto_right``: found, status ``read`` and right — the share of the TRUE dice the
  companion reads with nobody to confirm;
- ``silent_errors``: found, status ``read`` and wrong, as a share of the FOUND dice — the
  errors nobody is asked about;
- ``pending``: found dice left ``pending`` (the players confirm them);
- ``false_detections``: reads matching no true die, as a share of the true dice;
- ``ms_median``: median time of one read (decode included), per photo;
- ``confusion``: rows true face 1..6; columns read as 1..6 (status read), ``pending``,
  ``missed``.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from .labelled import Label, list_photos, load_labels
from .result import STATUS_READ, ObjectRead, Read

__all__ = ["match", "Tally", "evaluate", "format_report"]

COLUMNS = ["1", "2", "3", "4", "5", "6", "pending", "missed"]


def match(objects: Sequence[ObjectRead], labels: Sequence[Label]) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """One-to-one pairs (object index, label index), nearest first, of objects whose centre
    lies within half the label's side of its centre; then the unmatched objects and the
    unmatched labels."""
    pairs = []
    for i, o in enumerate(objects):
        ox, oy = o.box[0] + o.box[2] / 2, o.box[1] + o.box[3] / 2
        for j, lab in enumerate(labels):
            cx, cy = lab.centre
            d = math.hypot(ox - cx, oy - cy)
            if d <= 0.5 * lab.side:
                pairs.append((d, i, j))
    pairs.sort()
    used_o: set[int] = set()
    used_l: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i not in used_o and j not in used_l:
            used_o.add(i)
            used_l.add(j)
            out.append((i, j))
    return out, [i for i in range(len(objects)) if i not in used_o], [j for j in range(len(labels)) if j not in used_l]


@dataclass
class Tally:
    photos: int = 0
    errors: int = 0
    true: int = 0
    found: int = 0
    right: int = 0
    auto_right: int = 0
    silent: int = 0
    pending: int = 0
    false: int = 0
    ms: list[float] = field(default_factory=list)
    confusion: list[list[int]] = field(default_factory=lambda: [[0] * len(COLUMNS) for _ in range(6)])

    def add(self, read: Read, labels: Sequence[Label]) -> None:
        self.photos += 1
        self.ms.append(read.ms)
        if read.error:
            self.errors += 1
        pairs, extra, missed = match(read.objects, labels)
        self.true += len(labels)
        self.found += len(pairs)
        self.false += len(extra)
        for i, j in pairs:
            o, lab = read.objects[i], labels[j]
            ok = o.value == lab.face
            self.right += ok
            if o.status == STATUS_READ:
                self.auto_right += ok
                self.silent += not ok
                col = int(o.value) - 1 if isinstance(o.value, int) and 1 <= o.value <= 6 else 6
            else:
                self.pending += 1
                col = 6
            self.confusion[lab.face - 1][col] += 1
        for j in missed:
            self.confusion[labels[j].face - 1][7] += 1

    def summary(self) -> dict[str, Any]:
        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "photos": self.photos, "errors": self.errors, "true_dice": self.true, "found": self.found,
            "recall": ratio(self.found, self.true),
            "right_face": ratio(self.right, self.found),
            "auto_right": ratio(self.auto_right, self.true),
            "silent_errors": ratio(self.silent, self.found),
            "silent_error_count": self.silent,
            "pending": ratio(self.pending, self.found),
            "false_detections": ratio(self.false, self.true),
            "false_detection_count": self.false,
            "ms_median": round(statistics.median(self.ms), 2) if self.ms else None,
            "confusion": {"rows": [1, 2, 3, 4, 5, 6], "columns": COLUMNS, "counts": self.confusion},
        }


def evaluate(folder: Path | str, split: str = "all", reader: Any = None,
             progress: Any = None, fixes: bool = False, kinds: Any = ("d6",)) -> dict[str, Any]:
    """Read every labelled photo of ``folder`` in ``split`` and tally (see module doc).
    ``kinds``: what the reader looks for (the labels are pip d6: as the table reads a
    step that expects d6)."""
    from .reader import default_reader

    reader = reader or default_reader()
    photos = list_photos(folder, split)
    tally = Tally()
    for ph in photos:
        read = reader.read(ph.path, kinds=kinds) if kinds is not None else reader.read(ph.path)
        if read.size is not None:
            w, h = read.size
        else:
            import cv2

            img = cv2.imread(str(ph.path))
            h, w = img.shape[:2] if img is not None else (1, 1)
        tally.add(read, load_labels(ph.path, w, h, fixes=fixes))
        if progress:
            progress(ph, read)
    out = tally.summary()
    out["folder"] = str(folder)
    out["split"] = split
    out["label_fixes"] = fixes
    return out


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f} %"


def format_report(s: dict[str, Any]) -> str:
    """A readable report of :func:`evaluate`'s summary."""
    lines = [
        f"{s['folder']} (split {s['split']}{', known label errors fixed' if s.get('label_fixes') else ''}): "
        f"{s['photos']} photos, {s['true_dice']} dice"
        + (f", {s['errors']} unreadable" if s["errors"] else ""),
        f"  dice found (recall)          {_pct(s['recall'])}",
        f"  right face among found       {_pct(s['right_face'])}",
        f"  read right automatically     {_pct(s['auto_right'])}  (of the true dice)",
        f"  silent errors                {_pct(s['silent_errors'])}  ({s['silent_error_count']}; of the found dice)",
        f"  left pending                 {_pct(s['pending'])}  (of the found dice)",
        f"  false detections             {_pct(s['false_detections'])}  ({s['false_detection_count']}; per true die)",
        f"  time per photo (median)      {s['ms_median']} ms",
        "  confusion (rows: true face; columns: read as)",
        "        " + "".join(f"{c:>8}" for c in COLUMNS),
    ]
    for face, row in zip(s["confusion"]["rows"], s["confusion"]["counts"]):
        lines.append(f"  {face:>4}  " + "".join(f"{v:>8}" for v in row))
    return "\n".join(lines)


def iter_images(paths: Iterable[Path | str]) -> Iterable[Path]:
    """Image files of the given paths (a folder gives its images, sorted)."""
    from .labelled import IMAGE_SUFFIXES

    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(q for q in p.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES)
        else:
            yield p
