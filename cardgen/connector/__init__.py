"""Connector, the puzzle on the card's back, a game: a game's description shows only when
as many copies of the card are put together as the game needs players.

``model`` is the pure geometry (folded cards as faces in stacking order, placements on a
table, what covers what, reading order); it imports only ``cardgen.draw.geometry`` and
``cardgen.games.names``. ``layout`` reads the fragments and coloured numbers from
``templates/connector/`` and takes the card's shape and corner numbers from
``cardgen.physical``; ``assembly`` reads and writes assembly files; ``validate``,
``solve`` and ``check`` judge assemblies, search for the smallest, and check a layout,
from the model alone. The drawing modules draw the card's back (for the card product),
the rules' figures and the picture of an assembly; ``picture`` also renders that picture
and writes it, all or nothing, as the command line does its files. Nothing here imports
a product (the card, the rules, the command line) or another game.

May import: ``cardgen.games`` (the games' names), ``cardgen.physical``, ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress`` (the ink rule),
``cardgen.render``, ``cardgen.output``, ``cardgen.datafile``, ``cardgen.schema``,
``cardgen.resources``, ``cardgen.errors`` and ``cardgen.units``.
"""
