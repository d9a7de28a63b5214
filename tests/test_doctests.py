"""The examples in the pure modules' docstrings are run: documentation that cannot drift.

Each module listed must keep at least one example, so a docstring rewritten without its
examples fails here instead of silently testing nothing.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion.odds

#: Pure modules whose docstrings carry examples (protocol frames, dice, odds, the tray's state machine).
MODULES = [
    "firmware_bridge.protocol",
    "firmware_bridge.session",
    "firmware_bridge.fake",
    "companion.dice",
    "companion.games.options",
    "companion.games.espri.options",
    "companion.games.expects",
    "companion.games.expects_schema",
    "companion.games.wuxia.options",
    "companion.games.shayo.options",
    "companion.games.refusal",
    "companion.games.peripeties.common",
    "companion.games.peripeties.deck",
    "companion.games.peripeties.dice_input",
    "companion.games.peripeties.episode_dice",
    "companion.games.peripeties.odds",
    "companion.roll.match",
    "vision.die_colour",
    "vision.detect",
    "vision.background",
    "vision.reader",
    "vision.claims",
    "vision.tray_learned",
    "vision.floors",
    "vision.frame_transforms",
    "vision.gem_detect",
    "vision.pips",
    "vision.train.cameras",
    "vision.train.degrade",
    "vision.train.tune",
    "vision.train.eval_objects",
    "vision.train.train_d6",
    "vision.train.train_d10_detector",
    "vision.object_detect",
    "vision.numerals",
    "vision.enroll",
    "vision.gem_colour",
    "vision.plain_floor",
    "vision.synth",
    "vision.faces",
    *(f"companion.odds.{m.name}" for m in pkgutil.iter_modules(companion.odds.__path__)),
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(module, name)
    examples = sum(len(t.examples) for t in tests)
    assert examples > 0, f"{name} has no docstring example"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (see above)"
