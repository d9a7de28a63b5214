"""Enroll gem colours from labelled photos (boxes of known colour) and save ``gems.json``.

::

    python -m vision.gem_enroll ../shared/data/colour-candies [--split train] [--out vision/models/gems.json]

Each labelled candy of a gem colour (see :data:`vision.gem_data.GEM_OF`; orange is
none) gives one sample: its white-balanced Lab (:func:`vision.gem_colour.gem_colours` on
a candidate at the label's centre and side, the white measured on the same photo). The
samples of each colour are fitted by :meth:`vision.gem_colour.GemColours.fit`. Only the
``train`` photos are used (never the held-aside ``test`` ones).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from .detect import Candidate
from .gem_colour import GEM_MODEL, GemColours, gem_colours
from .gem_data import GemLabel, GemPhoto, list_gem_photos, load_gem_labels

__all__ = ["label_colours", "samples_from_photos", "enroll"]


def label_colours(frame: np.ndarray, labels: Sequence[GemLabel]) -> np.ndarray:
    """N x 3 white-balanced Lab of the labelled objects of one frame."""
    return gem_colours(frame, [Candidate(*lab.centre, lab.side, 1.0) for lab in labels])


def samples_from_photos(photos: Sequence[GemPhoto]) -> dict[str, list[np.ndarray]]:
    """Candy colour name -> white-balanced Lab samples (every colour, orange included)."""
    out: dict[str, list[np.ndarray]] = {}
    for ph in photos:
        frame = cv2.imread(str(ph.path), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        labels = load_gem_labels(ph, frame.shape[1], frame.shape[0])
        for lab, x in zip(labels, label_colours(frame, labels)):
            out.setdefault(lab.colour, []).append(x)
    return out


def enroll(folder: Path, split: str = "train", leave_out: Sequence[str] = ()) -> GemColours:
    """The gem colours enrolled from ``split``'s labelled candies (gem names as keys)."""
    from .gem_data import GEM_OF

    samples = samples_from_photos(list_gem_photos(folder, split))
    by_gem = {GEM_OF[c]: np.asarray(xs) for c, xs in sorted(samples.items())
              if GEM_OF.get(c) is not None and GEM_OF[c] not in leave_out}
    return GemColours.fit({k: v for k, v in by_gem.items() if k is not None},
                          meta={"enrolled_from": f"colour-candies {split} split", "leave_out": list(leave_out)})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.gem_enroll", description=__doc__.split("\n")[0])
    ap.add_argument("photos", type=Path, help="the candy folder (images/ and labels/)")
    ap.add_argument("--split", default="train")
    ap.add_argument("--out", type=Path, default=GEM_MODEL)
    args = ap.parse_args(argv)
    if args.split in ("test", "all"):
        ap.error("never enroll from the held-aside test photos")
    colours = enroll(args.photos, args.split)
    colours.save(args.out)
    for k in colours.names:
        print(f"{k}: {colours.meta['counts'][k]} examples, mean Lab {np.round(colours.means[k], 1).tolist()}, "
              f"accept {colours.accept[k]:.2f}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
