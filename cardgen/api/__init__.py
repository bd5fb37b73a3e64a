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

May import: ``cardgen.version``, ``cardgen.card``, ``cardgen.rules``, ``cardgen.connector``,
``cardgen.ladder``, ``cardgen.games``, ``cardgen.games.registry``, ``cardgen.games.nodes``,
``cardgen.games.rotator``, ``cardgen.physical``, ``cardgen.board``, ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress``, ``cardgen.render``,
``cardgen.output``, ``cardgen.datafile``, ``cardgen.schema``, ``cardgen.errors``; ``watchfiles``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # What a type checker and the reference pages see; kept in step with _EXPORTS.
    # the card, a sheet, a batch
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
    from cardgen.api.card import (
        CardResult,
        SheetLayout,
        SheetResult,
        card_config,
        check_theme,
        example_config,
        ladder_line,
        make_card,
        make_sheet,
        printing_condition,
    )
    from cardgen.api.connector import AssemblyVerdict, load_assembly, validate_assembly
    from cardgen.api.connector_tools import (
        ConnectorLayoutCheck,
        ConnectorPictures,
        ConnectorSolution,
        SearchGaveUp,
        check_connector_layout,
        connector_pictures,
        solve_assembly,
    )
    from cardgen.api.files import Files
    from cardgen.api.ladder import (
        AttackVerdict,
        DeckCheck,
        LadderSheets,
        check_deck,
        decide_attack,
        ladder_mat,
        ladder_rules,
    )
    from cardgen.api.nodes import (
        NodesMatch,
        NodesSession,
        RefereeReport,
        referee,
    )
    from cardgen.api.rotator import (
        RotatorBoards,
        RotatorBook,
        RotatorGame,
        RotatorGeneration,
        RotatorMap,
        RotatorSolution,
        generate_rotator,
        make_rotator_boards,
        make_rotator_book,
        play_rotator,
        read_rotator_board,
        rotator_board,
        rotator_decide,
        rotator_game,
        rotator_hint_record,
        rotator_lines,
        rotator_play_record,
        solve_rotator,
    )
    from cardgen.api.rules import Playsheet, RulesBook, make_playsheet, make_rules
    from cardgen.api.schemas import (
        SchemaName,
        csv_rows,
        json_schema,
        schema_files,
        schema_id,
        schema_names,
        schema_text,
    )
    from cardgen.api.targets import (
        Target,
        load_target,
        print_targets,
        target_conflict,
        target_files,
    )
    from cardgen.api.watch import card_sources, file_states, watch_files
    from cardgen.card.build import LadderCard
    from cardgen.card.config import CardConfig
    from cardgen.errors import (
        BoardError,
        BoardProblem,
        CardgenError,
        ChoiceError,
        ConfigError,
        ConfigProblem,
        GeneralProblem,
        InputFileError,
        ParameterError,
        ProblemsError,
        RuntimeFault,
    )
    from cardgen.output import StagedSet, staged_set
    from cardgen.physical.card import Preset
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.impose import Flip
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.varnish import VarnishMode
    from cardgen.render import Format
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
    "CardConfig": "cardgen.card.config",
    "CardResult": "cardgen.api.card",
    "ChoiceError": "cardgen.errors",
    "DielineMode": "cardgen.prepress.dieline",
    "Flip": "cardgen.prepress.impose",
    "Format": "cardgen.render",
    "LadderCard": "cardgen.card.build",
    "Paper": "cardgen.prepress.paper",
    "Preset": "cardgen.physical.card",
    "SheetLayout": "cardgen.api.card",
    "SheetResult": "cardgen.api.card",
    "VarnishMode": "cardgen.prepress.varnish",
    "card_config": "cardgen.api.card",
    "check_theme": "cardgen.api.card",
    "example_config": "cardgen.api.card",
    "ladder_line": "cardgen.api.card",
    "make_card": "cardgen.api.card",
    "make_sheet": "cardgen.api.card",
    "printing_condition": "cardgen.api.card",
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
    "RotatorBoards": "cardgen.api.rotator",
    "RotatorBook": "cardgen.api.rotator",
    "RotatorGame": "cardgen.api.rotator",
    "RotatorGeneration": "cardgen.api.rotator",
    "RotatorMap": "cardgen.api.rotator",
    "RotatorSolution": "cardgen.api.rotator",
    "generate_rotator": "cardgen.api.rotator",
    "make_rotator_boards": "cardgen.api.rotator",
    "make_rotator_book": "cardgen.api.rotator",
    "play_rotator": "cardgen.api.rotator",
    "read_rotator_board": "cardgen.api.rotator",
    "rotator_board": "cardgen.api.rotator",
    "rotator_decide": "cardgen.api.rotator",
    "rotator_game": "cardgen.api.rotator",
    "rotator_hint_record": "cardgen.api.rotator",
    "rotator_lines": "cardgen.api.rotator",
    "rotator_play_record": "cardgen.api.rotator",
    "solve_rotator": "cardgen.api.rotator",
    # rules, play sheets
    "Playsheet": "cardgen.api.rules",
    "RulesBook": "cardgen.api.rules",
    "make_playsheet": "cardgen.api.rules",
    "make_rules": "cardgen.api.rules",
    # Connector, Corporate Ladder, the Node games
    "AssemblyVerdict": "cardgen.api.connector",
    "AttackVerdict": "cardgen.api.ladder",
    "ConnectorLayoutCheck": "cardgen.api.connector_tools",
    "ConnectorPictures": "cardgen.api.connector_tools",
    "ConnectorSolution": "cardgen.api.connector_tools",
    "DeckCheck": "cardgen.api.ladder",
    "LadderSheets": "cardgen.api.ladder",
    "NodesMatch": "cardgen.api.nodes",
    "NodesSession": "cardgen.api.nodes",
    "RefereeReport": "cardgen.api.nodes",
    "SearchGaveUp": "cardgen.api.connector_tools",
    "check_connector_layout": "cardgen.api.connector_tools",
    "check_deck": "cardgen.api.ladder",
    "connector_pictures": "cardgen.api.connector_tools",
    "decide_attack": "cardgen.api.ladder",
    "ladder_mat": "cardgen.api.ladder",
    "ladder_rules": "cardgen.api.ladder",
    "load_assembly": "cardgen.api.connector",
    "referee": "cardgen.api.nodes",
    "solve_assembly": "cardgen.api.connector_tools",
    "validate_assembly": "cardgen.api.connector",
    # schemas
    "SchemaName": "cardgen.api.schemas",
    "csv_rows": "cardgen.api.schemas",
    "json_schema": "cardgen.api.schemas",
    "schema_files": "cardgen.api.schemas",
    "schema_id": "cardgen.api.schemas",
    "schema_names": "cardgen.api.schemas",
    "schema_text": "cardgen.api.schemas",
    # print targets
    "Target": "cardgen.api.targets",
    "load_target": "cardgen.api.targets",
    "print_targets": "cardgen.api.targets",
    "target_conflict": "cardgen.api.targets",
    "target_files": "cardgen.api.targets",
    # watching a card's files
    "card_sources": "cardgen.api.watch",
    "file_states": "cardgen.api.watch",
    "watch_files": "cardgen.api.watch",
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
