"""The command line's contract, the same for every command (issue 25, points 1, 2, 4 and
6): ``-o`` is always the folder and ``--name`` the file; each file written is one
``wrote``/``replaced`` line with its path as the user gave it; ``-q`` silences all but
errors; the exit codes of one table (0 done, 1 bad input, 2 usage, 3 a fault of the run,
4 a check that found a problem, 141 a closed pipe); ``--json`` on every command, errors
included. Driven as a user drives it: in process through ``cardgen.cli.run``, and
through real processes and pipes for the pipe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import BASE_CONFIG, ROOT, cli, cli_parameters, error_line, ok, write_config

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"
REFLECTOR = ROOT / "templates" / "connector" / "reflector.toml"


def _commands() -> set[str]:
    return {command for command, _ in cli_parameters()}


def _options(command: str) -> set[str]:
    return {opt for name, param in cli_parameters() if name == command for opt in param.opts}


# Every command that writes files, as a quick run of it (the output options added by the
# test) and the files that run writes by default.
WRITERS: dict[str, tuple[list[str], list[str]]] = {
    "card": (["card", "-f", "pdf", "--dieline", "layer"], ["card.pdf"]),
    "sheet": (["sheet", "--registration"], ["sheet-registration.pdf"]),
    "rules": (["rules", "ladder"], ["rules-ladder.pdf"]),
    "playsheet": (["playsheet", "reflector"], ["playsheet-reflector.pdf"]),
    "ladder mat": (["ladder", "mat"], ["ladder-mat.pdf"]),
    "ladder rules": (["ladder", "rules"], ["ladder-rules.pdf"]),
    "rotator generate": (["rotator", "generate", "--count", "1", "--difficulty", "easy",
                          "--jobs", "1", "--no-keys", "--no-rules"], ["rotator.pdf"]),
    "rotator print": (["rotator", "print", BOARD], ["board.pdf"]),
    "connector show": (["connector", "show", "reflector", "-f", "svg"],
                       ["connector-reflector-eu.svg"]),
    "connector solve": (["connector", "solve", "reflector"], ["assembly-reflector-eu.toml"]),
    "schema": (["schema", "card"], ["card.schema.json"]),
}


# --- point 1: one -o rule, and --name everywhere --------------------------------------------

# Commands that serve until stopped and write files when asked (the studio's buttons):
# they take -o and --name too; tests/test_studio_server.py writes through them.
SERVERS = {"studio"}


def test_every_command_that_writes_files_takes_a_folder_and_a_name():
    writers = {command for command in _commands() if "--output" in _options(command)}
    assert writers == set(WRITERS) | SERVERS
    for command in writers:
        assert {"-o", "--output", "--name"} <= _options(command), command


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_o_is_the_folder_and_name_the_file(tmp_path, command):
    args, _ = WRITERS[command]
    result = ok(cli(*args, "-o", "out", "--name", "mine", cwd=tmp_path))
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written and all(name.startswith("mine") for name in written), written
    said = sorted(line for line in result.stdout.splitlines() if line.startswith("wrote "))
    assert said == [f"wrote out/{name}" for name in written]


@pytest.mark.parametrize("command", sorted(WRITERS))
@pytest.mark.parametrize("given", ["out.pdf", "x/book.PNG", "notes.txt", "a-file"])
def test_o_naming_a_file_is_a_usage_error_that_shows_how(tmp_path, command, given):
    """``-o out.pdf`` once made a folder ``out.pdf/`` (card), wrote a PDF called ``out.pdf``
    (rotator generate) or ``out.pdf`` for ``x.png`` (rotator print): now it is refused,
    one line, exit 2, nothing written."""
    (tmp_path / "a-file").write_text("mine\n", encoding="utf-8")
    args, _ = WRITERS[command]
    before = sorted(p.name for p in tmp_path.iterdir())
    line = error_line(cli(*args, "-o", given, cwd=tmp_path), status=2)
    folder, _, name = given.rpartition("/")
    stem = name.rsplit(".", 1)[0]
    assert line == (f"error: -o {given}: -o is the folder to write into; to name the file, "
                    f"use -o {folder or '.'} --name {stem}")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "mine\n"


def test_a_folder_named_like_a_file_is_still_a_folder(tmp_path):
    (tmp_path / "book.pdf").mkdir()
    ok(cli("ladder", "rules", "-o", "book.pdf", cwd=tmp_path))
    assert (tmp_path / "book.pdf" / "ladder-rules.pdf").is_file()


def test_the_default_folders_and_names_stay(tmp_path):
    for command, (args, files) in WRITERS.items():
        folder = tmp_path / command.replace(" ", "-")
        folder.mkdir()
        if command in ("connector solve", "schema"):  # a file only when asked (-o, --name)
            assert ok(cli(*args, cwd=folder)).stdout and not (folder / "output").exists()
            args = [*args, "--name", files[0].removesuffix(".json").removesuffix(".toml")]
        ok(cli(*args, cwd=folder))
        for name in files:
            assert (folder / "output" / name).is_file(), (command, name)


# --- point 2: wrote or replaced, paths as given ------------------------------------------

def test_a_replaced_file_is_said_apart_from_a_new_one(tmp_path):
    """``rules reflector --name rules-all`` replaced a 46-page book silently."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "rules-all.pdf").write_bytes(b"%PDF- a 46-page book\n")
    result = ok(cli("rules", "reflector", "--name", "rules-all", "-o", "out", cwd=tmp_path))
    assert "replaced out/rules-all.pdf" in result.stdout.splitlines()
    assert "wrote " not in result.stdout
    first = ok(cli("ladder", "mat", "-o", "out", "-f", "pdf,svg", cwd=tmp_path)).stdout
    assert first.splitlines()[:2] == ["wrote out/ladder-mat.pdf", "wrote out/ladder-mat.svg"]
    again = ok(cli("ladder", "mat", "-o", "out", "-f", "pdf,svg", cwd=tmp_path)).stdout
    assert again.splitlines()[:2] == ["replaced out/ladder-mat.pdf",
                                      "replaced out/ladder-mat.svg"]


