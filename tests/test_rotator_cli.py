"""``cardgen rotator ...`` end to end: run the CLI (in process), read its output back.

show, solve (text and JSON, with the winning line replayed through the rules engine),
board input as IDs and TOML files, bad boards, seeded and graded generation (reproducible,
the same with any number of jobs), the PDFs it writes, ``print`` in every format, help.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image as PILImage

from cardgen.board.cells import card_name, parse_cell
from cardgen.errors import BoardError
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.describe import (
    board_lines,
    graded_record,
    solution_lines,
    solution_record,
)
from cardgen.games.rotator.engine import Choice, Terrain, replay
from cardgen.games.rotator.generator import Grade
from cardgen.games.rotator.generator import generate as generate_boards
from cardgen.games.rotator.solver import Solver
from tests.helpers import Result, cli, error_line, ok

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"  # best: 5 turns, 7 boosts from A:E10; A:A10 cannot win
BOARD2 = "R1:B3D7F2H5I9-B9C3F5H2I7"
# Winnable (9 turns), but no search finds a line within 100 states: "undecided".
UNDECIDED_AT_100 = "R1:B2D5G9H2I6-B3B9E6F2I7"
START_RE = re.compile(r"^A:[A-J]10$")


# --- helpers ----------------------------------------------------------------------------

def rotator(*args: str | Path, cwd: Path | None = None) -> Result:
    """``cardgen rotator ARGS``, run in this process."""
    return cli("rotator", *args, cwd=cwd)


def solve_json(*args: str, cwd: Path | None = None) -> dict:
    result = ok(rotator("solve", *args, "--json", cwd=cwd))
    return json.loads(result.stdout)


def replay_line(data: dict):  # type: ignore[no-untyped-def]
    """Play the JSON line through the engine (raises IllegalMove if a turn is illegal)."""
    rmap = RotatorMap.from_id(data["board_id"])
    choices = [Choice(start=parse_cell(r["start"]) if r["start"] else None,
                      drill=bool(r["drill"]), boost=len(r["boost"])) for r in data["line"]]
    return replay(Terrain.from_map(rmap), parse_cell(data["start"])[0], choices)


def check_winning_line(data: dict) -> None:
    """``turns``, ``boosts``, ``start`` and ``line`` agree, and the line really wins."""
    assert isinstance(data["turns"], int) and data["turns"] > 0
    assert isinstance(data["boosts"], int) and data["boosts"] >= 0
    assert START_RE.match(data["start"]), data["start"]
    line = data["line"]
    assert isinstance(line, list) and len(line) == data["turns"]
    for n, record in enumerate(line, start=1):
        assert record["turn"] == n
        assert record["text"].startswith(f"Turn {n} "), record["text"]
        assert record["won"] is (n == len(line))
    assert sum(len(r["boost"]) for r in line) == data["boosts"]
    reports = replay_line(data)
    assert len(reports) == len(line)
    assert reports[-1].won and not any(r.lost for r in reports)
    for report, record in zip(reports, line, strict=True):
        assert card_name(report.end) == record["end"]
        assert [card_name(c) for c in report.fall] == record["fall"]
        assert [card_name(c) for c in report.boosted] == record["boost"]


def pdf_texts(path: Path) -> list[str]:
    """Each page's text as PDFium reads it (lines joined by newlines): an independent
    reader, several times quicker than pdfplumber on these pages."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        texts = []
        for page in document:
            text = page.get_textpage().get_text_range()
            texts.append(text.replace("\r\n", "\n").replace("\r", "\n").strip())
        return texts
    finally:
        document.close()


def generate(tmp: Path, name: str, *args: str) -> tuple[list[dict], Path]:
    """``generate --json -o tmp --name name ARGS``: the boards as JSON and the PDF path."""
    pdf = tmp / f"{name}.pdf"
    result = ok(rotator("generate", *args, "--json", "-o", str(tmp), "--name", name))
    boards = boards_of(result)
    assert isinstance(boards, list)
    return boards, pdf


def run_generate(tmp: Path, name: str, *args: str) -> tuple[Result, Path]:
    """``generate --json -o tmp --name name ARGS``: the run and the PDF path."""
    pdf = tmp / f"{name}.pdf"
    return ok(rotator("generate", *args, "--json", "-o", str(tmp), "--name", name)), pdf


