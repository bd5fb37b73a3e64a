"""Rotator, the one-player game (SPEC §5): maps and board IDs (``board``), the rules
written for reading (``engine``), the exhaustive bitboard solver (``solver``) checked
against a straightforward search (``reference``), the seeded, graded generator
(``generator``), lines and solutions in words (``describe``), printed boards and answer
keys (``art``) and the game's entry in the registry (``game``)."""