@pytest.mark.parametrize("given", ["./out", "./out/", "out//", "../here/out"])
def test_paths_are_shown_as_the_user_gave_them(tmp_path, given):
    folder = tmp_path / "here"
    folder.mkdir()
    result = ok(cli("ladder", "rules", "-o", given, cwd=folder))
    shown = given + "ladder-rules.pdf" if given.endswith("/") else f"{given}/ladder-rules.pdf"
    assert result.stdout.splitlines()[0] == f"wrote {shown}"
    assert str(tmp_path) not in result.stdout  # never made absolute


def test_every_writer_reports_on_stdout_the_same_way(tmp_path):
    for command, (args, files) in WRITERS.items():
        result = ok(cli(*args, "-o", "o", cwd=tmp_path))
        lines = [line for line in result.stdout.splitlines() if line.startswith(
            ("wrote ", "replaced "))]
        assert [line.split(" ", 1)[1] for line in lines][:len(files)] == [
            f"o/{name}" for name in files], command
        assert "wrote" not in result.stderr, command


# --- point 4: -q, and errors that show paths as given ------------------------------------

def test_every_command_takes_quiet_and_json():
    for command in _commands():
        assert {"-q", "--quiet", "--json"} <= _options(command), command


def test_quiet_says_nothing_but_errors(tmp_path):
    loud = ok(cli("playsheet", "defector", "--players", "7", "-o", "o", cwd=tmp_path))
    assert "wrote o/playsheet-defector.pdf" in loud.stdout and "warning:" in loud.stderr
    quiet = ok(cli("playsheet", "defector", "--players", "7", "-o", "o", "-q", cwd=tmp_path))
    assert "wrote" not in quiet.stdout and "replaced" not in quiet.stdout
    assert quiet.stderr == ""
    assert "7 players: a page each" in quiet.stdout  # what the run tells stays
    # Errors and exit codes are unchanged.
    assert error_line(cli("ladder", "mat", "--rows", "5", "-q")) == error_line(
        cli("ladder", "mat", "--rows", "5"))
    error_line(cli("card", "--dpi", "abc", "--quiet"), "--dpi", status=2)


def test_errors_show_paths_as_the_user_gave_them(tmp_path):
    """A font named relative to a config in a subfolder: the path under the current
    folder, not made absolute."""
    (tmp_path / "sub").mkdir()
    write_config(tmp_path / "sub", BASE_CONFIG + '[fonts]\nregular = "missing.ttf"\n',
                 name="c.toml")
    line = error_line(cli("card", "sub/c.toml", "-o", "out", cwd=tmp_path))
    assert line == "error: fonts.regular: font file sub/missing.ttf does not exist."


# --- point 6: exit codes, pipes and --json ----------------------------------------------