def boards_of(result: Result) -> list[dict]:
    """The boards of ``generate --json``'s one object."""
    data = json.loads(result.stdout)
    assert isinstance(data, dict) and set(data) == {"boards", "files"}
    return data["boards"]


def is_easy(b: dict) -> bool:
    return b["par"] <= 5 and b["boosts_needed"] <= 3 and b["open_first_moves"] >= 10


def is_hard(b: dict) -> bool:
    par, boosts, opened = b["par"], b["boosts_needed"], b["open_first_moves"]
    return par >= 13 or (par >= 9 and (boosts >= 4 or opened <= 12))


# --- show -------------------------------------------------------------------------------

def test_show_draws_the_board():
    out = ok(rotator("show", BOARD)).stdout
    lines = out.splitlines()
    assert lines[0].startswith(BOARD)
    rows = [ln for ln in lines if re.match(r"^\s+\d{1,2}\s{2}[●▒·]( [●▒·]){9}\s", ln)]
    assert len(rows) == 20, out
    # Row numbers: grid A 10..1 (away from the player), then grid B 1..10.
    assert [int(r.split()[0]) for r in rows] == [*range(10, 0, -1), *range(1, 11)]
    assert sum(r.count("●") for r in rows) == 10  # the header's legend has one more
    assert "● Node" in lines[0]
    fold = [i for i, ln in enumerate(lines) if "fold" in ln and "─" in ln]
    assert len(fold) == 1
    assert lines.index(rows[9]) < fold[0] < lines.index(rows[10])
    # The Node centres are where the ID puts them: grid B's B4 is row 4 of grid B, column B.
    b4 = rows[10 + 3].split()
    assert b4[0] == "4" and b4[1 + 1] == "●"
    # The command prints the library's text board, line for line.
    assert lines == board_lines(RotatorMap.from_id(BOARD))


# --- solve ------------------------------------------------------------------------------

def test_solve_json_has_the_required_keys_and_a_line_that_wins():
    data = solve_json(BOARD)
    assert data["board_id"] == BOARD
    assert data["solvable"] is True
    assert data["turns"] == 5 and data["boosts"] == 7 and data["start"] == "A:E10"
    starts = data["winning_starts"]
    assert isinstance(starts, list) and starts
    assert all(isinstance(s, str) and START_RE.match(s) for s in starts), starts
    assert "A:E10" in starts and "A:A10" not in starts
    assert len(set(starts)) == len(starts)
    assert isinstance(data["states"], int) and data["states"] > 0
    assert data["complete"] is True
    check_winning_line(data)
    # The per-start table agrees with winning_starts.
    assert [s["start"] for s in data["starts"]] == [card_name((x, 0)) for x in range(10)]
    assert [s["start"] for s in data["starts"] if s["status"] == "win"] == starts
    assert {s["start"]: s["status"] for s in data["starts"]}["A:A10"] == "none"
    for s in data["starts"]:
        if s["status"] == "win":
            assert s["turns"] >= data["turns"]


@pytest.fixture(scope="module")
def board2_quick() -> dict:
    """``solve BOARD2 --quick --json``."""
    return solve_json(BOARD2, "--quick")


def test_solve_json_second_board_and_quick(board2_quick):
    data = board2_quick
    assert data["board_id"] == BOARD2 and data["solvable"] is True
    check_winning_line(data)
    # --quick keeps the board's best line the shortest one.
    assert data["turns"] == 9 and data["boosts"] == 4 and data["start"] == "A:F10"


def test_solve_json_is_the_librarys_solution_record(board2_quick):
    rmap = RotatorMap.from_id(BOARD2)
    terrain = Terrain.from_map(rmap)
    solution = Solver(terrain).solve(shortest=False)
    line = solution.line
    assert line is not None
    record = solution_record(rmap, solution, replay(terrain, line.start, line.choices))
    assert record == board2_quick
    assert json.loads(json.dumps(record)) == record  # JSON-ready as it is


