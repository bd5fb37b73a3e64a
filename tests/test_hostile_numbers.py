"""Numbers of hundreds of digits, on the command line, in data files and in spreadsheet
cells, are refused in one line naming the option or key and the range it takes: never an
OverflowError. The number options are found by walking the command line, so a new one is
checked too."""

from __future__ import annotations

import pytest

from cardgen.datafile import parse_toml
from cardgen.errors import ConfigError, number
from tests.helpers import cli, cli_parameters, error_line

# --- numbers on the command line ------------------------------------------------------

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"
# What each command with a number option needs besides it ({} is a fresh folder).
NUMBER_COMMANDS: dict[str, tuple[str, ...]] = {
    "card": ("card", "-o", "{}", "-f", "pdf"),
    "sheet": ("sheet", "-o", "{}"),
    "rules": ("rules", "rotator", "-o", "{}"),
    "playsheet": ("playsheet", "deflector", "-o", "{}"),
    "rotator solve": ("rotator", "solve", BOARD),
    "rotator generate": ("rotator", "generate", "--seed", "3", "--count", "1", "--difficulty",
                         "easy", "-o", "{}"),
    "rotator print": ("rotator", "print", BOARD, "-o", "{}"),
    "connector solve": ("connector", "solve", "reflector"),
    "ladder mat": ("ladder", "mat", "-o", "{}"),
    "nodes play": ("nodes", "play", "deflector"),
    "ladder rules": ("ladder", "rules", "-o", "{}"),
    "studio": ("studio", "--no-open", "-o", "{}"),  # (refused before it serves)
}
# Options that take any large number and cap it with a warning (README, "Bounded work").
CAPPED = {"--jobs"}
HUGE = "9" * 400


def _number_options() -> list[tuple[str, str]]:
    return [(command, param.opts[0]) for command, param in cli_parameters()
            if param.type_descriptor.annotation in (int, float)]


NUMBER_OPTIONS = _number_options()


def test_the_walk_finds_every_number_option():
    options = {option for _, option in NUMBER_OPTIONS}
    assert {"--count", "--tries", "--budget", "--max-cards", "--jobs", "--rows", "--players",
            "--seed", "--dpi", "--margin", "--creep"} <= options
    assert {command for command, _ in NUMBER_OPTIONS} <= set(NUMBER_COMMANDS)


@pytest.mark.parametrize("value", [HUGE, "-" + HUGE, "9" * 5000],
                         ids=["huge", "huge negative", "5000 digits"])
@pytest.mark.parametrize(("command", "option"), NUMBER_OPTIONS,
                         ids=[f"{c} {o}" for c, o in NUMBER_OPTIONS])
def test_a_number_of_hundreds_of_digits_is_one_line_naming_the_option_and_its_range(
        tmp_path, command, option, value):
    args = [a.replace("{}", str(tmp_path / "out")) for a in NUMBER_COMMANDS[command]]
    result = cli(*args, option, value, cwd=tmp_path)
    if option in CAPPED and value == HUGE and command in ("card", "sheet"):
        error_line(result, option, "--batch")  # (a --batch option: refused without one)
        return
    if option in CAPPED and value == HUGE:
        assert result.returncode == 0, result.stderr
        line = result.stderr.splitlines()[0]
        assert line.startswith(f"warning: {option} 999999…999 (400 digits) is more than")
        if command == "rotator solve":
            assert result.stdout.startswith(f"Board {BOARD}")  # solved all the same
            return
        from pypdf import PdfReader

        assert PdfReader(tmp_path / "out" / "rotator.pdf").pages  # the boards, written
        return
    line = error_line(result, option)
    assert HUGE[:30] not in line  # the number is shortened
    if len(value) > 4300:  # more digits than Python reads as a number: the parser says so
        return
    assert any(word in line for word in (" from ", " at least ", " at most ", " or ", "–")), line
    assert not (tmp_path / "out").exists()


def test_a_long_whole_number_is_shown_short_and_never_rounded():
    assert number(1_000_000) == "1000000"
    assert number(2 ** 63) == "9223372036854775808"
    assert number(10 ** 400) == "100000…000 (401 digits)"
    assert number(-(10 ** 400)) == "-100000…000 (401 digits)"
    assert number(int("f" * 5000, 16)) == "a number of about 6,021 digits"
    assert number(150.0000001) == "150.0000001"


@pytest.mark.parametrize(("text", "key"), [
    ("x = 9223372036854775808\n", "x"),
    ("[a]\nb = [1, -9223372036854775809]\n", "a.b item 2"),
    ("[[card]]\nx = 1\n[[card]]\ny = 0x" + "f" * 5000 + "\n", "card[2].y"),
])
def test_an_integer_beyond_64_bits_in_a_data_file_names_its_key(text, key):
    with pytest.raises(ConfigError) as caught:
        parse_toml(text, "data.toml")
    assert str(caught.value).startswith(f"data.toml: invalid TOML: {key} is ")
    assert str(caught.value).endswith("beyond TOML's 64-bit integers (-9223372036854775808 "
                                      "to 9223372036854775807).")


def test_an_integer_of_more_digits_than_python_reads_is_invalid_toml():
    with pytest.raises(ConfigError, match="an integer has more than 4,300 digits"):
        parse_toml("x = " + "9" * 5000 + "\n", "data.toml")
    assert parse_toml("x = 9223372036854775807\n", "d")["x"] == 2 ** 63 - 1


@pytest.mark.parametrize(("field", "problem"), [
    ({"low": 0, "high": 10}, "n must be a number from 0 to 10, not 100000…000 (401 digits)."),
    ({"low": 0}, "n must be a number from -9223372036854775807 to 9223372036854775807, not "
                 "100000…000 (401 digits)."),
    ({"integer": True}, "n must be a whole number from -9223372036854775807 to "
                        "9223372036854775807, not 100000…000 (401 digits)."),
])
def test_a_schema_number_refuses_a_huge_integer_in_words(field, problem):
    # (A spreadsheet cell reaches the schema as Python reads it, without TOML's 64 bits.)
    from cardgen.schema import Number, Table, check

    with pytest.raises(ConfigError) as caught:
        check(Table({"n": Number(**field)}), {"n": 10 ** 400}, "cells.csv")
    assert str(caught.value) == f"cells.csv: {problem}"
