"""Rotator maps: Node placement rules, card notation and board IDs (SPEC §5.1).

Board coordinates: x = 0..9 left to right, y = 0..19 top to bottom with the card open
and grid A away from the player. Card notation names a cell by grid, column and row as
printed on that grid: grid A Row r, column c is (9 - c, 10 - r); grid B Row r, column c
is (c, 9 + r).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from cardgen.errors import CardgenError

WIDTH, HEIGHT = 10, 20
COLUMNS = "ABCDEFGHIJ"
NODES_PER_GRID = 5
TERRITORY_RADIUS = 2
ID_VERSION = "R1"

Cell = tuple[int, int]

_CARD = re.compile(r"^\s*([ABab])\s*:\s*([A-Ja-j])\s*(10|[1-9])\s*$")
_ID = re.compile(r"^R(\d+):([A-Za-z0-9]*)-([A-Za-z0-9]*)$")


def grid_of(cell: Cell) -> str:
    return "A" if cell[1] <= 9 else "B"


def card_name(cell: Cell, with_grid: bool = True) -> str:
    """Card notation: ``A:C4`` (grid, column letter, row number)."""
    x, y = cell
    if y <= 9:
        grid, column, row = "A", 9 - x, 10 - y
    else:
        grid, column, row = "B", x, y - 9
    name = f"{COLUMNS[column]}{row}"
    return f"{grid}:{name}" if with_grid else name


def parse_cell(text: str, where: str = "cell") -> Cell:
    """A cell from card notation (``A:C4``, case-insensitive)."""
    match = _CARD.match(text) if isinstance(text, str) else None
    if not match:
        raise CardgenError(f"{where}: {text!r} is not a cell in card notation such as "
                           "\"A:C4\" (grid A or B, column A–J, row 1–10).")
    grid, column, row = match.group(1).upper(), COLUMNS.index(match.group(2).upper()), int(
        match.group(3))
    return (9 - column, 10 - row) if grid == "A" else (column, 9 + row)


def on_board(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


def territory(center: Cell) -> frozenset[Cell]:
    """The diamond of cells within Manhattan distance 2, clipped to the board."""
    cx, cy = center
    r = TERRITORY_RADIUS
    return frozenset((cx + dx, cy + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
                     if abs(dx) + abs(dy) <= r and on_board(cx + dx, cy + dy))


def _placement_problem(center: Cell) -> str | None:
    """Why a Node centre may not sit here, or None."""
    name = card_name(center)
    x, y = center
    row = 10 - y if y <= 9 else y - 9
    column = 9 - x if y <= 9 else x
    if row in (1, 10):
        return f"Node {name} sits on an edge row (Node centres need Rows 2–9 of their grid)"
    if column in (0, 9):
        return (f"Node {name} sits on an edge column (Node centres need columns B–I of "
                "their grid)")
    return None


@dataclass(frozen=True)
class RotatorMap:
    """Ten Node centres, five per grid, in a canonical order (grid A first)."""

    nodes: tuple[Cell, ...]

    @classmethod
    def from_cells(cls, cells: list[Cell], where: str = "board") -> RotatorMap:
        """Check every placement rule of SPEC §5.1, naming the rule and the Node."""
        seen: set[Cell] = set()
        for cell in cells:
            if cell in seen:
                raise CardgenError(f"{where}: Node {card_name(cell)} is listed twice.")
            seen.add(cell)
        for grid in "AB":
            count = sum(1 for c in cells if grid_of(c) == grid)
            if count != NODES_PER_GRID:
                raise CardgenError(f"{where}: grid {grid} has {count} Node"
                                   f"{'' if count == 1 else 's'}; each grid needs exactly "
                                   f"{NODES_PER_GRID}.")
        for cell in cells:
            problem = _placement_problem(cell)
            if problem:
                raise CardgenError(f"{where}: {problem}.")
        owner: dict[Cell, Cell] = {}
        for cell in sorted(cells, key=_sort_key):
            for spot in sorted(territory(cell)):
                if spot in owner:
                    raise CardgenError(
                        f"{where}: the territories of Nodes {card_name(owner[spot])} and "
                        f"{card_name(cell)} overlap at {card_name(spot)} (no two territories "
                        "may share a cell).")
                owner[spot] = cell
        return cls(tuple(sorted(cells, key=_sort_key)))

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
        a = "".join(card_name(c, False) for c in self.nodes if grid_of(c) == "A")
        b = "".join(card_name(c, False) for c in self.nodes if grid_of(c) == "B")
        return f"{ID_VERSION}:{a}-{b}"

    @classmethod
    def from_id(cls, text: str) -> RotatorMap:
        """Parse a board ID (case and surrounding spaces do not matter)."""
        raw = text.strip()
        match = _ID.match(raw.upper().replace(" ", ""))
        if not match:
            raise CardgenError(
                f"board ID {raw!r} is malformed: expected {ID_VERSION}: then grid A's five "
                "Nodes, a dash, grid B's five, such as R1:B2B8E4I2I8-B4E2E8H4I9.")
        if f"R{match.group(1)}" != ID_VERSION:
            raise CardgenError(f"board ID {raw!r} has version R{match.group(1)}; this cardgen "
                               f"reads {ID_VERSION} IDs.")
        cells = []
        for grid, part in zip("AB", match.groups()[1:], strict=True):
            # Rows 2–9 are one digit; a "10" or "1" is read so that the rule check can name it.
            for column, row in re.findall(r"([A-Z])(10|\d)", part):
                cells.append(parse_cell(f"{grid}:{column}{row}", f"board ID {raw!r}"))
            if re.sub(r"[A-Z](10|\d)", "", part):
                raise CardgenError(f"board ID {raw!r}: grid {grid}'s part {part!r} is not a "
                                   "list of column letters and row numbers.")
        return cls.from_cells(cells, f"board ID {raw!r}")

    @classmethod
    def from_toml(cls, path: Path) -> RotatorMap:
        """A map from a file with ``nodes = ["A:C4", ...]`` in card notation."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CardgenError(f"board file {path} does not exist.") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CardgenError(f"board file {path} cannot be read ({exc}).") from None
        except tomllib.TOMLDecodeError as exc:
            raise CardgenError(f"{path}: invalid TOML: {exc}.") from None
        nodes = data.get("nodes")
        if not isinstance(nodes, list) or not all(isinstance(n, str) for n in nodes):
            raise CardgenError(f"{path}: expected nodes = [\"A:C4\", ...], a list of ten "
                               "cells in card notation.")
        extra = sorted(set(data) - {"nodes"})
        if extra:
            raise CardgenError(f"{path}: unknown key {extra[0]!r}; a board file holds only "
                               "nodes = [...].")
        return cls.from_cells([parse_cell(n, f"{path}: nodes") for n in nodes], str(path))


def load_board(spec: str) -> RotatorMap:
    """A board from an ID or from the path of a TOML file."""
    path = Path(spec)
    if spec.lower().endswith(".toml") or path.is_file():
        return RotatorMap.from_toml(path)
    return RotatorMap.from_id(spec)


def _sort_key(cell: Cell) -> tuple[str, str, int]:
    name = card_name(cell)
    return (name[0], name[2], int(name[3:]))