def test_solve_text_names_turns_boosts_and_every_start():
    out = ok(rotator("solve", BOARD)).stdout
    assert f"Board {BOARD}" in out
    assert "Winnable in 5 turns with 7 boost spaces, starting from A:E10." in out
    for x in range(10):
        name = card_name((x, 0))
        assert re.search(rf"^{name}\s+\S", out, re.M), f"no table row for {name}"
    assert re.search(r"^A:A10\s+cannot win", out, re.M)
    assert re.search(r"^A:E10\s+5 turns, 7 boosts", out, re.M)
    turns = re.findall(r"^\s+Turn (\d+) ", out, re.M)
    assert turns == ["1", "2", "3", "4", "5"]
    assert out.count(": won") == 1
    assert "states explored" in out


def test_solve_small_budget_is_undecided_never_wrong():
    data = solve_json(UNDECIDED_AT_100, "--budget", "100")
    assert data["solvable"] is None
    assert data["complete"] is False
    assert data["turns"] is None and data["line"] == [] and data["winning_starts"] == []
    assert data["budget"] == 100
    # Every start it calls lost really is lost (the full answer, with the default budget).
    full = solve_json(UNDECIDED_AT_100, "--quick")
    assert full["solvable"] is True and full["complete"] is True
    lost_at_100 = {s["start"] for s in data["starts"] if s["status"] == "none"}
    assert lost_at_100, "expected some starts proved lost even at budget 100"
    assert not lost_at_100 & set(full["winning_starts"])
    text = ok(rotator("solve", UNDECIDED_AT_100, "--budget", "100")).stdout
    assert "Undecided" in text
    assert "Winnable" not in text and "Not winnable" not in text
    assert "(try a larger --budget)." in text
    # The text is the library's, with the option named as the command line spells it.
    rmap = RotatorMap.from_id(UNDECIDED_AT_100)
    solution = Solver(Terrain.from_map(rmap)).solve(100)
    assert solution.line is None
    assert text.splitlines() == "\n".join(solution_lines(rmap, solution, [],
                                                         budget_name="--budget")).splitlines()


def test_solve_text_when_only_the_best_line_is_undecided():
    # At --budget 100 on BOARD the shortest-line search is undecided, but witness searches
    # find wins from some starts, so solution.solvable is True while best.start is -1.
    result = rotator("solve", BOARD, "--budget", "100")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    assert f"Board {BOARD}" in result.stdout
    assert re.search(r"^A:E10\s+\S", result.stdout, re.M)


def test_solve_json_solvable_true_always_comes_with_a_winning_line():
    data = solve_json(BOARD, "--budget", "100")
    assert data["solvable"] in (True, None)  # never false: the board is winnable
    if data["solvable"] is True:
        check_winning_line(data)


def test_solve_budget_below_minimum_is_rejected():
    result = rotator("solve", BOARD, "--budget", "5")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "budget" in result.stderr


# --- board input ------------------------------------------------------------------------

