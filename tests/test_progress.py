"""The progress line of long commands (``cardgen.cli.progress``): drawn on a terminal
only, ``k/N``, elapsed and ETA, first drawn at the start and redrawn at least every
second, cleared before what the command says next; nothing in a pipe or with --json.

The model is driven by a fake clock (the draws are counted, not waited for); the
commands run in a real 80 × 24 pseudo-terminal, read until they end."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cardgen.cli import progress as progress_module
from cardgen.cli.progress import EVERY, TICK, Progress, duration, eta, shown
from tests.helpers import cli, ok, run_process

CONTRACT_FIRST = 2.0  # seconds: the first draw at the latest (issue 25, CONTRACT item 6)
CONTRACT_EVERY = 5.0  # seconds: the longest wait between two draws
HANG_GUARD = 300  # seconds: only a hang fails on it
PEOPLE = ("person.name,person.title\nRobin Vale,Game Designer\nSam Reed,Producer\n"
          "Ada Example,Puzzle Designer\n")


class Clock:
    """A clock that moves only when told."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    """A stream that says it is a terminal and keeps every write (with the fake clock's
    time), and tells a waiting test when something was written."""

    def __init__(self, clock: Clock | None = None) -> None:
        super().__init__()
        self.clock = clock
        self.writes: list[tuple[float, str]] = []
        self.written = threading.Event()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.writes.append((self.clock() if self.clock else 0.0, text))
        self.written.set()
        return super().write(text)


def visible(transcript: str) -> list[str]:
    """What a terminal shows of ``transcript``: each line as carriage returns leave it
    (a later character overwrites an earlier one in its column), trailing blanks gone."""
    lines = []
    for raw in transcript.replace("\r\n", "\n").split("\n"):
        row: list[str] = []
        column = 0
        for char in raw:
            if char == "\r":
                column = 0
                continue
            if column < len(row):
                row[column] = char
            else:
                row.append(char)
            column += 1
        lines.append("".join(row).rstrip())
    return lines


def line_of(draw: str) -> str:
    """The text of one draw (a carriage return, the line, blanks over a longer one)."""
    return draw.lstrip("\r").rstrip()


def model(total: int | None = 4, label: str = "cards", width: int = 80):
    clock = Clock()
    terminal = Terminal(clock)
    return clock, terminal, Progress(label, total, stream=terminal, clock=clock,
                                     background=False, width=width)


# --- the model, with a fake clock -----------------------------------------------------

def test_the_first_draw_comes_at_the_start_with_k_of_n_elapsed_and_no_eta_yet():
    clock, terminal, line = model()
    line.start()
    assert line.draws == 1 and terminal.writes[0][0] - clock.now <= CONTRACT_FIRST
    assert line_of(terminal.writes[0][1]).startswith(
        "cards 0/4  elapsed 0:00  ETA -:--  [")
    line.close()


def test_it_is_redrawn_at_least_every_second_while_one_step_runs():
    clock, terminal, line = model()
    line.start()
    start = clock.now
    while clock.now < start + 60:  # a minute on one step, the background's polls
        clock.now += TICK
        line.poll()
    times = [t for t, text in terminal.writes]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) >= 60 and max(gaps) <= EVERY <= CONTRACT_EVERY
    assert line_of(terminal.writes[-1][1]).startswith("cards 0/4  elapsed 1:00  ETA -:--")
    line.close()


def test_fast_steps_are_drawn_at_most_every_fifth_of_a_second_but_the_last_always():
    clock, terminal, line = model(total=1000)
    line.start()
    start = clock.now
    for step in range(1, 1000):
        clock.now = start + step / 1000
        line.advance()
    assert line.draws == 1 + 4  # at 0.2, 0.4, 0.6 and 0.8 s
    clock.now = start + 1
    line.advance()
    assert line.draws == 6
    assert line_of(terminal.writes[-1][1]).startswith("cards 1000/1000  elapsed 0:01  ETA 0:00")
    line.close()


def test_the_eta_is_the_pace_so_far_times_the_steps_left_rounded_up():
    assert eta(10.0, 2, 10) == 40.0
    assert eta(10.0, 3, 10) == 24.0  # 23.33 s rounded up
    assert eta(0.5, 0, 10) is None  # no pace yet
    assert eta(7.0, 10, 10) == 0.0
    assert eta(7.0, 12, 10) == 0.0  # (more steps than said: nothing left)
    assert [duration(s) for s in (0, 0.99, 7, 59.9, 60, 754, 3600, 3723)] == [
        "0:00", "0:00", "0:07", "0:59", "1:00", "12:34", "1:00:00", "1:02:03"]


def test_the_line_shows_k_of_n_the_elapsed_time_and_the_eta_as_the_steps_go():
    clock, terminal, line = model(total=10)
    line.start()
    clock.now += 12
    line.update(3, note="63 maps tried")
    text = line_of(terminal.writes[-1][1])
    assert text.startswith("cards 3/10  elapsed 0:12  ETA 0:28  (63 maps tried)  [")
    bar = text.split("[")[1]
    assert bar.endswith("]") and bar.count("#") == (len(bar) - 1) * 3 // 10
    line.close()


def test_a_stage_has_its_own_count_and_eta_and_the_commands_elapsed_time():
    clock, terminal, line = model(total=None, label="laying out cards")
    line.start()
    assert line_of(terminal.writes[-1][1]) == "laying out cards  elapsed 0:00"
    clock.now += 1
    line.update(0, 100)  # the count, learnt once the table is read
    clock.now += 4
    line.update(100)
    clock.now += 1
    line.stage("drawing cards", 100)
    clock.now += 10
    line.update(50)
    assert line_of(terminal.writes[-1][1]).startswith(
        "drawing cards 50/100  elapsed 0:16  ETA 0:10  [")
    line.close()


def test_a_line_after_another_counts_the_elapsed_time_from_the_first():
    clock, terminal, first = model()
    first.start()
    clock.now += 65
    first.close()
    second = Progress("drawing the book", stream=terminal, clock=clock, background=False,
                      width=80, since=first)
    second.start()
    assert line_of(terminal.writes[-1][1]) == "drawing the book  elapsed 1:05"
    second.close()


@pytest.mark.parametrize("width", [1, 2, 4, 10, 20, 40, 60, 80, 132])
def test_the_line_never_fills_the_terminals_width(width):
    clock, terminal, line = model(total=123456, label="assemblies of a long label " * 3,
                                  width=width)
    line.start()
    clock.now += 3725
    line.update(65432, note="trying 5 cards")
    draws = [text for _, text in terminal.writes if not text.endswith("\r")]
    assert len(draws) == 2
    for text in draws:
        assert len(text.lstrip("\r")) <= max(1, width - 1)
    line.close()


def test_a_narrow_line_leaves_out_the_bar_then_the_note():
    clock, terminal, line = model(total=12, label="hard boards found", width=50)
    line.start()
    clock.now += 3
    line.update(3, note="63 maps tried")
    assert line_of(terminal.writes[-1][1]) == "hard boards found 3/12  elapsed 0:03  ETA 0:09"
    line.close()


def test_closing_blanks_the_line_so_that_the_next_output_starts_clean():
    clock, terminal, line = model()
    with line:
        clock.now += 2
        line.update(2)
    terminal.write("wrote out/card.pdf\n")
    assert visible(terminal.getvalue()) == ["wrote out/card.pdf", ""]


def test_a_shorter_line_blanks_what_is_left_of_a_longer_one():
    _, terminal, line = model(total=None, label="laying out the cards of the team")
    line.start()
    line.stage("drawing")
    assert visible(terminal.getvalue()) == ["drawing  elapsed 0:00"]
    line.close()
    assert visible(terminal.getvalue()) == [""]


def test_paused_blanks_the_line_for_warnings_and_draws_it_again():
    _, terminal, line = model()
    line.start()
    with line.paused():
        terminal.write("warning: images.logo: soft\n")
    line.close()
    assert visible(terminal.getvalue()) == ["warning: images.logo: soft", ""]
    assert line.draws == 2


def test_the_background_thread_redraws_while_the_command_is_busy():
    clock = Clock()
    terminal = Terminal(clock)
    line = Progress("cards", 4, stream=terminal, clock=clock, width=80)
    with line:
        assert line.draws == 1
        terminal.written.clear()
        clock.now += 3  # one card takes three seconds: no update from the command
        assert terminal.written.wait(HANG_GUARD)
        assert line_of(terminal.writes[-1][1]).startswith("cards 0/4  elapsed 0:03")
    draws = line.draws
    clock.now += 10
    assert line._thread is None and line.draws == draws  # none after the end


def test_nothing_is_drawn_but_on_a_terminal_and_without_json_or_quiet():
    terminal = Terminal()
    assert shown(stream=terminal) is terminal
    assert shown(stream=io.StringIO()) is None  # a pipe, a file
    assert shown(stream=terminal, json=True) is None
    assert shown(stream=terminal, quiet=True) is None
    assert shown(stream=terminal, show=False) is None
    switch = {"-q": True}
    progress_module.read_quiet(lambda: switch["-q"])  # (the command line's -q, once it has one)
    try:
        assert shown(stream=terminal) is None
        switch["-q"] = False
        assert shown(stream=terminal) is terminal
    finally:
        progress_module.read_quiet(None)
    assert shown(stream=terminal) is terminal


def test_a_disabled_line_writes_nothing_and_starts_no_thread():
    line = Progress("cards", 4, stream=None)
    with line:
        line.update(2)
        line.stage("writing")
        with line.paused():
            pass
        assert line._thread is None
    assert line.draws == 0


def test_in_process_runs_write_no_progress(tmp_path):
    # (the tests' in-process runs capture stderr: not a terminal)
    people = tmp_path / "people.csv"
    people.write_text(PEOPLE, encoding="utf-8")
    result = ok(cli("card", "--batch", people, "-f", "pdf", "-o", tmp_path / "out"))
    assert result.stderr == "" and "elapsed" not in result.stdout


def test_progress_imports_only_the_standard_library():
    """(rich's progress bar, which it replaces, costs 20 ms of imports.)"""
    import ast

    tree = ast.parse(Path(progress_module.__file__).read_text(encoding="utf-8"))
    names = {alias.name.split(".")[0] for node in ast.walk(tree)
             if isinstance(node, ast.Import) for alias in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module}
    assert names - {"cardgen"} <= set(sys.stdlib_module_names) | {"__future__"}


# --- the commands, in a real terminal -------------------------------------------------

def terminal_run(args: list[str], cwd: Path, *, stdout_pipe: bool = False,
                 signal_at: bytes | None = None) -> tuple[int, str, str]:
    """``cardgen ARGS`` with stderr (and stdout, unless ``stdout_pipe``) on a real 80 × 24
    pseudo-terminal, read until the command ends: (status, what the terminal got,
    stdout when piped). With ``signal_at``, Ctrl-C's signal once the terminal has shown
    that text."""
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, NO_COLOR="1", COLUMNS="80", LINES="24")
    process = subprocess.Popen(
        [sys.executable, "-m", "cardgen", *args], cwd=cwd, env=env, stdin=slave,
        stdout=subprocess.PIPE if stdout_pipe else slave, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], HANG_GUARD)
        assert ready, "the command hangs"
        try:
            chunk = os.read(master, 65536)
        except OSError:  # (EIO: the command ended, the terminal closed)
            break
        if not chunk:
            break
        seen += chunk
        if signal_at is not None and signal_at in seen:
            process.send_signal(signal.SIGINT)
            signal_at = None
    os.close(master)
    piped = process.stdout.read().decode() if process.stdout else ""
    status = process.wait(HANG_GUARD)
    return status, seen.decode(), piped


