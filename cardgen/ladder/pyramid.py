"""The Corporate Ladder pyramid: its places, which card rests on which, which cards can
be attacked, and where the places lie when the cards are laid out on a table.

Places are counted from the top: row 0 is the apex (the Upper Management card), and row
r holds r + 1 places, numbered from the left. The card in place (r, c) above the bottom
row rests on the two places below it, (r + 1, c) and (r + 1, c + 1). A card can be
attacked only when no card lies in either place directly below it: a bottom-row card
always can, and so can a card whose two supports have both been beaten.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cardgen.draw.geometry import Box
from cardgen.errors import CardgenError

GAME_ROWS = (3, 4)  # the pyramids the game is played with: 6 or 10 cards
MAX_ROWS = 12


@dataclass(frozen=True, order=True)
class Slot:
    """A place in the pyramid: ``row`` 0 is the apex, ``col`` counts from the left."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"row {self.row + 1} place {self.col + 1}"


@dataclass(frozen=True)
class Pyramid:
    """A pyramid of ``rows`` rows (the game uses 3 or 4)."""

    rows: int

    def __post_init__(self) -> None:
        if not 1 <= self.rows <= MAX_ROWS:
            raise CardgenError(f"a pyramid has 1 to {MAX_ROWS} rows, not {self.rows}.",
                               value=self.rows)

    def slots(self) -> tuple[Slot, ...]:
        """Every place, row by row from the apex, each row from the left."""
        return tuple(Slot(r, c) for r in range(self.rows) for c in range(r + 1))

    def __len__(self) -> int:
        return self.rows * (self.rows + 1) // 2

    def __contains__(self, slot: object) -> bool:
        return (isinstance(slot, Slot) and 0 <= slot.row < self.rows
                and 0 <= slot.col <= slot.row)

    @property
    def apex(self) -> Slot:
        return Slot(0, 0)

    def _check(self, slots: Iterable[Slot]) -> frozenset[Slot]:
        given = frozenset(slots)
        outside = sorted(s for s in given if s not in self)
        if outside:
            raise CardgenError(f"{', '.join(map(str, outside))} is not a place of a "
                               f"{self.rows}-row pyramid.", value=outside)
        return given

    def below(self, slot: Slot) -> tuple[Slot, ...]:
        """The two places a card in ``slot`` rests on (none on the bottom row)."""
        self._check([slot])
        if slot.row == self.rows - 1:
            return ()
        return Slot(slot.row + 1, slot.col), Slot(slot.row + 1, slot.col + 1)

    def above(self, slot: Slot) -> tuple[Slot, ...]:
        """The places whose cards rest on ``slot`` (one or two; none for the apex)."""
        self._check([slot])
        r, c = slot.row - 1, slot.col
        return tuple(Slot(r, x) for x in (c - 1, c) if 0 <= x <= r)

    def attackable(self, occupied: Iterable[Slot]) -> frozenset[Slot]:
        """The occupied places whose card can be attacked: no card directly below."""
        taken = self._check(occupied)
        return frozenset(s for s in taken if not any(b in taken for b in self.below(s)))

    def size(self, width: float, height: float, gap_x: float, gap_y: float,
             ) -> tuple[float, float]:
        """The width and height the pyramid covers when its cards are ``width`` ×
        ``height`` with the given gaps between neighbours and between rows."""
        return (self.rows * width + (self.rows - 1) * gap_x,
                self.rows * height + (self.rows - 1) * gap_y)

    def boxes(self, width: float, height: float, gap_x: float, gap_y: float,
              ) -> dict[Slot, Box]:
        """Where each card lies (y down, the pyramid's top-left corner at 0, 0): each
        card centred over the gap between the two it rests on."""
        total = self.size(width, height, gap_x, gap_y)[0]
        step = width + gap_x
        out = {}
        for slot in self.slots():
            left = (total - (slot.row + 1) * width - slot.row * gap_x) / 2 + slot.col * step
            out[slot] = Box(left, slot.row * (height + gap_y), width, height)
        return out
