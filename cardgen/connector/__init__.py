"""Connector, the puzzle on the card's back: a game's description shows only when as
many copies of the card are put together as the game needs players.

``model`` is the pure geometry (folded cards as faces in stacking order, placements on a
table, what covers what, reading order); it imports only ``cardgen.draw.geometry``.
``layout`` reads the fragments and coloured numbers from ``templates/connector/`` and
takes the card's shape and corner numbers from ``cardgen.physical.card`` and
``cardgen.physical.links``; ``assembly`` reads and writes assembly files; ``validate``,
``solve`` and ``check`` judge assemblies, search for the smallest, and check a layout,
from the model alone. The drawing modules (the card's back, the picture of an assembly)
may also import ``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``, ``cardgen.card``,
``cardgen.prepress`` (the ink rule), ``cardgen.render`` and ``cardgen.output``. Nothing
here imports ``cardgen.cli``.
"""
