"""cardgen: print-ready foldable game business cards and the games played on them."""

__version__ = "0.1.0"
