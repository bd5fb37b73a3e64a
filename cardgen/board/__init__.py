"""The twin 10 × 10 board that all four grid games are played on.

Models (``cells``, ``territory``, ``frame``, ``text``) are pure: board coordinates and
card notation, Control Nodes' territories on the board (SPEC §4, shared by Rotator and
the Node games), where the grids sit on the opened card, and a board as lines of
characters. ``art`` draws the grids as page items (lines, labels, the card's grid
tints). The models import only ``cardgen.errors`` and ``cardgen.draw.geometry``.

May import: ``cardgen.draw``, ``cardgen.text`` (the grid art fits its labels),
``cardgen.errors`` and ``cardgen.units``.
"""
