"""The physical card that every product and game shares: its sizes (presets), the
folded business card and the opened card with its panels, the main fold and the hinges,
the tabs, the link circles, and the transforms that carry a drawing from one face to
another (``card``, ``links``), and the drawings of how to fold it (``figures``).

``card`` and ``links`` are models: they import only ``cardgen.draw.geometry``,
``cardgen.board``'s models, ``cardgen.errors`` and ``cardgen.units``. ``figures`` also
imports ``cardgen.draw``, ``cardgen.text`` and ``cardgen.texts``. Nothing here imports a
product, a game, rendering or the command line.
"""
