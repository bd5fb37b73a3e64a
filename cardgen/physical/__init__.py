"""The physical card that every product and game shares: its sizes (presets), the
folded business card and the opened card with its panels, the main fold and the hinges,
the tabs, the link circles, and the transforms that carry a drawing from one face to
another (``card``, ``links``), and the drawings of how to fold it (``figures``).

``card`` and ``links`` are models: they import only ``cardgen.draw.geometry``,
``cardgen.board``'s models, ``cardgen.errors`` and ``cardgen.units``. Nothing here
imports a game, a product, rendering or the command line.

May import: ``cardgen.board``, ``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``
(the fold figures), ``cardgen.errors`` and ``cardgen.units``.
"""