def write_board(folder: Path, text: str, name: str = "board.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def nodes_toml(board_id: str, transform=lambda s: s) -> str:  # type: ignore[no-untyped-def]
    names = [card_name(c) for c in RotatorMap.from_id(board_id).nodes]
    return "nodes = [" + ", ".join(json.dumps(transform(n)) for n in names) + "]\n"


def shown_id(*args: str, cwd: Path | None = None) -> str:
    return ok(rotator("show", *args, cwd=cwd)).stdout.split()[0]


def test_toml_file_gives_the_same_board(tmp_path, board2_quick):
    # Nodes listed grid B first, in reverse: the ID is canonical all the same.
    names = [card_name(c) for c in RotatorMap.from_id(BOARD2).nodes][::-1]
    path = write_board(tmp_path, "# a board\nnodes = [" + ", ".join(map(json.dumps, names))
                       + "]\n")
    assert shown_id(str(path)) == BOARD2
    assert shown_id("board.toml", cwd=tmp_path) == BOARD2  # a relative path
    data = solve_json(str(path), "--quick")
    assert data["board_id"] == BOARD2
    assert data == board2_quick  # the same board, the same answer
    lower = write_board(tmp_path, nodes_toml(BOARD, str.lower), "lower.toml")
    assert shown_id(str(lower)) == BOARD


@pytest.mark.parametrize("spec", [BOARD.lower(), f"  {BOARD}  ", f"\t{BOARD.lower()} ",
                                  "r1:b2b8e4i2i8-B4E2E8H4I9"])
def test_id_case_and_spaces_do_not_matter(spec):
    assert shown_id(spec) == BOARD


# --- bad boards -------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "needles"), [
    ("hello", ["'hello'", "malformed"]),
    ("R1:B2B8E4I2I8", ["malformed"]),
    ("R9:B2B8E4I2I8-B4E2E8H4I9", ["version", "R9", "R1"]),
    ("R1:B2B8E4I2I8-B4E2E8H4G10", ["edge row", "B:G10"]),
    ("R1:B1B8E4I2I8-B4E2E8H4I9", ["edge row", "A:B1"]),
    ("R1:B2B8E4I2I8-B4E2E8H4I10", ["edge row", "B:I10"]),
    ("R1:A2B8E4I2I8-B4E2E8H4I9", ["edge column", "A:A2"]),
    ("R1:B2B8E4I2I8-B4E2E8H4J9", ["edge column", "B:J9"]),
    ("R1:B2B8E4I2I8-B4E2E8H4I8", ["overlap", "B:E8", "B:I8"]),
    ("R1:B2B8E4I2-B4E2E8H4I9", ["grid A", "4 Nodes", "5"]),
    ("R1:B2B8E4I2I8-B4E2E8H4I9C6", ["grid B", "6 Nodes"]),
    ("R1:B2B2E4I2I8-B4E2E8H4I9", ["A:B2", "twice"]),
    ("R1:B2B8E4I2I8-B4E2E8H4K9", ["character 23", "'K'", "column letter A–J"]),
    ("R1:B2B8E4I2I8-B4E2E8H4I9X", ["B4E2E8H4I9X"]),
])
def test_bad_board_ids(spec, needles):
    for command in ("show", "solve"):
        error_line(rotator(command, spec), *needles)


def test_every_broken_rule_names_the_node_in_one_sentence():
    # B:G10 is on an edge row, and its territory also overlaps B:E8's: two rules broken.
    line = error_line(rotator("show", "R1:B2B8E4I2I8-B4E2E8H4G10"))
    assert "Node B:G10 sits on an edge row" in line.split(" Also: ")[0]
    with pytest.raises(BoardError) as caught:
        RotatorMap.from_id("R1:B2B8E4I2I8-B4E2E8H4G10")
    problems = caught.value.problems
    assert line == f"error: {caught.value}"
    assert len(problems) == 2 and "B:E8" in problems[1] and "B:G10" in problems[1]
    for problem in problems:  # each broken rule is one sentence
        assert problem in line
        assert problem.count(". ") == 0 and problem.endswith(".")
    assert line.count(". ") == len(problems) - 1 and line.endswith(".")


GOOD_NODES = '"A:B2", "A:B8", "A:E4", "A:I2", "A:I8", "B:B4", "B:E2", "B:E8", "B:H4"'


@pytest.mark.parametrize(("text", "needles"), [
    ("nodes = [\n", ["invalid TOML"]),
    ("nodes = 5\n", ["nodes", "list"]),
    ("nodes = [1, 2]\n", ["nodes item 1", "text in quotes"]),
    (f'nodes = [{GOOD_NODES}, "B:I9"]\ncolour = "red"\n', ["unknown key colour", "valid: nodes"]),
    (f'nodes = ["A:K4", {GOOD_NODES[8:]}, "B:I9"]\n', ["'A:K4'", "card notation"]),
    (f'nodes = ["C:B2", {GOOD_NODES[8:]}, "B:I9"]\n', ["'C:B2'", "card notation"]),
    (f'nodes = [{GOOD_NODES}, "B:G10"]\n', ["edge row", "B:G10"]),
    (f'nodes = [{GOOD_NODES}]\n', ["grid B", "4 Nodes"]),
    (f'nodes = [{GOOD_NODES}, "B:I9", "B:I9"]\n', ["B:I9", "twice"]),
])
def test_bad_board_files(tmp_path, text, needles):
    path = write_board(tmp_path, text)
    error_line(rotator("show", str(path)), str(path), *needles)


