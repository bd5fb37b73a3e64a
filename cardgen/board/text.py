"""The board as lines of characters for a terminal, laid out as the card opened flat:
grid A's letters above it (read from the far side), the fold, grid B's letters below."""

from __future__ import annotations

from collections.abc import Mapping

from cardgen.board.cells import COLUMNS, GRID_SIZE, HEIGHT, WIDTH, Cell, card_name

EMPTY = "·"


def text_board(marks: Mapping[Cell, str]) -> list[str]:
    """The board with ``marks`` (one character per marked cell, ``·`` elsewhere), with
    column letters and row numbers on both sides."""
    lines = ["      " + " ".join(reversed(COLUMNS)) + "      grid A, read from the far side"]
    for y in range(HEIGHT):
        if y == GRID_SIZE:
            lines.append("    " + "─" * (2 * WIDTH + 1) + "  fold")
        row = " ".join(marks.get((x, y), EMPTY) for x in range(WIDTH))
        label = card_name((0, y), with_grid=False)[1:]
        lines.append(f"  {label:>2}  {row}  {label:<2}")
    lines.append("      " + " ".join(COLUMNS) + "      grid B")
    return lines
