"""Every kind of PDF cardgen writes, made by the real command lines: the card and its
variants (themes, presets, marks, the dieline and varnish as layers or files, RGB, a
batch), sheets and the registration page, the rules book (A4 and imposed as a booklet)
and single rules sheets, play sheets, the Ladder mat and rules page, the Rotator puzzle
book and printed boards, and the Connector's assembly pictures.

Every PDF goes through one writer, ``cardgen.render.pdf.PdfWriter`` (``render_pdf`` for a
whole document, ``cardgen.render.pdf_pages`` for one drawn a page at a time);
:func:`produce` checks that each command line below handed it at least one document, so
a command that stops writing PDFs (or starts writing them some other way) is noticed.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.helpers import BASE_CONFIG, DATA, ROOT, cli, ok

ABILITY = "Once per game, look at the top card of the deck."
CONFIGS = {
    "ability.toml": BASE_CONFIG + f'[ladder]\nability = "{ABILITY}"\n',
    "light.toml": BASE_CONFIG.replace('theme = "dark"', 'theme = "light"')
    + f'[ladder]\nability = "{ABILITY}"\n',
    "portrait.toml": BASE_CONFIG + f'[ladder]\nability = "{ABILITY}"\n'
    + '[images]\nportrait = "portrait.png"\nlogo = "logo.png"\n',
}
PEOPLE = ("person.name,person.title,ladder.ability\n"
          "Ada One,Designer,Draw a card.\nBob Two,Producer,\n")
BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"

# name -> the command line (without -o); "{dir}" is the folder of the configs.
COMMANDS: dict[str, list[str]] = {
    "card": ["card", "-f", "pdf"],
    "card-ability": ["card", "{dir}/ability.toml", "-f", "pdf"],
    "card-light": ["card", "{dir}/light.toml", "-f", "pdf"],
    "card-us": ["card", "--preset", "us", "-f", "pdf"],
    "card-us-light": ["card", "-f", "pdf", "--preset", "us", "--theme", "light"],
    "card-nomarks": ["card", "--no-marks", "-f", "pdf"],
    "card-rgb": ["card", "{dir}/ability.toml", "--rgb", "-f", "pdf"],
    "card-layers": ["card", "{dir}/portrait.toml", "--dieline", "layer", "--varnish", "layer",
                    "-f", "pdf"],
    "card-varnish-file": ["card", "{dir}/portrait.toml", "--varnish", "file", "-f", "pdf"],
    "card-batch": ["card", "--batch", "{dir}/people.csv", "{dir}/ability.toml", "-f", "pdf"],
    "sheet": ["sheet", "{dir}/ability.toml"],
    "sheet-letter-us": ["sheet", "--paper", "letter", "--preset", "us"],
    "sheet-batch": ["sheet", "--batch", "{dir}/people.csv", "{dir}/ability.toml"],
    "sheet-rgb": ["sheet", "--rgb"],
    "registration": ["sheet", "--registration"],
    "registration-letter-us": ["sheet", "--registration", "--paper", "letter", "--preset", "us"],
    "rules-book": ["rules", "all"],
    "rules-booklet": ["rules", "all", "--booklet"],
    "rules-booklet-letter": ["rules", "all", "--booklet", "--paper", "letter"],
    "rules-ladder": ["rules", "ladder"],
    "rules-rotator-letter": ["rules", "rotator", "--paper", "letter"],
    "playsheet-reflector": ["playsheet", "reflector", "--preset", "us", "--paper", "letter"],
    "playsheet-deflector": ["playsheet", "deflector", "--players", "4"],
    "playsheet-defector": ["playsheet", "defector"],
    "ladder-mat": ["ladder", "mat"],
    "ladder-mat-4": ["ladder", "mat", "--rows", "4"],
    "ladder-mat-4-letter": ["ladder", "mat", "--rows", "4", "--paper", "letter"],
    "ladder-rules": ["ladder", "rules"],
    "ladder-rules-letter": ["ladder", "rules", "--paper", "letter"],
    "connector-show": ["connector", "show", "defector", "-f", "pdf"],
    "connector-validate": ["connector", "validate", str(ROOT / "templates/connector/rotator.toml"),
                           "--picture", "{out}/rotator.pdf"],
    "rotator-book": ["rotator", "generate", "--seed", "7", "--count", "3", "--difficulty",
                     "easy", "--jobs", "1", "-o", "{out}"],
    "rotator-book-large-letter": ["rotator", "generate", "--seed", "7", "--count", "2",
                                  "--size", "large", "--paper", "letter", "--jobs", "1",
                                  "-o", "{out}"],
    "rotator-print": ["rotator", "print", BOARD, "--key", "--rules", "-o", "{out}"],
}


# The whole books: sweeps over every command line (the overprint, PDF/X and ink checks)
# read them in the full run only; the quick loop (``-m "not slow"``) reads the rest, which
# hold the same kinds of page (a rules sheet from each typesetter's text and figures, a
# printed board with its answer key and rules), a tenth of the pages.
BOOKS = frozenset({"rules-book", "rules-booklet", "rules-booklet-letter", "rotator-book",
                   "rotator-book-large-letter"})
# Of the rest, the quick loop reads one command line of each command and each way of
# writing the card's pieces (the art, the dieline and varnish as layers and as files, a
# batch, a card with a photo and a logo); the full run reads every variant as well (the
# other themes, presets, papers, player counts, --rgb, --no-marks, the registration page
# on letter), whose pages the golden hashes (all in the quick loop) also pin down.
QUICK = frozenset({"card", "card-layers", "card-varnish-file", "card-batch", "card-rgb",
                   "sheet", "sheet-batch", "registration", "rules-ladder",
                   "playsheet-defector", "ladder-mat", "ladder-rules", "connector-show",
                   "connector-validate", "rotator-print"})


def sweep(names: list[str]) -> list[Any]:
    """``names`` as pytest parameters, all but those of :data:`QUICK` marked slow (the
    whole books among them)."""
    import pytest

    return [name if name in QUICK else pytest.param(name, marks=pytest.mark.slow)
            for name in names]


# The command (as typed, subcommand included) each command line above runs, and the
# commands that write no PDF: together, every command there is.
def command_of(name: str) -> str:
    args = COMMANDS[name]
    return " ".join(args[:2]) if args[0] in ("rotator", "ladder", "connector") else args[0]


NO_PDF = {"init", "rotator show", "rotator solve", "rotator play", "nodes play",
          "connector solve", "connector check", "ladder deck", "ladder attack", "referee",
          "schema",
          # Serves until stopped: its page's buttons write cardgen card's files, made by
          # the same function (tests/test_studio_server.py writes and reads them).
          "studio"}

# The commands that write no CMYK PDF: what they write instead.
NO_CMYK_PDF = {
    "init": "a config file",
    "studio": "a web page; the card's files of cardgen card, when its buttons are pressed",
    "rotator show": "text", "rotator play": "text", "rotator solve": "text",
    "connector validate": "text, and a picture in RGB (a screen preview)",
    "connector solve": "text, and a picture in RGB", "connector check": "text",
    "connector show": "text, and pictures in RGB",
    "ladder deck": "text", "ladder attack": "text", "referee": "text (a TOML report)",
    "nodes play": "text (a terminal game)",
    "schema": "a JSON Schema, as text or a .json file",
}


def is_cmyk(name: str) -> bool:
    """Whether the command line writes print files (CMYK, PDF/X-1a): not ``--rgb``, nor
    a command that writes RGB pictures."""
    return "--rgb" not in COMMANDS[name] and command_of(name) not in NO_CMYK_PDF


# What the print files of each CMYK command line must say (README "Print shop
# checklist"): the printing condition they name (the card's preset or config for the card
# and the sheets; the paper for everything sized by its paper), and whether lines of
# 0.5 pt and more may be tints of black (only the rules book's dimmed Connector plates;
# its grids are solid black like every other grid).
FOGRA, CRPC6 = "FOGRA39", "CGATS21_CRPC6"
PRINT: dict[str, tuple[str, bool]] = {
    "card": (FOGRA, False),
    "card-ability": (FOGRA, False),
    "card-light": (FOGRA, False),
    "card-us": (CRPC6, False),
    "card-us-light": (CRPC6, False),
    "card-nomarks": (FOGRA, False),
    "card-layers": (FOGRA, False),
    "card-varnish-file": (FOGRA, False),
    "card-batch": (FOGRA, False),
    "sheet": (FOGRA, False),
    "sheet-letter-us": (CRPC6, False),
    "sheet-batch": (FOGRA, False),
    "registration": (FOGRA, False),
    "registration-letter-us": (CRPC6, False),
    "rules-book": (FOGRA, True),
    "rules-booklet": (FOGRA, True),
    "rules-booklet-letter": (CRPC6, True),
    "rules-ladder": (FOGRA, False),
    "rules-rotator-letter": (CRPC6, False),
    "playsheet-reflector": (CRPC6, False),
    "playsheet-deflector": (FOGRA, False),
    "playsheet-defector": (FOGRA, False),
    "ladder-mat": (FOGRA, False),
    "ladder-mat-4": (FOGRA, False),
    "ladder-mat-4-letter": (CRPC6, False),
    "ladder-rules": (FOGRA, False),
    "ladder-rules-letter": (CRPC6, False),
    "rotator-book": (FOGRA, False),
    "rotator-book-large-letter": (CRPC6, False),
    "rotator-print": (FOGRA, False),
}


def produce(folder: Path, names: list[str] | None = None) -> dict[str, Path]:
    """Run the command lines (all, or ``names``) in ``folder``; every PDF written, keyed
    ``"name/file.pdf"``."""
    import cardgen.render.pdf as pdf_module

    folder.mkdir(parents=True, exist_ok=True)
    for name, text in CONFIGS.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "people.csv").write_text(PEOPLE, encoding="utf-8")
    for image in ("portrait.png", "logo.png"):
        shutil.copy(DATA / image, folder / image)
    rendered: list[str] = []
    original = pdf_module.PdfWriter.close

    def counting(*args: Any, **kwargs: Any) -> bytes:
        rendered.append("pdf")
        return original(*args, **kwargs)

    files: dict[str, Path] = {}
    setattr(pdf_module.PdfWriter, "close", counting)  # noqa: B010
    try:
        for name in names or list(COMMANDS):
            out = folder / name
            args = [a.format(dir=folder, out=out) for a in COMMANDS[name]]
            if "-o" not in args and "--picture" not in args:
                args += ["-o", str(out)]
            before = len(rendered)
            ok(cli(*args))
            assert len(rendered) > before, f"{name}: no PDF went through the PdfWriter"
            written = sorted(out.rglob("*.pdf"))
            assert len(written) == len(rendered) - before, (name, written)
            files |= {f"{name}/{path.relative_to(out)}": path for path in written}
    finally:
        setattr(pdf_module.PdfWriter, "close", original)  # noqa: B010
    return files
