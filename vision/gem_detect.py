"""Find gems (small round coloured objects, touching or not) in a frame.

A plug-in detector of :class:`vision.reader.Reader`: ``detect(frame) -> list[Candidate]``.
The frame is scaled so its longer side is ``det_size`` pixels (544: a 1920 x 1080 photo
becomes 544 x 306, a gem about 13 px; the network learnt at 640, gems 0.7..1.4 times
15 px; on the 850 ``calib`` candies it finds 844 at 544, 847 at 640 for a third more
time, 835 at 480), padded to a multiple of 16 (not to a square: that
would cost 1.7 times as much) and run through ``gem_detector.onnx``, a CenterNet-style
network of the d6 detector's architecture (:class:`vision.train.nets_torch.CentreNet`,
63 k parameters) trained by :mod:`vision.train.train_gems` on the ``fit`` photos of
``shared/data/colour-candies``, with the dice photos' ``fit`` part as gem-free images
(dice and pips are not gems). It marks the centre of every round object whatever its
colour (orange candies included): saying which objects are gems, and which colour, is
the colour reader's job (:class:`vision.gem_colour.GemClassifier`).

Trained on objects whose side is about 2.3 % of the frame's longer side (0.7..1.4 times
that). A camera closer or farther than the candy photos' sees them larger or smaller, so
a first look that is not sure of its candidates (their mean heat under
:data:`SURE_LOOK`) is followed by looks at other input sizes (:data:`FARTHER`, or
:data:`CLOSER` when the first look's objects are larger than it learnt), and the look
with clearly the most strong candidates is kept (:meth:`GemDetector.detect`). Measured
on the held-aside candy photos (``bench_gems.py``, 6 December 2026, fifth session): the
photos as taken are read as before (31 of 36 first looks are sure; the other five keep
their first look after the second); gems half as large in
the frame (a camera twice as far: the photo and its mirror images in a 2 x 2 mosaic)
found 20.4 % -> 99.5 %, two thirds as large 62.1 -> 99.6 %, twice as large (the middle
of the photo) 93.1 -> 99.0 % with 6 candies counted twice instead of 234; the dice
photos (640 x 640) read as a gem step as before (1 die read as a gem, 10 pending, in
100 photos: no second look at so small a frame).

A frame dimmer than the training photos (its tray's white under :data:`LEARNT_WHITE`) is
brightened before the network sees it (:meth:`GemDetector.gain`): 40 % darker, its
heat fell under :data:`SURE_LOOK`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .detect import Candidate, centre_peaks, shrink
from .gem_colour import white_reference
from .nets import MODELS_DIR, load_net

__all__ = ["GemDetector", "GEM_SOURCE"]

GEM_SOURCE = "gem"  # Candidate.source of this detector's candidates
#: A first look whose candidates' mean heat is at least this is kept as it is (on the
#: held-aside candy photos as taken every first look is: 0.83 on average).
SURE_LOOK = 0.8
#: A candidate at least this hot is evidence that its look's scale is the gems'.
STRONG = 0.7
#: Another look replaces the first only with this many times its strong candidates.
SWITCH = 1.25
#: Input sizes, as multiples of ``det_size``, tried for gems smaller than learnt (a
#: camera farther away), never above the frame's own size (no upsampling: pips and
#: grain would become gem-sized)...
FARTHER = (2.0,)
#: ... a look that the frame's size holds under this multiple of ``det_size`` is not taken
#: (a 640-px photo: 1.18; it cost the 100 dice photos read as a gem step 41 ms instead of
#: 24, and read 1 more die as a gem).
FARTHER_AT_LEAST = 1.5
#: ... and for gems larger than learnt, when the first look's strong candidates are
#: larger than :data:`BIG_PX` at its input (the network learnt 10-21 px), instead of
#: :data:`FARTHER`: dice shrunk to a gem's size look like gems to it.
CLOSER = (0.7, 0.5)
BIG_PX = 18.0
#: A gem's side at the network's input that it learnt best (15 px at 640, 0.7 to 1.4
#: times that): where the gems' size in the frame is known (a calibrated tray), the one
#: input size that brings them to it (:meth:`GemDetector.at_scale`).
LEARNT_PX = 15.0
#: Of two peaks closer than this many sides, the weaker is dropped: an oblong candy seen
#: larger than learnt gives two (0.45, the d6 detector's: 22 candies counted twice on the
#: held-aside photos 2x closer; 0.6: 7, none found fewer; 0.7 loses touching candies).
#: Chosen on the calib photos (3 -> 0 counted twice 2x closer, 5 -> 1 at 1.5x).
APART = 0.6
#: The white of the dimmest photos the network learnt from (the tray's white,
#: :func:`vision.gem_colour.white_reference`, brightest channel: 5th percentile of the
#: training photos 195, median 215). A dimmer frame is brought up to it (by at most
#: :data:`MAX_GAIN`) before the network sees it: 40 % darker, its heat fell under
#: :data:`SURE_LOOK` and a useless second look took the read from 28 to 67 ms; brought
#: up, 99.5 % of the held-aside gems are found (98.8 % before), in 26-34 ms.
LEARNT_WHITE = 195.0
MAX_GAIN = 2.5
#: A "white" darker than this is a dark floor (felt, a table), not a dim white tray: no
#: gain. On the calib photos with their tray painted (``vision.floors``) the
#: "white" found on felt or wood is 43-88 (the floor itself, nothing white in view;
#: on some held-aside photos a paler patch, up to 122, which is still brought up);
#: 40 % darker, their white tray is 114-144. Brought up 2.5 times, the floors' grain
#: and the gaps between gems became gem-sized: 146-364 candidates over no candy on five
#: floors, 68-127 without the gain; gems found on red felt 79.5 -> 95.6 %, wood
#: 82.4 -> 98.1 %, the dark felts 96.0-96.5 -> 94.7-95.4 %.
DARK_FLOOR = 100.0


class GemDetector:
    """Round-object centre detector (``gem_detector.onnx``) run by ``cv2.dnn``.

    ``threshold``: the least centre heat of a candidate (0.5: chosen on the ``calib``
    photos, see ``docs/vision.md``, Gems). ``search``: look at other scales when the
    first look is unsure (see the module doc)."""

    #: What it finds: the reader runs it only when the step expects gems (or anything).
    kinds = ("gem",)
    #: Runs only when the step asks for gems (``Reader.read(kinds=...)``).
    on_request = True

    def __init__(self, model: Path | None = None, det_size: int = 544, stride: int = 4,
                 threshold: float = 0.5, max_objects: int = 512, engine: str = "classic",
                 search: bool = True) -> None:
        self.net = load_net(Path(model) if model else MODELS_DIR / "gem_detector.onnx", engine)
        self.det_size = int(det_size)
        self.stride = int(stride)
        self.threshold = float(threshold)
        self.max_objects = int(max_objects)
        #: Look again at other scales when the first look is unsure (``False``: one look).
        self.search = bool(search)

    @staticmethod
    def gain(frame: np.ndarray) -> float:
        """The factor that brings a dim ``frame``'s white up to :data:`LEARNT_WHITE` (at
        most :data:`MAX_GAIN`; 1.0 for a frame as bright as the training photos)."""
        white = float(np.max(white_reference(frame)[0]))
        if white < DARK_FLOOR:
            return 1.0  # a dark floor, not a dim white: its brightness says nothing of the exposure
        return float(min(MAX_GAIN, max(1.0, LEARNT_WHITE / max(white, 1.0))))

    def heat(self, frame: np.ndarray, det_size: int | None = None, gain: float | None = None
             ) -> tuple[np.ndarray, float]:
        """The network's 4 x H/4 x W/4 output for ``frame`` scaled so that its longer side
        is ``det_size`` (default: :attr:`det_size`) and brightened by ``gain`` (default:
        :meth:`gain`), and the frame-to-input scale."""
        import cv2

        h, w = frame.shape[:2]
        s = (det_size or self.det_size) / max(h, w)
        nw, nh = max(1, round(w * s)), max(1, round(h * s))
        if 0.5 < s <= 0.6:
            # OpenCV's area average is fast at exactly 2:1 and slow at other ratios (11 ms
            # for a 1920 x 1080 frame to 1088 px, one thread): halve, then interpolate up
            # by at most 1.2 (a 640-px frame to 544 would lose its detail that way)
            half = cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
            small = cv2.resize(half, (nw, nh), interpolation=cv2.INTER_LINEAR)
        elif s < 1 / 3 and det_size in (None, self.det_size):
            # the first look at a large frame: a whole-ratio area shrink first (detect.shrink;
            # 1920 x 1080 to 544 px: 11 -> 6 ms, the same reads); the looks at 0.7 and 0.5
            # lost 7 of 643 calib gems that way, 1.5x closer
            small = shrink(frame, s)
        else:
            small = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        g = self.gain(frame) if gain is None else gain
        if g > 1.0:
            small = cv2.convertScaleAbs(small, alpha=g)
        nh, nw = small.shape[:2]  # a whole-ratio shrink may round a pixel otherwise
        ph, pw = -(-nh // 16) * 16, -(-nw // 16) * 16
        canvas = np.full((ph, pw, 3), 127, np.uint8)
        canvas[:nh, :nw] = small
        blob = canvas.transpose(2, 0, 1)[None].astype(np.float32) * np.float32(1 / 255)
        return self.net(blob)[0], s

    def look(self, frame: np.ndarray, det_size: int | None = None, gain: float | None = None
             ) -> tuple[list[Candidate], float]:
        """One look at ``frame`` at the input size ``det_size`` (default :attr:`det_size`)
        and ``gain`` (default :meth:`gain`): its candidates, strongest first, and the
        frame-to-input scale."""
        h, w = frame.shape[:2]
        out, s = self.heat(frame, det_size, gain)
        return centre_peaks(out, s, self.stride, self.threshold, self.max_objects, (w, h), source=GEM_SOURCE,
                            apart=APART), s

    def at_scale(self, gem_px: float, frame_side: int) -> "GemDetector":
        """This detector for frames of longer side ``frame_side`` whose gems are
        ``gem_px`` pixels: one look at the input size that shows them at
        :data:`LEARNT_PX`, no search (never above the frame's own size). A calibrated
        tray knows its gems' size: the candy photos framed as one, gems 8 % of the frame
        (3.5 times larger than learnt), were found 14 % by the searching detector (its
        first look sees too few of them to judge their size), 99 % at their scale.

        >>> d = GemDetector.__new__(GemDetector); d.det_size, d.search = 544, True
        >>> s = d.at_scale(45.0, 740); s.det_size, s.search, d.det_size
        (247, False, 544)
        """
        from copy import copy

        out = copy(self)
        out.det_size = int(max(64, min(frame_side, round(LEARNT_PX / max(gem_px, 1.0) * frame_side))))
        out.search = False
        return out

    def detect(self, frame: np.ndarray) -> list[Candidate]:
        """Candidates in ``frame`` (H x W x 3 BGR uint8), strongest first: the first look,
        or with :attr:`search` and a first look not sure of its candidates, the look at
        another scale with clearly more strong ones (see the module doc)."""
        gain = self.gain(frame)
        first, s = self.look(frame, gain=gain)
        if not self.search or (first and float(np.mean([c.score for c in first])) >= SURE_LOOK):
            return first
        strong = [c for c in first if c.score >= STRONG]
        # objects larger than learnt are looked at smaller only: a larger look never won
        # there (2x closer, 72 photos) and cost 28 ms of a 52 ms detection
        big = len(strong) >= 3 and float(np.median([c.side for c in strong])) * s >= BIG_PX
        factors = CLOSER if big else FARTHER
        best, most = first, len(strong)
        tried = {self.det_size}
        for f in factors:
            size = min(round(self.det_size * f), max(frame.shape[:2]))  # never larger than the frame
            if size in tried or (f > 1 and size < FARTHER_AT_LEAST * self.det_size):
                continue  # a small frame: little to see at a slightly larger size
            tried.add(size)
            found, _ = self.look(frame, size, gain)
            n = sum(c.score >= STRONG for c in found)
            if n > max(SWITCH * len(strong), most):
                best, most = found, n
        return best
