"""``cardgen rules``: the command's files, its one-line errors and that it writes nothing
when it fails."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.games.names import GameName
from tests.helpers import cli, error_line, ok, sampled
from tests.pdfread import pdfx_problems
from tests.test_rules_book import synthetic

PT = 72 / 25.4


# -- the command ---------------------------------------------------------------------


def test_the_command_writes_the_book(tmp_path):
    result = ok(cli("rules", "ladder", "-o", tmp_path, "--paper", "letter"))
    assert "half a sheet of LETTER" in result.stdout
    reader = PdfReader(tmp_path / "rules-ladder.pdf")
    assert float(reader.pages[0].mediabox.width) == pytest.approx(139.7 * PT, abs=0.01)


@pytest.mark.parametrize("args,needles,status", [
    # A value that is not one of the choices is a usage error (2); one out of range, 1.
    (["ladr"], ["GAME", "did you mean ladder?"], 2),
    (["rotater"], ["did you mean rotator?"], 2),
    (["chess"], ["no rules for 'chess'", "valid: rotator"], 2),
    (["all", "--paper", "a3"], ["--paper"], 2),
    (["all", "--creep", "9"], ["--creep must be from 0 to 3"], 1),
    (["all", "--flip", "side"], ["--flip"], 2),
    (["all", "--format", "doc"], ["--format"], 2),
])
def test_bad_options_are_one_line_and_write_nothing(tmp_path, args, needles, status):
    error_line(cli("rules", *args, "-o", tmp_path / "out"), *needles, status=status)
    assert not (tmp_path / "out").exists()


def test_a_broken_source_text_names_the_file_and_line_and_writes_nothing(tmp_path):
    source = tmp_path / "texts"
    source.mkdir()
    for game in GameName:
        (source / f"{game}.md").write_text(f"# {game}\n\nfine\n", encoding="utf-8")
    (source / "defector.md").write_text("# D\n\n## Set up\n\n| a |\n", encoding="utf-8")
    line = error_line(cli("rules", "all", "--source", source, "-o", tmp_path / "out"),
                      "defector.md: line 5")
    assert "table" in line
    assert not (tmp_path / "out").exists()
    error_line(cli("rules", "all", "--source", tmp_path / "none", "-o", tmp_path / "out"),
               "--source")


@pytest.mark.parametrize("flip", sampled(["short", "long"], "short"))
def test_the_booklet_is_imposed_in_signature_order(tmp_path, flip):
    import pdfplumber

    source = tmp_path / "texts"
    for k, game in enumerate(GameName):
        synthetic(source, str(game), sections=1 + k % 3)
    result = ok(cli("rules", "all", "--booklet", "--flip", flip, "-o", tmp_path,
                    "--source", source))
    assert "fold the stack in half" in result.stdout
    assert pdfx_problems(tmp_path / "rules-all-booklet.pdf") == []
    assert "blank" in "".join(p.extract_text() for p in PdfReader(
        tmp_path / "rules-all-booklet.pdf").pages)  # padded, and saying so
    reader = PdfReader(tmp_path / "rules-all-booklet.pdf")
    sides = len(reader.pages)
    assert sides % 2 == 0
    n = 2 * sides  # pages in the booklet, blanks included
    box = reader.pages[0].mediabox
    assert float(box.width) > float(box.height)  # landscape sheets
    with pdfplumber.open(tmp_path / "rules-all-booklet.pdf") as plumber:
        for index, page in enumerate(plumber.pages):
            s, back = index // 2 + 1, index % 2 == 1
            upside_down = back and flip == "long"
            foot = [w for w in page.extract_words(keep_blank_chars=False)
                    if (w["top"] < 14 * PT if upside_down else w["bottom"] > page.height - 14 * PT)
                    and w["text"].isdigit()]
            numbers = {int(w["text"][::-1] if upside_down else w["text"]):
                       (w["x0"] + w["x1"]) / 2 < page.width / 2 for w in foot}
            left, right = ((2 * s, n - 2 * s + 1) if back else (n - 2 * s + 2, 2 * s - 1))
            if upside_down:
                left, right = right, left
            assert numbers == {left: True, right: False}, (index, numbers)
