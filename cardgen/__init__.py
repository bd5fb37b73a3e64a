"""cardgen: print-ready foldable game business cards and the games played on them.

``import cardgen`` is the library: every name of :mod:`cardgen.api` (``cardgen.make_card``,
``cardgen.Files``, the errors …) is an attribute of this root, loaded from ``cardgen.api``
the first time it is asked for, so that importing any part of cardgen (the command line,
a game's model) stays as light as that part. The version lives in ``cardgen.version``.

The package is in layers; ``tests/test_layering.py`` states what each part may import
(its ``MAY_IMPORT``), and every package's docstring repeats it in a paragraph that
starts "May import:", checked against that statement. The root stands on top, beside the
command line: it reaches the library only when a name is asked for.

May import: ``cardgen.version``, ``cardgen.api``.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from cardgen.version import __version__

if TYPE_CHECKING:
    from cardgen.api import *  # noqa: F403  (what a type checker sees of the lazy names)


def __getattr__(name: str) -> Any:
    """A name of the library (``cardgen.make_card``), loaded when first asked for."""
    if name.startswith("__") or _is_module(name):
        # ``from cardgen import output`` asks here before it loads the submodule: a part
        # of the package is never a name of the library, and asking must not load it.
        raise AttributeError(name)
    api = importlib.import_module("cardgen.api")
    if name not in api.__all__:
        raise AttributeError(f"module 'cardgen' has no attribute {name!r}")
    value = getattr(api, name)
    globals()[name] = value
    return value


def _is_module(name: str) -> bool:
    here = os.path.dirname(__file__)
    return (os.path.isfile(os.path.join(here, f"{name}.py"))
            or os.path.isdir(os.path.join(here, name)))


def __dir__() -> list[str]:
    api = importlib.import_module("cardgen.api")
    return sorted({*globals(), *api.__all__})


__all__ = ["__version__"]  # ``from cardgen import *`` stays small: the library is by name
