"""cardgen's version, which the print files (their producer and slug) and the command line
name. A module of its own, at the bottom of the layers, so that naming the version imports
nothing else; the package root re-exports it as ``cardgen.__version__``."""

__version__ = "0.1.0"
