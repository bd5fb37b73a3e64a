"""Corporate Ladder, the card game played with business cards: what Corporate Ladder
card a printed card is (its type from the job title, its Strength from the first digit
printed on its contact side).

Pure: imports ``cardgen.draw.geometry`` (boxes and reading order), ``cardgen.datafile``,
``cardgen.schema``, ``cardgen.resources`` and ``cardgen.errors``; never drawing,
rendering or the command line. The type table is data, ``templates/ladder/types.toml``.
"""
