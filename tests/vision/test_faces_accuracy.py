"""The accuracy bar on synthetic trays: >= 99.5 % right, the rest pending, no silent error.

Every die kind and gem colour, each class equally often, under varied light, in the three
ways a tray is read (calibrated with the empty tray; markers in the photo only; a photo
with neither). The larger run is ``benchmarks/bench_synth_read.py``.
"""

from __future__ import annotations

from vision.accuracy import run
from vision.catalog import CLASSES


def test_accuracy_bar_on_a_few_hundred_rendered_objects() -> None:
    total, by_mode, _ = run(n_objects=2 * len(CLASSES) + 183, seed=1, per_tray=17)
    print(total.summary())
    for mode, t in by_mode.items():
        print(f"  {mode}: {t.summary()}")
    assert total.objects >= 300
    assert (total.wrong, total.missed, total.extra) == (0, 0, 0), total.problems
    assert total.right >= 0.995 * total.objects, total.problems
    # every class was there
    assert {k for (k, what) in total.per_kind if what == "n"} == {k for k, _ in CLASSES}
