"""Board primitives (R2-R6, R36): placing and removing gems along the paths, moving Nymphs.

Pure functions from a :class:`~.state.Board` to a new board plus a record of what moved,
so the tablet can say exactly where each gem went and where each Nymph moved. Records:

- placement ``{"gem", "quadrant", "cell"}`` (``cell`` None: no free cell in front of the
  Nymph, the gem goes back to the pool, E9);
- removal ``{"gem", "quadrant", "cell"}``;
- Nymph move ``{"nymph", "season", "from", "to", "why"}`` (why: advance, retreat, start,
  caterpillar, set).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..base import de
from .options import Options
from .state import GEM_NAMES, NYMPHS, Board, Quadrant, bilingual, check_season, shown

__all__ = [
    "check_gem_fits", "place", "place_many", "remove_from_centre", "remove_cells",
    "advance", "nymph_to_start", "set_nymph", "world_cell", "parse_cells",
]

Record = dict[str, Any]


def _fr(key: str) -> str:
    """A gem's or a Season's French name (the key itself when unknown)."""
    return GEM_NAMES[key]["fr"] if key in GEM_NAMES else key


def world_cell(quad: Quadrant) -> int:
    return quad.length


def check_gem_fits(gem: str, season: str) -> None:
    """R2 / 1.3: a cell holds a gem of its Season, of Time or of Rupture."""
    if gem not in (season, "temps", "rupture"):
        raise bilingual(
            "R2", f"une gemme {_fr(gem)} ne va pas sur le chemin {de(_fr(season))}\u202f: une case porte une gemme"
            " de sa Saison, de Temps ou de Rupture",
            f"a {gem} gem cannot go on the {season} path: a cell holds a gem of its own Season,"
            " of Time or of Rupture")


def place(board: Board, gem: str, season: str) -> tuple[Board, Record]:
    """R3: the first empty cell in front of the Nymph, towards the centre."""
    check_gem_fits(gem, season)
    quad = board.q(season)
    for cell in range(quad.nymph + 1, quad.length + 1):
        if quad.gem_at(cell) is None:
            return board.with_q(quad.with_cell(cell, gem)), {"gem": gem, "quadrant": season, "cell": cell}
    return board, {"gem": gem, "quadrant": season, "cell": None}


def place_many(board: Board, items: Iterable[tuple[str, str]]) -> tuple[Board, list[Record]]:
    """Place ``(gem, quadrant)`` pairs in the order given (E25: the placer's order)."""
    records = []
    for gem, season in items:
        board, rec = place(board, gem, season)
        records.append(rec)
    return board, records


def _move(season: str, frm: int, to: int, why: str) -> Record:
    return {"nymph": NYMPHS[season], "season": season, "from": frm, "to": to, "why": why}


def remove_from_centre(board: Board, season: str, k: int) -> tuple[Board, list[Record], list[Record]]:
    """R4 (Failure, Critical Failure): remove ``k`` gems from the paved cell closest to the
    centre down; a Nymph whose cell is emptied goes back to the highest remaining paved
    cell, or its start cell."""
    quad = board.q(season)
    removed: list[Record] = []
    for _ in range(max(0, k)):
        paved = quad.paved()
        if not paved:
            break
        cell = paved[-1]
        removed.append({"gem": quad.gem_at(cell), "quadrant": season, "cell": cell})
        quad = quad.with_cell(cell, None)
    moves: list[Record] = []
    if quad.nymph > 0 and quad.gem_at(quad.nymph) is None:
        paved = quad.paved()
        to = paved[-1] if paved else 0
        moves.append(_move(season, quad.nymph, to, "retreat"))
        quad = Quadrant(quad.season, quad.cells, to)
    return board.with_q(quad), removed, moves


def remove_cells(board: Board, cells: Iterable[tuple[str, Any]],
                 only: Iterable[str] | None = None) -> tuple[Board, list[Record], list[Record]]:
    """R5: remove the gems on the chosen cells (E21: a Nymph whose gem goes back moves to
    the nearest paved cell behind it, or its start cell). ``only`` limits the gem types."""
    allowed = set(only) if only is not None else None
    removed: list[Record] = []
    seen: set[tuple[str, int]] = set()
    for season, cell in cells:
        check_season(season, "quadrant")
        quad = board.q(season)
        if not isinstance(cell, int) or isinstance(cell, bool) or not 1 <= cell <= quad.length:
            raise bilingual("E3", f"la case {shown(cell)} n'est pas sur le chemin {season} (cases 1 à {quad.length})",
                            f"cell {shown(cell)} is not on the {season} path (cells 1-{quad.length})")
        if (season, cell) in seen:
            raise bilingual("R5", f"la case {cell} {de(_fr(season))} est nommée deux fois",
                            f"cell {cell} of {season} is named twice")
        seen.add((season, cell))
        gem = quad.gem_at(cell)
        if gem is None:
            raise bilingual("R5", f"la case {cell} du chemin {de(_fr(season))} ne porte aucune gemme",
                            f"cell {cell} of the {season} path holds no gem")
        if allowed is not None and gem not in allowed:
            raise bilingual(
                "R5", f"la case {cell} du chemin {de(_fr(season))} porte une gemme {_fr(gem)},"
                f" pas {' ou '.join(_fr(g) for g in sorted(allowed))}",
                f"cell {cell} of the {season} path holds a {gem} gem, not {' or '.join(sorted(allowed))}")
        removed.append({"gem": gem, "quadrant": season, "cell": cell})
        board = board.with_q(quad.with_cell(cell, None))
    moves: list[Record] = []
    for quad in board.quadrants:
        if quad.nymph > 0 and quad.gem_at(quad.nymph) is None:
            behind = [c for c in quad.paved() if c < quad.nymph]
            to = behind[-1] if behind else 0
            moves.append(_move(quad.season, quad.nymph, to, "retreat"))
            board = board.with_q(Quadrant(quad.season, quad.cells, to))
    return board, removed, moves


def advance(board: Board, season: str, options: Options) -> tuple[Board, list[Record]]:
    """R6: forward while the next cell is paved; stop on the first Rupture gem (E12b: the
    check starts with the next cell, unless option ``rupture_blocks_standing_nymph``).

    With option ``caterpillar`` (R36, E22), an advance of 0 cells takes a gem from behind
    the Nymph (the farthest behind by default) to the cell in front and moves one cell.
    """
    quad = board.q(season)
    start = quad.nymph
    pos = start
    blocked = (options.rupture_blocks_standing_nymph and pos > 0
               and quad.gem_at(pos) == "rupture")
    if not blocked:
        while pos < quad.length and quad.gem_at(pos + 1) is not None:
            pos += 1
            if quad.gem_at(pos) == "rupture":
                break
    moves: list[Record] = []
    if pos != start:
        moves.append(_move(season, start, pos, "advance"))
        return board.with_q(Quadrant(season, quad.cells, pos)), moves
    if options.caterpillar and not blocked and pos < quad.length and quad.gem_at(pos + 1) is None:
        behind = [c for c in quad.paved() if c < pos]
        if behind:
            src = behind[0] if options.caterpillar_gem == "farthest_behind" else behind[-1]
            gem = quad.gem_at(src)
            quad = quad.with_cell(src, None).with_cell(pos + 1, gem)
            moves.append({"gem": gem, "quadrant": season, "from_cell": src, "cell": pos + 1, "why": "caterpillar"})
            moves.append(_move(season, pos, pos + 1, "caterpillar"))
            return board.with_q(Quadrant(season, quad.cells, pos + 1)), moves
    return board, moves


def nymph_to_start(board: Board, season: str) -> tuple[Board, list[Record]]:
    """R22 Critical Failure: the leader's Nymph goes back to its start cell."""
    quad = board.q(season)
    if quad.nymph == 0:
        return board, []
    return board.with_q(Quadrant(season, quad.cells, 0)), [_move(season, quad.nymph, 0, "start")]


def set_nymph(board: Board, season: str, to: Any) -> tuple[Board, list[Record]]:
    """A GM correction of a Nymph's cell: only the start cell or a paved cell (1.3, R6)."""
    check_season(season, "Nymph")
    quad = board.q(season)
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to <= quad.length:
        raise bilingual(
            "R6", f"{NYMPHS[season]} ne quitte pas son chemin\u202f: ses cases vont de 0 (départ) à {quad.length} (monde),"
            f" pas {shown(to)}",
            f"{NYMPHS[season]} cannot leave her path: cells are 0 (start) to {quad.length} (world), not {shown(to)}")
    if to > 0 and quad.gem_at(to) is None:
        raise bilingual(
            "R6", f"{NYMPHS[season]} ne peut pas se tenir sur la case {to}\u202f: seule une case pavée"
            " (ou la case de départ) porte une Nymphe",
            f"{NYMPHS[season]} cannot stand on cell {to}: only a paved cell (or the start cell) holds a Nymph")
    if to == quad.nymph:
        return board, []
    return board.with_q(Quadrant(season, quad.cells, to)), [_move(season, quad.nymph, to, "set")]


def parse_cells(raw: Any, what: str = "cells") -> list[tuple[str, int]]:
    """``[{"quadrant": "hiver", "cell": 3}, ...]`` -> ``[("hiver", 3), ...]``."""
    if not isinstance(raw, list):
        raise bilingual("R5", f"«\u202f{what}\u202f» doit être une liste de {{quadrant, cell}}",
                        f"'{what}' must be a list of {{quadrant, cell}}")
    out = []
    for item in raw:
        if not isinstance(item, Mapping) or "quadrant" not in item or "cell" not in item:
            raise bilingual("R5", f"chaque élément de «\u202f{what}\u202f» demande «\u202fquadrant\u202f» et «\u202fcell\u202f»",
                            f"each of '{what}' needs 'quadrant' and 'cell'")
        out.append((check_season(item["quadrant"], "quadrant"), item["cell"]))
    return out