@pytest.mark.parametrize(("args", "status"), [
    (["card", "--dpi", "abc"], 2),  # a value not of the option's type
    (["card", "--bogus"], 2),  # an unknown option
    (["rotator", "solve"], 2),  # a missing argument
    (["rotator", "print", BOARD, "--size", "huge"], 2),  # not one of the choices
    (["ladder", "mat", "-o", "m.pdf"], 2),  # -o naming a file
    (["card", "--dpi", "0"], 1),  # a value out of range: bad input
    (["card", "nope.toml"], 1),  # a file that does not exist
])
def test_usage_errors_exit_2_and_bad_input_1_in_one_line(tmp_path, args, status):
    line = error_line(cli(*args, cwd=tmp_path), status=status)
    assert "Usage:" not in line and "╭" not in line


def test_a_check_that_finds_a_problem_exits_4(tmp_path):
    text = REFLECTOR.read_text(encoding="utf-8")
    bad = tmp_path / "moved.toml"
    bad.write_text(text.replace("y = 11.6", "y = 13.6"), encoding="utf-8")
    assert cli("connector", "validate", bad).returncode == 4
    assert cli("connector", "validate", tmp_path / "missing.toml").returncode == 1
    deck = tmp_path / "d.csv"
    deck.write_text("name,title,company,strength\nAda,CEO,Acme,3\n", encoding="utf-8")
    assert cli("ladder", "deck", deck).returncode == 4
    team = tmp_path / "team.toml"
    team.write_text('[[attacker]]\nname = "Sam"\ntitle = "Producer"\nstrength = 4\n'
                    '[[attacker]]\nname = "Pat"\ntitle = "Journalist"\nstrength = 4\n'
                    '[defender]\nname = "Lu"\ntitle = "Designer"\nstrength = 2\n',
                    encoding="utf-8")
    error_line(cli("ladder", "attack", team), "rule T5", status=4)
    record = ROOT / "tests" / "data" / "nodes" / "reflector-example.toml"
    assert cli("referee", record).returncode == 4  # its ninth move is illegal
    assert cli("connector", "solve", "defector", "--max-cards", "3").returncode == 4


def test_a_board_with_no_win_exits_4(monkeypatch):
    from cardgen.games.registry import Status
    from cardgen.games.rotator.game import RotatorGame
    from cardgen.games.rotator.solver import Solution, StartResult

    def lost(self, board, budget=0, **_):  # every start proved lost
        return Solution(StartResult(0, Status.NONE),
                        [StartResult(x, Status.NONE) for x in range(10)], budget)

    monkeypatch.setattr(RotatorGame, "solve", lost)
    result = cli("rotator", "solve", BOARD)
    assert result.returncode == 4 and "Not winnable" in result.stdout
    result = cli("rotator", "solve", BOARD, "--json")
    assert result.returncode == 4 and json.loads(result.stdout)["solvable"] is False


# A quick failing run of every command: (command line, the error's code).
FAILING: dict[str, tuple[list[str], str]] = {
    "studio": (["studio", "--host", "example.com"], "usage"),
    "card": (["card", "nope.toml"], "config.unreadable"),
    "init": (["init", "/dev/full", "--force"], "general.output"),
    "sheet": (["sheet", "--paper", "a3"], "usage"),
    "rules": (["rules", "chess"], "usage"),
    "playsheet": (["playsheet", "chess"], "usage"),
    "referee": (["referee", "nope.toml"], "config.unreadable"),
    "rotator show": (["rotator", "show", "R1:B2C3E4I2I8-B4E2E8H4I10"], "board."),
    "rotator play": (["rotator", "play", "hello"], "board."),
    "rotator solve": (["rotator", "solve", BOARD, "--budget", "1"], "general.parameter"),
    "rotator generate": (["rotator", "generate", "--count", "0"], "general."),
    "rotator print": (["rotator", "print", BOARD, "-o", "x.pdf"], "usage"),
    "connector validate": (["connector", "validate", "nope.toml"], "config.unreadable"),
    "connector solve": (["connector", "solve", "chess"], "usage"),
    "connector check": (["connector", "check", "--preset", "uk"], "usage"),
    "connector show": (["connector", "show", "chess"], "usage"),
    "ladder deck": (["ladder", "deck", "nope.csv"], "config.unreadable"),
    "ladder attack": (["ladder", "attack", "nope.toml"], "config.unreadable"),
    "ladder mat": (["ladder", "mat", "--rows", "5"], "general."),
    "ladder rules": (["ladder", "rules", "--dpi", "abc"], "usage"),
    "nodes play": (["nodes", "play", "defector"], "usage"),
    "schema": (["schema", "chess"], "usage"),
}


def test_every_command_is_tried_with_json_here():
    assert set(FAILING) == _commands()


