"""Scoring reads against rendered ground truth (used by the accuracy test and benchmark).

An object counts as *right* when the read has exactly one object over it with the same
kind and value, *pending* when that object is pending, *wrong* when it is read as
something else (a silent error), *missed* when nothing was found over it. Objects read
over no rendered object are *extra* (false detections).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Sequence

import numpy as np

from .calibration import calibrate
from .catalog import CLASSES
from .result import Read
from .synth import Label, Scene, SceneSpec, render_tray

__all__ = ["Tally", "score_read", "benchmark_scenes", "render_for", "run", "HARD"]

MODES = ("calibrated", "markers", "photo")


@dataclass
class Tally:
    right: int = 0
    pending: int = 0
    wrong: int = 0
    missed: int = 0
    extra: int = 0
    problems: list[str] = field(default_factory=list)
    per_kind: "Counter[tuple[str, str]]" = field(default_factory=Counter)

    @property
    def objects(self) -> int:
        return self.right + self.pending + self.wrong + self.missed

    def add(self, other: "Tally") -> None:
        for k in ("right", "pending", "wrong", "missed", "extra"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.problems += other.problems
        self.per_kind.update(other.per_kind)

    def summary(self) -> str:
        n = max(self.objects, 1)
        return (f"{self.objects} objects: right {self.right} ({100 * self.right / n:.2f} %), "
                f"pending {self.pending} ({100 * self.pending / n:.2f} %), wrong {self.wrong}, "
                f"missed {self.missed}, extra {self.extra}")


def score_read(read: Read, labels: Sequence[Label], tag: str = "") -> Tally:
    t = Tally()
    used: set[int] = set()
    for lab in labels:
        cx, cy = lab.center
        over = [i for i, o in enumerate(read.objects)
                if o.box[0] <= cx <= o.box[0] + o.box[2] and o.box[1] <= cy <= o.box[1] + o.box[3]]
        free = [i for i in over if i not in used]
        t.per_kind[(lab.kind, "n")] += 1
        if not free:
            t.missed += 1
            t.problems.append(f"{tag} missed {lab.kind} {lab.value}")
            continue
        # the object whose box centre is nearest the label's
        i = min(free, key=lambda j: (read.objects[j].box[0] + read.objects[j].box[2] / 2 - cx) ** 2
                + (read.objects[j].box[1] + read.objects[j].box[3] / 2 - cy) ** 2)
        used.add(i)
        o = read.objects[i]
        if o.status == "pending":
            t.pending += 1
            t.per_kind[(lab.kind, "pending")] += 1
            t.problems.append(f"{tag} pending {lab.kind} {lab.value} (candidates {o.candidates})")
        elif o.kind == lab.kind and o.value == lab.value:
            t.right += 1
        else:
            t.wrong += 1
            t.per_kind[(lab.kind, "wrong")] += 1
            t.problems.append(f"{tag} WRONG {lab.kind} {lab.value} read as {o.kind} {o.value}")
    extra = len(read.objects) - len(used)
    if extra:
        t.extra += extra
        t.problems.append(f"{tag} {extra} extra object(s)")
    return t


def benchmark_scenes(n_objects: int, seed: int = 0, per_tray: int = 16, modes: Sequence[str] = MODES
                     ) -> Iterator[tuple[str, list[tuple[str, int | str]], int]]:
    """(mode, objects, seed) for trays holding every class in turn, shuffled."""
    rng = np.random.default_rng(seed)
    reps = -(-n_objects // len(CLASSES))
    objs = [CLASSES[i] for i in rng.permutation(np.repeat(np.arange(len(CLASSES)), reps))][:n_objects]
    for k, start in enumerate(range(0, len(objs), per_tray)):
        yield modes[k % len(modes)], objs[start:start + per_tray], seed * 1000 + k


#: Harsher than the bar's "varied light": dimmer/brighter, more tint, steeper gradients,
#: more blur and noise, more tilt. Reported by the benchmark, not held to the bar.
HARD = SceneSpec(gain=(0.55, 1.45), tint=0.12, gradient=0.3, blur=(0.6, 1.6), noise=(3.0, 8.0), perspective=0.06)


def render_for(mode: str, objects: list[tuple[str, int | str]], seed: int, spec: SceneSpec = SceneSpec()) -> Scene:
    if mode == "photo":
        return render_tray(seed, objects=objects, spec=replace(spec, crop_to_tray=True, markers=False),
                           with_background=False)
    return render_tray(seed, objects=objects, spec=spec, with_background=mode == "calibrated")


_READERS: dict[int, Any] = {}


def _reader(cal: Any) -> Any:
    """The table's reader (:class:`vision.reader.Reader`) for this calibration."""
    from .reader import Reader

    base = _READERS.get(0)
    if base is None:
        base = _READERS[0] = Reader()
    # one set of networks for every calibration: only the tray differs
    r = Reader(detectors=base.detectors, classifiers=base.classifiers, warm_up=False, calibration=cal)
    return r


def run(n_objects: int, seed: int = 0, per_tray: int = 16, spec: SceneSpec = SceneSpec(),
        modes: Sequence[str] = MODES) -> tuple[Tally, dict[str, Tally], list[float]]:
    """Render, read and score ``n_objects`` objects; returns the total, per mode, and ms per tray."""
    total = Tally()
    by_mode = {m: Tally() for m in modes}
    times: list[float] = []
    for mode, objects, s in benchmark_scenes(n_objects, seed, per_tray, modes):
        scene = render_for(mode, objects, s, spec)
        cal = calibrate(scene.background) if mode == "calibrated" and scene.background is not None else None
        read = _reader(cal).read(scene.image)
        times.append(read.ms)
        t = score_read(read, scene.labels, f"[{mode} seed {s}]")
        by_mode[mode].add(t)
        total.add(t)
    return total, by_mode, times