def test_good_nodes_constant_is_a_board(tmp_path):
    # The bad files above are a valid board with one thing broken.
    path = write_board(tmp_path, f'nodes = [{GOOD_NODES}, "B:I9"]\n')
    assert shown_id(str(path)) == BOARD


def test_missing_board_file(tmp_path):
    missing = tmp_path / "nowhere.toml"
    error_line(rotator("show", str(missing)), str(missing), "does not exist")
    error_line(rotator("solve", str(missing), "--json"), "does not exist")


# --- generate ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def seven(tmp_path_factory) -> tuple[Result, Path]:
    """``generate --seed 7 --count 3`` (any grade), with one job."""
    return run_generate(tmp_path_factory.mktemp("seven"), "a", "--seed", "7", "--count", "3",
                        "--jobs", "1")


@pytest.fixture(scope="module")
def easy(tmp_path_factory) -> dict[str, tuple[Result, Path]]:
    """``generate --seed 7 --count 3 --difficulty easy``: once with one job, then again
    with two (the second run shows both that a run repeats and that jobs do not
    matter)."""
    tmp = tmp_path_factory.mktemp("easy")
    return {name: run_generate(tmp, name, "--seed", "7", "--count", "3", "--difficulty",
                               "easy", "--jobs", jobs)
            for name, jobs in (("a", "1"), ("c", "2"))}


def test_generate_json(seven):
    result, pdf = seven
    boards = boards_of(result)
    assert isinstance(boards, list) and len(boards) == 3
    for b in boards:
        assert {"board_id", "grade", "turns", "boosts"} <= set(b)
        assert RotatorMap.from_id(b["board_id"]).board_id == b["board_id"]
        assert b["grade"] in ("easy", "medium", "hard")
        assert isinstance(b["turns"], int) and b["turns"] > 0
        assert isinstance(b["boosts"], int) and b["boosts"] >= 0
        assert all(START_RE.match(s) for s in b["winning_starts"])
        assert b["start"] in b["winning_starts"]
        assert b["par"] == b["turns"] and 0 <= b["boosts_needed"] <= b["boosts"]
        assert 0 < b["par_first_moves"] <= b["open_first_moves"] <= b["first_moves"] <= 40
    assert len({b["board_id"] for b in boards}) == 3
    assert pdf.is_file() and "wrote" not in result.stdout + result.stderr  # pure JSON
    assert json.loads(result.stdout)["files"] == [{"path": str(pdf), "replaced": False}]


@pytest.mark.slow
def test_generate_is_reproducible_and_jobs_do_not_matter(easy):
    (a, pdf_a), (c, pdf_c) = easy["a"], easy["c"]
    assert a.stdout.replace("a.pdf", "c.pdf") == c.stdout
    assert boards_of(a) == boards_of(c)
    assert pdf_a.read_bytes() == pdf_c.read_bytes()


def test_generate_json_is_the_librarys_graded_records(easy):
    assert boards_of(easy["a"][0]) == [
        graded_record(b) for b in generate_boards(7, 3, Grade.EASY).boards]


def test_generated_figures_match_the_solver(seven):
    for b in boards_of(seven[0]):
        data = solve_json(b["board_id"], "--quick")
        assert data["solvable"] is True and data["complete"] is True
        assert (data["turns"], data["boosts"], data["start"]) == (b["turns"], b["boosts"],
                                                                  b["start"])
        assert data["winning_starts"] == b["winning_starts"]
        check_winning_line(data)


def test_generate_easy(easy):
    boards = boards_of(easy["a"][0])
    assert len(boards) == 3
    for b in boards:
        assert b["grade"] == "easy" and is_easy(b), b


def test_generate_hard(tmp_path):
    # One hard board proves the point; seed 5 finds it in a few maps.
    boards, pdf = generate(tmp_path, "hard", "--seed", "5", "--count", "1", "--difficulty",
                           "HARD", "--jobs", "1")
    assert len(boards) == 1
    for b in boards:
        assert b["grade"] == "hard" and is_hard(b), b
    assert pdf.is_file()


