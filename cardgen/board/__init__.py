"""The twin 10 × 10 board that all four grid games are played on.

Models (``cells``, ``territory``, ``frame``, ``tables``) are pure: board coordinates,
card notation, Node territories, where the grids sit, and how players' grids are laid
out on a table (``tables``, read from ``templates/tables``). They import only
``cardgen.errors`` and ``cardgen.draw.geometry``, and ``tables`` also
``cardgen.datafile``, ``cardgen.schema`` and ``cardgen.resources`` for its data file.
``art`` draws the grids as page items and ``text`` as lines of characters; they may also
import ``cardgen.draw`` and ``cardgen.text``. Nothing here imports rendering, prepress
or the command line.
"""
