"""Rotator maps: Node placement rules and board IDs (SPEC §5.1).

A map is ten Node centres, five per grid. The rules: each centre on Rows 2–9 and columns
B–I of its own grid; no two territories sharing a cell (territories may cross the fold).
:func:`map_problems` lists every rule a set of centres breaks; :class:`RotatorMap` is
only ever built from centres that break none.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from cardgen.board.cells import (
    COLUMNS,
    GRID_SIZE,
    Cell,
    Grid,
    card_name,
    grid_of,
    grid_position,
    parse_cell,
)
from cardgen.board.territory import overlaps, territory
from cardgen.chars import character_name
from cardgen.datafile import read_toml
from cardgen.errors import BoardError, ConfigError, shorten
from cardgen.schema import ListOf, Table, Text, check

NODES_PER_GRID = 5
ID_VERSION = "R1"

_ID = re.compile(r"^R(\d+):([A-Za-z0-9]*)-([A-Za-z0-9]*)$")
_ID_START = re.compile(r"^\s*[Rr]\d+:")

BOARD_FILE = Table({"nodes": ListOf(Text(), "The ten Node centres in card notation.",
                                    missing="is missing: a board file holds nodes = "
                                            "[\"A:C4\", ...], ten cells in card notation.")})


def placement_problem(center: Cell) -> str | None:
    """Why a Node centre may not sit here, or None."""
    name = card_name(center)
    _, column, row = grid_position(center)
    if row in (1, GRID_SIZE):
        return f"Node {name} sits on an edge row (Node centres need Rows 2–9 of their grid)"
    if column in (0, GRID_SIZE - 1):
        return (f"Node {name} sits on an edge column (Node centres need columns B–I of "
                "their grid)")
    return None


def sort_key(cell: Cell) -> tuple[str, str, int]:
    """Card order: grid, then column letter, then row."""
    grid, column, row = grid_position(cell)
    return (grid.value, COLUMNS[column], row)


def map_problems(cells: list[Cell]) -> list[str]:
    """Every placement rule of SPEC §5.1 that these centres break, each naming the rule
    and the Node: repeats, then the count per grid, then edges, then overlaps."""
    problems = []
    seen: dict[Cell, None] = {}  # the distinct centres, in the order given
    for cell in cells:
        if cell in seen:
            problems.append(f"Node {card_name(cell)} is listed twice.")
        seen[cell] = None
    for grid in Grid:
        count = sum(1 for c in seen if grid_of(c) is grid)
        if count != NODES_PER_GRID:
            problems.append(f"grid {grid} has {count} Node{'' if count == 1 else 's'}; each "
                            f"grid needs exactly {NODES_PER_GRID}.")
    for cell in seen:
        problem = placement_problem(cell)
        if problem:
            problems.append(f"{problem}.")
    for o in overlaps(sorted(seen, key=sort_key)):
        problems.append(f"the territories of Nodes {card_name(o.first)} and "
                        f"{card_name(o.second)} overlap at {card_name(o.cell)} (no two "
                        "territories may share a cell).")
    return problems


@dataclass(frozen=True)
class RotatorMap:
    """Ten Node centres, five per grid, in card order (grid A first)."""

    nodes: tuple[Cell, ...]

    def __post_init__(self) -> None:
        """Check every placement rule; keep the centres in card order."""
        problems = map_problems(list(self.nodes))
        if problems:
            raise BoardError("board", problems, value=self.nodes)
        object.__setattr__(self, "nodes", tuple(sorted(self.nodes, key=sort_key)))

    @classmethod
    def from_cells(cls, cells: list[Cell], where: str = "board") -> RotatorMap:
        """A map from centres, or a BoardError naming ``where`` and every broken rule."""
        try:
            return cls(tuple(cells))
        except BoardError as exc:
            raise BoardError(where, exc.problems, value=cells) from None

    @cached_property
    def territories(self) -> tuple[frozenset[Cell], ...]:
        return tuple(territory(c) for c in self.nodes)

    @cached_property
    def solid(self) -> frozenset[Cell]:
        """Territory cells are solid; every other cell is open air."""
        return frozenset().union(*self.territories)

    @property
    def board_id(self) -> str:
        """``R1:`` then grid A's and grid B's Nodes in card notation, e.g.
        ``R1:B2B8E4I2I8-B4E2E8H4I9``."""
        a = "".join(card_name(c, False) for c in self.nodes if grid_of(c) is Grid.A)
        b = "".join(card_name(c, False) for c in self.nodes if grid_of(c) is Grid.B)
        return f"{ID_VERSION}:{a}-{b}"

    @classmethod
    def from_id(cls, text: str) -> RotatorMap:
        """Parse a board ID (case and surrounding spaces do not matter; only ASCII
        letters, digits, ':' and '-' are read, so that no other character can pass for
        one of them)."""
        raw = text.strip()
        where = f"board ID {shorten(raw)}"
        odd = next((ch for ch in raw if not (ch.isascii() and (ch.isalnum() or ch in ":- "))),
                   None)
        if odd is not None:
            raise BoardError("", [f"{where} contains {character_name(odd)}; a board ID has "
                                  "only letters A–Z, digits 0–9, ':' and '-'."], value=text)
        match = _ID.match(raw.upper().replace(" ", ""))
        if not match:
            raise BoardError("", [
                f"{where} is malformed: expected {ID_VERSION}: then grid A's five Nodes, a "
                "dash, grid B's five, such as R1:B2B8E4I2I8-B4E2E8H4I9."], value=text)
        if f"R{match.group(1)}" != ID_VERSION:
            raise BoardError("", [f"{where} has version R{match.group(1)}; this cardgen reads "
                                  f"{ID_VERSION} IDs."], value=text)
        cells = []
        for grid, part in zip(Grid, match.groups()[1:], strict=True):
            # Rows 2–9 are one digit; a "10" or "1" is read so that the rule check can name it.
            for column, row in re.findall(r"([A-Z])(10|\d)", part):
                cells.append(parse_cell(f"{grid}:{column}{row}", where))
            if re.sub(r"[A-Z](10|\d)", "", part):
                raise BoardError(where, [f"grid {grid}'s part {part!r} is not a list of "
                                         "column letters and row numbers."], value=text)
        return cls.from_cells(cells, where)

    @classmethod
    def from_toml(cls, path: Path) -> RotatorMap:
        """A map from a file with ``nodes = ["A:C4", ...]`` in card notation."""
        values = check(BOARD_FILE, read_toml(path, "board file"), str(path))
        cells = []
        problems = []
        for i, name in enumerate(values["nodes"]):
            try:
                cells.append(parse_cell(name, f"{path}: nodes"))
            except BoardError as exc:
                problems.append(f"nodes item {i + 1}: {exc.problems[0]}")
        if problems:
            raise ConfigError(str(path), problems)
        return cls.from_cells(cells, str(path))


def load_board(spec: str) -> RotatorMap:
    """A board from an ID or from the path of a TOML file: a spec that starts like an ID
    (``R1:``) is an ID, one that ends in ``.toml`` or names something that exists is a
    file."""
    if _ID_START.match(spec):
        return RotatorMap.from_id(spec)
    path = Path(spec)
    try:
        exists = os.path.lexists(path)
    except (OSError, ValueError):  # a name too long for a path, or with a NUL byte
        exists = False
    if spec.lower().endswith(".toml") or exists:
        return RotatorMap.from_toml(path)  # a folder, a FIFO or a device is refused there
    return RotatorMap.from_id(spec)
