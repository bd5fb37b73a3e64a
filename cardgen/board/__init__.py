"""The twin 10 × 10 board that all four grid games are played on.

Models (``cells``, ``territory``, ``frame``) are pure: board coordinates, card notation,
Node territories, where the grids sit. They import only ``cardgen.errors`` and
``cardgen.draw.geometry``. ``art`` draws the grids as page items and ``text`` as lines of
characters; they may also import ``cardgen.draw`` and ``cardgen.text``. Nothing here
imports rendering, prepress or the command line.
"""
