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

``train`` means ``fit`` + ``calib`` (150 photos). For cross-validation the training part
is cut into ``K`` folds by position in its own sorted list: ``fold:k/K`` is the ``k``-th
(0-based) fold, ``train-but:k/K`` the rest of the training part (see
:mod:`vision.train.cv`). The test photos are in no fold.

A few labels of the shared photos are plainly wrong (a die labelled 2 whose top face
shows three pips, seen at full size by a person). :data:`LABEL_FIXES` lists those found
in the training part; :func:`load_labels` applies them only when asked (``fixes=True``:
threshold tuning does, and ``companion vision eval --fix-labels``). Figures are reported
against the labels as given unless said otherwise; the shared files are never changed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Label", "Photo", "IMAGE_SUFFIXES", "list_photos", "load_labels", "parse_fold", "split_of",
           "shared_photos_dir"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
SPLITS = ("fit", "calib", "test", "train", "all")

#: photo name -> {line index in its label file (blank lines skipped): right face}
LABEL_FIXES: dict[str, dict[int, int]] = {
    "IMG_20191208_111246.jpg": {0: 3},  # calib: three red pips on a blue die, labelled 2
    "IMG_20191209_095954.jpg": {2: 3},  # calib: three yellow pips on a green die, labelled 2
    "IMG_20191208_112342.jpg": {16: 3},  # fit: three white pips on a black die, labelled 2
    # found by the cross-validation (classifiers that never saw the photo, sure of another face):
    "IMG_20191209_095439.jpg": {9: 4},  # fit: four white pips on a black die, labelled 5
    "IMG_20191209_100722.jpg": {4: 5},  # fit: five black pips on a white die, labelled 6
}


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


def parse_fold(split: str) -> tuple[str, int, int] | None:
    """``("fold" | "train-but", k, K)`` for a cross-validation split name, else None;
    ``ValueError`` for a malformed one."""
    head, sep, rest = split.partition(":")
    if not sep or head not in ("fold", "train-but"):
        return None
    k_s, slash, n_s = rest.partition("/")
    try:
        k, n = int(k_s), int(n_s)
    except ValueError:
        k = n = -1
    if not slash or n < 2 or not 0 <= k < n:
        raise ValueError(f"bad split {split!r}: expected {head}:k/K with 0 <= k < K and K >= 2")
    return head, k, n


def list_photos(folder: Path | str, split: str = "all") -> list[Photo]:
    """The labelled photos of ``folder`` (those with a ``.txt`` beside them), sorted by
    name, restricted to ``split`` (``fit``, ``calib``, ``test``, ``train`` = fit+calib,
    ``all``, or a cross-validation split ``fold:k/K`` / ``train-but:k/K``)."""
    fold = parse_fold(split)
    if fold is not None:
        head, k, n = fold
        train = list_photos(folder, "train")
        return [ph for j, ph in enumerate(train) if (j % n == k) == (head == "fold")]
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}, fold:k/K or train-but:k/K")
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


def load_labels(image_path: Path | str, width: int, height: int, fixes: bool = False) -> list[Label]:
    """The labels beside ``image_path`` in pixels of a ``width`` x ``height`` image
    (with :data:`LABEL_FIXES` applied if ``fixes``).

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
    if fixes:
        for k, face in LABEL_FIXES.get(Path(image_path).name, {}).items():
            if k < len(labels):
                labels[k] = Label(face, labels[k].box)
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
