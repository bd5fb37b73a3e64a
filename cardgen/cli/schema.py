"""``cardgen schema KIND``: the JSON Schema of an input file, for editors and validators
(made by :mod:`cardgen.api.schemas` from the schemas cardgen checks the files against).

It prints the schema on stdout (UTF-8, keys sorted: the same bytes for the same cardgen),
or writes it as ``KIND.schema.json`` with ``-o FOLDER`` or ``--name STEM``. With ``--json``
the one JSON object holds it: ``{"name", "id", "schema"}`` (and ``"files"``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardgen.api.schemas import json_schema, schema_files, schema_names, schema_text
from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    JsonOpt,
    QuietOpt,
    UsageError,
    emit,
    name_option,
    output_folder,
    report,
)
from cardgen.errors import shorten


def parse_kind(value: str) -> str:
    """KIND as one of :func:`cardgen.api.schemas.schema_names` (any case), or a usage
    error that lists them."""
    names = schema_names()
    word = value.strip().lower()
    if word in names:
        return word
    listed = ", ".join(names[:-1]) + " or " + names[-1]
    raise UsageError(f"KIND must be one of {listed}, not {shorten(value)}.", field="KIND",
                     value=value)


def schema(
    kind: Annotated[str, typer.Argument(
        metavar="KIND", help="The kind of file: card (a card config), theme, assembly (a "
        "Connector assembly), attack (a Corporate Ladder attack), deck (a Corporate Ladder "
        "deck, CSV) or people (the people file of card --batch, CSV).",
        show_default=False)],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", parser=output_folder, metavar="FOLDER",
        help="Write the schema into this folder, as KIND.schema.json (default: print it; "
        "with --name alone, the folder output).", show_default=False)] = None,
    name: Annotated[str | None, name_option(
        "File name stem of the schema written (default: KIND.schema).",
        show_default=False)] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print an input file's JSON Schema, for editors and validators.

    A versioned JSON Schema (draft 2020-12), made from the schema cardgen checks the file
    against: an editor completes and checks a TOML file with it (Taplo, Even Better
    TOML), a CSV file's is an array of its rows. Its $comment lists what cardgen checks
    beyond it."""
    chosen = parse_kind(kind)
    if output is not None or name is not None:
        files = schema_files(chosen, stem=name)
        report(files.write(output if output is not None else DEFAULT_OUTPUT))
    elif not json_out:
        _print_utf8(schema_text(chosen))
    if json_out:
        document = json_schema(chosen)
        emit({"name": chosen, "id": document["$id"], "schema": document})


def _print_utf8(text: str) -> None:
    """``text`` on stdout as UTF-8, whatever the terminal's encoding (a stream without
    bytes, such as a test's, takes the text)."""
    stream = sys.stdout
    binary = getattr(stream, "buffer", None)
    if binary is None:
        stream.write(text)
        return
    stream.flush()
    binary.write(text.encode("utf-8"))
    binary.flush()
