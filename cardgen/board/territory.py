"""Control Nodes' territories (SPEC §4): the diamond of cells within Manhattan distance
2 of the Node, clipped to the board (13 cells, 11–13 near an edge)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cardgen.board.cells import Cell, on_board

TERRITORY_RADIUS = 2
# Two diamonds of radius r are disjoint exactly when their centres are 2r + 1 apart.
MIN_DISJOINT_DISTANCE = 2 * TERRITORY_RADIUS + 1


def territory(center: Cell) -> frozenset[Cell]:
    """The diamond of cells within Manhattan distance 2, clipped to the board."""
    cx, cy = center
    r = TERRITORY_RADIUS
    return frozenset((cx + dx, cy + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
                     if abs(dx) + abs(dy) <= r and on_board(cx + dx, cy + dy))


def distance(a: Cell, b: Cell) -> int:
    """Manhattan distance."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass(frozen=True)
class Overlap:
    """Two Nodes whose territories share ``cell`` (the first shared cell, in (x, y)
    order); ``first`` comes before ``second`` in the order the Nodes were given."""

    first: Cell
    second: Cell
    cell: Cell


def overlaps(centres: Iterable[Cell]) -> list[Overlap]:
    """Every pair of Nodes whose territories share a cell. Ordered as found when the
    Nodes are placed one by one in the order given: by the later Node of the pair, then
    by the shared cell."""
    nodes = list(centres)
    areas = [territory(n) for n in nodes]
    found = []
    for j, b in enumerate(nodes):
        pairs = [Overlap(a, b, min(shared)) for a, area in zip(nodes[:j], areas, strict=False)
                 if (shared := area & areas[j])]
        found += sorted(pairs, key=lambda o: o.cell)
    return found

