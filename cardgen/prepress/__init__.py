"""Print production for any printed piece: paper sizes, crop and fold marks, dielines,
duplex N-up imposition with its registration test, saddle-stitched booklets (book pages
two to a side of a folded sheet), puzzle books (N puzzles per page, then their keys), the
ink rule, and the printing conditions (output intents) a print file may name.

Nothing here knows about the business card or any game: a piece is described by its
page boxes, its fold lines and how its two sides map onto each other; a puzzle by its
size and drawing. It never imports a game, a product, rendering or the command line.

May import: ``cardgen.version`` (the version on a sheet's slug), ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.datafile``, ``cardgen.schema``,
``cardgen.resources``, ``cardgen.errors`` and ``cardgen.units``.
"""