@pytest.mark.parametrize("command", sorted(FAILING))
def test_json_errors_are_one_object_with_the_stderr_sentence(tmp_path, command):
    args, code = FAILING[command]
    result = cli(*args, "--json", cwd=tmp_path)
    line = error_line(result, status=result.returncode)
    assert result.returncode in (1, 2)
    data = json.loads(result.stdout)  # exactly one JSON object: nothing before or after
    assert set(data) == {"error"}
    assert set(data["error"]) - {"problems"} == {"code", "field", "message"}
    assert data["error"]["message"] == line.removeprefix("error: ")
    for problem in data["error"].get("problems", []):  # a ProblemsError's, each coded
        assert set(problem) == {"code", "field", "line", "message"}
    assert data["error"]["code"].startswith(code), data
    assert (data["error"]["code"] == "usage") == (result.returncode == 2)
    assert data["error"]["field"] is None or isinstance(data["error"]["field"], str)


def test_json_errors_name_the_field(tmp_path):
    data = json.loads(cli("card", "--dpi", "abc", "--json").stdout)
    assert data == {"error": {"code": "usage", "field": "--dpi", "message": (
        "--dpi: Input should be a valid number, unable to parse string as a number.")}}
    data = json.loads(cli("ladder", "mat", "--rows", "5", "--json").stdout)["error"]
    assert data["field"] == "--rows" and data["code"] == "general.parameter"
    config = write_config(tmp_path, '[person]\nnmae = "Ada"\n')
    data = json.loads(cli("card", config, "--json", "-o", tmp_path).stdout)["error"]
    assert data["code"] == "config.unknown-key" and data["field"] == str(config)


def test_json_output_is_one_object_with_the_files(tmp_path):
    result = ok(cli("ladder", "mat", "-o", "o", "--json", cwd=tmp_path))
    data = json.loads(result.stdout)
    assert data["files"] == [{"path": "o/ladder-mat.pdf", "replaced": False}]
    assert data["text"] == ["1 sheet, landscape: print at 100 %."]
    again = json.loads(ok(cli("ladder", "mat", "-o", "o", "--json", cwd=tmp_path)).stdout)
    assert again["files"] == [{"path": "o/ladder-mat.pdf", "replaced": True}]
    card = json.loads(ok(cli("card", "-o", "o", "-f", "pdf", "--json", cwd=tmp_path)).stdout)
    assert {"path": "o/card.pdf", "replaced": False} in card["files"] and card["ladder"]
    shown = json.loads(ok(cli("rotator", "show", BOARD, "--json")).stdout)
    assert shown["board"] == BOARD and len(shown["lines"]) > 10
    checked = json.loads(ok(cli("connector", "check", "--json")).stdout)
    assert checked["presets"]["eu"]["sound"] is True


def test_the_games_at_the_prompt_refuse_json_in_json(tmp_path):
    for args in (["rotator", "play", BOARD], ["nodes", "play", "reflector"]):
        result = cli(*args, "--json")
        line = error_line(result, "--json", "played at the terminal", status=2)
        assert json.loads(result.stdout)["error"]["message"] == line.removeprefix("error: ")


def _cardgen(*args: str, stdout: int, cwd: Path) -> subprocess.Popen[bytes]:
    """``cardgen ARGS`` as a real process, its stdout ``stdout``, its stderr a pipe."""
    return subprocess.Popen([sys.executable, "-m", "cardgen", *args], stdout=stdout,
                            stderr=subprocess.PIPE, cwd=cwd)


def test_a_closed_pipe_ends_quietly_with_141(tmp_path):
    """The reader of stdout is gone before anything is written (``| head -0``): exit
    141, nothing on stderr; it exited 1 (Click's own exit for a broken pipe)."""
    for args in (["rotator", "show", BOARD], ["ladder", "deck", "--json"],
                 ["referee", "--example", "deflector"]):
        read, write = os.pipe()
        os.close(read)
        process = _cardgen(*args, stdout=write, cwd=tmp_path)
        os.close(write)
        _, err = process.communicate(timeout=300)
        assert (process.returncode, err) == (141, b""), args


def test_head_one_ends_quietly(tmp_path):
    """``cardgen referee --example deflector | head -1``: one line read, then the pipe
    closed; the run ends without a word on stderr (0 if it had written everything
    already, 141 if it had not)."""
    process = _cardgen("referee", "--example", "deflector", stdout=subprocess.PIPE,
                       cwd=tmp_path)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    process.wait(timeout=300)
    assert first.startswith(b"[[report]]")
    assert err == b"" and process.returncode in (0, 141), (process.returncode, err)
