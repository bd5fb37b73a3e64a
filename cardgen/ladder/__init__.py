"""Corporate Ladder, the card game played with business cards, a game: what Corporate
Ladder card a printed card is (its type from the job title, its Strength from the first
digit printed on its contact side), the deck and its rules, the referee of an attack,
the pyramid; and its printed aids, the rules' figures and the play mat.

The models (``cards``, ``deck``, ``attack``, ``pyramid``) are pure: they import
``cardgen.draw.geometry`` (boxes and reading order), ``cardgen.datafile``,
``cardgen.schema``, ``cardgen.resources`` and ``cardgen.errors``. The type table is data,
``templates/ladder/types.toml``. ``figures`` and ``mat`` draw. Nothing here imports a
product, another game, rendering or the command line.

May import: ``cardgen.physical`` (the mat's card spaces), ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress`` (paper), ``cardgen.datafile``,
``cardgen.schema``, ``cardgen.resources``, ``cardgen.errors`` and ``cardgen.units``.
"""
