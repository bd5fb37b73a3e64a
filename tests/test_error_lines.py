"""What an error line says (issue 22, points 7 and 8): every error and warning is one line
of at most 1 000 characters that carries no character able to split it, reorder it or
hide in it (controls, U+0085, line and paragraph separators, bidirectional and other
format characters), whatever the input quotes: key names, file names, option values,
CSV headers, 1 MB values. Errors about a Corporate Ladder team name the attack file, each
card by its table in the file and the field that gave it its type."""

from __future__ import annotations

import copy
import io
import os
import re
import tomllib
import unicodedata
from contextlib import redirect_stderr
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgen.card.config import CONFIG
from cardgen.card.themes import THEME
from cardgen.cli.common import warn
from cardgen.connector.assembly import ASSEMBLY
from cardgen.datafile import path_text
from cardgen.errors import (
    LONGEST_LINE,
    LONGEST_MESSAGE,
    CardgenError,
    ConfigError,
    one_line,
    quoted,
    shorten,
)
from cardgen.schema import Records, Table
from tests import tomlwrite
from tests.helpers import BASE_CONFIG, ROOT, cli
from tests.test_hostile_input import FUZZ

# What may never stand in a line of stderr: it would end the line (LF, CR, VT, FF, FS…,
# NEL, LS, PS), reorder it on a terminal (bidirectional controls) or hide in it.
NASTY = ["\n", "\r", "\t", "\x00", "\x0b", "\x0c", "\x1b", "\x1c", "\x7f", "\x85", "\u2028",
         "\u2029", "\u202a", "\u202e", "\u2066", "\u2069", "\u200b", "\u200f", "\ufeff",
         "\u061c"]
BAD_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Cn"}
BIG = 900_000  # characters: a value just short of the 1 MB cap on data files


def stderr_lines(result) -> list[str]:
    """The lines of stderr (split at line feeds only, so that any other line-ending
    character stays visible in a line), each checked: no traceback, at most
    LONGEST_LINE characters, no character of BAD_CATEGORIES."""
    text = result.stderr
    assert "Traceback" not in text, text[:2000]
    if not text:
        return []
    assert text.endswith("\n"), text[-200:]
    lines = text[:-1].split("\n")
    for line in lines:
        assert len(line) <= LONGEST_LINE, (len(line), line[:300])
        bad = sorted({f"U+{ord(ch):04X}" for ch in line
                      if unicodedata.category(ch) in BAD_CATEGORIES})
        assert not bad, (bad, line[:300])
    return lines


def one_error(result, status: int = 1) -> str:
    """A failed run's one clean error line (exit ``status``: 1 bad input, 4 a check
    that refused)."""
    lines = stderr_lines(result)
    assert result.returncode == status, (result.returncode, result.stderr[:500])
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def write(folder: Path, name: str, text: str) -> Path:
    """``text`` in a new file ``name`` (an old one removed first: the fuzzing rewrites
    the same names, and ext4 flushes a truncated file to disk before the write
    returns)."""
    path = folder / name
    path.unlink(missing_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def nasty_text(min_size: int = 1) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from([*NASTY, "a", "b", ".", " ", "é"]), min_size=min_size,
                   max_size=12).filter(lambda t: any(ch in NASTY for ch in t))


# --- point 7: nothing from the input splits or reorders a line ---------------------------

def test_one_line_escapes_what_could_split_or_reorder_a_line():
    assert one_line("a\nb\rc\td\x00e\x85f\u2028g\u2029h\u202ei\u2066j\ud800k\x7f") == (
        "a\\nb\\rc\\td\\x00e\\x85f\\u2028g\\u2029h\\u202ei\\u2066j\\ud800k\\x7f")
    assert one_line("Ada Lovelace, né à Édimbourg — 12 × 4") == (
        "Ada Lovelace, né à Édimbourg — 12 × 4")
    cut = one_line("x" * 5000, 100)
    assert len(cut) == 100 and cut.endswith("… (cut: 5,000 characters in all)")


def test_library_messages_are_one_line_too():
    assert str(CardgenError("bad\nname\u2028here")) == "bad\\nname\\u2028here"
    error = ConfigError("a\nb.toml", ["key x\ny is bad.", "z\u202e is bad."])
    assert error.problems == ("key x\\ny is bad.", "z\\u202e is bad.")
    assert str(error) == "a\\nb.toml: key x\\ny is bad. Also: z\\u202e is bad."
    assert path_text(Path("out\n/ca\x85rd.pdf")) == "out\\n/ca\\x85rd.pdf"
    assert len(str(CardgenError("y" * BIG))) == LONGEST_MESSAGE


