"""Print production for any printed piece: paper sizes, crop and fold marks, dielines,
duplex N-up imposition with its registration test, saddle-stitched booklets (book pages
two to a side of a folded sheet), puzzle books (N puzzles per page, then their keys), and
the printing conditions (output intents) a print file may name.

Nothing here knows about the business card or any game: a piece is described by its
page boxes, its fold lines and how its two sides map onto each other; a puzzle by its
size and drawing. May import ``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``,
``cardgen.errors`` and the data-file readers (``datafile``, ``schema``, ``resources``);
never ``cardgen.card``, ``cardgen.games``, ``cardgen.render`` or ``cardgen.cli``.
"""
