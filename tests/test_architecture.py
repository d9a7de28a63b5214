"""The layers of docs/architecture.md hold, and each check would see them broken.

The contracts are the ones of ``[tool.importlinter]`` in pyproject.toml (what
``lint-imports`` runs in CI), checked here on the import graph of the tree, then on that
graph with one import added that a careless change could add: each must then break.
Besides them, no strongly connected component (an import cycle, however long) among the
modules of the four packages.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.application.use_cases import read_user_options
from importlinter.configuration import configure
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract
from importlinter.contracts.protected import ProtectedContract
from importlinter.domain.contract import Contract

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "web", "firmware_bridge")
TYPES: dict[str, type[Contract]] = {"layers": LayersContract, "protected": ProtectedContract,
                                    "forbidden": ForbiddenContract, "independence": IndependenceContract,
                                    "acyclic_siblings": AcyclicSiblingsContract}


def _contracts() -> list[Contract]:
    configure()  # import-linter's own readers and contract types, as lint-imports sets them
    options = read_user_options(str(ROOT / "pyproject.toml"))
    out: list[Contract] = []
    for raw in options.contracts_options:
        opts = {k: v for k, v in raw.items() if k not in ("id", "name", "type")}
        out.append(TYPES[raw["type"]](name=raw["name"], session_options=options.session_options,
                                      contract_options=opts))
    return out


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph(*PACKAGES, include_external_packages=True, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))


def module_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    mods = sorted(m for m in graph.modules if m.split(".")[0] in PACKAGES)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for start in mods:
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph.find_modules_directly_imported_by(start)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, todo = work[-1]
            if todo:
                w = todo.pop()
                if w.split(".")[0] not in PACKAGES:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, sorted(graph.find_modules_directly_imported_by(w))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp: list[str] = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def _broken(graph: grimp.ImportGraph, importer: str, imported: str) -> list[str]:
    g = copy.deepcopy(graph)
    g.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
    # a contract may take ignored imports out of the graph it checks: each checks its own copy
    return [c.name for c in _contracts() if not c.check(copy.deepcopy(g), verbose=False).kept]


def test_every_contract_is_kept_and_no_module_is_in_a_cycle(graph: grimp.ImportGraph) -> None:
    assert len(_contracts()) >= 5
    broken = [c.name for c in _contracts() if not c.check(copy.deepcopy(graph), verbose=False).kept]
    assert broken == []
    assert module_cycles(graph) == []


@pytest.mark.parametrize(("importer", "imported", "contract"), [
    ("companion.table", "companion.app.serve", "Nothing below the application layer imports it"),
    ("vision.reader", "companion.app.wiring", "Nothing below the application layer imports it"),
    ("companion.service", "web.app", "The core (companion outside app) imports neither vision, web nor the tray"),
    ("web.camera", "vision.checks", "The application layer is above vision, web and the tray, which know nothing "
                                    "of each other"),
    ("firmware_bridge.link", "web.server", "The application layer is above vision, web and the tray, which know "
                                           "nothing of each other"),
    ("companion.dice", "numpy", "The rules, the table, the log, the events, the dice and the odds stay pure"),
    ("companion.events", "companion.service", "No import cycle between the modules of a package"),
])
def test_an_import_across_the_layers_breaks_its_contract(graph: grimp.ImportGraph, importer: str, imported: str,
                                                          contract: str) -> None:
    assert contract in _broken(graph, importer, imported)


def test_a_cycle_of_modules_is_found(graph: grimp.ImportGraph) -> None:
    g: Any = copy.deepcopy(graph)
    # vision.faces <- vision.enroll (the store builds on the features); the reverse closes a cycle
    g.add_import(importer="vision.faces", imported="vision.enroll", line_number=1, line_contents="import vision.enroll")
    assert ["vision.enroll", "vision.faces"] == [m for m in sum(module_cycles(g), []) if m in ("vision.enroll", "vision.faces")]


#: Test folders that follow no package: the real-browser tests (they cross every layer),
#: the installer's tests and the fake picamera2 module the camera tests import.
NOT_A_PACKAGE = {"browser", "deploy", "vision/fake_picamera2"}


def test_the_tests_mirror_the_packages() -> None:
    """``tests/companion/games/wuxia`` tests ``companion/games/wuxia``: every test folder
    names a package of the tree (but the few cross-cutting ones above)."""
    root = Path(__file__).resolve().parents[1]
    folders = [d.relative_to(root / "tests") for d in (root / "tests").rglob("*")
               if d.is_dir() and d.name != "__pycache__" and not d.name.startswith(".")]
    strays = [str(d) for d in folders
              if not any(str(d) == n or str(d).startswith(n + "/") for n in NOT_A_PACKAGE)
              and not (root / d / "__init__.py").is_file()]
    assert strays == []
    assert (root / "tests" / "companion" / "games" / "espri").is_dir()
