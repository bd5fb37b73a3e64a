"""The Rotator library (``cardgen.api.rotator``): what it returns is what ``cardgen rotator``
writes and prints, byte for byte; the same for any ``jobs`` and in a fresh process; bad
input raises the domain's errors with their codes, and nothing is ever written."""

from __future__ import annotations

import hashlib
import json
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardgen
from cardgen.api.files import Files
from cardgen.api.rotator import (
    Outcome,
    Phase,
    RotatorMap,
    StartColumn,
    generate_rotator,
    make_rotator_boards,
    make_rotator_book,
    play_rotator,
    read_rotator_board,
    rotator_board,
    rotator_game,
    rotator_lines,
    rotator_start,
    solve_rotator,
)
from cardgen.errors import BoardError, BoardProblem, ConfigError, ParameterError
from tests.helpers import ROOT, cli, ok
from tests.test_hostile_input import FUZZ

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"
NODES = ["A:B2", "A:B8", "A:E4", "A:I2", "A:I8", "B:B4", "B:E2", "B:E8", "B:H4", "B:I9"]


def _folder_bytes(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# --- boards ----------------------------------------------------------------------------

def test_a_board_from_an_id_a_file_a_mapping_or_a_map_is_the_same_board(tmp_path):
    by_id = rotator_board(BOARD)
    path = tmp_path / "board.toml"
    path.write_text("nodes = [" + ", ".join(f'"{n}"' for n in NODES) + "]\n")
    assert by_id.board_id == BOARD
    assert rotator_board(path) == read_rotator_board(str(path)) == by_id
    assert rotator_board({"nodes": NODES}) == rotator_board(path.read_text()) == by_id
    assert read_rotator_board(BOARD) == by_id
    assert rotator_board(by_id) is by_id
    assert isinstance(by_id, RotatorMap) and cardgen.RotatorMap is RotatorMap


def test_text_is_never_taken_for_a_files_name(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text("nodes = [" + ", ".join(f'"{n}"' for n in NODES) + "]\n")
    with pytest.raises(BoardError):
        rotator_board(str(path))  # an ID that is not one: the file is not read
    with pytest.raises(ConfigError) as caught:
        rotator_board("nodes = 3")
    assert caught.value.codes


def test_a_board_from_a_seed_is_the_first_board_generated_from_it():
    assert rotator_board(seed=3) == generate_rotator(3, 1, "easy").boards[0].rmap


def test_the_board_as_text_is_what_rotator_show_prints():
    shown = ok(cli("rotator", "show", BOARD)).stdout.splitlines()
    assert rotator_lines(BOARD) == shown


# --- solving ---------------------------------------------------------------------------

def test_a_solution_is_what_rotator_solve_prints_and_its_json():
    answer = solve_rotator(BOARD)
    assert answer.solvable is True and answer.board_id == BOARD
    text = ok(cli("rotator", "solve", BOARD)).stdout
    assert "".join(f"{line}\n" for line in answer.describe(budget_name="--budget")) == text
    record = json.loads(ok(cli("rotator", "solve", BOARD, "--json")).stdout)
    assert answer.record() == record


def test_a_solution_is_the_same_for_one_or_two_jobs_and_survives_a_pipe():
    one, two = solve_rotator(BOARD, jobs=1), solve_rotator(BOARD, jobs=2)
    assert one.record() == two.record()
    assert pickle.loads(pickle.dumps(one)).record() == one.record()  # a task queue's result


def test_progress_is_told_every_start():
    seen: list[int] = []
    solve_rotator(BOARD, quick=True, progress=seen.append)
    assert len(seen) == 10


# --- generated books -------------------------------------------------------------------

@pytest.fixture(scope="module")
def generated():
    return generate_rotator(seed=7, count=3, difficulty="easy,hard", jobs=1)


def test_a_generation_is_the_same_for_any_jobs(generated):
    again = generate_rotator(seed=7, count=3, difficulty=["easy", "hard"], jobs=2)
    assert again == generated and again.complete
    assert make_rotator_book(again).files == make_rotator_book(generated).files


def test_the_book_is_the_file_rotator_generate_writes(generated, tmp_path):
    result = ok(cli("rotator", "generate", "--seed", "7", "--count", "3", "--difficulty",
                    "easy,hard", "--jobs", "1", "-o", tmp_path, "--name", "book"))
    book = make_rotator_book(generated, name="book")
    assert dict(book.files) == _folder_bytes(tmp_path)
    assert book.board_ids == generated.board_ids
    assert "3 boards in the book." in result.stdout
    listed = json.loads(ok(cli("rotator", "generate", "--seed", "7", "--count", "3",
                               "--difficulty", "easy,hard", "--json", "-o",
                               tmp_path / "j")).stdout)["boards"]
    assert generated.records() == listed


def test_book_options_reach_the_book(generated, tmp_path):
    ok(cli("rotator", "generate", "--seed", "7", "--count", "3", "--difficulty",
           "easy,hard", "--size", "large", "--no-keys", "--no-rules", "--paper", "letter",
           "-o", tmp_path))
    book = make_rotator_book(generated, size="large", keys=False, rules=False,
                             paper="letter")
    assert dict(book.files) == _folder_bytes(tmp_path)


def test_a_short_generation_says_what_it_lacks():
    made = generate_rotator(seed=1, count=5, difficulty="hard", tries=3)
    assert not made.complete and made.candidates == 3
    assert len(made.boards) < 5


# --- printed boards --------------------------------------------------------------------

def test_printed_boards_are_the_files_rotator_print_writes(tmp_path):
    ok(cli("rotator", "print", BOARD, "-f", "pdf,svg,png", "--key", "--dpi", "72",
           "--size", "card", "-o", tmp_path))
    made = make_rotator_boards(BOARD, formats=["pdf", "svg", "png"], key=True, dpi=72,
                               size="card")
    assert list(made.files) == ["board.pdf", "board.svg", "board.png"]
    assert dict(made.files) == _folder_bytes(tmp_path)
    assert made.keys[0].turns == solve_rotator(BOARD).best.turns


def test_several_boards_with_the_rules_sheet(tmp_path):
    other = generate_rotator(seed=2, count=1).boards[0].rmap
    ok(cli("rotator", "print", BOARD, other.board_id, "--rules", "--paper", "letter",
           "-o", tmp_path, "--name", "two"))
    made = make_rotator_boards([BOARD, other], rules=True, paper="letter", name="two")
    assert dict(made.files) == _folder_bytes(tmp_path)
    assert made.board_ids == (BOARD, other.board_id) and made.keys == ()


# --- play ------------------------------------------------------------------------------

def test_the_referee_plays_the_best_line_to_the_goal():
    best = solve_rotator(BOARD).best
    game = rotator_game()
    position = game.initial(rotator_board(BOARD))
    assert StartColumn(best.start) in game.legal_moves(position)
    position = game.push(position, StartColumn(best.start))
    for choice in best.choices:
        assert game.outcome(position) is None and choice in game.legal_moves(position)
        position = game.push(position, choice)
    assert game.outcome(position) == Outcome((1,), "goal")
    assert game.legal_moves(position) == []
    with pytest.raises(ValueError):
        game.push(position, StartColumn(0))


def test_a_session_plays_as_the_terminal_does():
    session = play_rotator(BOARD, start="E")
    assert session.phase is Phase.MOVE and session.start == rotator_start("A:E10") == 5
    session.play(session.options()[0])
    assert len(session.log) == 1 and session.undo() and not session.log
    assert play_rotator(BOARD).phase is Phase.START


# --- errors ----------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "parameter"), [
    (lambda: solve_rotator(BOARD, budget=5), "budget"),
    (lambda: solve_rotator(BOARD, jobs=0), "jobs"),
    (lambda: generate_rotator(seed=2 ** 64), "seed"),
    (lambda: generate_rotator(count=0), "count"),
    (lambda: generate_rotator(tries=0), "tries"),
    (lambda: generate_rotator(difficulty="easy,easy"), "difficulty"),
    (lambda: generate_rotator(difficulty="tricky"), "difficulty"),
    (lambda: make_rotator_boards(BOARD, formats="doc"), "formats"),
    (lambda: make_rotator_boards([BOARD, BOARD], formats="svg"), "formats"),
    (lambda: make_rotator_boards(BOARD, formats="png", rules=True), "rules"),
    (lambda: make_rotator_boards(BOARD, size="huge"), "size"),
    (lambda: make_rotator_boards(BOARD, paper="a3"), "paper"),
    (lambda: make_rotator_boards(BOARD, dpi=10), "dpi"),
    (lambda: make_rotator_boards(BOARD, name="../up"), "name"),
    (lambda: rotator_start("K"), "start"),
    (lambda: rotator_board(), "board"),
    (lambda: rotator_board(BOARD, seed=1), "seed"),
    (lambda: rotator_board(42), "board"),
])
def test_a_bad_parameter_is_named_and_nothing_is_written(call, parameter, tmp_path,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParameterError) as caught:
        call()
    assert caught.value.parameter == parameter
    assert list(tmp_path.iterdir()) == []