def test_a_quote_of_a_huge_value_is_cut_short_and_says_how_long_it_was(tmp_path):
    assert shorten("x" * 50) == repr("x" * 39 + "…")  # a long name: cut, nothing more
    assert shorten("x" * BIG) == repr("x" * 39 + "…") + " (900,000 characters)"
    config = write(tmp_path, "c.toml", f'[person]\nname = "{"x" * BIG}"\n')
    line = one_error(cli("card", config, "-o", tmp_path / "out"))
    assert line.startswith("error: person.name ('xxx") and "(900,000 characters)" in line
    assert len(line) < 300


def test_a_value_that_is_not_text_is_quoted_short_too():
    assert quoted([1, 2]) == "[1, 2]" and quoted("a\nb") == "'a\\nb'"
    long = quoted(["x\u2028" * 1000, {"k": "v"}])
    assert len(long) == 80 and long.endswith("…") and "\u2028" not in long


def test_a_long_list_of_problems_says_how_many_it_leaves_out():
    problems = [f"unknown key k{i}; valid: nodes." for i in range(5000)]
    message = str(ConfigError("b.toml", problems))
    assert len(message) <= LONGEST_MESSAGE
    assert message.startswith("b.toml: unknown key k0; valid: nodes. Also: unknown key k1;")
    shown = message.count("unknown key")
    assert message.endswith(f" ({5000 - shown:,} more problems not shown.)")
    # A list that already counts what it left out (a batch's) is counted with it.
    batch = str(ConfigError("p.csv", [*problems[:12], "(4,988 more problems not shown.)"]))
    assert batch.endswith(f" ({5000 - batch.count('unknown key'):,} more problems not shown.)")


@FUZZ
@given(nasty_text())
def test_fuzz_key_names_in_a_config_a_theme_and_a_board_file(tmp_path, key):
    quoted = tomlwrite.value(key)
    config = write(tmp_path, "c.toml", f'[person]\nname = "Ada"\n{quoted} = 1\n')
    one_error(cli("card", config, "-o", tmp_path / "out"))
    section = write(tmp_path, "s.toml", f'[person]\nname = "Ada"\n[{quoted}]\nx = 1\n')
    one_error(cli("card", section, "-o", tmp_path / "out"))
    theme = write(tmp_path, "t.toml", f'{quoted} = "#000000"\n')
    one_error(cli("card", config, "--theme", theme, "-o", tmp_path / "out"))
    board = write(tmp_path, "b.toml", f'nodes = ["A:B2"]\n{quoted} = 1\n')
    one_error(cli("rotator", "show", board))
    attack = write(tmp_path, "a.toml", f'[[attacker]]\nname = "A"\n{quoted} = 1\n')
    one_error(cli("ladder", "attack", attack))


@FUZZ
@given(nasty_text())
def test_fuzz_csv_headers_and_cells(tmp_path, text):
    quoted = '"' + text.replace('"', '""') + '"'
    people = write(tmp_path, "p.csv", f"person.name,{quoted}\nAda,x\n")
    one_error(cli("card", "--batch", people, "-o", tmp_path / "out"))
    deck = write(tmp_path, "d.csv", f"name,title,company,strength,{quoted}\nAda,CEO,,1\n")
    result = cli("ladder", "deck", deck)  # a dotted column is a batch file's, left alone
    assert len(stderr_lines(result)) == (0 if "." in text.strip().lower() else 1)
    # A cell: refused naming its line and column, or (white space at its ends, such as
    # U+001C, stripped) taken.
    people = write(tmp_path, "q.csv", f"person.name,person.title\nAda,{quoted}\n")
    assert len(stderr_lines(cli("card", "--batch", people, "-o", tmp_path / "out"))) <= 1
    deck = write(tmp_path, "e.csv", f"name,title,company,strength\nAda,CEO,{quoted},1\n")
    assert len(stderr_lines(cli("ladder", "deck", deck))) <= 1


