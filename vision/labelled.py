"""Labelled photo folders (YOLO labels) and the fixed train / held-aside split.

A labelled folder holds ``NAME.jpg`` (or ``.png``) photos, each with a ``NAME.txt`` beside
it: one line per die, ``CLASS CX CY W H`` with coordinates relative to the image size
(0..1) and CLASS 0..5 meaning the top face shows 1..6 (the format of
``shared/data/tray-dice-photos``).

The split is fixed by the photo's index in the sorted list of names, so that nobody ever
trains on the held-aside photos by accident:

- ``test`` (held aside, never trained or tuned on): ``index % 4 == 3`` — 50 of the 200
  shared photos;
- ``calib`` (part of the training part, kept out of fitting to tune the thresholds):
  ``index % 8 == 1`` — 25 photos;
- ``fit`` (the networks learn from these): every other photo — 125 photos.

``train`` means ``fit`` + ``calib`` (150 photos).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Label", "Photo", "IMAGE_SUFFIXES", "list_photos", "load_labels", "split_of", "shared_photos_dir"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
SPLITS = ("fit", "calib", "test", "train", "all")


@dataclass(frozen=True)
class Label:
    """One labelled die: face 1..6 and its box ``(x, y, w, h)`` in pixels."""

    face: int
    box: tuple[float, float, float, float]

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)

    @property
    def side(self) -> float:
        return float((self.box[2] * self.box[3]) ** 0.5)


@dataclass(frozen=True)
class Photo:
    path: Path
    index: int  # index in the sorted list of the folder's labelled photos
    split: str  # "fit" | "calib" | "test"


def split_of(index: int) -> str:
    """The fixed split of the photo at ``index`` in the sorted list (see module doc)."""
    if index % 4 == 3:
        return "test"
    if index % 8 == 1:
        return "calib"
    return "fit"


def list_photos(folder: Path | str, split: str = "all") -> list[Photo]:
    """The labelled photos of ``folder`` (those with a ``.txt`` beside them), sorted by
    name, restricted to ``split`` (``fit``, ``calib``, ``test``, ``train`` = fit+calib,
    or ``all``)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
    folder = Path(folder)
    paths = sorted(
        p for p in folder.iterdir()
        if p.suffix.lower() in IMAGE_SUFFIXES and p.with_suffix(".txt").exists()
    )
    out = []
    for i, p in enumerate(paths):
        s = split_of(i)
        if split == "all" or s == split or (split == "train" and s in ("fit", "calib")):
            out.append(Photo(p, i, s))
    return out


def load_labels(image_path: Path | str, width: int, height: int) -> list[Label]:
    """The labels beside ``image_path`` in pixels of a ``width`` x ``height`` image.

    Raises ``ValueError`` on a malformed line (with the file and line number)."""
    txt = Path(image_path).with_suffix(".txt")
    labels = []
    for n, line in enumerate(txt.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(v) for v in parts[1:5])
        except (ValueError, IndexError):
            raise ValueError(f"{txt}:{n}: expected 'CLASS CX CY W H', got {line!r}") from None
        if not 0 <= cls <= 5:
            raise ValueError(f"{txt}:{n}: class {cls} is not 0..5")
        labels.append(Label(cls + 1, ((cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height)))
    return labels


def shared_photos_dir(repo_root: Path | str | None = None) -> Path | None:
    """Where the shared tray photos are: ``../shared/data/tray-dice-photos`` beside the
    repository, else ``$COMPANION_SHARED/data/tray-dice-photos`` (or
    ``$COMPANION_SHARED`` itself if it is that folder); ``None`` when absent."""
    root = Path(repo_root) if repo_root else Path(__file__).resolve().parent.parent
    candidates = [root.parent / "shared" / "data" / "tray-dice-photos"]
    env = os.environ.get("COMPANION_SHARED")
    if env:
        candidates += [Path(env) / "data" / "tray-dice-photos", Path(env)]
    for c in candidates:
        if c.is_dir() and any(c.glob("*.txt")):
            return c
    return None
