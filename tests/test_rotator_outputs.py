"""``rotator generate -o`` and ``rotator print -o``: a folder (an existing one, or a name
ending with a slash) gets the file inside it, and every output is checked before any
work is done, so a run never solves for seconds and then fails to write."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.cli.common import OutputIsFile, output_folder
from tests.helpers import cli, error_line, ok

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"


def test_o_is_always_a_folder_and_a_file_is_refused(tmp_path):
    (tmp_path / "there").mkdir()
    (tmp_path / "notes").write_text("x")
    assert output_folder(str(tmp_path / "there")) == tmp_path / "there"
    assert output_folder(f"{tmp_path}/new/") == tmp_path / "new"
    assert output_folder(Path("output")) == Path("output")  # the default
    assert output_folder("x" * 5000) == Path("x" * 5000)  # too long to look up: a folder
    assert output_folder("a\x00b") == Path("a\x00b")  # (refused when it is used)
    (tmp_path / "book.pdf").mkdir()
    assert output_folder(str(tmp_path / "book.pdf")) == tmp_path / "book.pdf"  # a folder
    for file in (tmp_path / "notes", tmp_path / "new.pdf", tmp_path / "x" / "b.TOML"):
        with pytest.raises(OutputIsFile, match="-o is the folder to write into"):
            output_folder(str(file))


@pytest.mark.parametrize("given", ["out", "out/", "new/"])
def test_generate_into_a_folder(tmp_path, given):
    (tmp_path / "out").mkdir()
    result = ok(cli("rotator", "generate", "--count", "1", "--no-keys", "--no-rules",
                    "--jobs", "1", "-o", given, cwd=tmp_path))
    written = tmp_path / given.rstrip("/") / "rotator.pdf"
    assert written.read_bytes().startswith(b"%PDF")
    assert f"wrote {Path(given.rstrip('/')) / 'rotator.pdf'}" in result.stdout


@pytest.mark.parametrize("args", [
    ["generate", "--count", "500", "--difficulty", "hard"],  # minutes of work if started
    ["print", BOARD, BOARD, "--key", "--budget", "10000000"],
])
def test_an_output_in_the_way_fails_before_any_work(tmp_path, monkeypatch, args):
    def work(*_: object, **__: object) -> None:
        raise AssertionError("the work started before the outputs were checked")

    monkeypatch.setattr("cardgen.games.rotator.generator.generate", work)
    monkeypatch.setattr("cardgen.games.rotator.solver.Solver.best_line", work)
    name = "rotator.pdf" if args[0] == "generate" else "board.pdf"
    (tmp_path / "out" / name).mkdir(parents=True)
    error_line(cli("rotator", *args, "-o", tmp_path / "out"), f"out/{name}",
               "a folder of that name is in the way")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [name]


def test_print_into_a_folder_names_the_files_board(tmp_path):
    ok(cli("rotator", "print", BOARD, "-f", "pdf,svg", "-o", f"{tmp_path}/pics/"))
    assert sorted(p.name for p in (tmp_path / "pics").iterdir()) == ["board.pdf", "board.svg"]