@FUZZ
@given(nasty_text())
def test_fuzz_option_values(tmp_path, value):
    config = write(tmp_path, "c.toml", BASE_CONFIG)
    out = tmp_path / "out"
    for args in (["card", config, "--preset", value], ["card", config, "--format", value],
                 ["card", config, "--name", value], ["card", config, "--output-intent", value],
                 ["card", config, "--theme", value], ["card", config, "--dieline", value],
                 ["card", config, "--varnish", value], ["card", config, "--dpi", value],
                 ["sheet", config, "--paper", value], ["sheet", config, "--flip", value],
                 ["sheet", config, "--offset", value], ["rotator", "show", value],
                 ["rotator", "generate", "--difficulty", value, "-o", out],
                 ["rotator", "generate", "--size", value, "-o", out],
                 ["rules", value, "-o", out], ["playsheet", value, "-o", out],
                 ["connector", "solve", value], ["ladder", "mat", "--preset", value],
                 ["card", f"--x{value}"], [f"card{value}"], ["rotator", f"show{value}"]):
        if args[0] in ("card", "sheet"):
            args = [*args, "-o", out]
        result = cli(*args)
        lines = stderr_lines(result)
        if result.returncode == 1:
            assert len(lines) == 1 and lines[0].startswith("error: "), (args, lines)
        else:  # a usage error: Typer's box, every line of it clean
            assert result.returncode == 2, (args, result.returncode, lines)


NAMES = ["new\nline", "car\rriage", "nel\x85here", "line\u2028sep", "para\u2029sep",
         "bidi\u202eexe.txt", "esc\x1b[31mred", "tab\tbed", "un\udcffdecodable"]


@pytest.mark.parametrize("name", NAMES)
def test_file_names_with_line_breaks_stay_on_one_line(tmp_path, name):
    out = tmp_path / "out"
    for missing in ([f"{name}.toml"], ["--theme", f"{name}.toml"], ["--batch", f"{name}.csv"]):
        one_error(cli("card", *missing, "-o", out, cwd=tmp_path))
    for command in (["ladder", "deck"], ["ladder", "attack"], ["connector", "validate"],
                    ["connector", "check"]):
        one_error(cli(*command, f"{name}.toml", cwd=tmp_path))
    one_error(cli("rules", "rotator", "--source", f"{name}", "-o", out, cwd=tmp_path))
    # Files that exist and are broken: the file named, on one line.
    broken = write(tmp_path, f"{name}.toml", "[person\n")
    for args in (["card", broken, "-o", out], ["rotator", "show", broken],
                 ["ladder", "attack", broken], ["connector", "validate", broken]):
        assert "invalid TOML" in one_error(cli(*args, cwd=tmp_path))
    csv = write(tmp_path, f"{name}.csv", "person.name,nope\nAda,x\n")
    one_error(cli("card", "--batch", csv, "-o", out, cwd=tmp_path))
    # Files a config names (TOML holds no undecodable name).
    if "\udcff" in name:
        return
    for key in ("fonts.regular", "images.logo", "images.portrait", "print.cmyk_profile"):
        section, field = key.split(".")
        config = write(tmp_path, "c.toml", BASE_CONFIG + f"[{section}]\n{field} = "
                       f"{tomlwrite.value(name + '.bin')}\n")
        assert key in one_error(cli("card", config, "-o", out, cwd=tmp_path))


def test_a_warning_that_names_a_file_with_a_line_break_is_one_line(tmp_path):
    from PIL import Image

    Image.new("RGBA", (20, 20), (200, 0, 0, 255)).save(tmp_path / "lo\ngo\u2028.png")
    config = write(tmp_path, "c.toml", BASE_CONFIG + '[images]\nlogo = "lo\\ngo\\u2028.png"\n')
    result = cli("card", config, "-o", tmp_path / "out", "-f", "pdf")
    assert result.returncode == 0, result.stderr
    lines = stderr_lines(result)
    assert "warning: images.logo: lo\\ngo\\u2028.png is only 24 dpi" in "\n".join(lines)
    assert all(line.startswith("warning: ") for line in lines), lines


def test_warn_writes_one_capped_line_per_warning():
    err = io.StringIO()
    with redirect_stderr(err):
        warn(["one\ntwo\u2028three", "z" * 5000])
    lines = err.getvalue().splitlines()
    assert lines[0] == "warning: one\\ntwo\\u2028three"
    assert len(lines) == 2 and len(lines[1]) == LONGEST_LINE


