"""The game business card, a product: its config and contact details, its spreads as
print pages, themes, the layout data, and the drawing of the outside and inside. The
physical card it is printed on (panels, fold, tabs, fold transforms) is
``cardgen.physical``, shared with the games.

It prints two games on itself: the Connector puzzle on its back (``cardgen.connector``:
its layout and its drawing) and, for Corporate Ladder, which Ladder card it is
(``cardgen.ladder.cards``). It never imports another product (``cardgen.rules``), a game's
registry, rendering or the command line.

May import: ``cardgen.version`` (the version on the sheet's slug), ``cardgen.connector``,
``cardgen.ladder``, ``cardgen.physical``, ``cardgen.board``, ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress``, ``cardgen.datafile``,
``cardgen.schema``, ``cardgen.resources``, ``cardgen.errors``, ``cardgen.units``,
``cardgen.chars``; ``PIL`` (Pillow: the portraits' duotone, inside functions).
"""
