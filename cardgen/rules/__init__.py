"""The rules, a product: rules texts kept as data in a small markup
(``templates/rules/*.md``, :mod:`cardgen.rules.markup`), set in columns on a sheet
(:mod:`cardgen.rules.sheet`) or as a book (:mod:`cardgen.rules.book`), with figures that
each game draws from its own model (:mod:`cardgen.rules.figures` gathers them), and the
Rotator and Corporate Ladder sheets.

It never imports another product (``cardgen.card``) or the command line. The markup
parser, which is pure, imports only ``cardgen.datafile`` and ``cardgen.errors``.

May import: ``cardgen.games`` (the games' names), ``cardgen.games.registry`` (the games'
figures and the Rotator sheet's), ``cardgen.connector``, ``cardgen.ladder`` and
``cardgen.physical`` (their figures), ``cardgen.draw``, ``cardgen.text``,
``cardgen.texts``, ``cardgen.prepress`` (paper), ``cardgen.datafile``,
``cardgen.schema`` (the figure names' did-you-mean), ``cardgen.resources``,
``cardgen.errors`` and ``cardgen.units``.
"""