def test_grades_of_any_difficulty_follow_the_rules(seven):
    for b in boards_of(seven[0]):
        expected = "easy" if is_easy(b) else "hard" if is_hard(b) else "medium"
        assert b["grade"] == expected, b


def test_generate_gives_up_cleanly_within_its_tries(tmp_path):
    pdf = tmp_path / "never.pdf"
    result = rotator("generate", "--difficulty", "hard", "--count", "5", "--tries", "3",
                     "--seed", "7", "--json", "--jobs", "1", "-o", str(tmp_path), "--name",
                     "never")
    assert result.returncode != 0
    line = error_line(result, "found only", "of 5", "hard", "3 maps")
    k = int(re.search(r"found only (\d+) of 5", line).group(1))
    assert 0 <= k < 5
    data = json.loads(result.stdout)  # the JSON is still well-formed: the error object,
    assert data["error"]["message"] == line.removeprefix("error: ")  # and the book written
    assert len(data.get("files", [])) == (k > 0)
    assert pdf.is_file() == (k > 0)


@pytest.mark.parametrize(("args", "needles"), [
    (["--difficulty", "extreme"], ["--difficulty", "easy, medium, hard", "'extreme'"]),
    (["--size", "tiny"], ["--size", "card, large", "'tiny'"]),
    (["--layout", "tiny"], ["--layout", "'tiny'"]),
    (["--paper", "a3"], ["--paper", "'a3'"]),
])
def test_generate_bad_options(tmp_path, args, needles):
    pdf = tmp_path / "x.pdf"
    error_line(rotator("generate", "--count", "1", "-o", str(tmp_path), "--name", "x", *args),
               *needles, status=2)  # not one of the option's choices: a usage error
    assert not pdf.exists()


# --- the PDF of generate ----------------------------------------------------------------

GRADES = ["easy", "medium", "hard"]


def test_generate_pdf_rules_then_numbered_boards_then_solutions(seven):
    result, pdf = seven
    boards = boards_of(result)
    ids = [b["board_id"] for b in boards]
    # A mixed set runs easy to hard: grade, then par turns, then ID.
    assert [(GRADES.index(b["grade"]), b["turns"], b["board_id"]) for b in boards] == sorted(
        (GRADES.index(b["grade"]), b["turns"], b["board_id"]) for b in boards)
    rules, *texts = pdf_texts(pdf)
    assert rules.startswith("Rotator") and "Which way is down" in rules
    board_pages = [t for t in texts if not t.startswith("Solutions")]
    key_pages = [t for t in texts if t.startswith("Solutions")]
    # Card-sized boards go 3 across and 2 down on A4; six solutions share a page.
    assert len(board_pages) == math.ceil(len(boards) / 6) == 1
    assert len(key_pages) == math.ceil(len(boards) / 6) == 1
    assert texts == board_pages + key_pages  # boards first, keys after
    for n, board_id in enumerate(ids, 1):
        assert f"Puzzle {n}" in board_pages[0] and board_id in board_pages[0]
        assert f"Solution {n} {board_id}" in key_pages[0]
    assert "Gravity by turn" in board_pages[0]
    assert "won" in key_pages[0] and "Key:" in key_pages[0]


def test_generate_pdf_ids_sit_under_their_boards(seven):
    result, pdf = seven
    ids = [b["board_id"] for b in boards_of(result)]
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[1]  # after the rules
        words = page.extract_words()
        labels = [w for w in words if w["text"] in ("A", "J")]
        for board_id in ids:
            (word,) = [w for w in words if w["text"] == board_id]
            middle = (word["x0"] + word["x1"]) / 2
            # The column labels of grid B (the lowest on the page) above this ID's middle.
            near = [w for w in labels if abs((w["x0"] + w["x1"]) / 2 - middle) < 80
                    and w["bottom"] <= word["top"]]
            assert near, board_id
            assert 0 < word["top"] - max(w["bottom"] for w in near) < 20


