"""The game business card: its config and contact details, the physical card (panels,
fold, tabs, fold transforms), its spreads as print pages, themes, the layout data, and
the drawing of the outside and inside.

``physical`` is a model: it imports only ``cardgen.draw.geometry``, ``cardgen.board``'s
models, ``cardgen.errors`` and ``cardgen.units``. The rest may import ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.board``, ``cardgen.prepress``,
``cardgen.schema``, ``cardgen.datafile``, ``cardgen.chars`` and ``cardgen.connector`` (the
puzzle on the back: its layout and its drawing) (and Pillow, inside
``portrait``'s functions); never ``cardgen.games``, ``cardgen.render`` or ``cardgen.cli``.
"""