def test_the_written_files_are_reported_on_one_line_each(tmp_path):
    out = tmp_path / "o\nut"
    out.mkdir()
    result = cli("rotator", "print", "R1:B2B8E4I2I8-B4E2E8H4I9", "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines() == [f"wrote {tmp_path}/o\\nut/board.pdf"]
    assert (out / "board.pdf").is_file()


# --- point 8: Corporate Ladder errors name the card and the field -------------------------

CARD = 'name = "{name}"\ntitle = "{title}"\nstrength = {strength}\n'


def _card(table: str, name: str, title: str, strength: int = 3) -> str:
    return f"[{table}]\n" + CARD.format(name=name, title=title, strength=strength)


LADDER_CASES = {
    "T5": (_card("[attacker]", "Sam Reed", "Producer") + _card("[attacker]", "Pat Press",
                                                                 "Journalist")
           + _card("defender", "Lucas Brand", "Narrative Designer"),
           "the attacking team attacker[1] (Sam Reed) and attacker[2] (Pat Press) is forbidden: "
           "attacker[2].title 'Journalist' makes attacker[2] a Press card; play the Press card "
           "alone; it needs no help (rule T5)."),
    "D4": (_card("[attacker]", "Sam Reed", "Producer") + _card("defender", "Pat Press",
                                                               "Journalist"),
           "a Press card is never attacked: defender.title 'Journalist' makes defender (Pat "
           "Press) a Press card, which cannot defend, since Press cards never sit in a "
           "Corporate Ladder (they are discarded at set-up) and a Press attack cannot be "
           "countered (rule D4)."),
    "T4": (_card("[attacker]", "Sam Reed", "Producer") + _card("[attacker]", "Jo", "Janitor")
           + _card("defender", "Pat", "Writer"),
           "the attacking team attacker[1] (Sam Reed) and attacker[2] (Jo) is forbidden: Other "
           "cards never team up, and attacker[2].title 'Janitor' makes attacker[2] an Other "
           "card (rule T4)."),
    "T3": (_card("[attacker]", "Sam Reed", "Producer") + _card("[attacker]", "Jo", "CEO")
           + _card("defender", "Pat", "Writer"),
           "the attacking team attacker[1] (Sam Reed) and attacker[2] (Jo) is forbidden: cards "
           "team up only with their own type or as the Cooperative Trio (exactly one Middle "
           "Management, one Wordsmith and one Artist), and these are 1 Upper Management "
           "(attacker[2].title 'CEO') and 1 Middle Management (attacker[1].title 'Producer') "
           "(rule T3)."),
    "T4-defending": (_card("[attacker]", "Sam Reed", "Producer")
                     + _card("[defender]", "Jo", "Janitor") + _card("[defender]", "Al", "Intern"),
                     "the defending team defender[1] (Jo) and defender[2] (Al) is forbidden: "
                     "Other cards never team up, and defender[1].title 'Janitor' and "
                     "defender[2].title 'Intern' make defender[1] and defender[2] Other cards "
                     "(rule T4)."),
    "D3": (_card("[attacker]", "Ada", "CEO") + _card("[defender]", "Jo", "Producer")
           + _card("[defender]", "Pat", "Writer") + _card("[defender]", "Al", "Artist"),
           "the [[defender]] team defender[1] (Jo), defender[2] (Pat) and defender[3] (Al) is "
           "the Cooperative Trio (defender[1].title 'Producer', defender[2].title 'Writer' and "
           "defender[3].title 'Artist'), and a Trio's attack cannot be defended against, so it "
           "is never counter-attacked (rule D3): the Trio has won."),
}


@pytest.mark.parametrize("case", sorted(LADDER_CASES))
def test_ladder_team_errors_name_the_file_each_card_and_the_field(tmp_path, case):
    text, said = LADDER_CASES[case]
    path = write(tmp_path, "a.toml", text)
    assert one_error(cli("ladder", "attack", path), 4) == f"error: {path}: {said}"


def test_a_large_team_is_named_by_its_tables(tmp_path):
    text = "".join(_card("[attacker]", "N" * 150 + str(i), "Producer" if i % 2 else "Writer")
                   for i in range(10)) + _card("defender", "Pat", "Artist")
    line = one_error(cli("ladder", "attack", write(tmp_path, "a.toml", text)), 4)
    assert "the attacking team attacker[1], attacker[2]," in line and "(rule T3)" in line
    assert "NNNN" not in line


def test_ladder_text_fields_have_a_length_limit(tmp_path):
    text = _card("[attacker]", "x" * 5000, "Producer") + _card("defender", "Pat", "Writer")
    line = one_error(cli("ladder", "attack", write(tmp_path, "a.toml", text)))
    assert "attacker[1].name is 5000 characters long" in line and "at most 200" in line
    deck = write(tmp_path, "d.csv", "name,title,company,strength\nAda,CEO," + "y" * 5000 + ",1\n")
    assert "line 2, column company: is 5000 characters long" in one_error(
        cli("ladder", "deck", deck))


# --- point 8: no error line is longer than LONGEST_LINE, whatever the input ---------------

def _leaves(table: Table, path: str = "") -> list[str]:
    """The dotted keys of a schema's values (the entries of an array of tables: [1])."""
    keys = []
    for key, field in table.fields.items():
        dotted = f"{path}.{key}" if path else key
        if isinstance(field, Table):
            keys += _leaves(field, dotted)
        elif isinstance(field, Records):
            keys += _leaves(field.table, f"{dotted}[1]")
        else:
            keys.append(dotted)
    return keys


def _set(data: dict, dotted: str, value: object) -> dict:
    """``data`` with the value at ``dotted`` set (``card[1].x``: the first table)."""
    *parents, last = dotted.split(".")
    node = data
    for part in parents:
        if part.endswith("[1]"):
            node = node.setdefault(part[:-3], [{}])[0]
        else:
            node = node.setdefault(part, {})
    node[last] = value
    return data


# What a literal string may not hold (a tab and a line break it may).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def _literal(value: object, key: bool = False) -> str:
    """``value`` in TOML: a long text as a literal string ('...', or '''...''' with line
    breaks) where TOML allows one, which Python's reader takes in one step instead of a
    character at a time (a 900 KB basic string takes it a tenth of a second); the same
    text either way. (A key is on one line.)"""
    if isinstance(value, list) and any(isinstance(x, str) for x in value):
        return "[" + ", ".join(_literal(x) for x in value) + "]"
    if (isinstance(value, str) and len(value) > 1000 and "'" not in value
            and not (key and "\n" in value) and not value.startswith("\n")
            and not _CONTROL.search(value)):
        return f"'''{value}'''" if "\n" in value else f"'{value}'"
    return tomlwrite.value(value)


def _toml(data: dict) -> str:
    """TOML for nested tables and arrays of tables of plain values (long texts as
    literal strings: see ``_literal``)."""
    lines: list[str] = []

    def table(node: dict, prefix: str, header: str) -> None:
        plain = {k: v for k, v in node.items() if not isinstance(v, dict | list)
                 or (isinstance(v, list) and not all(isinstance(x, dict) for x in v))}
        if header:
            lines.append(header)
        lines.extend(f"{tomlwrite.value(k)[1:-1] if k.isidentifier() else _literal(k, key=True)} "
                     f"= {_literal(v)}" for k, v in plain.items())
        for key, value in node.items():
            name = f"{prefix}.{key}" if prefix else key
            if isinstance(value, dict):
                table(value, name, f"[{name}]")
            elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
                for item in value:
                    table(item, name, f"[[{name}]]")

    table(data, "", "")
    return "\n".join(lines) + "\n"


BASE = {"person": {"name": "Ada Example", "email": "ada@example.org"}}
CONFIG_SKIP: set[str] = set()  # every key of the config is tried


def _huge(kind: str) -> str:
    """A 900 KB value: plain letters, or letters with a line break and a bidi control."""
    return "x" * BIG if kind == "plain" else ("x\n\u202e" * (BIG // 3))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["plain", "nasty"])
def test_a_megabyte_in_any_field_is_one_short_line(tmp_path, kind):
    value = _huge(kind)
    out = tmp_path / "out"
    runs: list[tuple[str, list[str | Path]]] = []
    config = write(tmp_path, "base.toml", BASE_CONFIG)
    for key in _leaves(CONFIG):
        if key not in CONFIG_SKIP:
            path = write(tmp_path, f"c-{key}.toml", _toml(_set(copy.deepcopy(BASE), key, value)))
            runs.append((f"config {key}", ["card", path, "-o", out]))
    runs.append(("config key", ["card", write(tmp_path, "k.toml", _toml(
        {**BASE, "card": {value: 1}})), "-o", out]))
    dark = tomllib.loads((ROOT / "templates" / "themes" / "dark.toml").read_text())
    for key in _leaves(THEME):
        theme = write(tmp_path, f"t-{key}.toml", _toml(_set(copy.deepcopy(dark), key, value)))
        runs.append((f"theme {key}", ["card", config, "--theme", theme, "-o", out]))
    for key in _leaves(ASSEMBLY):
        assembly = write(tmp_path, f"a-{key}.toml", _toml(_set(
            {"game": "rotator", "card": [{"x": 0, "y": 0}]}, key, value)))
        runs.append((f"assembly {key}", ["connector", "validate", assembly]))
    for key in ("name", "title", "company", "ability"):
        for table in ("attacker[1]", "defender"):
            data = {"attacker": [{"name": "A", "title": "CEO", "strength": 1}],
                    "defender": {"name": "B", "title": "Writer", "strength": 1}}
            attack = write(tmp_path, f"l-{table}{key}.toml",
                           _toml(_set(data, f"{table}.{key}", value)))
            runs.append((f"attack {table}.{key}", ["ladder", "attack", attack]))
    runs.append(("board nodes", ["rotator", "show", write(tmp_path, "b.toml", _toml(
        {"nodes": [value]}))]))
    # The CSV reader takes at most 131,072 characters a cell.
    cell = value[:130_000].replace("\n", " ")
    batch = {"person.name": "Ada", "person.title": "Producer", "images.logo": "",
             "card.preset": "eu"}
    for i, column in enumerate(batch):
        row = ",".join(f'"{cell}"' if j == i else fill for j, fill in enumerate(batch.values()))
        people = write(tmp_path, f"p{i}.csv", ",".join(batch) + "\n" + row + "\n")
        runs.append((f"batch {column}", ["card", "--batch", people, "-o", out]))
    people = write(tmp_path, "p.csv", f'person.name,"{cell}"\nAda,x\n')
    runs.append(("batch header", ["card", "--batch", people, "-o", out]))
    deck = ["name", "title", "company", "strength", "text", "ability"]
    for i, column in enumerate(deck):
        row = ",".join(f'"{cell}"' if j == i else "1" for j in range(len(deck)))
        path = write(tmp_path, f"d{i}.csv", ",".join(deck) + "\n" + row + "\n")
        runs.append((f"deck {column}", ["ladder", "deck", path]))
    path = write(tmp_path, "d.csv", f'name,title,company,strength,"{cell}"\nAda,CEO,,1\n')
    runs.append(("deck header", ["ladder", "deck", path]))
    # Command-line values: a megabyte each (in process, so no limit on an argument).
    for option in ("--preset", "--format", "--name", "--output-intent", "--dieline",
                   "--varnish", "--dpi"):
        runs.append((f"card {option}", ["card", config, option, value, "-o", out]))
    for command in (["rotator", "show"], ["rotator", "solve"], ["rotator", "print"],
                    ["rules"], ["playsheet"], ["connector", "solve"]):
        runs.append((" ".join(command), [*command, value]))
    runs.append(("board ID", ["rotator", "show", "R1:" + "B2" * (BIG // 2)]))
    source = tmp_path / "rules"
    source.mkdir()
    write(source, "rotator.md", f"# Rotator\n\n{value}\n")
    runs.append(("rules source", ["rules", "rotator", "--source", source, "-o", out]))
    failures = []
    for what, args in runs:
        try:
            lines = stderr_lines(cli(*args, cwd=tmp_path))
            assert len(lines) <= 3, lines  # warnings may come with an error
        except AssertionError as exc:
            failures.append(f"{what}: {str(exc)[:300]}")
    assert not failures, "\n".join(failures)


@pytest.mark.slow
def test_thousands_of_problems_are_one_short_line(tmp_path):
    keys = "".join(f"k{i} = 1\n" for i in range(50_000))
    config = write(tmp_path, "c.toml", '[person]\nname = "Ada"\n' + keys)
    line = one_error(cli("card", config, "-o", tmp_path / "out"))
    assert line.endswith("more problems not shown.)")
    board = write(tmp_path, "b.toml", "nodes = []\n" + keys)
    assert one_error(cli("rotator", "show", board)).endswith("more problems not shown.)")
    rows = "".join(f"A{i},x,y,Q\n" for i in range(4999))
    deck = write(tmp_path, "d.csv", "name,title,company,strength\n" + rows)
    assert one_error(cli("ladder", "deck", deck)).endswith("more problems not shown.)")
    assert os.path.getsize(deck) < 1_000_000
