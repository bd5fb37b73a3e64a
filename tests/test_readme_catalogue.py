"""The guide's catalogue of bad inputs (docs/bad-input.md) says exactly what cardgen says:
each row's input is made here, run through the command line, and its one error line
compared with the catalogue's."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import ROOT, cli, error_line
from tests.sheetfiles import Cell, Sheet, bomb, encrypted_ooxml, wide_ods, workbook

PERSON = '[person]\nname = "Ada Example"\nemail = "ada@example.org"\n'


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _fifo(folder: Path) -> Path:
    os.mkfifo(folder / "pipe.toml")
    return folder / "pipe.toml"


def _postscript_logo(folder: Path) -> list[str | Path]:
    _write(folder, "logo.ps.png", "%!PS-Adobe-3.0\n{ } loop\n")
    config = _write(folder, "ps.toml", '[person]\nname = "Ada"\n[images]\nlogo = "logo.ps.png"\n')
    return ["card", config.name]


def _no_outlines(folder: Path) -> list[str | Path]:
    from tests.test_blank_fonts import blank_ttf

    blank_ttf(folder / "empty.ttf")
    config = _write(folder, "font.toml", PERSON + '[fonts]\nregular = "empty.ttf"\n')
    return ["card", config.name]


def _ladder_team(folder: Path) -> list[str | Path]:
    cards = [("[attacker]", "Sam Reed", "Producer", 4), ("[attacker]", "Pat Press",
                                                        "Journalist", 4),
             ("defender", "Lucas Brand", "Narrative Designer", 2)]
    text = "\n".join(f'[{table}]\nname = "{name}"\ntitle = "{title}"\nstrength = {strength}\n'
                     for table, name, title, strength in cards)
    return ["ladder", "attack", _write(folder, "team.toml", text).name]


def _rgb_profile(folder: Path) -> list[str | Path]:
    from PIL import ImageCms

    (folder / "sRGB.icc").write_bytes(
        ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    config = _write(folder, "icc.toml", PERSON + '[print]\ncmyk_profile = "sRGB.icc"\n')
    return ["card", config.name]


_RECORD = """\
game = "reflector"
first = "P1"
player = [
  {{ id = "P1", symbol = "X", nodes = ["C3", "D4", "H7", "J10", "F9"] }},
  {{ id = "P2", symbol = "O", nodes = ["B2", "D4", "G3", "I8", "D9"] }},
]
move = [
  {{ by = "P1", at = {} }},
]
"""


def _workbook(folder: Path, name: str, data: bytes) -> list[str | Path]:
    (folder / name).write_bytes(data)
    return ["ladder", "deck", name]


def _deck_sheet(suffix: str, strength: object) -> bytes:
    return workbook(suffix, Sheet("Deck", [["name", "title", "company", "strength"],
                                           ["Ada", "CEO", "Q", strength]]))
TAROT = '[card]\nwidth_mm = 69.85\nheight_mm = 60.325\n'
TARGETS = ROOT / "templates" / "print" / "targets"


def _over_the_limit(folder: Path) -> list[str | Path]:
    """A 400 % ribbon, for a DriveThruCards profile that refuses colours over its limit."""
    dark = (ROOT / "templates" / "themes" / "dark.toml").read_text()
    at = dark.index("fill = [", dark.index("[curves]")) + len("fill = [")
    _write(folder, "heavy.toml", dark[:at] + "[100, 100, 100, 100], " + dark[at:])
    config = _write(folder, "tarot.toml", TAROT + 'theme = "heavy.toml"\n' + PERSON)
    strict = _write(folder, "strict.toml", (TARGETS / "drivethrucards.toml").read_text()
                    .replace('over_limit = "reduce"', 'over_limit = "refuse"'))
    return ["card", config.name, "--target", strict.name]


# row text -> a function making the input in a folder and returning the command line
CASES: dict[str, Callable[[Path], list[str | Path]]] = {
    "a config file that does not exist": lambda d: ["card", "nope.toml"],
    "a FIFO, `/dev/zero` or another non-file as the config": lambda d: ["card", _fifo(d).name],
    "broken TOML": lambda d: ["card", _write(d, "broken.toml", '[person\nname = "Ada"\n').name],
    "TOML nested hundreds of levels deep": lambda d: [
        "card", _write(d, "deep.toml", "x = " + "[" * 600 + "]" * 600 + "\n").name],
    "a misspelt key": lambda d: ["card", _write(d, "typo.toml", '[person]\nnmae = "Ada"\n').name],
    "a control character in a one-line field": lambda d: [
        "card", _write(d, "cr.toml", '[person]\nname = "Ada\\rTEL:+1666"\n').name],
    "an invisible character in a text field": lambda d: [
        "card", _write(d, "inv.toml", '[person]\nname = "Ada\\u200bLee"\n').name],
    "a file name with a line break in it": lambda d: ["card", "new\nline.toml"],
    "right-to-left or shaped text (Arabic, Hebrew, Devanagari…)": lambda d: [
        "card", _write(d, "rtl.toml", '[person]\nname = "محمد"\n').name],
    "text that does not fit at the smallest legible size": lambda d: [
        "card", _write(d, "long.toml", '[person]\nname = "Ada Example, Chief Executive '
                       'Officer of Everything Everywhere"\n').name],
    "a size out of bounds": lambda d: [
        "card", _write(d, "w.toml", '[card]\nwidth_mm = 150.0000001\nheight_mm = 55\n'
                                    '[person]\nname = "A"\n').name],
    "a size too small for the grids": lambda d: [
        "card", _write(d, "small.toml", '[card]\nwidth_mm = 85\nheight_mm = 20\n'
                                        '[person]\nname = "A"\n').name],
    "a font file that does not exist": lambda d: [
        "card", _write(d, "font.toml", '[person]\nname = "Ada"\n[fonts]\n'
                                       'regular = "missing.ttf"\n').name],
    "a font whose glyphs have no outlines": _no_outlines,
    "a PostScript file named `logo.png`": _postscript_logo,
    "an RGB profile as `print.cmyk_profile`": _rgb_profile,
    "a theme with missing colours": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--theme",
        _write(d, "theme.toml", '[outside]\nbackground = "#000000"\n')],
    "a theme from before the Connector puzzle": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--theme",
        _write(d, "old.toml", (ROOT / "templates" / "themes" / "dark.toml").read_text()
               .replace("[inside]\n", "[inside]\npattern = [100, 70, 0, 55]\n")).name],
    "a theme that prints small type in a tint": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--theme",
        _write(d, "pale.toml", (ROOT / "templates" / "themes" / "dark.toml").read_text()
               .replace("text = [0, 0, 0, 0]", "text = [5, 0, 0, 8]")).name],
    "a printing condition cardgen does not know": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--output-intent", "fogra93"],
    "`qr = \"url\"` without a web address": lambda d: [
        "card", _write(d, "url.toml", '[card]\nqr = "url"\n[person]\nname = "Ada"\n').name],
    "an `--offset` that would print into the printer's margin": lambda d: [
        "sheet", _write(d, "base.toml", PERSON).name, "--offset=4,0"],
    "a Connector search that runs out of budget": lambda d: [
        "connector", "solve", "defector", "--no-cut", "--budget", "1000"],
    "`--name ../x`": lambda d: ["card", _write(d, "base.toml", PERSON).name, "--name", "../x"],
    "`--varnish layer` with `--rgb`": lambda d: ["card", "--varnish", "layer", "--rgb"],
    "`--dpi 0`, `--count 0`, `--jobs 0`": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--dpi", "0"],
    "`--jobs 2` without `--batch`": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--jobs", "2"],
    "`--offset=nan,0`": lambda d: ["sheet", _write(d, "base.toml", PERSON).name,
                                   "--offset=nan,0"],
    "a number of hundreds of digits for an option": lambda d: [
        "rotator", "generate", "--count", "9" * 400, "-o", "out"],
    "an integer in a data file beyond TOML's 64 bits": lambda d: [
        "card", _write(d, "big.toml", f"[card]\nwidth_mm = 1{'0' * 400}\nheight_mm = 55\n"
                                      '[person]\nname = "A"\n').name],
    "a value of the wrong type (a number, a date, a table…)": lambda d: [
        "card", _write(d, "intent.toml", PERSON + "[card]\noutput_intent = 3\n").name],
    "a CSV file named `deck.xlsx`": lambda d: _workbook(
        d, "deck.xlsx", b"name,title,company,strength\nAda,CEO,Q,5\n"),
    "a workbook named `deck.csv`": lambda d: _workbook(
        d, "deck.csv", _deck_sheet(".xlsx", 5)),
    "a workbook saved with a password": lambda d: _workbook(d, "locked.xlsx",
                                                             encrypted_ooxml()),
    "a zip bomb named `.xlsx`": lambda d: _workbook(d, "bomb.xlsx", bomb()),
    "an `.ods` spreading a value over a million columns": lambda d: _workbook(
        d, "wide.ods", wide_ods()),
    "a spreadsheet cell that shows an error": lambda d: _workbook(
        d, "div.ods", _deck_sheet(".ods", Cell("#DIV/0!", formula="1/0", kind="error"))),
    "a formula saved without its value": lambda d: _workbook(
        d, "unsaved.xlsx", _deck_sheet(".xlsx", Cell(None, formula="B2*2"))),
    "a path through a file, or with a name too long for the file system": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--theme",
        _write(d, "file.txt", "").name + "/x.toml"],
    "an output name taken by a device or folder": lambda d: ["init", "/dev/full", "--force"],
    "a device as the `-o` folder (`rotator print -o /dev/null`)":
        lambda d: ["rotator", "print", "R1:B2B8E4I2I8-B4E2E8H4I9", "-o", "/dev/null"],
    "`-o` naming a file (`ladder mat -o out.pdf`) (exit 2)": lambda d: [
        "ladder", "mat", "-o", "out.pdf"],
    "a value not of the option's type (`--dpi abc`) (exit 2)": lambda d: [
        "card", "--dpi", "abc"],
    "a board ID with a look-alike letter": lambda d: [
        "rotator", "show", "R1:B2B8E4ı2I8-B4E2E8H4I9"],
    "a board breaking the placement rules": lambda d: [
        "rotator", "show", "R1:B2C3E4I2I8-B4E2E8H4I10"],
    "a board file with a bad cell": lambda d: [
        "rotator", "show", _write(d, "board.toml", 'nodes = ["A:B2", "A:Z9"]\n').name],
    "a Corporate Ladder team the rules forbid (exit 4)": _ladder_team,
    "a Node-game record with a bad space": lambda d: [
        "referee", _write(d, "game.toml", _RECORD.format('"P2:E11"')).name],
    "a Node-game record with an illegal move (exit 4)": lambda d: [
        "referee", _write(d, "turn.toml", _RECORD.format('"P2:E1" },\n  { by = "P1", at = "P2:E2"'
                                          )).name],
    "a grade named twice in `--difficulty` (exit 2)": lambda d: [
        "rotator", "generate", "--difficulty", "easy,easy", "-o", "out"],
    "a Node game the terminal does not play (`nodes play defector`) (exit 2)": lambda d: [
        "nodes", "play", "defector"],
    "a kind of file with no schema (`schema chess`) (exit 2)": lambda d: ["schema", "chess"],
    "a name for `studio --host` that is not an IPv4 address (exit 2)": lambda d: [
        "studio", "--no-open", "--host", "example.com"],
    "`--target` naming no print target (exit 2)": lambda d: ["card", "--target", "drivethru"],
    "a card of another size than the print service's product": lambda d: [
        "card", _write(d, "base.toml", PERSON).name, "--target", "thegamecrafter"],
    "an option the print service does not take (`--target drivethrucards --rgb`) (exit 2)":
        lambda d: ["card", "--target", "drivethrucards", "--rgb"],
    "`--format` asking for none of a print service's files (exit 2)": lambda d: [
        "card", "--target", "drivethrucards", "-f", "svg,png"],
    "a print target profile with a misspelt key": lambda d: [
        "card", "--target", _write(d, "my.toml", (TARGETS / "thegamecrafter.toml").read_text()
                                   .replace("formats =", "fromats =")).name],
    "a colour over a print service's ink limit, with `over_limit = \"refuse\"`":
        _over_the_limit,
}


CATALOGUE = ROOT / "docs" / "bad-input.md"


def _readme_rows() -> dict[str, str]:
    rows = {}
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| (.+?) \| `(error: .*)` \|$", line)
        if match:
            rows[match.group(1)] = match.group(2).replace("\\|", "|")
    return rows


ROWS = _readme_rows()


def test_every_row_of_the_table_is_checked_here():
    assert set(ROWS) == set(CASES)


@pytest.mark.parametrize("row", sorted(CASES))
def test_the_readme_says_what_cardgen_says(tmp_path, row):
    args = CASES[row](tmp_path)
    if args[0] in ("card", "sheet"):
        args = [*args, "-o", "out"]
    stated = re.search(r"\(exit (\d)\)$", row)  # a row says its exit status unless it is 1
    line = error_line(cli(*args, cwd=tmp_path), status=int(stated.group(1)) if stated else 1)
    line = line.replace(f"{tmp_path}/", "")
    expected = ROWS[row]
    if expected.endswith(" Also: … (every other problem)"):
        assert line.startswith(expected.removesuffix(" … (every other problem)"))
    else:
        assert line == expected