def test_generate_pdf_without_keys_and_large(tmp_path):
    boards, pdf = generate(tmp_path, "nokeys", "--seed", "7", "--count", "3", "--no-keys",
                           "--no-rules", "--difficulty", "easy", "--jobs", "1")
    texts = pdf_texts(pdf)
    assert len(texts) == 1 and not any("Solution" in t for t in texts)
    assert all(b["board_id"] in texts[0] for b in boards)
    boards, pdf = generate(tmp_path, "large", "--seed", "7", "--count", "2", "--size",
                           "large", "--difficulty", "easy", "--jobs", "1", "--no-rules")
    texts = pdf_texts(pdf)
    assert len(texts) == 2 + 1  # one board per page, two solutions to a page
    for board, text in zip(boards, texts[:2], strict=True):
        assert board["board_id"] in text and "Solution" not in text
        other = [b["board_id"] for b in boards if b is not board]
        assert not any(o in text for o in other)  # one board per page
    assert texts[2].startswith("Solutions") and all(b["board_id"] in texts[2] for b in boards)


def test_generate_layout_is_the_old_spelling_of_size(tmp_path):
    """--layout nup|large still works, with a warning naming --size."""
    new = tmp_path / "new.pdf"
    old = tmp_path / "old.pdf"
    ok(rotator("generate", "--seed", "7", "--count", "1", "--difficulty", "easy", "--jobs",
               "1", "--no-rules", "--no-keys", "--size", "card", "-o", str(tmp_path), "--name",
               "new"))
    result = ok(rotator("generate", "--seed", "7", "--count", "1", "--difficulty", "easy",
                        "--jobs", "1", "--no-rules", "--no-keys", "--layout", "nup", "-o",
                        str(tmp_path), "--name", "old"))
    assert "--layout is deprecated" in result.stderr and "--size card" in result.stderr
    assert pdf_texts(old) == pdf_texts(new)


# --- print ------------------------------------------------------------------------------

def test_print_all_formats_with_key(tmp_path):
    base = tmp_path / "out" / "board"
    result = ok(rotator("print", BOARD2, "-f", "pdf,svg,png", "-o", str(base.parent), "--key",
                        "--dpi", "100"))
    pdf, svg, png = (base.with_suffix(s) for s in (".pdf", ".svg", ".png"))
    for path in (pdf, svg, png):
        assert path.is_file() and path.stat().st_size > 0, path
        assert str(path) in result.stdout
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    view_box = [float(v) for v in root.attrib["viewBox"].split()]
    assert len(view_box) == 4 and view_box[2] > 0 and view_box[3] > view_box[2] * 0.9
    with PILImage.open(png) as image:
        image.load()
        assert image.width > 100 and image.height > image.width * 0.9
    texts = pdf_texts(pdf)
    assert len(texts) == 2  # the board, then its key
    assert BOARD2 in texts[0] and "Solution" not in texts[0]
    assert "Solution 1" in texts[1] and BOARD2 in texts[1] and "Start: A:" in texts[1]
    # The SVG tells the line as the PDF does: the same table and legend.
    svg_text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    pdf_key = texts[1]
    for needle in ("Start: A:", "won", "Key:", "boosted"):
        assert needle in svg_text and needle in pdf_key


def test_print_several_boards(tmp_path):
    base = tmp_path / "two"
    error_line(rotator("print", BOARD, BOARD2, "-f", "svg", "-o", str(tmp_path), "--name",
                       "two"), "svg", "one board")
    assert not base.with_suffix(".svg").exists()
    ok(rotator("print", BOARD, BOARD2, "-o", str(tmp_path), "--name", "two", "--size", "card"))
    texts = pdf_texts(base.with_suffix(".pdf"))
    assert len(texts) == 1 and BOARD in texts[0] and BOARD2 in texts[0]


def test_print_bad_board_and_size(tmp_path):
    error_line(rotator("print", "hello", "-o", str(tmp_path / "x")), "malformed")
    error_line(rotator("print", BOARD, "--size", "huge", "-o", str(tmp_path / "x")), "--size",
               status=2)
    assert not list(tmp_path.iterdir())


# --- help -------------------------------------------------------------------------------

def test_help_lists_the_rotator_commands():
    sub = ok(rotator("--help")).stdout
    for command in ("show", "solve", "generate", "print"):
        assert re.search(rf"\b{command}\b", sub), command
    top = ok(cli("--help")).stdout
    assert "rotator" in top
    for command in ("show", "solve", "generate", "print"):
        ok(rotator(command, "--help"))
