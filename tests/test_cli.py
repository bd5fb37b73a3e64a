"""End-to-end runs of the command line.

The smoke tests run ``python -m cardgen`` as a real process: the entry point, ``--help``
staying light, the default card, an input error, the registration page and the process
pool of ``rotator generate``. The other runs go through ``cardgen.cli.run`` in process.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pdfplumber
import pytest
from PIL import Image as PILImage

from cardgen import __version__
from cardgen.units import PT_PER_MM
from tests.helpers import cli, error_line, ok, run_process

# --- real processes -----------------------------------------------------------------------


def test_version():
    result = run_process("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"cardgen {__version__}"


def test_help_imports_no_heavy_libraries():
    code = ("import sys\nsys.argv = ['cardgen', '--help']\nfrom cardgen.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = sorted({m.split('.')[0] for m in sys.modules} & "
            "{'reportlab', 'PIL', 'fontTools', 'svgwrite'})\nprint('HEAVY', heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120).stdout  # only a hang fails
    assert "HEAVY []" in out
    assert "card" in out and "sheet" in out and "init" in out


@pytest.mark.slow
def test_default_card_writes_all_formats(tmp_path):
    # Two independent runs, the second into another folder and in this process (another
    # process all the same: nothing may depend on the process, its hash seed included),
    # meanwhile.
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(run_process, "card", cwd=tmp_path)
        again = cli("card", "-o", tmp_path / "again")
        result = running.result()
    ok(result)
    out = tmp_path / "output"
    names = sorted(p.name for p in out.iterdir())
    assert names == ["card-dieline.pdf", "card-dieline.png", "card-dieline.svg",
                     "card-inside.png", "card-inside.svg", "card-outside.png",
                     "card-outside.svg", "card.pdf"]
    with PILImage.open(out / "card-inside.png") as png:
        assert round(png.info["dpi"][0]) == 300
    # Same inputs, same bytes, for every format.
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert again.returncode == 0
    assert {p.name: p.read_bytes() for p in (tmp_path / "again").iterdir()} == first


def test_bad_input_is_one_line_and_exit_status_1(tmp_path):
    result = run_process("card", "nope.toml", "-o", "out", cwd=tmp_path)
    error_line(result, "nope.toml", "does not exist")


@pytest.mark.slow  # in the quick loop the golden scenario registration-a4-long runs the
# same command line in process and checks its exit, stdout and file; this is it as a
# real process (the other smoke tests here start one each in the quick loop)
def test_registration_page(tmp_path):
    result = ok(run_process("sheet", "--registration", "-o", "out", cwd=tmp_path))
    assert "sheet-registration.pdf" in result.stdout
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"sheet-registration.pdf"}
    assert (tmp_path / "out" / "sheet-registration.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.slow
def test_rotator_generate_with_a_process_pool(tmp_path):
    result = ok(run_process("rotator", "generate", "--seed", "3", "--count", "2",
                            "--difficulty", "easy", "--jobs", "2", "-o", "out", "--name", "r",
                            cwd=tmp_path))
    assert "2 boards in the book." in result.stdout
    assert (tmp_path / "out" / "r.pdf").read_bytes().startswith(b"%PDF")


# --- in process -----------------------------------------------------------------------------


def test_init_then_us_card(tmp_path):
    assert cli("init", "my-card.toml", cwd=tmp_path).returncode == 0
    assert (tmp_path / "my-card.toml").is_file()
    result = cli("card", "my-card.toml", "--preset", "us", "--format", "pdf,svg", "-o",
                 "out", "--theme", "light", "--no-marks", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(tmp_path / "out" / "card.pdf") as pdf:
        page = pdf.pages[0]
        # Without marks the page is the bleed box: 3.5 × 4 in plus 1/8 in all round.
        assert abs(page.width / PT_PER_MM - (88.9 + 2 * 3.175)) < 0.01
        assert abs(page.height / PT_PER_MM - (101.6 + 2 * 3.175)) < 0.01
    assert not list((tmp_path / "out").glob("*.png"))


def test_sheet_and_registration(tmp_path):
    result = cli("sheet", "--paper", "letter", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "cards per sheet" in result.stdout
    assert cli("sheet", "--registration", "-o", "out", cwd=tmp_path).returncode == 0
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"sheet.pdf",
                                                               "sheet-registration.pdf"}
