"""Rotator maps: Node placement rules and board IDs (SPEC §5.1).

A map is ten Node centres, five per grid. The rules: each centre on Rows 2–9 and columns
B–I of its own grid; no two territories sharing a cell (territories may cross the fold).
:func:`map_problems` lists every rule a set of centres breaks; :class:`RotatorMap` is
only ever built from centres that break none.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

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
from cardgen.errors import BoardError, BoardProblem, ConfigError, Problem, shorten
from cardgen.schema import ListOf, Table, Text, check

NODES_PER_GRID = 5
ID_VERSION = "R1"
EXAMPLE_ID = "R1:B2B8E4I2I8-B4E2E8H4I9"

# Characters read as the dash between the grids: the ASCII one and Unicode's dashes
# (hyphen, non-breaking hyphen, figure dash, en dash, em dash, horizontal bar, minus).
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_LETTERS = frozenset(COLUMNS + COLUMNS.lower())
_DIGITS = frozenset("0123456789")
_ID_START = re.compile(r"^\s*[Rr]\d+:")
# Cells one after another (``B2B8E4``), as _read_id reads them one by one: a column
# letter, then 10 or a row 1-9. Matched in one go, a long ID is read in C.
_CELL = re.compile(f"[{COLUMNS}{COLUMNS.lower()}](?:10|[1-9])")
_CELLS = re.compile(f"(?:{_CELL.pattern})+")

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


def map_problems(cells: list[Cell]) -> list[Problem]:
    """Every placement rule of SPEC §5.1 that these centres break, each naming the rule
    and the Node: repeats, then the count per grid, then edges, then overlaps."""
    problems: list[Problem] = []
    seen: dict[Cell, None] = {}  # the distinct centres, in the order given
    for cell in cells:
        if cell in seen:
            problems.append(Problem(f"Node {card_name(cell)} is listed twice.",
                                    BoardProblem.DUPLICATE_NODE))
        seen[cell] = None
    for grid in Grid:
        count = sum(1 for c in seen if grid_of(c) is grid)
        if count != NODES_PER_GRID:
            problems.append(Problem(f"grid {grid} has {count} Node{'' if count == 1 else 's'}; "
                                    f"each grid needs exactly {NODES_PER_GRID}.",
                                    BoardProblem.NODE_COUNT))
    for cell in seen:
        problem = placement_problem(cell)
        if problem:
            problems.append(Problem(f"{problem}.", BoardProblem.PLACEMENT))
    for o in overlaps(sorted(seen, key=sort_key)):
        problems.append(Problem(f"the territories of Nodes {card_name(o.first)} and "
                                f"{card_name(o.second)} overlap at {card_name(o.cell)} (no "
                                "two territories may share a cell).", BoardProblem.OVERLAP))
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
        """Parse a board ID as people paste it: any case, spaces around it and between
        cells, an en or em dash (or any Unicode dash) for the dash, one space between
        the grids instead of the dash, and without the ``R1:`` prefix. Only ASCII column
        letters and digits are read, so that no other character can pass for one of them;
        anything else is named with its position."""
        raw = text.strip()
        where = f"board ID {shorten(raw)}"
        version, parts = _read_id(raw, where, text)
        if version != ID_VERSION:
            shown = version if len(version) < 8 else version[:7] + "…"
            raise BoardError("", [Problem(f"{where} has version {shown}; this cardgen reads "
                                          f"{ID_VERSION} IDs.", BoardProblem.ID_VERSION)],
                             value=text)
        cells = [parse_cell(f"{grid}:{name}", where)
                 for grid, part in zip(Grid, parts, strict=True) for name in part]
        return cls.from_cells(cells, where)

    @classmethod
    def from_toml(cls, path: Path) -> RotatorMap:
        """A map from a file with ``nodes = ["A:C4", ...]`` in card notation."""
        return cls.from_data(read_toml(path, "board file"), str(path))

    @classmethod
    def from_data(cls, data: Mapping[str, Any], source: str = "board") -> RotatorMap:
        """A map from a board file's contents already read (``{"nodes": ["A:C4", ...]}``);
        problems name ``source`` as they name the file."""
        values = check(BOARD_FILE, data, source)
        cells = []
        problems = []
        for i, name in enumerate(values["nodes"]):
            try:
                cells.append(parse_cell(name, f"{source}: nodes"))
            except BoardError as exc:
                problems.append(exc.problems[0].reworded(f"nodes item {i + 1}: "
                                                         f"{exc.problems[0]}"))
        if problems:
            raise ConfigError(source, problems)
        return cls.from_cells(cells, f"{source}: nodes")


def _read_id(raw: str, where: str, text: str, *,
             runs: bool = True) -> tuple[str, tuple[list[str], list[str]]]:
    """The version (``R1`` when left out) and grid A's and grid B's cells (``"C4"``) of a
    stripped board ID, read left to right; a BoardError names the first character that
    does not fit, with its position (counted from 1, after leading spaces). With
    ``runs``, cells that follow one another are read in one go (:data:`_CELLS`), which
    reads what the character-by-character loop reads (``runs=False``, kept for the
    test that says so) a hundred times faster on an ID a megabyte long."""

    def fail(problem: str) -> BoardError:
        return BoardError("", [Problem(f"{where} is malformed: {problem}",
                                       BoardProblem.MALFORMED_ID)], value=text)

    def odd(i: int, what: str) -> BoardError:
        return fail(f"character {i + 1}, {character_name(raw[i])}, is {what}.")

    i, n = 0, len(raw)
    version = ID_VERSION
    if i < n and raw[i] in "Rr":
        j = i + 1
        while j < n and raw[j] in _DIGITS:
            j += 1
        if j == i + 1:
            raise fail(f"the R at character {i + 1} needs a version number, as in "
                       f"{ID_VERSION}:.")
        version, i = "R" + raw[i + 1:j], j
        while i < n and raw[i].isspace():
            i += 1
        if i < n and raw[i] == ":":
            i += 1
    parts: tuple[list[str], list[str]] = ([], [])
    part = 0
    dashed = False
    gaps: list[int] = []  # cells read before each space between two cells (no dash yet)
    while i < n:
        if runs:
            found = _CELLS.match(raw, i)
            if found is not None:
                parts[part].extend(_CELL.findall(found.group().upper()))
                i = found.end()
                continue
        ch = raw[i]
        if (ch.isspace() and ch.isascii()) or ch == "\u00a0":
            if parts[0] and not dashed and (not gaps or gaps[-1] != len(parts[0])):
                gaps.append(len(parts[0]))
            i += 1
        elif ch in DASHES:
            if dashed:
                raise odd(i, "a second dash; one dash separates grid A's Nodes from grid B's")
            dashed, part = True, 1
            i += 1
        elif ch in _LETTERS:
            j = i + 1
            if j == n:
                raise fail(f"it ends after the column letter {ch.upper()}, where a row "
                           "number belongs.")
            if raw[j] == "1" and raw[j + 1:j + 2] == "0":
                row = "10"
            elif raw[j] in _DIGITS and raw[j] != "0":
                row = raw[j]
            else:
                raise odd(j, f"not a row number 1–10 (after the column letter {ch.upper()})")
            parts[part].append(ch.upper() + row)
            i = j + len(row)
        else:
            raise odd(i, f"not a column letter A–J, a row number or the dash between the grids "
                         f"(a board ID looks like {EXAMPLE_ID})")
    if not dashed:
        gaps = [g for g in gaps if g < len(parts[0])]  # not the spaces at the end
        if len(gaps) != 1:
            raise fail(f"grid A's Nodes and grid B's need a dash (or one space) between them, "
                       f"as in {EXAMPLE_ID}.")
        cells = parts[0]
        parts = (cells[:gaps[0]], cells[gaps[0]:])
    return version, parts


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
