"""Rotator, the one-player game (SPEC §5): maps and board IDs (``board``), the rules
written for reading (``engine``), the exhaustive bitboard solver (``solver``) checked
against a straightforward search (``reference``), the seeded, graded generator
(``generator``, ``grading``), lines and solutions in words (``describe``), play from a
board (``play``), printed boards and answer keys (``art``), the rules' figures
(``figures``) and the game's entry in the registry (``game``).

The models (``board``, ``engine``, ``solver``, ``reference``, ``generator``, ``grading``,
``describe``, ``play``) are pure; ``art``, ``figures`` and ``game`` draw. Nothing here
imports a product, another game, rendering or the command line.

May import: ``cardgen.games`` (the seeded random numbers), ``cardgen.board``,
``cardgen.physical``, ``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``,
``cardgen.datafile``, ``cardgen.schema``, ``cardgen.chars``, ``cardgen.errors`` and
``cardgen.units``.
"""
