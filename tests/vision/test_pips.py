"""The d6 pip classifier's ensemble and second look, with stand-in networks."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import Candidate
from vision.pips import PipClassifier


class FakeNet:
    """Logits of fixed probabilities for every crop; records the batch sizes it saw."""

    def __init__(self, probs: list[float]) -> None:
        self.logits = np.log(np.asarray(probs, np.float64))
        self.calls: list[int] = []

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        assert blob.shape[1:] == (3, 48, 48)
        self.calls.append(len(blob))
        return np.tile(self.logits, (len(blob), 1)).astype(np.float32)


UNSURE = [0.05, 0.3, 0.6, 0.02, 0.02, 0.005, 0.005]  # face 3 at 0.6: below tta_below
SURE = [0.002, 0.002, 0.98, 0.004, 0.004, 0.004, 0.004]
OTHER = [0.01, 0.9, 0.05, 0.01, 0.01, 0.01, 0.01]


def _classifier(nets: list[FakeNet], first_look: int | None) -> PipClassifier:
    settings: dict = {"thresholds": {"not_a_die": 0.5, "confidence": 0.7, "margin": 0.4}}
    if first_look is not None:
        settings["first_look"] = first_look
    clf = PipClassifier(settings=settings)
    clf.nets = nets  # type: ignore[assignment]
    clf.first_look = min(first_look or len(nets), len(nets))
    return clf


def _frame_and_candidates(n: int) -> tuple[np.ndarray, list[Candidate]]:
    frame = np.random.default_rng(0).integers(0, 255, (200, 300, 3), dtype=np.uint8)
    return frame, [Candidate(40.0 + 50 * i, 60.0, 30.0, 0.9) for i in range(n)]


def test_a_sure_first_look_never_asks_the_other_nets() -> None:
    first, rest = FakeNet(SURE), FakeNet(OTHER)
    clf = _classifier([first, rest], first_look=1)
    frame, cands = _frame_and_candidates(3)
    p = clf.probabilities(frame, cands)
    assert first.calls == [3] and rest.calls == []
    np.testing.assert_allclose(p, np.tile(SURE, (3, 1)), atol=1e-6)


def test_an_unsure_die_gets_every_net_on_every_view() -> None:
    first, rest = FakeNet(UNSURE), FakeNet(OTHER)
    clf = _classifier([first, rest], first_look=1)
    frame, cands = _frame_and_candidates(2)
    p = clf.probabilities(frame, cands)
    # first look: 2 crops; second: the 7 other views for the first net, all 8 for the other
    assert first.calls == [2, 14] and rest.calls == [16]
    want = (np.asarray(UNSURE) + np.asarray(OTHER)) / 2
    np.testing.assert_allclose(p, np.tile(want, (2, 1)), atol=1e-6)
    read = clf.classify(frame, cands)
    assert all(r is not None and r.value == 2 and r.status == "pending" for r in read)


def test_without_first_look_the_whole_ensemble_looks_first() -> None:
    a, b = FakeNet(UNSURE), FakeNet(SURE)
    clf = _classifier([a, b], first_look=None)
    frame, cands = _frame_and_candidates(1)
    p = clf.probabilities(frame, cands)
    mean = (np.asarray(UNSURE) + np.asarray(SURE)) / 2  # 0.79 for face 3: below 0.93, looks again
    assert a.calls == [1, 7] and b.calls == [1, 7]
    np.testing.assert_allclose(p[0], mean, atol=1e-6)


def test_not_a_die_gets_no_second_look() -> None:
    junk = FakeNet([0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.7])
    rest = FakeNet(OTHER)
    clf = _classifier([junk, rest], first_look=1)
    frame, cands = _frame_and_candidates(2)
    assert clf.classify(frame, cands) == [None, None]
    assert rest.calls == []


@pytest.mark.parametrize("first_look", [0, 5])
def test_first_look_is_clamped_to_the_ensemble(first_look: int) -> None:
    clf = PipClassifier(settings={"first_look": first_look})
    assert 1 <= clf.first_look <= len(clf.nets)
