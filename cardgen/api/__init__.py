"""cardgen's Python API: everything the command line makes or judges, as values in memory.

``import cardgen`` and call it from a script, a web handler or a task queue's worker:
every function here takes Python objects (or the same TOML and CSV the command line
reads) and returns the files as bytes (:class:`~cardgen.api.files.Files`, by file name)
beside a typed report (warnings, the Corporate Ladder line, a verdict, a board's
figures). Nothing is written unless asked (``files.write(folder)``, all files or none).

The contract, which the tests hold it to:

* **Pure per item.** A call reads only its arguments and the files they name, keeps no
  state between calls and shares none between threads or processes (a per-user cache of
  font metrics aside, which changes no byte). The same arguments give the same bytes in
  any process, on any worker, in any order, so a task can be retried or run twice.
* **Errors are the domain's.** Bad input raises a :class:`~cardgen.errors.CardgenError`
  (a ``ValueError`` that carries the input); one with several problems is a
  :class:`~cardgen.errors.ProblemsError` whose ``problems`` each carry a machine-readable
  ``code`` (the ``*Problem`` enums). A fault of the machine (a disk that fails while
  writing) is a :class:`~cardgen.errors.RuntimeFault`, never a ``ValueError``.
* **The command line is a layer over this.** Every ``cardgen`` command parses its
  options, calls functions of this package, and prints what they return; it reaches
  the rest of cardgen only through here (``tests/test_layering.py`` checks it).

Names load lazily, the module that holds a name when the name is first asked for, so
that ``import cardgen`` costs nothing until it is used.

May import: ``cardgen.version``, ``cardgen.errors``, ``cardgen.output``, ``cardgen.card``,
``cardgen.games.rotator`` (its worker processes), ``cardgen.physical``, ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress``, ``cardgen.render``,
``cardgen.datafile``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # What a type checker and the reference pages see; kept in step with _EXPORTS.
    from cardgen.api.batch import (
        CardItem,
        People,
        SheetBatch,
        batch_warnings,
        make_cards,
        make_dielines,
        make_sheets,
        read_people,
    )
    from cardgen.api.files import Files
    from cardgen.errors import (
        BoardError,
        BoardProblem,
        CardgenError,
        ConfigError,
        ConfigProblem,
        GeneralProblem,
        InputFileError,
        ParameterError,
        ProblemsError,
        RuntimeFault,
    )
    from cardgen.output import StagedSet, staged_set
    from cardgen.version import __version__

# Each public name, with the module that holds it, a section for each part of the API.
_EXPORTS: dict[str, str] = {
    # files and errors
    "Files": "cardgen.api.files",
    "CardgenError": "cardgen.errors",
    "ProblemsError": "cardgen.errors",
    "ConfigError": "cardgen.errors",
    "BoardError": "cardgen.errors",
    "InputFileError": "cardgen.errors",
    "ParameterError": "cardgen.errors",
    "RuntimeFault": "cardgen.errors",
    "GeneralProblem": "cardgen.errors",
    "ConfigProblem": "cardgen.errors",
    "BoardProblem": "cardgen.errors",
    "__version__": "cardgen.version",
    # the card, a sheet, a batch
    "CardItem": "cardgen.api.batch",
    "People": "cardgen.api.batch",
    "SheetBatch": "cardgen.api.batch",
    "StagedSet": "cardgen.output",
    "batch_warnings": "cardgen.api.batch",
    "make_cards": "cardgen.api.batch",
    "make_dielines": "cardgen.api.batch",
    "make_sheets": "cardgen.api.batch",
    "read_people": "cardgen.api.batch",
    "staged_set": "cardgen.output",
    # Rotator
    # rules, play sheets
    # Connector, Corporate Ladder, the Node games
    # schemas
    # print targets
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'cardgen.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