def progress_lines(transcript: str) -> list[str]:
    """Every progress line the terminal was shown, in order."""
    return [part.rstrip() for part in re.split(r"[\r\n]", transcript)
            if "elapsed" in part]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_card_batch_shows_its_progress_on_a_terminal_and_leaves_the_normal_output(
        tmp_path):
    (tmp_path / "people.csv").write_text(PEOPLE, encoding="utf-8")
    args = ["card", "--batch", "people.csv", "-f", "pdf", "-o", "out"]
    status, transcript, _ = terminal_run(args, tmp_path)
    assert status == 0
    drawn = progress_lines(transcript)
    assert drawn[0].startswith("laying out cards  elapsed 0:0")  # at once
    assert any(re.match(r"laying out cards 3/3  elapsed \d:\d\d  ETA 0:00  \[#+\]$", d)
               for d in drawn)
    assert any(re.match(r"drawing cards 0/3  elapsed \d:\d\d  ETA -:--  \[\.+\]$", d)
               for d in drawn)
    assert any(re.match(r"drawing cards 3/3  elapsed \d:\d\d  ETA 0:00  \[#+\]$", d)
               for d in drawn)
    assert all(len(d) < 80 for d in drawn)
    # What stays on the screen is what a pipe gets, line for line.
    piped = run_process(*args[:-1], "again", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""
    assert visible(transcript) == (piped.stdout.replace("again", "out") + "").split("\n")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_rotator_generate_shows_boards_found_with_time_on_a_terminal(tmp_path):
    status, transcript, _ = terminal_run(
        ["rotator", "generate", "--count", "2", "--difficulty", "easy", "-o", "book/"],
        tmp_path)
    assert status == 0
    drawn = progress_lines(transcript)
    assert drawn[0].startswith("easy boards found 0/2  elapsed 0:0")
    assert any(re.match(r"easy boards found 2/2  elapsed \d:\d\d  ETA 0:00  "
                        r"\(\d+ maps tried\)", d) for d in drawn)
    assert any(d.startswith("drawing the book  elapsed") for d in drawn)
    assert visible(transcript) == ["wrote book/rotator.pdf", "2 boards in the book.", ""]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_with_json_a_terminal_gets_no_progress_and_stdout_only_the_json(tmp_path):
    (tmp_path / "people.csv").write_text(PEOPLE, encoding="utf-8")
    status, transcript, stdout = terminal_run(
        ["card", "--batch", "people.csv", "-f", "pdf", "-o", "out", "--json"], tmp_path,
        stdout_pipe=True)
    assert status == 0 and transcript == ""
    assert len(json.loads(stdout)["cards"]) == 3


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_rotator_generate_with_json_draws_no_progress_on_a_terminal(tmp_path):
    # (rich's bar, before, was drawn with --json too)
    status, transcript, stdout = terminal_run(
        ["rotator", "generate", "--count", "2", "--difficulty", "easy", "-o", "book/",
         "--json"], tmp_path, stdout_pipe=True)
    assert status == 0 and len(json.loads(stdout)) == 2
    assert "elapsed" not in transcript and "found" not in transcript
    assert all(line.startswith("wrote ") for line in visible(transcript) if line)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_an_error_after_the_progress_line_is_said_on_a_clean_line(tmp_path):
    (tmp_path / "people.csv").write_text(
        "person.name,person.title,images.portrait\n" + "\n".join(
            line + "," for line in PEOPLE.splitlines()[1:]) + "\nBo,Artist,bo.png\n",
        encoding="utf-8")
    status, transcript, _ = terminal_run(
        ["card", "--batch", "people.csv", "-f", "pdf", "-o", "out"], tmp_path)
    assert status == 1 and "laying out cards" in transcript
    shown_lines = visible(transcript)
    assert len(shown_lines) == 2 and shown_lines[1] == ""
    assert shown_lines[0].startswith("error: people.csv: line 5 ('Bo'): images.portrait")
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_ctrl_c_during_the_progress_line_says_interrupted_on_a_clean_line(tmp_path):
    (tmp_path / "people.csv").write_text(
        "person.name\n" + "".join(f"Person {i}\n" for i in range(12)), encoding="utf-8")
    status, transcript, _ = terminal_run(
        ["card", "--batch", "people.csv", "-o", "out"], tmp_path,
        signal_at=b"drawing cards 0/12")
    assert status == 130 and "drawing cards 0/12" in transcript
    assert visible(transcript) == ["interrupted", ""]
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_in_a_pipe_only_the_normal_output_appears(tmp_path):
    # (the quick loop's pipe run is the one test_card_batch_shows_its_progress… compares)
    (tmp_path / "people.csv").write_text(PEOPLE, encoding="utf-8")
    batch = run_process("card", "--batch", "people.csv", "-f", "pdf", "-o", "out",
                        cwd=tmp_path)
    assert batch.returncode == 0 and batch.stderr == ""
    assert batch.stdout.splitlines()[-1] == "3 cards: 4 files in out"
    assert "\r" not in batch.stdout
    book = run_process("rotator", "generate", "--count", "1", "--difficulty", "easy",
                       "--jobs", "1", "-o", "book/", cwd=tmp_path)
    assert (book.returncode, book.stdout, book.stderr) == (
        0, "wrote book/rotator.pdf\n1 board in the book.\n", "")


def test_each_item_is_a_step_done_when_the_next_is_asked_for():
    clock, _, line = model(total=3)
    line.start()
    seen = []
    for item in line.each("abc"):
        seen.append((item, line.done))
        clock.now += 1
    assert seen == [("a", 0), ("b", 1), ("c", 2)] and line.done == 3
    line.close()


def test_render_tells_the_files_it_has_made_of_how_many():
    from cardgen.draw.geometry import Box
    from cardgen.draw.page import Document, Page, Rect
    from cardgen.render import Format, render

    pages = []
    for name in ("outside", "inside"):
        page = Page(name, 20, 10, Box(0, 0, 20, 10), Box(0, 0, 20, 10))
        page.layer("art").add(Rect(1, 1, 5, 5))
        pages.append(page)
    told: list[tuple[int, int]] = []
    files = render(Document(pages, title="t"), [Format.PNG, Format.PDF, Format.SVG], dpi=36,
                   progress=lambda done, total: told.append((done, total)))
    assert len(files) == 5  # one PDF, an SVG and a PNG per page
    assert told == [(k, 5) for k in range(6)]


@pytest.mark.parametrize(("width", "expected"), [
    (60, "any boards found 1/3  elapsed 0:02  ETA 0:04  [###........]"),
    (40, "any boar... 1/3  elapsed 0:02  ETA 0:04"),
    (30, "1/3  elapsed 0:02  ETA 0:04"),
    (20, "1/3  elapsed 0:0..."),
])
def test_on_a_narrow_terminal_the_label_gives_way_to_the_figures(width, expected):
    clock, terminal, line = model(total=3, label="any boards found", width=width)
    line.start()
    clock.now += 2
    line.update(1, note="9 maps tried")
    assert line_of(terminal.writes[-1][1]) == expected
    line.close()
