"""Rule sheets and what is printed beside them: rules texts kept as data in a small
markup (``templates/rules/*.md``, :mod:`cardgen.rules.markup`), set in columns on
pages (:mod:`cardgen.rules.sheet`), with diagrams drawn from the games' own models, and
printed play aids such as the Corporate Ladder play mat (:mod:`cardgen.rules.mat`).

Imports ``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress``
(paper sizes), ``cardgen.ladder`` (the pyramid), ``cardgen.datafile``,
``cardgen.resources`` and ``cardgen.errors``; the markup parser only the last two of
those and ``cardgen.datafile``.
"""
