"""Rotator, the one-player game: map and board IDs (board.py), the rules (engine.py),
the exhaustive solver (solver.py), the seeded generator (generator.py) and the printed
boards and answer keys (printing.py)."""