def test_a_bad_board_carries_its_problem_codes(tmp_path):
    with pytest.raises(BoardError) as caught:
        rotator_board("R1:B2B2E4I2I8-B4E2E8H4I9")
    assert BoardProblem.DUPLICATE_NODE in caught.value.codes
    with pytest.raises(BoardError) as caught:
        solve_rotator("R9:B2")
    assert all(code.startswith("board.") for code in caught.value.codes)
    with pytest.raises(ConfigError):
        rotator_board({"nodes": ["A:B2"], "extra": 1})


# --- the same bytes in any process -----------------------------------------------------

FRESH = """
import hashlib, json, sys
from cardgen.api.rotator import make_rotator_boards, make_rotator_book, generate_rotator
made = make_rotator_boards(sys.argv[1], formats="pdf,svg", key=True)
book = make_rotator_book(generate_rotator(seed=7, count=3, difficulty="easy,hard", jobs=2))
files = {**made.files, **book.files}
print(json.dumps({n: hashlib.sha256(d).hexdigest() for n, d in files.items()}))
"""


def test_a_fresh_process_makes_the_same_bytes(generated):
    done = subprocess.run([sys.executable, "-c", FRESH, BOARD], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    here = Files(make_rotator_boards(BOARD, formats="pdf,svg", key=True).files
                 | make_rotator_book(generated).files)
    assert json.loads(done.stdout) == {n: hashlib.sha256(d).hexdigest()
                                       for n, d in here.items()}


def _printed(board: str) -> dict[str, bytes]:
    """One task of a queue: a board's printed files with its answer key."""
    return dict(make_rotator_boards(board, key=True, name=board[3:8]).files)


def test_a_process_pool_makes_the_files_the_command_line_writes(generated, tmp_path):
    boards = [BOARD, *generated.board_ids]
    with ProcessPoolExecutor(2) as pool:
        made = list(pool.map(_printed, boards))
    for board, files in zip(boards, made, strict=True):
        ok(cli("rotator", "print", board, "--key", "-o", tmp_path, "--name", board[3:8]))
        assert files == {f"{board[3:8]}.pdf": (tmp_path / f"{board[3:8]}.pdf").read_bytes()}


# --- play, as data for a view ---------------------------------------------------------

def test_the_play_record_draws_the_session_the_terminal_plays():
    from cardgen.api.rotator import rotator_decide, rotator_hint_record, rotator_play_record

    game = play_rotator(BOARD)
    record = rotator_play_record(game)
    json.dumps(record, allow_nan=False)  # JSON as it is
    assert record["phase"] == "start" and record["you"] is None and record["turn"] == 1
    assert [o["n"] for o in record["options"]] == list(range(1, 11))
    assert len(record["cells"]) == 20 and {len(row) for row in record["cells"]} == {10}
    assert record["cells"][0][0]["name"] == "A:J10" and record["cells"][19][0]["name"] == "B:A10"
    assert record["rows"][0] == record["rows"][19] == "10"
    assert record["columns"]["A"][0] == "J" and record["columns"]["B"][0] == "A"
    rmap = rotator_board(BOARD)
    assert {(x, y) for y, row in enumerate(record["cells"]) for x, sq in enumerate(row)
            if sq["rock"]} == set(rmap.solid)
    assert [n["name"] for n in record["nodes"]] == NODES
    hint = rotator_hint_record(game)
    assert hint["option"] == 5 and hint["text"].startswith("Hint: start on A:E10.")
    assert rotator_decide(game, hint["option"]) is None
    record = rotator_play_record(game)
    assert record["you"] == {"cell": [5, 0], "name": "A:E10"}
    assert record["cells"][0][5]["touched"] == 1 and record["cells"][0][5]["fills"] == 4
    assert record["cells"][0][5]["title"] == (
        "A:E10: touched in turn 1, fills in at the collapse step of turn 4")
    # Each move says what it would do, as the engine plays it.
    for option, engine in zip(record["options"], game.options(), strict=True):
        assert option["end"] == list(engine.report.end)
        assert [s["cell"] for s in option["steps"] if s["how"] == "boost"] == [
            list(c) for c in engine.report.boosted]
    assert record["options"][3]["short"] == "→ A:E4, captures A:E4"
    report = rotator_decide(game, 4)
    assert report is not None and report.captured is not None
    record = rotator_play_record(game)
    assert record["phase"] == "pick" and record["question"] == (
        "You hold the Node at A:E4: choose the square of its diamond to start this turn on.")
    assert record["gravity"] == {"way": "right", "arrow": "→", "words": "right",
                                 "quarter_turns": 1, "step": [1, 0]}
    assert record["boosts"] == "Boost cache: 8 of 10 left"
    assert not record["nodes"][2]["active"]
    with pytest.raises(ParameterError, match=r"option must be a whole number from 1 to 13, "
                                             r"not 0\."):
        rotator_decide(game, 0)
    with pytest.raises(ParameterError, match="not True"):
        rotator_decide(game, True)
    with pytest.raises(ParameterError, match="budget must be"):
        rotator_hint_record(game, budget=5)


@FUZZ
@given(st.lists(st.integers(min_value=0, max_value=12), max_size=14))
def test_the_play_record_says_what_the_engine_has_after_any_choices(picks):
    from cardgen.api.rotator import rotator_decide, rotator_play_record

    game = play_rotator(BOARD)
    for pick in picks:
        record = rotator_play_record(game)
        json.dumps(record, allow_nan=False)
        state, phase = game.state, game.phase
        assert record["phase"] == phase.value
        assert (record["verdict"] is None) == (phase.value not in ("won", "lost"))
        assert record["can_undo"] == game.can_undo and record["boosts_left"] == game.boosts_left
        if state is not None:
            solid = {(x, y) for y, row in enumerate(record["cells"]) for x, sq in enumerate(row)
                     if sq["rock"]}
            assert solid == set(state.solid)
            touched = {(x, y): sq["touched"] for y, row in enumerate(record["cells"])
                       for x, sq in enumerate(row) if sq["touched"] is not None}
            assert touched == state.touch_turns()
            due = {(x, y) for y, row in enumerate(record["cells"]) for x, sq in enumerate(row)
                   if sq["due"]}
            assert due == (set() if record["verdict"] else set(game.fills_in()))
            assert record["you"]["cell"] == list(game.picked or state.pos)
        if record["verdict"] is not None:
            break
        count = len(record["options"])
        assert count == len(game.options() if phase.value == "move" else game.start_cells())
        option = record["options"][pick % count]
        report = rotator_decide(game, option["n"])
        if option["kind"] == "move":
            assert report is not None and option["end"] == list(report.end)
            assert (option["won"], option["lost"]) == (report.won, report.lost)
        else:
            assert (report is not None) == option["won"]
