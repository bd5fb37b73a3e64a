"""cardgen: print-ready foldable game business cards and the games played on them.

The package is in layers; ``tests/test_layering.py`` states what each part may import
(its ``MAY_IMPORT``), and every package's docstring repeats it in a paragraph that
starts "May import:", checked against that statement. This root holds only the version,
which the print files and the command line name.

May import: nothing.
"""

__version__ = "0.1.0"
