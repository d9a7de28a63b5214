"""The labelled candy photos that stand in for ESPRI's gems, and their fixed split.

``shared/data/colour-candies`` holds ``images/NAME.jpg`` (1920 x 1080) and
``labels/NAME.txt``: one line per candy, ``CLASS CX CY W H`` (YOLO, relative to the
image size), CLASS 0..5 = blue, brown, green, orange, red, yellow. The gem each colour
stands for (:data:`GEM_OF`): blue -> ``hiver``, green -> ``printemps``, red ->
``automne``, yellow -> ``ete``, brown -> ``rupture`` (ESPRI's violet, which no public
photo shows); **orange is no gem** (``None``): the reader must never read it as one.

The split is the one of :mod:`vision.labelled` (:func:`vision.labelled.split_of`), by
index in the sorted list of image names, so that nobody trains on the held-aside photos
by accident: ``test`` = index % 4 == 3 (36 of the 145 photos, held aside: never trained
or tuned on), ``calib`` = index % 8 == 1 (18 photos: kept out of the detector's fitting,
the colour thresholds are checked on them), ``fit`` = the other 91 (the detector learns
from them). ``train`` = fit + calib: the colours are enrolled from its labelled candies.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .labelled import split_of

__all__ = ["CANDY_CLASSES", "GEM_OF", "GemLabel", "GemPhoto", "list_gem_photos", "load_gem_labels",
           "shared_candies_dir"]

#: label class -> candy colour (the data set's own order)
CANDY_CLASSES = ("blue", "brown", "green", "orange", "red", "yellow")
#: candy colour -> the ESPRI gem it stands for (``None``: not a gem)
GEM_OF: dict[str, str | None] = {"blue": "hiver", "brown": "rupture", "green": "printemps",
                                 "orange": None, "red": "automne", "yellow": "ete"}
SPLITS = ("fit", "calib", "test", "train", "all")


@dataclass(frozen=True)
class GemLabel:
    """One labelled candy: its colour name and box ``(x, y, w, h)`` in pixels."""

    colour: str
    box: tuple[float, float, float, float]

    @property
    def gem(self) -> str | None:
        return GEM_OF[self.colour]

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)

    @property
    def side(self) -> float:
        return float((self.box[2] * self.box[3]) ** 0.5)


@dataclass(frozen=True)
class GemPhoto:
    path: Path
    labels_path: Path
    index: int
    split: str


def list_gem_photos(folder: Path | str, split: str = "all") -> list[GemPhoto]:
    """The labelled photos of a candy folder (``images/`` + ``labels/``), sorted by name,
    restricted to ``split`` (fit, calib, test, train = fit + calib, all)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
    folder = Path(folder)
    images = sorted(p for p in (folder / "images").iterdir()
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png")
                    and (folder / "labels" / (p.stem + ".txt")).exists())
    out = []
    for i, p in enumerate(images):
        s = split_of(i)
        if split == "all" or s == split or (split == "train" and s in ("fit", "calib")):
            out.append(GemPhoto(p, folder / "labels" / (p.stem + ".txt"), i, s))
    return out


def load_gem_labels(photo: GemPhoto, width: int, height: int) -> list[GemLabel]:
    """The photo's candies in pixels of a ``width`` x ``height`` image; ``ValueError`` on a
    malformed line (with file and line number)."""
    out = []
    for n, line in enumerate(photo.labels_path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(v) for v in parts[1:5])
        except (ValueError, IndexError):
            raise ValueError(f"{photo.labels_path}:{n}: expected 'CLASS CX CY W H', got {line!r}") from None
        if not 0 <= cls < len(CANDY_CLASSES):
            raise ValueError(f"{photo.labels_path}:{n}: class {cls} is not 0..{len(CANDY_CLASSES) - 1}")
        out.append(GemLabel(CANDY_CLASSES[cls], ((cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height)))
    return out


def shared_candies_dir(repo_root: Path | str | None = None) -> Path | None:
    """``../shared/data/colour-candies`` beside the repository, else
    ``$COMPANION_SHARED/data/colour-candies``; ``None`` when absent."""
    root = Path(repo_root) if repo_root else Path(__file__).resolve().parent.parent
    candidates = [root.parent / "shared" / "data" / "colour-candies"]
    env = os.environ.get("COMPANION_SHARED")
    if env:
        candidates.append(Path(env) / "data" / "colour-candies")
    for c in candidates:
        if (c / "images").is_dir() and (c / "labels").is_dir():
            return c
    return None
