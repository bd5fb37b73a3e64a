"""Rule sheets and what is printed beside them: rules texts kept as data in a small
markup (``templates/rules/*.md``, :mod:`cardgen.rules.markup`), set in columns on
pages (:mod:`cardgen.rules.sheet`), with diagrams drawn from the games' own models, and
printed play aids such as the Corporate Ladder play mat (:mod:`cardgen.ladder.mat`).

It imports ``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress``
(paper sizes), ``cardgen.ladder`` (the pyramid), ``cardgen.connector`` (the Connector's
layout, shipped assemblies and pictures), ``cardgen.card`` (the cards' physical sizes),
``cardgen.datafile``, ``cardgen.resources``, ``cardgen.units`` and ``cardgen.errors``;
the markup parser, which is pure, only ``cardgen.datafile`` and ``cardgen.errors``.
"""
