"""Paper sizes for office printing."""

from __future__ import annotations

import enum


class Paper(enum.StrEnum):
    A4 = "a4"
    LETTER = "letter"

    @property
    def size(self) -> tuple[float, float]:
        """Width and height in millimetres, portrait."""
        return PAPER_SIZES[self]


PAPER_SIZES = {Paper.A4: (210.0, 297.0), Paper.LETTER: (215.9, 279.4)}
