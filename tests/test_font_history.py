"""A file's bytes depend on its document only, never on what the process rendered before
or on where the font files are: the renderers know a font by its bytes (the PDF's
reportlab registration, the SVG's font families, the PNG's FreeType faces), not by its
path or by the order the process first met it. Two different fonts of one PostScript
name in one document are both embedded, apart.

The fonts are made here from the bundled Source Sans 3; no font file is kept."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from fontTools.ttLib import TTFont

from tests.helpers import BASE_CONFIG, ROOT, cli, ok, write_config

FONTS = ROOT / "fonts"
REGULAR, BOLD = FONTS / "SourceSans3-Regular.ttf", FONTS / "SourceSans3-Bold.ttf"
# Golden command lines (tests/golden.py) with PDF, SVG and PNG files among them.
GOLDEN = ("sheet-a4-long", "card-us-light", "card-portrait-varnish")

# Run in a new process: render a card with each font of argv[2:] (in its own folder, as
# [fonts] regular), then the golden command lines; print the digests of their files.
SCRIPT = """
import json, shutil, sys
from pathlib import Path
from tests import golden
from tests.helpers import BASE_CONFIG, cli, write_config
from tests.test_font_history import GOLDEN
folder = Path(sys.argv[1])
for n, font in enumerate(sys.argv[2:]):
    user = folder / f"user{n}"
    user.mkdir(parents=True)
    shutil.copy(font, user / "x.ttf")
    config = write_config(user, BASE_CONFIG + '[fonts]\\nregular = "x.ttf"\\n')
    result = cli("card", config, "-o", user / "out", "-f", "pdf,svg,png", "--dpi", "72")
    assert result.returncode == 0, result.stderr
print(json.dumps({name: golden.run_scenario(name, folder / name)["files"]
                  for name in GOLDEN}))
"""


def renamed(source: Path, target: Path, name: str) -> Path:
    """``source`` saved as ``target`` with ``name`` as its PostScript name (name ID 6)."""
    font = TTFont(source, recalcTimestamp=False)
    font["name"].setName(name, 6, 3, 1, 0x409)
    font["name"].setName(name, 6, 1, 0, 0)
    font.save(target)
    return target


def golden_after(folder: Path, *fonts: Path) -> dict[str, dict[str, str]]:
    folder.mkdir()
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(folder), *map(str, fonts)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, dict[str, str]] = json.loads(done.stdout)
    return result


@pytest.mark.slow  # four new processes, each rendering three golden command lines
def test_golden_files_do_not_depend_on_the_fonts_rendered_before(tmp_path):
    """A copy of the bundled font under another path, and a different font of the same
    PostScript name, rendered first in the process: the golden files stay the same."""
    copy = tmp_path / "copy.ttf"
    shutil.copy(REGULAR, copy)
    other = renamed(BOLD, tmp_path / "other.ttf", "SourceSans3-Regular")
    fresh = golden_after(tmp_path / "fresh")
    assert all(fresh.values())
    for n, fonts in enumerate([(copy,), (other,), (other, copy)]):
        assert golden_after(tmp_path / f"after{n}", *fonts) == fresh, fonts


def card(folder: Path, formats: str = "pdf,svg,png", **fonts: str) -> dict[str, bytes]:
    """The card's files made with the fonts named (style = file in ``folder``)."""
    lines = "".join(f'{style} = "{name}"\n' for style, name in fonts.items())
    config = write_config(folder, BASE_CONFIG + "[fonts]\n" + lines)
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    dpi = ["--dpi", "72"] if "png" in formats else []  # (--dpi: PNGs only)
    ok(cli("card", config, "-o", out, "-f", formats, *dpi))
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_a_font_file_changed_on_disk_is_not_drawn_as_before(tmp_path):
    """The same path with other bytes, in one process: the files are those of the new
    bytes (as from another path), not of the font the path held before."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    shutil.copy(REGULAR, first / "x.ttf")
    before = card(first, regular="x.ttf")
    shutil.copy(BOLD, first / "x.ttf")
    after = card(first, regular="x.ttf")
    shutil.copy(BOLD, second / "y.ttf")
    elsewhere = card(second, regular="y.ttf")
    assert after.keys() == elsewhere.keys() == before.keys()
    assert {name for name in after if after[name] != elsewhere[name]} == set()
    changed = {name for name in after if after[name] != before[name]}
    assert {"card.pdf", "card-outside.svg", "card-outside.png"} <= changed


def test_two_fonts_of_one_name_in_one_document_are_both_embedded(tmp_path):
    """Regular and bold from two different files of one PostScript name: the PDF embeds
    both (two subsets of the name, with different font programs), the SVG gives them two
    families."""
    shutil.copy(REGULAR, tmp_path / "a.ttf")
    renamed(BOLD, tmp_path / "b.ttf", "SourceSans3-Regular")
    files = card(tmp_path, "pdf,svg", regular="a.ttf", bold="b.ttf")

    programs: dict[str, bytes] = {}
    with pikepdf.open(io.BytesIO(files["card.pdf"])) as pdf:
        for page in pdf.pages:
            for font in page.Resources.Font.values():
                base = str(font.BaseFont)
                if base.endswith("+SourceSans3-Regular"):
                    programs[base] = font.FontDescriptor.FontFile2.read_bytes()
    assert len(programs) == 2, sorted(programs)
    assert len(set(programs.values())) == 2

    svg = files["card-outside.svg"].decode()
    families = re.findall(r'font-family: "([^"]+)"', svg)
    assert {"cardgen-SourceSans3-Regular", "cardgen-SourceSans3-Regular-2"} <= set(families)
    assert len(families) == len(set(families))
    used = set(re.findall(r'font-family="([^"]+)"', svg))
    assert {"cardgen-SourceSans3-Regular", "cardgen-SourceSans3-Regular-2"} <= used

